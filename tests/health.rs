//! `/health`, `/ready`, request ids, graceful shutdown, and the database fault path.

use crate::common::*;
use std::time::Duration;

both_backends! {
    fn health_returns_200_ok(app: &TestApp) {
        // Act
        let response = app.get("/health");
        // Assert
        assert_eq!(response.status(), 200);
        assert_eq!(response.json::<serde_json::Value>().unwrap(), serde_json::json!({"status": "ok"}));
    }

    fn ready_returns_200_when_the_database_answers(app: &TestApp) {
        let response = app.get("/ready");
        assert_eq!(response.status(), 200);
        assert_eq!(response.json::<serde_json::Value>().unwrap(), serde_json::json!({"status": "ready"}));
    }

    fn every_response_carries_a_distinct_request_id(app: &TestApp) {
        // Arrange
        let id_of = |r: &reqwest::blocking::Response| {
            r.headers().get("x-request-id").expect("x-request-id header").to_str().unwrap().to_owned()
        };
        // Act
        let ok = app.get("/health");
        let not_found = app.get("/no/such/route");
        // Assert
        let (a, b) = (id_of(&ok), id_of(&not_found));
        assert_ne!(a, b);
        assert!(uuid::Uuid::parse_str(&a).is_ok(), "{a}");
    }

    fn one_log_line_per_request_names_method_path_status_and_request_id(app: &TestApp) {
        let response = app.get("/health");
        let id = response.headers()["x-request-id"].to_str().unwrap().to_owned();
        std::thread::sleep(Duration::from_millis(200));
        let logs = app.logs();
        let lines: Vec<&str> = logs.lines().filter(|l| l.contains(&id)).collect();
        assert_eq!(lines.len(), 1, "{logs}");
        assert!(lines[0].contains("GET /health 200"), "{}", lines[0]);
    }
}

#[test]
fn json_log_format_gives_one_json_object_per_request() {
    // Arrange
    let app = TestApp::spawn_with(Backend::Sqlite, &[("FAD_LOG_FORMAT", "json")]);
    // Act
    let response = app.get("/ready");
    let id = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    std::thread::sleep(Duration::from_millis(200));
    // Assert
    let logs = app.logs();
    let line = logs
        .lines()
        .find(|l| l.contains(&id) && l.contains("latency_ms"))
        .unwrap_or_else(|| panic!("no access line for {id}:\n{logs}"));
    let entry: serde_json::Value = serde_json::from_str(line).expect("access line is JSON");
    let fields = &entry["fields"];
    assert_eq!(fields["method"], "GET");
    assert_eq!(fields["path"], "/ready");
    assert_eq!(fields["status"], 200);
    assert_eq!(fields["request_id"], id.as_str());
    assert!(fields["latency_ms"].is_number());
}

fn assert_graceful_stop(signal: &str) {
    // Arrange
    let mut app = TestApp::spawn(Backend::Sqlite);
    // Act
    let status = app
        .server_mut()
        .signal_and_wait(signal, Duration::from_secs(15));
    // Assert
    let status = status.unwrap_or_else(|| panic!("no exit after SIG{signal}:\n{}", app.logs()));
    assert!(status.success(), "exit {status:?}:\n{}", app.logs());
    let logs = app.logs();
    assert!(logs.contains(&format!("SIG{signal} received")), "{logs}");
    assert!(logs.contains("stopped"), "{logs}");
}

#[test]
fn sigterm_stops_the_server_gracefully() {
    assert_graceful_stop("TERM");
}

#[test]
fn sigint_stops_the_server_gracefully() {
    assert_graceful_stop("INT");
}

#[test]
fn ready_is_503_while_the_database_is_gone_and_200_once_it_is_back() {
    // Arrange
    let app = TestApp::spawn(Backend::Postgres);
    let name = app.db.pg_name().unwrap().to_owned();
    assert_eq!(app.get("/ready").status(), 200);
    let mut admin = pg_admin();
    // Act: take the database away under the running server.
    diesel::RunQueryDsl::execute(
        diesel::sql_query(format!("DROP DATABASE {name} WITH (FORCE)")),
        &mut admin,
    )
    .unwrap();
    // Assert
    assert!(
        wait_for_status(&app, "/ready", 503, Duration::from_secs(20)),
        "/ready never answered 503:\n{}",
        app.logs()
    );
    let problem = assert_problem(app.get("/ready"), 503);
    assert_eq!(
        problem["detail"],
        "The database is unavailable; try again shortly."
    );
    assert_eq!(
        app.get("/health").status(),
        200,
        "liveness does not depend on the database"
    );
    // Act: bring it back.
    diesel::RunQueryDsl::execute(
        diesel::sql_query(format!("CREATE DATABASE {name}")),
        &mut admin,
    )
    .unwrap();
    // Assert
    assert!(
        wait_for_status(&app, "/ready", 200, Duration::from_secs(20)),
        "/ready never recovered:\n{}",
        app.logs()
    );
}
