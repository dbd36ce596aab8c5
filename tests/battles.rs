//! Battles and the post-battle sequence (docs/rules.md §2): results,
//! confirmation, each force's aftermath with entered and server dice, idempotency, 409s,
//! concurrent finalize and rejected dice, on both backends. Expected values are computed by hand
//! from docs/rules.md §2.2 and §2.3.

use crate::auth::TestUser;
use crate::campaigns::{People, World, create_key, get_with_api_key};
use crate::common::{TestApp, assert_problem, send};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Blue: Alpha (8, Regular, Steady) and Bravo (6, Conscript, Steady), one platoon.
fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Bravo", "kind": "squad", "quality": "conscript", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Red: Charlie (8, Regular, Steady), one platoon.
fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Charlie", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Two forces in a fresh campaign: Blue owned by `owner`, Red by `player`.
pub(crate) struct Table {
    pub(crate) people: People,
    pub(crate) world: World,
    pub(crate) blue: Value,
    pub(crate) red: Value,
}

impl Table {
    pub(crate) fn new(app: &TestApp) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue =
            crate::forces::create_force(app, &people.owner, &world.campaign_id, &blue_roster());
        let red =
            crate::forces::create_force(app, &people.player, &world.campaign_id, &red_roster());
        Self {
            people,
            world,
            blue,
            red,
        }
    }

    pub(crate) fn blue_id(&self) -> &str {
        self.blue["id"].as_str().unwrap()
    }

    pub(crate) fn red_id(&self) -> &str {
        self.red["id"].as_str().unwrap()
    }
}

pub(crate) use crate::common::unit_id;

pub(crate) fn unit<'a>(roster: &'a Value, name: &str) -> &'a Value {
    roster["platoons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["units"].as_array().unwrap())
        .find(|u| u["name"] == name)
        .unwrap_or_else(|| panic!("no unit {name} in {roster}"))
}

pub(crate) fn post(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> Response {
    app.post_json_with_token(path, body, &user.token)
}

pub(crate) fn post_keyed(
    app: &TestApp,
    user: &TestUser,
    path: &str,
    body: &Value,
    key: &str,
) -> Response {
    send(
        app.request(Method::POST, path)
            .bearer_auth(&user.token)
            .header("Idempotency-Key", key)
            .json(body),
    )
}

#[track_caller]
pub(crate) fn ok(response: Response) -> Value {
    let status = response.status();
    let text = response.text().unwrap();
    assert!(status.is_success(), "{status}: {text}");
    serde_json::from_str(&text).unwrap()
}

pub(crate) fn get(app: &TestApp, user: &TestUser, path: &str) -> Value {
    ok(app.get_with_token(path, &user.token))
}

/// Creates a Blue–Red battle as `owner`; returns its id.
pub(crate) fn create_battle(app: &TestApp, t: &Table) -> String {
    let response = post(
        app,
        &t.people.owner,
        &format!("/api/v1/campaigns/{}/battles", t.world.campaign_id),
        &json!({"sides": [{"force_id": t.blue_id()}, {"force_id": t.red_id()}]}),
    );
    assert_eq!(response.status(), 201);
    let battle: Value = response.json().unwrap();
    assert_eq!(battle["state"], "scenario");
    battle["id"].as_str().unwrap().to_owned()
}

/// Blue wins; Alpha loses 5, Charlie is wiped out.
pub(crate) fn first_result(t: &Table) -> Value {
    json!({"outcome": "win", "winner_force_id": t.blue_id(), "losses": [
        {"unit_id": unit_id(&t.blue, "Alpha"), "figures_lost": 5, "eliminated": false, "vehicle_damage": null},
        {"unit_id": unit_id(&t.red, "Charlie"), "figures_lost": 8, "eliminated": true, "vehicle_damage": null}
    ]})
}

/// Records the first result as `owner` and confirms it as `player`.
pub(crate) fn record_and_confirm(app: &TestApp, t: &Table, battle: &str) {
    let recorded = ok(post(
        app,
        &t.people.owner,
        &format!("/api/v1/battles/{battle}/result"),
        &first_result(t),
    ));
    assert_eq!(recorded["state"], "pending");
    let confirmed = ok(post(
        app,
        &t.people.player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    assert_eq!(confirmed["state"], "aftermath");
}

pub(crate) fn step_path(battle: &str, force: &str, step: &str) -> String {
    format!("/api/v1/battles/{battle}/aftermath/{force}/{step}")
}

both_backends! {
    fn c3_c7_c10_c11_c12_entered_dice_give_the_hand_computed_rosters_ledgers_and_history(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        let (blue, red) = (t.blue_id().to_owned(), t.red_id().to_owned());
        let (alpha, bravo, charlie) = (unit_id(&t.blue, "Alpha"), unit_id(&t.blue, "Bravo"), unit_id(&t.red, "Charlie"));

        // Act: result, confirmation by the other side, both aftermaths.
        let pending = ok(post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &first_result(&t)));
        let early = post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({}));
        let self_confirm = post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result/confirm"), &json!({}));
        let confirmed = ok(post(app, &t.people.player, &format!("/api/v1/battles/{battle}/result/confirm"), &json!({})));
        let again = ok(post(app, &t.people.player, &format!("/api/v1/battles/{battle}/result/confirm"), &json!({})));
        // Blue: Alpha L=5 rolls 4 → +ceil(5/2)=3 → 6 (C3); 2·3 < 8 so the entered quality die is
        // unused (C7); resolve 6 → Determined; Bravo lost nothing. Pool 3+4 = 7.
        let blue_roll = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({"dice": {
            "replacement": {alpha.as_str(): [4]}, "quality_loss": {alpha.as_str(): [2]},
            "resolve_change": {alpha.as_str(): [6]}, "reinforcements": {blue.as_str(): [3, 4]}}})));
        // 2 CP (P = 1): Bravo Conscript → Regular (1), one extra die rolled 5 (1): pool 12 (C11).
        let blue_buy = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "purchases"), &json!({
            "purchases": [{"item": "improve_quality", "unit_id": bravo}, {"item": "extra_reinforcement_die"}],
            "dice": {"reinforcements_extra": {blue.as_str(): [5]}}})));
        let over_cap = post(app, &t.people.owner, &step_path(&battle, &blue, "reinforcements"),
            &json!({"allocations": [{"unit_id": alpha, "troopers": 3}], "new_squad": null}));
        // Alpha +2 (cap E = 8, C9), a new squad of 8 (C10): 10 of 12 used, 2 lost.
        let blue_reinforce = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "reinforcements"),
            &json!({"allocations": [{"unit_id": alpha, "troopers": 2}], "new_squad": {"name": "Delta", "troopers": 8}})));
        let blue_done = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "finalize"), &json!({"forgo_reinforcements": true})));
        let blue_again = post(app, &t.people.owner, &step_path(&battle, &blue, "finalize"), &json!({"forgo_reinforcements": true}));
        let mid = get(app, &t.people.owner, &format!("/api/v1/battles/{battle}"));
        // Red: Charlie wiped out (L = 8, C4) rolls 3 → 4; 2·4 ≥ 8 → quality roll 1 → Conscript;
        // resolve 2 → Uncertain. Pool 1+1 = 2 → Charlie 6. No purchases: 2 CP banked (C13).
        let red_roll = ok(post(app, &t.people.player, &step_path(&battle, &red, "roll"), &json!({"dice": {
            "replacement": {charlie.as_str(): [3]}, "quality_loss": {charlie.as_str(): [1]},
            "resolve_change": {charlie.as_str(): [2]}, "reinforcements": {red.as_str(): [1, 1]}}})));
        let red_view = get(app, &t.people.player, &format!("/api/v1/battles/{battle}/aftermath/{red}"));
        ok(post(app, &t.people.player, &step_path(&battle, &red, "reinforcements"),
            &json!({"allocations": [{"unit_id": charlie, "troopers": 2}]})));
        ok(post(app, &t.people.player, &step_path(&battle, &red, "finalize"), &json!({"forgo_reinforcements": true})));

        // Assert
        assert_eq!(pending["state"], "pending");
        assert_problem(early, 409);
        assert_problem(self_confirm, 403);
        assert_eq!(confirmed["state"], "aftermath");
        assert_eq!(again["state"], "aftermath");
        assert_eq!(blue_roll["stage"], "rolled");
        assert_eq!(blue_roll["unused_dice"], json!({"quality_loss": {alpha.as_str(): [2]}}));
        let steps: Vec<&str> = blue_roll["rolls"].as_array().unwrap().iter().map(|r| r["step"].as_str().unwrap()).collect();
        assert_eq!(steps, ["replacement", "resolve_change", "reinforcements"]);
        assert!(blue_roll["rolls"].as_array().unwrap().iter().all(|r| r["source"] == "player"));
        assert_eq!(blue_roll["pending"]["cp_available"], 2);
        assert_eq!(blue_roll["pending"]["pool_total"], 7);
        let room: Vec<(String, u64)> = blue_roll["pending"]["units"].as_array().unwrap().iter()
            .map(|u| (u["name"].as_str().unwrap().to_owned(), u["may_receive"].as_u64().unwrap())).collect();
        assert_eq!(room, [("Alpha".to_owned(), 2), ("Bravo".to_owned(), 0)]);
        assert_eq!(blue_buy["pending"]["pool_total"], 12);
        assert_eq!(blue_buy["pending"]["cp_spent"], 2);
        assert_eq!(blue_buy["rolls"][0]["step"], "reinforcements_extra");
        assert_problem(over_cap, 422);
        assert_eq!(blue_reinforce["pending"]["pool_allocated"], 10);
        assert_eq!(blue_done["stage"], "finalized");
        assert_problem(blue_again, 409);
        assert_eq!(mid["state"], "aftermath");
        assert_eq!(red_roll["unused_dice"], json!({}));
        assert_eq!(red_view["pending"]["pool_total"], 2);
        assert_eq!(red_view["outcome"]["rolls"].as_array().unwrap().len(), 4);

        let blue_now = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        let a = unit(&blue_now, "Alpha");
        assert_eq!((a["strength"].as_u64(), a["quality"].as_str(), a["resolve"].as_str()), (Some(8), Some("regular"), Some("determined")));
        let b = unit(&blue_now, "Bravo");
        assert_eq!((b["strength"].as_u64(), b["quality"].as_str()), (Some(6), Some("regular")));
        let d = unit(&blue_now, "Delta");
        assert_eq!((d["strength"].as_u64(), d["starting_strength"].as_u64(), d["quality"].as_str(), d["resolve"].as_str()),
            (Some(8), Some(8), Some("conscript"), Some("uncertain")));
        let red_now = get(app, &t.people.player, &format!("/api/v1/forces/{red}"));
        let c = unit(&red_now, "Charlie");
        assert_eq!((c["strength"].as_u64(), c["quality"].as_str(), c["resolve"].as_str(), c["status"].as_str()),
            (Some(6), Some("conscript"), Some("uncertain"), Some("active")));

        let blue_ledger = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}/ledger"));
        let lines: Vec<(String, i64, i64)> = blue_ledger["entries"].as_array().unwrap().iter()
            .map(|e| (e["kind"].as_str().unwrap().to_owned(), e["amount"].as_i64().unwrap(), e["balance"].as_i64().unwrap())).collect();
        assert_eq!(lines, [("earned".to_owned(), 2, 2), ("spent".to_owned(), 1, 1), ("spent".to_owned(), 1, 0)]);
        let red_ledger = get(app, &t.people.player, &format!("/api/v1/forces/{red}/ledger"));
        assert_eq!(red_ledger["balance"], 2);

        let history = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}/history"));
        let newest = &history["entries"][0];
        assert_eq!(newest["cause"]["kind"], "battle");
        assert_eq!(newest["cause"]["id"], battle.as_str());
        let logged: Vec<(&str, Vec<u64>)> = newest["rolls"].as_array().unwrap().iter()
            .map(|r| (r["step"].as_str().unwrap(), r["values"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect())).collect();
        assert_eq!(logged, [("replacement", vec![4]), ("resolve_change", vec![6]), ("reinforcements", vec![3, 4]), ("reinforcements_extra", vec![5])]);

        let done = get(app, &t.people.organiser, &format!("/api/v1/battles/{battle}"));
        assert_eq!(done["state"], "complete");
        let (_, key) = create_key(app, &t.people.organiser, &t.world.campaign_id);
        let timeline: Value = get_with_api_key(app, &format!("/api/v1/campaigns/{}/timeline", t.world.campaign_id), &key).json().unwrap();
        // The world's own battles (against non-player forces) come first, then this one.
        let entries = timeline["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0]["battle"]["id"], t.world.battle_id.as_str());
        assert_eq!(entries[1]["battle"]["id"], t.world.scenario_battle_id.as_str());
        let entry = &entries[2];
        assert_eq!(entry["battle"]["id"], battle.as_str());
        assert_eq!(entry["battle"]["result"]["outcome"], "win");
        let cp: Vec<(u64, u64)> = entry["aftermath"].as_array().unwrap().iter()
            .map(|a| (a["campaign_points"]["earned"].as_u64().unwrap(), a["campaign_points"]["balance"].as_u64().unwrap())).collect();
        assert_eq!(cp.len(), 2);
        assert!(cp.contains(&(2, 0)) && cp.contains(&(2, 2)), "{cp:?}");

        // Standings fill in from the complete battle; the world's battle, still in its
        // aftermath, does not count yet.
        let standings: Value = get_with_api_key(app, &format!("/api/v1/campaigns/{}/standings", t.world.campaign_id), &key).json().unwrap();
        let row = |id: &str| standings["forces"].as_array().unwrap().iter().find(|r| r["force_id"] == id).unwrap().clone();
        let figures = |r: &Value| ["battles", "wins", "draws", "losses", "campaign_points"].map(|k| r[k].as_i64().unwrap());
        assert_eq!(figures(&row(&blue)), [1, 1, 0, 0, 2]);
        assert_eq!(figures(&row(&red)), [1, 0, 0, 1, 2]);
        assert_eq!(standings["forces"][0]["force_id"], blue, "the winner ranks first");
        assert_eq!(standings["forces"].as_array().unwrap().len(), 3);
        let blue_now = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        assert_eq!(row(&blue)["roster_points"], blue_now["points"]);
    }

    fn server_dice_are_stored_and_the_roll_log_explains_every_change(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");

        // Act
        let rolled = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({})));
        let finalized = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "finalize"), &json!({"forgo_reinforcements": true})));
        let read = get(app, &t.people.organiser, &format!("/api/v1/battles/{battle}/aftermath/{blue}"));

        // Assert: every roll is the server's, in range, and explains Alpha's strength (RULES §2.2).
        let rolls = rolled["rolls"].as_array().unwrap();
        assert!(rolls.iter().all(|r| r["source"] == "server"));
        assert!(rolls.iter().flat_map(|r| r["values"].as_array().unwrap()).all(|v| (1..=6).contains(&v.as_u64().unwrap())));
        let replacement = rolls.iter().find(|r| r["step"] == "replacement" && r["subject"] == alpha.as_str()).unwrap();
        let r = replacement["values"][0].as_u64().unwrap();
        let expected = match r { 1 | 2 => 3, 3 | 4 => 6, _ => 8 };
        let pool = rolls.iter().find(|r| r["step"] == "reinforcements").unwrap();
        assert_eq!(pool["values"].as_array().unwrap().len(), 2);
        assert_eq!(rolled["pending"]["pool_total"], pool["total"]);
        let outcome = &finalized["outcome"];
        assert_eq!(unit(&outcome["roster"], "Alpha")["strength"].as_u64(), Some(expected));
        let resolve = rolls.iter().find(|r| r["step"] == "resolve_change" && r["subject"] == alpha.as_str()).unwrap();
        let expected_resolve = match resolve["values"][0].as_u64().unwrap() { 1 | 2 => "uncertain", 3 | 4 => "steady", _ => "determined" };
        assert_eq!(unit(&outcome["roster"], "Alpha")["resolve"], expected_resolve);
        assert_eq!(read["outcome"]["rolls"], rolled["rolls"]);
        let force = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        assert_eq!(unit(&force, "Alpha")["strength"].as_u64(), Some(expected));
    }

    fn idempotency_keys_replay_and_second_rolls_and_other_results_conflict(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let path = step_path(&battle, &blue, "roll");

        // Act
        let first = ok(post_keyed(app, &t.people.owner, &path, &json!({}), "roll-1"));
        let replay = ok(post_keyed(app, &t.people.owner, &path, &json!({}), "roll-1"));
        let other_body = post_keyed(app, &t.people.owner, &path, &json!({"dice": {}}), "roll-1");
        let unkeyed = post(app, &t.people.owner, &path, &json!({}));
        let same_result = post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &first_result(&t));
        let mut different = first_result(&t);
        different["outcome"] = json!("draw");
        different["winner_force_id"] = Value::Null;
        let other_result = post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &different);

        // Assert
        assert_eq!(first, replay);
        assert_problem(other_body, 422);
        assert_problem(unkeyed, 409);
        assert_eq!(same_result.status(), 200);
        assert_problem(other_result, 409);
        let read = get(app, &t.people.owner, &format!("/api/v1/battles/{battle}/aftermath/{blue}"));
        assert_eq!(read["outcome"]["rolls"], first["rolls"]);
        assert_eq!(read["version"], 2);
    }

    fn bad_dice_and_bad_losses_get_422_and_change_nothing(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");
        let charlie = unit_id(&t.red, "Charlie");
        let result_path = format!("/api/v1/battles/{battle}/result");

        // Act
        let too_many = post(app, &t.people.owner, &result_path, &json!({"outcome": "win", "winner_force_id": blue,
            "losses": [{"unit_id": alpha, "figures_lost": 9}]}));
        let stranger = post(app, &t.people.owner, &result_path, &json!({"outcome": "draw",
            "losses": [{"unit_id": "nobody", "figures_lost": 1}]}));
        let draw_winner = post(app, &t.people.owner, &result_path, &json!({"outcome": "draw", "winner_force_id": blue}));
        let untouched = get(app, &t.people.owner, &format!("/api/v1/battles/{battle}"));
        record_and_confirm(app, &t, &battle);
        let roll = step_path(&battle, &blue, "roll");
        let out_of_range = post(app, &t.people.owner, &roll, &json!({"dice": {"replacement": {alpha.as_str(): [7]}}}));
        let wrong_count = post(app, &t.people.owner, &roll, &json!({"dice": {"reinforcements": {blue.as_str(): [3]}}}));
        let unknown_subject = post(app, &t.people.owner, &roll, &json!({"dice": {"replacement": {charlie.as_str(): [3]}}}));
        let unknown_step = post(app, &t.people.owner, &roll, &json!({"dice": {"initiative": {blue.as_str(): [3]}}}));
        let not_a_step = post(app, &t.people.owner, &roll, &json!({"dice": {"teleport": {blue.as_str(): [3]}}}));
        let before = get(app, &t.people.owner, &format!("/api/v1/battles/{battle}/aftermath/{blue}"));
        let good = ok(post(app, &t.people.owner, &roll, &json!({"dice": {"replacement": {alpha.as_str(): [6]}}})));

        // Assert
        let body = assert_problem(too_many, 422);
        assert_eq!(body["errors"][0]["field"], "losses[0].figures_lost");
        assert_eq!(assert_problem(stranger, 422)["errors"][0]["field"], "losses[0].unit_id");
        assert_problem(draw_winner, 422);
        assert_eq!(untouched["state"], "scenario");
        assert_eq!(assert_problem(out_of_range, 422)["errors"][0]["field"], format!("dice.replacement.{alpha}"));
        assert_problem(wrong_count, 422);
        assert_problem(unknown_subject, 422);
        assert_problem(unknown_step, 422);
        assert_problem(not_a_step, 422);
        assert_eq!(before["stage"], "open");
        assert_eq!(before["version"], 1);
        assert!(before["outcome"].is_null());
        assert_eq!(good["rolls"][0]["values"], json!([6]));
        assert_eq!(unit(&good["outcome"]["roster"], "Alpha")["strength"], 8);
    }

    fn two_concurrent_finalizes_of_one_force_exactly_one_succeeds(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({})));
        let path = step_path(&battle, &blue, "finalize");

        // Act
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = [&t.people.owner, &t.people.organiser, &t.people.owner, &t.people.organiser]
                .into_iter()
                .map(|user| {
                    let path = path.clone();
                    s.spawn(move || post(app, user, &path, &json!({"forgo_reinforcements": true})).status().as_u16())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });

        // Assert
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "{statuses:?}");
        let ledger = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}/ledger"));
        assert_eq!(ledger["entries"].as_array().unwrap().len(), 1);
        assert_eq!(ledger["balance"], 2);
        let history = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}/history"));
        let battles = history["entries"].as_array().unwrap().iter().filter(|e| e["cause"]["kind"] == "battle").count();
        assert_eq!(battles, 1);
    }

    fn outsiders_get_404_keys_read_and_only_owners_or_the_organiser_run_a_forces_aftermath(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let (_, key) = create_key(app, &t.people.organiser, &t.world.campaign_id);

        // Act
        let outsider = app.get_with_token(&format!("/api/v1/battles/{battle}"), &t.people.outsider.token);
        let by_key = get_with_api_key(app, &format!("/api/v1/battles/{battle}"), &key);
        let list_by_key = get_with_api_key(app, &format!("/api/v1/campaigns/{}/battles", t.world.campaign_id), &key);
        let key_write = send(app.request(Method::POST, &step_path(&battle, &blue, "roll")).header("X-Api-Key", &key).json(&json!({})));
        let other_player = post(app, &t.people.player, &step_path(&battle, &blue, "roll"), &json!({}));
        let organiser = post(app, &t.people.organiser, &step_path(&battle, &blue, "roll"), &json!({}));
        let self_battle = post(app, &t.people.owner, &format!("/api/v1/campaigns/{}/battles", t.world.campaign_id),
            &json!({"sides": [{"force_id": blue}, {"force_id": blue}]}));
        let npf = post(app, &t.people.owner, &format!("/api/v1/campaigns/{}/battles", t.world.campaign_id),
            &json!({"sides": [{"force_id": blue}, {"non_player": {"name": "Militia"}}]}));

        // Assert
        assert_problem(outsider, 404);
        assert_eq!(by_key.status(), 200);
        let listed: Value = list_by_key.json().unwrap();
        let ids: Vec<&str> = listed["battles"].as_array().unwrap().iter().map(|b| b["id"].as_str().unwrap()).collect();
        assert_eq!(ids, [t.world.battle_id.as_str(), t.world.scenario_battle_id.as_str(), battle.as_str()]);
        assert_problem(key_write, 403);
        assert_problem(other_player, 403);
        assert_eq!(organiser.status(), 200);
        assert_problem(self_battle, 422);
        assert_eq!(npf.status(), 201);
    }
}
