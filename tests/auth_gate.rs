//! Authentication comes first, and private answers are never cached: a token of an account the
//! database does not have is 401 on every secured endpoint; an unknown or revoked key, an
//! expired token or no credentials at all is 401 on every write whatever its body; every
//! private answer (and every error) says `Cache-Control: no-store`.

use crate::auth::{PASSWORD, expired_token, forge, register};
use crate::authorization::ROWS;
use crate::campaigns::{People, World, create_campaign, create_key, get_with_api_key};
use crate::common::{TestApp, assert_problem, send};
use jsonwebtoken::Algorithm;
use reqwest::Method;
use reqwest::blocking::{RequestBuilder, Response};
use serde_json::{Value, json};

/// A token signed with the server's secret for an account id that does not exist (as after a
/// restore of an older backup with the same secret).
fn token_of_a_missing_account() -> String {
    let now = chrono::Utc::now().timestamp();
    forge(
        &json!({"sub": uuid::Uuid::new_v4().to_string(), "iat": now, "exp": now + 600,
                "iss": "fad-campaign", "aud": "fad-campaign|access"}),
        Algorithm::HS256,
    )
}

fn cache_control(response: &Response) -> String {
    response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// A request for a row's method and path, its placeholders filled.
fn request(
    app: &TestApp,
    people: &People,
    world: &World,
    method: &str,
    path: &str,
) -> RequestBuilder {
    app.request(
        Method::from_bytes(method.as_bytes()).unwrap(),
        &world.fill(people, path),
    )
}

both_backends! {
    fn a_token_of_an_account_that_does_not_exist_is_401_on_every_secured_endpoint(app: &TestApp) {
        // Arrange: valid bodies, so only the account can be wrong.
        let people = People::register(app);
        let world = World::build(app, &people);
        let token = token_of_a_missing_account();
        let secured = ROWS.iter().filter(|row| row.expect[0] == 401);

        // Act
        let mut failures = Vec::new();
        for row in secured {
            let mut builder = request(app, &people, &world, row.method, row.path).bearer_auth(&token);
            if let Some(body) = row.body {
                let body: Value = serde_json::from_str(&world.fill(&people, body)).unwrap();
                builder = builder.json(&body);
            }
            let response = send(builder);
            let status = response.status().as_u16();
            let content_type = response.headers().get("content-type").cloned();
            if status != 401 || content_type.is_none_or(|t| t != "application/problem+json") {
                failures.push(format!("{} {}: {status} {}", row.method, row.path, response.text().unwrap()));
            }
        }

        // Assert
        assert!(failures.is_empty(), "{} endpoints:\n{}", failures.len(), failures.join("\n"));
        let problem = assert_problem(app.get_with_token("/api/v1/me", &token), 401);
        assert_eq!(problem["detail"], "The account of this access token does not exist.");
    }

    fn every_write_refuses_bad_credentials_with_401_before_reading_a_malformed_body(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let unknown_key = format!("fad_{}", uuid::Uuid::new_v4().simple());
        let expired = expired_token(&people.organiser.id);
        let writes: Vec<_> = ROWS.iter().filter(|row| row.method != "GET").collect();
        assert!(writes.len() > 30, "the table lists the writes");

        // Act: each credential, each write, a body that is not JSON.
        let mut failures = Vec::new();
        for row in &writes {
            for (who, with) in [
                ("unknown key", Some(("X-Api-Key", unknown_key.clone()))),
                ("revoked key", Some(("X-Api-Key", world.revoked_key.clone()))),
                ("unknown key as bearer", Some(("Authorization", format!("Bearer {unknown_key}")))),
                ("expired token", Some(("Authorization", format!("Bearer {expired}")))),
                ("no credentials", None),
            ] {
                let mut builder = request(app, &people, &world, row.method, row.path)
                    .header("content-type", "application/json")
                    .body(r#"{"name": "#);
                if let Some((name, value)) = with {
                    builder = builder.header(name, value);
                }
                let response = send(builder);
                let status = response.status().as_u16();
                let content_type = response.headers().get("content-type").cloned();
                if status != 401 || content_type.is_none_or(|t| t != "application/problem+json") {
                    failures.push(format!("{} {} with {who}: {status}", row.method, row.path));
                }
            }
        }

        // Assert
        assert!(failures.is_empty(), "{} calls:\n{}", failures.len(), failures.join("\n"));
    }

    fn private_answers_and_errors_say_no_store_and_the_docs_may_be_cached(app: &TestApp) {
        // Arrange
        let register_response = app.post_json(
            "/api/v1/auth/register",
            &json!({"username": "alice", "password": PASSWORD}),
        );
        let login = app.post_json(
            "/api/v1/auth/login",
            &json!({"username": "alice", "password": PASSWORD}),
        );
        let bob = register(app, "bob");
        let campaign = create_campaign(app, &bob, "Winter");
        let id = campaign["id"].as_str().unwrap();
        let (_, key) = create_key(app, &bob, id);

        // Act
        let private = vec![
            ("register", register_response),
            ("login", login),
            ("me", app.get_with_token("/api/v1/me", &bob.token)),
            ("campaigns", app.get_with_token("/api/v1/campaigns", &bob.token)),
            ("forces", app.get_with_token(&format!("/api/v1/campaigns/{id}/forces"), &bob.token)),
            ("standings with a key", get_with_api_key(app, &format!("/api/v1/campaigns/{id}/standings"), &key)),
            ("401", app.get("/api/v1/me")),
            ("403", get_with_api_key(app, "/api/v1/me", &key)),
            ("404", app.get_with_token("/api/v1/forces/no-such-force", &bob.token)),
            ("422", app.post_json_with_token("/api/v1/campaigns", &json!({"name": ""}), &bob.token)),
            ("bad login", app.post_json("/api/v1/auth/login", &json!({"username": "bob", "password": "wrong"}))),
            ("health", app.get("/health")),
            ("unknown path", app.get("/no/such/path")),
        ];
        let docs = vec![
            ("openapi", app.get("/api-docs/openapi.json")),
            ("docs page", app.get("/docs/")),
        ];

        // Assert
        for (name, response) in private {
            assert_eq!(cache_control(&response), "no-store", "{name}: {}", response.status());
        }
        for (name, response) in docs {
            assert_eq!(response.status(), 200, "{name}");
            assert_eq!(cache_control(&response), "public, max-age=300", "{name}");
        }
    }
}
