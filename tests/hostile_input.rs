//! Hostile input: bodies over the limit, deeply nested JSON, huge arrays,
//! invalid UTF-8, wrong types in every field, unknown fields, negative and huge numbers, ids of
//! other campaigns and ids that are not ids. Each gets a problem+json answer and changes nothing
//! (the state seen through the API is the same before and after). SQL and HTML metacharacters
//! are stored and returned verbatim.
//!
//! Data-driven: [`TARGETS`] lists the endpoints that take a JSON body with a valid body; every
//! hostile variant is derived from it. A new endpoint is one more row. One keep-alive client
//! sends everything, so an answer given before the body was read must not break the next
//! request on the same connection.

use crate::auth::{TestUser, register};
use crate::campaigns::{create_campaign, create_key, invite_code};
use crate::common::{TestApp, assert_problem, send};
use reqwest::Method;
use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};
use std::time::Duration;

/// An endpoint that takes a JSON body: method, path (`{own}` = the caller's campaign, `{me}` =
/// the caller's user id), whether it needs the token, and a body it would accept.
struct Target {
    method: &'static str,
    path: &'static str,
    authenticated: bool,
    valid: fn() -> Value,
}

/// Every JSON-body endpoint on main. Add a row per new endpoint.
const TARGETS: &[Target] = &[
    Target {
        method: "POST",
        path: "/api/v1/auth/register",
        authenticated: false,
        valid: || json!({"username": "mallory", "password": "correct horse battery staple"}),
    },
    Target {
        method: "POST",
        path: "/api/v1/auth/login",
        authenticated: false,
        valid: || json!({"username": "alice", "password": "correct horse battery staple"}),
    },
    Target {
        method: "POST",
        path: "/api/v1/campaigns",
        authenticated: true,
        valid: || json!({"name": "Second", "description": "d", "results_need_confirmation": true}),
    },
    Target {
        method: "PATCH",
        path: "/api/v1/campaigns/{own}",
        authenticated: true,
        valid: || json!({"version": 1, "name": "Renamed", "description": "d"}),
    },
    Target {
        method: "PUT",
        path: "/api/v1/campaigns/{own}/settings",
        authenticated: true,
        valid: || {
            json!({"version": 1, "results_need_confirmation": false,
                         "house_rules": {"bank_campaign_points": false}})
        },
    },
    Target {
        method: "POST",
        path: "/api/v1/campaigns/{own}/invites",
        authenticated: true,
        valid: || json!({"max_uses": 3, "expires_in_seconds": 3600}),
    },
    Target {
        method: "POST",
        path: "/api/v1/campaigns/{own}/api-keys",
        authenticated: true,
        valid: || json!({"name": "club website"}),
    },
    Target {
        method: "POST",
        path: "/api/v1/campaigns/join",
        authenticated: true,
        valid: || json!({"code": "no-such-code"}),
    },
    Target {
        method: "POST",
        path: "/api/v1/campaigns/{own}/organiser",
        authenticated: true,
        valid: || json!({"user_id": "{me}"}),
    },
];

/// One hostile request body and the statuses it may get.
struct Hostile {
    label: String,
    body: Vec<u8>,
    content_type: &'static str,
    expect: &'static [u16],
}

/// The body limit the test servers run with (the default, `FAD_BODY_LIMIT`).
const BODY_LIMIT: usize = 256 * 1024;

/// Values of a different JSON type than `value`, plus numbers out of range for integers.
fn wrong_values(value: &Value) -> Vec<Value> {
    let mut wrong = vec![json!({"nested": [1, 2]}), json!([["a"]])];
    match value {
        Value::String(_) => wrong.extend([json!(12), json!(-1), json!(true), json!(1e308)]),
        Value::Bool(_) => wrong.extend([json!("true"), json!(1), json!(0)]),
        Value::Number(_) => wrong.extend([
            json!("1"),
            json!(true),
            json!(1.5),
            json!(-1),
            json!(0),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(-1e300),
        ]),
        Value::Object(_) => wrong.extend([json!("x"), json!(7), json!({"no_such_switch": true})]),
        _ => {}
    }
    wrong
}

/// The hostile variants of a valid body.
fn hostile_bodies(valid: &Value) -> Vec<Hostile> {
    let json_body = |label: String, value: &Value, expect: &'static [u16]| Hostile {
        label,
        body: serde_json::to_vec(value).unwrap(),
        content_type: "application/json",
        expect,
    };
    let raw = |label: &str, body: Vec<u8>, expect: &'static [u16]| Hostile {
        label: label.to_owned(),
        body,
        content_type: "application/json",
        expect,
    };
    let mut cases = vec![
        raw(
            "over the body limit",
            {
                let mut big = br#"{"name":""#.to_vec();
                big.resize(BODY_LIMIT + 1, b'a');
                big
            },
            &[413],
        ),
        // serde reports a type error (422) before it reaches a syntax error (400).
        raw(
            "deeply nested arrays",
            "[".repeat(100_000).into_bytes(),
            &[400, 422],
        ),
        raw(
            "deeply nested objects",
            "{\"a\":".repeat(20_000).into_bytes(),
            &[400, 422],
        ),
        raw(
            "huge top-level array",
            serde_json::to_vec(&vec![0_u8; 100_000]).unwrap(),
            &[400, 422],
        ),
        raw(
            "invalid UTF-8",
            b"{\"name\":\"\xff\xfe\xc3\x28\"}".to_vec(),
            &[400, 422],
        ),
        raw("truncated JSON", b"{\"name\":".to_vec(), &[400, 422]),
        raw("empty body", Vec::new(), &[400]),
        raw("a bare string", b"\"x\"".to_vec(), &[422]),
        raw("null", b"null".to_vec(), &[422]),
        Hostile {
            label: "form content type".to_owned(),
            body: b"name=x".to_vec(),
            content_type: "application/x-www-form-urlencoded",
            expect: &[415],
        },
    ];
    let Value::Object(fields) = valid else {
        return cases;
    };
    let mut unknown = fields.clone();
    unknown.insert("is_admin".to_owned(), json!(true));
    cases.push(json_body(
        "unknown field".to_owned(),
        &Value::Object(unknown),
        &[422],
    ));
    for (key, value) in fields {
        for wrong in wrong_values(value) {
            let mut body = fields.clone();
            body.insert(key.clone(), wrong.clone());
            // Numbers in range may be a valid type but a wrong value: stale version 409,
            // or out of range 422.
            let expect: &'static [u16] = if wrong.is_i64() || wrong.is_u64() {
                &[400, 409, 422]
            } else {
                &[400, 422]
            };
            cases.push(json_body(
                format!("{key} = {wrong}"),
                &Value::Object(body),
                expect,
            ));
        }
        let mut huge = fields.clone();
        huge.insert(key.clone(), json!(vec![1; 50_000]));
        cases.push(json_body(
            format!("{key} = huge array"),
            &Value::Object(huge),
            &[400, 422],
        ));
        let mut nul = fields.clone();
        nul.insert(key.clone(), json!("nul\u{0}text"));
        cases.push(json_body(
            format!("{key} = text with NUL"),
            &Value::Object(nul),
            &[422],
        ));
    }
    cases
}

/// What the API shows of the world: everything a hostile request could have changed.
fn snapshot(app: &TestApp, alice: &TestUser, bob: &TestUser, own: &str, other: &str) -> Value {
    let get = |path: String, token: &str| -> Value {
        let response = app.get_with_token(&path, token);
        let status = response.status().as_u16();
        json!({"path": path, "status": status, "body": response.json::<Value>().unwrap_or(Value::Null)})
    };
    let mallory = app.post_json(
        "/api/v1/auth/login",
        &json!({"username": "mallory", "password": "correct horse battery staple"}),
    );
    json!([
        get("/api/v1/me".into(), &alice.token),
        get("/api/v1/campaigns".into(), &alice.token),
        get("/api/v1/campaigns".into(), &bob.token),
        get(format!("/api/v1/campaigns/{own}"), &alice.token),
        get(format!("/api/v1/campaigns/{own}/settings"), &alice.token),
        get(format!("/api/v1/campaigns/{own}/members"), &alice.token),
        get(format!("/api/v1/campaigns/{own}/invites"), &alice.token),
        get(format!("/api/v1/campaigns/{own}/api-keys"), &alice.token),
        get(format!("/api/v1/campaigns/{other}"), &bob.token),
        get(format!("/api/v1/campaigns/{other}/settings"), &bob.token),
        get(format!("/api/v1/campaigns/{other}/invites"), &bob.token),
        get(format!("/api/v1/campaigns/{other}/api-keys"), &bob.token),
        mallory.status().as_u16(),
    ])
}

/// A keep-alive client that every hostile request goes through.
fn keep_alive_client() -> Client {
    Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(1)
        .build()
        .unwrap()
}

/// Sends one hostile request and checks the answer; returns a failure description.
fn check(
    client: &Client,
    app: &TestApp,
    request: (&str, &str, Option<&str>),
    hostile: &Hostile,
) -> Option<String> {
    let (method, path, token) = request;
    let mut builder = client
        .request(
            Method::from_bytes(method.as_bytes()).unwrap(),
            app.url(path),
        )
        .header("Content-Type", hostile.content_type)
        .body(hostile.body.clone());
    if let Some(token) = token {
        builder = builder.bearer_auth(token);
    }
    let response = match builder.send() {
        Ok(response) => response,
        Err(e) => {
            return Some(format!(
                "{method} {path} [{}]: transport error {e}",
                hostile.label
            ));
        }
    };
    problem_failure(response, hostile.expect)
        .map(|why| format!("{method} {path} [{}]: {why}", hostile.label))
}

/// Why `response` is not a problem+json answer with one of `expect`, if it is not.
fn problem_failure(response: Response, expect: &[u16]) -> Option<String> {
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().unwrap_or_default();
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if !expect.contains(&status) {
        return Some(format!("status {status}, expected {expect:?}: {text}"));
    }
    if content_type != "application/problem+json" || body["status"] != status {
        return Some(format!("not problem+json ({content_type}): {text}"));
    }
    None
}

both_backends! {
    fn hostile_bodies_get_problem_answers_and_change_nothing(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let bob = register(app, "bob");
        let own = create_campaign(app, &alice, "Own")["id"].as_str().unwrap().to_owned();
        let other = create_campaign(app, &bob, "Other")["id"].as_str().unwrap().to_owned();
        invite_code(app, &alice, &own);
        create_key(app, &alice, &own);
        invite_code(app, &bob, &other);
        create_key(app, &bob, &other);
        let before = snapshot(app, &alice, &bob, &own, &other);
        let client = keep_alive_client();

        // Act
        let mut failures = Vec::new();
        let mut tried = 0;
        for target in TARGETS {
            let path = target.path.replace("{own}", &own);
            let valid = serde_json::to_string(&(target.valid)())
                .unwrap()
                .replace("{me}", &alice.id);
            let token = target.authenticated.then_some(alice.token.as_str());
            for hostile in hostile_bodies(&serde_json::from_str(&valid).unwrap()) {
                tried += 1;
                failures.extend(check(&client, app, (target.method, &path, token), &hostile));
                if target.authenticated {
                    // The same body without a token: 401 before the body is read.
                    let anonymous = Hostile { expect: &[401], ..hostile };
                    tried += 1;
                    failures.extend(check(&client, app, (target.method, &path, None), &anonymous));
                }
            }
        }
        let after = snapshot(app, &alice, &bob, &own, &other);

        // Assert
        assert!(failures.is_empty(), "{} of {tried} hostile requests failed:\n{}",
                failures.len(), failures.join("\n"));
        assert!(tried > 300, "only {tried} hostile requests");
        assert_eq!(before, after, "a hostile request changed something");
    }

    fn ids_of_other_campaigns_and_malformed_ids_get_404_and_change_nothing(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let bob = register(app, "bob");
        let own = create_campaign(app, &alice, "Own")["id"].as_str().unwrap().to_owned();
        let other = create_campaign(app, &bob, "Other")["id"].as_str().unwrap().to_owned();
        let (other_key, _) = create_key(app, &bob, &other);
        invite_code(app, &bob, &other);
        let other_invite = app
            .get_with_token(&format!("/api/v1/campaigns/{other}/invites"), &bob.token)
            .json::<Value>()
            .unwrap()["invites"][0]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let before = snapshot(app, &alice, &bob, &own, &other);
        let client = keep_alive_client();
        let bogus = [
            other.clone(),
            "not-a-uuid".to_owned(),
            "1%27%20OR%20%271%27%3D%271".to_owned(),
            "-1".to_owned(),
            "99999999999999999999999999".to_owned(),
            "%00".to_owned(),
            "x".repeat(5000),
            uuid::Uuid::nil().to_string(),
        ];

        // Act
        let mut failures = Vec::new();
        let mut tried = 0;
        for id in &bogus {
            let requests: Vec<(&str, String, Value)> = vec![
                ("GET", format!("/api/v1/campaigns/{id}"), Value::Null),
                ("PATCH", format!("/api/v1/campaigns/{id}"), json!({"version": 1, "name": "x"})),
                ("GET", format!("/api/v1/campaigns/{id}/settings"), Value::Null),
                ("PUT", format!("/api/v1/campaigns/{id}/settings"), json!({"version": 1})),
                ("GET", format!("/api/v1/campaigns/{id}/members"), Value::Null),
                ("GET", format!("/api/v1/campaigns/{id}/invites"), Value::Null),
                ("POST", format!("/api/v1/campaigns/{id}/invites"), json!({})),
                ("GET", format!("/api/v1/campaigns/{id}/api-keys"), Value::Null),
                ("POST", format!("/api/v1/campaigns/{id}/api-keys"), json!({"name": "k"})),
                ("POST", format!("/api/v1/campaigns/{id}/leave"), Value::Null),
                ("POST", format!("/api/v1/campaigns/{id}/organiser"),
                 json!({"user_id": alice.id})),
                ("GET", format!("/api/v1/campaigns/{id}/standings"), Value::Null),
                ("DELETE", format!("/api/v1/campaigns/{id}/members/{}", bob.id), Value::Null),
                ("DELETE", format!("/api/v1/campaigns/{own}/api-keys/{id}"), Value::Null),
                ("DELETE", format!("/api/v1/campaigns/{own}/invites/{id}"), Value::Null),
                ("DELETE", format!("/api/v1/campaigns/{own}/members/{id}"), Value::Null),
            ];
            for (method, path, body) in requests {
                tried += 1;
                let mut request = client
                    .request(Method::from_bytes(method.as_bytes()).unwrap(), app.url(&path))
                    .bearer_auth(&alice.token);
                if !body.is_null() {
                    request = request.json(&body);
                }
                let short = &path[..path.len().min(120)];
                match request.send() {
                    Ok(response) => failures.extend(
                        problem_failure(response, &[404]).map(|why| format!("{method} {short}: {why}")),
                    ),
                    Err(e) => failures.push(format!("{method} {short}: transport error {e}")),
                }
            }
        }
        for path in [
            format!("/api/v1/campaigns/{own}/api-keys/{other_key}"),
            format!("/api/v1/campaigns/{own}/invites/{other_invite}"),
            format!("/api/v1/campaigns/{other}/api-keys/{other_key}"),
            format!("/api/v1/campaigns/{other}/invites/{other_invite}"),
        ] {
            tried += 1;
            let response = send(client.delete(app.url(&path)).bearer_auth(&alice.token));
            failures.extend(problem_failure(response, &[404]).map(|why| format!("DELETE {path}: {why}")));
        }
        let after = snapshot(app, &alice, &bob, &own, &other);

        // Assert
        assert!(failures.is_empty(), "{} of {tried} requests failed:\n{}",
                failures.len(), failures.join("\n"));
        assert_eq!(before, after, "a request with a foreign or malformed id changed something");
    }

    fn sql_and_html_metacharacters_are_stored_and_returned_verbatim(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let name = r#"Robert'); DROP TABLE campaigns;-- <script>alert("x")</script> & %_ \ ü 🚀"#;
        let description = "' OR '1'='1 <img src=x onerror=alert(1)> &amp; ${{7*7}} {{7*7}} \
                           \u{202e}rtl\u{200b} \n\t\"quoted\" \\back\\slash";

        // Act
        let created = app.post_json_with_token(
            "/api/v1/campaigns",
            &json!({"name": name, "description": description}),
            &alice.token,
        );
        assert_eq!(created.status(), 201);
        let id = created.json::<Value>().unwrap()["id"].as_str().unwrap().to_owned();
        let key = app.post_json_with_token(
            &format!("/api/v1/campaigns/{id}/api-keys"),
            &json!({"name": name}),
            &alice.token,
        );
        let read = app.get_with_token(&format!("/api/v1/campaigns/{id}"), &alice.token);
        let content_type = read.headers().get("content-type").unwrap().to_str().unwrap().to_owned();
        let read: Value = read.json().unwrap();
        let list: Value = app.get_with_token("/api/v1/campaigns", &alice.token).json().unwrap();
        let keys: Value = app
            .get_with_token(&format!("/api/v1/campaigns/{id}/api-keys"), &alice.token)
            .json()
            .unwrap();
        let injected_login = app.post_json(
            "/api/v1/auth/login",
            &json!({"username": "alice' OR '1'='1", "password": "' OR '1'='1"}),
        );

        // Assert
        assert_eq!(content_type, "application/json");
        assert_eq!(read["name"], name);
        assert_eq!(read["description"], description);
        assert_eq!(list["campaigns"].as_array().unwrap().len(), 1);
        assert_eq!(list["campaigns"][0]["name"], name);
        assert_eq!(key.status(), 201);
        assert_eq!(keys["api_keys"][0]["name"], name);
        assert_problem(injected_login, 401);
    }

    fn a_nul_character_in_text_is_refused_or_kept_never_a_server_error(app: &TestApp) {
        // Arrange: PostgreSQL text cannot hold U+0000; the answer must still be a 4xx or the
        // text verbatim, the same on both backends.
        let alice = register(app, "alice");

        // Act
        let created = app.post_json_with_token(
            "/api/v1/campaigns",
            &json!({"name": "nul\u{0}name", "description": "d\u{0}"}),
            &alice.token,
        );
        let registered = app.post_json(
            "/api/v1/auth/register",
            &json!({"username": "nul\u{0}", "password": "correct horse\u{0} battery"}),
        );

        // Assert
        assert_eq!(assert_problem(created, 422)["errors"][0]["field"], "description");
        assert_eq!(assert_problem(registered, 422)["errors"][0]["field"], "password");
        let list: Value = app.get_with_token("/api/v1/campaigns", &alice.token).json().unwrap();
        assert_eq!(list, json!({"campaigns": [], "next": null}));
    }

    fn a_keep_alive_client_survives_an_answer_given_before_the_body_was_read(app: &TestApp) {
        // Arrange: one pooled connection; a 401 comes from the auth extractor before the JSON
        // body is read (200 KiB: more than actix buffers, so the body is still arriving). Without
        // `Connection: close` the server drops the connection silently
        // and the next request on it fails.
        let alice = register(app, "alice");
        let client = keep_alive_client();
        let body = json!({"name": "x".repeat(200 * 1024)});

        // Act + Assert
        for round in 0..100 {
            let refused = client
                .post(app.url("/api/v1/campaigns"))
                .json(&body)
                .send()
                .unwrap_or_else(|e| panic!("round {round}: the refused POST failed: {e}"));
            assert_eq!(refused.status(), 401);
            assert_eq!(refused.headers().get("connection").unwrap(), "close");
            let _ = refused.bytes();
            let next = client
                .get(app.url("/api/v1/me"))
                .bearer_auth(&alice.token)
                .send()
                .unwrap_or_else(|e| panic!("round {round}: the request after the 401 failed: {e}"));
            assert_eq!(next.status(), 200, "round {round}");
        }
    }
}
