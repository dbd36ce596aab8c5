//! `DELETE /api/v1/campaigns/{campaign_id}/members/{user_id}`: the organiser removes a player.

use actix_web::{HttpResponse, delete, web};

use crate::AppState;
use crate::app::campaigns::members;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

/// Removes a player from a campaign (organiser). The organiser cannot remove themself: hand
/// the role over first.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "remove_member",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("user_id" = String, Path, description = "The member's user id"),
    ),
    responses(
        (status = 204, description = "The member was removed"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may remove members", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or member", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The organiser cannot remove themself", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/campaigns/{campaign_id}/members/{user_id}")]
pub async fn remove_member(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, member_id) = path.into_inner();
    members::remove_member(&state, &user.caller(), &campaign_id, &member_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
