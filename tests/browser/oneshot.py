"""Browser test of the one-shot generator for game night, signed out: a real Chromium opens
/scenarios/new without an account, submits a bad unit list (the form comes back with the input
kept and the error summary focused), fixes it, lands on the printable sheet with its share
link, opens the share link in a second browser with JavaScript off, then signs up, keeps the
scenario and opens a new campaign's story page. Every page gets the same audit as flow.py (axe-core, no sideways scrolling, 44 px
targets, one h1, a main landmark, a Home link); screenshots at 375 px and 1280 px go to
$SCREENSHOT_DIR with the prefix `oneshot-`.

Run through tests/browser/run.
"""

import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

import flow
from flow import CHROMIUM, PASSWORD, SHOTS, audit, check, start_server


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = context.new_page()
                page.goto(base + "/")
                page.get_by_role("link", name="Generate a scenario").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Generate a scenario")
                audit(page, "oneshot-01-generator")

                page.get_by_label("Side 1 name").fill("Red Company")
                page.get_by_label("Side 1 units").fill("Alpha Squad, squad, regular, steady, 8\nBig Gun, tank")
                page.get_by_label("Side 1 stance").select_option("offensive")
                page.get_by_label("Side 1 attitude").select_option("aggressive")
                page.get_by_label("Side 2 name").fill("Raiders")
                page.get_by_label("Side 2 units").fill("Raider Band, squad, conscript, 10")
                page.get_by_label("Side 2 is a non-player force").check()
                page.get_by_label("Side 2 stance").select_option("")
                page.get_by_label("Side 2 attitude").select_option("")
                page.get_by_label("Roll the circumstances of war").check()
                page.get_by_role("button", name="Generate scenario").click()

                # The form comes back: the summary has focus, the line is named, input kept.
                summary = page.locator("#error-summary")
                expect(summary).to_be_focused()
                expect(summary).to_contain_text("line 2")
                expect(page.get_by_label("Side 1 units")).to_have_value("Alpha Squad, squad, regular, steady, 8\nBig Gun, tank")
                expect(page.get_by_label("Side 2 is a non-player force")).to_be_checked()
                audit(page, "oneshot-02-errors")

                page.get_by_label("Side 1 units").fill("Alpha Squad, squad, regular, steady, 8\nBig Gun, weapons team, 3")
                page.get_by_role("button", name="Generate scenario").click()
                expect(page).to_have_url(re.compile(r"/scenarios/[0-9a-f-]{36}$"))
                expect(page.get_by_role("heading", level=1)).to_have_text("Scenario: Red Company vs Raiders")
                check("Circumstances of war" in page.content(), "the narrative is on the sheet")
                audit(page, "oneshot-03-sheet")
                share = page.get_by_role("link", name=re.compile(r"scenarios.shared"))
                share_url = share.get_attribute("href") or ""
                check("/scenarios/shared/" in share_url, f"share link shown: {share_url}")

                # The share link works in another browser, scripts off.
                other = browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
                shared = other.new_page()
                shared.goto(share_url)
                expect(shared.get_by_role("heading", level=1)).to_have_text("Scenario: Red Company vs Raiders")
                # A sheet for each side: each shows its own mission, not the other's.
                sides = page.get_by_role("link", name=re.compile(r"scenarios.side"))
                check(sides.count() == 2, f"two side sheets linked: {sides.count()}")
                side_urls = [sides.nth(i).get_attribute("href") or "" for i in range(sides.count())]
                for i, url in enumerate(side_urls):
                    shared.goto(url)
                    expect(shared.get_by_role("heading", level=1)).to_have_text("Scenario: Red Company vs Raiders")
                    name = ["Red Company", "Raiders"][i]
                    expect(shared.locator(".banner").first).to_contain_text(f"Sheet for {name}")
                    # Unless both rolled the same mission (Escalating Engagement reveals it and
                    # cancels the markers), a side sees its own mission only.
                    if "Escalating Engagement" not in shared.content():
                        check(shared.locator("h3", has_text="Mission:").count() == 1, f"side {i + 1}: one mission shown")
                        check(shared.locator("rect.marker").count() > 0, f"side {i + 1}: numbered markers on the map")
                    for width in (375, 1280):
                        shared.set_viewport_size({"width": width, "height": 900})
                        shared.screenshot(path=str(SHOTS / f"oneshot-03b-side-{i + 1}-{width}.png"), full_page=True)
                other.close()

                # Signing up from the sheet comes back to it, and Keep makes it the account's.
                sheet_url = page.url
                page.get_by_role("link", name="Log in to keep it").click()
                page.get_by_role("link", name="Create an account", exact=True).click()
                page.get_by_label("Username").fill("gamenight")
                page.get_by_label("Password").fill(PASSWORD)
                page.get_by_role("button", name="Create account").click()
                expect(page).to_have_url(sheet_url)
                page.get_by_role("button", name="Keep").click()
                expect(page.get_by_text("Saved in your account")).to_be_visible()
                audit(page, "oneshot-04-kept")

                # The campaign story, linked from a new campaign's page.
                page.goto(base + "/campaigns/new")
                page.get_by_label("Name").fill("Game Night League")
                page.get_by_role("button", name="Create campaign").click()
                campaign_url = page.url
                page.get_by_role("link", name="Add a force").click()
                page.get_by_label("Force name").fill("Night Owls")
                page.get_by_role("button", name="Generate force").click()
                page.goto(campaign_url)
                page.get_by_role("link", name="The campaign's story").click()
                expect(page.get_by_role("link", name="Night Owls")).to_be_visible()
                expect(page.get_by_role("heading", level=1)).to_have_text("Story of Game Night League")
                audit(page, "oneshot-05-story")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if flow.failures:
        print(f"{len(flow.failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"one-shot browser test passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
