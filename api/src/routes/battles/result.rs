//! `POST /api/v1/battles/{battle_id}/result`: the outcome and per-unit losses (docs/rules.md
//! C2–C4, C16); see [`crate::app::battles::result`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::result as app;
pub use crate::app::battles::result::{BattleOutcome, LossRequest, ResultRequest};
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::{BattleResponse, idempotency_key, render};

/// Records a battle's result. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "record_battle_result",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body = ResultRequest,
    responses(
        (status = 200, description = "The battle, `pending`, or `aftermath` when confirmation is off or the organiser recorded it without playing against another player", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither a side's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A different result is already recorded (the organiser may reopen or void the battle), or the battle is void", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Losses that do not fit the rosters, a bad winner, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/result")]
pub async fn record_result(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: ResultRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/result");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::record_result(&state, &user, battle_id, request, write).await?)
}
