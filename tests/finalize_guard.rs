//! Finalize never loses reinforcements without a word (docs/rules.md C9, C10, C11): troopers of
//! the pool left unassigned, bought extra dice included, are refused at finalize naming what is
//! left, unless the request gives them up, which the roster's history then records; and the
//! page's hint for each unit offers exactly what the server accepts.

use serde_json::{Value, json};

use crate::battles::{Table, create_battle, get, ok, post, record_and_confirm, step_path, unit_id};
use crate::common::{TestApp, assert_problem};
use crate::web_aftermath::{error_beside, signed_in};

/// Blue's sequence rolled: Alpha (E = 8) lost 5 and gets none back (replacement 1), so it has
/// room for 5; the pool is 1 + 1 = 2. Returns (table, battle, Blue's id, Alpha's id).
fn rolled(app: &TestApp) -> (Table, String, String, String) {
    let t = Table::new(app);
    let battle = create_battle(app, &t);
    record_and_confirm(app, &t, &battle);
    let blue = t.blue_id().to_owned();
    let alpha = unit_id(&t.blue, "Alpha");
    ok(post(
        app,
        &t.people.owner,
        &step_path(&battle, &blue, "roll"),
        &json!({"dice": {
        "replacement": {alpha.as_str(): [1]}, "resolve_change": {alpha.as_str(): [3]},
        "reinforcements": {blue.as_str(): [1, 1]}}}),
    ));
    (t, battle, blue, alpha)
}

fn history_reason(app: &TestApp, t: &Table, force: &str) -> Value {
    let history = get(
        app,
        &t.people.owner,
        &format!("/api/v1/forces/{force}/history"),
    );
    history["entries"][0]["diff"]["reason"].clone()
}

/// The page's id of a form field (as `web::layout::field_id`).
fn field(name: &str) -> String {
    format!(
        "f-{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
            .trim_end_matches('-')
    )
}

fn view(app: &TestApp, t: &Table, battle: &str, force: &str) -> Value {
    get(
        app,
        &t.people.owner,
        &format!("/api/v1/battles/{battle}/aftermath/{force}"),
    )
}

both_backends! {
    fn c10_c11_finalize_refuses_unassigned_troopers_and_a_bought_die_unless_forgone(app: &TestApp) {
        // Arrange: an extra die (1) bought for 1 CP: pool 3; Alpha gets 1, 2 are left.
        let (t, battle, blue, alpha) = rolled(app);
        let owner = &t.people.owner;
        ok(post(app, owner, &step_path(&battle, &blue, "purchases"), &json!({
            "purchases": [{"item": "extra_reinforcement_die"}],
            "dice": {"reinforcements_extra": {blue.as_str(): [1]}}})));
        ok(post(app, owner, &step_path(&battle, &blue, "reinforcements"),
            &json!({"allocations": [{"unit_id": alpha, "troopers": 1}]})));
        let finalize = step_path(&battle, &blue, "finalize");
        let force_before = get(app, owner, &format!("/api/v1/forces/{blue}"));

        // Act
        let refused = post(app, owner, &finalize, &json!({}));
        let still = view(app, &t, &battle, &blue);
        let force_after = get(app, owner, &format!("/api/v1/forces/{blue}"));
        let forgone = ok(post(app, owner, &finalize, &json!({"forgo_reinforcements": true})));

        // Assert: refused in plain words naming what is left; nothing written.
        let problem = assert_problem(refused, 422);
        assert_eq!(problem["errors"][0]["field"], "forgo_reinforcements");
        let message = problem["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("2 of the 3 reinforcement troopers are not assigned"), "{message}");
        assert!(message.contains("1 extra reinforcement die bought for 1 campaign point"), "{message}");
        assert_eq!(still["stage"], "rolled");
        assert_eq!(force_after["version"], force_before["version"]);
        // Given up on request: finalized with 2 lost, and the history says so.
        assert_eq!(forgone["stage"], "finalized");
        assert_eq!(forgone["outcome"]["reinforcements"]["lost"], 2);
        let reason = history_reason(app, &t, &blue);
        let reason = reason.as_str().unwrap_or_default();
        assert!(reason.contains("Forgone at finalize: 2 of the 3 reinforcement troopers"), "{reason}");
    }

    fn c10_finalize_with_every_trooper_assigned_needs_no_confirmation(app: &TestApp) {
        // Arrange: both troopers of the pool go to Alpha.
        let (t, battle, blue, alpha) = rolled(app);
        let owner = &t.people.owner;
        ok(post(app, owner, &step_path(&battle, &blue, "reinforcements"),
            &json!({"allocations": [{"unit_id": alpha, "troopers": 2}]})));

        // Act
        let done = app
            .request(reqwest::Method::POST, &step_path(&battle, &blue, "finalize"))
            .bearer_auth(&owner.token)
            .send()
            .unwrap();

        // Assert
        assert_eq!(done.status(), 200);
        assert_eq!(history_reason(app, &t, &blue), Value::Null);
    }

    fn c9_the_pages_trooper_hint_offers_exactly_what_the_server_accepts(app: &TestApp) {
        // Arrange: pool 2, Alpha (room 5) has 1 of them.
        let (t, battle, blue, alpha) = rolled(app);
        let owner = &t.people.owner;
        let reinforce = step_path(&battle, &blue, "reinforcements");
        ok(post(app, owner, &reinforce, &json!({"allocations": [{"unit_id": alpha, "troopers": 1}]})));
        let mut browser = signed_in(app, owner);

        // Act
        let (body, _) = browser.page(&format!("/battles/{battle}/aftermath/{blue}"));
        let pending = view(app, &t, &battle, &blue)["pending"].clone();
        let two = post(app, owner, &reinforce, &json!({"allocations": [{"unit_id": alpha, "troopers": 2}]}));
        let three = post(app, owner, &reinforce, &json!({"allocations": [{"unit_id": alpha, "troopers": 3}]}));

        // Assert: the pool caps Alpha at 2, not its room of 5 (plus the 1 it has).
        let hint = format!("id=\"{}-hint\">up to 2 (", field(&format!("troopers.{alpha}")));
        assert!(body.contains(&hint), "{body}");
        assert_eq!(pending["units"][0]["may_assign"], 2);
        assert_eq!(pending["units"][0]["may_receive"], 5);
        assert_eq!(two.status(), 200);
        assert_problem(three, 422);
    }

    fn c10_the_finalize_button_shows_what_is_left_and_finalizes_once_given_up(app: &TestApp) {
        // Arrange: Alpha has 1 of the pool's 2.
        let (t, battle, blue, alpha) = rolled(app);
        let owner = &t.people.owner;
        ok(post(app, owner, &step_path(&battle, &blue, "reinforcements"),
            &json!({"allocations": [{"unit_id": alpha, "troopers": 1}]})));
        let mut browser = signed_in(app, owner);
        let page = format!("/battles/{battle}/aftermath/{blue}");
        let (before, token) = browser.page(&page);

        // Act
        let refused = browser.post(&format!("{page}/finalize"), &[("csrf_token", &token)]);
        let status = refused.status();
        let body = refused.text().unwrap();
        let still = view(app, &t, &battle, &blue);
        let given_up = browser.post(&format!("{page}/finalize"),
            &[("csrf_token", &token), ("forgo_reinforcements", "1")]);

        // Assert: the page warns before, and the refusal stands beside the Finalize button with
        // a link to the reinforcements form; the allocation is kept.
        assert!(before.contains("1 reinforcement trooper(s) are not assigned"), "{before}");
        assert!(before.contains("Finalize without assigning 1 reinforcement trooper(s)"), "{before}");
        assert_eq!(status, 422);
        let error = error_beside(&body, &field("forgo_reinforcements")).unwrap_or_default();
        assert!(error.contains("1 of the 2 reinforcement troopers are not assigned"), "{body}");
        assert!(body.contains("href=\"#reinforcements\""), "{body}");
        assert!(body.contains(&format!("id=\"{}\"", field(&format!("troopers.{alpha}")))) && body.contains("value=\"1\""), "{body}");
        assert_eq!(still["stage"], "rolled");
        assert_eq!(given_up.status(), 303);
        assert_eq!(view(app, &t, &battle, &blue)["stage"], "finalized");
        let reason = history_reason(app, &t, &blue);
        assert!(reason.as_str().unwrap_or_default().contains("Forgone at finalize: 1 of the 2"), "{reason}");
    }
}
