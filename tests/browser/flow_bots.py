"""Browser test for bots and club sites: a player makes a personal access token on the
`Tokens for bots` page (shown once, with a Copy button), sees it listed without the token and
revokes it; an organiser publishes the standings and opens the framable standings page. Every
app page gets flow.py's audit; the embed page (no site navigation: it lives inside a club's
page) gets the same checks but the navigation link.

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import expect, sync_playwright

from flow import AXE, CHROMIUM, SHOTS, audit, check, failures, plain_words, register, start_server


def audit_embed(page, name: str) -> None:
    """flow.audit without the site navigation an embedded page does not have."""
    plain_words(page.locator("body").inner_text(), name, urlparse(page.url).path)
    check(page.locator("h1").count() == 1, f"{name}: exactly one h1")
    check(page.locator("main").count() == 1, f"{name}: one main landmark")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )
    bad = [v for v in result if v["impact"] in ("serious", "critical")]
    check(not bad, f"{name}: axe serious/critical violations {bad}")
    for width, height in ((360, 780), (375, 812), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 0, f"{name}: scrolls sideways by {overflow}px at {width}px")
        if width != 360:
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = context.new_page()
                page.goto(base + "/register")
                register(page, base, "rosa")
                expect(page.get_by_role("heading", level=1)).to_have_text("Your campaigns")

                # A campaign to publish.
                page.goto(base + "/campaigns/new")
                page.get_by_label("Name").fill("Operation Long Winter")
                page.get_by_role("button", name="Create campaign").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                campaign = urlparse(page.url).path.rstrip("/").split("/")[-1]

                # Tokens for bots, from the account page.
                page.goto(base + "/account")
                page.get_by_role("link", name="Tokens for bots").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Tokens for bots")
                expect(page.get_by_text("You have no tokens.")).to_be_visible()
                audit(page, "90-tokens-empty")

                # A blank name comes back beside its field.
                page.get_by_role("button", name="Make token").click()
                expect(page.locator("#error-summary")).to_be_visible()
                audit(page, "91-tokens-error")

                page.get_by_label("Name").fill("Club chat bot")
                page.get_by_label("What it may do").select_option("read write")
                page.get_by_role("button", name="Make token").click()
                expect(page.get_by_role("heading", name="New token: Club chat bot")).to_be_visible()
                token = page.get_by_role("textbox", name="Token").input_value()
                check(token.startswith("fadp_") and len(token) == 69, f"a whole token is shown: {len(token)}")
                copy = page.get_by_role("button", name="Copy token")
                expect(copy).to_be_visible()
                audit(page, "92-token-made")
                copy.click()
                status = page.locator(".copy-status")
                expect(status).not_to_be_empty()
                check(status.inner_text() in ("Token copied.", "It is selected: copy it from the field."),
                      f"copy says what happened: {status.inner_text()}")

                # The bot adds two forces with it, through the API.
                for name in ("Blue Guard", "Red Raiders"):
                    made = page.request.post(
                        f"{base}/api/v1/campaigns/{campaign}/forces",
                        headers={"Authorization": f"Bearer {token}"},
                        data={"name": name, "platoons": [{"name": "1st Platoon", "units": [
                            {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
                             "strength": 8, "starting_strength": 8, "armour": "improved",
                             "basic_weapon": "assault_rifles"}]}]},
                    )
                    check(made.status == 201, f"the token writes: {made.status} {made.text()[:200]}")

                # Reloaded, the token is gone for good; the list names it.
                page.goto(base + "/account/tokens")
                check(token not in page.content(), "the token is never shown again")
                expect(page.get_by_text("Reads and acts for you")).to_be_visible()
                page.get_by_role("button", name="Revoke Club chat bot").click()
                expect(page.get_by_text("You have no tokens.")).to_be_visible()

                # Published standings on a club's site.
                embed = f"{base}/campaigns/{campaign}/standings/embed"
                check(page.request.get(embed).status == 404, "unpublished standings are not served")
                page.goto(f"{base}/campaigns/{campaign}/settings")
                page.get_by_label("Publish the standings").check()
                page.get_by_role("button", name="Save house rules").click()
                page.goto(embed)
                expect(page.get_by_role("heading", level=1)).to_have_text("Standings of Operation Long Winter")
                expect(page.get_by_role("row")).to_have_count(3)
                audit_embed(page, "93-standings-embed")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print(f"bots browser flow passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
