"""Browser test of the FMA playtest ruleset (docs/rules.md §11): an organiser creates a campaign
under it from the Rules select, builds a team figure by figure in the editor (Experience,
Motivation, armour, one weapon), reads the roster and its printable cards in the game's own
words, and, after a battle recorded through the API, runs the post-battle sequence on the page:
the casualty roll for the figures that were down, Motivation change, and a new figure for the
team. Every page gets flow.py's audit (axe, no sideways scrolling, tap targets, plain words,
screenshots at 375 and 1280 px).

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from flow import CHROMIUM, SHOTS, audit, check, failures, open_section, start_server
from flow_aftermath import api, log_in, user

RIFLE = {"name": "Assault rifle", "bands": [{"inches": 12, "firepower": "d10"}, {"inches": 24, "firepower": "d8"},
                                             {"inches": 36, "firepower": "d6"}], "impact": "d10"}


def figure(name: str, experience: str, motivation: int) -> dict:
    return {"name": name, "kind": "character", "strength": 1, "starting_strength": 1,
            "fma": {"experience": experience, "motivation": motivation, "armour": "light", "weapons": [RIFLE]}}


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            organiser = user(base, "greta")
            player = user(base, "hugo")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                page = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True).new_page()
                log_in(page, base, "greta")

                # A campaign under the FMA playtest, from the Rules select.
                page.goto(base + "/campaigns/new")
                page.get_by_label("Name", exact=True).fill("Precinct war")
                page.get_by_label("Rules").select_option("gzg-fma-1999")
                page.get_by_role("button", name="Create campaign").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Precinct war")
                campaign_id = page.url.rstrip("/").split("/")[-1]

                # The editor offers a figure's own fields; one weapon typed in.
                page.goto(base + f"/campaigns/{campaign_id}/forces/new")
                audit(page, "90-fma-new-force")
                page.get_by_label("Force name").fill("Strike force")
                page.get_by_label("Team name").fill("Bravo")
                page.get_by_label("Name", exact=True).fill("Sgt. Reyes")
                page.get_by_label("Experience").select_option("veteran")
                page.get_by_label("Motivation").select_option("1")
                page.get_by_label("Team role").select_option("leader")
                open_section(page.locator("main"), "Weapons")
                page.get_by_label("Weapon", exact=True).fill("Assault rifle")
                page.get_by_label("Range bands, inches").fill("12/24/36")
                page.get_by_label("Firepower dice").fill("d10/d8/d6")
                page.get_by_label("Impact die").select_option("d10")
                audit(page, "91-fma-editor")
                page.get_by_role("button", name="Create force").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Strike force")
                content = page.content()
                check("Veteran · d10" in content, "the roster names the grade with its die")
                check("Assault rifle 12/24/36 d10/d8/d6, impact d10" in content, "the weapon summary")
                audit(page, "92-fma-roster")
                force_id = page.url.rstrip("/").split("/")[-1]
                page.goto(base + f"/forces/{force_id}/cards")
                expect(page.get_by_text("VET 1 · d10 · Armour d6").first).to_be_visible()
                audit(page, "93-fma-cards")

                # Three more figures through the API, a battle, b2 and b3 down.
                force = api(base, "GET", f"/api/v1/forces/{force_id}", None, organiser)
                units = force["platoons"][0]["units"] + [figure("b2", "veteran", 2), figure("b3", "veteran", 2),
                                                         figure("b4", "veteran", 3)]
                force = api(base, "PUT", f"/api/v1/forces/{force_id}",
                            {"name": "Strike force", "platoons": [{"name": "Bravo", "units": units}],
                             "version": force["version"]}, organiser)
                code = api(base, "POST", f"/api/v1/campaigns/{campaign_id}/invites", {}, organiser)["code"]
                api(base, "POST", "/api/v1/campaigns/join", {"code": code}, player)
                police = api(base, "POST", f"/api/v1/campaigns/{campaign_id}/forces",
                             {"name": "Police", "platoons": [{"name": "Patrol", "units": [figure("Officer", "regular", 2)]}]},
                             player)
                battle = api(base, "POST", f"/api/v1/campaigns/{campaign_id}/battles",
                             {"sides": [{"force_id": force_id}, {"force_id": police["id"]}]}, organiser)
                # Before its result, the battle page says no scenario is generated.
                page.goto(base + f"/battles/{battle['id']}")
                expect(page.get_by_text("No scenario is generated for FMA playtest battles").first).to_be_visible()
                audit(page, "94-fma-battle")
                ids = {u["name"]: u["id"] for u in force["platoons"][0]["units"]}
                api(base, "POST", f"/api/v1/battles/{battle['id']}/result",
                    {"outcome": "win", "winner_force_id": police["id"], "losses": [
                        {"unit_id": ids["b2"], "figures_lost": 1}, {"unit_id": ids["b3"], "figures_lost": 1}]},
                    organiser)
                api(base, "POST", f"/api/v1/battles/{battle['id']}/result/confirm", {}, player)


                # The sequence: casualty rolls, then Motivation change, then one new figure.
                page.goto(base + f"/battles/{battle['id']}/aftermath/{force_id}")
                expect(page.get_by_role("heading", name="Roll: Casualties: each figure that was down")).to_be_visible()
                audit(page, "95-fma-casualties")
                page.get_by_label("Casualty roll for b2").fill("2")
                page.get_by_label("Casualty roll for b3").fill("5")
                page.get_by_role("button", name="Roll").click()
                expect(page.get_by_role("heading", name="Roll: Motivation change")).to_be_visible()
                page.get_by_label("Motivation change roll for Sgt. Reyes").fill("6")
                page.get_by_label("Motivation change roll for b2").fill("1")
                page.get_by_label("Motivation change roll for b4").fill("4")
                audit(page, "96-fma-motivation")
                page.get_by_role("button", name="Roll").click()
                page.get_by_label("Reinforcement pool roll 1 for Strike force").fill("1")
                page.get_by_label("Reinforcement pool roll 2 for Strike force").fill("1")
                page.get_by_role("button", name="Roll").click()
                expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
                content = page.content()
                check("casualty roll 5: dead" in content, "b3's casualty roll reads dead")
                check("Motivation change roll 1: 2 → 3" in content, "b2's Motivation fell to 3")
                page.get_by_label("New figures for Bravo").fill("1")
                page.get_by_role("button", name="Save reinforcements").click()
                expect(page.get_by_label("New figures for Bravo")).to_have_value("1")
                purchase = page.get_by_role("group", name="Purchase 1")
                purchase.get_by_label("Item").select_option("improve_resolve")
                purchase.get_by_label("Unit").select_option(label="b2")
                page.get_by_role("button", name="Save purchases").click()
                audit(page, "97-fma-choices")
                page.get_by_label("Finalize without assigning").check()
                page.get_by_role("button", name="Finalize").click()
                expect(page.get_by_text("finalized").first).to_be_visible()
                audit(page, "98-fma-finalized")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"FMA browser tests passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
