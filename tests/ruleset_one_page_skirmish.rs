//! The `one-page-skirmish` ruleset (docs/rules.md §10, readings O1–O9) through HTTP on both
//! backends: its vocabulary, roster validation, the post-battle sequence on bases with entered
//! dice, the menu, and the pages. Expected values are computed by hand from docs/rules.md §2.2
//! and §10.

use serde_json::{Value, json};

use crate::auth::{TestUser, register};
use crate::battles::{get, ok, post, step_path, unit, unit_id};
use crate::campaigns::{invite_code, join};
use crate::common::{TestApp, assert_problem};
use crate::web_aftermath::signed_in;

const ID: &str = "one-page-skirmish";

fn profile(carried_bases: u32) -> Value {
    json!({"armour": "light", "carried_bases": carried_bases, "force_projection":
        {"point_blank": 1, "short": 3, "medium": 2, "long": 2, "very_long": 0, "at": 1}})
}

fn infantry(name: &str, quality: &str, bases: u32) -> Value {
    json!({"name": name, "kind": "squad", "quality": quality, "strength": bases,
           "starting_strength": bases, "one_page": profile(0)})
}

fn vehicles(name: &str, models: u32, carried: u32) -> Value {
    json!({"name": name, "kind": "vehicle", "quality": "conscript", "strength": models,
           "starting_strength": models, "one_page": profile(carried)})
}

fn roster(name: &str, units: Vec<Value>) -> Value {
    json!({"name": name, "platoons": [{"name": "First group", "units": units}]})
}

/// Blue: a Veteran unit of 4 bases (Line), a Seasoned unit of 1 base (Scout), a Seasoned
/// vehicle unit of 2 models carrying 2 bases (Carriers), a Seasoned vehicle (Walker) and a
/// Veteran unit that fights unharmed (Guard).
fn blue_roster() -> Value {
    roster(
        "Blue",
        vec![
            infantry("Line", "regular", 4),
            infantry("Scout", "conscript", 1),
            vehicles("Carriers", 2, 2),
            vehicles("Walker", 1, 0),
            infantry("Guard", "regular", 2),
        ],
    )
}

#[track_caller]
fn one_page_campaign(app: &TestApp, organiser: &TestUser) -> String {
    crate::rulesets::named_campaign_under(app, organiser, "Skirmish season", json!(ID))
}

use crate::rulesets::create_force as create;

struct Fought {
    organiser: TestUser,
    campaign_id: String,
    battle: String,
    blue: Value,
}

impl Fought {
    fn blue_id(&self) -> &str {
        self.blue["id"].as_str().unwrap()
    }
    fn path(&self, step: &str) -> String {
        step_path(&self.battle, self.blue_id(), step)
    }
}

/// A confirmed battle: Red won; Blue's Line lost 3 of 4 bases, Scout its only base, Carriers
/// one of two models, Walker was immobilised.
fn fought(app: &TestApp) -> Fought {
    let organiser = register(app, "organiser");
    let player = register(app, "player");
    let campaign_id = one_page_campaign(app, &organiser);
    let code = invite_code(app, &organiser, &campaign_id);
    assert_eq!(join(app, &player, &code).status(), 201);
    let blue = crate::forces::create_force(app, &organiser, &campaign_id, &blue_roster());
    let red = crate::forces::create_force(
        app,
        &player,
        &campaign_id,
        &roster("Red", vec![infantry("Raiders", "conscript", 3)]),
    );
    let battle = ok(post(
        app,
        &organiser,
        &format!("/api/v1/campaigns/{campaign_id}/battles"),
        &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
    ))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(post(
        app,
        &player,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({
        "outcome": "win", "winner_force_id": red["id"], "losses": [
            {"unit_id": unit_id(&blue, "Line"), "figures_lost": 3},
            {"unit_id": unit_id(&blue, "Scout"), "figures_lost": 1, "eliminated": true},
            {"unit_id": unit_id(&blue, "Carriers"), "figures_lost": 1},
            {"unit_id": unit_id(&blue, "Walker"), "figures_lost": 0, "vehicle_damage": "damaged"}]}),
    ));
    ok(post(
        app,
        &organiser,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    Fought {
        organiser,
        campaign_id,
        battle,
        blue,
    }
}

fn steps(next_dice: &Value) -> Vec<(String, String, String)> {
    next_dice
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["step"].as_str().unwrap().to_owned(),
                d["unit_name"].as_str().unwrap_or("pool").to_owned(),
                d["dice"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn s(a: &str, b: &str, c: &str) -> (String, String, String) {
    (a.to_owned(), b.to_owned(), c.to_owned())
}

both_backends! {
    fn o1_o3_vocabulary_trains_green_to_elite_rated_5_to_2_with_no_resolve_and_a_1d6_pool(app: &TestApp) {
        // Act
        let response = app.get("/api/v1/rulesets/one-page-skirmish");
        let listed: Value = app.get("/api/v1/rulesets").json().unwrap();

        // Assert
        assert_eq!(response.status(), 200);
        let v: Value = response.json().unwrap();
        assert_eq!(v["family"], "one_page");
        let rungs: Vec<(String, i64)> = v["ladders"][0]["rungs"].as_array().unwrap().iter()
            .map(|r| (r["key"].as_str().unwrap().to_owned(), r["number"].as_i64().unwrap())).collect();
        assert_eq!(v["ladders"].as_array().unwrap().len(), 1);
        assert_eq!(v["ladders"][0]["ladder"], "training");
        assert_eq!(rungs, [("green".to_owned(), 5), ("seasoned".to_owned(), 4), ("veteran".to_owned(), 3), ("elite".to_owned(), 2)]);
        assert!(v.get("resolve").is_none(), "no resolve section: {v}");
        let steps: Vec<&str> = v["roll_steps"].as_array().unwrap().iter().map(|s| s["step"].as_str().unwrap()).collect();
        assert_eq!(steps, ["replacement", "vehicle_replacement", "quality_loss", "reinforcements"]);
        assert_eq!(v["roll_steps"][3]["die"], "1d6");
        assert_eq!(v["one_page"]["training"][2], json!({"name": "veteran", "rating": 3, "quality": "regular"}));
        assert_eq!(v["one_page"]["armour"][3], json!({"name": "heavy", "ignores": 3}));
        let readings: Vec<&str> = v["readings"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(readings, ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9"]);
        assert!(listed["rulesets"].as_array().unwrap().iter().any(|r| r["id"] == ID), "{listed}");
    }

    fn o2_o7_o9_a_veteran_unit_of_4_bases_validates_unpriced_and_5_bases_or_3_carried_do_not(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = one_page_campaign(app, &organiser);
        let fad = ok(app.post_json_with_token("/api/v1/campaigns", &json!({"name": "FAD"}), &organiser.token));
        let fad_id = fad["id"].as_str().unwrap();

        // Act
        let made = crate::forces::create_force(app, &organiser, &campaign_id,
            &roster("Blue", vec![infantry("Line", "regular", 4)]));
        let five = create(app, &organiser, &campaign_id, &roster("Big", vec![infantry("Line", "regular", 5)]));
        let carried = create(app, &organiser, &campaign_id, &roster("Lift", vec![vehicles("Carrier", 1, 3)]));
        let with_resolve = create(app, &organiser, &campaign_id, &roster("Nerve", vec![
            json!({"name": "Line", "kind": "squad", "quality": "regular", "resolve": "steady",
                   "strength": 4, "starting_strength": 4, "one_page": profile(0)})]));
        let fad_roster = create(app, &organiser, &campaign_id, &crate::forces::small_roster("FAD kit"));
        let in_fad = create(app, &organiser, fad_id, &roster("Wrong", vec![infantry("Line", "regular", 4)]));

        // Assert
        assert_eq!(made["points"], Value::Null, "{made}");
        assert!(made["unpriced_reason"].as_str().unwrap().contains("O7"));
        assert_eq!(made["platoons"][0]["points"], Value::Null);
        assert_eq!(unit(&made, "Line")["points"], Value::Null);
        assert_eq!(unit(&made, "Line")["one_page"]["force_projection"]["short"], 3);
        let problem = assert_problem(five, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].starting_strength", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("O2"));
        let problem = assert_problem(carried, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].one_page.carried_bases", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("O9"));
        let problem = assert_problem(with_resolve, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].resolve", "{problem}");
        let problem = assert_problem(fad_roster, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].one_page", "{problem}");
        let problem = assert_problem(in_fad, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].one_page", "{problem}");
    }

    fn o1_o2_o3_o4_o5_the_post_battle_sequence_on_bases_with_entered_dice(app: &TestApp) {
        // Arrange
        let f = fought(app);
        let (line, scout, carriers) = (unit_id(&f.blue, "Line"), unit_id(&f.blue, "Scout"), unit_id(&f.blue, "Carriers"));
        let blue = f.blue_id().to_owned();

        // Act
        let before = get(app, &f.organiser, &format!("/api/v1/battles/{}/aftermath/{blue}", f.battle));
        let replaced = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "replacement",
            "dice": {"replacement": {line.as_str(): [4], scout.as_str(): [3]}}})));
        let vehicles = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "vehicle_replacement",
            "dice": {"vehicle_replacement": {carriers.as_str(): [5]}}})));
        let quality = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "quality_loss",
            "dice": {"quality_loss": {line.as_str(): [2], scout.as_str(): [6], carriers.as_str(): [3]}}})));
        let pool = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "reinforcements",
            "dice": {"reinforcements": {blue.as_str(): [2]}}})));

        // Assert: one d6 per unit that lost bases; a one-base unit too (no lone figures, O2).
        assert_eq!(before["ruleset"], json!({"id": ID, "version": 1}));
        assert_eq!(steps(&before["next_dice"]), [s("replacement", "Line", "1d6"), s("replacement", "Scout", "1d6")]);
        // Line: 4 → half of 3 rounded up, 2 back (3 bases); Scout: 3 → its base back.
        let after = &replaced["outcome"]["roster"];
        assert_eq!(unit(after, "Line")["strength"], 3, "{replaced}");
        assert_eq!(unit(after, "Scout")["strength"], 1);
        assert_eq!(unit(after, "Scout")["status"], "active");
        // O4: one die for the one destroyed model; the immobilised Walker rolls nothing.
        assert_eq!(steps(&replaced["next_dice"]), [s("vehicle_replacement", "Carriers", "1d6")]);
        assert_eq!(unit(&vehicles["outcome"]["roster"], "Carriers")["strength"], 2, "5 replaces the model");
        // Quality loss due for each unit refilled with half its bases (2·2 ≥ 4, 2·1 ≥ 1, 2·1 ≥ 2).
        assert_eq!(steps(&vehicles["next_dice"]), [
            s("quality_loss", "Line", "1d6"), s("quality_loss", "Scout", "1d6"), s("quality_loss", "Carriers", "1d6")]);
        let after = &quality["outcome"]["roster"];
        assert_eq!(unit(after, "Line")["quality"], "conscript", "2 → Seasoned: {quality}");
        assert_eq!(unit(after, "Scout")["quality"], "conscript");
        assert_eq!(unit(after, "Carriers")["quality"], "conscript");
        // O3: never a resolve step; the pool is 1d6.
        assert_eq!(steps(&quality["next_dice"]), [s("reinforcements", "pool", "1d6")]);
        for body in [&before, &replaced, &vehicles, &quality, &pool] {
            assert!(!body.to_string().contains("resolve_change"), "{body}");
        }
        assert_eq!(unit(&pool["outcome"]["roster"], "Line")["resolve"], Value::Null);
        assert_eq!(pool["pending"]["cp_available"], 2, "2 CP for one group: {pool}");
    }

    fn o1_o3_o5_menu_training_up_never_to_elite_no_resolve_and_bases_reinforce(app: &TestApp) {
        // Arrange: Line 1 → nothing back (1 base); Carriers 1 → its model lost (1 model); pool 3.
        let f = fought(app);
        let (line, scout, guard, carriers) = (unit_id(&f.blue, "Line"), unit_id(&f.blue, "Scout"),
            unit_id(&f.blue, "Guard"), unit_id(&f.blue, "Carriers"));
        let blue = f.blue_id().to_owned();
        ok(post(app, &f.organiser, &f.path("roll"), &json!({"dice": {
            "replacement": {line.as_str(): [1], scout.as_str(): [1]},
            "vehicle_replacement": {carriers.as_str(): [1]},
            "reinforcements": {blue.as_str(): [3]}}})));

        // Act
        let elite = post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_quality", "unit_id": guard}]}));
        let resolve = post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_resolve", "unit_id": line}]}));
        let bought = ok(post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_quality", "unit_id": carriers}]})));
        ok(post(app, &f.organiser, &f.path("reinforcements"), &json!({
            "allocations": [{"unit_id": line, "troopers": 3}]})));
        let done = ok(post(app, &f.organiser, &f.path("finalize"), &json!({})));
        let force = get(app, &f.organiser, &format!("/api/v1/forces/{blue}"));

        // Assert: Guard is Veteran, so one step up would be Elite (never, O1); no Resolve (O3).
        let problem = assert_problem(elite, 422);
        assert!(problem.to_string().contains("Elite"), "{problem}");
        let problem = assert_problem(resolve, 422);
        assert!(problem.to_string().contains("not sold"), "{problem}");
        // Seasoned → Veteran for 1 of the 2 CP (one group).
        assert_eq!(bought["pending"]["cp_spent"], 1, "{bought}");
        assert_eq!(unit(&force, "Carriers")["quality"], "regular", "{done}");
        assert_eq!(unit(&force, "Carriers")["strength"], 1);
        // Three bases from the pool bring Line back to its 4.
        assert_eq!(unit(&force, "Line")["strength"], 4, "{done}");
        assert_eq!(unit(&force, "Scout")["status"], "eliminated");
        assert_eq!(force["points"], Value::Null);
        assert!(force["version"].as_i64().unwrap() > 1);
        let _ = &f.campaign_id;
    }

    fn the_pages_show_the_rules_offer_the_ruleset_and_render_a_one_page_force(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = one_page_campaign(app, &organiser);
        let force = crate::forces::create_force(app, &organiser, &campaign_id, &blue_roster());
        let id = force["id"].as_str().unwrap();
        let mut browser = signed_in(app, &organiser);

        // Act
        let (rules, _) = browser.page("/rules/one-page-skirmish");
        let (new_campaign, _) = browser.page("/campaigns/new");
        let (roster_page, _) = browser.page(&format!("/forces/{id}"));
        let (cards, _) = browser.page(&format!("/forces/{id}/cards"));
        let reference = browser.get("/rules").text().unwrap();
        let editor = browser.get(&format!("/forces/{id}/edit")).status();
        let history = browser.get(&format!("/forces/{id}/history")).status();

        // Assert
        for reading in ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9"] {
            assert!(rules.contains(&format!("id=\"{reading}\"")), "{reading} anchored on the page");
            assert!(reference.contains(&format!("id=\"{reading}\"")), "{reading} in docs/rules.md");
        }
        assert!(rules.contains("Seasoned") && rules.contains("Veteran"), "training names");
        assert!(!rules.contains("table-resolve_change"), "no resolve table");
        assert!(new_campaign.contains("value=\"one-page-skirmish\""), "offered on the creation page");
        assert!(roster_page.contains("Veteran (3) · 4 bases · Light · 1/3/2/2/0 [AT1]"), "{roster_page}");
        assert!(roster_page.contains("Unpriced"));
        assert!(roster_page.contains("Carries"));
        assert!(cards.contains("1/3/2/2/0 [AT1]"));
        assert_eq!((editor.as_u16(), history.as_u16()), (200, 200), "the editor and history open");
        for page in [&roster_page, &cards] {
            assert!(!page.contains("one_page") && !page.contains("force_projection"), "no snake_case keys");
        }
    }

    fn o8_the_opt_in_scenario_sheet_gives_deployment_zones_in_cm(app: &TestApp) {
        // Arrange: a battle's scenario is opt-in: it is played only if the sides give orders.
        let organiser = register(app, "organiser");
        let player = register(app, "player");
        let campaign_id = one_page_campaign(app, &organiser);
        let code = invite_code(app, &organiser, &campaign_id);
        assert_eq!(join(app, &player, &code).status(), 201);
        let blue = crate::forces::create_force(app, &organiser, &campaign_id, &blue_roster());
        let red = crate::forces::create_force(app, &player, &campaign_id, &roster("Red", vec![infantry("Raiders", "conscript", 3)]));
        let (blue_id, red_id) = (blue["id"].as_str().unwrap(), red["id"].as_str().unwrap());
        let battle = ok(post(app, &organiser, &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": blue_id}, {"force_id": red_id}]})))["id"]
            .as_str().unwrap().to_owned();
        let orders = format!("/api/v1/battles/{battle}/scenario/orders");

        // Act
        ok(post(app, &organiser, &orders, &json!({"force_id": blue_id, "stance": "defensive",
            "attitude": "cautious", "dice": {"table_edge": {blue_id: [3]}}})));
        let scenario = ok(post(app, &player, &orders, &json!({"force_id": red_id, "stance": "offensive",
            "attitude": "aggressive", "dice": {"table_edge": {red_id: [4]}}})));
        let sheet = app.get_with_token(&format!("/api/v1/battles/{battle}/scenario/sheet"), &organiser.token);

        // Assert: FAD 5e's 18" and 6" in the state, 15 cm and 5 cm on the sheet (× 5/6).
        let zones: Vec<&Value> = scenario["sides"].as_array().unwrap().iter().map(|s| &s["deployment_zone_inches"]).collect();
        assert_eq!(zones, [&json!(18), &json!(6)], "{scenario}");
        assert_eq!(sheet.status(), 200);
        let sheet = sheet.text().unwrap();
        assert!(sheet.contains("<td>15 cm</td>") && sheet.contains("<td>5 cm</td>"), "{sheet}");
        assert!(sheet.contains("deployment zone 15 cm") && sheet.contains("deployment zone 5 cm"));
        // The zones and the table are in cm (mission texts keep the rules' own words).
        assert!(!sheet.contains("<td>18\"</td>") && !sheet.contains("deployment zone 6\""), "{sheet}");
        assert!(sheet.contains("table 40 cm×40 cm"), "{sheet}");
    }
}
