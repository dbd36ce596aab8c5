//! Framework-level errors are problem+json: unknown routes, wrong methods, and request bodies
//! that are malformed (400), too large (413), not JSON (415) or the wrong shape (422), shown on a
//! real JSON route. (`api/src/lib.rs` tests pin the same for both JSON extractors in-process.)

use crate::common::*;
use reqwest::Method;

/// A JSON route that exists without authentication.
const JSON_ROUTE: &str = "/api/v1/auth/register";

both_backends! {
    fn unknown_route_is_404_problem_json(app: &TestApp) {
        let body = assert_problem(app.get("/api/v1/no-such-thing"), 404);
        assert_eq!(body["title"], "Not Found");
        assert_eq!(body["detail"], "No route for GET /api/v1/no-such-thing.");
    }

    fn wrong_method_is_405_problem_json_with_allow(app: &TestApp) {
        // Act
        let response = send(app.request(Method::DELETE, "/health"));
        // Assert
        assert_eq!(response.headers()["allow"], "GET");
        let body = assert_problem(response, 405);
        assert_eq!(body["detail"], "DELETE is not allowed here; allowed: GET");
    }

    fn post_with_a_json_body_to_a_get_route_is_405_not_500(app: &TestApp) {
        let response = app.post_json("/ready", &serde_json::json!({"x": 1}));
        assert_problem(response, 405);
    }
}

#[test]
fn request_body_errors_are_problem_json_on_a_real_route() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        // Arrange: a small limit so the oversized body still fits in socket buffers.
        let app = TestApp::spawn_with(backend, &[("FAD_BODY_LIMIT", "1024")]);
        let post = |content_type: &str, body: String| {
            send(
                app.request(Method::POST, JSON_ROUTE)
                    .header("content-type", content_type)
                    .body(body),
            )
        };
        let json = "application/json";
        // Act + Assert
        let malformed = assert_problem(post(json, r#"{"username":"#.into()), 400);
        assert!(
            malformed["detail"]
                .as_str()
                .unwrap()
                .starts_with("Malformed JSON"),
            "{malformed}"
        );
        assert_problem(
            post("text/plain", r#"{"username":"a","password":"b"}"#.into()),
            415,
        );
        let big = format!(r#"{{"username":"a","password":"{}"}}"#, "x".repeat(4096));
        assert_problem(post(json, big), 413);
        let wrong_type = assert_problem(post(json, r#"{"username":5,"password":"b"}"#.into()), 422);
        assert_eq!(wrong_type["errors"][0]["field"], "username", "{wrong_type}");
    }
}
