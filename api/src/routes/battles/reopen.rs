//! `POST /api/v1/battles/{battle_id}/reopen` (organiser): takes back a recorded result so a
//! different one can be recorded (issue 6, corrections).
//!
//! Semantics: allowed while the result is `pending` or in `aftermath` and no force's
//! post-battle sequence is finalized, i.e. while nothing of the battle has reached a roster or a
//! ledger. In one transaction the battle goes back to `scenario` with no result, its post-battle
//! sequences are discarded, and a `reopen` correction keeps the discarded result and every roll
//! those sequences made (each with its `force_id`), so the roll log stays whole. Recording the
//! next result takes fresh battle-start snapshots; its post-battle dice are new rolls. The
//! battle's scenario (issue 7), if it has one, is kept as it was, rolls included.
//!
//! Once any sequence is finalized (or the battle is `complete`) reopening is 409: void the
//! battle instead, which undoes what was committed. A battle without a result, or a void one,
//! cannot be reopened (409). An `Idempotency-Key` used before the reopening still replays its
//! stored response; send new keys for the new result's steps.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::campaign::Aftermath;

use crate::AppState;
use crate::auth::{AuthUser, Need};
use crate::error::{ApiError, Problem};
use crate::store::{self, aftermath as rows, battles};

use super::void::{CorrectionRequest, organiser_only, save_correction};
use super::{
    BattleResponse, authorize_battle, idempotency_key, idempotent, lock_battle, parse_body, states,
    to_value,
};

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// Reopens a battle's result (organiser only). Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "reopen_battle",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body(content = Option<CorrectionRequest>, description = "Empty, `{}`, or `{\"reason\": ...}`"),
    responses(
        (status = 200, description = "The battle, back in `scenario` without a result", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the campaign's organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No result to reopen, a post-battle sequence is finalized (void instead), the battle is void, or a concurrent write won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A reason over 500 characters, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/reopen")]
pub async fn reopen_battle(
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
    let scope = format!("POST /api/v1/battles/{battle_id}/reopen");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let (_, access) = authorize_battle(conn, &caller, &battle_id, Need::Write)?;
        organiser_only(&access, "reopen")?;
        let battle = lock_battle(conn, &battle_id)?;
        match battle.state.as_str() {
            states::PENDING | states::AFTERMATH => {}
            states::SCENARIO => {
                return Err(ApiError::Conflict(
                    "No result is recorded for this battle; there is nothing to reopen.".to_owned(),
                ));
            }
            states::VOID => {
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
        if let Some(done) = sequences.iter().find(|r| r.stage == rows::FINALIZED) {
            return Err(ApiError::Conflict(format!(
                "The post-battle sequence of force {} is finalized and committed to its roster; void the battle instead.",
                done.force_id
            )));
        }
        let mut discarded_rolls = Vec::new();
        for row in &sequences {
            let Some(json) = &row.state else { continue };
            let aftermath: Aftermath = serde_json::from_str(json).map_err(internal)?;
            discarded_rolls.extend(aftermath.rolls.into_iter().map(|mut roll| {
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
            previous_state: battle.state.clone(),
            discarded_result,
            discarded_rolls,
        };
        let next = save_correction(conn, battle, states::SCENARIO, correction, true)?;
        tracing::info!(battle.id = %next.id, "Reopened battle");
        Ok((StatusCode::OK, to_value(&BattleResponse::new(next, &[])?)?))
    })
    .await
}
