"""Browser test of the battle page between two phones: the owner starts a battle from the
campaign page, then two players in two browser contexts play the scenario's steps. Picking a
stance redraws the odds chart (htmx); a hidden choice leaves the other player's page alone;
when a step is revealed the waiting player's page updates by itself, without a reload (the
event stream and battle.js). The organiser looks on with scripts off. Every page gets flow.py's
audit (axe-core, no sideways scrolling at 360 px, 44 px targets, one h1, a main landmark) and
screenshots at 375 px and 1280 px.

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from flow import CHROMIUM, SHOTS, audit, check, failures, start_server
from flow_aftermath import api, log_in, roster, user


def live_marker(page: Page) -> None:
    """Marks the document: a reload or navigation drops the mark."""
    page.evaluate("() => { window.__sameDocument = true; }")


def same_document(page: Page) -> bool:
    return page.evaluate("() => window.__sameDocument === true")


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            organiser = user(base, "nadia")
            owner = user(base, "olga")
            player = user(base, "pavel")
            campaign = api(base, "POST", "/api/v1/campaigns", {"name": "Operation Long Winter"}, organiser)
            for token in (owner, player):
                code = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/invites", {}, organiser)["code"]
                api(base, "POST", "/api/v1/campaigns/join", {"code": code}, token)
            api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Olga's Lancers"), owner)
            api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Pavel's Rangers"), player)

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                # bypass_csp lets the test inject axe; the pages themselves allow no inline script.
                olga_ctx = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                olga = olga_ctx.new_page()
                log_in(olga, base, "olga")

                # Olga starts the battle from the campaign page; a missing side is shown first.
                olga.goto(base + f"/campaigns/{campaign['id']}")
                olga.get_by_role("link", name="Start a battle").click()
                expect(olga.get_by_role("heading", level=1)).to_have_text("Start a battle")
                audit(olga, "50-battle-new")
                olga.get_by_label("First side").select_option(label="Olga's Lancers (olga)")
                olga.get_by_role("button", name="Start battle").click()
                expect(olga.locator("#error-summary")).to_be_focused()
                audit(olga, "51-battle-new-error")
                olga.get_by_label("Second side").select_option(label="Pavel's Rangers (pavel)")
                olga.get_by_role("button", name="Start battle").click()
                expect(olga.get_by_role("heading", level=1)).to_have_text("Olga's Lancers vs Pavel's Rangers")
                battle_url = olga.url

                pavel_ctx = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                pavel = pavel_ctx.new_page()
                log_in(pavel, base, "pavel")
                pavel.goto(battle_url)
                expect(pavel.get_by_role("button", name="Submit orders")).to_be_visible()
                audit(pavel, "52-battle-orders")

                # Olga's picks redraw the odds chart in place.
                olga.get_by_label("Stance").select_option("defensive")
                olga.get_by_label("Attitude").select_option("passive")
                expect(olga.locator("#odds-0 meter")).to_have_count(8)
                olga.get_by_label("Alpha Squad").check()
                audit(olga, "53-battle-orders-odds")
                # Olga's orders are secret: Pavel's page stays as it is.
                signature = pavel.locator("#battle").get_attribute("data-signature")
                live_marker(pavel)
                olga.get_by_role("button", name="Submit orders").click()
                expect(olga.get_by_text("Your orders are in")).to_be_visible()
                pavel.wait_for_timeout(2500)
                check(pavel.locator("#battle").get_attribute("data-signature") == signature,
                      "Pavel's page changed on Olga's hidden orders")
                check("Defensive" not in pavel.locator("section.side").first.inner_text(), "Olga's stance on Pavel's page")

                # Pavel's orders close the step: Olga's page shows the revealed stances and the
                # bonus form by itself.
                live_marker(olga)
                pavel.get_by_label("Stance").select_option("offensive")
                pavel.get_by_label("Attitude").select_option("aggressive")
                pavel.get_by_role("button", name="Submit orders").click()
                expect(olga.get_by_label("First mission bonus")).to_be_visible(timeout=10000)
                check(same_document(olga), "Olga's page reloaded instead of updating in place")
                expect(olga.locator("section.side").nth(1)).to_contain_text("Offensive")
                audit(olga, "54-battle-bonuses")

                # Pavel gives his bonuses first (hidden); then Olga's roll the missions, and
                # Pavel's page follows without a reload.
                expect(pavel.get_by_label("First mission bonus")).to_be_visible()
                pavel.get_by_label("First mission bonus").select_option("strike")
                pavel.get_by_label("Second mission bonus").select_option("sweep")
                expect(pavel.locator("#odds-1 meter")).to_have_count(8)
                pavel.get_by_role("button", name="Submit mission bonuses").click()
                expect(pavel.get_by_text("Your mission bonuses are in")).to_be_visible()
                live_marker(pavel)
                olga.get_by_label("First mission bonus").select_option("hold")
                olga.get_by_label("Second mission bonus").select_option("hold")
                olga.get_by_role("button", name="Submit mission bonuses").click()
                expect(olga.locator("#error-summary")).to_be_focused()
                audit(olga, "55-battle-bonuses-error")
                olga.get_by_label("Second mission bonus").select_option("interfere")
                olga.get_by_role("button", name="Submit mission bonuses").click()
                expect(pavel.get_by_text("Mission totals").first).to_be_visible(timeout=10000)
                check(same_document(pavel), "Pavel's page reloaded instead of updating in place")
                audit(pavel, "56-battle-missions")

                # The organiser looks on with scripts off: the referee's view, every side's forms.
                referee_ctx = browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
                referee = referee_ctx.new_page()
                log_in(referee, base, "nadia")
                referee.goto(battle_url)
                expect(referee.get_by_role("heading", level=1)).to_have_text("Olga's Lancers vs Pavel's Rangers")
                audit(referee, "57-battle-referee", scripts=False)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"battle browser tests passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
