//! The campaign data invariants, checked straight in the database,
//! for the crash, race and soak tests: whatever happened to the server (killed mid-transaction,
//! raced by another process), what is stored must be whole.
//!
//! - **History replays to the roster**: a force's history has exactly the versions
//!   `1..=version`, each entry's per-unit diff is the diff between the previous snapshot and its
//!   own, and the newest snapshot is the stored roster (and names the force).
//! - **Ledgers add up**: entries are numbered `1..=n`, each balance is the previous one plus or
//!   minus its amount and never negative.
//! - **Aftermaths are all or nothing**: a finalized post-battle sequence has exactly one
//!   `battle` history entry (at the version after the battle-start snapshot, holding the
//!   outcome's roster and rolls) and ledger entries matching its campaign points; one that is
//!   not finalized has neither. A battle is `complete` exactly when all its sequences are
//!   finalized.
//!
//! [`check`] collects every violation and panics with all of them, so one run shows the whole
//! damage.

use crate::common::TestDb;
use diesel::prelude::*;
use fad_api::schema::{battle_aftermaths, battles, force_history, force_ledger, forces};
use fad_api::store::aftermath::AftermathRow;
use fad_api::store::battles::Battle;
use fad_api::store::forces::Force;
use fad_api::store::history::{self, HistoryEntry};
use fad_api::store::ledger::LedgerEntry;
use fad_domain::roster::Force as Roster;
use serde_json::Value;
use std::collections::BTreeMap;

/// What [`check`] looked at.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// Forces.
    pub forces: usize,
    /// History entries replayed.
    pub history_entries: usize,
    /// Ledger entries summed.
    pub ledger_entries: usize,
    /// Post-battle sequences finalized (and found whole).
    pub finalized: usize,
    /// Post-battle sequences not finalized (and found untouched).
    pub unfinalized: usize,
}

/// Checks every invariant over the whole database; panics listing every violation.
#[track_caller]
pub fn check(db: &TestDb) -> Checked {
    let (checked, violations) = violations(db);
    assert!(
        violations.is_empty(),
        "{} invariant violation(s):\n{}",
        violations.len(),
        violations.join("\n")
    );
    checked
}

/// Every violation, as text, and what was looked at.
pub fn violations(db: &TestDb) -> (Checked, Vec<String>) {
    let mut conn = db.connect();
    // One consistent snapshot even while a server still writes.
    conn.transaction(|conn| Ok::<_, diesel::result::Error>(scan(conn)))
        .expect("reading the database")
}

struct Data {
    forces: Vec<Force>,
    history: BTreeMap<String, Vec<HistoryEntry>>,
    ledger: BTreeMap<String, Vec<LedgerEntry>>,
    battles: Vec<Battle>,
    aftermaths: Vec<AftermathRow>,
}

fn load(conn: &mut fad_api::db::Db) -> Data {
    let forces = forces::table
        .order(forces::id.asc())
        .select(Force::as_select())
        .load(conn)
        .expect("forces");
    let mut history: BTreeMap<String, Vec<HistoryEntry>> = BTreeMap::new();
    for entry in force_history::table
        .order((force_history::force_id.asc(), force_history::version.asc()))
        .select(HistoryEntry::as_select())
        .load(conn)
        .expect("history")
    {
        history
            .entry(entry.force_id.clone())
            .or_default()
            .push(entry);
    }
    let mut ledger: BTreeMap<String, Vec<LedgerEntry>> = BTreeMap::new();
    for entry in force_ledger::table
        .order((force_ledger::force_id.asc(), force_ledger::seq.asc()))
        .select(LedgerEntry::as_select())
        .load(conn)
        .expect("ledger")
    {
        ledger
            .entry(entry.force_id.clone())
            .or_default()
            .push(entry);
    }
    let battles = battles::table
        .select(Battle::as_select())
        .load(conn)
        .expect("battles");
    let aftermaths = battle_aftermaths::table
        .select(AftermathRow::as_select())
        .load(conn)
        .expect("aftermaths");
    Data {
        forces,
        history,
        ledger,
        battles,
        aftermaths,
    }
}

fn json(text: &str, what: &str, problems: &mut Vec<String>) -> Option<Value> {
    serde_json::from_str(text)
        .map_err(|e| problems.push(format!("{what}: not JSON ({e})")))
        .ok()
}

fn scan(conn: &mut fad_api::db::Db) -> (Checked, Vec<String>) {
    let data = load(conn);
    let mut problems = Vec::new();
    let mut checked = Checked {
        forces: data.forces.len(),
        ..Checked::default()
    };
    for force in &data.forces {
        let entries = data.history.get(&force.id).map_or(&[][..], Vec::as_slice);
        checked.history_entries += entries.len();
        check_history(force, entries, &mut problems);
        let ledger = data.ledger.get(&force.id).map_or(&[][..], Vec::as_slice);
        checked.ledger_entries += ledger.len();
        check_ledger(&force.id, ledger, &mut problems);
    }
    for row in &data.aftermaths {
        let Some(battle) = data.battles.iter().find(|b| b.id == row.battle_id) else {
            problems.push(format!(
                "aftermath {}/{}: no battle",
                row.battle_id, row.force_id
            ));
            continue;
        };
        if battle.state.as_str() == "void" {
            // Voided battles are undone by compensating entries (helper `voids`); their
            // invariant is theirs to check.
            continue;
        }
        let history = data
            .history
            .get(&row.force_id)
            .map_or(&[][..], Vec::as_slice);
        let ledger = data
            .ledger
            .get(&row.force_id)
            .map_or(&[][..], Vec::as_slice);
        if row.stage.as_str() == "finalized" {
            checked.finalized += 1;
        } else {
            checked.unfinalized += 1;
        }
        check_aftermath(row, history, ledger, &mut problems);
    }
    for battle in &data.battles {
        let rows: Vec<&AftermathRow> = data
            .aftermaths
            .iter()
            .filter(|r| r.battle_id == battle.id)
            .collect();
        let all_final = !rows.is_empty() && rows.iter().all(|r| r.stage.as_str() == "finalized");
        match battle.state.as_str() {
            "complete" if !all_final => problems.push(format!(
                "battle {}: complete but not every sequence is finalized",
                battle.id
            )),
            "aftermath" if all_final => problems.push(format!(
                "battle {}: every sequence is finalized but the battle is not complete",
                battle.id
            )),
            "scenario" if !rows.is_empty() => problems.push(format!(
                "battle {}: post-battle sequences without a result",
                battle.id
            )),
            _ => {}
        }
    }
    (checked, problems)
}

fn check_history(force: &Force, entries: &[HistoryEntry], problems: &mut Vec<String>) {
    let id = &force.id;
    let versions: Vec<i64> = entries.iter().map(|e| e.version).collect();
    let expected: Vec<i64> = (1..=force.version).collect();
    if versions != expected {
        problems.push(format!(
            "force {id}: version {} but history versions {versions:?}",
            force.version
        ));
        return;
    }
    let mut previous: Option<Roster> = None;
    for entry in entries {
        let what = format!("force {id} history v{}", entry.version);
        let snapshot: Roster = match entry.roster() {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{what}: snapshot is not a roster ({e})"));
                return;
            }
        };
        let replayed = serde_json::to_value(history::diff(previous.as_ref(), &snapshot))
            .expect("diff serializes");
        // A reason (a correction's, or troopers forgone at finalize) is not in the snapshots.
        let stored = json(&entry.diff, &what, problems).map(|mut d| {
            if let Some(map) = d.as_object_mut() {
                map.remove("reason");
            }
            d
        });
        if let Some(stored) = stored
            && stored != replayed
        {
            problems.push(format!(
                "{what}: stored diff {stored} but the snapshots differ by {replayed}"
            ));
        }
        json(&entry.rolls, &what, problems);
        previous = Some(snapshot);
    }
    let Some(last) = entries.last() else {
        return;
    };
    let stored = match force.roster() {
        Ok(roster) => Some(roster),
        Err(e) => {
            problems.push(format!("force {id} roster: {e}"));
            None
        }
    };
    let snapshot = last.roster().ok();
    if stored != snapshot {
        problems.push(format!(
            "force {id}: roster v{} is not the newest history snapshot",
            force.version
        ));
    }
    if stored.as_ref().map(|r| r.name.as_str()) != Some(force.name.as_str()) {
        problems.push(format!("force {id}: name column differs from the roster's"));
    }
}

fn check_ledger(force_id: &str, entries: &[LedgerEntry], problems: &mut Vec<String>) {
    let mut balance = 0_i64;
    let (mut earned, mut spent) = (0_i64, 0_i64);
    for (n, entry) in entries.iter().enumerate() {
        let what = format!("force {force_id} ledger #{}", entry.seq);
        if entry.seq != n as i64 + 1 {
            problems.push(format!("{what}: expected seq {}", n + 1));
        }
        if entry.amount < 0 {
            problems.push(format!("{what}: negative amount {}", entry.amount));
        }
        match entry.kind.as_str() {
            "earned" => {
                balance += entry.amount;
                earned += entry.amount;
            }
            "spent" => {
                balance -= entry.amount;
                spent += entry.amount;
            }
            other => problems.push(format!("{what}: unknown kind {other}")),
        }
        if entry.balance != balance {
            problems.push(format!(
                "{what}: balance {} but the entries sum to {balance}",
                entry.balance
            ));
        }
        if balance < 0 {
            problems.push(format!("{what}: negative balance {balance}"));
        }
    }
    if let Some(last) = entries.last()
        && last.balance != earned - spent
    {
        problems.push(format!(
            "force {force_id}: balance {} but earned {earned} − spent {spent}",
            last.balance
        ));
    }
}

fn check_aftermath(
    row: &AftermathRow,
    history: &[HistoryEntry],
    ledger: &[LedgerEntry],
    problems: &mut Vec<String>,
) {
    let what = format!(
        "aftermath {}/{} ({})",
        row.battle_id, row.force_id, row.stage
    );
    let by_battle = |kind: &str, cause: &Option<String>, cause_kind: &str| {
        cause_kind == kind && cause.as_deref() == Some(row.battle_id.as_str())
    };
    let entries: Vec<&HistoryEntry> = history
        .iter()
        .filter(|e| by_battle("battle", &e.cause_id, &e.cause_kind))
        .collect();
    let lines: Vec<&LedgerEntry> = ledger
        .iter()
        .filter(|e| by_battle("battle", &e.cause_id, &e.cause_kind))
        .collect();
    if row.stage.as_str() != "finalized" {
        if !entries.is_empty() || !lines.is_empty() || row.outcome.is_some() {
            problems.push(format!(
                "{what}: half applied: {} history entries, {} ledger entries, outcome {}",
                entries.len(),
                lines.len(),
                row.outcome.is_some()
            ));
        }
        return;
    }
    let Some(outcome) = row
        .outcome
        .as_ref()
        .map(|o| serde_json::to_value(o).expect("an outcome serializes"))
    else {
        problems.push(format!("{what}: finalized without an outcome"));
        return;
    };
    let [entry] = entries.as_slice() else {
        problems.push(format!(
            "{what}: {} battle history entries, expected 1",
            entries.len()
        ));
        return;
    };
    if entry.version != row.force_version + 1 {
        problems.push(format!(
            "{what}: history entry v{} but the battle started at v{}",
            entry.version, row.force_version
        ));
    }
    let snapshot = entry
        .roster()
        .ok()
        .map(|r| serde_json::to_value(r).expect("a roster serializes"));
    if snapshot.as_ref() != Some(&outcome["roster"]) {
        problems.push(format!(
            "{what}: history snapshot is not the outcome's roster"
        ));
    }
    if json(&entry.rolls, &what, problems).as_ref() != Some(&outcome["rolls"]) {
        problems.push(format!("{what}: history rolls are not the outcome's rolls"));
    }
    let cp = &outcome["campaign_points"];
    let amount = |kind: &str| -> i64 {
        lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.amount)
            .sum()
    };
    let earned = cp["earned"].as_i64().unwrap_or(-1);
    let spent = cp["spent"].as_i64().unwrap_or(-1) + cp["forfeited"].as_i64().unwrap_or(-1);
    if amount("earned") != earned || amount("spent") != spent {
        problems.push(format!(
            "{what}: ledger earned {} spent {}, outcome says earned {earned} spent {spent}",
            amount("earned"),
            amount("spent")
        ));
    }
    if lines.last().map(|l| l.balance) != cp["balance"].as_i64() {
        problems.push(format!(
            "{what}: ledger balance after the battle {:?}, outcome says {}",
            lines.last().map(|l| l.balance),
            cp["balance"]
        ));
    }
}

/// The checker itself: a database made by the service passes; each kind of damage done behind
/// its back is reported.
#[test]
fn the_checker_passes_service_data_and_reports_each_kind_of_damage() {
    use crate::fleet::{self, Http};
    use fad_api::schema::{battle_aftermaths as a, force_history as h, force_ledger as l};
    use reqwest::Method;
    use serde_json::json;

    // Arrange: one finalized battle, one rolled, one edit.
    let db = TestDb::new(crate::common::Backend::Sqlite);
    let data_dir = tempfile::tempdir().unwrap();
    let server = fleet::spawn(&db, data_dir.path());
    let http = Http::new(&server);
    let (_, token) = fleet::user(&http, "organiser");
    let campaign = fleet::campaign(&http, &token, "Checked");
    let done = fleet::force(&http, &token, &campaign, "Done");
    let open = fleet::force(&http, &token, &campaign, "Open");
    let (done_id, open_id) = (done["id"].as_str().unwrap(), open["id"].as_str().unwrap());
    let first = fleet::battle_in_aftermath(&http, &token, &campaign, &[&done]);
    for step in ["roll", "finalize"] {
        http.post_expect(
            &fleet::step(&first, done_id, step),
            &token,
            &fleet::step_body(step),
            200,
        );
    }
    let second = fleet::battle_in_aftermath(&http, &token, &campaign, &[&open]);
    http.post_expect(
        &fleet::step(&second, open_id, "roll"),
        &token,
        &json!({}),
        200,
    );
    let (status, _) = http.call(
        Method::PUT,
        &format!("/api/v1/forces/{open_id}"),
        Some(&token),
        Some(&fleet::edit_body(&open, "Open, edited", 3)),
    );
    assert_eq!(status, 200);
    drop(server);
    let clean = check(&db);
    assert_eq!(
        (clean.forces, clean.finalized, clean.unfinalized),
        (2, 1, 1),
        "{clean:?}"
    );
    let mut conn = db.connect();

    // Act and assert: one kind of damage at a time, each reported.
    let reported = |expected: &str| {
        let (_, found) = violations(&db);
        assert!(
            found.iter().any(|v| v.contains(expected)),
            "expected a violation containing {expected:?}, got {found:?}"
        );
    };
    // A ledger balance off by one.
    diesel::update(l::table.filter(l::force_id.eq(done_id)))
        .set(l::balance.eq(l::balance + 1))
        .execute(&mut conn)
        .unwrap();
    reported("but the entries sum to");
    diesel::update(l::table.filter(l::force_id.eq(done_id)))
        .set(l::balance.eq(l::balance - 1))
        .execute(&mut conn)
        .unwrap();
    // A finalized sequence whose stage was lost (ledger and history without it).
    diesel::update(a::table.filter(a::battle_id.eq(&first)))
        .set(a::stage.eq("rolled"))
        .execute(&mut conn)
        .unwrap();
    reported("half applied");
    diesel::update(a::table.filter(a::battle_id.eq(&first)))
        .set(a::stage.eq("finalized"))
        .execute(&mut conn)
        .unwrap();
    // A finalized sequence without its ledger entries.
    diesel::delete(l::table.filter(l::force_id.eq(done_id)))
        .execute(&mut conn)
        .unwrap();
    reported("ledger earned 0");
    // A history entry whose diff does not replay.
    diesel::update(
        h::table
            .filter(h::force_id.eq(open_id))
            .filter(h::version.eq(2)),
    )
    .set(h::diff.eq(r#"{"force":{},"units":[]}"#))
    .execute(&mut conn)
    .unwrap();
    reported("but the snapshots differ by");
    // A roster that is not its newest snapshot.
    diesel::update(fad_api::schema::forces::table.filter(fad_api::schema::forces::id.eq(open_id)))
        .set(fad_api::schema::forces::roster.eq(&done["platoons"].to_string()))
        .execute(&mut conn)
        .unwrap();
    reported("is not the newest history snapshot");
    // A lost history entry.
    diesel::delete(
        h::table
            .filter(h::force_id.eq(open_id))
            .filter(h::version.eq(1)),
    )
    .execute(&mut conn)
    .unwrap();
    reported("but history versions [2]");
}

both_backends! {
    /// Regression: the roll kept the balance of its time, so a ledger adjustment before
    /// `finalize` made the committed outcome (and the timeline showing it) disagree with the
    /// ledger finalize wrote. docs/rules.md C12: available = banked + 2 × P, banked being the ledger.
    fn an_adjustment_between_roll_and_finalize_counts_in_the_outcome_and_the_ledger(app: &crate::common::TestApp) {
        use crate::fleet::{self, Http};
        use serde_json::json;

        // Arrange: rolled with 0 CP banked (2 CP earned).
        let http = Http::for_base(app.base_url());
        let (_, token) = fleet::user(&http, "organiser");
        let campaign = fleet::campaign(&http, &token, "Adjusted");
        let force = fleet::force(&http, &token, &campaign, "Adjusted");
        let force_id = force["id"].as_str().unwrap();
        let battle = fleet::battle_in_aftermath(&http, &token, &campaign, &[&force]);
        let rolled = http.post_expect(&fleet::step(&battle, force_id, "roll"), &token, &json!({}), 200);

        // Act: the organiser credits 5 CP; the player then spends 3 (more than the 2 of the
        // roll's time) and finalizes.
        http.post_expect(
            &format!("/api/v1/forces/{force_id}/ledger"),
            &token,
            &json!({"kind": "earned", "amount": 5, "note": "painting prize"}),
            201,
        );
        let view = http.get_ok(&format!("/api/v1/battles/{battle}/aftermath/{force_id}"), &token);
        let bravo = fleet::unit_id(&force, "Bravo");
        let bought = http.post_expect(
            &fleet::step(&battle, force_id, "purchases"),
            &token,
            &json!({"purchases": [{"item": "improve_quality", "unit_id": bravo}, {"item": "extra_reinforcement_die"}, {"item": "extra_reinforcement_die"}]}),
            200,
        );
        let done = http.post_expect(&fleet::step(&battle, force_id, "finalize"), &token, &json!({"forgo_reinforcements": true}), 200);

        // Assert: 0 + 5 + 2 − 3 = 4, in the outcome and in the ledger.
        assert_eq!(rolled["pending"]["cp_available"], 2);
        assert_eq!(view["pending"]["cp_available"], 7, "{view}");
        assert_eq!(bought["pending"]["cp_spent"], 3, "{bought}");
        let cp = &done["outcome"]["campaign_points"];
        let figures = ["banked_before", "earned", "spent", "balance"].map(|k| cp[k].as_i64());
        assert_eq!(figures, [Some(5), Some(2), Some(3), Some(4)], "{cp}");
        let ledger = http.get_ok(&format!("/api/v1/forces/{force_id}/ledger"), &token);
        assert_eq!(ledger["balance"], 4, "{ledger}");
        check(&app.db);
    }
}
