//! Live updates pushed, not polled: a battle page's stream wakes when its battle
//! changes, also when the change went through another server process on the same PostgreSQL
//! database, and the server says at start how many streams its open-file limit leaves room for.
//! The stream's secrecy (a side's secret choice sends the opponent nothing) is tested in
//! `web_battles` on both backends.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use reqwest::Method;
use reqwest::blocking::Client;
use serde_json::json;

use crate::campaigns::{People, World};
use crate::common::{Backend, Server, TestApp, send, serve_command};
use crate::fleet::{self, Http};
use crate::web_pages::Browser;

/// Opens `path` on `base` as an event stream with `browser`'s cookies; the receiver gets each
/// event's `data`.
fn listen(base: &str, browser: &Browser<'_>, path: &str) -> mpsc::Receiver<String> {
    let response = send(
        Client::builder()
            .build()
            .unwrap()
            .get(format!("{base}{path}"))
            .header("cookie", browser.cookie_header()),
    );
    assert_eq!(response.status(), 200, "GET {path}");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(response).lines() {
            let Ok(line) = line else { return };
            if let Some(data) = line.strip_prefix("data: ")
                && tx.send(data.to_owned()).is_err()
            {
                return;
            }
        }
    });
    rx
}

#[test]
fn a_change_through_one_process_reaches_a_viewer_on_another_within_a_second() {
    // Arrange: process A (the fixture's) and process B on the same database and secret; the
    // organiser watches the battle in aftermath through A.
    let a = TestApp::spawn(Backend::Postgres);
    let people = People::register(&a);
    let world = World::build(&a, &people);
    let b = Server::start(serve_command(a.db.url(), a.data_dir.path()))
        .unwrap_or_else(|f| panic!("process B did not start ({:?}):\n{}", f.status, f.output));
    let mut watcher = Browser::signed_in(&a, "organiser");
    let events = listen(
        a.base_url(),
        &watcher,
        &format!("/battles/{}/events", world.battle_id),
    );
    assert!(
        events.recv_timeout(Duration::from_millis(1500)).is_err(),
        "the stream spoke before anything changed"
    );

    // Act: the force's owner rolls its post-battle sequence through B.
    let (status, body) = Http::new(&b)
        .try_call(
            Method::POST,
            &fleet::step(&world.battle_id, &world.force_id, "roll"),
            Some(&people.owner.token),
            Some(&json!({})),
            None,
        )
        .unwrap();
    let committed = Instant::now();

    // Assert: A's stream has it within a second, with the page's new signature.
    assert_eq!(status, 200, "{body}");
    let signature = events
        .recv_timeout(Duration::from_secs(1))
        .unwrap_or_else(|_| panic!("no event on A within a second:\n{}", a.logs()));
    assert!(committed.elapsed() < Duration::from_secs(1));
    let (page, _) = watcher.page(&format!("/battles/{}", world.battle_id));
    let shown = page
        .split(r#"data-signature=""#)
        .nth(1)
        .and_then(|r| r.split('"').next());
    assert_eq!(
        Some(signature.as_str()),
        shown,
        "the event carries the page's new signature"
    );
    // And only once: nothing else changed.
    assert!(events.recv_timeout(Duration::from_millis(1500)).is_err());
}

both_backends! {
    fn the_start_log_says_how_many_streams_the_open_file_limit_allows(app: &TestApp) {
        let logs = app.logs_once(|l| l.contains("open-file limit"), Duration::from_secs(5));
        let line = logs.lines().find(|l| l.contains("open-file limit")).unwrap_or_else(|| panic!("{logs}"));
        assert!(line.contains("FAD_MAX_STREAMS=5000"), "{line}");
    }
}

/// Whether the stream behind `rx` ends within `limit` (its reader thread then drops the
/// sender).
fn ended_within(rx: &mpsc::Receiver<String>, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(_) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return true,
            Err(mpsc::RecvTimeoutError::Timeout) => return false,
        }
    }
}

both_backends! {
    /// nothing polls a stream's credential: revoking the personal token it was opened with
    /// wakes it, and it ends at once.
    fn revoking_a_personal_token_ends_the_streams_opened_with_it(app: &TestApp) {
        // Arrange: the owner's bot watches the battle with a personal token.
        let people = People::register(app);
        let world = World::build(app, &people);
        let (token_id, token) = crate::bots::make_token(app, &people.owner.token, &["read"]);
        let response = send(
            Client::builder()
                .build()
                .unwrap()
                .get(app.url(&format!("/battles/{}/events", world.battle_id)))
                .bearer_auth(&token),
        );
        assert_eq!(response.status(), 200);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(response).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        assert!(!ended_within(&rx, Duration::from_millis(1500)), "the stream ended by itself");

        // Act
        let revoked = app.delete_with_token(&format!("/api/v1/me/tokens/{token_id}"), &people.owner.token);

        // Assert
        assert!(revoked.status().is_success(), "{}", revoked.status());
        assert!(ended_within(&rx, Duration::from_secs(2)), "the stream outlived its token");
    }
}

both_backends! {
    /// A change of a battle is read once for all its streams, without checking each viewer's
    /// access again; so a member removed from the campaign must lose their stream at once, not
    /// at the battle's next change.
    fn removing_a_member_ends_their_battle_streams_at_once(app: &TestApp) {
        // Arrange: the player, a member who plays neither side, watches the battle.
        let people = People::register(app);
        let world = World::build(app, &people);
        let watcher = Browser::signed_in(app, "player");
        let events = listen(app.base_url(), &watcher, &format!("/battles/{}/events", world.battle_id));
        assert!(!ended_within(&events, Duration::from_millis(1500)), "the stream ended by itself");

        // Act: the organiser removes the player.
        let removed = app.delete_with_token(
            &format!("/api/v1/campaigns/{}/members/{}", world.campaign_id, people.player.id),
            &people.organiser.token,
        );

        // Assert
        assert!(removed.status().is_success(), "{}", removed.status());
        assert!(ended_within(&events, Duration::from_secs(2)), "a removed member still watched the battle");
    }
}
