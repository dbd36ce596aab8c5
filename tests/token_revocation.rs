//! a password change ends every credential issued before it (web
//! sessions, API access tokens and the battle page's live stream), and the password-change
//! form spends the same per-address budget as sign-in, so a stolen session cannot guess the
//! current password faster than the login form allows.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use serde_json::json;

use crate::auth::{PASSWORD, login};
use crate::campaigns::{People, World};
use crate::common::{TestApp, send};
use crate::web_pages::Browser;

const NEW_PASSWORD: &str = "a brand new passphrase 42";

/// Opens `path` as an event stream with `browser`'s cookies; the receiver disconnects when the
/// server ends the stream.
fn open_stream(browser: &Browser<'_>, path: &str) -> mpsc::Receiver<String> {
    let response = send(
        Client::builder()
            .build()
            .unwrap()
            .get(browser.app.url(path))
            .header("cookie", browser.cookie_header()),
    );
    assert_eq!(response.status(), 200, "GET {path}");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(response).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Posts the password form of `browser`'s account.
fn change_password(browser: &mut Browser<'_>, current: &str, new: &str) -> Response {
    let (_, token) = browser.page("/account");
    browser.post(
        "/account/password",
        &[
            ("csrf_token", token.as_str()),
            ("current_password", current),
            ("new_password", new),
        ],
    )
}

/// Waits until the stream behind `rx` ends, at most `limit`.
fn ended_within(rx: &mpsc::Receiver<String>, limit: Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(_) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return true,
            Err(mpsc::RecvTimeoutError::Timeout) => return false,
        }
    }
}

both_backends! {
    fn i27_a_password_change_refuses_older_access_tokens_and_ends_live_streams(app: &TestApp) {
        // Arrange: two tokens and two browser sessions of the organiser; one session watches
        // a battle's live stream.
        let people = People::register(app);
        let world = World::build(app, &people);
        let first = people.organiser.token.clone();
        let second = login(app, "organiser", PASSWORD);
        for token in [&first, &second] {
            assert_eq!(app.get_with_token("/api/v1/me", token).status(), 200);
        }
        let watcher = Browser::signed_in(app, "organiser");
        let stream = open_stream(&watcher, &format!("/battles/{}/events", world.battle_id));
        assert!(!ended_within(&stream, Duration::from_millis(1500)), "the stream ended by itself");
        let mut changer = Browser::signed_in(app, "organiser");

        // Act
        let changed = change_password(&mut changer, PASSWORD, NEW_PASSWORD);

        // Assert: every token issued before is refused, for reads and writes; the stream ends.
        assert_eq!(changed.status(), 303, "{}", changed.text().unwrap());
        for token in [&first, &second] {
            let me = app.get_with_token("/api/v1/me", token);
            assert_eq!(me.status(), 401, "an old token still reads");
            let write = app.post_json_with_token("/api/v1/campaigns", &json!({"name": "After"}), token);
            assert_eq!(write.status(), 401, "an old token still writes");
        }
        assert!(ended_within(&stream, Duration::from_secs(5)), "the live stream kept going");
        let fresh = login(app, "organiser", NEW_PASSWORD);
        assert_eq!(app.get_with_token("/api/v1/me", &fresh).status(), 200);
        // Another account's token is untouched.
        assert_eq!(app.get_with_token("/api/v1/me", &people.player.token).status(), 200);
    }
}

/// A server whose sign-in budget is a burst of 4 and then one a minute.
struct TightSignIn(TestApp);

impl crate::common::Fixture for TightSignIn {
    fn create(backend: crate::common::Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[
                ("FAD_AUTH_RATE_PER_MINUTE", "1"),
                ("FAD_AUTH_RATE_BURST", "4"),
            ],
        ))
    }
}

both_backends! {
    fn i27_the_password_form_spends_the_sign_in_budget(t: &TightSignIn) {
        // Arrange: registration and sign-in spend three of the four.
        let app = &t.0;
        crate::auth::register(app, "guesser");
        let mut browser = Browser::signed_in(app, "guesser");

        // Act: 60 wrong current passwords, then the right one.
        let statuses: Vec<u16> = (0..60)
            .map(|i| change_password(&mut browser, &format!("guess number {i}"), NEW_PASSWORD).status().as_u16())
            .collect();
        let right = change_password(&mut browser, PASSWORD, NEW_PASSWORD);

        // Assert: one guess within the budget, then the form's error with 429.
        assert_eq!(statuses[0], 422, "{statuses:?}");
        assert!(statuses[1..].iter().all(|s| *s == 429), "{statuses:?}");
        assert_eq!(right.status(), 429, "the right password is not told apart once the budget is spent");
        let wait: u64 = right.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        let page = right.text().unwrap();
        assert!(page.contains("Too many attempts") && page.contains("<main"), "{page}");
        // Nothing changed: the old password still signs in (once the budget allows).
        assert!(browser.cookies.contains_key("fad_session"), "the session survived");
    }
}
