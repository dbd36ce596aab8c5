"""Browser test of solo play on a phone: a player fights a non-player Militia. The scenario is
played through the JSON API; then, at 375 px, the player splits the Militia into groups on the
battle page's Solo panel (a refused group first: its error beside the field, the input kept),
plays three turns (dice entered in the disclosure for the first, rolled by the server after),
records casualties, and reads per group what it does with a link to the rule. Every page gets
flow.py's audit (axe-core, no sideways scrolling, 44 px targets) and screenshots at 375 px and
1280 px.

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from flow import CHROMIUM, SHOTS, audit, check, failures, start_server
from flow_aftermath import api, log_in, roster, user

MILITIA = {"name": "Militia", "platoons": [
    {"name": "1st Platoon", "units": [
        {"name": "Rifles", "kind": "squad", "quality": "regular", "strength": 6},
        {"name": "Gunners", "kind": "squad", "quality": "conscript", "strength": 4}]},
    {"name": "2nd Platoon", "units": [
        {"name": "Veterans", "kind": "squad", "quality": "elite", "strength": 5}]},
]}

MISSION_DICE = {m: [6 if m == "patrol" else 1] for m in
                ("assault", "expand", "hold", "infiltrate", "interfere", "patrol", "strike", "sweep")}


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            organiser = user(base, "sofia")
            player = user(base, "tomas")
            campaign = api(base, "POST", "/api/v1/campaigns", {"name": "Lonely Outpost"}, organiser)
            code = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/invites", {}, organiser)["code"]
            api(base, "POST", "/api/v1/campaigns/join", {"code": code}, player)
            force = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Tomas' Rangers"), player)
            battle = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/battles",
                         {"sides": [{"force_id": force["id"]}, {"non_player": MILITIA}]}, player)
            scenario = f"/api/v1/battles/{battle['id']}/scenario"
            api(base, "POST", scenario + "/orders",
                {"force_id": force["id"], "stance": "neutral", "attitude": "cautious"}, player)
            state = api(base, "POST", scenario + "/mission-bonuses",
                        {"force_id": force["id"], "missions": ["patrol", "sweep"], "dice": {"mission": MISSION_DICE}},
                        player)
            for _ in range(20):
                if state["state"] == "ready":
                    break
                state = api(base, "POST", scenario + "/recon-actions", {"force_id": force["id"], "action": "pass"}, player)
            check(state["state"] == "ready", f"scenario not ready: {state['state']}")

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                ctx = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = ctx.new_page()
                log_in(page, base, "tomas")
                page.goto(base + f"/battles/{battle['id']}")
                solo = page.locator("#solo")
                expect(solo.get_by_role("heading", name="Solo", exact=True)).to_be_visible()
                audit(page, "80-solo-setup")

                # A group over a platoon is refused beside its units, the input kept.
                solo.get_by_label("Group name").nth(0).fill("Left flank")
                solo.get_by_label("Approach").nth(0).select_option("target")
                solo.get_by_label("Objective").nth(0).fill("the farmhouse")
                solo.get_by_label("Rallying point").nth(0).fill("the woods")
                group1 = solo.locator("fieldset").filter(has_text="Group 1").first
                group1.get_by_label("Rifles (1st Platoon, 6 figures)").check()
                group1.get_by_label("Veterans (2nd Platoon, 5 figures)").check()
                solo.get_by_role("button", name="Save groups").click()
                expect(page.locator("#solo-summary")).to_be_visible()
                expect(page.locator("#solo")).to_contain_text("at most a platoon")
                check(page.get_by_label("Group name").nth(0).input_value() == "Left flank", "group name not kept")
                audit(page, "81-solo-setup-error")

                solo = page.locator("#solo")
                group1 = solo.locator("fieldset").filter(has_text="Group 1").first
                group1.get_by_label("Veterans (2nd Platoon, 5 figures)").uncheck()
                group1.get_by_label("Gunners (1st Platoon, 4 figures)").check()
                solo.get_by_label("Group name").nth(1).fill("Hill")
                solo.get_by_label("Approach").nth(1).select_option("hold")
                solo.get_by_label("Discipline").nth(1).select_option("3")
                group2 = solo.locator("fieldset").filter(has_text="Group 2").first
                group2.get_by_label("Veterans (2nd Platoon, 5 figures)").check()
                solo.get_by_role("button", name="Save groups").click()
                expect(page.get_by_role("button", name="Start turn 1")).to_be_visible()
                audit(page, "82-solo-groups")

                # Turn 1 with dice from the table: Left flank 3 passes, Hill none.
                page.locator("#solo details.dice summary").click()
                page.get_by_label("Die 1 for Left flank").fill("4")
                page.get_by_label("Die 2 for Left flank").fill("5")
                page.get_by_label("Die 3 for Left flank").fill("6")
                page.get_by_label("Die 1 for Hill").fill("1")
                page.get_by_label("Die 2 for Hill").fill("2")
                page.get_by_label("Die 3 for Hill").fill("1")
                audit(page, "83-solo-dice")
                page.get_by_role("button", name="Start turn 1").click()
                expect(page.get_by_role("heading", name="Turn 1: what each group does")).to_be_visible()
                expect(page.locator("#solo")).to_contain_text("Moves at combat speed toward its objective")
                expect(page.locator("#solo")).to_contain_text("Falls back")
                expect(page.locator("#solo a[href='/rules#solo-target']")).to_have_count(1)
                audit(page, "84-solo-turn-1")

                # Casualties: 5 of Left flank's 10 figures is half: Discipline 4+ becomes 5+.
                page.get_by_label("Casualties for Left flank").fill("5")
                page.get_by_role("button", name="Record casualties").first.click()
                expect(page.locator("#solo")).to_contain_text("Discipline 5+ (worse by one")

                # Turn 2: Hill is still falling back (no test); turn 3: it has arrived.
                page.get_by_role("button", name="Start turn 2").click()
                expect(page.get_by_role("heading", name="Turn 2: what each group does")).to_be_visible()
                expect(page.locator("#solo")).to_contain_text("Hill · Still falling back")
                page.get_by_label("Arrived: Hill").check()
                page.get_by_role("button", name="Start turn 3").click()
                expect(page.get_by_role("heading", name="Turn 3: what each group does")).to_be_visible()
                expect(page.get_by_role("button", name="Start turn 4")).to_be_visible()
                audit(page, "85-solo-turn-3")

                # The JSON API shows the same three turns.
                solo_state = api(base, "GET", f"/api/v1/battles/{battle['id']}/solo", None, player)
                check(len(solo_state["turns"]) == 3, f"turns: {len(solo_state['turns'])}")

                # A one-shot scenario against the Militia: the same panel on its sheet.
                oneshot = api(base, "POST", "/api/v1/scenarios", {"sides": [
                    {"name": "Blue", "stance": "neutral", "attitude": "cautious",
                     "units": [{"name": "Alpha", "kind": "squad", "resolve": "steady"}]},
                    dict(MILITIA, non_player=True)]}, player)
                page.goto(base + f"/scenarios/{oneshot['id']}")
                solo = page.locator("#solo")
                solo.get_by_label("Group name").nth(0).fill("Farm")
                solo.locator("fieldset").filter(has_text="Group 1").first.get_by_label(
                    "Veterans (2nd Platoon, 5 figures)").check()
                solo.get_by_role("button", name="Save groups").click()
                page.get_by_role("button", name="Start turn 1").click()
                expect(page.get_by_role("heading", name="Turn 1: what each group does")).to_be_visible()
                audit(page, "86-solo-oneshot")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"solo browser tests passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
