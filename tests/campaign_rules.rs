//! Campaign rules found wrong by the third rules audit (docs/rules.md C2, C15, C16, C26, §3.6,
//! §4.1), on both backends with entered dice and values computed by hand:
//! - a damaged vehicle that sat the battle out takes no damage, destruction or crew losses;
//! - a unit an ambush destroyed on its recon return must be reported wiped out, and its
//!   post-battle rolls are those of a wiped-out unit;
//! - after play, repairing a vehicle or raising a squad leader's experience is the organiser's
//!   correction with a reason;
//! - basic generation's More Support turns a squad of 8 into 6 with two support weapons;
//! - the house rule `vehicle_resolve_change` makes an unrated damaged vehicle roll as Steady.

use crate::auth::TestUser;
use crate::battles::{get, post, step_path, unit};
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem, ok, side, unit_id};
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Blue: Alpha (a squad of 6 with an Inexperienced leader) and Rhino (an unrated vehicle in
/// `rhino_state`).
fn blue_roster(rhino_state: &str) -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles",
         "leader_experience": "inexperienced"},
        {"name": "Rhino", "kind": "vehicle", "quality": "regular", "resolve": null,
         "strength": 1, "starting_strength": 1,
         "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3},
         "vehicle_state": rhino_state}
    ]}]})
}

/// Red: Delta and Echo, two squads of 6.
fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Delta", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Echo", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Mission dice: every mission 1 except `high`, which gets a 6.
fn mission_dice(high: &str) -> Value {
    let missions = [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ];
    missions
        .iter()
        .map(|m| ((*m).to_owned(), json!([if *m == high { 6 } else { 1 }])))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// A Blue (owner) – Red (player) battle in a fresh campaign.
struct Game {
    people: People,
    campaign_id: String,
    blue: Value,
    red: Value,
    battle: String,
}

impl Game {
    /// The campaign's house rules are the defaults with `house_rules` changed before the forces
    /// are created.
    fn new(app: &TestApp, rhino_state: &str, house_rules: Value) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let campaign_id = world.campaign_id.clone();
        if house_rules != json!({}) {
            let path = format!("/api/v1/campaigns/{campaign_id}/settings");
            let settings = get(app, &people.organiser, &path);
            let mut rules = settings["house_rules"].clone();
            for (k, v) in house_rules.as_object().unwrap() {
                rules[k] = v.clone();
            }
            ok(app.put_json_with_token(
                &path,
                &json!({"version": settings["version"], "house_rules": rules,
                        "results_need_confirmation": true, "lock_rosters_after_play": true}),
                &people.organiser.token,
            ));
        }
        let blue = crate::forces::create_force(
            app,
            &people.owner,
            &campaign_id,
            &blue_roster(rhino_state),
        );
        let red = crate::forces::create_force(app, &people.player, &campaign_id, &red_roster());
        let battle = ok(post(
            app,
            &people.owner,
            &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
        ));
        Self {
            people,
            campaign_id,
            blue,
            red,
            battle: battle["id"].as_str().unwrap().to_owned(),
        }
    }

    fn blue_id(&self) -> String {
        self.blue["id"].as_str().unwrap().to_owned()
    }

    fn red_id(&self) -> String {
        self.red["id"].as_str().unwrap().to_owned()
    }

    /// Records a draw with `losses`, as Blue's owner.
    fn record(&self, app: &TestApp, losses: Value) -> Response {
        post(
            app,
            &self.people.owner,
            &format!("/api/v1/battles/{}/result", self.battle),
            &json!({"outcome": "draw", "losses": losses}),
        )
    }

    /// Red's owner confirms the result.
    fn confirm(&self, app: &TestApp) {
        ok(post(
            app,
            &self.people.player,
            &format!("/api/v1/battles/{}/result/confirm", self.battle),
            &json!({}),
        ));
    }

    fn battle_state(&self, app: &TestApp) -> Value {
        get(
            app,
            &self.people.owner,
            &format!("/api/v1/battles/{}", self.battle),
        )["state"]
            .clone()
    }

    fn aftermath(&self, app: &TestApp, force: &str) -> Value {
        get(
            app,
            &self.people.owner,
            &format!("/api/v1/battles/{}/aftermath/{force}", self.battle),
        )
    }

    fn scenario_step(&self, app: &TestApp, user: &TestUser, step: &str, body: &Value) -> Value {
        ok(post(
            app,
            user,
            &format!("/api/v1/battles/{}/scenario/{step}", self.battle),
            body,
        ))
    }

    /// Blue's PUT of its own roster after `change`, as `user`.
    fn edit(&self, app: &TestApp, user: &TestUser, change: impl Fn(&mut Value)) -> Response {
        let path = format!("/api/v1/forces/{}", self.blue_id());
        let mut force = get(app, user, &path);
        change(&mut force);
        let mut body = json!({"version": force["version"], "name": force["name"],
                              "platoons": force["platoons"]});
        if let Some(reason) = force.get("reason") {
            body["reason"] = reason.clone();
        }
        app.put_json_with_token(&path, &body, &user.token)
    }
}

/// The fields and the messages of a 422 problem.
fn errors(problem: &Value) -> Vec<(String, String)> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The single error of a 422 answer: its field and message.
#[track_caller]
fn refused(response: Response) -> (String, String) {
    let all = errors(&assert_problem(response, 422));
    assert_eq!(all.len(), 1, "{all:?}");
    all[0].clone()
}

/// `(step, subject)` of each roll the sequence asks for next.
fn next_dice(view: &Value) -> Vec<(String, String)> {
    view["next_dice"]
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

fn due(step: &str, subject: &str) -> (String, String) {
    (step.to_owned(), subject.to_owned())
}

both_backends! {
    fn c2_c16_a_damaged_vehicle_that_sat_out_takes_no_damage_or_losses(app: &TestApp) {
        // Arrange: Rhino was left damaged by an earlier battle and not repaired.
        let g = Game::new(app, "damaged", json!({}));
        let (alpha, rhino) = (unit_id(&g.blue, "Alpha"), unit_id(&g.blue, "Rhino"));
        let fine = json!({"unit_id": alpha, "figures_lost": 1});

        // Act
        let damaged = g.record(app, json!([fine, {"unit_id": rhino, "vehicle_damage": "damaged"}]));
        let destroyed = g.record(app, json!([{"unit_id": rhino, "vehicle_damage": "destroyed"}]));
        let eliminated = g.record(app, json!([{"unit_id": rhino, "eliminated": true}]));
        let crew = g.record(app, json!([fine, {"unit_id": rhino, "figures_lost": 2}]));
        let state_after_refusals = g.battle_state(app);
        let recorded = ok(g.record(app, json!([fine, {"unit_id": rhino, "figures_lost": 0}])));

        // Assert: each refused at its line, in plain words; nothing recorded meanwhile.
        for (response, field) in [
            (damaged, "losses[1].vehicle_damage"),
            (destroyed, "losses[0].vehicle_damage"),
            (eliminated, "losses[0].vehicle_damage"),
            (crew, "losses[1].figures_lost"),
        ] {
            let (got, message) = refused(response);
            assert_eq!(got, field);
            assert!(message.contains("damaged") && message.contains("not repaired")
                && message.contains("not on the table"), "{message}");
        }
        assert_eq!(state_after_refusals, "scenario");
        assert_eq!(recorded["state"], "pending");
        // The unrepaired vehicle still rolls again after this battle (C16).
        g.confirm(app);
        let view = g.aftermath(app, &g.blue_id());
        assert_eq!(view["next_step"], "replacement");
        let roll = step_path(&g.battle, &g.blue_id(), "roll");
        let rolled = ok(post(app, &g.people.owner, &roll,
            &json!({"step": "replacement", "dice": {"replacement": {alpha.as_str(): [1]}}})));
        assert_eq!(next_dice(&rolled), [due("vehicle_replacement", &rhino)]);
    }

    fn c2_s3_6_a_unit_ambushed_on_its_recon_return_must_be_reported_lost(app: &TestApp) {
        // Arrange: Blue sends Alpha on recon duty and its return roll is an entered 1
        // (destroyed by an ambush); Blue rolls Assault, Red Sweep, so no Escalating Engagement.
        let g = Game::new(app, "operational", json!({}));
        let (blue, red) = (g.blue_id(), g.red_id());
        let (alpha, delta) = (unit_id(&g.blue, "Alpha"), unit_id(&g.red, "Delta"));
        g.scenario_step(app, &g.people.owner, "orders", &json!({"force_id": blue,
            "stance": "offensive", "attitude": "aggressive", "recon_unit_ids": [alpha],
            "dice": {"table_edge": {blue.clone(): [3]}, "mission": mission_dice("assault"),
                     "recon_return": {alpha.clone(): [1]}}}));
        g.scenario_step(app, &g.people.player, "orders", &json!({"force_id": red,
            "stance": "offensive", "attitude": "aggressive",
            "dice": {"table_edge": {red.clone(): [4]}, "mission": mission_dice("sweep")}}));
        g.scenario_step(app, &g.people.owner, "mission-bonuses", &json!({"force_id": blue, "missions": []}));
        let v = g.scenario_step(app, &g.people.player, "mission-bonuses", &json!({"force_id": red, "missions": []}));
        let seen = ok(app.get_with_token(&format!("/api/v1/battles/{}/scenario", g.battle), &g.people.owner.token));
        assert_eq!(v["state"], "recon", "{v}");
        assert_eq!(side(&seen, &blue)["recon_duty"],
            json!([{"unit_id": alpha, "outcome": "destroyed", "roll": 1, "total": 1}]));

        // Act
        let left_out = g.record(app, json!([{"unit_id": alpha.clone(), "figures_lost": 0},
            {"unit_id": delta, "figures_lost": 2}]));
        let no_blue_line = g.record(app, json!([{"unit_id": delta, "figures_lost": 2}]));
        let fewer = g.record(app, json!([{"unit_id": delta, "figures_lost": 2},
            {"unit_id": alpha, "figures_lost": 3}]));
        let state_after_refusals = g.battle_state(app);
        let recorded = ok(g.record(app, json!([{"unit_id": delta, "figures_lost": 2},
            {"unit_id": alpha, "destroyed_on_recon": true}])));

        // Assert: refused naming the unit, at its line or at `losses` when it has none.
        for (response, field) in [
            (left_out, "losses[0].figures_lost"),
            (no_blue_line, "losses"),
            (fewer, "losses[1].figures_lost"),
        ] {
            let (got, message) = refused(response);
            assert_eq!(got, field);
            assert!(message.contains("Alpha") && message.contains("ambush")
                && message.contains("all 6 figures"), "{message}");
        }
        assert_eq!(state_after_refusals, "scenario");
        assert_eq!(recorded["result"]["losses"][1]["figures_lost"], 6);
        // Its post-battle rolls are a wiped-out unit's: the replacement roll for all 6 (C4).
        g.confirm(app);
        let view = g.aftermath(app, &blue);
        assert_eq!(next_dice(&view), [due("replacement", &alpha)]);
        let why = view["next_dice"][0]["why"].as_str().unwrap();
        assert!(why.contains("lost 6 figure(s)"), "{why}");
    }

    fn c26_repairing_a_vehicle_or_raising_a_squad_leader_after_play_needs_the_organiser(app: &TestApp) {
        // Arrange: Rhino (unit 1) is damaged; Alpha (unit 0) has an Inexperienced leader; the
        // force has fought a battle.
        let g = Game::new(app, "damaged", json!({}));
        let (owner, organiser) = (&g.people.owner, &g.people.organiser);
        ok(g.record(app, json!([])));
        g.confirm(app);
        let repair = |f: &mut Value| f["platoons"][0]["units"][1]["vehicle_state"] = json!("operational");
        let veteran = |f: &mut Value| f["platoons"][0]["units"][0]["leader_experience"] = json!("veteran");

        // Act
        let repaired = g.edit(app, owner, repair);
        let promoted = g.edit(app, owner, veteran);
        let unchanged = get(app, owner, &format!("/api/v1/forces/{}", g.blue_id()));
        let no_reason = g.edit(app, organiser, repair);
        let corrected = g.edit(app, organiser, |f| {
            repair(f);
            veteran(f);
            f["reason"] = json!("Club ruling: the Rhino was repaired before the campaign began");
        });
        let history = get(app, owner, &format!("/api/v1/forces/{}/history", g.blue_id()));

        // Assert
        let (field, message) = refused(repaired);
        assert_eq!(field, "platoons[0].units[1].vehicle_state");
        assert!(message.contains("damaged") && message.contains("operational")
            && message.contains("organiser"), "{message}");
        let (field, message) = refused(promoted);
        assert_eq!(field, "platoons[0].units[0].leader_experience");
        assert!(message.contains("inexperienced") && message.contains("veteran"), "{message}");
        assert_eq!(unit(&unchanged, "Rhino")["vehicle_state"], "damaged");
        assert_eq!(unit(&unchanged, "Alpha")["leader_experience"], "inexperienced");
        assert_eq!(refused(no_reason).0, "reason");
        let corrected = ok(corrected);
        assert_eq!(unit(&corrected, "Rhino")["vehicle_state"], "operational");
        assert_eq!(unit(&corrected, "Alpha")["leader_experience"], "veteran");
        let newest = &history["entries"][0];
        assert_eq!(newest["cause"]["kind"], "correction");
        assert_eq!(newest["actor_id"], organiser.id.as_str());
        assert_eq!(newest["diff"]["reason"], "Club ruling: the Rhino was repaired before the campaign began");
    }

    fn rules_4_1_more_support_a_squad_of_8_becomes_6_with_two_support_weapons(app: &TestApp) {
        // Arrange: one platoon of three squads of 8 (squad strength 2 → 8), each with a SAW.
        let people = People::register(app);
        let world = World::build(app, &people);
        let mut subjects = serde_json::Map::new();
        subjects.insert("platoon[0]".into(), json!([1]));
        subjects.insert("force".into(), json!([3, 5]));
        for s in 0..3 {
            subjects.insert(format!("platoon[0].squad[{s}]"), json!([2, 2, 2, 2]));
        }
        let body = json!({"method": "basic", "platoons": 1, "name": "Supported",
            "variation": {"kind": "more_support"}, "dice": {"force_generation": subjects}});

        // Act
        let generated = ok(post(app, &people.player,
            &format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id), &body));

        // Assert
        let squads: Vec<&Value> = generated["force"]["platoons"][0]["units"].as_array().unwrap()
            .iter().filter(|u| u["kind"] == "squad").collect();
        assert_eq!(squads.len(), 3, "{generated}");
        for squad in squads {
            assert_eq!(squad["starting_strength"], 6, "{squad}");
            assert_eq!(squad["strength"], 6, "{squad}");
            assert_eq!(squad["support_weapons"], json!(["squad_automatic_weapon", "squad_automatic_weapon"]), "{squad}");
        }
    }

    fn c15_vehicle_resolve_change_rolls_a_damaged_unrated_vehicle_as_steady(app: &TestApp) {
        // Arrange: off by default; the campaign switches it on; Rhino (no Resolve) ends the
        // battle damaged.
        let g = Game::new(app, "operational", json!({"vehicle_resolve_change": true}));
        let defaults = ok(app.get("/api/v1/rules"))["house_rule_defaults"].clone();
        let (blue, rhino) = (g.blue_id(), unit_id(&g.blue, "Rhino"));
        ok(g.record(app, json!([{"unit_id": rhino, "vehicle_damage": "damaged"}])));
        g.confirm(app);
        let roll = step_path(&g.battle, &blue, "roll");

        // Act: vehicle replacement 3 repairs it (3–6); resolve change 6 raises it one level.
        let repaired = ok(post(app, &g.people.owner, &roll,
            &json!({"step": "vehicle_replacement", "dice": {"vehicle_replacement": {rhino.as_str(): [3]}}})));
        let changed = ok(post(app, &g.people.owner, &roll,
            &json!({"step": "resolve_change", "dice": {"resolve_change": {rhino.as_str(): [6]}}})));
        let settings = get(app, &g.people.organiser, &format!("/api/v1/campaigns/{}/settings", g.campaign_id));

        // Assert
        assert_eq!(defaults["vehicle_resolve_change"], false, "{defaults}");
        assert_eq!(settings["house_rules"]["vehicle_resolve_change"], true);
        assert_eq!(next_dice(&repaired), [due("resolve_change", &rhino)]);
        let why = repaired["next_dice"][0]["why"].as_str().unwrap();
        assert!(why.contains("Steady"), "{why}");
        let roster = &changed["outcome"]["roster"];
        assert_eq!(unit(roster, "Rhino")["vehicle_state"], "operational");
        assert_eq!(unit(roster, "Rhino")["resolve"], "determined", "Steady, one level up");
    }
}
