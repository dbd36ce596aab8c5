//! The request span reaches blocking work: what a request logs from the database's blocking
//! pool carries its request id, and a write's "created" line comes after its database work
//! (after the commit), under the same id.

use std::time::Duration;

use crate::auth::register;
use crate::common::TestApp;
use serde_json::json;

/// `text` without the terminal colour codes the log lines carry.
fn without_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An SGR sequence: ESC [ parameters m.
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

both_backends! {
    fn a_writes_log_lines_from_blocking_work_carry_its_request_id(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");

        // Act
        let response = app.post_json_with_token("/api/v1/campaigns", &json!({"name": "c"}), &alice.token);
        assert_eq!(response.status(), 201);
        let id = response.headers()["x-request-id"].to_str().unwrap().to_owned();
        std::thread::sleep(Duration::from_millis(200));

        // Assert
        let logs = without_colours(&app.logs());
        let lines: Vec<&str> = logs.lines().filter(|l| l.contains(&id)).collect();
        let db_work = lines
            .iter()
            .position(|l| l.contains("fad_api::db: database work finished writer=true"))
            .unwrap_or_else(|| panic!("no database write line with request id {id}:\n{logs}"));
        let created = lines
            .iter()
            .position(|l| l.contains("Created campaign"))
            .unwrap_or_else(|| panic!("no creation line with request id {id}:\n{logs}"));
        assert!(db_work < created, "the creation is logged before the commit:\n{}", lines.join("\n"));
    }
}
