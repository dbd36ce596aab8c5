//! The built-in ruleset `fad-basic-advanced` (docs/rules.md §9) through HTTP on both backends:
//! its ladders and readings, B1 (vehicle crews rated, and a damaged vehicle's resolve change),
//! B2 (the squad leader's Quality shift, the wiped-out Conscript squad), B3 (its personalities,
//! on rosters and as a purchase), B6 (unpriced, or FAD 5e's points borrowed), its page and the
//! campaign form, and a one-shot scenario identical to FAD 5e's apart from `ruleset`. Expected
//! values are computed by hand from docs/rules.md §2.2 and §9 with entered dice.

use serde_json::{Value, json};

use crate::auth::{TestUser, register};
use crate::battles::{get, ok, post, step_path, unit};
use crate::campaigns::{invite_code, join};
use crate::common::{TestApp, assert_problem, unit_id};
use crate::web_aftermath::signed_in;
use crate::web_pages::Browser;

const FBA: &str = "fad-basic-advanced";

#[track_caller]
fn campaign(app: &TestApp, user: &TestUser, ruleset: &str, house_rules: Option<Value>) -> String {
    let mut body = json!({"name": "Operation Basic", "ruleset": {"id": ruleset, "version": 1}});
    if let Some(rules) = house_rules {
        body["house_rules"] = rules;
    }
    let created = ok(post(app, user, "/api/v1/campaigns", &body));
    assert_eq!(created["ruleset"], json!({"id": ruleset, "version": 1}));
    created["id"].as_str().unwrap().to_owned()
}

fn squad(name: &str, quality: &str, strength: u32, leader: Option<&str>) -> Value {
    let mut u = json!({"name": name, "kind": "squad", "quality": quality, "resolve": "steady",
        "strength": strength, "starting_strength": strength, "armour": "light",
        "basic_weapon": "assault_rifles"});
    if let Some(leader) = leader {
        u["leader_experience"] = json!(leader);
    }
    u
}

fn tank(resolve: Value) -> Value {
    json!({"name": "Tank", "kind": "vehicle", "quality": "regular", "resolve": resolve,
        "strength": 1, "starting_strength": 1,
        "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3},
        "vehicle_state": "operational"})
}

fn lieutenant() -> Value {
    json!({"name": "Lt. Varga", "kind": "character", "quality": "regular", "resolve": "determined",
        "strength": 1, "starting_strength": 1, "armour": "light", "basic_weapon": "assault_rifles",
        "leadership": "experienced", "branch": "infantry"})
}

fn roster(name: &str, units: Vec<Value>) -> Value {
    json!({"name": name, "platoons": [{"name": "1st Platoon", "units": units}]})
}

fn create_force(
    app: &TestApp,
    user: &TestUser,
    campaign: &str,
    body: &Value,
) -> reqwest::blocking::Response {
    post(
        app,
        user,
        &format!("/api/v1/campaigns/{campaign}/forces"),
        body,
    )
}

/// A campaign under `fad-basic-advanced` where the organiser's Blue beat the player's Red and
/// the result is confirmed.
struct Played {
    organiser: TestUser,
    player: TestUser,
    campaign: String,
    battle: String,
    blue: Value,
    red: Value,
}

fn played(
    app: &TestApp,
    blue: Vec<Value>,
    red: Vec<Value>,
    losses: impl Fn(&Value, &Value) -> Value,
) -> Played {
    let organiser = register(app, "organiser");
    let player = register(app, "player");
    let campaign = campaign(app, &organiser, FBA, None);
    let code = invite_code(app, &organiser, &campaign);
    assert_eq!(join(app, &player, &code).status(), 201);
    let blue = ok(create_force(
        app,
        &organiser,
        &campaign,
        &roster("Blue", blue),
    ));
    let red = ok(create_force(app, &player, &campaign, &roster("Red", red)));
    let battle = ok(post(
        app,
        &organiser,
        &format!("/api/v1/campaigns/{campaign}/battles"),
        &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
    ))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(post(
        app,
        &organiser,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({
        "outcome": "win", "winner_force_id": blue["id"], "losses": losses(&blue, &red)}),
    ));
    ok(post(
        app,
        &player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    Played {
        organiser,
        player,
        campaign,
        battle,
        blue,
        red,
    }
}

fn subjects(read: &Value) -> Vec<(String, String)> {
    read["next_dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["step"].as_str().unwrap().to_owned(),
                d["subject"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

both_backends! {
    fn ladders_personalities_and_readings_of_the_ruleset(app: &TestApp) {
        // Act
        let user = register(app, "reader");
        let listed = get(app, &user, "/api/v1/rulesets");
        let r = get(app, &user, &format!("/api/v1/rulesets/{FBA}"));
        let fad5e = get(app, &user, "/api/v1/rulesets/fad5e");

        // Assert: listed as a built-in of the FAD family, from both seed texts.
        let entry = listed["rulesets"].as_array().unwrap().iter().find(|x| x["id"] == FBA).expect("listed");
        assert_eq!(entry["family"], "fad");
        assert_eq!(entry["builtin"], true);
        let ladder = |v: &Value, name: &str| v["ladders"].as_array().unwrap().iter().find(|l| l["ladder"] == name).cloned().unwrap();
        let rungs = |v: &Value, name: &str| -> Vec<(String, Value)> {
            ladder(v, name)["rungs"].as_array().unwrap().iter()
                .map(|g| (g["key"].as_str().unwrap().to_owned(), g["number"].clone())).collect()
        };
        let s = |k: &str, n: Value| (k.to_owned(), n);
        assert_eq!(rungs(&r, "quality"), [s("rabble", json!(5)), s("conscript", json!(4)), s("regular", json!(3)), s("elite", json!(2))]);
        assert_eq!(ladder(&r, "resolve"), ladder(&fad5e, "resolve"));
        assert_eq!(rungs(&r, "leader_experience"), [s("regular", json!(0)), s("experienced", json!(1)), s("veteran", json!(2))]);
        let names: Vec<&str> = r["lists"]["personalities"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names.len(), 9, "{names:?}");
        assert!(names.contains(&"anti_armour_expert") && !names.contains(&"tech"), "{names:?}");
        let words: Vec<&str> = r["leader_experience"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(words, ["regular", "experienced", "veteran"]);
        let readings: Vec<&str> = r["readings"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
        assert_eq!(readings, ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]);
        assert_eq!(r["readings"][1]["rules_url"], format!("/rules/{FBA}#B2"));
        assert!(r["options"].as_array().unwrap().iter().any(|o| o["name"] == "pricing"));
        // FAD 5e keeps its own words.
        let fad5e_words: Vec<&str> = fad5e["leader_experience"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(fad5e_words, ["inexperienced", "experienced", "veteran"]);
    }

    fn b1_a_vehicle_without_resolve_is_refused_citing_b1_and_fad5e_takes_it(app: &TestApp) {
        // Arrange
        let user = register(app, "organiser");
        let fba = campaign(app, &user, FBA, None);
        let fad5e = campaign(app, &user, "fad5e", None);
        let body = roster("Armour", vec![tank(Value::Null)]);

        // Act
        let refused = create_force(app, &user, &fba, &body);
        let taken = create_force(app, &user, &fad5e, &body);
        let rated = create_force(app, &user, &fba, &roster("Armour", vec![tank(json!("steady"))]));

        // Assert
        let problem = assert_problem(refused, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].resolve", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("B1"), "{problem}");
        assert_eq!(taken.status(), 201);
        assert_eq!(rated.status(), 201);
    }

    fn b1_a_damaged_vehicle_rolls_vehicle_replacement_then_resolve_change(app: &TestApp) {
        // Arrange: Blue's Regular/Steady tank is damaged.
        let p = played(app,
            vec![squad("Alpha", "regular", 8, Some("regular")), tank(json!("steady"))],
            vec![squad("Delta", "regular", 8, Some("regular"))],
            |blue, _| json!([{"unit_id": unit_id(blue, "Tank"), "figures_lost": 0, "eliminated": false, "vehicle_damage": "damaged"}]));
        let blue = p.blue["id"].as_str().unwrap().to_owned();
        let tank = unit_id(&p.blue, "Tank");
        let path = format!("/api/v1/battles/{}/aftermath/{blue}", p.battle);

        // Act
        let before = get(app, &p.organiser, &path);
        let first = ok(post(app, &p.organiser, &step_path(&p.battle, &blue, "roll"),
            &json!({"step": "vehicle_replacement", "dice": {"vehicle_replacement": {tank.as_str(): [2]}}})));
        let second = ok(post(app, &p.organiser, &step_path(&p.battle, &blue, "roll"),
            &json!({"step": "resolve_change", "dice": {"resolve_change": {tank.as_str(): [1]}}})));

        // Assert: the two due rolls, in table order; 2 leaves it damaged, 1 drops Steady to Uncertain.
        assert_eq!(before["next_step"], "vehicle_replacement", "{before}");
        assert_eq!(subjects(&before), [("vehicle_replacement".to_owned(), tank.clone())]);
        assert_eq!(subjects(&first), [("resolve_change".to_owned(), tank.clone())], "{first}");
        let after = unit(&second["outcome"]["roster"], "Tank");
        assert_eq!(after["vehicle_state"], "damaged", "{second}");
        assert_eq!(after["resolve"], "uncertain");
        assert_eq!(second["ruleset"], json!({"id": FBA, "version": 1}));
    }

    fn b2_rabble_led_by_a_veteran_is_effectively_regular_and_inexperienced_is_refused(app: &TestApp) {
        // Arrange
        let user = register(app, "organiser");
        let fba = campaign(app, &user, FBA, None);
        let fad5e = campaign(app, &user, "fad5e", None);

        // Act
        let led = ok(create_force(app, &user, &fba, &roster("Rabble", vec![squad("Mob", "rabble", 8, Some("veteran"))])));
        let read = get(app, &user, &format!("/api/v1/forces/{}", led["id"].as_str().unwrap()));
        let listed = get(app, &user, &format!("/api/v1/campaigns/{fba}/forces"));
        let inexperienced = create_force(app, &user, &fba, &roster("Old", vec![squad("Mob", "rabble", 8, Some("inexperienced"))]));
        let regular_under_fad5e = create_force(app, &user, &fad5e, &roster("New", vec![squad("Mob", "rabble", 8, Some("regular"))]));
        let under_fad5e = ok(create_force(app, &user, &fad5e, &roster("Rabble", vec![squad("Mob", "rabble", 8, Some("veteran"))])));

        // Assert: natural Quality kept, the shifted one beside it (002 l.578).
        for body in [&led, &read, &listed["forces"][0]] {
            let mob = unit(body, "Mob");
            assert_eq!(mob["quality"], "rabble", "{body}");
            assert_eq!(mob["effective_quality"], "regular", "{body}");
        }
        let problem = assert_problem(inexperienced, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].leader_experience");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("B2"), "{problem}");
        let problem = assert_problem(regular_under_fad5e, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].leader_experience");
        assert!(unit(&under_fad5e, "Mob").get("effective_quality").is_none(), "{under_fad5e}");
    }

    fn b2_the_wiped_out_conscript_squad_drops_to_natural_rabble_and_fights_as_conscript(app: &TestApp) {
        // Arrange: Red's Conscript squad (E = 8) with an Experienced leader is wiped out.
        let p = played(app,
            vec![squad("Alpha", "regular", 8, Some("regular"))],
            vec![squad("Charlie", "conscript", 8, Some("experienced"))],
            |_, red| json!([{"unit_id": unit_id(red, "Charlie"), "figures_lost": 8, "eliminated": true, "vehicle_damage": null}]));
        let red = p.red["id"].as_str().unwrap().to_owned();
        let charlie = unit_id(&p.red, "Charlie");

        // Act
        let replaced = ok(post(app, &p.player, &step_path(&p.battle, &red, "roll"),
            &json!({"step": "replacement", "dice": {"replacement": {charlie.as_str(): [3]}}})));
        let dropped = ok(post(app, &p.player, &step_path(&p.battle, &red, "roll"),
            &json!({"step": "quality_loss", "dice": {"quality_loss": {charlie.as_str(): [1]}}})));
        ok(post(app, &p.player, &step_path(&p.battle, &red, "roll"),
            &json!({"dice": {"resolve_change": {charlie.as_str(): [4]}, "reinforcements": {red.as_str(): [1, 1]}}})));
        ok(post(app, &p.player, &step_path(&p.battle, &red, "finalize"), &json!({"forgo_reinforcements": true})));
        let force = get(app, &p.player, &format!("/api/v1/forces/{red}"));

        // Assert: 3 → half of 8 back (4 figures); 2·4 ≥ 8 calls quality loss; 1 drops it.
        assert_eq!(unit(&replaced["outcome"]["roster"], "Charlie")["strength"], 4, "{replaced}");
        assert_eq!(subjects(&replaced), [("quality_loss".to_owned(), charlie.clone())]);
        assert_eq!(unit(&dropped["outcome"]["roster"], "Charlie")["quality"], "rabble", "{dropped}");
        let charlie = unit(&force, "Charlie");
        assert_eq!((charlie["quality"].as_str(), charlie["effective_quality"].as_str()), (Some("rabble"), Some("conscript")), "{force}");
        assert_eq!(charlie["leader_experience"], "experienced");
        let _ = (&p.organiser, &p.campaign);
    }

    fn b3_grant_personality_sells_anti_armour_expert_for_1_cp_and_refuses_tech(app: &TestApp) {
        // Arrange
        let p = played(app,
            vec![squad("Alpha", "regular", 8, Some("regular"))],
            vec![lieutenant(), squad("Delta", "regular", 8, Some("regular"))],
            |_, red| json!([{"unit_id": unit_id(red, "Delta"), "figures_lost": 2, "eliminated": false, "vehicle_damage": null}]));
        let red = p.red["id"].as_str().unwrap().to_owned();
        let (lt, delta) = (unit_id(&p.red, "Lt. Varga"), unit_id(&p.red, "Delta"));
        ok(post(app, &p.player, &step_path(&p.battle, &red, "roll"),
            &json!({"dice": {"replacement": {delta.as_str(): [5]}, "resolve_change": {delta.as_str(): [3]}, "reinforcements": {red.as_str(): [1, 1]}}})));
        let buy = |personality: &str| post(app, &p.player, &step_path(&p.battle, &red, "purchases"),
            &json!({"purchases": [{"item": "grant_personality", "unit_id": lt, "personality": personality}]}));

        // Act
        let tech = buy("tech");
        let aae = ok(buy("anti_armour_expert"));
        let roster_tech = create_force(app, &p.organiser, &p.campaign, &roster("Techs", vec![{
            let mut c = lieutenant(); c["personalities"] = json!(["tech"]); c }]));

        // Assert
        let problem = assert_problem(tech, 422);
        assert_eq!(problem["errors"][0]["field"], "purchases[0].personality", "{problem}");
        assert_eq!(aae["pending"]["cp_spent"], 1, "{aae}");
        let problem = assert_problem(roster_tech, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].personalities[0]", "{problem}");
    }

    fn b6_unpriced_by_default_and_31_2_with_fad5e_pricing(app: &TestApp) {
        // Arrange
        let user = register(app, "organiser");
        let unpriced = campaign(app, &user, FBA, None);
        let priced = campaign(app, &user, FBA, Some(json!({"pricing": "fad5e"})));
        let fad5e = campaign(app, &user, "fad5e", None);
        let six = roster("Six", vec![squad("Sixes", "regular", 6, None)]);
        let mut expert = squad("Sixes", "regular", 6, None);
        expert["personalities"] = json!(["anti_armour_expert"]);
        let with_expert = roster("Six", vec![expert]);

        // Act
        let none = ok(create_force(app, &user, &unpriced, &six));
        let borrowed = ok(create_force(app, &user, &priced, &six));
        let borrowed_expert = ok(create_force(app, &user, &priced, &with_expert));
        let read = get(app, &user, &format!("/api/v1/forces/{}", borrowed_expert["id"].as_str().unwrap()));
        let under_fad5e = ok(create_force(app, &user, &fad5e, &six));
        let rules = get(app, &user, &format!("/api/v1/campaigns/{priced}/rules"));

        // Assert: no points at any level, with the reason.
        assert_eq!(none["points"], Value::Null, "{none}");
        assert_eq!(none["platoons"][0]["points"], Value::Null);
        assert_eq!(unit(&none, "Sixes")["points"], Value::Null);
        assert!(none["unpriced_reason"].as_str().unwrap().contains("B6"), "{none}");
        // 6 × 4 × 1.3 with FAD 5e's point system borrowed; the expert adds nothing, listed.
        assert_eq!(borrowed["points"], 31.2, "{borrowed}");
        assert!(borrowed.get("unpriced_reason").is_none() && borrowed.get("unpriced_items").is_none());
        for body in [&borrowed_expert, &read] {
            assert_eq!(body["points"], 31.2, "{body}");
            assert_eq!(body["unpriced_items"], json!(["anti_armour_expert"]));
        }
        assert_eq!(under_fad5e["points"], 31.2);
        assert!(under_fad5e.get("unpriced_reason").is_none());
        let option = rules["options"].as_array().unwrap().iter().find(|o| o["name"] == "pricing").cloned().unwrap();
        assert_eq!(option["value"], "fad5e", "{option}");
    }

    fn a_one_shot_scenario_equals_fad5e_s_apart_from_the_ruleset(app: &TestApp) {
        // Arrange: every die of a first scenario, entered again for both rulesets.
        let user = register(app, "gamemaster");
        let force = |name: &str| json!({"name": name, "units": [
            {"name": "Command", "kind": "command_squad", "resolve": "steady"},
            {"name": "Line", "kind": "squad", "resolve": "determined"}]});
        let sides = |dice: [Value; 2]| {
            let [a, b] = dice;
            let mut red = force("Red");
            red["stance"] = json!("neutral");
            red["attitude"] = json!("cautious");
            red["dice"] = a;
            let mut blue = force("Blue");
            blue["stance"] = json!("defensive");
            blue["attitude"] = json!("passive");
            blue["dice"] = b;
            json!([red, blue])
        };
        let first = ok(post(app, &user, "/api/v1/scenarios", &json!({"sides": sides([json!({}), json!({})])})));
        let mut entered = [json!({}), json!({})];
        for roll in first["rolls"].as_array().unwrap() {
            let side = usize::from(roll["force_id"] == "side_2");
            let (step, subject) = (roll["step"].as_str().unwrap(), roll["subject"].as_str().unwrap());
            entered[side][step][subject] = roll["values"].clone();
        }
        let body = |ruleset: &str| json!({"sides": sides(entered.clone()), "ruleset": ruleset});

        // Act
        let fad5e = ok(post(app, &user, "/api/v1/scenarios", &body("fad5e")));
        let fba = ok(post(app, &user, "/api/v1/scenarios", &body(FBA)));
        let unknown = post(app, &user, "/api/v1/scenarios", &body("club/nowhere"));

        // Assert
        let strip = |v: &Value| {
            let mut v = v.clone();
            for key in ["id", "created_at", "ruleset", "side_sheet_urls"] {
                v.as_object_mut().unwrap().remove(key);
            }
            v
        };
        assert_eq!(fba["ruleset"], json!({"id": FBA, "version": 1}));
        assert!(fad5e.get("ruleset").is_none(), "FAD 5e version 1 documents keep their bytes");
        assert!(fba["rolls"].as_array().unwrap().iter().all(|r| r["source"] == "player"), "{fba}");
        assert_eq!(strip(&fba), strip(&fad5e));
        assert_eq!(assert_problem(unknown, 422)["errors"][0]["field"], "ruleset");
    }

    fn the_pages_offer_the_ruleset_and_show_its_ladders_and_readings(app: &TestApp) {
        // Arrange
        let user = register(app, "organiser");
        let mut browser = signed_in(app, &user);

        // Act
        let (new_campaign, _) = browser.page("/campaigns/new");
        let (page, _) = Browser::new(app).page(&format!("/rules/{FBA}"));
        let (reference, _) = Browser::new(app).page("/rules");

        // Assert
        assert!(new_campaign.contains(&format!("value=\"{FBA}\"")), "the Rules select offers it");
        assert!(new_campaign.contains("F.A.D. basic and advanced rules"));
        assert!(page.contains("Leader experience") && page.contains("Anti armour expert"), "{page}");
        for id in ["B1", "B2", "B3", "B6"] {
            assert!(page.contains(&format!("id=\"{id}\"")), "reading {id} on the page");
            assert!(page.contains(&format!("href=\"/rules#{id}\"")), "reading {id} links to the reference");
            assert!(reference.contains(&format!("id=\"{id}\"")), "the reference has anchor {id}");
        }
    }
}
