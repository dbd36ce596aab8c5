//! Every error a client can provoke reads in plain words: no Rust or serde words in `detail` or
//! `errors[].message`, fields named by their JSON path (never `body`), and every rule id cited
//! has an anchor in docs/rules.md. Also the consistency rules: an idempotent replay answers the
//! first status, and a campaign's settings and its name keep separate versions.

use crate::auth::register;
use crate::battles::{Table, create_battle, post_keyed, record_and_confirm, step_path};
use crate::campaigns::create_campaign;
use crate::common::{TestApp, send};
use crate::forces::small_roster;
use crate::rules_reference::{anchors, cited_ids};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Rust and serde words (whole words, case-sensitive).
const RUST_WORDS: &[&str] = &[
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "isize",
    "f32",
    "f64",
    "struct",
    "enum",
    "variant",
    "Option",
    "None",
    "Some",
    "unwrap",
    "panicked",
    "Vec",
    "String",
    "bool",
    "serde",
    "diesel",
    "SQL",
    "SQLite",
    "PostgreSQL",
];

/// Rust, serde and database phrases.
const RUST_PHRASES: &[&str] = &[
    "invalid type",
    "invalid value",
    ", expected",
    "expected one of",
    "a sequence",
    "a map",
    "..=",
    "::",
    "constraint",
    "duplicate key",
    "line 1 column",
];

/// What breaks the wording rules in one message.
fn faults_of(text: &str) -> Vec<String> {
    let mut faults = Vec::new();
    if text.trim().is_empty() {
        faults.push("empty message".to_owned());
    }
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if RUST_WORDS.contains(&word) {
            faults.push(format!("Rust word `{word}`"));
        }
    }
    for phrase in RUST_PHRASES {
        if text.contains(phrase) {
            faults.push(format!("Rust phrase `{phrase}`"));
        }
    }
    faults
}

/// Every fault of a problem document: its detail and each field error, and cited rule ids.
fn problem_faults(problem: &Value, anchors: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut texts = vec![problem["detail"].as_str().unwrap_or_default().to_owned()];
    let mut faults = Vec::new();
    for error in problem["errors"].as_array().into_iter().flatten() {
        let field = error["field"].as_str().unwrap_or_default();
        if field == "body" || field.is_empty() {
            faults.push(format!("field `{field}` is not a JSON path"));
        }
        texts.push(error["message"].as_str().unwrap_or_default().to_owned());
    }
    for text in &texts {
        faults.extend(
            faults_of(text)
                .into_iter()
                .map(|f| format!("{f} in {text:?}")),
        );
        for id in cited_ids(text) {
            if !anchors.contains(&id) {
                faults.push(format!("rule id {id} has no anchor, in {text:?}"));
            }
        }
    }
    faults
}

/// A problem+json answer with `status`, or a description of what came instead.
fn problem(response: Response, status: u16) -> Result<Value, String> {
    let got = response.status().as_u16();
    let text = response.text().unwrap_or_default();
    if got != status {
        return Err(format!("status {got}, not {status}: {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("not JSON ({e}): {text}"))
}

fn raw(app: &TestApp, method: Method, path: &str, token: &str, body: &str) -> Response {
    send(
        app.request(method, path)
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(body.to_owned()),
    )
}

fn roster_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut roster = small_roster("Raiders");
    change(&mut roster);
    roster
}

both_backends! {
    fn every_provoked_error_reads_in_plain_words(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let campaign = create_campaign(app, &alice, "Long Winter");
        let id = campaign["id"].as_str().unwrap().to_owned();
        let t = alice.token.as_str();
        let forces = format!("/api/v1/campaigns/{id}/forces");
        let generate = format!("{forces}/generate");
        let unit = |field: &str, value: Value| {
            roster_with(|r| r["platoons"][0]["units"][0][field] = value)
        };
        let post = |path: &str, body: &Value| app.post_json_with_token(path, body, t);
        let long_key = "k".repeat(201);

        // Act: (what, answer, expected status, a field that must be named, text the message holds)
        let cases: Vec<(&str, Response, u16, &str, &str)> = vec![
            ("wrong type", post("/api/v1/campaigns", &json!({"name": 5})), 422, "name", "must be text"),
            ("missing field", post("/api/v1/campaigns", &json!({})), 422, "name", "required"),
            ("unknown field", post("/api/v1/campaigns", &json!({"name": "a", "colour": 1})), 422, "colour", "does not take it"),
            ("malformed JSON", raw(app, Method::POST, "/api/v1/campaigns", t, "{\"name\":"), 400, "", "Malformed JSON"),
            ("trailing text", raw(app, Method::POST, "/api/v1/campaigns", t, "{\"name\":\"a\"} x"), 400, "", "after its end"),
            ("bad enum", post(&forces, &unit("quality", json!("legendary"))), 422, "platoons[0].units[0].quality", "use one of: rabble"),
            ("negative number", post(&forces, &unit("strength", json!(-1))), 422, "platoons[0].units[0].strength", "whole number"),
            ("fraction", post(&forces, &unit("strength", json!(1.5))), 422, "platoons[0].units[0].strength", "whole number"),
            ("huge number", post(&forces, &unit("strength", json!(1e12))), 422, "platoons[0].units[0].strength", "whole number"),
            ("list instead of object", post(&forces, &roster_with(|r| r["platoons"][0] = json!([]))), 422, "platoons[0]", "must be an object"),
            ("nested unknown field", post(&forces, &unit("colour", json!("red"))), 422, "platoons[0].units[0].colour", "does not take it"),
            ("roster rule C9", post(&forces, &unit("strength", json!(9))), 422, "platoons[0].units[0].strength", "C9"),
            ("roster rule C5", post(&forces, &roster_with(|r| r["platoons"][0]["units"][0]["kind"] = json!("sniper"))), 422, "platoons[0].units[0].starting_strength", "C5"),
            ("generate: unknown method", post(&generate, &json!({"method": "random", "platoons": 1})), 422, "method", "basic, advanced"),
            ("generate: missing method", post(&generate, &json!({"platoons": 1})), 422, "method", "required"),
            ("generate: unknown field", post(&generate, &json!({"method": "basic", "platoons": 1, "colour": 1})), 422, "colour", "does not take it"),
            ("generate: unknown option", post(&generate, &json!({"method": "basic", "platoons": 1, "options": {"colour": true}})), 422, "options.colour", "does not take it"),
            ("generate: not an object", post(&generate, &json!([1])), 422, ".", "JSON object"),
            ("generate: die out of range", post(&generate, &json!({"method": "basic", "platoons": 1, "dice": {"force_generation": {"platoon[0]": [7]}}})), 422, "dice.force_generation.platoon[0]", "from 1 to 6"),
            ("generate: dice of the wrong type", post(&generate, &json!({"method": "basic", "platoons": 1, "dice": {"force_generation": {"platoon[0]": ["six"]}}})), 422, "dice.force_generation.platoon[0][0]", "whole number"),
            ("generate: unknown dice step", post(&generate, &json!({"method": "basic", "platoons": 1, "dice": {"nap": {"x": [1]}}})), 422, "dice.nap", "is not a dice step"),
            ("limit 0", app.get_with_token("/api/v1/campaigns?limit=0", t), 400, "limit", "1 to 100"),
            ("limit text", app.get_with_token(&format!("{forces}?limit=ten"), t), 400, "limit", "1 to 100"),
            ("limit 101", app.get_with_token(&format!("{forces}?limit=101"), t), 400, "limit", "1 to 100"),
            ("forged cursor", app.get_with_token(&format!("{forces}?after=abc"), t), 400, "after", "next"),
            ("odds: unknown parameter", app.get("/api/v1/odds/missions?stance=neutral&attitude=passive&colour=red"), 422, "colour", "not a parameter"),
            ("odds: bad value", app.get("/api/v1/odds/missions?stance=sideways&attitude=passive"), 422, "stance", "must be one of"),
            ("long Idempotency-Key", send(app.request(Method::POST, &generate).bearer_auth(t).header("Idempotency-Key", long_key.as_str()).json(&json!({"method": "basic", "platoons": 1}))), 400, "Idempotency-Key", "1 to 200"),
            ("stale version", send(app.request(Method::PATCH, &format!("/api/v1/campaigns/{id}")).bearer_auth(t).json(&json!({"version": 7, "name": "b"}))), 409, "", "version is 1"),
            ("stale If-Match", send(app.request(Method::PATCH, &format!("/api/v1/campaigns/{id}")).bearer_auth(t).header("If-Match", "\"7\"").json(&json!({"name": "b"}))), 412, "", "If-Match"),
            ("unreadable If-Match", send(app.request(Method::PATCH, &format!("/api/v1/campaigns/{id}")).bearer_auth(t).header("If-Match", "yesterday").json(&json!({"name": "b"}))), 412, "", "If-Match"),
            ("no version", send(app.request(Method::PATCH, &format!("/api/v1/campaigns/{id}")).bearer_auth(t).json(&json!({"name": "b"}))), 422, "version", "If-Match"),
            ("not JSON", send(app.request(Method::POST, "/api/v1/campaigns").bearer_auth(t).header("content-type", "text/plain").body("name=a")), 415, "", "JSON"),
            ("no credentials", app.get("/api/v1/campaigns"), 401, "", "Authorization"),
            ("bad scheme", send(app.request(Method::GET, "/api/v1/campaigns").header("Authorization", "Basic abc")), 401, "", "Bearer"),
            ("bad token", app.get_with_token("/api/v1/campaigns", "not-a-token"), 401, "", "log in again"),
            ("taken username", app.post_json("/api/v1/auth/register", &json!({"username": "alice", "password": "correct horse battery staple"})), 409, "", "username is taken"),
        ];

        // Assert
        let anchors = anchors();
        let mut failures = Vec::new();
        for (what, response, status, field, holds) in cases {
            let body = match problem(response, status) {
                Ok(body) => body,
                Err(e) => {
                    failures.push(format!("{what}: {e}"));
                    continue;
                }
            };
            failures.extend(problem_faults(&body, &anchors).into_iter().map(|f| format!("{what}: {f}")));
            let errors = body["errors"].as_array().cloned().unwrap_or_default();
            let named = field.is_empty() || errors.iter().any(|e| e["field"] == field);
            if !named {
                failures.push(format!("{what}: no error names `{field}`: {body}"));
            }
            let texts = std::iter::once(&body["detail"]).chain(errors.iter().map(|e| &e["message"]));
            if !texts.filter_map(Value::as_str).any(|m| m.contains(holds)) {
                failures.push(format!("{what}: nothing says `{holds}`: {body}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // The checks can fail.
        assert!(!faults_of("invalid type: string \"x\", expected u32").is_empty());
        assert!(!problem_faults(&json!({"detail": "x", "errors": [{"field": "body", "message": "m"}]}), &anchors).is_empty());
        assert!(!problem_faults(&json!({"detail": "breaks C99"}), &anchors).is_empty());
    }

    fn battle_step_errors_read_in_plain_words(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        let blue = t.blue_id().to_owned();
        let roll = step_path(&battle, &blue, "roll");

        // Act: a step before the sequence exists, then wrong dice once the result is confirmed.
        let early = post_keyed(app, &t.people.owner, &roll, &json!({}), "early");
        record_and_confirm(app, &t, &battle);
        let bad_die = post_keyed(app, &t.people.owner, &roll, &json!({"dice": {"replacement": {"nobody": [9]}}}), "bad-die");
        let bad_step = post_keyed(app, &t.people.owner, &roll, &json!({"dice": {"replacment": {}}}), "bad-step");

        // Assert
        let anchors = anchors();
        for (what, response, status) in [("early", early, 404), ("bad die", bad_die, 422), ("bad step", bad_step, 422)] {
            let body = problem(response, status).unwrap_or_else(|e| panic!("{what}: {e}"));
            let faults = problem_faults(&body, &anchors);
            assert!(faults.is_empty(), "{what}: {faults:?}");
        }
    }

    fn an_idempotent_replay_answers_the_first_status(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let create = format!("/api/v1/campaigns/{}/battles", t.world.campaign_id);
        let sides = json!({"sides": [{"force_id": t.blue_id()}, {"force_id": t.red_id()}]});
        let generate = format!("/api/v1/campaigns/{}/forces/generate", t.world.campaign_id);
        let side = |name: &str| {
            json!({"name": name, "stance": "neutral", "attitude": "cautious", "units": [
                {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
                {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}
            ]})
        };
        let scenario = json!({"sides": [side("Red"), side("Blue")]});
        let mut other_scenario = scenario.clone();
        other_scenario["narrative"] = json!(true);
        let swapped = json!({"sides": [{"force_id": t.red_id()}, {"force_id": t.blue_id()}]});

        // Act + Assert: one per kind of Idempotency-Key endpoint.
        for (path, body, other) in [
            (create.as_str(), &sides, &swapped),
            (generate.as_str(), &json!({"method": "basic", "platoons": 1}), &json!({"method": "basic", "platoons": 2})),
            ("/api/v1/scenarios", &scenario, &other_scenario),
        ] {
            let first = post_keyed(app, &t.people.owner, path, body, "same-key");
            let first_status = first.status();
            let first: Value = first.json().unwrap();
            let again = post_keyed(app, &t.people.owner, path, body, "same-key");
            assert_eq!(first_status, 201, "{path}: {first}");
            assert_eq!(again.status(), first_status, "{path}: a replay answers the first status");
            assert_eq!(again.json::<Value>().unwrap(), first, "{path}");
            let other = post_keyed(app, &t.people.owner, path, other, "same-key");
            let body = problem(other, 422).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(body["errors"].as_array().unwrap().iter().any(|e| e["field"] == "Idempotency-Key"), "{path}: {body}");
        }
    }

    fn settings_and_name_keep_separate_versions(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let id = create_campaign(app, &alice, "c")["id"].as_str().unwrap().to_owned();
        let campaign = format!("/api/v1/campaigns/{id}");
        let settings = format!("{campaign}/settings");
        let patch = |body: Value| {
            send(app.request(Method::PATCH, &campaign).bearer_auth(&alice.token).json(&body))
        };

        // Act: both edits start from version 1 of their own part.
        let renamed = patch(json!({"version": 1, "name": "New"}));
        let changed = app.put_json_with_token(&settings, &json!({"version": 1, "results_need_confirmation": false}), &alice.token);
        let renamed_again = patch(json!({"version": 2, "name": "Newer"}));
        let by_tag = send(
            app.request(Method::PUT, &settings)
                .bearer_auth(&alice.token)
                .header("If-Match", "\"2\"")
                .json(&json!({})),
        );
        let stale = app.put_json_with_token(&settings, &json!({"version": 2}), &alice.token);

        // Assert
        assert_eq!(renamed.status(), 200, "a rename");
        assert_eq!(changed.status(), 200, "a settings edit is not stale after a rename");
        assert_eq!(changed.headers().get("etag").unwrap(), "\"2\"");
        assert_eq!(renamed_again.status(), 200, "a rename is not stale after a settings edit");
        assert_eq!(by_tag.status(), 200, "If-Match names the settings version");
        let stale = problem(stale, 409).unwrap();
        assert!(stale["detail"].as_str().unwrap().contains("settings"), "{stale}");
        let read: Value = app.get_with_token(&campaign, &alice.token).json().unwrap();
        assert_eq!((read["version"].as_i64(), read["settings"]["version"].as_i64()), (Some(3), Some(3)));
        assert_eq!(read["name"], "Newer");
        let read_settings = app.get_with_token(&settings, &alice.token);
        assert_eq!(read_settings.headers().get("etag").unwrap(), "\"3\"");
    }
}
