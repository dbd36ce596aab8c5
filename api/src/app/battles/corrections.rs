//! The organiser's corrections of a battle: void (the battle counts for nothing and its effects
//! are undone) and reopen (the result is taken back so a different one can be recorded).
//!
//! Void: in one transaction, for every force whose post-battle sequence was finalized: a
//! compensating roster change (history cause `void` with the battle id; the force's version goes
//! up) that undoes what the battle changed ([`fad_domain::campaign::revert`]), and compensating
//! ledger entries (each `spent` of the battle returned as `earned`, each `earned` taken back as
//! `spent`, cause `void`). History is never deleted. Sequences not yet finalized changed
//! nothing; they stay readable with their rolls. The battle becomes `void`: out of the
//! standings, shown as void in lists and the timeline, and closed to further steps. Refused
//! with 409 while a later battle of the same force builds on this one (its result was recorded
//! on the roster this battle left): void (or reopen) that battle first, newest first. Also 409
//! when the roster was edited since in a field the battle changed, or when taking the battle's
//! campaign points back would overdraw the ledger. Voiding a void battle is harmless.
//!
//! Reopen: allowed while the result is `pending` or in `aftermath` and no force's post-battle
//! sequence is finalized, i.e. while nothing of the battle has reached a roster or a ledger. In
//! one transaction the battle goes back to `scenario` with no result, its post-battle sequences
//! are discarded, and a `reopen` correction keeps the discarded result and every roll those
//! sequences made (each with its `force_id`), so the roll log stays whole. Recording the next
//! result takes fresh battle-start snapshots; its post-battle dice are new rolls. The battle's
//! scenario, if it has one, is kept as it was, rolls included. Once any sequence is finalized
//! (or the battle is `complete`) reopening is 409: void the battle instead. A battle without a
//! result, or a void one, cannot be reopened (409). An `Idempotency-Key` used before the
//! reopening still replays its stored answer; send new keys for the new result's steps.

use actix_web::http::StatusCode;
use fad_domain::campaign::revert::revert;
use fad_domain::lifecycle::{AftermathStage, BattleState};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::{AuthUser, Need};
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::store::history::{self, HistoryCause};
use crate::store::ledger::{self, LedgerError, LedgerKind, NewLedgerEntry};
use crate::store::{self, aftermath as rows, battles, forces};

use super::{AftermathSummary, BattleResponse, authorize_battle, lifecycle, lock_battle};

/// The longest accepted reason, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// An organiser correction (void or reopen): an optional reason, kept with the battle.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"reason": "Played with last week's rosters; replayed on Friday"}))]
pub struct CorrectionRequest {
    /// Why (at most 500 characters); shown in the battle's `corrections`.
    #[serde(default)]
    pub reason: Option<String>,
}

impl CorrectionRequest {
    /// The trimmed reason (`None` when blank); 422 when too long.
    pub fn reason(&self) -> Result<Option<String>, ApiError> {
        let reason = self
            .reason
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty());
        match reason {
            Some(r) if r.chars().count() > MAX_REASON_CHARS => {
                Err(ApiError::Validation(vec![FieldError::new(
                    "reason",
                    "must have at most 500 characters",
                )]))
            }
            other => Ok(other.map(str::to_owned)),
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// 403 unless the caller organises the battle's campaign (outsiders already got 404).
pub fn organiser_only(access: &crate::auth::CampaignAccess, what: &str) -> Result<(), ApiError> {
    if access.is_organiser() {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "Only the campaign's organiser may {what} a battle."
        )))
    }
}

/// Later battles built on what `row` committed: another battle's sequence of the same force
/// whose battle-start snapshot was taken at or after the version this battle's finalize made,
/// unless that battle is void.
fn dependants(conn: &mut Db, row: &rows::AftermathRow) -> Result<Vec<String>, ApiError> {
    let committed = row.force_version + 1;
    let mut out = Vec::new();
    for other in rows::list_for_force(conn, &row.force_id)? {
        if other.battle_id == row.battle_id || other.force_version < committed {
            continue;
        }
        let later = battles::find_by_id(conn, &other.battle_id)?;
        if later.is_some_and(|b| b.state != BattleState::Void) && !out.contains(&other.battle_id) {
            out.push(other.battle_id);
        }
    }
    Ok(out)
}

/// Undoes one force's finalized sequence: compensating roster change and ledger entries.
fn compensate(
    conn: &mut Db,
    row: &rows::AftermathRow,
    cause: &HistoryCause,
    now: chrono::NaiveDateTime,
) -> Result<(), ApiError> {
    let force = forces::find_by_id(conn, &row.force_id)?
        .ok_or_else(|| ApiError::Conflict(format!("Force {} no longer exists.", row.force_id)))?;
    let committed = history::find_by_version(conn, &row.force_id, row.force_version + 1)?
        .filter(|e| e.cause_kind == "battle" && e.cause_id.as_deref() == Some(&row.battle_id))
        .ok_or_else(|| internal("finalized sequence without its history entry"))?;
    let before = &row.battle_start;
    let after = committed.roster()?;
    let current = force.roster().map_err(internal)?;
    let reverted = revert(before, &after, &current).map_err(|conflicts| {
        let list: Vec<String> = conflicts.iter().map(ToString::to_string).collect();
        ApiError::Conflict(format!(
            "{} was edited since this battle where the battle changed it ({}); edit those back to what the battle left, then void.",
            force.name,
            list.join(", ")
        ))
    })?;
    forces::replace_roster_if_version(
        conn,
        &force.id,
        force.version,
        &reverted,
        cause,
        &Vec::new(),
        now,
    )?
    .ok_or_else(|| ApiError::Conflict("The force changed meanwhile; retry.".to_owned()))?;
    let entries = ledger::list_for_cause(conn, &force.id, "battle", &row.battle_id)?;
    let note = |e: &ledger::LedgerEntry| e.note.clone().unwrap_or_else(|| e.kind.clone());
    // Returns first, take-backs second: the balance dips as little as possible.
    let mut reversals: Vec<NewLedgerEntry> = entries
        .iter()
        .filter(|e| e.kind == LedgerKind::Spent.as_str() && e.amount > 0)
        .map(|e| NewLedgerEntry {
            kind: LedgerKind::Earned,
            amount: e.amount,
            cause: cause.clone(),
            note: Some(format!("void: returns spent {}", note(e))),
        })
        .collect();
    reversals.extend(
        entries
            .iter()
            .filter(|e| e.kind == LedgerKind::Earned.as_str() && e.amount > 0)
            .map(|e| NewLedgerEntry {
                kind: LedgerKind::Spent,
                amount: e.amount,
                cause: cause.clone(),
                note: Some(format!("void: takes back earned {}", note(e))),
            }),
    );
    ledger::append(conn, &force.id, &reversals, now).map_err(|e| match e {
        LedgerError::Overdrawn { balance, wanted } => ApiError::Conflict(format!(
            "{} has {balance} campaign point(s) left, so the {wanted} this battle earned cannot be taken back; adjust the ledger first.",
            force.name
        )),
        other => other.into(),
    })?;
    Ok(())
}

/// Voids a battle and undoes its effects (organiser only; see the module doc).
pub async fn void_battle(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: CorrectionRequest,
    write: Write,
) -> Result<Answer<BattleResponse>, ApiError> {
    let reason = request.reason()?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    idempotency::run(state, write, move |conn| {
        let (_, access) = authorize_battle(conn, &caller, &battle_id, Need::Write)?;
        organiser_only(&access, "void")?;
        let battle = lock_battle(conn, &battle_id)?;
        if battle.state == BattleState::Void {
            return Ok((StatusCode::OK, BattleResponse::load(conn, battle)?.named(conn)?));
        }
        let sequences = rows::list_for_battle(conn, &battle_id)?;
        let finalized: Vec<&rows::AftermathRow> = sequences
            .iter()
            .filter(|r| r.stage == AftermathStage::Finalized)
            .collect();
        let mut blockers = Vec::new();
        for row in &finalized {
            for id in dependants(conn, row)? {
                if !blockers.contains(&id) {
                    blockers.push(id);
                }
            }
        }
        if !blockers.is_empty() {
            return Err(ApiError::Conflict(format!(
                "Later battle(s) {} of the same force were recorded on the roster this battle left; void (or reopen) them first, newest first.",
                blockers.join(", ")
            )));
        }
        let now = store::now();
        let cause = HistoryCause::new("void", Some(&actor)).with_id(&battle_id);
        for row in &finalized {
            compensate(conn, row, &cause, now)?;
        }
        let correction = battles::Correction {
            action: "void".to_owned(),
            by: actor.clone(),
            at: now.and_utc(),
            reason,
            previous_state: battle.state,
            discarded_result: None,
            discarded_rolls: Vec::new(),
        };
        let next = lifecycle::void(conn, battle, correction)?;
        tracing::info!(battle.id = %next.id, undone = finalized.len(), "Voided battle");
        Ok((StatusCode::OK, BattleResponse::new(next, AftermathSummary::of_rows(&sequences))?.named(conn)?))
    })
    .await
}

/// Reopens a battle's result (organiser only; see the module doc).
pub async fn reopen_battle(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: CorrectionRequest,
    write: Write,
) -> Result<Answer<BattleResponse>, ApiError> {
    let reason = request.reason()?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    idempotency::run(state, write, move |conn| {
        let (_, access) = authorize_battle(conn, &caller, &battle_id, Need::Write)?;
        organiser_only(&access, "reopen")?;
        let battle = lock_battle(conn, &battle_id)?;
        match battle.state {
            BattleState::Pending | BattleState::Aftermath => {}
            BattleState::Scenario => {
                return Err(ApiError::Conflict(
                    "No result is recorded for this battle; there is nothing to reopen.".to_owned(),
                ));
            }
            BattleState::Void => {
                return Err(ApiError::Conflict(
                    "This battle is void; a void battle cannot be reopened.".to_owned(),
                ));
            }
            _ => {
                return Err(ApiError::Conflict(
                    "Every post-battle sequence of this battle is finalized; void the battle instead."
                        .to_owned(),
                ));
            }
        }
        let sequences = rows::list_for_battle(conn, &battle_id)?;
        if let Some(done) = sequences.iter().find(|r| r.stage == AftermathStage::Finalized) {
            return Err(ApiError::Conflict(format!(
                "The post-battle sequence of force {} is finalized and committed to its roster; void the battle instead.",
                done.force_id
            )));
        }
        let mut discarded_rolls = Vec::new();
        for row in &sequences {
            let Some(aftermath) = &row.state else { continue };
            discarded_rolls.extend(aftermath.rolls.iter().cloned().map(|mut roll| {
                roll.force_id.get_or_insert_with(|| row.force_id.clone());
                roll
            }));
        }
        let discarded_result = battle
            .result
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(internal)?;
        rows::delete_for_battle(conn, &battle_id)?;
        let correction = battles::Correction {
            action: "reopen".to_owned(),
            by: actor.clone(),
            at: store::now().and_utc(),
            reason,
            previous_state: battle.state,
            discarded_result,
            discarded_rolls,
        };
        let next = lifecycle::reopen(conn, battle, correction)?;
        tracing::info!(battle.id = %next.id, "Reopened battle");
        Ok((StatusCode::OK, BattleResponse::new(next, Vec::new())?.named(conn)?))
    })
    .await
}
