//! `POST /api/v1/campaigns/{campaign_id}/battles`: a battle between two forces of the campaign,
//! or one force and a non-player force. State `scenario`.

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::create as app;
pub use crate::app::battles::create::CreateBattleRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::{BattleResponse, idempotency_key, render};

/// Creates a battle. The caller must own one of the forces or be the organiser. Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "create_battle",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body = CreateBattleRequest,
    responses(
        (status = 201, description = "The battle", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller owns neither force and is not the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid sides (an unknown field, with its path), a force of another campaign or archived, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The campaign created its most battles in the last 24 hours (`FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY`); `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/battles")]
pub async fn create_battle(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: CreateBattleRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/campaigns/{campaign_id}/battles");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::create_battle(&state, &user, campaign_id, request, write).await?)
}
