"""Browser test of house rules: an organiser writes a house ruleset through the form (a bad
value first: the form comes back with the error beside its control and the input kept), reads
its page with the changed rows marked, and creates a campaign under it from the Rules select;
the campaign page names it. The built-in F.A.D. basic and advanced rules show their ladders and
readings (linked to the rules reference) and a campaign is created under them. Every page gets flow.py's audit (axe, no sideways scrolling, tap
targets, screenshots at 360, 375 and 1280 px).

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from flow import CHROMIUM, SHOTS, audit, check, failures, register, start_server


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True).new_page()
                page.goto(base + "/register")
                register(page, base, "rosa")
                expect(page.get_by_role("heading", level=1)).to_have_text("Your campaigns")

                # The form, filled with FAD 5e's numbers; a bad number comes back beside its field.
                page.goto(base + "/rulesets/new")
                expect(page.get_by_role("heading", level=1)).to_have_text("Write house rules")
                audit(page, "80-ruleset-form")
                page.get_by_label("Id", exact=True).fill("stockholm-fad")
                page.get_by_label("Name", exact=True).fill("Stockholm club FAD")
                page.get_by_label("Campaign points per platoon after each battle").fill("30")
                quality = page.get_by_role("group", name="Quality loss table")
                quality.get_by_label("Die 2").select_option("stays")
                page.get_by_label("Cost of assigning a trait").fill("3")
                page.get_by_role("button", name="Save house rules").click()
                expect(page.locator("#error-summary")).to_be_visible()
                error = page.locator("#f-campaign-cp-per-platoon-error")
                expect(error).to_be_visible()
                check(page.get_by_label("Id", exact=True).input_value() == "stockholm-fad", "the id is kept")
                check(quality.get_by_label("Die 2").input_value() == "stays", "the table row is kept")
                audit(page, "81-ruleset-form-error")

                page.get_by_label("Campaign points per platoon after each battle").fill("3")
                page.get_by_role("button", name="Save house rules").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Stockholm club FAD")
                check(page.url.endswith("/rules/club/stockholm-fad"), f"the ruleset's page opens: {page.url}")
                expect(page.locator("#t-quality_loss-2 mark")).to_have_text("changed")
                expect(page.locator("#t-quality_loss-3 mark")).to_have_count(0)
                expect(page.locator("#m-assign_trait mark")).to_have_text("changed")
                audit(page, "82-ruleset-page")

                # A campaign under it, from the Rules select.
                page.goto(base + "/campaigns/new")
                page.get_by_label("Name").fill("Operation Long Winter")
                page.get_by_label("Rules").select_option("club/stockholm-fad")
                audit(page, "83-campaign-new-rules")
                page.get_by_role("button", name="Create campaign").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                expect(page.get_by_role("link", name="Stockholm club FAD (version 1)")).to_be_visible()
                audit(page, "84-campaign-under-house-rules")
                page.get_by_role("link", name="Stockholm club FAD (version 1)").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Stockholm club FAD")

                # The built-in F.A.D. basic and advanced rules: their ladders and readings, each
                # reading linked to the rules reference, and the campaign form offers them.
                page.goto(base + "/rules/fad-basic-advanced")
                expect(page.get_by_role("heading", level=1)).to_have_text("F.A.D. basic and advanced rules")
                expect(page.get_by_role("heading", name="Leader experience")).to_be_visible()
                expect(page.locator("#B2")).to_contain_text("Experienced")
                audit(page, "85-basic-advanced-rules")
                page.locator("#B2").get_by_role("link").click()
                expect(page.get_by_role("heading", name="B2 · Squad leaders raise Quality")).to_be_visible()
                check(page.url.endswith("/rules#B2"), f"the reading links to the reference: {page.url}")
                page.goto(base + "/campaigns/new")
                page.get_by_label("Name").fill("Operation Basic")
                page.get_by_label("Rules").select_option("fad-basic-advanced")
                page.get_by_role("button", name="Create campaign").click()
                expect(page.get_by_role("link", name="F.A.D. basic and advanced rules (version 1)")).to_be_visible()
                audit(page, "86-campaign-under-basic-advanced")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        return 1
    print(f"ruleset browser flow passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
