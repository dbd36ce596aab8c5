//! `POST /api/v1/battles/{battle_id}/reopen` (organiser): takes back a recorded result so a
//! different one can be recorded; see [`crate::app::battles::corrections`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::corrections as app;
use crate::app::battles::corrections::CorrectionRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::{BattleResponse, idempotency_key, parse_body, render};

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
    let scope = format!("POST /api/v1/battles/{battle_id}/reopen");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::reopen_battle(&state, &user, battle_id, request, write).await?)
}
