//! A battle's scenario workflow (docs/rules.md §3):
//! whole two-player workflows with entered dice and exact values computed by hand from §3,
//! resubmission before a step closes, 409 after, wrong side 403, stale versions, Idempotency-Key,
//! tie handling, Escalating Engagement, a non-player force, concurrent orders, and the secrecy
//! test (every secret a side chose is absent from everything the opponent or an integration key
//! can fetch until the rules reveal it), on both backends.

use crate::auth::TestUser;
use crate::campaigns::{People, World, get_with_api_key};
use crate::common::{TestApp, assert_problem, ok, rolls, send, side, unit_id};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Blue (owner): three squads in one platoon.
fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Bravo", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Charlie", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Red (player): two squads in one platoon.
fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Delta", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Echo", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

const MISSIONS: [&str; 8] = [
    "assault",
    "expand",
    "hold",
    "infiltrate",
    "interfere",
    "patrol",
    "strike",
    "sweep",
];

/// Mission dice: every mission 1 except those given.
fn mission_dice(high: &[(&str, u8)]) -> Value {
    let mut dice = serde_json::Map::new();
    for m in MISSIONS {
        let v = high.iter().find(|(n, _)| *n == m).map_or(1, |(_, v)| *v);
        dice.insert(m.to_owned(), json!([v]));
    }
    Value::Object(dice)
}

/// A page's text as a person reads it: the markup without its tags.
fn visible_text(page: &str) -> String {
    let mut text = String::with_capacity(page.len());
    let mut in_tag = false;
    for c in page.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// A campaign with Blue (owner) and Red (player) and a Blue–Red battle.
pub struct Game {
    pub people: People,
    pub world: World,
    pub blue: Value,
    pub red: Value,
    pub battle: String,
}

impl Game {
    pub fn new(app: &TestApp) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue =
            crate::forces::create_force(app, &people.owner, &world.campaign_id, &blue_roster());
        let red =
            crate::forces::create_force(app, &people.player, &world.campaign_id, &red_roster());
        let r = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
            &people.owner.token,
        );
        assert_eq!(r.status(), 201);
        let battle = r.json::<Value>().unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        Self {
            people,
            world,
            blue,
            red,
            battle,
        }
    }

    /// Another Blue–Red battle in the same campaign.
    pub fn another_battle(&self, app: &TestApp) -> Game {
        let r = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/battles", self.world.campaign_id),
            &json!({"sides": [{"force_id": self.blue["id"]}, {"force_id": self.red["id"]}]}),
            &self.people.organiser.token,
        );
        assert_eq!(r.status(), 201);
        Game {
            people: self.people.clone(),
            world: self.world.clone(),
            blue: self.blue.clone(),
            red: self.red.clone(),
            battle: r.json::<Value>().unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        }
    }

    pub fn blue_id(&self) -> String {
        self.blue["id"].as_str().unwrap().to_owned()
    }

    pub fn red_id(&self) -> String {
        self.red["id"].as_str().unwrap().to_owned()
    }

    fn blue_user(&self) -> &TestUser {
        &self.people.owner
    }

    fn red_user(&self) -> &TestUser {
        &self.people.player
    }

    fn path(&self, step: &str) -> String {
        format!("/api/v1/battles/{}/scenario/{step}", self.battle)
    }

    fn post(&self, app: &TestApp, user: &TestUser, step: &str, body: &Value) -> Response {
        app.post_json_with_token(&self.path(step), body, &user.token)
    }

    #[track_caller]
    pub(crate) fn step(&self, app: &TestApp, user: &TestUser, step: &str, body: &Value) -> Value {
        ok(self.post(app, user, step, body))
    }

    fn scenario(&self, app: &TestApp, user: &TestUser) -> Value {
        ok(app.get_with_token(
            &format!("/api/v1/battles/{}/scenario", self.battle),
            &user.token,
        ))
    }
}

/// Blue's and Red's orders, bonuses and dice for the reference workflow.
pub(crate) fn blue_orders(g: &Game) -> Value {
    json!({"force_id": g.blue_id(), "stance": "defensive", "attitude": "passive",
           "recon_unit_ids": [unit_id(&g.blue, "Alpha")],
           "dice": {"table_edge": {g.blue_id(): [3]}, "recon_return": {unit_id(&g.blue, "Alpha"): [6]}}})
}

pub(crate) fn red_orders(g: &Game) -> Value {
    json!({"force_id": g.red_id(), "stance": "offensive", "attitude": "aggressive",
           "dice": {"table_edge": {g.red_id(): [4]}}})
}

pub(crate) fn blue_bonuses(g: &Game) -> Value {
    let none: Vec<(String, Value)> = ["Alpha", "Bravo", "Charlie"]
        .iter()
        .map(|n| (unit_id(&g.blue, n), json!([1])))
        .collect();
    json!({"force_id": g.blue_id(), "missions": ["hold", "interfere"],
           "dice": {"mission": mission_dice(&[("hold", 6)]),
                    "pre_battle_event": none.into_iter().collect::<serde_json::Map<_, _>>()}})
}

pub(crate) fn red_bonuses(g: &Game) -> Value {
    let mut none: serde_json::Map<String, Value> = ["Delta", "Echo"]
        .iter()
        .map(|n| (unit_id(&g.red, n), json!([1])))
        .collect();
    none.insert("offensive_artillery".into(), json!([1]));
    none.insert("bonus_sniper".into(), json!([1]));
    json!({"force_id": g.red_id(), "missions": ["strike", "sweep"],
           "dice": {"mission": mission_dice(&[("strike", 6)]), "pre_battle_event": none}})
}

both_backends! {
    fn two_players_generate_a_scenario_with_entered_dice(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());

        // Before anything: waiting for both sides' orders.
        let v = g.scenario(app, g.blue_user());
        assert_eq!(v["state"], "orders");
        assert_eq!(v["version"], 0);
        assert_eq!(v["waiting_for"], json!([blue, red]));

        // Blue gives orders, then replaces them before the step closes.
        let first = g.step(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "cautious"}));
        assert_eq!(side(&first, &blue)["stance"], "neutral");
        assert_eq!(first["waiting_for"], json!([red]));
        let v = g.step(app, g.blue_user(), "orders", &blue_orders(&g));
        assert_eq!(v["version"], 2);
        assert_eq!(side(&v, &blue)["stance"], "defensive");
        assert_eq!(side(&v, &blue)["recon_unit_ids"], json!([unit_id(&g.blue, "Alpha")]));

        // Wrong side: Blue's owner cannot act for Red (403); a stale version is 409.
        assert_problem(g.post(app, g.blue_user(), "orders", &red_orders(&g)), 403);
        let mut stale = red_orders(&g);
        stale["version"] = json!(1);
        assert_problem(g.post(app, g.red_user(), "orders", &stale), 409);
        // Mission bonuses before the reveal: 409.
        assert_problem(g.post(app, g.red_user(), "mission-bonuses", &json!({"force_id": red, "missions": []})), 409);

        // Red's orders close the step: RP, edge roll, zones, field defences, objectives (§3.3–§3.4).
        let key = "red-orders-1";
        let send_red = || send(app.request(Method::POST, &g.path("orders")).bearer_auth(&g.red_user().token)
            .header("Idempotency-Key", key).json(&red_orders(&g)));
        let v = ok(send_red());
        assert_eq!(v["state"], "mission_bonuses");
        // Red's version counts the changes Red sees: Blue's secret orders were none.
        assert_eq!(v["version"], 1);
        let (b, r) = (side(&v, &blue), side(&v, &red));
        // Blue: 1 platoon + Defensive 0 + Passive −1 + 1 recon unit ×2 = 2; Red: 1 + 2 + 0 = 3.
        assert_eq!(b["recon_points"], 2);
        assert_eq!(r["recon_points"], 3);
        assert_eq!(b["stance"], "defensive");
        assert_eq!(b["attitude"], "passive");
        // Edge: Blue 3 + 2 = 5, Red 4 + 3 = 7: Red chooses.
        assert_eq!(b["table_edge_roll"], json!({"die": 3, "total": 5, "rounds": 1}));
        assert_eq!(r["table_edge_roll"], json!({"die": 4, "total": 7, "rounds": 1}));
        assert_eq!(v["table_edge_chooser"], red);
        assert_eq!(b["deployment_zone_inches"], 18);
        assert_eq!(r["deployment_zone_inches"], 6);
        assert_eq!(b["field_defences"]["max_field_defences"], 6);
        assert_eq!(r["field_defences"]["max_field_defences"], 0);
        assert_eq!(v["objectives"].as_array().unwrap().len(), 6);
        // Red never sees Blue's recon units; the edge rolls were entered.
        assert!(b.get("recon_unit_ids").is_none());
        let edge = rolls(&v, "table_edge");
        assert_eq!(edge.len(), 2);
        assert!(edge.iter().all(|r| r["source"] == "player"));
        // The same key and body replay the answer; nothing is rolled again.
        assert_eq!(ok(send_red()), v);
        assert_eq!(g.scenario(app, g.red_user())["version"], 1);
        // The step is closed: 409 for both.
        assert_problem(g.post(app, g.blue_user(), "orders", &blue_orders(&g)), 409);

        // Mission bonuses with entered mission dice (§3.5).
        let v = g.step(app, g.blue_user(), "mission-bonuses", &blue_bonuses(&g));
        assert_eq!(v["state"], "mission_bonuses");
        assert_eq!(v["waiting_for"], json!([red]));
        assert!(v["rolls"].as_array().unwrap().is_empty(), "nothing rolls before Red's bonuses");
        assert_problem(g.post(app, g.red_user(), "mission-bonuses", &json!({"force_id": red, "missions": ["hold", "hold"]})), 422);
        let v = g.step(app, g.red_user(), "mission-bonuses", &red_bonuses(&g));
        assert_eq!(v["state"], "recon");
        // Red sees its own mission and totals: Strike 6 + Aggressive 1 + bonus 1 = 8 …
        let r = side(&v, &red);
        assert_eq!(r["mission"], "strike");
        assert_eq!(r["mission_totals"], json!({"assault": 4, "expand": 1, "hold": 1, "infiltrate": 2,
            "interfere": 1, "patrol": 1, "strike": 8, "sweep": 5}));
        // … but not Blue's (missions are hidden by default, S11), nor Blue's mission rolls.
        let b = side(&v, &blue);
        for hidden in ["mission", "mission_totals", "mission_rolls", "mission_bonuses", "bonus", "contact_markers"] {
            assert!(b.get(hidden).is_none(), "Red sees Blue's {hidden}: {b}");
        }
        assert!(v["rolls"].as_array().unwrap().iter().all(|r| !(r["step"] == "mission" && r["force_id"] == blue)));
        assert_eq!(rolls(&v, "mission").len(), 8);
        // Step 6: Red 2 units + Strike's sniper = 3 true, 5 dummy (Offensive) = 8 markers;
        // Blue 3 true (Alpha returned on a 6), 5 − 2 (Defensive) = 3 dummy = 6: Red places first.
        assert_eq!(r["contact_markers"], json!({"true": 3, "dummy": 5}));
        assert_eq!(b["contact_marker_total"], 6);
        assert_eq!(v["first_to_place_markers"], red);
        assert_eq!(v["marker_placement"], json!([
            {"force_id": red, "count": 5}, {"force_id": blue, "count": 5},
            {"force_id": red, "count": 3}, {"force_id": blue, "count": 1}]));
        assert_eq!(v["waiting_for"], json!([red]));
        assert_eq!(v["recon_prompt"], "turn");

        // Blue's own view: Hold 6 + Defensive 2 + Passive 2 + bonus 1 = 11, Interfere 1 + 1 + 1 = 3.
        let bv = g.scenario(app, g.blue_user());
        let b = side(&bv, &blue);
        assert_eq!(b["mission"], "hold");
        assert_eq!(b["mission_totals"], json!({"assault": 1, "expand": 1, "hold": 11, "infiltrate": 1,
            "interfere": 3, "patrol": 1, "strike": 1, "sweep": 1}));
        // Hold's bonus: three more field defences (S2).
        assert_eq!(b["field_defences"]["max_field_defences"], 9);
        assert_eq!(b["contact_markers"], json!({"true": 3, "dummy": 3}));
        assert_eq!(b["recon_duty"], json!([{"unit_id": unit_id(&g.blue, "Alpha"), "outcome": "returned", "roll": 6, "total": 6}]));
        // Red sees only 6 field defences for Blue: the Hold bonus would betray the mission.
        assert_eq!(side(&g.scenario(app, g.red_user()), &blue)["field_defences"]["max_field_defences"], 6);

        // Step 7 (S16): Red moves (RP 3 → 2); Blue is asked to block and does, with a 5 (RP 2 → 1).
        assert_problem(g.post(app, g.blue_user(), "recon-actions", &json!({"force_id": blue, "action": "pass"})), 409);
        let v = g.step(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "move", "markers": ["r1", "r2"]}));
        assert_eq!(v["waiting_for"], json!([blue]));
        assert_eq!(v["recon_prompt"], "block");
        let v = g.step(app, g.blue_user(), "recon-actions", &json!({"force_id": blue, "action": "block", "dice": {"recon_block": {blue.clone(): [5]}}}));
        assert_eq!(v["waiting_for"], json!([red]));
        assert_eq!(v["recon_prompt"], "block");
        // Red declines to block the Block: its Move is blocked; then Blue's turn.
        let v = g.step(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "pass"}));
        assert_eq!(v["recon"]["log"][0]["result"], "blocked");
        assert_eq!(v["recon"]["log"][1]["result"], "done");
        assert_eq!(v["recon"]["log"][1]["roll"], 5);
        assert_eq!(v["recon"]["recon_points_left"], json!({blue.clone(): 1, red.clone(): 2}));
        assert_eq!(v["waiting_for"], json!([blue]));
        g.step(app, g.blue_user(), "recon-actions", &json!({"force_id": blue, "action": "pass"}));
        let v = g.step(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "pass"}));
        // Two passes in a row end the step; leftovers are lost; the scenario is ready.
        assert_eq!(v["state"], "ready");
        assert_eq!(v["recon"]["recon_points_lost"], json!({blue.clone(): 1, red.clone(): 2}));
        assert_eq!(v["waiting_for"], json!([]));
        assert_eq!(side(&v, &red)["pre_battle_events"], json!([]));
        assert_problem(g.post(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "pass"})), 409);

        // The whole log: every roll was entered (2 edge, 16 mission, 1 return, 1 block, 7 events).
        let full = g.scenario(app, g.blue_user());
        let all = g.scenario(app, &g.people.organiser);
        assert_eq!(all["acting_for"], json!([blue, red]), "a referee organiser acts for both");
        let log = all["rolls"].as_array().unwrap();
        assert_eq!(log.len(), 27, "{log:?}");
        assert!(log.iter().all(|r| r["source"] == "player"), "{log:?}");
        assert_eq!(rolls(&all, "pre_battle_event").len(), 7);
        assert_eq!(full["unused_dice"], json!({}));
        // Missions stay hidden from the opponent even when ready (S11 default).
        assert!(side(&g.scenario(app, g.red_user()), &blue).get("mission").is_none());
        // Blue's recon duty becomes public when ready, without the roll.
        assert_eq!(side(&g.scenario(app, g.red_user()), &blue)["recon_duty"],
            json!([{"unit_id": unit_id(&g.blue, "Alpha"), "outcome": "returned"}]));
    }

    fn bad_submissions_are_refused_and_change_nothing(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        // Ineligible recon duty: two squads of one platoon (S4); an unknown unit.
        let bad = g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive",
            "recon_unit_ids": [unit_id(&g.blue, "Alpha"), unit_id(&g.blue, "Bravo")]}));
        let p = assert_problem(bad, 422);
        assert!(p["errors"][0]["field"].as_str().unwrap().starts_with("recon_unit_ids"), "{p}");
        assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "sideways", "attitude": "passive"})), 422);
        assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": "nobody", "stance": "neutral", "attitude": "passive"})), 422);
        // Dice: out of range, an unknown step, a subject that is not this side's.
        let p = assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive",
            "dice": {"table_edge": {blue.clone(): [7]}}})), 422);
        assert_eq!(p["errors"][0]["field"], format!("dice.table_edge.{blue}"));
        let p = assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive",
            "dice": {"replacement": {blue.clone(): [3]}}})), 422);
        assert_eq!(p["errors"][0]["field"], "dice.replacement");
        let p = assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive",
            "dice": {"table_edge": {red.clone(): [3]}}})), 422);
        assert_eq!(p["errors"][0]["field"], format!("dice.table_edge.{red}"));
        // Non-player dice in a battle without a non-player side.
        let p = assert_problem(g.post(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive",
            "non_player_dice": {"npf_stance": {"non_player": [3]}}})), 422);
        assert_eq!(p["errors"][0]["field"], "non_player_dice");
        // An integration key never writes; an outsider sees no battle.
        let r = send(app.request(Method::POST, &g.path("orders")).header("X-Api-Key", &g.world.key)
            .json(&json!({"force_id": blue, "stance": "neutral", "attitude": "passive"})));
        assert_problem(r, 403);
        assert_problem(g.post(app, &g.people.outsider, "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "passive"})), 404);
        // Nothing was stored.
        let v = g.scenario(app, g.blue_user());
        assert_eq!(v["version"], 0);
        assert_eq!(v["waiting_for"], json!([blue, red]));
        // The same Idempotency-Key with another body is refused.
        let keyed = |body: &Value| send(app.request(Method::POST, &g.path("orders")).bearer_auth(&g.blue_user().token)
            .header("Idempotency-Key", "k1").json(body));
        assert_eq!(keyed(&json!({"force_id": blue, "stance": "neutral", "attitude": "passive"})).status(), 200);
        assert_problem(keyed(&json!({"force_id": blue, "stance": "offensive", "attitude": "passive"})), 422);
        // A battle with a result has a closed scenario.
        let r = app.post_json_with_token(&format!("/api/v1/battles/{}/result", g.battle), &json!({"outcome": "draw"}), &g.people.organiser.token);
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        assert_problem(g.post(app, g.red_user(), "orders", &red_orders(&g)), 409);
    }

    fn a_tie_is_chosen_by_its_player_and_the_same_mission_escalates(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        g.step(app, g.blue_user(), "orders", &json!({"force_id": blue, "stance": "defensive", "attitude": "passive",
            "recon_unit_ids": [unit_id(&g.blue, "Alpha")], "dice": {"table_edge": {blue.clone(): [6]}}}));
        g.step(app, g.red_user(), "orders", &json!({"force_id": red, "stance": "offensive", "attitude": "aggressive",
            "dice": {"table_edge": {red.clone(): [1]}}}));
        // Blue: Hold 2 + 4 = 6 and Sweep 6 + 0 = 6 tie; Red: Sweep 6 + 1 + 2 = 9.
        g.step(app, g.blue_user(), "mission-bonuses", &json!({"force_id": blue, "missions": [],
            "dice": {"mission": mission_dice(&[("hold", 2), ("sweep", 6)])}}));
        let v = g.step(app, g.red_user(), "mission-bonuses", &json!({"force_id": red, "missions": [],
            "dice": {"mission": mission_dice(&[("sweep", 6)])}}));
        // Red, whose missions did not tie, is shown the bonus step still waiting for Blue: the
        // tie is Blue's secret.
        assert_eq!(v["state"], "mission_bonuses");
        assert_eq!(v["waiting_for"], json!([blue]));
        assert_eq!(side(&v, &red)["mission"], Value::Null, "not assigned until Blue chooses");
        assert!(side(&v, &blue).get("tied_missions").is_none(), "Red does not see Blue's tie");
        let bv = g.scenario(app, g.blue_user());
        assert_eq!(bv["state"], "mission_choice");
        assert_eq!(side(&bv, &blue)["tied_missions"], json!(["hold", "sweep"]));
        // Only the tied side chooses, only among its tied missions (S9).
        assert_problem(g.post(app, g.red_user(), "mission-choice", &json!({"force_id": red, "mission": "sweep"})), 409);
        assert_problem(g.post(app, g.blue_user(), "mission-choice", &json!({"force_id": blue, "mission": "assault"})), 422);
        // Blue picks Sweep, as Red rolled: Escalating Engagement for both (S10), public (S11).
        let v = g.step(app, g.blue_user(), "mission-choice", &json!({"force_id": blue, "mission": "sweep"}));
        assert_eq!(v["escalating_engagement"], true);
        // S19: no markers, no recon step, straight to ready; both zones 18".
        assert_eq!(v["state"], "ready");
        assert!(v["recon"].is_null());
        let rv = g.scenario(app, g.red_user());
        for s in [blue.as_str(), red.as_str()] {
            assert_eq!(side(&rv, s)["mission"], "escalating_engagement");
            assert_eq!(side(&rv, s)["deployment_zone_inches"], 18);
        }
        // Blue chose the edge (6 + 2 = 8 against 1 + 3 = 4) and places first; Alpha is placed
        // as an actual unit, with no return roll (S19).
        assert_eq!(rv["table_edge_chooser"], blue);
        assert_eq!(rv["escalating_setup"]["first_to_place"], blue);
        assert_eq!(rv["escalating_setup"]["placed_units"][&blue], json!([unit_id(&g.blue, "Alpha")]));
        assert_eq!(rv["escalating_setup"]["entering_per_turn"], json!({blue.clone(): 1, red.clone(): 1}));
        assert!(rolls(&g.scenario(app, &g.people.organiser), "recon_return").is_empty());
        // The Sweep bonus for both: Brave + Shock Troops.
        assert_eq!(side(&rv, &blue)["bonus"]["traits"], json!(["brave", "shock_troops"]));
        assert_problem(g.post(app, g.blue_user(), "mission-choice", &json!({"force_id": blue, "mission": "hold"})), 409);
        // The battle page names the sides in the Escalating Engagement set-up (units entering
        // per turn, units placed), never their ids, for either side and the referee.
        for user in [g.blue_user(), g.red_user(), &g.people.organiser] {
            let mut browser = crate::web_pages::Browser::signed_in(app, &user.username);
            let (page, _) = browser.page(&format!("/battles/{}", g.battle));
            let text = visible_text(&page);
            assert!(text.contains("Blue: 1") && text.contains("Red: 1"), "{text}");
            for id in [&blue, &red] {
                assert!(!text.contains(id.as_str()), "a force id shows on {}'s page: {text}", user.username);
            }
        }
    }

    fn a_non_player_force_acts_by_itself(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue = crate::forces::create_force(app, &people.owner, &world.campaign_id, &blue_roster());
        let blue_id = blue["id"].as_str().unwrap().to_owned();
        let r = app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": blue_id}, {"non_player": {"name": "Militia", "units": [
                {"name": "Scouts", "kind": "squad", "traits": ["recon"]},
                {"name": "Rifles", "kind": "squad"}]}}]}), &people.owner.token);
        assert_eq!(r.status(), 201);
        let battle = r.json::<Value>().unwrap()["id"].as_str().unwrap().to_owned();
        let path = |s: &str| format!("/api/v1/battles/{battle}/scenario/{s}");
        // Only the player side is waited for; the non-player side takes no input.
        let v = ok(app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), &people.owner.token));
        assert_eq!(v["waiting_for"], json!([blue_id]));
        assert_eq!(v["forces"][1], json!({"force_id": "non_player", "name": "Militia", "stored": false}));
        assert_problem(app.post_json_with_token(&path("orders"), &json!({"force_id": "non_player", "stance": "neutral", "attitude": "passive"}), &people.owner.token), 422);
        // The player's orders close the step at once: the NP stance and attitude are rolled (§3.12).
        // The players rolled the NP stance at the table (6: Defensive); the attitude die is the
        // service's. An NP die for a step the NP never rolls is refused.
        let p = assert_problem(app.post_json_with_token(&path("orders"), &json!({"force_id": blue_id, "stance": "neutral", "attitude": "cautious",
            "non_player_dice": {"replacement": {"non_player": [6]}}}), &people.owner.token), 422);
        assert_eq!(p["errors"][0]["field"], "non_player_dice.replacement");
        let v = ok(app.post_json_with_token(&path("orders"), &json!({"force_id": blue_id, "stance": "neutral", "attitude": "cautious",
            "non_player_dice": {"npf_stance": {"non_player": [6]}}}), &people.owner.token));
        assert_eq!(v["state"], "mission_bonuses");
        let np = side(&v, "non_player");
        assert_eq!(np["stance"], "defensive");
        assert_eq!(rolls(&v, "npf_stance")[0]["source"], "player");
        assert_eq!(rolls(&v, "npf_attitude")[0]["source"], "server");
        let stance_die = rolls(&v, "npf_stance")[0]["values"][0].as_u64().unwrap();
        let attitude_die = rolls(&v, "npf_attitude")[0]["values"][0].as_u64().unwrap();
        assert_eq!(np["stance"], ["offensive", "neutral", "defensive"][((stance_die - 1) / 2) as usize]);
        assert_eq!(np["attitude"], ["aggressive", "cautious", "passive"][((attitude_die - 1) / 2) as usize]);
        // S29 / automatic recon: the Recon-trait Scouts go unless Defensive and Passive.
        let defensive_passive = np["stance"] == "defensive" && np["attitude"] == "passive";
        // Blue's bonuses: missions rolled for both; the NP takes no bonuses (S8); its ties are
        // picked by a logged die.
        let v = ok(app.post_json_with_token(&path("mission-bonuses"), &json!({"force_id": blue_id, "missions": ["patrol", "sweep"],
            "dice": {"mission": mission_dice(&[("patrol", 6)])}}), &people.owner.token));
        assert!(["recon", "ready"].contains(&v["state"].as_str().unwrap()), "{v}");
        // Play out step 7: the player passes whenever asked; NP blocks are automatic (S28).
        let mut v = v;
        for _ in 0..20 {
            if v["state"] == "ready" { break; }
            assert_eq!(v["waiting_for"], json!([blue_id]), "{v}");
            v = ok(app.post_json_with_token(&path("recon-actions"), &json!({"force_id": blue_id, "action": "pass"}), &people.owner.token));
        }
        assert_eq!(v["state"], "ready");
        let all = ok(app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), &people.owner.token));
        let np = side(&all, "non_player");
        // The player sees the NP side as an opponent: its mission stays hidden (S11) unless
        // both rolled the same; its markers are dispersed by a die (S26) unless escalating.
        // The referee (an organiser who plays neither side) sees the NP side in full.
        let referee = ok(app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), &people.organiser.token));
        assert_eq!(referee["acting_for"], json!([blue_id]));
        assert!(side(&referee, "non_player")["mission"].is_string(), "{referee}");
        assert!(side(&referee, "non_player")["mission_totals"].is_object(), "{referee}");
        if all["escalating_engagement"] == true {
            assert_eq!(np["mission"], "escalating_engagement");
            assert!(np.get("dispersion").is_none());
        } else {
            assert!(np.get("mission").is_none(), "{np}");
            assert!(np["dispersion"].is_string(), "S26 dispersion is rolled: {np}");
        }
        let scouts = np["recon_duty"].as_array().is_some_and(|d| d.iter().any(|d| d["unit_id"] == "s2-u1"));
        assert_eq!(scouts, !defensive_passive, "{np}");
        assert!(all["rolls"].as_array().unwrap().iter().filter(|r| r["force_id"] == "non_player" && r["step"] != "npf_stance").all(|r| r["source"] == "server"));
        // Invalid non-player descriptions are refused when the battle is created.
        let r = app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": blue_id}, {"non_player": {"stance": "sideways"}}]}), &people.owner.token);
        let p = assert_problem(r, 422);
        assert_eq!(p["errors"][0]["field"], "sides[1].non_player.stance");
    }

    fn concurrent_orders_of_both_sides_both_count(app: &TestApp) {
        let first = Game::new(app);
        for _ in 0..3 {
            let g = first.another_battle(app);
            let (b, r) = (blue_orders(&g), red_orders(&g));
            std::thread::scope(|s| {
                let one = s.spawn(|| g.post(app, g.blue_user(), "orders", &b).status().as_u16());
                let two = s.spawn(|| g.post(app, g.red_user(), "orders", &r).status().as_u16());
                assert_eq!(one.join().unwrap(), 200);
                assert_eq!(two.join().unwrap(), 200);
            });
            let v = g.scenario(app, &g.people.organiser);
            assert_eq!(v["state"], "mission_bonuses", "{v}");
            assert_eq!(v["version"], 2);
            assert_eq!(side(&v, &g.blue_id())["stance"], "defensive");
            assert_eq!(side(&v, &g.red_id())["stance"], "offensive");
        }
    }

    fn an_assault_side_declares_its_far_target_in_secret(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let declare = |user: &TestUser, force: &str, objective: &str| {
            g.post(app, user, "assault-target", &json!({"force_id": force, "objective_id": objective}))
        };
        g.step(app, g.blue_user(), "orders", &blue_orders(&g));
        g.step(app, g.red_user(), "orders", &red_orders(&g));
        // Before missions are assigned nobody has an Assault mission: 409.
        assert_problem(declare(g.blue_user(), &blue, "o1"), 409);
        // Blue (Defensive, Passive) rolls Assault 6 + bonus 1 = 7 against Hold 1 + 2 + 2 = 5.
        g.step(app, g.blue_user(), "mission-bonuses", &json!({"force_id": blue, "missions": ["assault", "patrol"],
            "dice": {"mission": mission_dice(&[("assault", 6)])}}));
        let v = g.step(app, g.red_user(), "mission-bonuses", &red_bonuses(&g));
        assert_eq!(v["state"], "recon");
        let v = g.scenario(app, g.blue_user());
        assert_eq!(side(&v, &blue)["mission"], "assault");
        assert_eq!(side(&v, &blue)["mission_totals"]["assault"], 7);
        assert_eq!(side(&v, &blue)["mission_totals"]["hold"], 5);
        // Red chose the edge and placed o1, o3, o5 (near, middle, far for Red); Blue's o2, o4,
        // o6 mirror: Blue's far objectives are o1 (Red's near) and o6 (S7). Both are needed
        // until Blue declares.
        let far: Vec<&str> = v["objectives"].as_array().unwrap().iter()
            .filter(|o| o["sector"][&blue] == "far").map(|o| o["id"].as_str().unwrap()).collect();
        assert_eq!(far, ["o1", "o6"]);
        let needed = |v: &Value, force: &str| -> Vec<String> {
            v["objectives"].as_array().unwrap().iter()
                .filter(|o| o["needed_by"].as_array().is_some_and(|n| n.iter().any(|f| f == force)))
                .map(|o| o["id"].as_str().unwrap().to_owned()).collect()
        };
        assert_eq!(needed(&v, &blue), ["o1", "o6"]);
        // Red's mission is Strike: no target to declare (409); Red may not act for Blue (403);
        // an integration key may not write (401 or 403); a near objective is not a target (422).
        assert_problem(declare(g.red_user(), &red, "o2"), 409);
        assert_problem(declare(g.red_user(), &blue, "o1"), 403);
        let p = assert_problem(declare(g.blue_user(), &blue, "o2"), 422);
        assert_eq!(p["errors"][0]["field"], "objective_id");
        let p = assert_problem(g.post(app, g.blue_user(), "assault-target", &json!({"force_id": blue})), 422);
        assert!(p.to_string().contains("objective_id"), "{p}");
        let mut stale = json!({"force_id": blue, "objective_id": "o6", "version": 1});
        assert_problem(g.post(app, g.blue_user(), "assault-target", &stale), 409);

        // Blue declares o6 with the current version and an Idempotency-Key.
        stale["version"] = v["version"].clone();
        let red_version = g.scenario(app, g.red_user())["version"].clone();
        let send_blue = || send(app.request(Method::POST, &g.path("assault-target")).bearer_auth(&g.blue_user().token)
            .header("Idempotency-Key", "assault-1").json(&stale));
        let v = ok(send_blue());
        assert_eq!(side(&v, &blue)["assault_target"], "o6");
        assert_eq!(needed(&v, &blue), ["o6"]);
        // Blue's version moves; Red's does not (the declaration is Blue's secret).
        assert_eq!(v["version"], stale["version"].as_i64().unwrap() + 1);
        assert_eq!(g.scenario(app, g.red_user())["version"], red_version);
        assert_eq!(ok(send_blue()), v, "the same key replays the answer");
        // Once declared it stays: another target is 409.
        assert_problem(declare(g.blue_user(), &blue, "o1"), 409);

        // Secret like the mission (S11): Red, the key and every public view see neither the
        // target nor which objectives Blue needs; the referee sees both.
        for (what, text) in fetch_all(app, &g) {
            for secret in ["assault_target", "Mission: assault", "<strong>Target. </strong>"] {
                assert!(!text.contains(secret), "{what} shows {secret}: {text}");
            }
            if let Ok(json) = serde_json::from_str::<Value>(&text) {
                assert_side_hides(&json, &blue, &["assault_target", "mission"], &what);
                if json.get("objectives").is_some() {
                    assert!(needed(&json, &blue).is_empty(), "{what} shows Blue's objectives: {json}");
                }
            }
        }
        let all = g.scenario(app, &g.people.organiser);
        assert_eq!(side(&all, &blue)["assault_target"], "o6");
        let sheet = app.get_with_token(&g.path("sheet"), &g.blue_user().token).text().unwrap();
        // The objective as the map numbers it, never its key.
        assert!(sheet.contains("<strong>Target. </strong>Objective 6"), "{sheet}");
        // Play to ready: still declared, still secret.
        g.step(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "pass"}));
        let v = g.step(app, g.blue_user(), "recon-actions", &json!({"force_id": blue, "action": "pass"}));
        assert_eq!(v["state"], "ready");
        assert_eq!(side(&v, &blue)["assault_target"], "o6");
        assert!(side(&g.scenario(app, g.red_user()), &blue).get("assault_target").is_none());
    }

    fn secrets_reach_neither_the_opponent_nor_a_key_until_revealed(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let alpha = unit_id(&g.blue, "Alpha");

        // Blue's secret orders: nothing of them may reach Red or the key while orders are open.
        g.step(app, g.blue_user(), "orders", &blue_orders(&g));
        let fetched = fetch_all(app, &g);
        for (what, text) in &fetched {
            for secret in ["\"defensive\"", "\"passive\"", "recon_points", "recon_unit_ids"] {
                assert!(!text.contains(secret), "{what} shows {secret} while orders are open: {text}");
            }
            if !what.contains("forces") {
                assert!(!text.contains(&alpha), "{what} names Blue's recon unit: {text}");
            }
            // Red's own `next_dice` names its table-edge roll; Blue's entered die is a
            // `"table_edge": {..}` entry.
            assert!(!text.contains("\"table_edge\":"), "{what} shows Blue's entered edge die");
        }
        for (what, json) in fetched.iter().filter_map(|(w, t)| serde_json::from_str::<Value>(t).ok().map(|v| (w, v))) {
            assert_side_hides(&json, &blue, &["stance", "attitude", "recon_points", "recon_unit_ids", "unused_dice"], what);
        }

        // Red's orders reveal stance, attitude and RP (steps 4–5), never the recon units.
        g.step(app, g.red_user(), "orders", &red_orders(&g));
        for (what, text) in fetch_all(app, &g) {
            if !what.contains("forces") {
                assert!(!text.contains(&alpha), "{what} names Blue's recon unit: {text}");
            }
        }
        let v = ok(get_with_api_key(app, &format!("/api/v1/battles/{}/scenario", g.battle), &g.world.key));
        assert_eq!(side(&v, &blue)["stance"], "defensive");

        // Blue's secret bonuses and entered mission dice.
        g.step(app, g.blue_user(), "mission-bonuses", &blue_bonuses(&g));
        for (what, text) in fetch_all(app, &g) {
            // Red's own `next_dice` names every mission it is about to roll for.
            let text = without_next_dice(&text);
            for secret in ["\"interfere\"", "\"hold\"", "mission_bonuses\":[", "\"pre_battle_event\":{"] {
                assert!(!text.contains(secret), "{what} shows {secret} before the dice: {text}");
            }
        }
        // Red's bonuses: missions are rolled and assigned, and stay hidden (S11).
        g.step(app, g.red_user(), "mission-bonuses", &red_bonuses(&g));
        let mission_secrets = ["mission", "mission_totals", "mission_rolls", "mission_bonuses", "tied_missions",
            "bonus", "bonus_traits", "contact_markers", "recon_unit_ids", "unused_dice"];
        check_missions_hidden(app, &g, &mission_secrets, &blue, &red);
        // Play step 7 to the end; missions stay hidden when ready.
        g.step(app, g.red_user(), "recon-actions", &json!({"force_id": red, "action": "pass"}));
        g.step(app, g.blue_user(), "recon-actions", &json!({"force_id": blue, "action": "pass"}));
        let v = g.scenario(app, g.blue_user());
        assert_eq!(v["state"], "ready");
        check_missions_hidden(app, &g, &mission_secrets, &blue, &red);
    }
}

/// A fetched text without the caller's own `next_dice` (the rolls it is about to make).
fn without_next_dice(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut map)) => {
            map.remove("next_dice");
            Value::Object(map).to_string()
        }
        _ => text.to_owned(),
    }
}

/// The reference game played to `ready`: Blue Hold (Defensive, Passive), Red Strike
/// (Offensive, Aggressive), every roll entered, both pass in step 7.
pub fn ready_game(app: &TestApp) -> Game {
    let g = Game::new(app);
    g.step(app, &g.people.owner, "orders", &blue_orders(&g));
    g.step(app, &g.people.player, "orders", &red_orders(&g));
    g.step(app, &g.people.owner, "mission-bonuses", &blue_bonuses(&g));
    g.step(app, &g.people.player, "mission-bonuses", &red_bonuses(&g));
    g.step(
        app,
        &g.people.player,
        "recon-actions",
        &json!({"force_id": g.red_id(), "action": "pass"}),
    );
    let v = g.step(
        app,
        &g.people.owner,
        "recon-actions",
        &json!({"force_id": g.blue_id(), "action": "pass"}),
    );
    assert_eq!(v["state"], "ready");
    g
}

/// Everything Red (the opponent) and the integration key can fetch that might hold the
/// scenario: (what, body text).
fn fetch_all(app: &TestApp, g: &Game) -> Vec<(String, String)> {
    let campaign = &g.world.campaign_id;
    let paths = [
        format!("/api/v1/battles/{}/scenario", g.battle),
        format!("/api/v1/battles/{}/scenario/sheet", g.battle),
        format!("/api/v1/battles/{}", g.battle),
        format!("/api/v1/campaigns/{campaign}/battles"),
        format!("/api/v1/campaigns/{campaign}/timeline"),
        format!("/api/v1/campaigns/{campaign}/forces"),
        format!("/api/v1/forces/{}", g.blue_id()),
        format!("/api/v1/forces/{}/history", g.blue_id()),
    ];
    let mut out = Vec::new();
    for path in &paths {
        let as_red = app.get_with_token(path, &g.red_user().token);
        assert_eq!(as_red.status(), 200, "{path} as Red");
        out.push((format!("{path} as Red"), as_red.text().unwrap()));
        let as_key = get_with_api_key(app, path, &g.world.key);
        assert_eq!(as_key.status(), 200, "{path} with the key");
        out.push((format!("{path} with the key"), as_key.text().unwrap()));
    }
    out
}

/// No object about `force_id` (a side view) in `json` carries any of `keys`; no roll of that
/// force's missions is listed.
fn assert_side_hides(json: &Value, force_id: &str, keys: &[&str], what: &str) {
    match json {
        Value::Object(map) => {
            if map.get("force_id").and_then(Value::as_str) == Some(force_id) {
                for k in keys {
                    assert!(
                        !map.contains_key(*k),
                        "{what}: {k} of {force_id} is visible: {json}"
                    );
                }
                if map.get("step").and_then(Value::as_str) == Some("mission") {
                    panic!("{what}: a mission roll of {force_id} is visible: {json}");
                }
            }
            if let Some(Value::Object(dice)) = map.get("unused_dice") {
                assert!(
                    !dice.contains_key(force_id),
                    "{what}: {force_id}'s entered dice are visible"
                );
            }
            for v in map.values() {
                assert_side_hides(v, force_id, keys, what);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| assert_side_hides(v, force_id, keys, what)),
        _ => {}
    }
}

/// Each side's missions are absent from what the other side and the key can fetch.
fn check_missions_hidden(app: &TestApp, g: &Game, keys: &[&str], blue: &str, red: &str) {
    for (what, text) in fetch_all(app, g) {
        if let Ok(json) = serde_json::from_str::<Value>(&text) {
            assert_side_hides(&json, blue, keys, &what);
            if what.ends_with("with the key") {
                assert_side_hides(&json, red, keys, &what);
            }
        } else {
            // The sheet: Red's shows Red's own mission only; the key's shows none.
            assert!(
                !text.contains("Mission: hold"),
                "{what} shows Blue's mission"
            );
            assert!(
                !text.contains("hold mission"),
                "{what} shows Hold's field defences"
            );
            if what.ends_with("with the key") {
                assert!(!text.contains("Mission:"), "{what} shows a mission");
            } else {
                assert!(
                    text.contains("Mission: strike"),
                    "{what} lacks Red's own mission"
                );
            }
        }
    }
    // Blue's own view has them all.
    let v = g.scenario(app, g.blue_user());
    assert_eq!(side(&v, blue)["mission"], "hold");
}
