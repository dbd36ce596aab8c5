//! Password strength: registration and `set-password` refuse passwords that are easy to guess
//! (zxcvbn score below 3, the username counting as known) with a 422 on `password` (or a failed
//! command) that says why in plain words.

use std::io::Write;
use std::process::{Output, Stdio};

use crate::auth::{PASSWORD, login, register};
use crate::common::{TestApp, assert_problem, command};
use serde_json::json;

/// Runs `set-password` for `username` against the app's database with `password` on stdin.
fn set_password(app: &TestApp, username: &str, password: &str) -> Output {
    let mut child = command(&["set-password", "--username", username])
        .env("DATABASE_URL", app.db.url())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{password}\n").as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

both_backends! {
    fn weak_passwords_are_refused_at_registration_with_advice_on_password(app: &TestApp) {
        // Arrange: each long enough, none hard to guess.
        let cases = [
            ("alice", "          "),
            ("bob", "aaaaaaaaaa"),
            ("carol", "password1234"),
            ("dave", "qwertyuiop"),
            ("gandalf-the-grey", "gandalf-the-grey"),
            ("gandalf-the-white", "Gandalf-The-White1"),
        ];

        for (username, password) in cases {
            // Act
            let response = app.post_json(
                "/api/v1/auth/register",
                &json!({"username": username, "password": password}),
            );

            // Assert
            let problem = assert_problem(response, 422);
            let errors = problem["errors"].as_array().unwrap();
            assert_eq!(errors.len(), 1, "{problem}");
            assert_eq!(errors[0]["field"], "password", "{problem}");
            let message = errors[0]["message"].as_str().unwrap();
            assert!(message.starts_with("is too easy to guess. "), "{password:?}: {message}");
            assert!(message.len() > 40, "advice expected: {message}");
        }
        let me = register(app, "alice");
        assert_eq!(me.username, "alice", "a strong password is accepted");
    }

    fn set_password_refuses_a_weak_password_and_keeps_the_old_one(app: &TestApp) {
        // Arrange
        register(app, "erin");

        // Act
        let weak = set_password(app, "erin", "erin-erin-erin");
        let strong = set_password(app, "erin", "plum kettle orbit saffron");

        // Assert
        assert!(!weak.status.success(), "a weak password was set");
        let stderr = String::from_utf8_lossy(&weak.stderr);
        assert!(stderr.contains("password: is too easy to guess."), "{stderr}");
        assert!(strong.status.success(), "{}", String::from_utf8_lossy(&strong.stderr));
        assert_eq!(app.post_json("/api/v1/auth/login", &json!({"username": "erin", "password": PASSWORD})).status(), 401);
        login(app, "erin", "plum kettle orbit saffron");
    }
}
