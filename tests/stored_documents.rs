//! Stored documents end to end: the server writes format 2 (`"v": 2`, defaults left out), rows
//! in format 1 (the full form earlier releases wrote) are served exactly as before, and a
//! document that does not decode is a logged 500 naming it, never a crash.

use crate::battles::{get, ok, post, step_path};
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem};
use crate::forces::{create_force, small_roster};
use diesel::prelude::*;
use fad_api::schema::{battle_aftermaths, force_history, forces};
use fad_api::store::aftermath::StoredAftermath;
use fad_api::store::doc;
use fad_domain::roster::Force as Roster;
use serde_json::{Value, json};
use std::time::Duration;

fn stored_aftermath(app: &TestApp, battle: &str, force: &str) -> StoredAftermath {
    battle_aftermaths::table
        .find((battle, force))
        .select(StoredAftermath::as_select())
        .first(&mut app.db.connect())
        .unwrap()
}

fn stored_roster(app: &TestApp, id: &str) -> String {
    forces::table
        .find(id)
        .select(forces::roster)
        .first(&mut app.db.connect())
        .unwrap()
}

fn set_roster(app: &TestApp, id: &str, text: &str) {
    let mut conn = app.db.connect();
    diesel::update(forces::table.find(id))
        .set(forces::roster.eq(text))
        .execute(&mut conn)
        .unwrap();
    diesel::update(force_history::table.filter(force_history::force_id.eq(id)))
        .set(force_history::snapshot.eq(text))
        .execute(&mut conn)
        .unwrap();
}

/// A battle between two fresh forces with a loss on the owner's first unit, its result
/// confirmed and every roll of the owner's sequence made with server dice: (people, battle id,
/// the owner's force id).
fn rolled_sequence(app: &TestApp) -> (People, String, String) {
    let people = People::register(app);
    let world = World::build(app, &people);
    let blue = create_force(
        app,
        &people.owner,
        &world.campaign_id,
        &small_roster("Blue"),
    );
    let red = create_force(
        app,
        &people.player,
        &world.campaign_id,
        &small_roster("Red"),
    );
    let battle = ok(post(
        app,
        &people.owner,
        &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
        &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
    ));
    let battle = battle["id"].as_str().unwrap().to_owned();
    let force = blue["id"].as_str().unwrap().to_owned();
    let unit = &blue["platoons"][0]["units"][0]["id"];
    ok(post(
        app,
        &people.owner,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({"outcome": "draw", "losses": [{"unit_id": unit, "figures_lost": 2}]}),
    ));
    ok(post(
        app,
        &people.player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    ok(post(
        app,
        &people.owner,
        &step_path(&battle, &force, "roll"),
        &json!({}),
    ));
    (people, battle, force)
}

both_backends! {
    fn a_roster_stored_in_format_1_reads_as_in_format_2_and_is_rewritten_in_format_2(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let read = |path: &str| -> Value {
            let response = app.get_with_token(path, &people.owner.token);
            assert_eq!(response.status(), 200);
            response.json().unwrap()
        };
        let force_path = format!("/api/v1/forces/{id}");
        let history_path = format!("/api/v1/forces/{id}/history");
        let (before, history_before) = (read(&force_path), read(&history_path));
        let written = stored_roster(app, id);
        assert_eq!(doc::version_of(&written), Some(2), "{written}");
        let roster: Roster = doc::decode(&written).unwrap();
        let format_1 = serde_json::to_string(&roster).unwrap();
        assert!(written.len() * 2 <= format_1.len(), "{written} vs {format_1}");

        // Act: the rows as an earlier release wrote them.
        set_roster(app, id, &format_1);

        // Assert
        assert_eq!(read(&force_path), before);
        assert_eq!(read(&history_path), history_before);
        let mut body = small_roster("Blue");
        body["version"] = json!(1);
        body["platoons"][0]["units"][0]["id"] = before["platoons"][0]["units"][0]["id"].clone();
        body["platoons"][0]["units"][0]["strength"] = json!(7);
        let response = app.put_json_with_token(&force_path, &body, &people.owner.token);
        assert_eq!(response.status(), 200, "{}", response.text().unwrap());
        assert_eq!(doc::version_of(&stored_roster(app, id)), Some(2));
        assert_eq!(read(&force_path)["platoons"][0]["units"][0]["strength"], 7);
    }

    fn a_stored_roster_that_does_not_decode_is_a_500_that_names_it_in_the_log(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        set_roster(app, id, r#"{"v":2,"name":"Blue","platoons":[{"name":"1st","units":[{"id":"a"}]}]}"#);

        // Act
        let response = app.get_with_token(&format!("/api/v1/forces/{id}"), &people.owner.token);

        // Assert
        assert_problem(response, 500);
        let named = |logs: &str| {
            logs.contains("stored roster document (format 2) does not decode")
                && logs.contains("platoons[0].units[0]")
        };
        let logs = app.logs_once(named, Duration::from_secs(5));
        assert!(named(&logs), "{logs}");
    }

    fn a_post_battle_row_in_format_1_carries_on_and_is_written_back_in_format_2(app: &TestApp) {
        // Arrange: a result with a loss, every roll made with server dice.
        let (people, battle, force) = rolled_sequence(app);
        let (battle, force) = (battle.as_str(), force.as_str());
        let view = format!("/api/v1/battles/{battle}/aftermath/{force}");
        let before = get(app, &people.owner, &view);
        let written = stored_aftermath(app, battle, force);
        let state = written.state.clone().unwrap();
        assert_eq!(doc::version_of(&state), Some(2));
        assert!(!state.contains("\"battle_start\""), "the roster is stored once: {state}");
        assert!(!state.contains("\"after_rolls\""), "the rolled roster is apart: {state}");
        let after_rolls = written.after_rolls.clone().expect("the roll writes the rolled roster");
        assert_eq!(doc::version_of(&after_rolls), Some(2));

        // Act: the row as an earlier release wrote it (full documents, the roster twice, the
        // rolled roster inside the state).
        let row = written.decode().unwrap();
        let full_state = serde_json::to_string(row.state.as_ref().unwrap()).unwrap();
        let roster_v1 = serde_json::to_string(&row.battle_start).unwrap();
        assert!(full_state.len() >= state.len() + roster_v1.len(), "{full_state} vs {state}");
        diesel::update(battle_aftermaths::table.find((battle, force)))
            .set((
                battle_aftermaths::battle_start.eq(&roster_v1),
                battle_aftermaths::state.eq(&full_state),
                battle_aftermaths::after_rolls.eq(None::<String>),
            ))
            .execute(&mut app.db.connect())
            .unwrap();

        // Assert: read alike, and the sequence finishes.
        assert_eq!(get(app, &people.owner, &view), before);
        let done = ok(post(app, &people.owner, &step_path(battle, force, "finalize"), &json!({"forgo_reinforcements": true})));
        assert_eq!(done["stage"], "finalized");
        let rewritten = stored_aftermath(app, battle, force);
        assert_eq!(doc::version_of(&rewritten.battle_start), Some(1), "only written at the result");
        assert_eq!(doc::version_of(rewritten.state.as_deref().unwrap()), Some(2));
        assert!(!rewritten.state.as_deref().unwrap().contains("\"after_rolls\""));
        assert_eq!(rewritten.after_rolls, Some(after_rolls), "moved to its column");
        assert_eq!(doc::version_of(rewritten.outcome.as_deref().unwrap()), Some(2));
    }

    fn the_steps_after_the_rolls_leave_the_stored_rolled_roster_as_it_was(app: &TestApp) {
        // Arrange: a result with a loss, every roll made.
        let (people, battle, force) = rolled_sequence(app);
        let (battle, force) = (battle.as_str(), force.as_str());
        let view = format!("/api/v1/battles/{battle}/aftermath/{force}");
        let before = get(app, &people.owner, &view);
        // The same roster in another spelling (format 1): a step that wrote the roster again
        // would write it in format 2.
        let rolled: Roster =
            doc::decode(stored_aftermath(app, battle, force).after_rolls.as_deref().unwrap())
                .unwrap();
        let spelled_apart = serde_json::to_string(&rolled).unwrap();
        diesel::update(battle_aftermaths::table.find((battle, force)))
            .set(battle_aftermaths::after_rolls.eq(&spelled_apart))
            .execute(&mut app.db.connect())
            .unwrap();
        assert_eq!(get(app, &people.owner, &view), before, "read alike");

        // Act
        ok(post(
            app,
            &people.owner,
            &step_path(battle, force, "purchases"),
            &json!({"purchases": [{"item": "extra_reinforcement_die"}]}),
        ));
        ok(post(
            app,
            &people.owner,
            &step_path(battle, force, "reinforcements"),
            &json!({"allocations": []}),
        ));
        let done = ok(post(
            app,
            &people.owner,
            &step_path(battle, force, "finalize"),
            &json!({"forgo_reinforcements": true}),
        ));

        // Assert
        assert_eq!(done["stage"], "finalized");
        let stored = stored_aftermath(app, battle, force);
        assert_eq!(stored.after_rolls.as_deref(), Some(spelled_apart.as_str()), "never rewritten");
        let state = stored.state.as_deref().unwrap();
        assert!(!state.contains("\"after_rolls\""), "{state}");
        assert!(state.contains("extra_reinforcement_die"), "the steps were saved: {state}");
        let row = stored.decode().unwrap();
        assert_eq!(row.state.unwrap().after_rolls, rolled);
    }
}
