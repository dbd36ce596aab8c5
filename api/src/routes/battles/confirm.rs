//! `POST /api/v1/battles/{battle_id}/result/confirm`: the other side's owner or the organiser
//! confirms a pending result, opening the post-battle sequences. Confirming twice is harmless.
//! Whoever recorded the result never confirms it while playing a side, organiser or not.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::auth::{AuthUser, Need};
use crate::error::{ApiError, Problem};
use crate::store::events::{Event, EventType};
use crate::store::{self, battles};

use super::{
    BattleResponse, idempotency_key, idempotent, lock_authorized, owned_forces, player_forces,
    states, to_value,
};

/// Confirms a pending result. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "confirm_battle_result",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body(content = Option<super::EmptyBody>, description = "Empty, or `{}`"),
    responses(
        (status = 200, description = "The battle, now `aftermath` (or as it was, if already confirmed)", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the other side's owner or the organiser may confirm", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No result is recorded", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/result/confirm")]
pub async fn confirm_result(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    let scope = format!("POST /api/v1/battles/{battle_id}/result/confirm");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let (battle, access) = lock_authorized(conn, &caller, &battle_id, Need::Write)?;
        let owns = !owned_forces(conn, &access, &player_forces(&battle)?)?.is_empty();
        let forbidden = || {
            ApiError::Forbidden(
                "Only the other side's owner or the organiser may confirm the result.".to_owned(),
            )
        };
        if !access.is_organiser() && !owns {
            return Err(forbidden());
        }
        match battle.state.as_str() {
            states::PENDING => {}
            states::SCENARIO => {
                return Err(ApiError::Conflict(
                    "No result is recorded for this battle yet.".to_owned(),
                ));
            }
            _ => {
                return Ok((
                    StatusCode::OK,
                    to_value(&BattleResponse::load(conn, battle)?)?,
                ));
            }
        }
        let recorder = battle.result_by.as_deref() == Some(actor.as_str());
        if recorder && (owns || !access.is_organiser()) {
            return Err(ApiError::Forbidden(
                "You recorded this result; the other side's owner confirms it.".to_owned(),
            ));
        }
        let next = battles::Battle {
            state: states::AFTERMATH.to_owned(),
            confirmed_by: Some(actor),
            version: battle.version + 1,
            updated_at: store::now(),
            ..battle
        };
        if !battles::update_if_version(conn, &next)? {
            return Err(ApiError::Conflict("The battle changed; retry.".to_owned()));
        }
        store::events::append(
            conn,
            &Event::battle(
                EventType::BattleResultConfirmed,
                &next.campaign_id,
                &next.id,
                &next.state,
            ),
        )?;
        Ok((
            StatusCode::OK,
            to_value(&BattleResponse::load(conn, next)?)?,
        ))
    })
    .await
}
