//! `POST /api/v1/campaigns/{campaign_id}/leave`: a player leaves a campaign.

use actix_web::{HttpResponse, post, web};

use crate::AppState;
use crate::app::campaigns::members;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

/// Leaves a campaign. The organiser must hand the role over first (409).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "leave_campaign",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 204, description = "The caller left the campaign"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The organiser must hand the role over first", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/leave")]
pub async fn leave_campaign(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    // Read (and ignore) any body: actix closes a keep-alive connection whose request body was
    // left unread, which breaks clients that reuse it. The app's payload limit bounds it.
    let _ = body.to_bytes().await;
    members::leave_campaign(&state, &user.caller(), &path).await?;
    Ok(HttpResponse::NoContent().finish())
}
