//! `POST /api/v1/battles/{battle_id}/result/confirm`: the other side's owner or the organiser
//! confirms a pending result, opening the post-battle sequences. Confirming twice is harmless.
//! Whoever recorded the result never confirms it while playing a side, organiser or not.

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::result as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::{BattleResponse, idempotency_key, render};

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
    let scope = format!("POST /api/v1/battles/{battle_id}/result/confirm");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::confirm_result(&state, &user, battle_id, write).await?)
}
