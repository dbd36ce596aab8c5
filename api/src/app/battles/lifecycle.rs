//! The battle's lifecycle transitions, one function each: the domain decides whether the move
//! is allowed ([`BattleState`]), the function writes the row (version-checked, inside the
//! caller's transaction, which holds the battle's row lock) and appends the event to the
//! outbox in that same transaction.

use fad_domain::lifecycle::{BattleState, Refused};

use crate::db::Db;
use crate::error::ApiError;
use crate::store::events::{Event, EventType};
use crate::store::{self, battles};

use super::{BattleResult, internal};

fn refused(e: Refused) -> ApiError {
    ApiError::Conflict(format!(
        "This battle is {}; it cannot be {} now.",
        e.from, e.action
    ))
}

fn stale() -> ApiError {
    ApiError::Conflict("The battle changed; retry.".to_owned())
}

/// Writes `next` over `battle` (whose version the caller's lock holds) and records `events`,
/// each saying the outcome of `next`'s result (if any).
fn write(
    conn: &mut Db,
    next: battles::Battle,
    events: &[EventType],
) -> Result<battles::Battle, ApiError> {
    let result = next.result.clone();
    write_telling(conn, next, events, result.as_deref(), None)
}

/// [`write`] with the result the events describe (JSON) and the organiser's reason: a
/// reopening describes the result it took back, which `next` no longer holds.
fn write_telling(
    conn: &mut Db,
    next: battles::Battle,
    events: &[EventType],
    result: Option<&str>,
    reason: Option<&str>,
) -> Result<battles::Battle, ApiError> {
    if !battles::update_if_version(conn, &next)? {
        return Err(stale());
    }
    let result: Option<BattleResult> = result
        .map(serde_json::from_str)
        .transpose()
        .map_err(internal)?;
    for &event_type in events {
        let mut event = Event::battle(event_type, &next.campaign_id, &next.id, next.state.as_str());
        if let Some(result) = &result {
            event.data.outcome = Some(result.outcome.clone());
            event.data.winner_force_id = result.winner_force_id.clone();
        }
        event.data.reason = reason.map(str::to_owned);
        store::events::append(conn, &event)?;
    }
    Ok(next)
}

/// `scenario` → `pending` (or straight to `aftermath` when `confirmed`): the result is
/// recorded by `by`.
pub fn record_result(
    conn: &mut Db,
    battle: battles::Battle,
    result: &BattleResult,
    by: &str,
    confirmed: bool,
) -> Result<battles::Battle, ApiError> {
    let state = battle.state.record_result(!confirmed).map_err(refused)?;
    let next = battles::Battle {
        state,
        result: Some(serde_json::to_string(result).map_err(internal)?),
        result_by: Some(by.to_owned()),
        confirmed_by: confirmed.then(|| by.to_owned()),
        version: battle.version + 1,
        updated_at: store::now(),
        ..battle
    };
    let events: &[EventType] = if confirmed {
        &[
            EventType::BattleResultRecorded,
            EventType::BattleResultConfirmed,
        ]
    } else {
        &[EventType::BattleResultRecorded]
    };
    write(conn, next, events)
}

/// `pending` → `aftermath`: `by` confirms the result.
pub fn confirm(
    conn: &mut Db,
    battle: battles::Battle,
    by: &str,
) -> Result<battles::Battle, ApiError> {
    let state = battle.state.confirm().map_err(refused)?;
    let next = battles::Battle {
        state,
        confirmed_by: Some(by.to_owned()),
        version: battle.version + 1,
        updated_at: store::now(),
        ..battle
    };
    write(conn, next, &[EventType::BattleResultConfirmed])
}

/// `aftermath` → `complete`: the last player side finalized its post-battle sequence.
pub fn complete(conn: &mut Db, battle: battles::Battle) -> Result<battles::Battle, ApiError> {
    let state = battle.state.complete().map_err(refused)?;
    let next = battles::Battle {
        state,
        version: battle.version + 1,
        updated_at: store::now(),
        ..battle
    };
    write(conn, next, &[EventType::BattleCompleted])
}

/// Any state but `void` → `void`, keeping the result, with the organiser's correction.
pub fn void(
    conn: &mut Db,
    battle: battles::Battle,
    correction: battles::Correction,
) -> Result<battles::Battle, ApiError> {
    let state = battle.state.void().map_err(refused)?;
    correct(
        conn,
        battle,
        state,
        correction,
        false,
        &[EventType::BattleVoided],
    )
}

/// `pending` or `aftermath` → `scenario`, discarding the result (kept in the correction).
pub fn reopen(
    conn: &mut Db,
    battle: battles::Battle,
    correction: battles::Correction,
) -> Result<battles::Battle, ApiError> {
    let state = battle.state.reopen().map_err(refused)?;
    // The story tells the taken-back result and the reason; the new result gets its own events.
    correct(
        conn,
        battle,
        state,
        correction,
        true,
        &[EventType::BattleResultReopened],
    )
}

/// Appends `correction` to the battle's list and writes the battle in `state`.
fn correct(
    conn: &mut Db,
    battle: battles::Battle,
    state: BattleState,
    correction: battles::Correction,
    clear_result: bool,
    events: &[EventType],
) -> Result<battles::Battle, ApiError> {
    let mut list = battle.corrections().map_err(internal)?;
    let reason = correction.reason.clone();
    let told = battle.result.clone();
    list.push(correction);
    let keep = !clear_result;
    let next = battles::Battle {
        state,
        result: battle.result.clone().filter(|_| keep),
        result_by: battle.result_by.clone().filter(|_| keep),
        confirmed_by: battle.confirmed_by.clone().filter(|_| keep),
        corrections: serde_json::to_string(&list).map_err(internal)?,
        version: battle.version + 1,
        updated_at: store::now(),
        ..battle
    };
    write_telling(conn, next, events, told.as_deref(), reason.as_deref())
}
