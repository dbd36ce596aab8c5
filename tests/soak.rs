//! Soak: one server process on PostgreSQL under a bounded, loopback-only load
//! of mixed reads and writes from several client threads (roster edits, whole battles with
//! their post-battle sequences, reads of forces, history, ledger, battles, standings, timeline
//! and odds). Zero errors, and the server's resident memory (`VmRSS`) grows by less than 10 %
//! between the end of the warm-up and the end of the run. Lasts `FAD_SOAK_SECS` seconds
//! (default 75; the first fifth is warm-up); the figures are printed for the issue notes.

use crate::common::{Backend, TestDb};
use crate::fleet::{self, Http};
use crate::invariants;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Client threads.
const CLIENTS: usize = 4;
/// Default length of the run.
const DEFAULT_SECS: u64 = 75;
/// Allowed RSS growth after warm-up.
const MAX_GROWTH: f64 = 0.10;

fn soak_secs() -> u64 {
    std::env::var("FAD_SOAK_SECS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|s| *s > 0)
        .unwrap_or(DEFAULT_SECS)
}

#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    writes: AtomicU64,
    errors: Mutex<Vec<String>>,
}

impl Tally {
    /// Counts one request; an answer other than `expected` is an error.
    fn expect(&self, what: &str, answer: Result<fleet::Answer, String>, expected: u16) -> Value {
        self.requests.fetch_add(1, Ordering::Relaxed);
        match answer {
            Ok((status, body)) if status == expected => body,
            Ok((status, body)) => {
                self.errors
                    .lock()
                    .unwrap()
                    .push(format!("{what}: {status} {body}"));
                Value::Null
            }
            Err(e) => {
                self.errors.lock().unwrap().push(format!("{what}: {e}"));
                Value::Null
            }
        }
    }
}

/// One client's loop, in epochs: a fresh campaign with one force of its own, edited and sent to
/// battle [`EPOCH`] times, with reads in between. Fresh campaigns keep every request's work
/// bounded (a campaign's battle list, timeline and standings grow with its battles), so the
/// server's memory should settle; a leak per request would still show.
fn client(http: &Http, token: &str, n: usize, stop: &AtomicBool, tally: &Tally) {
    let mut epoch = 0;
    while !stop.load(Ordering::SeqCst) {
        epoch += 1;
        let campaign = tally.expect(
            "campaign",
            http.try_call(
                Method::POST,
                "/api/v1/campaigns",
                Some(token),
                // Its owner edits Bravo's strength up and down between battles: rosters stay
                // open (the lock after play has its own tests).
                Some(
                    &json!({"name": format!("Soak {n}.{epoch}"), "lock_rosters_after_play": false}),
                ),
                None,
            ),
            201,
        );
        tally.writes.fetch_add(1, Ordering::Relaxed);
        let Some(campaign) = campaign["id"].as_str() else {
            continue;
        };
        run_epoch(http, token, campaign, n, stop, tally);
    }
}

/// Cycles per campaign.
const EPOCH: u64 = 12;

fn run_epoch(http: &Http, token: &str, campaign: &str, n: usize, stop: &AtomicBool, tally: &Tally) {
    let get = |path: &str| {
        tally.expect(
            path,
            http.try_call(Method::GET, path, Some(token), None, None),
            200,
        )
    };
    let post = |path: &str, body: &Value, expected: u16| {
        tally.writes.fetch_add(1, Ordering::Relaxed);
        tally.expect(
            path,
            http.try_call(Method::POST, path, Some(token), Some(body), None),
            expected,
        )
    };
    let mut force = post(
        &format!("/api/v1/campaigns/{campaign}/forces"),
        &fleet::roster(&format!("Soak {n}")),
        201,
    );
    let Some(force_id) = force["id"].as_str().map(str::to_owned) else {
        return;
    };
    let force_path = format!("/api/v1/forces/{force_id}");
    for cycle in 1..=EPOCH {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        // Reads.
        get(&force_path);
        get(&format!("{force_path}/history?limit=20"));
        get(&format!("{force_path}/ledger"));
        get(&format!("/api/v1/campaigns/{campaign}/forces"));
        get(&format!("/api/v1/campaigns/{campaign}/battles"));
        get(&format!("/api/v1/campaigns/{campaign}/standings"));
        let (stance, attitude) = [
            ("offensive", "aggressive"),
            ("neutral", "cautious"),
            ("defensive", "passive"),
        ][(cycle % 3) as usize];
        get(&format!(
            "/api/v1/odds/missions?stance={stance}&attitude={attitude}"
        ));
        get("/api/v1/me");
        // An edit from the current version (this client is the force's only writer).
        let body = fleet::edit_body(&force, &format!("Soak {n} c{cycle}"), 1 + cycle % 6);
        tally.writes.fetch_add(1, Ordering::Relaxed);
        let edited = tally.expect(
            "edit",
            http.try_call(Method::PUT, &force_path, Some(token), Some(&body), None),
            200,
        );
        if !edited.is_null() {
            force = edited;
        }
        // Every third cycle a whole battle: create, result, roll, reinforce, finalize.
        if cycle % 3 == 0 {
            let battle = post(
                &format!("/api/v1/campaigns/{campaign}/battles"),
                &json!({"sides": [{"force_id": force_id}, {"non_player": {"name": "Militia"}}]}),
                201,
            );
            let Some(battle_id) = battle["id"].as_str() else {
                continue;
            };
            let alpha = fleet::unit_id(&force, "Alpha");
            let lost = force_unit(&force, "Alpha")["strength"]
                .as_u64()
                .unwrap_or(0)
                .min(2);
            post(
                &format!("/api/v1/battles/{battle_id}/result"),
                &json!({"outcome": "draw", "losses": [{"unit_id": alpha, "figures_lost": lost}]}),
                200,
            );
            post(&fleet::step(battle_id, &force_id, "roll"), &json!({}), 200);
            get(&format!("/api/v1/battles/{battle_id}/aftermath/{force_id}"));
            post(
                &fleet::step(battle_id, &force_id, "reinforcements"),
                &json!({"allocations": []}),
                200,
            );
            post(
                &fleet::step(battle_id, &force_id, "finalize"),
                &json!({"forgo_reinforcements": true}),
                200,
            );
            get(&format!("/api/v1/battles/{battle_id}"));
            get(&format!("/api/v1/campaigns/{campaign}/timeline"));
            let fresh = get(&force_path);
            if !fresh.is_null() {
                force = fresh;
            }
        }
    }
}

fn force_unit<'a>(force: &'a Value, name: &str) -> &'a Value {
    force["platoons"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|p| p["units"].as_array().into_iter().flatten())
        .find(|u| u["name"] == name)
        .unwrap_or(&Value::Null)
}

#[test]
fn soak_on_postgres_mixed_reads_and_writes_without_errors_and_flat_memory() {
    // Arrange
    let secs = soak_secs();
    let warm_up = Duration::from_secs(secs / 5);
    let run = Duration::from_secs(secs);
    let db = TestDb::new(Backend::Postgres);
    let data_dir = tempfile::tempdir().unwrap();
    let server = fleet::spawn(&db, data_dir.path());
    let pid = server.pid();
    let http = Http::new(&server);
    let (_, token) = fleet::user(&http, "organiser");
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let rss_at_start = fleet::rss_kib(pid);

    // Act
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let (http, token, stop, tally) = (
                http.clone(),
                token.clone(),
                Arc::clone(&stop),
                Arc::clone(&tally),
            );
            thread::spawn(move || client(&http, &token, n, &stop, &tally))
        })
        .collect();
    thread::sleep(warm_up);
    let rss_warm = fleet::rss_kib(pid);
    let requests_warm = tally.requests.load(Ordering::Relaxed);
    let mut rss_peak = rss_warm;
    while started.elapsed() < run {
        thread::sleep(Duration::from_millis(500));
        rss_peak = rss_peak.max(fleet::rss_kib(pid));
    }
    let rss_end = fleet::rss_kib(pid);
    stop.store(true, Ordering::SeqCst);
    for c in clients {
        c.join().unwrap();
    }
    let elapsed = started.elapsed();

    // Assert
    let requests = tally.requests.load(Ordering::Relaxed);
    let writes = tally.writes.load(Ordering::Relaxed);
    let errors = tally.errors.lock().unwrap().clone();
    let growth = rss_end as f64 / rss_warm as f64 - 1.0;
    let checked = invariants::check(&db);
    eprintln!(
        "soak: {requests} requests ({writes} writes) in {:.0} s from {CLIENTS} threads, \
         {:.0} req/s, {} errors; RSS {rss_at_start} KiB at start, {rss_warm} KiB after warm-up \
         ({requests_warm} requests), {rss_end} KiB at the end (peak {rss_peak} KiB), growth {:+.1} %; \
         invariants hold: {checked:?}",
        elapsed.as_secs_f64(),
        requests as f64 / elapsed.as_secs_f64(),
        errors.len(),
        growth * 100.0
    );
    assert!(
        errors.is_empty(),
        "{} errors, first: {:?}",
        errors.len(),
        &errors[..errors.len().min(5)]
    );
    assert!(
        requests > 1000,
        "the load was too light to mean anything: {requests}"
    );
    assert!(
        growth < MAX_GROWTH,
        "RSS grew {:.1} % after warm-up ({rss_warm} → {rss_end} KiB)",
        growth * 100.0
    );
}
