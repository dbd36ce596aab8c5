//! Secrets stay secret: after a session of registration, logins (good and
//! bad), campaign and key creation, key use, invitations and a join, neither any response nor
//! any log line of the server (stdout and stderr, at debug level) contains the JWT secret, a
//! password, an access token, an integration key, an invitation code, or any stored password,
//! key or code hash.

use crate::auth::PASSWORD;
use crate::common::{TEST_JWT_SECRET, TestApp};
use diesel::prelude::*;
use reqwest::Method;
use reqwest::blocking::RequestBuilder;
use serde_json::{Value, json};
use std::cell::RefCell;

/// Sends requests and keeps every response's headers and body as text.
struct Recorder<'a> {
    app: &'a TestApp,
    seen: RefCell<Vec<String>>,
}

impl Recorder<'_> {
    fn send(&self, request: RequestBuilder) -> (u16, Value) {
        let response = request.send().unwrap();
        let status = response.status().as_u16();
        let headers = format!("{:?}", response.headers());
        let text = response.text().unwrap();
        self.seen.borrow_mut().push(format!("{headers}\n{text}"));
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn json(&self, method: Method, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let mut request = self.app.request(method, path).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request)
    }
}

/// Every value of `column` in `table` (hashes from the database).
fn column(app: &TestApp, sql: &str) -> Vec<String> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        value: String,
    }
    let mut conn = app.db.connect();
    diesel::sql_query(sql)
        .load::<Row>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|r| r.value)
        .collect()
}

both_backends! {
    fn secrets_and_hashes_appear_in_no_response_and_no_log_line(app: &TestApp) {
        // Arrange
        let rec = Recorder { app, seen: RefCell::new(Vec::new()) };
        let credentials = |name: &str, password: &str| json!({"username": name, "password": password});

        // Act: a session touching every secret.
        for name in ["alice", "bob"] {
            let (status, _) = rec.json(Method::POST, "/api/v1/auth/register", None, &credentials(name, PASSWORD));
            assert_eq!(status, 201);
        }
        let (_, alice) = rec.json(Method::POST, "/api/v1/auth/login", None, &credentials("alice", PASSWORD));
        let (_, bob) = rec.json(Method::POST, "/api/v1/auth/login", None, &credentials("bob", PASSWORD));
        let (wrong, _) = rec.json(Method::POST, "/api/v1/auth/login", None,
                                  &credentials("alice", "wrong password, typed twice"));
        let (short, _) = rec.json(Method::POST, "/api/v1/auth/register", None, &credentials("carol", "tooshort"));
        let alice_token = alice["access_token"].as_str().unwrap().to_owned();
        let bob_token = bob["access_token"].as_str().unwrap().to_owned();
        rec.send(app.request(Method::GET, "/api/v1/me").bearer_auth(&alice_token));
        rec.send(app.request(Method::GET, "/api/v1/me").bearer_auth(format!("{alice_token}x")));
        let (_, campaign) = rec.json(Method::POST, "/api/v1/campaigns", Some(&alice_token), &json!({"name": "c"}));
        let id = campaign["id"].as_str().unwrap().to_owned();
        let (_, key) = rec.json(Method::POST, &format!("/api/v1/campaigns/{id}/api-keys"),
                                Some(&alice_token), &json!({"name": "site"}));
        let key = key["key"].as_str().unwrap().to_owned();
        let (used, _) = rec.send(app.request(Method::GET, &format!("/api/v1/campaigns/{id}/standings"))
            .header("X-Api-Key", &key));
        rec.send(app.request(Method::GET, &format!("/api/v1/campaigns/{id}/standings"))
            .header("X-Api-Key", format!("{key}x")));
        rec.send(app.request(Method::GET, &format!("/api/v1/campaigns/{id}/settings"))
            .header("X-Api-Key", &key));
        rec.json(Method::GET, &format!("/api/v1/campaigns/{id}/api-keys"), Some(&alice_token), &json!({}));
        let (_, invite) = rec.json(Method::POST, &format!("/api/v1/campaigns/{id}/invites"),
                                   Some(&alice_token), &json!({}));
        let code = invite["code"].as_str().unwrap().to_owned();
        let (joined, _) = rec.json(Method::POST, "/api/v1/campaigns/join", Some(&bob_token), &json!({"code": code}));
        rec.json(Method::GET, &format!("/api/v1/campaigns/{id}/invites"), Some(&alice_token), &json!({}));
        rec.json(Method::GET, &format!("/api/v1/campaigns/{id}/members"), Some(&alice_token), &json!({}));
        std::thread::sleep(std::time::Duration::from_millis(300));

        // Assert
        assert_eq!((wrong, short, used, joined), (401, 422, 200, 201));
        let mut secrets = vec![
            ("the JWT secret".to_owned(), TEST_JWT_SECRET.to_owned()),
            ("a password".to_owned(), PASSWORD.to_owned()),
            ("a wrong password".to_owned(), "wrong password, typed twice".to_owned()),
            ("a refused password".to_owned(), "tooshort".to_owned()),
            ("an integration key".to_owned(), key.clone()),
            ("an invitation code".to_owned(), code.clone()),
        ];
        for token in [&alice_token, &bob_token] {
            // The signature is what makes a token a credential.
            let signature = token.rsplit('.').next().unwrap().to_owned();
            secrets.push(("an access token signature".to_owned(), signature));
        }
        for (what, sql) in [
            ("a password hash", "SELECT password_hash AS value FROM users"),
            ("a key hash", "SELECT key_hash AS value FROM api_keys"),
            ("an invitation code hash", "SELECT code_hash AS value FROM invites"),
        ] {
            let hashes = column(app, sql);
            assert!(!hashes.is_empty(), "no rows for {what}");
            for hash in hashes {
                // The last `$`-separated part is the digest itself (PHC strings) or the whole.
                let digest = hash.rsplit('$').next().unwrap().to_owned();
                secrets.push((what.to_owned(), hash));
                secrets.push((format!("{what} digest"), digest));
            }
        }
        let logs = app.logs();
        assert!(logs.contains("/api/v1/auth/login"), "the access log was captured:\n{logs}");
        let responses = rec.seen.borrow().join("\n");
        for (what, secret) in &secrets {
            assert!(secret.len() >= 8, "{what} is too short to search for: {secret}");
            for line in logs.lines() {
                assert!(!line.contains(secret.as_str()), "{what} in a log line: {line}");
            }
            // Credentials are shown only in the answers meant to show them; the rest never.
            let shown_once = ["an integration key", "an invitation code", "an access token signature"];
            let mut expected = usize::from(shown_once.contains(&what.as_str()));
            if what == "an invitation code" {
                // The code and its join URL, in the answer that issued them and again in the
                // organiser's list while the code still works (to copy and share it again).
                expected = 4;
            }
            assert_eq!(responses.matches(secret.as_str()).count(), expected, "{what} in responses");
        }
    }
}
