//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/finalize`: commits one force's
//! post-battle sequence (docs/rules.md §2; C12 ledger), in one transaction: the new roster through
//! the forces store (version-checked, one history entry with cause `battle` and the whole roll
//! log), the ledger entries (earned 2 × P, spent per purchase, forfeited when banking is off),
//! and the finalized stage. The battle is `complete` once every player side has finalized.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::store::events::{Event, EventType};
use crate::store::history::HistoryCause;
use crate::store::ledger::{self, LedgerError, LedgerKind, NewLedgerEntry};
use crate::store::{self, aftermath as rows, battles, forces};

use super::super::{idempotency_key, idempotent, problems, states, to_value};
use super::{AftermathResponse, begin, response_with, save, scope};

/// Finalizes one force's post-battle sequence. Two concurrent finalizes: exactly one succeeds,
/// the other gets 409.
#[utoipa::path(
    tag = "battles",
    operation_id = "finalize_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body(content = Option<super::super::EmptyBody>, description = "Empty, or `{}`"),
    responses(
        (status = 200, description = "The committed sequence", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not rolled yet, already finalized, the force changed since the result was recorded, not enough campaign points, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/aftermath/{force_id}/finalize")]
pub async fn finalize_aftermath(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    let key = idempotency_key(&req)?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    let scope = scope(&battle_id, &force_id, "finalize");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let aftermath = step.rolled()?;
        let outcome = aftermath.finalize().map_err(problems)?;
        let now = store::now();
        let cause = HistoryCause::new("battle", Some(&actor)).with_id(&battle_id);
        // The stored roster is the battle-start snapshot while the force is still at the
        // snapshot's version, which the update checks: no need to read it back.
        let committed = forces::replace_roster_from(
            conn,
            &force_id,
            step.row.force_version,
            &aftermath.battle_start,
            &outcome.roster,
            &cause,
            &outcome.rolls,
            now,
        )?;
        if !committed {
            return Err(ApiError::Conflict(
                "The force changed since this battle's result was recorded; its post-battle sequence cannot be committed over that change."
                    .to_owned(),
            ));
        }
        let cp = outcome.campaign_points;
        let mut entries = vec![NewLedgerEntry {
            kind: LedgerKind::Earned,
            amount: i64::from(cp.earned),
            cause: cause.clone(),
            note: Some("2 CP per platoon at battle start (C12)".to_owned()),
        }];
        for priced in &outcome.purchases {
            entries.push(NewLedgerEntry {
                kind: LedgerKind::Spent,
                amount: i64::from(priced.cost),
                cause: cause.clone(),
                note: Some(match &priced.purchase.unit_id {
                    Some(unit) => format!("{} ({unit})", priced.purchase.item),
                    None => priced.purchase.item.to_string(),
                }),
            });
        }
        if cp.forfeited > 0 {
            entries.push(NewLedgerEntry {
                kind: LedgerKind::Spent,
                amount: i64::from(cp.forfeited),
                cause: cause.clone(),
                note: Some("forfeited: campaign points are not banked".to_owned()),
            });
        }
        // A ledger entry (an organiser's adjustment) committed after this step read the
        // balance takes the next `seq` first (a unique violation here), or would leave the
        // outcome disagreeing with the ledger. Nothing is kept; a retry reads the new balance.
        let changed = || {
            ApiError::Conflict(
                "The force's campaign points changed while finalizing; retry.".to_owned(),
            )
        };
        let balance = match ledger::append_after(conn, &force_id, step.ledger, &entries, now) {
            Err(LedgerError::Db(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _,
            ))) => return Err(changed()),
            other => other?,
        };
        if balance != i64::from(cp.balance) {
            return Err(changed());
        }
        let outcome_json =
            serde_json::to_string(&outcome).map_err(|e| ApiError::Internal(e.into()))?;
        let row = save(conn, &step.row, rows::FINALIZED, &aftermath, Some(outcome_json))?;
        store::events::append(conn, &Event::aftermath_finalized(&step.battle.campaign_id, &battle_id, &force_id))?;
        if rows::count_unfinalized(conn, &battle_id)? == 0 {
            // The battle row is locked by this transaction since `begin`: its version is ours.
            let next = battles::Battle {
                state: states::COMPLETE.to_owned(),
                version: step.battle.version + 1,
                updated_at: now,
                ..step.battle
            };
            if !battles::update_if_version(conn, &next)? {
                return Err(ApiError::Conflict("The battle changed; retry.".to_owned()));
            }
            store::events::append(conn, &Event::battle(EventType::BattleCompleted, &next.campaign_id, &next.id, &next.state))?;
        }
        tracing::info!(battle.id = %battle_id, force.id = %force_id, "Finalized aftermath");
        let answer = response_with(&row, None, Some(to_value(&outcome)?), Vec::new(), Default::default())?;
        Ok((StatusCode::OK, to_value(&answer)?))
    })
    .await
}
