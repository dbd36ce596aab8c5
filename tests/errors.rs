//! Framework-level errors are problem+json: unknown routes, wrong methods. (Body errors (400,
//! 413, 415, 422) are pinned in-process in `api/src/lib.rs` tests until a JSON route exists;
//! each resource's tests cover its own bodies.)

use crate::common::*;
use reqwest::Method;

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
