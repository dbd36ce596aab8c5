"""Browser test of a battle's result and one force's post-battle sequence: the owner records the
result on the page, the other player confirms it with scripts off, then the owner runs the
sequence step by step with dice rolled at the table and entered (one wrong die fixed in place
first), allocates reinforcements, buys from the experience menu and finalizes. Every page gets
flow.py's audit (axe-core, no sideways scrolling at 360 px, 44 px targets, one h1, a main
landmark) and screenshots at 375 px and 1280 px.

Run through tests/browser/run.
"""

import json
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from flow import CHROMIUM, PASSWORD, SHOTS, audit, check, failures, start_server


def api(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(base + path, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(request, data) as response:
        text = response.read().decode()
    return json.loads(text) if text else {}


def user(base: str, name: str) -> str:
    api(base, "POST", "/api/v1/auth/register", {"username": name, "password": PASSWORD})
    return api(base, "POST", "/api/v1/auth/login", {"username": name, "password": PASSWORD})["access_token"]


def roster(name: str) -> dict:
    return {"name": name, "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha Squad", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8},
        {"name": "Bravo Squad", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6}]}]}


def log_in(page: Page, base: str, name: str) -> None:
    page.goto(base + "/login")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


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
            lancers = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Olga's Lancers"), owner)
            rangers = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Pavel's Rangers"), player)
            battle = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/battles",
                         {"sides": [{"force_id": lancers["id"]}, {"force_id": rangers["id"]}]}, owner)
            battle_path = f"/battles/{battle['id']}"

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = context.new_page()
                log_in(page, base, "olga")

                # The result: Olga's Alpha Squad lost 5 and Bravo Squad 3; a draw.
                page.goto(base + battle_path + "/result")
                expect(page.get_by_role("heading", level=1)).to_contain_text("Result")
                audit(page, "30-result-form")
                lancers_group = page.get_by_role("group", name="Olga's Lancers")
                lancers_group.get_by_role("group", name="Alpha Squad").get_by_label("Figures lost").fill("-1")
                page.get_by_label("Outcome").select_option("draw")
                page.get_by_role("button", name="Record result").click()
                expect(page.locator("#error-summary")).to_be_focused()
                alpha_lost = page.get_by_role("group", name="Olga's Lancers").get_by_role("group", name="Alpha Squad").get_by_label("Figures lost")
                expect(alpha_lost).to_have_value("-1")
                audit(page, "31-result-error")
                alpha_lost.fill("5")
                page.get_by_role("group", name="Olga's Lancers").get_by_role("group", name="Bravo Squad").get_by_label("Figures lost").fill("3")
                page.get_by_role("button", name="Record result").click()
                expect(page.get_by_text("The result waits for confirmation.")).to_be_visible()
                check(page.get_by_role("button", name="Confirm result").count() == 0, "the recorder cannot confirm")
                audit(page, "32-result-pending")

                # Pavel confirms with scripts off.
                player_ctx = browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
                pavel = player_ctx.new_page()
                log_in(pavel, base, "pavel")
                pavel.goto(base + battle_path + "/result")
                audit(pavel, "33-result-confirm", scripts=False)
                pavel.get_by_role("button", name="Confirm result").click()
                check("/result" in pavel.url or pavel.url.endswith(battle_path), f"back after confirming: {pavel.url}")

                # The sequence, step by step with entered dice.
                page.goto(base + battle_path + "/result")
                page.get_by_role("link", name="Post-battle sequence of Olga's Lancers").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("After the battle: Olga's Lancers")
                audit(page, "34-aftermath-replacements")
                page.get_by_label("Replacement roll for Alpha Squad").fill("9")
                page.get_by_label("Replacement roll for Bravo Squad").fill("3")
                page.get_by_role("button", name="Roll").click()
                expect(page.locator("#error-summary")).to_be_focused()
                expect(page.get_by_label("Replacement roll for Alpha Squad")).to_have_value("9")
                audit(page, "35-aftermath-wrong-die")
                # The wrong die is fixed in place before rolling.
                page.get_by_label("Replacement roll for Alpha Squad").fill("5")
                page.get_by_role("button", name="Roll").click()
                expect(page.get_by_label("Quality loss roll for Alpha Squad")).to_be_visible()
                check(page.get_by_label("Quality loss roll for Bravo Squad").count() == 0, "Bravo received too few to roll for quality")
                audit(page, "36-aftermath-quality-loss")
                page.get_by_label("Quality loss roll for Alpha Squad").fill("1")
                page.get_by_role("button", name="Roll").click()
                page.get_by_label("Resolve change roll for Alpha Squad").fill("5")
                page.get_by_label("Resolve change roll for Bravo Squad").fill("2")
                page.get_by_role("button", name="Roll").click()
                page.get_by_label("Reinforcement pool roll 1 for Olga's Lancers").fill("3")
                page.get_by_label("Reinforcement pool roll 2 for Olga's Lancers").fill("4")
                audit(page, "37-aftermath-pool")
                page.get_by_role("button", name="Roll").click()
                expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
                content = page.content()
                check("regular → <strong>conscript</strong>" in content, "Alpha's quality dropped on a 1")
                check("steady → <strong>determined</strong>" in content, "Alpha's resolve rose on a 5")
                check("steady → <strong>uncertain</strong>" in content, "Bravo's resolve dropped on a 2")
                audit(page, "38-aftermath-rolled")

                page.get_by_label("Troopers for Bravo Squad").fill("1")
                page.get_by_role("button", name="Save reinforcements").click()
                expect(page.get_by_label("Troopers for Bravo Squad")).to_have_value("1")
                purchase = page.get_by_role("group", name="Purchase 1")
                purchase.get_by_label("Item").select_option("improve_resolve")
                purchase.get_by_label("Unit").select_option(label="Bravo Squad")
                page.get_by_role("button", name="Save purchases").click()
                expect(page.get_by_role("group", name="Purchase 1").get_by_label("Item")).to_have_value("improve_resolve")
                audit(page, "39-aftermath-choices")
                # 6 of the 7 troopers are unassigned: Finalize refuses beside its button until
                # they are given up.
                page.get_by_role("button", name="Finalize").click()
                expect(page.locator("#f-forgo-reinforcements-error")).to_contain_text("6 of the 7 reinforcement troopers are not assigned")
                page.get_by_label("Finalize without assigning").check()
                page.get_by_role("button", name="Finalize").click()
                expect(page.get_by_text("finalized").first).to_be_visible()
                check(page.get_by_role("button", name="Finalize").count() == 0, "nothing left to finalize")
                audit(page, "40-aftermath-finalized")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"aftermath browser tests passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
