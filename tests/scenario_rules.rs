//! The rules audit, scenario side (docs/rules.md §3): a weapons team is no
//! squad for recon duty (S4), pre-battle events that cannot change a unit are `no_effect` (S24,
//! C17), the `npf_recon_reading` house rule (S25) and strict True markers (S14), the player
//! naming the unit for a mission-bonus trait (§3.10), the wrong number of dice refused on every
//! rolling path, and the scenario's `next_dice`; on both backends.

use crate::auth::{TestUser, register};
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem, ok, rolls, side, unit_id};
use serde_json::{Value, json};

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

fn squad(name: &str) -> Value {
    json!({"name": name, "kind": "squad", "quality": "regular", "resolve": "steady",
           "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"})
}

/// Blue: three squads and two weapons teams (one with the Recon trait) in one platoon.
fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        squad("Alpha"), squad("Bravo"), squad("Charlie"),
        {"name": "Gun", "kind": "weapons_team", "quality": "regular", "resolve": "steady",
         "strength": 3, "starting_strength": 3, "basic_weapon": "assault_carbines",
         "heavy_weapons": ["cannon_light"]},
        {"name": "Spotters", "kind": "weapons_team", "quality": "regular", "resolve": "steady",
         "strength": 3, "starting_strength": 3, "basic_weapon": "assault_carbines",
         "heavy_weapons": ["cannon_light"], "traits": ["recon"]}
    ]}]})
}

fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [squad("Delta"), squad("Echo")]}]})
}

/// A campaign (with `house_rules`) whose organiser owns Blue and whose player owns Red, and a
/// Blue–Red battle.
struct Game {
    organiser: TestUser,
    player: TestUser,
    blue: Value,
    red: Value,
    battle: String,
}

/// A campaign with `house_rules`, its organiser and a player who joined; user names start with
/// `tag` (several campaigns may share one server).
fn campaign(app: &TestApp, tag: &str, house_rules: Value) -> (TestUser, TestUser, String) {
    let organiser = register(app, &format!("{tag}organiser"));
    let player = register(app, &format!("{tag}player"));
    let campaign = ok(app.post_json_with_token(
        "/api/v1/campaigns",
        &json!({"name": "Round three", "house_rules": house_rules}),
        &organiser.token,
    ));
    let campaign_id = campaign["id"].as_str().unwrap().to_owned();
    let invite = ok(app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/invites"),
        &json!({}),
        &organiser.token,
    ));
    ok(app.post_json_with_token(
        "/api/v1/campaigns/join",
        &json!({"code": invite["code"]}),
        &player.token,
    ));
    (organiser, player, campaign_id)
}

impl Game {
    fn new(app: &TestApp, tag: &str, house_rules: Value) -> Self {
        let (organiser, player, campaign_id) = campaign(app, tag, house_rules);
        let blue = crate::forces::create_force(app, &organiser, &campaign_id, &blue_roster());
        let red = crate::forces::create_force(app, &player, &campaign_id, &red_roster());
        let battle = ok(app.post_json_with_token(
            &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
            &organiser.token,
        ))["id"]
            .as_str()
            .unwrap()
            .to_owned();
        Self {
            organiser,
            player,
            blue,
            red,
            battle,
        }
    }

    fn blue_id(&self) -> String {
        self.blue["id"].as_str().unwrap().to_owned()
    }

    fn red_id(&self) -> String {
        self.red["id"].as_str().unwrap().to_owned()
    }

    fn post(
        &self,
        app: &TestApp,
        user: &TestUser,
        step: &str,
        body: &Value,
    ) -> reqwest::blocking::Response {
        app.post_json_with_token(
            &format!("/api/v1/battles/{}/scenario/{step}", self.battle),
            body,
            &user.token,
        )
    }

    fn scenario(&self, app: &TestApp, user: &TestUser) -> Value {
        ok(app.get_with_token(
            &format!("/api/v1/battles/{}/scenario", self.battle),
            &user.token,
        ))
    }

    /// Both orders in (Blue Neutral/Cautious with `recon`, Red Neutral/Cautious).
    fn orders(&self, app: &TestApp, recon: &[&str]) {
        let ids: Vec<String> = recon.iter().map(|n| unit_id(&self.blue, n)).collect();
        ok(self.post(
            app,
            &self.organiser,
            "orders",
            &json!({"force_id": self.blue_id(),
            "stance": "neutral", "attitude": "cautious", "recon_unit_ids": ids,
            "dice": {"table_edge": {self.blue_id(): [6]}}}),
        ));
        ok(self.post(app, &self.player, "orders", &json!({"force_id": self.red_id(),
            "stance": "neutral", "attitude": "cautious", "dice": {"table_edge": {self.red_id(): [1]}}})));
    }
}

/// A one-shot side of inline units.
fn inline_side(name: &str, units: Value, dice: Value) -> Value {
    json!({"name": name, "units": units, "stance": "neutral", "attitude": "cautious", "dice": dice})
}

fn fields(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_owned())
        .collect()
}

both_backends! {
    /// S4: "any squad with the Recon trait" — a weapons team is a supporting unit, not a squad,
    /// with or without the trait: refused in a battle's orders and in the one-shot generator.
    fn s4_a_weapons_team_is_not_a_squad_for_recon_duty(app: &TestApp) {
        let g = Game::new(app, "g", json!({}));
        for team in ["Gun", "Spotters"] {
            let p = assert_problem(g.post(app, &g.organiser, "orders", &json!({"force_id": g.blue_id(),
                "stance": "neutral", "attitude": "cautious", "recon_unit_ids": [unit_id(&g.blue, team)]})), 422);
            assert_eq!(fields(&p), ["recon_unit_ids[0]"], "{team}: {p}");
            assert!(p["errors"][0]["message"].as_str().unwrap().contains("not a squad"), "{p}");
        }
        assert_eq!(g.scenario(app, &g.organiser)["version"], 0, "nothing stored");
        // A squad of the same platoon is still fine.
        ok(g.post(app, &g.organiser, "orders", &json!({"force_id": g.blue_id(),
            "stance": "neutral", "attitude": "cautious", "recon_unit_ids": [unit_id(&g.blue, "Alpha")]})));
        let user = register(app, "gamemaster");
        let a = json!({"name": "Red", "units": [{"name": "Spotters", "kind": "weapons_team", "traits": ["recon"]}],
            "stance": "neutral", "attitude": "cautious", "recon_unit_ids": ["Spotters"]});
        let b = inline_side("Blue", json!([{"name": "Line", "kind": "squad"}]), json!({}));
        let p = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, b]}), &user.token), 422);
        assert!(fields(&p).iter().any(|f| f.starts_with("sides[0].recon_unit_ids")), "{p}");
    }

    /// S24, C17: Inspired cannot raise a Fanatic's or a Zombie's Resolve, and Intrigue cannot
    /// lower the Leadership of a psionic, who has none: each is reported `no_effect`.
    fn s24_c17_events_that_cannot_change_the_unit_are_no_effect(app: &TestApp) {
        let user = register(app, "gamemaster");
        let units = json!([
            {"name": "Zealots", "kind": "squad", "resolve": "steady", "traits": ["fanatic"]},
            {"name": "Shamblers", "kind": "squad", "resolve": "steady", "traits": ["zombie"]},
            {"name": "Seer", "kind": "psionic"},
            {"name": "Line", "kind": "squad", "resolve": "steady"}
        ]);
        let six = |ids: &[&str]| ids.iter().map(|id| ((*id).to_owned(), json!([6]))).collect::<serde_json::Map<_, _>>();
        let dice = json!({"pre_battle_event": six(&["s1-u1", "s1-u2", "s1-u3", "s1-u4"]),
            "pre_battle_event_table": {"s1-u1": [6], "s1-u2": [6], "s1-u3": [1], "s1-u4": [6]}});
        let a = inline_side("Red", units, dice);
        let b = inline_side("Blue", json!([{"name": "Line", "kind": "squad"}]), json!({}));
        let r = app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, b]}), &user.token);
        assert_eq!(r.status(), 201, "{}", r.text().unwrap());
        let body: Value = r.json().unwrap();
        let events = body["sides"][0]["pre_battle_events"].as_array().unwrap();
        let of = |id: &str| events.iter().find(|e| e["unit_id"] == id).unwrap_or_else(|| panic!("{id}: {events:?}"));
        assert_eq!((of("s1-u1")["event"].as_str(), of("s1-u1")["no_effect"].as_bool()), (Some("inspired"), Some(true)));
        assert_eq!((of("s1-u2")["event"].as_str(), of("s1-u2")["no_effect"].as_bool()), (Some("inspired"), Some(true)));
        assert_eq!((of("s1-u3")["event"].as_str(), of("s1-u3")["no_effect"].as_bool()), (Some("intrigue"), Some(true)));
        // A Steady squad is inspired for real.
        assert_eq!(of("s1-u4")["event"], "inspired");
        assert!(of("s1-u4").get("no_effect").is_none(), "{events:?}");
    }

    /// S25: the NP recon roll per platoon belongs to an Offensive stance by default; with
    /// `npf_recon_reading = aggressive_attitude` to an Aggressive attitude instead.
    fn s25_npf_recon_reading_switches_which_np_forces_roll_for_recon(app: &TestApp) {
        for (rules, expected) in [(json!({}), false), (json!({"npf_recon_reading": "aggressive_attitude"}), true)] {
            let (referee, player, id) = campaign(app, &format!("np{expected}"), rules.clone());
            let settings = ok(app.get_with_token(&format!("/api/v1/campaigns/{id}/settings"), &referee.token));
            let reading = if expected { "aggressive_attitude" } else { "offensive_stance" };
            assert_eq!(settings["house_rules"]["npf_recon_reading"], reading, "{settings}");
            let blue = crate::forces::create_force(app, &player, &id, &red_roster());
            let battle = ok(app.post_json_with_token(&format!("/api/v1/campaigns/{id}/battles"),
                &json!({"sides": [{"force_id": blue["id"]}, {"non_player": {"name": "Militia",
                    "stance": "neutral", "attitude": "aggressive",
                    "units": [{"name": "Rifles", "kind": "squad"}, {"name": "Guards", "kind": "squad"}]}}]}),
                &referee.token))["id"].as_str().unwrap().to_owned();
            let v = ok(app.post_json_with_token(&format!("/api/v1/battles/{battle}/scenario/orders"),
                &json!({"force_id": blue["id"], "stance": "neutral", "attitude": "cautious"}), &player.token));
            assert_eq!(v["state"], "mission_bonuses", "{v}");
            // The referee (an organiser who plays neither side) sees the non-player rolls.
            let all = ok(app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), &referee.token));
            assert_eq!(!rolls(&all, "npf_recon").is_empty(), expected, "{rules}: {all}");
        }
        // The switch is on the settings and refuses an unknown reading.
        let organiser = register(app, "strict");
        let status = app.post_json_with_token("/api/v1/campaigns",
            &json!({"name": "x", "house_rules": {"npf_recon_reading": "hostile_mood"}}), &organiser.token).status().as_u16();
        assert!(status == 400 || status == 422, "{status}");
    }

    /// S14: by default an attached unit shares its host's True marker; with
    /// `strict_one_marker_per_unit` every unit on the table has its own.
    fn s14_strict_one_true_marker_per_unit_is_a_house_rule(app: &TestApp) {
        for (strict, expected) in [(false, 4), (true, 5)] {
            let g = Game::new(app, &format!("s{strict}"), json!({"strict_one_marker_per_unit": strict}));
            ok(g.post(app, &g.organiser, "orders", &json!({"force_id": g.blue_id(),
                "stance": "neutral", "attitude": "cautious", "attached_unit_ids": [unit_id(&g.blue, "Gun")],
                "dice": {"table_edge": {g.blue_id(): [6]}}})));
            ok(g.post(app, &g.player, "orders", &json!({"force_id": g.red_id(),
                "stance": "neutral", "attitude": "cautious", "dice": {"table_edge": {g.red_id(): [1]}}})));
            ok(g.post(app, &g.organiser, "mission-bonuses", &json!({"force_id": g.blue_id(), "missions": [],
                "dice": {"mission": mission_dice(&[("hold", 6)])}})));
            let v = ok(g.post(app, &g.player, "mission-bonuses", &json!({"force_id": g.red_id(), "missions": [],
                "dice": {"mission": mission_dice(&[("sweep", 6)])}})));
            assert_eq!(v["state"], "recon", "{v}");
            let mine = g.scenario(app, &g.organiser);
            assert_eq!(side(&mine, &g.blue_id())["contact_markers"]["true"], expected, "strict {strict}: {mine}");
        }
    }

    /// §3.10 "traits to assign as you wish": the mission-bonus step may name the unit each
    /// bonus trait goes to; unnamed traits keep the fixed order; a unit not of the force or not
    /// on the table is 422 naming `bonus_units.<trait>`, and nothing is stored.
    fn rules_3_10_the_player_names_the_unit_for_a_mission_bonus_trait(app: &TestApp) {
        let g = Game::new(app, "g", json!({}));
        g.orders(app, &[]);
        let (charlie, gun) = (unit_id(&g.blue, "Charlie"), unit_id(&g.blue, "Gun"));
        let before = g.scenario(app, &g.organiser)["version"].clone();
        let p = assert_problem(g.post(app, &g.organiser, "mission-bonuses", &json!({"force_id": g.blue_id(), "missions": [],
            "bonus_units": {"agile": unit_id(&g.red, "Delta"), "fanatic": charlie, "elusive": "nobody"}})), 422);
        assert_eq!(fields(&p), ["bonus_units.agile", "bonus_units.elusive", "bonus_units.fanatic"], "{p}");
        assert_eq!(g.scenario(app, &g.organiser)["version"], before, "nothing stored");
        // Blue rolls Patrol (Agile + Elusive): Agile to Charlie as named, Elusive by the fixed
        // order (the first unit with neither Elusive nor Stealth: Alpha).
        let v = ok(g.post(app, &g.organiser, "mission-bonuses", &json!({"force_id": g.blue_id(), "missions": [],
            "bonus_units": {"agile": charlie, "hardened": gun}, "dice": {"mission": mission_dice(&[("patrol", 6)])}})));
        assert_eq!(side(&v, &g.blue_id())["bonus_units"], json!({"agile": charlie, "hardened": gun}));
        ok(g.post(app, &g.player, "mission-bonuses", &json!({"force_id": g.red_id(), "missions": [],
            "dice": {"mission": mission_dice(&[("hold", 6)])}})));
        let mine = g.scenario(app, &g.organiser);
        let blue = side(&mine, &g.blue_id());
        assert_eq!(blue["mission"], "patrol", "{mine}");
        let went: Vec<(Value, Value)> = blue["bonus_traits"].as_array().unwrap().iter()
            .map(|b| (b["trait"].clone(), b["unit_id"].clone())).collect();
        assert_eq!(went, [(json!("agile"), json!(charlie)), (json!("elusive"), json!(unit_id(&g.blue, "Alpha")))]);
    }

    /// Two values for a one-die roll are refused on every rolling path with 422 naming
    /// `dice.<step>.<subject>`, and nothing is rolled or stored: the one-shot generator, both
    /// sides of a battle's mission step, and force generation.
    fn dice_the_wrong_number_of_dice_is_refused_on_every_rolling_path(app: &TestApp) {
        let user = register(app, "gamemaster");
        let a = inline_side("Red", json!([{"name": "Line", "kind": "squad"}]), json!({"mission": {"hold": [3, 4]}}));
        let b = inline_side("Blue", json!([{"name": "Line", "kind": "squad"}]), json!({}));
        let p = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, b]}), &user.token), 422);
        assert_eq!(fields(&p), ["sides[0].dice.mission.hold"], "{p}");
        let listed = ok(app.get_with_token("/api/v1/scenarios", &user.token));
        assert_eq!(listed["scenarios"].as_array().map_or(0, Vec::len), 0, "nothing stored: {listed}");

        // A battle: the first side to submit (its roll comes later) and the last (rolled now).
        let g = Game::new(app, "g", json!({}));
        g.orders(app, &[]);
        let before = g.scenario(app, &g.organiser)["version"].clone();
        for (user, force) in [(&g.organiser, g.blue_id()), (&g.player, g.red_id())] {
            let p = assert_problem(g.post(app, user, "mission-bonuses", &json!({"force_id": force, "missions": [],
                "dice": {"mission": {"hold": [6, 5]}}})), 422);
            assert_eq!(fields(&p), ["dice.mission.hold"], "{p}");
        }
        assert_eq!(g.scenario(app, &g.organiser)["version"], before, "nothing stored");
        ok(g.post(app, &g.organiser, "mission-bonuses", &json!({"force_id": g.blue_id(), "missions": [],
            "dice": {"mission": {"hold": [6]}}})));
        let p = assert_problem(g.post(app, &g.player, "mission-bonuses", &json!({"force_id": g.red_id(), "missions": [],
            "dice": {"mission": {"sweep": [6, 6]}}})), 422);
        assert_eq!(fields(&p), ["dice.mission.sweep"], "{p}");
        let v = g.scenario(app, &g.organiser);
        assert_eq!(v["state"], "mission_bonuses", "nothing rolled: {v}");
        assert!(rolls(&v, "mission").is_empty(), "{v}");

        // Force generation: a subject rolled once, given one value too many.
        let people = People::register(app);
        let world = World::build(app, &people);
        let path = format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id);
        let first = ok(app.post_json_with_token(&path, &json!({"method": "basic", "platoons": 1}), &people.player.token));
        let all = first["rolls"].as_array().unwrap();
        let once = all.iter().find(|r| r["dice"] == "1d6"
            && all.iter().filter(|o| o["subject"] == r["subject"]).count() == 1).expect("a subject rolled once");
        let subject = once["subject"].as_str().unwrap();
        let forces_before = ok(app.get_with_token(&format!("/api/v1/campaigns/{}/forces", world.campaign_id), &people.player.token));
        let p = assert_problem(app.post_json_with_token(&path, &json!({"method": "basic", "platoons": 1,
            "dice": {"force_generation": {subject: [3, 3]}}}), &people.player.token), 422);
        assert_eq!(fields(&p), [format!("dice.force_generation.{subject}")], "{p}");
        let forces_after = ok(app.get_with_token(&format!("/api/v1/campaigns/{}/forces", world.campaign_id), &people.player.token));
        assert_eq!(forces_before["forces"], forces_after["forces"], "nothing stored");
    }

    /// Scenario steps announce their dice as the post-battle sequence does: every answer and
    /// `GET` carries `next_dice` (step, subject, dice, why) for the caller's side, down to the
    /// pre-battle events; none once ready.
    fn rules_3_scenario_steps_announce_their_next_dice(app: &TestApp) {
        let g = Game::new(app, "g", json!({}));
        let (blue, red) = (g.blue_id(), g.red_id());
        let v = g.scenario(app, &g.organiser);
        let next = v["next_dice"].as_array().unwrap();
        assert_eq!(next.len(), 1, "{v}");
        assert_eq!(next[0]["step"], "table_edge");
        assert_eq!(next[0]["subject"], blue);
        assert_eq!(next[0]["force_id"], blue);
        assert_eq!(next[0]["dice"], "1d6");
        assert!(next[0]["why"].as_str().unwrap().contains("table edge"), "{next:?}");
        g.orders(app, &["Alpha"]);
        // Mission bonuses next: eight mission dice, then the recon-duty return of Alpha (secret
        // to Red, who sees only its own).
        let v = g.scenario(app, &g.organiser);
        let steps = |v: &Value, step: &str| v["next_dice"].as_array().unwrap().iter()
            .filter(|r| r["step"] == step).map(|r| r["subject"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        assert_eq!(steps(&v, "mission"), MISSIONS);
        assert_eq!(steps(&v, "recon_return"), [unit_id(&g.blue, "Alpha")]);
        let theirs = g.scenario(app, &g.player);
        assert_eq!(steps(&theirs, "mission"), MISSIONS);
        assert!(steps(&theirs, "recon_return").is_empty(), "{theirs}");
        assert!(theirs["next_dice"].as_array().unwrap().iter().all(|r| r["force_id"] == red), "{theirs}");
        // The announced dice are the ones a submission takes.
        ok(g.post(app, &g.organiser, "mission-bonuses", &json!({"force_id": blue, "missions": [],
            "dice": {"mission": mission_dice(&[("hold", 6)]), "recon_return": {unit_id(&g.blue, "Alpha"): [6]}}})));
        let v = ok(g.post(app, &g.player, "mission-bonuses", &json!({"force_id": red, "missions": [],
            "dice": {"mission": mission_dice(&[("sweep", 6)])}})));
        assert_eq!(v["state"], "recon", "{v}");
        assert!(!steps(&v, "pre_battle_event").is_empty(), "{v}");
        assert!(steps(&v, "pre_battle_event").contains(&unit_id(&g.red, "Delta")), "{v}");
        let mine = g.scenario(app, &g.organiser);
        assert_eq!(steps(&mine, "recon_block"), std::slice::from_ref(&blue));
        assert!(steps(&mine, "pre_battle_event_table").contains(&unit_id(&g.blue, "Charlie")), "{mine}");
        // Pass to the end: nothing more to roll.
        let mut v = mine;
        for _ in 0..20 {
            if v["state"] == "ready" { break; }
            let waiting = v["waiting_for"][0].as_str().unwrap().to_owned();
            let user = if waiting == blue { &g.organiser } else { &g.player };
            v = ok(g.post(app, user, "recon-actions", &json!({"force_id": waiting, "action": "pass"})));
        }
        assert_eq!(v["state"], "ready");
        assert_eq!(g.scenario(app, &g.organiser)["next_dice"], json!([]));
    }
}
