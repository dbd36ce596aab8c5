//! Stored documents end to end: the server writes format 2 (`"v": 2`, defaults left out), rows
//! in format 1 (the full form earlier releases wrote) are served exactly as before, and a
//! document that does not decode is a logged 500 naming it, never a crash.

use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem};
use crate::forces::{create_force, small_roster};
use diesel::prelude::*;
use fad_api::schema::{force_history, forces};
use fad_api::store::doc;
use fad_domain::roster::Force as Roster;
use serde_json::{Value, json};

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
        let logs = app.logs();
        assert!(
            logs.contains("stored roster document (format 2) does not decode")
                && logs.contains("platoons[0].units[0]"),
            "{logs}"
        );
    }
}
