//! Races across processes (the concurrent finalize among them): two server
//! processes on one PostgreSQL database, and the same conflicting write sent to both at the same
//! instant (threads released by one barrier), round after round:
//!
//! - the same force edited from the same version: exactly one 200, the other 409, and the
//!   winner's change is the one stored (no lost update, one history entry);
//! - the same post-battle sequence finalized (twice through each process): exactly one 200;
//! - the same `Idempotency-Key` (rolling a sequence, finalizing it, generating a force): one
//!   roll, one stored change, and every answer the same; with two different bodies: one roll,
//!   the other refused (422);
//! - an edit of a force against the finalize of its sequence, one force's sequences of two
//!   battles finalized at once, and two different results for one battle: exactly one wins,
//!   and the loser changed nothing;
//! - an organiser's ledger adjustment against a finalize: the outcome's campaign points agree
//!   with the ledger whichever commits first;
//! - battle scenario orders: both sides' orders at once both count, one side's
//!   orders from the same version twice: one wins; the closing orders twice (without and with
//!   one key): the step closes once and the table edge is rolled once per side.
//!
//! After all rounds the data invariants ([`crate::invariants::check`]) hold.

use crate::common::{Backend, Server, TestDb};
use crate::fleet::{self, Http};
use crate::invariants;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Barrier;
use std::thread;
use std::time::Instant;

/// Rounds per kind of race.
const ROUNDS: usize = 20;

/// Two servers on one fresh PostgreSQL database.
struct Pair {
    // Field order: the servers stop before the database is dropped.
    a: Server,
    b: Server,
    db: TestDb,
    _data_dir: tempfile::TempDir,
}

impl Pair {
    fn spawn() -> Self {
        let db = TestDb::new(Backend::Postgres);
        let data_dir = tempfile::tempdir().unwrap();
        let a = fleet::spawn(&db, data_dir.path());
        let b = fleet::spawn(&db, data_dir.path());
        assert_ne!(a.pid(), b.pid());
        Self {
            a,
            b,
            db,
            _data_dir: data_dir,
        }
    }

    /// Clients for process A and process B.
    fn clients(&self) -> [Http; 2] {
        [Http::new(&self.a), Http::new(&self.b)]
    }
}

/// Runs each request on its own thread, all released at once; answers in request order, and
/// whether they really overlapped (every one started before the first one was answered).
fn at_once(
    requests: Vec<Box<dyn FnOnce() -> fleet::Answer + Send + '_>>,
) -> (Vec<fleet::Answer>, bool) {
    let barrier = Barrier::new(requests.len());
    let timed: Vec<(Instant, fleet::Answer, Instant)> = thread::scope(|s| {
        let handles: Vec<_> = requests
            .into_iter()
            .map(|request| {
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    let start = Instant::now();
                    let answer = request();
                    (start, answer, Instant::now())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let last_start = timed.iter().map(|t| t.0).max().unwrap();
    let first_end = timed.iter().map(|t| t.2).min().unwrap();
    (
        timed.into_iter().map(|(_, answer, _)| answer).collect(),
        last_start < first_end,
    )
}

fn post<'a>(
    http: &'a Http,
    path: &'a str,
    token: &'a str,
    body: &'a Value,
    key: Option<&'a str>,
) -> Box<dyn FnOnce() -> fleet::Answer + Send + 'a> {
    Box::new(move || {
        http.try_call(Method::POST, path, Some(token), Some(body), key)
            .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    })
}

fn statuses(answers: &[fleet::Answer]) -> Vec<u16> {
    let mut s: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    s.sort_unstable();
    s
}

fn battle_entries(http: &Http, token: &str, force_id: &str, battle: &str) -> usize {
    let history = http.get_ok(&format!("/api/v1/forces/{force_id}/history"), token);
    history["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cause"]["kind"] == "battle" && e["cause"]["id"] == battle)
        .count()
}

fn earned_entries(http: &Http, token: &str, force_id: &str) -> usize {
    let ledger = http.get_ok(&format!("/api/v1/forces/{force_id}/ledger"), token);
    ledger["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "earned")
        .count()
}

#[test]
fn two_processes_on_one_postgres_each_conflicting_write_has_exactly_one_winner() {
    // Arrange
    let pair = Pair::spawn();
    let [a, b] = pair.clients();
    let (_, token) = fleet::user(&a, "organiser");
    let campaign = fleet::campaign(&a, &token, "Races");
    let token = token.as_str();
    let mut races = 0;
    let mut overlapping = 0;
    let mut scenario_races = 0;

    // Same force, same version, one edit through each process.
    let force = fleet::force(&a, token, &campaign, "Contested");
    let force_path = format!("/api/v1/forces/{}", force["id"].as_str().unwrap());
    for round in 0..ROUNDS {
        let current = b.get_ok(&force_path, token);
        let version = current["version"].as_i64().unwrap();
        let bodies = [
            fleet::edit_body(&current, &format!("r{round} via A"), 1 + round as u64 % 6),
            fleet::edit_body(&current, &format!("r{round} via B"), 6 - round as u64 % 6),
        ];
        let (answers, overlapped) = at_once(vec![
            Box::new(|| a.call(Method::PUT, &force_path, Some(token), Some(&bodies[0]))),
            Box::new(|| b.call(Method::PUT, &force_path, Some(token), Some(&bodies[1]))),
        ]);
        assert_eq!(statuses(&answers), [200, 409], "round {round}: {answers:?}");
        let winner = answers.iter().position(|(s, _)| *s == 200).unwrap();
        // Read through the process that lost: it sees the winner's change.
        let stored = [&a, &b][1 - winner].get_ok(&force_path, token);
        assert_eq!(
            stored["version"].as_i64(),
            Some(version + 1),
            "round {round}"
        );
        assert_eq!(stored["name"], bodies[winner]["name"], "round {round}");
        assert_eq!(
            crate::common::as_written(&stored),
            answers[winner].1,
            "round {round}: the stored force is the answer"
        );
        races += 1;
        overlapping += usize::from(overlapped);
    }
    let history = a.get_ok(&format!("{force_path}/history?limit=100"), token);
    assert_eq!(history["entries"].as_array().unwrap().len(), ROUNDS + 1);

    // Same sequence finalized twice through each process.
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Finalized {round}"));
        let force_id = force["id"].as_str().unwrap();
        let battle = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        b.post_expect(
            &fleet::step(&battle, force_id, "roll"),
            token,
            &json!({}),
            200,
        );
        let path = fleet::step(&battle, force_id, "finalize");
        let body = fleet::step_body("finalize");
        let (answers, overlapped) = at_once(vec![
            post(&a, &path, token, &body, None),
            post(&b, &path, token, &body, None),
            post(&a, &path, token, &body, None),
            post(&b, &path, token, &body, None),
        ]);
        assert_eq!(
            statuses(&answers),
            [200, 409, 409, 409],
            "round {round}: {answers:?}"
        );
        assert_eq!(
            battle_entries(&b, token, force_id, &battle),
            1,
            "round {round}"
        );
        assert_eq!(earned_entries(&a, token, force_id), 1, "round {round}");
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // Same Idempotency-Key through both processes: roll, then finalize.
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Keyed {round}"));
        let force_id = force["id"].as_str().unwrap();
        let battle = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        let body = json!({});
        let roll = fleet::step(&battle, force_id, "roll");
        let key = format!("roll-{round}");
        let (rolls, rolls_overlapped) = at_once(vec![
            post(&a, &roll, token, &body, Some(&key)),
            post(&b, &roll, token, &body, Some(&key)),
        ]);
        assert_eq!(statuses(&rolls), [200, 200], "round {round}: {rolls:?}");
        assert_eq!(
            rolls[0].1, rolls[1].1,
            "round {round}: one roll, one answer"
        );
        let read = b.get_ok(
            &format!("/api/v1/battles/{battle}/aftermath/{force_id}"),
            token,
        );
        assert_eq!(read["version"], 2, "round {round}: rolled once");
        assert_eq!(
            read["outcome"]["rolls"], rolls[0].1["rolls"],
            "round {round}"
        );
        let finalize = fleet::step(&battle, force_id, "finalize");
        let finalize_body = fleet::step_body("finalize");
        let key = format!("finalize-{round}");
        let (finals, finals_overlapped) = at_once(vec![
            post(&a, &finalize, token, &finalize_body, Some(&key)),
            post(&b, &finalize, token, &finalize_body, Some(&key)),
        ]);
        assert_eq!(statuses(&finals), [200, 200], "round {round}: {finals:?}");
        assert_eq!(finals[0].1, finals[1].1, "round {round}");
        assert_eq!(
            battle_entries(&a, token, force_id, &battle),
            1,
            "round {round}"
        );
        assert_eq!(earned_entries(&b, token, force_id), 1, "round {round}");
        races += 2;
        overlapping += usize::from(rolls_overlapped) + usize::from(finals_overlapped);
    }

    // An edit and a finalize of the same force (from the version the battle started at).
    let (mut edit_won, mut finalize_won) = (0, 0);
    for round in 0..ROUNDS {
        let force = fleet::force(
            &a,
            token,
            &campaign,
            &format!("Edited or finalized {round}"),
        );
        let force_id = force["id"].as_str().unwrap();
        let battle = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        a.post_expect(
            &fleet::step(&battle, force_id, "roll"),
            token,
            &json!({}),
            200,
        );
        let finalize = fleet::step(&battle, force_id, "finalize");
        let edit = fleet::edit_body(&force, &format!("Edited {round}"), 2);
        let path = format!("/api/v1/forces/{force_id}");
        let body = fleet::step_body("finalize");
        let (answers, overlapped) = at_once(vec![
            Box::new(|| a.call(Method::PUT, &path, Some(token), Some(&edit))),
            post(&b, &finalize, token, &body, None),
        ]);
        let stored = b.get_ok(&path, token);
        let sequence = a.get_ok(
            &format!("/api/v1/battles/{battle}/aftermath/{force_id}"),
            token,
        );
        match (answers[0].0, answers[1].0) {
            (200, 409) => {
                edit_won += 1;
                assert_eq!(stored["name"], edit["name"], "round {round}");
                assert_eq!(sequence["stage"], "rolled", "round {round}");
                assert_eq!(
                    battle_entries(&a, token, force_id, &battle),
                    0,
                    "round {round}"
                );
                assert_eq!(earned_entries(&a, token, force_id), 0, "round {round}");
            }
            (409, 200) => {
                finalize_won += 1;
                assert_eq!(stored["name"], force["name"], "round {round}");
                assert_eq!(sequence["stage"], "finalized", "round {round}");
                assert_eq!(
                    battle_entries(&a, token, force_id, &battle),
                    1,
                    "round {round}"
                );
            }
            _ => panic!("round {round}: {answers:?}"),
        }
        assert_eq!(stored["version"], 2, "round {round}: exactly one change");
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // One force in two battles, both sequences finalized at once: both started from the same
    // roster, so only one may be committed over it.
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Twice {round}"));
        let force_id = force["id"].as_str().unwrap();
        let first = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        let second = fleet::battle_in_aftermath(&b, token, &campaign, &[&force]);
        for battle in [&first, &second] {
            a.post_expect(
                &fleet::step(battle, force_id, "roll"),
                token,
                &json!({}),
                200,
            );
        }
        let paths = [first.as_str(), second.as_str()].map(|b| fleet::step(b, force_id, "finalize"));
        let body = fleet::step_body("finalize");
        let (answers, overlapped) = at_once(vec![
            post(&a, &paths[0], token, &body, None),
            post(&b, &paths[1], token, &body, None),
        ]);
        assert_eq!(statuses(&answers), [200, 409], "round {round}: {answers:?}");
        assert_eq!(earned_entries(&b, token, force_id), 1, "round {round}");
        let stored = a.get_ok(&format!("/api/v1/forces/{force_id}"), token);
        assert_eq!(stored["version"], 2, "round {round}");
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // Two different results for one battle: one is recorded, the other is a 409.
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Result {round}"));
        let battle = fleet::battle(&a, token, &campaign, &[&force]);
        let path = format!("/api/v1/battles/{battle}/result");
        let draw = fleet::result_body(&[&force]);
        let mut win = draw.clone();
        win["outcome"] = json!("win");
        win["winner_force_id"] = force["id"].clone();
        let (answers, overlapped) = at_once(vec![
            post(&a, &path, token, &draw, None),
            post(&b, &path, token, &win, None),
        ]);
        assert_eq!(statuses(&answers), [200, 409], "round {round}: {answers:?}");
        let winner = answers.iter().position(|(s, _)| *s == 200).unwrap();
        let stored = b.get_ok(&format!("/api/v1/battles/{battle}"), token);
        assert_eq!(
            stored["result"]["outcome"],
            [&draw, &win][winner]["outcome"],
            "round {round}"
        );
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // One Idempotency-Key with two different bodies: one roll, the other body refused.
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Reused key {round}"));
        let force_id = force["id"].as_str().unwrap();
        let alpha = fleet::unit_id(&force, "Alpha");
        let battle = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        let roll = fleet::step(&battle, force_id, "roll");
        let server_dice = json!({});
        let entered = json!({"dice": {"replacement": {alpha: [6]}}});
        let key = format!("reused-{round}");
        let (answers, overlapped) = at_once(vec![
            post(&a, &roll, token, &server_dice, Some(&key)),
            post(&b, &roll, token, &entered, Some(&key)),
        ]);
        assert_eq!(statuses(&answers), [200, 422], "round {round}: {answers:?}");
        let winner = &answers.iter().find(|(s, _)| *s == 200).unwrap().1;
        let read = a.get_ok(
            &format!("/api/v1/battles/{battle}/aftermath/{force_id}"),
            token,
        );
        assert_eq!(read["version"], 2, "round {round}: rolled once");
        assert_eq!(read["outcome"]["rolls"], winner["rolls"], "round {round}");
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // The battle scenario workflow, cycling through three races: both sides' orders
    // at once (both count); one side's orders twice from the same version (one wins); the
    // closing orders twice, without and with one Idempotency-Key (the step closes once, the
    // table edge is rolled once per side).
    let blue = fleet::force(&a, token, &campaign, "Scenario Blue");
    let red = fleet::force(&a, token, &campaign, "Scenario Red");
    let orders = |force: &Value, stance: &str, version: Option<i64>| {
        let mut body = json!({"force_id": force["id"], "stance": stance, "attitude": "cautious"});
        if let Some(v) = version {
            body["version"] = json!(v);
        }
        body
    };
    let stance = |view: &Value, force: &Value| -> Value {
        view["sides"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["force_id"] == force["id"])
            .unwrap_or_else(|| panic!("no side in {view}"))["stance"]
            .clone()
    };
    // Table edge rolls in the log, and how many the sides' results account for (one per side
    // per round; a tie rolls again): equal unless the step was rolled twice.
    let edge_rolls = |view: &Value| {
        let logged = view["rolls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["step"] == "table_edge")
            .count();
        let rounds: u64 = view["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["table_edge_roll"]["rounds"].as_u64().unwrap())
            .sum();
        assert!(rounds >= 2, "{view}");
        (logged, rounds as usize)
    };
    for round in 0..ROUNDS {
        let battle = fleet::battle(&a, token, &campaign, &[&blue, &red]);
        let path = format!("/api/v1/battles/{battle}/scenario/orders");
        let view_path = format!("/api/v1/battles/{battle}/scenario");
        let overlapped: usize = match round % 3 {
            0 => {
                let (blue_body, red_body) = (
                    orders(&blue, "defensive", None),
                    orders(&red, "offensive", None),
                );
                let (answers, overlapped) = at_once(vec![
                    post(&a, &path, token, &blue_body, None),
                    post(&b, &path, token, &red_body, None),
                ]);
                assert_eq!(statuses(&answers), [200, 200], "round {round}: {answers:?}");
                let view = a.get_ok(&view_path, token);
                assert_eq!(view["state"], "mission_bonuses", "round {round}: {view}");
                assert_eq!(view["version"], 2, "round {round}");
                assert_eq!(stance(&view, &blue), "defensive", "round {round}");
                assert_eq!(stance(&view, &red), "offensive", "round {round}");
                let (logged, expected) = edge_rolls(&view);
                assert_eq!(logged, expected, "round {round}: {view}");
                usize::from(overlapped)
            }
            1 => {
                let bodies = [
                    orders(&blue, "defensive", Some(0)),
                    orders(&blue, "neutral", Some(0)),
                ];
                let (answers, overlapped) = at_once(vec![
                    post(&a, &path, token, &bodies[0], None),
                    post(&b, &path, token, &bodies[1], None),
                ]);
                assert_eq!(statuses(&answers), [200, 409], "round {round}: {answers:?}");
                let winner = answers.iter().position(|(s, _)| *s == 200).unwrap();
                let view = b.get_ok(&view_path, token);
                assert_eq!(view["version"], 1, "round {round}");
                assert_eq!(
                    stance(&view, &blue),
                    bodies[winner]["stance"],
                    "round {round}"
                );
                usize::from(overlapped)
            }
            _ => {
                a.post_expect(&path, token, &orders(&blue, "defensive", None), 200);
                let closing = orders(&red, "offensive", None);
                let (answers, first) = at_once(vec![
                    post(&a, &path, token, &closing, None),
                    post(&b, &path, token, &closing, None),
                ]);
                assert_eq!(statuses(&answers), [200, 409], "round {round}: {answers:?}");
                let view = a.get_ok(&view_path, token);
                assert_eq!(
                    (view["state"].as_str(), view["version"].as_i64()),
                    (Some("mission_bonuses"), Some(2)),
                    "round {round}"
                );
                let (logged, expected) = edge_rolls(&view);
                assert_eq!(logged, expected, "round {round}: {view}");
                // Again on a fresh battle, with one key: both answered alike, one closing.
                let battle = fleet::battle(&a, token, &campaign, &[&blue, &red]);
                let path = format!("/api/v1/battles/{battle}/scenario/orders");
                a.post_expect(&path, token, &orders(&blue, "defensive", None), 200);
                let key = format!("close-{round}");
                let (answers, second) = at_once(vec![
                    post(&a, &path, token, &closing, Some(&key)),
                    post(&b, &path, token, &closing, Some(&key)),
                ]);
                assert_eq!(statuses(&answers), [200, 200], "round {round}: {answers:?}");
                assert_eq!(answers[0].1, answers[1].1, "round {round}");
                let view = b.get_ok(&format!("/api/v1/battles/{battle}/scenario"), token);
                assert_eq!(view["version"], 2, "round {round}");
                let (logged, expected) = edge_rolls(&view);
                assert_eq!(logged, expected, "round {round}: {view}");
                races += 1;
                usize::from(first) + usize::from(second)
            }
        };
        races += 1;
        overlapping += overlapped;
        scenario_races += 1 + usize::from(round % 3 == 2);
    }

    // An organiser's ledger adjustment against the finalize of the same force's sequence: at
    // least one succeeds, a refused finalize succeeds when retried, and the committed outcome's
    // campaign points agree with the ledger (the invariant checker below).
    let (mut both_won, mut adjustment_refused, mut finalize_refused) = (0, 0, 0);
    for round in 0..ROUNDS {
        let force = fleet::force(&a, token, &campaign, &format!("Adjusted {round}"));
        let force_id = force["id"].as_str().unwrap();
        let battle = fleet::battle_in_aftermath(&a, token, &campaign, &[&force]);
        a.post_expect(
            &fleet::step(&battle, force_id, "roll"),
            token,
            &json!({}),
            200,
        );
        let finalize = fleet::step(&battle, force_id, "finalize");
        let ledger = format!("/api/v1/forces/{force_id}/ledger");
        let adjustment = json!({"kind": "earned", "amount": 3, "note": "race"});
        let body = fleet::step_body("finalize");
        let (answers, overlapped) = at_once(vec![
            post(&a, &ledger, token, &adjustment, None),
            post(&b, &finalize, token, &body, None),
        ]);
        match (answers[0].0, answers[1].0) {
            (201, 200) => both_won += 1,
            (409, 200) => adjustment_refused += 1,
            (201, 409) => {
                finalize_refused += 1;
                a.post_expect(&finalize, token, &body, 200);
            }
            _ => panic!("round {round}: {answers:?}"),
        }
        let done = b.get_ok(
            &format!("/api/v1/battles/{battle}/aftermath/{force_id}"),
            token,
        );
        // The balance right after the battle's own entries is the outcome's (an adjustment
        // committed after the finalize comes later in the ledger).
        let entries = a.get_ok(&ledger, token)["entries"].clone();
        let after_battle = entries
            .as_array()
            .unwrap()
            .iter()
            .rfind(|e| e["cause_kind"] == "battle" && e["cause_id"] == battle.as_str())
            .unwrap_or_else(|| panic!("round {round}: {entries}"))["balance"]
            .clone();
        assert_eq!(
            done["outcome"]["campaign_points"]["balance"], after_battle,
            "round {round}: {done} {entries}"
        );
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // Same Idempotency-Key generating a force with server dice: one force, one roll.
    let generate = format!("/api/v1/campaigns/{campaign}/forces/generate");
    let list = format!("/api/v1/campaigns/{campaign}/forces");
    for round in 0..ROUNDS {
        let before = a.get_all(&list, "forces", token).len();
        let body = json!({"method": "basic", "platoons": 1, "name": format!("Generated {round}")});
        let key = format!("generate-{round}");
        let (answers, overlapped) = at_once(vec![
            post(&a, &generate, token, &body, Some(&key)),
            post(&b, &generate, token, &body, Some(&key)),
        ]);
        assert_eq!(statuses(&answers), [201, 201], "round {round}: {answers:?}");
        assert_eq!(answers[0].1, answers[1].1, "round {round}");
        let after = b.get_all(&list, "forces", token).len();
        assert_eq!(after, before + 1, "round {round}: one force stored");
        races += 1;
        overlapping += usize::from(overlapped);
    }

    // Assert: the data is whole after all of it.
    let checked = invariants::check(&pair.db);
    assert_eq!(checked.finalized, 4 * ROUNDS + finalize_won, "{checked:?}");
    eprintln!(
        "races: {races} races between two server processes (pids {} and {}) on one PostgreSQL \
         ({ROUNDS} rounds each of: same-version edit, 4-way finalize, keyed roll, keyed finalize, \
         edit against finalize ({edit_won} edits and {finalize_won} finalizes won), one force \
         finalized in two battles, two different results, one key with two bodies, scenario \
         orders ({scenario_races} races: both sides, same version, closing step unkeyed and \
         keyed), ledger adjustment against finalize ({both_won} both applied, {adjustment_refused} \
         adjustments and {finalize_refused} finalizes refused then retried), keyed generate), \
         {overlapping} of them with every request in flight at once; every \
         conflict had exactly one winner (both sides' orders both counted) and nothing was lost; invariants hold: {checked:?}",
        pair.a.pid(),
        pair.b.pid()
    );
}
