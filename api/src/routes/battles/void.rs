//! `POST /api/v1/battles/{battle_id}/void` (organiser): the battle counts for nothing and its
//! effects are undone (API.md › Battles; issue 6, corrections).
//!
//! In one transaction, for every force whose post-battle sequence was finalized: a compensating
//! roster change (history cause `void` with the battle id; the force's version goes up) that
//! undoes what the battle changed ([`super::revert`]), and compensating ledger entries (each
//! `spent` of the battle returned as `earned`, each `earned` taken back as `spent`, cause
//! `void`). History is never deleted. Sequences not yet finalized changed nothing; they stay
//! readable with their rolls. The battle becomes `void`: out of the standings, shown as void in
//! lists and the timeline, and closed to further steps.
//!
//! Refused with 409 while a later battle of the same force builds on this one (its result was
//! recorded on the roster this battle left): void (or reopen) that battle first, newest first.
//! Also 409 when the roster was edited since in a field the battle changed, or when taking the
//! battle's campaign points back would overdraw the ledger. Voiding a void battle is harmless.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::roster::Force as Roster;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Need};
use crate::db::Db;
use crate::error::{ApiError, FieldError, Problem};
use crate::store::events::{Event, EventType};
use crate::store::history::{self, HistoryCause};
use crate::store::ledger::{self, LedgerError, LedgerKind, NewLedgerEntry};
use crate::store::{self, aftermath as rows, battles, forces};

use super::{
    BattleResponse, authorize_battle, idempotency_key, idempotent, lock_battle, parse_body,
    revert::revert, states, to_value,
};

/// The longest accepted reason, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// An organiser correction (void or reopen): an optional reason, kept with the battle.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
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

/// Appends `correction` to the battle's list and writes the battle (version-checked).
pub fn save_correction(
    conn: &mut Db,
    battle: battles::Battle,
    next_state: &str,
    correction: battles::Correction,
    clear_result: bool,
) -> Result<battles::Battle, ApiError> {
    let mut list = battle.corrections().map_err(internal)?;
    list.push(correction);
    let next = battles::Battle {
        state: next_state.to_owned(),
        result: if clear_result {
            None
        } else {
            battle.result.clone()
        },
        result_by: if clear_result {
            None
        } else {
            battle.result_by.clone()
        },
        confirmed_by: if clear_result {
            None
        } else {
            battle.confirmed_by.clone()
        },
        corrections: serde_json::to_string(&list).map_err(internal)?,
        version: battle.version + 1,
        updated_at: store::now(),
        ..battle
    };
    if !battles::update_if_version(conn, &next)? {
        return Err(ApiError::Conflict("The battle changed; retry.".to_owned()));
    }
    Ok(next)
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
        if later.is_some_and(|b| b.state != states::VOID) && !out.contains(&other.battle_id) {
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
    let before: Roster = serde_json::from_str(&row.battle_start).map_err(internal)?;
    let after: Roster = serde_json::from_str(&committed.snapshot).map_err(internal)?;
    let current = force.roster().map_err(internal)?;
    let reverted = revert(&before, &after, &current).map_err(|conflicts| {
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

/// Voids a battle and undoes its effects (organiser only). Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "void_battle",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body(content = Option<CorrectionRequest>, description = "Empty, `{}`, or `{\"reason\": ...}`"),
    responses(
        (status = 200, description = "The battle, now `void` (or as it was, if already void)", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the campaign's organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A later battle of the same force builds on this one, a field the battle changed was edited since, the campaign points cannot be taken back, or a concurrent write won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A reason over 500 characters, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/void")]
pub async fn void_battle(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    // `null` reads as no reason, like an empty body (the document marks the body optional).
    let request: CorrectionRequest =
        parse_body::<Option<CorrectionRequest>>(&body)?.unwrap_or_default();
    let reason = request.reason()?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    let scope = format!("POST /api/v1/battles/{battle_id}/void");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let (_, access) = authorize_battle(conn, &caller, &battle_id, Need::Write)?;
        organiser_only(&access, "void")?;
        let battle = lock_battle(conn, &battle_id)?;
        if battle.state == states::VOID {
            return Ok((StatusCode::OK, to_value(&BattleResponse::load(conn, battle)?)?));
        }
        let sequences = rows::list_for_battle(conn, &battle_id)?;
        let finalized: Vec<&rows::AftermathRow> = sequences
            .iter()
            .filter(|r| r.stage == rows::FINALIZED)
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
            previous_state: battle.state.clone(),
            discarded_result: None,
            discarded_rolls: Vec::new(),
        };
        let next = save_correction(conn, battle, states::VOID, correction, false)?;
        store::events::append(conn, &Event::battle(EventType::BattleVoided, &next.campaign_id, &next.id, &next.state))?;
        tracing::info!(battle.id = %next.id, undone = finalized.len(), "Voided battle");
        Ok((StatusCode::OK, to_value(&BattleResponse::new(next, &sequences)?)?))
    })
    .await
}
