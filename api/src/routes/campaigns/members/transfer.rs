//! `POST /api/v1/campaigns/{campaign_id}/organiser`: hand the organiser role to another member.

use actix_web::{post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::members;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::MemberResponse;

/// Who becomes organiser.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferOrganiserRequest {
    /// A member's user id.
    pub user_id: String,
}

/// Hands the organiser role to another member (organiser); the old organiser becomes a player.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "transfer_organiser",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body = TransferOrganiserRequest,
    responses(
        (status = 200, description = "The new organiser", body = MemberResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may hand the role over", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The user is not a member of the campaign", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/organiser")]
pub async fn transfer_organiser(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: crate::extract::Json<TransferOrganiserRequest>,
) -> Result<web::Json<MemberResponse>, ApiError> {
    let target = body.into_inner().user_id;
    let member = members::transfer_organiser(&state, &user.caller(), &path, &target).await?;
    Ok(web::Json(member.into()))
}
