//! The organiser's corrections: voiding a battle undoes
//! its effects with compensating history and ledger entries, refused while a later battle of the
//! same force builds on it; reopening takes a result back while nothing is finalized, keeping
//! the discarded rolls. Both backends.

use crate::battles::{
    Table, create_battle, first_result, get, ok, post, post_keyed, record_and_confirm, step_path,
    unit_id,
};
use crate::common::{TestApp, assert_problem, send};
use reqwest::Method;
use serde_json::{Value, json};

/// Battle 1 as in tests/battles.rs: Blue's Alpha 5 → 6 → Determined, Bravo bought to Regular,
/// an extra die, Alpha +2 and a new squad Delta of 8; Red's Charlie 0 → 4 → Conscript,
/// Uncertain, +2 → 6. Both finalized.
pub(crate) fn play_first_battle(app: &TestApp, t: &Table, battle: &str) {
    let (blue, red) = (t.blue_id(), t.red_id());
    let (alpha, bravo, charlie) = (
        unit_id(&t.blue, "Alpha"),
        unit_id(&t.blue, "Bravo"),
        unit_id(&t.red, "Charlie"),
    );
    record_and_confirm(app, t, battle);
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "roll"),
        &json!({"dice": {
        "replacement": {alpha.as_str(): [4]}, "resolve_change": {alpha.as_str(): [6]}, "reinforcements": {blue: [3, 4]}}}),
    ));
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "purchases"),
        &json!({
        "purchases": [{"item": "improve_quality", "unit_id": bravo}, {"item": "extra_reinforcement_die"}],
        "dice": {"reinforcements_extra": {blue: [5]}}}),
    ));
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "reinforcements"),
        &json!({"allocations": [{"unit_id": alpha, "troopers": 2}], "new_squad": {"name": "Delta", "troopers": 8}}),
    ));
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ));
    ok(post(
        app,
        &t.people.player,
        &step_path(battle, red, "roll"),
        &json!({"dice": {
        "replacement": {charlie.as_str(): [3]}, "quality_loss": {charlie.as_str(): [1]},
        "resolve_change": {charlie.as_str(): [2]}, "reinforcements": {red: [1, 1]}}}),
    ));
    ok(post(
        app,
        &t.people.player,
        &step_path(battle, red, "reinforcements"),
        &json!({"allocations": [{"unit_id": charlie, "troopers": 2}]}),
    ));
    ok(post(
        app,
        &t.people.player,
        &step_path(battle, red, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ));
}

/// Battle 2 on the rosters battle 1 left: a draw, Alpha loses 1 and rolls 6 (back to 8) and 3
/// (Resolve stays); both pools unused. Both finalized: 2 CP each, banked.
fn play_second_battle(app: &TestApp, t: &Table, battle: &str) {
    let (blue, red) = (t.blue_id(), t.red_id());
    let alpha = unit_id(&t.blue, "Alpha");
    ok(post(
        app,
        &t.people.owner,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({"outcome": "draw", "losses": [{"unit_id": alpha, "figures_lost": 1}]}),
    ));
    ok(post(
        app,
        &t.people.player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "roll"),
        &json!({"dice": {
        "replacement": {alpha.as_str(): [6]}, "resolve_change": {alpha.as_str(): [3]}, "reinforcements": {blue: [1, 1]}}}),
    ));
    ok(post(
        app,
        &t.people.owner,
        &step_path(battle, blue, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ));
    ok(post(
        app,
        &t.people.player,
        &step_path(battle, red, "roll"),
        &json!({"dice": {"reinforcements": {red: [2, 2]}}}),
    ));
    ok(post(
        app,
        &t.people.player,
        &step_path(battle, red, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ));
}

fn void(app: &TestApp, t: &Table, battle: &str) -> reqwest::blocking::Response {
    post(
        app,
        &t.people.organiser,
        &format!("/api/v1/battles/{battle}/void"),
        &json!({"reason": "scored wrongly"}),
    )
}

/// Everything a correction may change, for "nothing changed" checks.
fn state(app: &TestApp, t: &Table) -> Value {
    let o = &t.people.organiser;
    json!({
        "blue": get(app, o, &format!("/api/v1/forces/{}", t.blue_id())),
        "red": get(app, o, &format!("/api/v1/forces/{}", t.red_id())),
        "blue_ledger": get(app, o, &format!("/api/v1/forces/{}/ledger", t.blue_id())),
        "red_ledger": get(app, o, &format!("/api/v1/forces/{}/ledger", t.red_id())),
        "blue_history": get(app, o, &format!("/api/v1/forces/{}/history", t.blue_id())),
        "battles": get(app, o, &format!("/api/v1/campaigns/{}/battles", t.world.campaign_id)),
        "standings": get(app, o, &format!("/api/v1/campaigns/{}/standings", t.world.campaign_id)),
    })
}

fn ledger(app: &TestApp, t: &Table, force: &str) -> Vec<(String, i64, i64, String)> {
    get(
        app,
        &t.people.organiser,
        &format!("/api/v1/forces/{force}/ledger"),
    )["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["amount"].as_i64().unwrap(),
                e["balance"].as_i64().unwrap(),
                e["cause_kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn line(kind: &str, amount: i64, balance: i64, cause: &str) -> (String, i64, i64, String) {
    (kind.to_owned(), amount, balance, cause.to_owned())
}

fn standing(app: &TestApp, t: &Table, force: &str) -> [i64; 5] {
    let standings = get(
        app,
        &t.people.organiser,
        &format!("/api/v1/campaigns/{}/standings", t.world.campaign_id),
    );
    let row = standings["forces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["force_id"] == force)
        .unwrap()
        .clone();
    ["battles", "wins", "draws", "losses", "campaign_points"].map(|k| row[k].as_i64().unwrap())
}

both_backends! {
    fn voiding_undoes_rosters_ledgers_and_standings_newest_battle_first(app: &TestApp) {
        // Arrange: two finalized battles; the second was recorded on the rosters the first left.
        let t = Table::new(app);
        let (blue, red) = (t.blue_id().to_owned(), t.red_id().to_owned());
        let b1 = create_battle(app, &t);
        play_first_battle(app, &t, &b1);
        let after_first = state(app, &t);
        let b2 = create_battle(app, &t);
        play_second_battle(app, &t, &b2);
        let after_second = state(app, &t);

        // Act
        let first_too_early = void(app, &t, &b1);
        let unchanged = state(app, &t);
        let by_player = post(app, &t.people.player, &format!("/api/v1/battles/{b2}/void"), &json!({}));
        let by_owner = post(app, &t.people.owner, &format!("/api/v1/battles/{b2}/void"), &json!({}));
        let keyed = ok(post_keyed(app, &t.people.organiser, &format!("/api/v1/battles/{b2}/void"), &json!({"reason": "scored wrongly"}), "void-2"));
        let replayed = ok(post_keyed(app, &t.people.organiser, &format!("/api/v1/battles/{b2}/void"), &json!({"reason": "scored wrongly"}), "void-2"));
        let other_body = post_keyed(app, &t.people.organiser, &format!("/api/v1/battles/{b2}/void"), &json!({}), "void-2");
        let after_void_2 = state(app, &t);
        let twice = ok(void(app, &t, &b2));
        let after_twice = state(app, &t);
        let roll_on_void = post(app, &t.people.owner, &step_path(&b2, &blue, "roll"), &json!({}));
        let result_on_void = post(app, &t.people.owner, &format!("/api/v1/battles/{b2}/result"), &first_result(&t));
        let standing_between = (standing(app, &t, &blue), standing(app, &t, &red));
        let first = ok(void(app, &t, &b1));

        // Assert: battle 1 could not go first, and the refusal changed nothing.
        let problem = assert_problem(first_too_early, 409);
        assert!(problem["detail"].as_str().unwrap().contains(&b2), "{problem}");
        assert_eq!(unchanged, after_second);
        assert_problem(by_player, 403);
        assert_problem(by_owner, 403);
        // Voiding battle 2: void, replayable, and a second void is harmless.
        assert_eq!(keyed["state"], "void");
        assert_eq!(keyed["corrections"][0]["action"], "void");
        assert_eq!(keyed["corrections"][0]["reason"], "scored wrongly");
        assert_eq!(keyed["corrections"][0]["previous_state"], "complete");
        assert_eq!(keyed["corrections"][0]["by"], t.people.organiser.id.as_str());
        assert_eq!(replayed, keyed);
        assert_problem(other_body, 422);
        assert_eq!(twice["state"], "void");
        assert_eq!(twice["corrections"].as_array().unwrap().len(), 1);
        assert_eq!(after_twice["blue_ledger"], after_void_2["blue_ledger"]);
        assert_eq!(after_twice["blue"]["version"], after_void_2["blue"]["version"]);
        assert_problem(roll_on_void, 409);
        assert_problem(result_on_void, 409);
        // The rosters are what battle 1 left, one version later (a compensating entry).
        for force in ["blue", "red"] {
            assert_eq!(after_void_2[force]["platoons"], after_first[force]["platoons"], "{force}");
            assert_eq!(after_void_2[force]["version"].as_i64().unwrap(), after_second[force]["version"].as_i64().unwrap() + 1);
        }
        let newest = &after_void_2["blue_history"]["entries"][0];
        assert_eq!((newest["cause"]["kind"].as_str(), newest["cause"]["id"].as_str()), (Some("void"), Some(b2.as_str())));
        assert_eq!(newest["actor_id"], t.people.organiser.id.as_str());
        // Battle 2 left Blue as battle 1 had (Alpha lost 1 and rolled 6 back to 8, Resolve 3
        // stays), so its compensating entry changes nothing on the roster.
        assert_eq!(newest["diff"]["units"], json!([]));
        let red_newest = get(app, &t.people.organiser, &format!("/api/v1/forces/{red}/history"))["entries"][0].clone();
        assert_eq!(red_newest["cause"]["kind"], "void");
        // Standings: battle 2 no longer counts; its 2 CP are taken back (C12).
        assert_eq!(standing_between.0, [1, 1, 0, 0, 2]);
        assert_eq!(standing_between.1, [1, 0, 0, 1, 2]);

        // Voiding battle 1 afterwards: back to the rosters as created, balances 0, every entry
        // kept and compensated.
        assert_eq!(first["state"], "void");
        let end = state(app, &t);
        assert_eq!(end["blue"]["platoons"], t.blue["platoons"]);
        assert_eq!(end["red"]["platoons"], t.red["platoons"]);
        assert_eq!(ledger(app, &t, &blue), [
            line("earned", 2, 2, "battle"), line("spent", 1, 1, "battle"), line("spent", 1, 0, "battle"),
            line("earned", 2, 2, "battle"), line("spent", 2, 0, "void"),
            line("earned", 1, 1, "void"), line("earned", 1, 2, "void"), line("spent", 2, 0, "void")]);
        assert_eq!(ledger(app, &t, &red), [
            line("earned", 2, 2, "battle"), line("earned", 2, 4, "battle"), line("spent", 2, 2, "void"), line("spent", 2, 0, "void")]);
        let causes: Vec<(String, String)> = end["blue_history"]["entries"].as_array().unwrap().iter()
            .map(|e| (e["cause"]["kind"].as_str().unwrap().to_owned(), e["cause"]["id"].as_str().unwrap_or_default().to_owned())).collect();
        assert_eq!(causes, [("void".to_owned(), b1.clone()), ("void".to_owned(), b2.clone()), ("battle".to_owned(), b2.clone()),
            ("battle".to_owned(), b1.clone()), ("create".to_owned(), String::new())]);
        assert_eq!(standing(app, &t, &blue), [0, 0, 0, 0, 0]);
        assert_eq!(standing(app, &t, &red), [0, 0, 0, 0, 0]);
        // Lists, reads and the timeline show both as void.
        let listed: Vec<(String, String)> = end["battles"]["battles"].as_array().unwrap().iter()
            .map(|b| (b["id"].as_str().unwrap().to_owned(), b["state"].as_str().unwrap().to_owned())).collect();
        assert!(listed.contains(&(b1.clone(), "void".to_owned())) && listed.contains(&(b2.clone(), "void".to_owned())), "{listed:?}");
        let timeline = get(app, &t.people.player, &format!("/api/v1/campaigns/{}/timeline", t.world.campaign_id));
        let states: Vec<&str> = timeline["entries"].as_array().unwrap().iter()
            .filter(|e| e["battle"]["id"] == b1.as_str() || e["battle"]["id"] == b2.as_str())
            .map(|e| e["battle"]["state"].as_str().unwrap()).collect();
        assert_eq!(states, ["void", "void"]);
    }

    fn a_void_keeps_later_edits_and_refuses_to_overwrite_an_edited_field(app: &TestApp) {
        // Arrange: battle 1 finalized for Blue (Alpha → Determined, Bravo → Regular, Delta new),
        // then the owner edits the roster.
        let t = Table::new(app);
        let blue = t.blue_id().to_owned();
        let battle = create_battle(app, &t);
        play_first_battle(app, &t, &battle);
        let force = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        let edit = |f: &dyn Fn(&mut Value)| {
            let mut body = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
            f(&mut body);
            let version = body["version"].clone();
            // The organiser edits: restoring Alpha's Resolve raises a roster locked after play.
            let response = send(app.request(Method::PUT, &format!("/api/v1/forces/{blue}")).bearer_auth(&t.people.organiser.token)
                .json(&json!({"version": version, "name": body["name"], "platoons": body["platoons"], "reason": "table correction"})));
            assert_eq!(response.status(), 200, "{}", response.text().unwrap());
        };
        let unit_index = |name: &str| force["platoons"][0]["units"].as_array().unwrap().iter().position(|u| u["name"] == name).unwrap();
        let (alpha, bravo) = (unit_index("Alpha"), unit_index("Bravo"));
        // Bravo's name was never touched by the battle; Alpha's Resolve was.
        edit(&|b| b["platoons"][0]["units"][bravo]["name"] = json!("Bravo Prime"));
        edit(&|b| b["platoons"][0]["units"][alpha]["resolve"] = json!("steady"));
        let before = state(app, &t);

        // Act
        let refused = void(app, &t, &battle);
        let unchanged = state(app, &t);
        edit(&|b| b["platoons"][0]["units"][alpha]["resolve"] = json!("determined"));
        let voided = ok(void(app, &t, &battle));

        // Assert
        let problem = assert_problem(refused, 409);
        assert!(problem["detail"].as_str().unwrap().contains("Alpha's resolve"), "{problem}");
        assert_eq!(unchanged, before);
        assert_eq!(voided["state"], "void");
        let now = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        let mut expected = t.blue["platoons"].clone();
        expected[0]["units"][1]["name"] = json!("Bravo Prime");
        assert_eq!(now["platoons"], expected);
    }

    fn reopening_discards_an_unfinalized_result_and_keeps_its_rolls(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");
        let battle = create_battle(app, &t);
        let reopen = format!("/api/v1/battles/{battle}/reopen");
        let result = format!("/api/v1/battles/{battle}/result");
        let draw = json!({"outcome": "draw", "losses": [{"unit_id": alpha, "figures_lost": 2}]});

        // Act: nothing to reopen; a pending result reopened; a different result recorded.
        let nothing = post(app, &t.people.organiser, &reopen, &json!({}));
        ok(post(app, &t.people.owner, &result, &first_result(&t)));
        let by_owner = post(app, &t.people.owner, &reopen, &json!({}));
        let by_player = post(app, &t.people.player, &reopen, &json!({}));
        let first = ok(post_keyed(app, &t.people.organiser, &reopen, &json!({"reason": "wrong losses"}), "reopen-1"));
        let replay = ok(post_keyed(app, &t.people.organiser, &reopen, &json!({"reason": "wrong losses"}), "reopen-1"));
        let second_result = ok(post(app, &t.people.owner, &result, &draw));
        ok(post(app, &t.people.player, &format!("/api/v1/battles/{battle}/result/confirm"), &json!({})));
        let rolled = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({"dice": {
            "replacement": {alpha.as_str(): [5]}, "resolve_change": {alpha.as_str(): [4]}, "reinforcements": {blue.as_str(): [2, 2]}}})));
        let ledger_before = ledger(app, &t, &blue);
        let force_before = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        let second = ok(post(app, &t.people.organiser, &reopen, &json!({})));
        let ledger_after = ledger(app, &t, &blue);
        let force_after = get(app, &t.people.owner, &format!("/api/v1/forces/{blue}"));
        let gone = app.get_with_token(&format!("/api/v1/battles/{battle}/aftermath/{blue}"), &t.people.owner.token);
        let third_result = ok(post(app, &t.people.owner, &result, &first_result(&t)));
        ok(post(app, &t.people.player, &format!("/api/v1/battles/{battle}/result/confirm"), &json!({})));
        let rolled_again = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"), &json!({"dice": {
            "replacement": {alpha.as_str(): [1]}, "resolve_change": {alpha.as_str(): [1]}, "reinforcements": {blue.as_str(): [6, 6]}}})));
        ok(post(app, &t.people.owner, &step_path(&battle, &blue, "finalize"), &json!({"forgo_reinforcements": true})));
        let after_finalize = post(app, &t.people.organiser, &reopen, &json!({}));
        let read = get(app, &t.people.player, &format!("/api/v1/battles/{battle}"));

        // Assert
        assert_problem(nothing, 409);
        assert_problem(by_owner, 403);
        assert_problem(by_player, 403);
        assert_eq!(first["state"], "scenario");
        assert!(first["result"].is_null() && first["result_by"].is_null() && first["confirmed_by"].is_null());
        assert_eq!(first["corrections"][0]["action"], "reopen");
        assert_eq!(first["corrections"][0]["previous_state"], "pending");
        assert_eq!(first["corrections"][0]["reason"], "wrong losses");
        assert_eq!(first["corrections"][0]["discarded_result"]["outcome"], "win");
        assert_eq!(replay, first);
        assert_eq!(second_result["state"], "pending");
        assert_eq!(second_result["result"]["outcome"], "draw");
        // The discarded sequence's rolls are kept, with their side; nothing reached the roster
        // or the ledger.
        assert_eq!(second["corrections"][1]["previous_state"], "aftermath");
        assert_eq!(second["corrections"][1]["discarded_rolls"], rolled["rolls"]);
        assert!(second["corrections"][1]["discarded_rolls"].as_array().unwrap().iter().all(|r| r["force_id"] == blue.as_str()));
        assert_eq!(second["aftermath"], json!([]));
        assert_problem(gone, 404);
        assert_eq!(ledger_after, ledger_before);
        assert_eq!(ledger_before, []);
        assert_eq!(force_after, force_before);
        assert_eq!(force_after["platoons"], t.blue["platoons"]);
        assert_eq!(third_result["state"], "pending");
        assert_eq!(rolled_again["rolls"][0]["values"], json!([1]));
        let problem = assert_problem(after_finalize, 409);
        assert!(problem["detail"].as_str().unwrap().contains("void"), "{problem}");
        assert_eq!(read["corrections"].as_array().unwrap().len(), 2);
        assert_eq!(read["state"], "aftermath");
    }

    fn bad_correction_requests_change_nothing(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        play_first_battle(app, &t, &battle);
        let before = state(app, &t);
        let battle_before = get(app, &t.people.organiser, &format!("/api/v1/battles/{battle}"));
        let raw = |path: &str, body: &str| send(app.request(Method::POST, path).bearer_auth(&t.people.organiser.token)
            .header("content-type", "application/json").body(body.to_owned()));

        // Act
        let void_path = format!("/api/v1/battles/{battle}/void");
        let long = post(app, &t.people.organiser, &void_path, &json!({"reason": "x".repeat(501)}));
        let unknown_field = post(app, &t.people.organiser, &void_path, &json!({"why": "no"}));
        let wrong_type = post(app, &t.people.organiser, &void_path, &json!({"reason": 5}));
        let not_json = raw(&void_path, "{");
        let unknown_battle = post(app, &t.people.organiser, "/api/v1/battles/no-such-battle/void", &json!({}));
        let outsider = post(app, &t.people.outsider, &void_path, &json!({}));
        let finalized_reopen = post(app, &t.people.organiser, &format!("/api/v1/battles/{battle}/reopen"), &json!({}));
        let long_reopen = post(app, &t.people.organiser, &format!("/api/v1/battles/{battle}/reopen"), &json!({"reason": "x".repeat(501)}));

        // Assert
        assert_eq!(assert_problem(long, 422)["errors"][0]["field"], "reason");
        assert!([400, 422].contains(&unknown_field.status().as_u16()));
        assert!([400, 422].contains(&wrong_type.status().as_u16()));
        assert_problem(not_json, 400);
        assert_problem(unknown_battle, 404);
        assert_problem(outsider, 404);
        assert_problem(finalized_reopen, 409);
        assert_problem(long_reopen, 422);
        assert_eq!(state(app, &t), before);
        assert_eq!(get(app, &t.people.organiser, &format!("/api/v1/battles/{battle}")), battle_before);
    }
}
