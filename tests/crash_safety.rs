//! Crash safety: `kill -9` the server while post-battle sequences are being
//! rolled and finalized in parallel and other rosters are being edited, restart a server on the
//! same database, and check the data ([`crate::invariants::check`]): every sequence fully
//! finalized or untouched, ledgers adding up, histories replaying to the rosters. Also: every
//! write the server acknowledged before the kill survived it, and a roll or finalize retried
//! with its `Idempotency-Key` after the restart succeeds exactly once, whether or not the
//! killed server had committed it: the dice a client was shown are the dice committed, never
//! rolled again. On PostgreSQL and on SQLite (WAL).

use crate::common::{Backend, Server, TestDb};
use crate::fleet::{self, Http};
use crate::invariants;
use diesel::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Battles between two player forces: 2 sequences each.
const BATTLES: usize = 20;
/// Server kills; one more round then finishes the work on a server left running.
const KILLS: usize = 3;
/// Client threads rolling and finalizing.
const FINALIZERS: usize = 6;
/// Client threads editing other forces all along.
const EDITORS: usize = 2;

/// One sequence: (battle id, force id).
type Item = (String, String);

/// The roll log each sequence's client was shown by its `roll` answer.
type Told = Arc<Mutex<BTreeMap<Item, Value>>>;

fn key(step: &str, item: &Item) -> String {
    format!("crash-{step}-{}-{}", item.0, item.1)
}

/// What one round of traffic did.
#[derive(Default)]
struct Round {
    /// Rolls answered 200.
    rolled: usize,
    /// Finalizes answered 200.
    finalized: Vec<Item>,
    /// Steps sent but unanswered (the server died): committed or not, unknown.
    in_doubt: Vec<Item>,
    /// Edits answered 200: (force id, version, name).
    edits: Vec<(String, i64, String)>,
    /// Answers other than 200 (should be none), or the kill's absence.
    unexpected: Vec<String>,
}

/// Runs the sequences in `queue` to the end (roll unless `told` has its rolls, then finalize)
/// and edits `bystanders` against `http`. When `kill_after` is set, `kill -9`s the server once
/// that many steps were answered, mid-traffic.
fn traffic(
    http: &Http,
    token: &str,
    told: &Told,
    queue: Vec<Item>,
    bystanders: &[String],
    server: &mut Server,
    kill_after: Option<usize>,
) -> (Round, Vec<Item>) {
    let queue = Arc::new(Mutex::new(VecDeque::from(queue)));
    let round = Arc::new(Mutex::new(Round::default()));
    let answered = Arc::new(AtomicUsize::new(0));
    let dead = Arc::new(AtomicBool::new(false));
    let finalizers_done = Arc::new(AtomicUsize::new(0));
    let mut handles = Vec::new();
    for _ in 0..FINALIZERS {
        let (http, token, told, queue, round, answered, dead, done) = (
            http.clone(),
            token.to_owned(),
            Arc::clone(told),
            Arc::clone(&queue),
            Arc::clone(&round),
            Arc::clone(&answered),
            Arc::clone(&dead),
            Arc::clone(&finalizers_done),
        );
        handles.push(thread::spawn(move || {
            while !dead.load(Ordering::SeqCst) {
                let Some(item) = queue.lock().unwrap().pop_front() else {
                    break;
                };
                let shown = told.lock().unwrap().get(&item).cloned();
                let step = if shown.is_some() { "finalize" } else { "roll" };
                let path = fleet::step(&item.0, &item.1, step);
                let key = key(step, &item);
                match http.try_call(
                    Method::POST,
                    &path,
                    Some(&token),
                    Some(&fleet::step_body(step)),
                    Some(&key),
                ) {
                    Ok((200, body)) if step == "roll" && body["stage"] == "rolled" => {
                        told.lock()
                            .unwrap()
                            .insert(item.clone(), body["outcome"]["rolls"].clone());
                        round.lock().unwrap().rolled += 1;
                        answered.fetch_add(1, Ordering::SeqCst);
                        queue.lock().unwrap().push_back(item);
                    }
                    Ok((200, body)) if body["stage"] == "finalized" => {
                        let mut round = round.lock().unwrap();
                        if Some(&body["outcome"]["rolls"]) != shown.as_ref() {
                            round.unexpected.push(format!(
                                "finalize {item:?} committed other dice than its roll showed: {body}"
                            ));
                        }
                        round.finalized.push(item);
                        answered.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok((status, body)) => round
                        .lock()
                        .unwrap()
                        .unexpected
                        .push(format!("{step} {item:?}: {status} {body}")),
                    Err(_) => {
                        dead.store(true, Ordering::SeqCst);
                        round.lock().unwrap().in_doubt.push(item);
                    }
                }
            }
            done.fetch_add(1, Ordering::SeqCst);
        }));
    }
    for force_id in bystanders {
        let (http, token, round, dead, done, force_id) = (
            http.clone(),
            token.to_owned(),
            Arc::clone(&round),
            Arc::clone(&dead),
            Arc::clone(&finalizers_done),
            force_id.clone(),
        );
        handles.push(thread::spawn(move || {
            let path = format!("/api/v1/forces/{force_id}");
            let mut force = http.get_ok(&path, &token);
            let mut n = 0;
            while !dead.load(Ordering::SeqCst) && done.load(Ordering::SeqCst) < FINALIZERS {
                n += 1;
                let name = format!("{} e{n}", &force_id[..8]);
                let body = fleet::edit_body(&force, &name, 1 + n % 6);
                match http.try_call(Method::PUT, &path, Some(&token), Some(&body), None) {
                    Ok((200, updated)) => {
                        round.lock().unwrap().edits.push((
                            force_id.clone(),
                            updated["version"].as_i64().unwrap(),
                            name,
                        ));
                        force = updated;
                    }
                    Ok((status, body)) => {
                        round
                            .lock()
                            .unwrap()
                            .unexpected
                            .push(format!("edit {force_id}: {status} {body}"));
                        break;
                    }
                    Err(_) => dead.store(true, Ordering::SeqCst),
                }
            }
        }));
    }
    if let Some(kill_after) = kill_after {
        let deadline = Instant::now() + Duration::from_secs(120);
        while answered.load(Ordering::SeqCst) < kill_after && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        let status = server.signal_and_wait("KILL", Duration::from_secs(10));
        assert!(status.is_some(), "the server survived kill -9");
    }
    for handle in handles {
        handle.join().unwrap();
    }
    let mut round = Arc::try_unwrap(round).ok().unwrap().into_inner().unwrap();
    if kill_after.is_some() && !dead.load(Ordering::SeqCst) {
        round
            .unexpected
            .push("the kill came after the traffic ended".to_owned());
    }
    let left = queue.lock().unwrap().drain(..).collect();
    (round, left)
}

/// The name in a force's history snapshot at `version` (read in the database).
fn name_at(db: &TestDb, force_id: &str, version: i64) -> Option<String> {
    use fad_api::schema::force_history as h;
    let snapshot: String = h::table
        .filter(h::force_id.eq(force_id))
        .filter(h::version.eq(version))
        .select(h::snapshot)
        .first(&mut db.connect())
        .optional()
        .expect("history query")?;
    serde_json::from_str::<Value>(&snapshot).ok()?["name"]
        .as_str()
        .map(str::to_owned)
}

fn stage(http: &Http, token: &str, item: &Item) -> String {
    let path = format!("/api/v1/battles/{}/aftermath/{}", item.0, item.1);
    http.get_ok(&path, token)["stage"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn kill_finalizing_servers_and_check_nothing_is_half_applied(backend: Backend) {
    // Arrange: battles in their aftermath, half of them rolled (server dice), and forces to
    // edit on the side.
    let db = TestDb::new(backend);
    let data_dir = tempfile::tempdir().unwrap();
    let mut server = fleet::spawn(&db, data_dir.path());
    let mut http = Http::new(&server);
    let (_, token) = fleet::user(&http, "organiser");
    let campaign = fleet::campaign(&http, &token, "Kill -9");
    let mut all = Vec::new();
    let told: Told = Arc::default();
    for i in 0..BATTLES {
        let a = fleet::force(&http, &token, &campaign, &format!("A{i}"));
        let b = fleet::force(&http, &token, &campaign, &format!("B{i}"));
        let battle = fleet::battle_in_aftermath(&http, &token, &campaign, &[&a, &b]);
        for force in [&a, &b] {
            let item = (battle.clone(), force["id"].as_str().unwrap().to_owned());
            if i % 2 == 0 {
                let path = fleet::step(&item.0, &item.1, "roll");
                let rolled = http.post_expect(&path, &token, &json!({}), 200);
                told.lock()
                    .unwrap()
                    .insert(item.clone(), rolled["outcome"]["rolls"].clone());
            }
            all.push(item);
        }
    }
    let bystanders: Vec<String> = (0..EDITORS)
        .map(|i| {
            fleet::force(&http, &token, &campaign, &format!("Edited {i}"))["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let before = invariants::check(&db);
    let ready = told.lock().unwrap().len();
    assert_eq!(ready, BATTLES);
    assert_eq!((before.finalized, before.unfinalized), (0, 2 * BATTLES));

    // Act and assert, round by round: traffic, kill -9, restart, check.
    let mut pending = all.clone();
    let mut acked: Vec<Item> = Vec::new();
    let mut edits: Vec<(String, i64, String)> = Vec::new();
    let (mut kills, mut doubtful, mut doubtful_committed, mut rolled) = (0, 0, 0, 0);
    for round_no in 0..=KILLS {
        let kill = round_no < KILLS;
        let steps: usize = {
            let told = told.lock().unwrap();
            pending
                .iter()
                .map(|i| if told.contains_key(i) { 1 } else { 2 })
                .sum()
        };
        let kill_after = kill.then(|| (steps / (KILLS + 1 - round_no)).max(1));
        let (round, left) = traffic(
            &http,
            &token,
            &told,
            pending,
            &bystanders,
            &mut server,
            kill_after,
        );
        assert!(
            round.unexpected.is_empty(),
            "round {round_no}: {:?}",
            round.unexpected
        );
        acked.extend(round.finalized.iter().cloned());
        rolled += round.rolled;
        edits.extend(round.edits.iter().cloned());
        pending = round.in_doubt.iter().cloned().chain(left).collect();
        if kill {
            kills += 1;
            drop(server);
            server = fleet::spawn(&db, data_dir.path());
            http = Http::new(&server);
        }

        // Whatever the server was doing when it died, the data is whole...
        let checked = invariants::check(&db);
        // ...and nothing it acknowledged is lost.
        for item in &acked {
            assert_eq!(
                stage(&http, &token, item),
                "finalized",
                "acknowledged {item:?}"
            );
        }
        let mut newest: BTreeMap<&str, (i64, &str)> = BTreeMap::new();
        for (force_id, version, name) in &edits {
            assert_eq!(
                name_at(&db, force_id, *version).as_deref(),
                Some(name.as_str()),
                "acknowledged edit of {force_id} at v{version}"
            );
            let slot = newest.entry(force_id).or_insert((0, name));
            if *version > slot.0 {
                *slot = (*version, name);
            }
        }
        for (force_id, (version, _)) in &newest {
            let force = http.get_ok(&format!("/api/v1/forces/{force_id}"), &token);
            assert!(force["version"].as_i64().unwrap() >= *version, "{force}");
        }
        for item in &round.in_doubt {
            doubtful += 1;
            // The step in doubt was the finalize if the roll had been answered, else the roll.
            let committed = if told.lock().unwrap().contains_key(item) {
                "finalized"
            } else {
                "rolled"
            };
            if stage(&http, &token, item) == committed {
                doubtful_committed += 1;
            }
        }
        eprintln!(
            "crash_safety[{backend:?}] round {round_no}: {} rolls and {} finalizes acknowledged, {} steps in doubt at the kill, {} edits; {checked:?}",
            round.rolled,
            round.finalized.len(),
            round.in_doubt.len(),
            round.edits.len()
        );
    }

    // Assert: everything finished exactly once; the battles are complete.
    assert!(pending.is_empty(), "{pending:?}");
    let end = invariants::check(&db);
    assert_eq!(
        (end.finalized, end.unfinalized),
        (2 * BATTLES, 0),
        "{end:?}"
    );
    let mut once = all.clone();
    once.sort();
    let mut done = acked.clone();
    done.sort();
    assert_eq!(done, once, "every sequence answered 200 exactly once");
    let battles = http.get_ok(&format!("/api/v1/campaigns/{campaign}/battles"), &token);
    let states: Vec<&str> = battles["battles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, vec!["complete"; BATTLES]);
    for item in &all {
        let path = format!("/api/v1/battles/{}/aftermath/{}", item.0, item.1);
        let committed = http.get_ok(&path, &token);
        assert_eq!(
            Some(&committed["outcome"]["rolls"]),
            told.lock().unwrap().get(item),
            "{item:?}: the committed dice are the ones its roll showed"
        );
        let (battle, force) = item;
        let ledger = http.get_ok(&format!("/api/v1/forces/{force}/ledger"), &token);
        let earned: Vec<&Value> = ledger["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "earned")
            .collect();
        assert_eq!(earned.len(), 1, "{battle}: {ledger}");
    }
    eprintln!(
        "crash_safety[{backend:?}]: {kills} kill -9 under load, {} sequences finalized exactly once \
         ({rolled} of them also rolled under load, never twice; {doubtful} steps in doubt at a kill, \
         {doubtful_committed} of them had committed), {} edits acknowledged and all found after \
         restarts; invariants hold: {end:?}",
        all.len(),
        edits.len()
    );
}

#[test]
fn kill_9_while_finalizing_on_postgres_leaves_every_sequence_whole_or_untouched() {
    kill_finalizing_servers_and_check_nothing_is_half_applied(Backend::Postgres);
}

#[test]
fn kill_9_while_finalizing_on_sqlite_leaves_every_sequence_whole_or_untouched() {
    kill_finalizing_servers_and_check_nothing_is_half_applied(Backend::Sqlite);
}
