"""Browser test of one whole campaign battle as a club plays it, on two phones (375 px) and the
organiser's: register, create a campaign, invite, the second player joins, each player
generates a force, a player starts a battle from the campaign page, both give orders (the
waiting player's page updates by itself), the scenario steps as they come, the result is
recorded and confirmed by the opponent, each player runs the post-battle sequence with entered
dice, reinforcements, a purchase and finalize; then the roster, its history, the campaign's
standings and the timeline show what happened. Every page gets flow.py's audit, no secret of
the other side in its text, and every link on it answers without 404 or 500.

Run through tests/browser/run.
"""

import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Page, expect, sync_playwright

from flow import CHROMIUM, SHOTS, audit, check, failures, page_text, plain_words, register, start_server
from flow_battle import live_marker, same_document

# Links already crawled (path → status), so each is fetched once per session.
crawled: dict[str, int] = {}


def crawl(page: Page, base: str, name: str) -> None:
    """Every same-site link on the page answers without 404 or 500 (with the page's cookies)."""
    hrefs = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
    for href in hrefs:
        if not href.startswith(base) or "#" in href.split("/")[-1][:1]:
            continue
        path = href[len(base):].split("#")[0]
        if not path or path in crawled:
            continue
        response = page.request.get(href, max_redirects=0)
        crawled[path] = response.status
        check(response.status not in (404, 500), f"{name}: link {path} answers {response.status}")
        # The crawler's second half: every page reached reads in plain words.
        if response.status == 200 and "text/html" in response.headers.get("content-type", ""):
            plain_words(page_text(response.text()), f"{name} → {path}", path)


def visit(page: Page, base: str, name: str, secrets: tuple[str, ...] = (), scripts: bool = True, side: int = 0) -> None:
    """The audit, the secrets (looked for in the other side's part of a battle page: one's own
    form lists every choice) and the links."""
    audit(page, name, scripts=scripts)
    text = page.locator("section.side").nth(side).inner_text() if secrets else ""
    for secret in secrets:
        check(secret not in text, f"{name}: the other side's secret {secret!r} shows")
    crawl(page, base, name)


def visible(page: Page, role: str, name: str) -> bool:
    locator = page.get_by_role(role, name=name)
    return locator.count() > 0 and locator.first.is_visible()


def play_step(page: Page) -> str:
    """Acts on whatever scenario step the page offers this player; returns what it did."""
    if visible(page, "button", "Submit mission bonuses") and not page.get_by_text("Your mission bonuses are in").count():
        page.get_by_label("First mission bonus").select_option("strike")
        page.get_by_label("Second mission bonus").select_option("sweep")
        # The mission dice are entered, so the steps that follow are the same every run.
        form = page.locator("form:has(button:text-is('Submit mission bonuses'))")
        form.locator("details.dice summary").click()
        dice = form.locator("details.dice input:not([type=hidden])")
        for i in range(dice.count()):
            dice.nth(i).fill(str(i % 6 + 1))
        page.get_by_role("button", name="Submit mission bonuses").click()
        return "bonuses"
    if visible(page, "button", "Choose mission"):
        page.get_by_label("Mission").select_option(index=1)
        page.get_by_role("button", name="Choose mission").click()
        return "choice"
    if visible(page, "button", "Declare target"):
        page.get_by_label("Assault target").select_option(index=1)
        page.get_by_role("button", name="Declare target").click()
        return "assault"
    if visible(page, "button", "Pass"):
        page.get_by_role("button", name="Pass").click()
        return "recon"
    return ""


def sequence(page: Page, base: str, force: str, shot: str) -> None:
    """Runs one force's post-battle sequence with entered dice, then reinforcements, a
    purchase and finalize."""
    page.get_by_role("link", name=f"Post-battle sequence of {force}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"After the battle: {force}")
    visit(page, base, f"{shot}-steps")
    for _ in range(12):
        if not visible(page, "button", "Roll"):
            break
        # Every die of the step is entered: a middling 4 keeps the path the same every run.
        dice = page.locator("form:has(button:text-is('Roll')) input[type=number]")
        for i in range(dice.count()):
            dice.nth(i).fill("4")
        page.get_by_role("button", name="Roll").click()
        expect(page.locator("#error-summary")).to_have_count(0)
    expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
    visit(page, base, f"{shot}-rolled")
    purchase = page.get_by_role("group", name="Purchase 1")
    if purchase.count():
        purchase.get_by_label("Item").select_option("improve_resolve")
        purchase.get_by_label("Unit").select_option(index=1)
        page.get_by_role("button", name="Save purchases").click()
        expect(page.locator("#error-summary")).to_have_count(0)
    forgo = page.get_by_label("Finalize without assigning")
    if forgo.count():
        forgo.check()
    page.get_by_role("button", name="Finalize").click()
    expect(page.get_by_text("finalized").first).to_be_visible()
    visit(page, base, f"{shot}-finalized")


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                phone = {"viewport": {"width": 375, "height": 812}, "bypass_csp": True}
                # The organiser registers, creates the campaign and an invite link.
                nadia = browser.new_context(**phone).new_page()
                nadia.goto(base + "/register")
                register(nadia, base, "nadia")
                expect(nadia.get_by_role("heading", level=1)).to_have_text("Your campaigns")
                nadia.get_by_role("link", name="Create a campaign").click()
                nadia.get_by_label("Name").fill("Operation Long Winter")
                nadia.get_by_role("button", name="Create campaign").click()
                expect(nadia.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                campaign_url = nadia.url
                nadia.get_by_role("button", name="Create invite link").click()
                invite = nadia.locator("a[href*='/join/']").first.get_attribute("href")
                visit(nadia, base, "60-campaign-invite")

                # Two players on two phones join through the link and generate a force each.
                players = {}
                for name, force in (("olga", "Olga's Lancers"), ("pavel", "Pavel's Rangers")):
                    page = browser.new_context(**phone).new_page()
                    page.goto(invite)
                    page.get_by_role("link", name="Create an account").click()
                    register(page, base, name)
                    page.get_by_role("button", name="Join campaign").click()
                    expect(page.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                    page.get_by_role("link", name="Add a force").click()
                    page.get_by_label("Force name").fill(force)
                    page.get_by_role("button", name="Generate force").click()
                    expect(page.get_by_role("heading", level=1)).to_have_text(force)
                    players[name] = (page, page.url)
                    visit(page, base, f"61-force-{name}")
                olga, olga_force = players["olga"]
                pavel, pavel_force = players["pavel"]

                # Olga starts the battle from the campaign page.
                olga.goto(campaign_url)
                visit(olga, base, "62-campaign-player")
                olga.get_by_role("link", name="Start a battle").click()
                olga.get_by_label("First side").select_option(label="Olga's Lancers (olga)")
                olga.get_by_label("Second side").select_option(label="Pavel's Rangers (pavel)")
                visit(olga, base, "63-battle-new")
                olga.get_by_role("button", name="Start battle").click()
                expect(olga.get_by_role("heading", level=1)).to_have_text("Olga's Lancers vs Pavel's Rangers")
                battle_url = olga.url
                pavel.goto(battle_url)
                expect(pavel.get_by_role("button", name="Submit orders")).to_be_visible()
                visit(pavel, base, "64-battle-orders")

                # Orders with entered table-edge dice; Olga's stay secret until Pavel's are in,
                # and Olga's page then updates by itself.
                olga.get_by_label("Stance").select_option("defensive")
                olga.get_by_label("Attitude").select_option("passive")
                olga.locator("details.dice summary").first.click()
                olga.get_by_label("Table edge roll").fill("3")
                olga.get_by_role("button", name="Submit orders").click()
                expect(olga.get_by_text("Your orders are in")).to_be_visible()
                visit(olga, base, "65-battle-orders-in")
                pavel.reload()
                visit(pavel, base, "66-battle-other-waits", secrets=("Defensive", "Passive"))
                live_marker(olga)
                pavel.get_by_label("Stance").select_option("offensive")
                pavel.get_by_label("Attitude").select_option("aggressive")
                pavel.locator("details.dice summary").first.click()
                pavel.get_by_label("Table edge roll").fill("5")
                pavel.get_by_role("button", name="Submit orders").click()
                expect(olga.locator("section.side").nth(1)).to_contain_text("Offensive", timeout=10000)
                check(same_document(olga), "Olga's page reloaded instead of updating in place")
                visit(olga, base, "67-battle-revealed")

                # The remaining steps, whatever they are, until the scenario is ready.
                steps = []
                for i in range(30):
                    if olga.get_by_text("The scenario is ready").count() and pavel.get_by_text("The scenario is ready").count():
                        break
                    did = ""
                    for who, page in (("olga", olga), ("pavel", pavel)):
                        page.reload()
                        step = play_step(page)
                        if step:
                            steps.append(f"{who}:{step}")
                            visit(page, base, f"68-battle-{i:02d}-{who}-{step}")
                            did = step
                            break
                    if not did:
                        olga.reload()
                        pavel.reload()
                        if not olga.get_by_text("The scenario is ready").count():
                            check(False, f"no step to play and not ready; steps so far {steps}")
                            break
                print(f"scenario steps: {steps}")
                expect(olga.get_by_text("The scenario is ready").first).to_be_visible()
                # Pavel's mission and any assault target stay his own until the battle is over.
                visit(olga, base, "69-battle-ready", secrets=("Assault target", "Tied missions", "Mission rolls"), side=1)
                visit(pavel, base, "69-battle-ready-pavel")
                # Each side's printable sheet (opened by a form, so the crawler never meets it)
                # reads in plain words: unit names, events and objectives, no ids or keys.
                for page, force in ((olga, "Olga's Lancers"), (pavel, "Pavel's Rangers")):
                    page.get_by_role("button", name=f"Sheet for {force}").click()
                    expect(page.get_by_role("heading", level=1)).to_contain_text("Scenario:")
                    plain_words(page.locator("body").inner_text(), f"69a-sheet-{force}", urlparse(page.url).path)
                    page.screenshot(path=str(SHOTS / f"69a-sheet-{force.split()[0].lower()[:-2]}-375.png"), full_page=True)
                    page.goto(battle_url)

                # Olga records a win for her side; Pavel confirms.
                olga.get_by_role("link", name="Record the result").click()
                olga.get_by_label("Outcome").select_option("win")
                olga.get_by_label("Winner").select_option(label="Olga's Lancers")
                first_lost = olga.get_by_label("Figures lost")
                first_lost.first.fill("2")
                first_lost.last.fill("3")
                visit(olga, base, "70-result-form")
                olga.get_by_role("button", name="Record result").click()
                expect(olga.get_by_text("The result waits for confirmation.")).to_be_visible()
                visit(olga, base, "71-result-pending")
                # Pavel's home asks him to confirm, and the organiser's too (she referees).
                for who, page in (("pavel", pavel), ("nadia", nadia)):
                    page.goto(base + "/")
                    ask = page.get_by_role("link", name="Confirm the result of Olga's Lancers vs Pavel's Rangers")
                    expect(ask).to_be_visible()
                    visit(page, base, f"71a-home-confirm-{who}")
                # Pavel confirms on the battle page itself.
                pavel.get_by_role("link", name="Confirm the result of Olga's Lancers vs Pavel's Rangers").click()
                expect(pavel).to_have_url(battle_url)
                visit(pavel, base, "72-result-confirm")
                pavel.get_by_role("button", name="Confirm result").click()
                expect(pavel.get_by_role("link", name="Post-battle sequence of Pavel's Rangers")).to_be_visible()

                # Each player's post-battle sequence.
                for page, force, shot in ((olga, "Olga's Lancers", "73-olga"), (pavel, "Pavel's Rangers", "74-pavel")):
                    page.goto(battle_url)
                    sequence(page, base, force, shot)

                # A finished battle says so; its scenario is not "ready" again.
                olga.goto(battle_url)
                main_text = olga.locator("main").inner_text()
                check("State: Finished" in main_text and "Ready: the battle can start" not in main_text,
                      f"a finished battle says finished: {main_text[:400]!r}")
                visit(olga, base, "74a-battle-finished")
                # The roster shows the battle and its history lists it.
                olga.goto(olga_force)
                visit(olga, base, "75-roster-after")
                olga.get_by_role("link", name="History").click()
                history = olga.locator("main").inner_text()
                # Olga's first unit lost 2 and got 1 back on the entered replacement 4.
                check(re.search(r"Version 2 · battle[\s\S]*strength: (\d+) → (\d+)", history) is not None,
                      f"history lists the battle's strength change: {history[:300]!r}")
                visit(olga, base, "76-history-after")

                # The campaign's standings and timeline tell the story.
                nadia.goto(campaign_url)
                standings = nadia.locator("main").inner_text()
                rows = [r.inner_text().split() for r in nadia.locator("table tbody tr").all()]
                check(any(r[:4] == ["Olga's", "Lancers", "1", "0"] for r in rows), f"standings: Olga won: {rows}")
                check(any(r[:5] == ["Pavel's", "Rangers", "0", "0", "1"] for r in rows), f"standings: Pavel lost: {rows}")
                visit(nadia, base, "77-campaign-after")
                nadia.goto(campaign_url + "/timeline")
                timeline = nadia.locator("main").inner_text()
                for line in ("the result was confirmed", "Olga's Lancers finished its post-battle sequence",
                             "Pavel's Rangers finished its post-battle sequence", "every post-battle sequence is done"):
                    check(line in timeline, f"the timeline tells: {line}")
                visit(nadia, base, "78-timeline")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"campaign browser tests passed; {len(crawled)} links crawled; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
