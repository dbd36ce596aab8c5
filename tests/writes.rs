//! Writes that are safe to retry and to PUT back (README, API documentation):
//! every write under `/api/v1`, as the OpenAPI document lists them, honours `Idempotency-Key`
//! (the same key and body answer the first answer again with `Idempotent-Replayed: true`,
//! another body is 422); a `PUT` or `PATCH` takes what its `GET` answered (read-only fields
//! ignored, a field nobody defined still 422); and a caller without permission learns nothing
//! about the body (credential → permission → body → state).

use crate::auth::TestUser;
use crate::authorization::{CALLERS, ROWS, Row, Who};
use crate::campaigns::{People, World};
use crate::common::{Backend, Fixture, TestApp, assert_problem, send};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// A backend for a test that starts its own server (with webhook settings).
struct On(Backend);

impl Fixture for On {
    fn create(backend: Backend) -> Self {
        Self(backend)
    }
}

/// Writes that take no key, and why.
const EXEMPT: [(&str, &str, &str); 7] = [
    (
        "POST",
        "/api/v1/auth/login",
        "changes nothing, and its answer is a bearer token, which is never stored",
    ),
    (
        "POST",
        "/api/v1/auth/register",
        "there is no account yet to keep its answer under; a retry is 409 on the taken name",
    ),
    (
        "POST",
        "/api/v1/campaigns/{}/api-keys",
        "its answer is the key itself, which the service keeps only hashed",
    ),
    (
        "POST",
        "/api/v1/me/tokens",
        "its answer is the personal token itself, which the service keeps only hashed",
    ),
    (
        "DELETE",
        "/api/v1/me/tokens/{}",
        "only a signed-in person revokes, never a token; revoking again changes nothing (tests/bots.rs)",
    ),
    (
        "POST",
        "/api/v1/dice/commitments",
        "public and anonymous: a retry only issues another commitment, and an unused one expires within the hour",
    ),
    (
        "POST",
        "/api/v1/dice/verify",
        "public, stores nothing: the same body always gets the same answer",
    ),
];

/// Writes no case here brings to a state that accepts them, and why.
const NOT_REACHED: [(&str, &str, &str); 4] = [
    (
        "POST",
        "/api/v1/battles/{}/scenario/assault-target",
        "needs an Assault mission; the same middleware replays it (tests/battle_scenarios.rs plays it)",
    ),
    (
        "PUT",
        "/api/v1/battles/{}/solo/groups",
        "the world's non-player side has no units; walk_the_rest replays it on one that has",
    ),
    (
        "POST",
        "/api/v1/battles/{}/solo/turns",
        "the world's scenario is not set up; walk_the_rest replays it on one that is",
    ),
    (
        "POST",
        "/api/v1/battles/{}/solo/groups/{}/casualties",
        "the world's scenario is not set up; walk_the_rest replays it on one that is",
    ),
];

/// `/a/{x}/b` → `/a/{}/b`, so the document's and the table's paths compare.
fn shape(path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every write under `/api/v1` in the served OpenAPI document: (method, shape).
fn documented_writes(app: &TestApp) -> BTreeSet<(String, String)> {
    let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
    let mut out = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in ["post", "put", "patch", "delete"] {
            if item.get(method).is_some() && path.starts_with("/api/v1") {
                out.insert((method.to_uppercase(), shape(path)));
            }
        }
    }
    out
}

/// A write to send twice: as whom, where, with what, after which set-up.
struct Case {
    method: &'static str,
    path: String,
    body: Option<String>,
    token: Option<String>,
}

impl Case {
    fn send(&self, app: &TestApp, key: &str, body: Option<&str>) -> Response {
        let method = Method::from_bytes(self.method.as_bytes()).unwrap();
        let mut request = app
            .request(method, &self.path)
            .header("Idempotency-Key", key);
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_owned());
        }
        send(request)
    }
}

fn token_of(people: &People, who: Who) -> String {
    match who {
        Who::Player => people.player.token.clone(),
        Who::Owner => people.owner.token.clone(),
        Who::Organiser => people.organiser.token.clone(),
        Who::Outsider => people.outsider.token.clone(),
        other => panic!("no token for {other:?}"),
    }
}

/// The first caller the table lets make the write (a person).
fn allowed(row: &Row) -> Option<Who> {
    [Who::Organiser, Who::Owner, Who::Player, Who::Outsider]
        .into_iter()
        .find(|who| {
            let i = CALLERS.iter().position(|c| c == who).unwrap();
            (200..300).contains(&row.expect[i])
        })
}

/// What a write the table leaves at 409 needs first, in the table's world: (caller, method,
/// path, body) steps, sent without a key.
fn set_up(row: &Row) -> (Who, Vec<(&'static str, &'static str, &'static str)>) {
    let orders = (
        "POST",
        "/api/v1/battles/{scenario_battle}/scenario/orders",
        r#"{"force_id": "{force}", "stance": "neutral", "attitude": "cautious"}"#,
    );
    let bonuses = (
        "POST",
        "/api/v1/battles/{scenario_battle}/scenario/mission-bonuses",
        r#"{"force_id": "{force}", "missions": []}"#,
    );
    let roll = (
        "POST",
        "/api/v1/battles/{battle}/aftermath/{force}/roll",
        "{}",
    );
    // Defensive and Passive, Hold 2 and Sweep 6 entered: Hold 2 + 4 ties Sweep 6 + 0.
    let defensive = (
        "POST",
        "/api/v1/battles/{scenario_battle}/scenario/orders",
        r#"{"force_id": "{force}", "stance": "defensive", "attitude": "passive"}"#,
    );
    let tie = (
        "POST",
        "/api/v1/battles/{scenario_battle}/scenario/mission-bonuses",
        r#"{"force_id": "{force}", "missions": [], "dice": {"mission": {"assault": [1], "expand": [1], "hold": [2], "infiltrate": [1], "interfere": [1], "patrol": [1], "strike": [1], "sweep": [6]}}}"#,
    );
    match row.path {
        p if p.ends_with("/scenario/mission-bonuses") => (Who::Owner, vec![orders]),
        p if p.ends_with("/scenario/mission-choice") => (Who::Owner, vec![defensive, tie]),
        p if p.ends_with("/scenario/recon-actions") => (Who::Owner, vec![orders, bonuses]),
        p if p.contains("/aftermath/") => (Who::Owner, vec![roll]),
        _ => (Who::Owner, vec![]),
    }
}

fn fill_case(app: &TestApp, people: &People, world: &World, row: &Row) -> Option<Case> {
    let who = match allowed(row) {
        Some(who) => who,
        None => {
            let (who, steps) = set_up(row);
            for (method, path, body) in steps {
                let method = Method::from_bytes(method.as_bytes()).unwrap();
                let body: Value = serde_json::from_str(&world.fill(people, body)).unwrap();
                let response = send(
                    app.request(method, &world.fill(people, path))
                        .bearer_auth(token_of(people, who))
                        .json(&body),
                );
                assert!(
                    response.status().is_success(),
                    "set-up {path}: {}",
                    response.text().unwrap()
                );
            }
            who
        }
    };
    Some(Case {
        method: row.method,
        path: world.fill(people, row.path),
        body: row.body.map(|b| world.fill(people, b)),
        token: Some(token_of(people, who)),
    })
}

/// Sends `case` twice with one key and once with the key and another body; returns the
/// first answer's status and body.
#[track_caller]
fn replays(app: &TestApp, case: &Case, what: &str) -> (u16, String) {
    let key = format!("k-{}", uuid::Uuid::new_v4());
    let first = case.send(app, &key, case.body.as_deref());
    let first_status = first.status().as_u16();
    assert!(
        first.headers().get("idempotent-replayed").is_none(),
        "{what}: a first answer is not a replay"
    );
    let first_text = first.text().unwrap();
    assert!(
        (200..300).contains(&first_status),
        "{what}: {first_status} {first_text}"
    );
    let again = case.send(app, &key, case.body.as_deref());
    assert_eq!(
        again.status().as_u16(),
        first_status,
        "{what}: the replay's status"
    );
    assert_eq!(
        again
            .headers()
            .get("idempotent-replayed")
            .map(|v| v.to_str().unwrap().to_owned()),
        Some("true".to_owned()),
        "{what}: a replay says so"
    );
    assert_eq!(
        again.text().unwrap(),
        first_text,
        "{what}: the replay's body"
    );
    let other = match case.body.as_deref() {
        Some(body) => format!("{body} "),
        None => "{}".to_owned(),
    };
    let reused = case.send(app, &key, Some(&other));
    // Leaving a campaign or handing it over takes away the caller's permission, which is
    // checked before the body (and the key's reuse).
    let lost_permission = ["/leave", "/organiser"]
        .iter()
        .any(|w| case.path.ends_with(w));
    let expected = if lost_permission {
        reused.status().as_u16()
    } else {
        422
    };
    let problem = assert_problem(reused, expected);
    if !lost_permission {
        assert_eq!(
            problem["errors"][0]["field"], "Idempotency-Key",
            "{what}: {problem}"
        );
    }
    (first_status, first_text)
}

/// The webhook writes, which the authorization table leaves out: sent in order on one
/// campaign (each after what it needs). Returns the shapes it covered.
fn walk_the_rest(app: &TestApp, people: &People) -> BTreeSet<(String, String)> {
    let mut covered = BTreeSet::new();
    let mut cover = |method: &'static str, template: &str| {
        covered.insert((method.to_owned(), shape(template)));
    };
    let world = World::build(app, people);
    let token = Some(people.organiser.token.clone());
    let hooks = format!("/api/v1/campaigns/{}/webhooks", world.campaign_id);
    let create = Case {
        method: "POST",
        path: hooks.clone(),
        // Port 9 on loopback: nothing listens, so every attempt fails at once.
        body: Some(
            json!({"url": "http://127.0.0.1:9/hook", "events": ["force.created"]}).to_string(),
        ),
        token: token.clone(),
    };
    let (_, text) = replays(app, &create, "create_webhook");
    let hook = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    cover("POST", "/api/v1/campaigns/{}/webhooks");
    let listed: Value = app
        .get_with_token(&hooks, &people.organiser.token)
        .json()
        .unwrap();
    assert_eq!(
        listed["webhooks"].as_array().unwrap().len(),
        1,
        "one webhook: {listed}"
    );

    let test = Case {
        method: "POST",
        path: format!("{hooks}/{hook}/test"),
        body: None,
        token: token.clone(),
    };
    replays(app, &test, "test_webhook");
    cover("POST", "/api/v1/campaigns/{}/webhooks/{}/test");
    let log_path = format!("{hooks}/{hook}/deliveries");
    let first_failure = |count: usize| -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let log: Value = app
                .get_with_token(&log_path, &people.organiser.token)
                .json()
                .unwrap();
            let deliveries = log["deliveries"].as_array().unwrap().clone();
            assert_eq!(deliveries.len(), count, "one ping per queued test: {log}");
            if deliveries
                .iter()
                .all(|d| d["attempts"].as_i64().unwrap() >= 1)
            {
                return deliveries[0].clone();
            }
            assert!(std::time::Instant::now() < deadline, "no attempt: {log}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    let ping = first_failure(1);
    let skip = Case {
        method: "POST",
        path: format!("{log_path}/{}/skip", ping["id"].as_str().unwrap()),
        body: None,
        token: token.clone(),
    };
    let (_, text) = replays(app, &skip, "skip_webhook_delivery");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["status"],
        "skipped"
    );
    cover(
        "POST",
        "/api/v1/campaigns/{}/webhooks/{}/deliveries/{}/skip",
    );

    // A second ping, failed once: sent again now, once.
    assert_eq!(test.send(app, "another ping", None).status(), 202);
    let ping = first_failure(2);
    let retry = Case {
        method: "POST",
        path: format!("{log_path}/{}/retry", ping["id"].as_str().unwrap()),
        body: None,
        token: token.clone(),
    };
    replays(app, &retry, "retry_webhook_delivery");
    cover(
        "POST",
        "/api/v1/campaigns/{}/webhooks/{}/deliveries/{}/retry",
    );

    let disable = Case {
        method: "POST",
        path: format!("{hooks}/{hook}/disable"),
        body: None,
        token: token.clone(),
    };
    replays(app, &disable, "disable_webhook");
    cover("POST", "/api/v1/campaigns/{}/webhooks/{}/disable");
    let delete = Case {
        method: "DELETE",
        path: format!("{hooks}/{hook}"),
        body: None,
        token,
    };
    replays(app, &delete, "delete_webhook");
    cover("DELETE", "/api/v1/campaigns/{}/webhooks/{}");

    // Solo play, which needs a set-up scenario against a non-player force with units: the
    // groups, a turn and casualties, on a battle and on a one-shot scenario.
    let owner = Some(people.owner.token.clone());
    let battle: Value = app
        .post_json_with_token(
            &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": world.force_id}, {"non_player": crate::solo::militia()}]}),
            &people.owner.token,
        )
        .json()
        .unwrap();
    let battle = battle["id"].as_str().unwrap().to_owned();
    crate::solo::play_to_ready(app, &people.owner.token, &battle);
    let mut npf = crate::solo::militia();
    npf["non_player"] = json!(true);
    let oneshot: Value = app
        .post_json_with_token(
            "/api/v1/scenarios",
            &json!({"sides": [{"name": "Blue", "stance": "neutral", "attitude": "cautious",
                "units": [{"name": "Alpha", "kind": "squad", "resolve": "steady"}]}, npf]}),
            &people.owner.token,
        )
        .json()
        .unwrap();
    let oneshot = oneshot["id"].as_str().unwrap().to_owned();
    for (base, template) in [
        (
            format!("/api/v1/battles/{battle}/solo"),
            "/api/v1/battles/{}/solo",
        ),
        (
            format!("/api/v1/scenarios/{oneshot}/solo"),
            "/api/v1/scenarios/{}/solo",
        ),
    ] {
        for (method, path, body, what) in [
            (
                "PUT",
                "/groups",
                r#"{"groups": [{"name": "Hill", "units": ["s2-u3"], "approach": "hold"}]}"#,
                "set solo groups",
            ),
            (
                "POST",
                "/turns",
                r#"{"dice": {"discipline": {"Hill": [2, 3, 4]}}}"#,
                "play a solo turn",
            ),
            (
                "POST",
                "/groups/Hill/casualties",
                r#"{"lost": 1}"#,
                "solo casualties",
            ),
        ] {
            let case = Case {
                method,
                path: format!("{base}{path}"),
                body: Some(body.to_owned()),
                token: owner.clone(),
            };
            replays(app, &case, what);
            cover(method, &format!("{template}{}", path.replace("Hill", "{}")));
        }
    }
    covered
}

both_backends! {
    fn every_documented_write_replays_its_first_answer_for_one_key(on: &On) {
        let app = &TestApp::spawn_with(on.0, &[("FAD_WEBHOOK_ALLOW_PRIVATE", "true"), ("FAD_WEBHOOK_POLL_MS", "100"), ("FAD_WEBHOOK_RETRY_SECS", "600")]);
        let people = People::register(app);
        let documented = documented_writes(app);
        let exempt: BTreeSet<(String, String)> =
            EXEMPT.iter().map(|(m, p, _)| (m.to_string(), shape(p))).collect();
        let mut covered = walk_the_rest(app, &people);
        let mut seen = BTreeSet::new();
        for row in ROWS.iter().filter(|r| r.method != "GET" && r.path.starts_with("/api/v1")) {
            let op = (row.method.to_owned(), shape(row.path));
            // The table holds some writes twice (in another state); one is enough here.
            let not_reached = NOT_REACHED.iter().any(|(m, p, _)| (m.to_string(), shape(p)) == op);
            if not_reached || exempt.contains(&op) || !documented.contains(&op) || !seen.insert(op.clone()) {
                continue;
            }
            // The non-player side rolls its own mission: when it draws the same one (an
            // Escalating Engagement, no recon phase), play the set-up again on a new world.
            let case = (0..6)
                .find_map(|_| {
                    let world = World::build(app, &people);
                    let case = fill_case(app, &people, &world, row).unwrap();
                    let recon_closed = row.path.ends_with("/recon-actions") && {
                        let path = world.fill(&people, "/api/v1/battles/{scenario_battle}/scenario");
                        let view: Value = app.get_with_token(&path, &people.owner.token).json().unwrap();
                        view["state"] != "recon"
                    };
                    (!recon_closed).then_some(case)
                })
                .expect("a recon phase in six tries");
            replays(app, &case, &format!("{} {}", row.method, row.path));
            covered.insert(op);
        }
        let skipped: BTreeSet<(String, String)> = NOT_REACHED.iter().map(|(m, p, _)| (m.to_string(), shape(p))).collect();
        let missing: Vec<_> = documented.difference(&covered).filter(|op| !exempt.contains(*op) && !skipped.contains(*op)).collect();
        assert!(missing.is_empty(), "writes no case sends twice: {missing:?}");
    }

    fn a_ledger_adjustment_sent_twice_with_one_key_is_one_entry(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let case = Case {
            method: "POST",
            path: format!("/api/v1/forces/{}/ledger", world.force_id),
            body: Some(json!({"kind": "earned", "amount": 3, "note": "prize"}).to_string()),
            token: Some(people.organiser.token.clone()),
        };
        replays(app, &case, "add_ledger_entry");
        let ledger: Value = app
            .get_with_token(&format!("/api/v1/forces/{}/ledger", world.force_id), &people.organiser.token)
            .json()
            .unwrap();
        let adjustments: Vec<&Value> = ledger["entries"].as_array().unwrap().iter().filter(|e| e["cause_kind"] == "adjustment").collect();
        assert_eq!(adjustments.len(), 1, "{ledger}");
        assert_eq!(ledger["balance"], 3, "{ledger}");
        // A new key is a new adjustment.
        let other = case.send(app, "a new key", case.body.as_deref());
        assert_eq!(other.status(), 201);
    }

    fn a_key_with_a_failed_first_answer_may_be_sent_again(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let path = format!("/api/v1/forces/{}/ledger", world.force_id);
        let send_as = |user: &TestUser| {
            send(app.request(Method::POST, &path).bearer_auth(&user.token).header("Idempotency-Key", "once")
                .json(&json!({"kind": "earned", "amount": 1})))
        };
        // The owner may not adjust a ledger: nothing was done, so nothing is kept for the key.
        assert_problem(send_as(&people.owner), 403);
        assert_problem(send_as(&people.owner), 403);
        // Keys are per caller: the organiser's own use of the same key runs.
        assert_eq!(send_as(&people.organiser).status(), 201);
    }

    fn put_what_you_get_forces_campaigns_settings_and_the_account(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let owner = &people.owner.token;
        let organiser = &people.organiser.token;
        // (GET path, write method, token, the field to change, its new value)
        let cases = [
            (format!("/api/v1/forces/{}", world.force_id), Method::PUT, owner, "name", json!("Renamed Force")),
            (format!("/api/v1/campaigns/{}", world.campaign_id), Method::PATCH, organiser, "name", json!("Renamed Campaign")),
            (format!("/api/v1/campaigns/{}/settings", world.campaign_id), Method::PUT, organiser, "results_need_confirmation", json!(false)),
            ("/api/v1/me".to_owned(), Method::PATCH, owner, "display_name", json!("Renamed Owner")),
        ];
        for (path, method, token, field, value) in cases {
            let read = app.get_with_token(&path, token);
            let etag = read.headers().get("etag").map(|v| v.to_str().unwrap().to_owned());
            let mut body: Value = read.json().unwrap();
            body[field] = value.clone();
            let mut request = app.request(method.clone(), &path).bearer_auth(token).json(&body);
            if let Some(etag) = &etag {
                request = request.header("If-Match", etag);
            }
            let response = send(request);
            let status = response.status();
            let written: Value = response.json().unwrap();
            assert_eq!(status, 200, "{method} {path} with its GET: {written}");
            assert_eq!(written[field], value, "{method} {path}: {written}");
            // Read-only fields are ignored, not taken: a forged id or creation time changes
            // nothing.
            if body.get("id").is_some() {
                let read = app.get_with_token(&path, token);
                let etag = read.headers().get("etag").map(|v| v.to_str().unwrap().to_owned());
                let before: Value = read.json().unwrap();
                let mut forged = before.clone();
                forged["id"] = json!("forged");
                forged["created_at"] = json!("1999-01-01T00:00:00Z");
                let mut request = app.request(method.clone(), &path).bearer_auth(token).json(&forged);
                if let Some(etag) = &etag {
                    request = request.header("If-Match", etag);
                }
                let response = send(request);
                assert_eq!(response.status(), 200, "{method} {path} forged: {}", response.text().unwrap());
                let now: Value = app.get_with_token(&path, token).json().unwrap();
                assert_eq!(now["id"], before["id"], "{path}: the id is not writable");
                assert_eq!(now["created_at"], before["created_at"], "{path}: created_at is not writable");
            }
            // A field nobody defined is still refused, naming it.
            let mut unknown = app.get_with_token(&path, token).json::<Value>().unwrap();
            unknown["colour"] = json!("red");
            let response = send(app.request(method.clone(), &path).bearer_auth(token).json(&unknown));
            let problem = assert_problem(response, 422);
            assert_eq!(problem["errors"][0]["field"], "colour", "{path}: {problem}");
        }
    }

    fn the_documented_read_only_fields_are_marked(app: &TestApp) {
        let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
        let schemas = &doc["components"]["schemas"];
        for (schema, fields) in [
            ("ForceResponse", &["id", "points", "version", "created_at", "owner_name"][..]),
            ("CampaignResponse", &["id", "version", "created_at"][..]),
            ("ReplaceForceRequest", &["id", "points", "created_at", "owner_name"][..]),
        ] {
            for field in fields {
                let property = &schemas[schema]["properties"][field];
                assert_eq!(property["readOnly"], true, "{schema}.{field}: {property}");
            }
        }
    }

    fn s13_a_caller_without_permission_gets_403_or_404_whatever_the_body(app: &TestApp) {
        let people = People::register(app);
        let mut failures = Vec::new();
        for row in ROWS.iter().filter(|r| r.method != "GET" && r.body.is_some() && r.path.starts_with("/api/v1")) {
            let world = World::build(app, &people);
            for who in [Who::Outsider, Who::Player, Who::Owner] {
                let i = CALLERS.iter().position(|c| *c == who).unwrap();
                let expected = row.expect[i];
                if ![403, 404].contains(&expected) {
                    continue;
                }
                let method = Method::from_bytes(row.method.as_bytes()).unwrap();
                for bad in [r#"{"not_a_field": true}"#, r#"{"broken": "#] {
                    let response = send(
                        app.request(method.clone(), &world.fill(&people, row.path))
                            .bearer_auth(token_of(&people, who))
                            .header("content-type", "application/json")
                            .body(bad),
                    );
                    let status = response.status().as_u16();
                    if status != expected {
                        failures.push(format!("{} {} as {who:?} with {bad}: expected {expected}, got {status}: {}", row.method, row.path, response.text().unwrap_or_default()));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{} answers about the body first:\n{}", failures.len(), failures.join("\n"));
    }
}
