//! Hardening: every count a request carries is capped at what the rules can use (a 422 naming
//! the field, and the server keeps answering), unknown fields are refused at any depth with
//! their path (nothing stored), and the configurable quotas answer 422 or 429 with their limit.

use crate::auth::{TestUser, register};
use crate::campaigns::create_campaign;
use crate::common::{Backend, Fixture, TestApp, assert_problem};
use crate::forces::{create_force, small_roster};
use serde_json::{Value, json};

fn inline_side(name: &str) -> Value {
    json!({"name": name, "stance": "neutral", "attitude": "passive", "units": [
        {"name": "Scouts", "kind": "squad"}, {"name": "Line", "kind": "squad"}
    ]})
}

fn scenario(a: Value, b: Value) -> Value {
    json!({"sides": [a, b]})
}

fn post(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> reqwest::blocking::Response {
    app.post_json_with_token(path, body, &user.token)
}

#[track_caller]
fn field_error(problem: &Value, field: &str) -> String {
    let errors = problem["errors"].as_array().unwrap();
    let error = errors
        .iter()
        .find(|e| e["field"] == field)
        .unwrap_or_else(|| panic!("no error at {field}: {problem}"));
    error["message"].as_str().unwrap().to_owned()
}

fn campaign_with_force(app: &TestApp, user: &TestUser) -> (String, String) {
    let campaign = create_campaign(app, user, "Limits");
    let campaign_id = campaign["id"].as_str().unwrap().to_owned();
    let force = create_force(app, user, &campaign_id, &small_roster("Blue"));
    (campaign_id, force["id"].as_str().unwrap().to_owned())
}

fn count(app: &TestApp, user: &TestUser, path: &str, key: &str) -> usize {
    let body: Value = app.get_with_token(path, &user.token).json().unwrap();
    // A bare list, or a page holding it under `key`.
    let list = if body.is_array() { &body } else { &body[key] };
    list.as_array().map_or_else(|| panic!("{body}"), Vec::len)
}

both_backends! {
    fn holo_projectors_beyond_the_rules_are_refused_and_the_server_keeps_answering(app: &TestApp) {
        let user = register(app, "holo");
        for huge in [4_000_000_000_u64, 5_000_000] {
            let mut a = inline_side("A");
            a["holo_projectors"] = json!(huge);
            let r = post(app, &user, "/api/v1/scenarios", &scenario(a, inline_side("B")));
            let p = assert_problem(r, 422);
            let message = field_error(&p, "sides[0].holo_projectors");
            assert!(message.contains("100") && message.contains("Holo Projectors"), "{p}");
        }
        assert_eq!(app.get("/health").status(), 200);
        let mut a = inline_side("A");
        a["holo_projectors"] = json!(100);
        assert_eq!(post(app, &user, "/api/v1/scenarios", &scenario(a, inline_side("B"))).status(), 201);
    }

    fn other_request_counts_are_capped_with_the_field_named(app: &TestApp) {
        let user = register(app, "counts");
        // Inline unit strength: a unit has 1 to 50 figures.
        let mut a = inline_side("A");
        a["units"][1]["strength"] = json!(4_000_000_000_u64);
        let p = assert_problem(post(app, &user, "/api/v1/scenarios", &scenario(a, inline_side("B"))), 422);
        assert!(field_error(&p, "sides[0].units[1].strength").contains("50"), "{p}");
        // Platoons listed with their units name the unit inside its platoon.
        let b = json!({"name": "B", "non_player": true, "platoons": [
            {"name": "P1", "units": [{"name": "S", "kind": "squad", "strength": 0}]}]});
        let p = assert_problem(post(app, &user, "/api/v1/scenarios", &scenario(inline_side("A"), b)), 422);
        assert!(field_error(&p, "sides[1].platoons[0].units[0].strength").contains("1 to 50"), "{p}");
        // A non-player side's platoons as a number.
        let (campaign_id, force_id) = campaign_with_force(app, &user);
        let battles = format!("/api/v1/campaigns/{campaign_id}/battles");
        let body = json!({"sides": [{"force_id": force_id}, {"non_player": {"platoons": 4_000_000_000_u64}}]});
        let p = assert_problem(post(app, &user, &battles, &body), 422);
        assert!(field_error(&p, "sides[1].non_player.platoons").contains("20"), "{p}");
        // Battle orders: Holo Projectors.
        let body = json!({"sides": [{"force_id": force_id}, {"non_player": {}}]});
        let battle: Value = post(app, &user, &battles, &body).json().unwrap();
        let orders = format!("/api/v1/battles/{}/scenario/orders", battle["id"].as_str().unwrap());
        let p = assert_problem(post(app, &user, &orders, &json!({"force_id": force_id,
            "stance": "neutral", "attitude": "passive", "holo_projectors": 4_000_000_000_u64})), 422);
        assert!(field_error(&p, "holo_projectors").contains("100"), "{p}");
        assert_eq!(app.get("/health").status(), 200);
    }

    fn unknown_fields_are_refused_with_their_path_and_nothing_is_stored(app: &TestApp) {
        let user = register(app, "strict");
        let (campaign_id, force_id) = campaign_with_force(app, &user);
        let forces = format!("/api/v1/campaigns/{campaign_id}/forces");
        // Top level.
        let mut body = small_roster("Red");
        body["colour"] = json!("red");
        let p = assert_problem(post(app, &user, &forces, &body), 422);
        assert!(field_error(&p, "colour").contains("unknown field `colour`"), "{p}");
        // Nested in a unit.
        let mut body = small_roster("Red");
        body["platoons"][0]["units"][0]["colour"] = json!("red");
        let p = assert_problem(post(app, &user, &forces, &body), 422);
        assert!(field_error(&p, "platoons[0].units[0].colour").contains("unknown field"), "{p}");
        assert_eq!(count(app, &user, &forces, "forces"), 1, "nothing stored");
        // Inside a battle's non-player side, and in one of its units.
        let battles = format!("/api/v1/campaigns/{campaign_id}/battles");
        let body = json!({"sides": [{"force_id": force_id},
            {"non_player": {"name": "Militia", "colour": "x".repeat(1000)}}]});
        let p = assert_problem(post(app, &user, &battles, &body), 422);
        assert!(field_error(&p, "sides[1].non_player.colour").contains("unknown field"), "{p}");
        let body = json!({"sides": [{"force_id": force_id},
            {"non_player": {"units": [{"name": "S", "kind": "squad", "colour": 1}]}}]});
        let p = assert_problem(post(app, &user, &battles, &body), 422);
        assert_eq!(p["errors"][0]["field"], "sides[1].non_player.units[0].colour", "{p}");
        assert_eq!(count(app, &user, &battles, "battles"), 0, "nothing stored");
        // Force generation's choices.
        let generate = format!("/api/v1/campaigns/{campaign_id}/forces/generate");
        let body = json!({"method": "basic", "platoons": 1, "options": {"psionics": true, "colour": 1}});
        let p = assert_problem(post(app, &user, &generate, &body), 422);
        assert!(field_error(&p, "options.colour").contains("unknown field"), "{p}");
        assert_eq!(count(app, &user, &forces, "forces"), 1, "nothing stored");
        // A known non-player description is kept as typed and read back.
        let body = json!({"sides": [{"force_id": force_id}, {"non_player": {"name": "Militia", "platoons": 2}}]});
        let battle: Value = post(app, &user, &battles, &body).json().unwrap();
        assert_eq!(battle["sides"][1], json!({"non_player": {"name": "Militia", "platoons": 2}}));
    }
}

/// A server with every quota at 2.
struct LowQuotas(TestApp);

impl Fixture for LowQuotas {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[
                ("FAD_MAX_FORCES_PER_CAMPAIGN", "2"),
                ("FAD_MAX_CAMPAIGNS_PER_ACCOUNT", "2"),
                ("FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY", "2"),
                ("FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR", "2"),
            ],
        ))
    }
}

#[track_caller]
fn retry_after(response: &reqwest::blocking::Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

both_backends! {
    fn campaigns_and_forces_stop_at_their_configured_quota_with_a_422(quota: &LowQuotas) {
        let app = &quota.0;
        let user = register(app, "hoarder");
        let (campaign_id, _) = campaign_with_force(app, &user);
        create_campaign(app, &user, "Second");
        let r = post(app, &user, "/api/v1/campaigns", &json!({"name": "Third"}));
        let p = assert_problem(r, 422);
        assert!(field_error(&p, "account").contains("at most 2 campaigns"), "{p}");
        assert_eq!(count(app, &user, "/api/v1/campaigns", "campaigns"), 2);

        let forces = format!("/api/v1/campaigns/{campaign_id}/forces");
        create_force(app, &user, &campaign_id, &small_roster("Second"));
        let p = assert_problem(post(app, &user, &forces, &small_roster("Third")), 422);
        assert!(field_error(&p, "campaign_id").contains("at most 2 forces"), "{p}");
        let generate = format!("{forces}/generate");
        let p = assert_problem(post(app, &user, &generate, &json!({"method": "basic", "platoons": 1})), 422);
        assert!(field_error(&p, "campaign_id").contains("at most 2 forces"), "{p}");
        assert_eq!(count(app, &user, &forces, "forces"), 2);
    }

    fn battles_and_scenarios_stop_at_their_configured_rate_with_a_429(quota: &LowQuotas) {
        let app = &quota.0;
        let user = register(app, "warmonger");
        let (campaign_id, force_id) = campaign_with_force(app, &user);
        let battles = format!("/api/v1/campaigns/{campaign_id}/battles");
        let body = json!({"sides": [{"force_id": force_id}, {"non_player": {}}]});
        for _ in 0..2 {
            assert_eq!(post(app, &user, &battles, &body).status(), 201);
        }
        let r = post(app, &user, &battles, &body);
        let wait = retry_after(&r);
        assert!((86_000..=86_400).contains(&wait), "{wait}");
        let p = assert_problem(r, 429);
        assert!(p["detail"].as_str().unwrap().contains("at most 2 battles per day"), "{p}");
        assert_eq!(count(app, &user, &battles, "battles"), 2);

        let body = scenario(inline_side("A"), inline_side("B"));
        for _ in 0..2 {
            assert_eq!(post(app, &user, "/api/v1/scenarios", &body).status(), 201);
        }
        let r = post(app, &user, "/api/v1/scenarios", &body);
        let wait = retry_after(&r);
        assert!((3_000..=3_600).contains(&wait), "{wait}");
        let p = assert_problem(r, 429);
        assert!(p["detail"].as_str().unwrap().contains("at most 2 scenarios per hour"), "{p}");
        // Another account has its own quota.
        let other = register(app, "peaceful");
        assert_eq!(post(app, &other, "/api/v1/scenarios", &body).status(), 201);
    }
}
