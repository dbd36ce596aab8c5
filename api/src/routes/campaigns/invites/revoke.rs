//! `DELETE /api/v1/campaigns/{campaign_id}/invites/{invite_id}`: the organiser revokes a code.

use actix_web::{HttpResponse, delete, web};

use crate::AppState;
use crate::app::campaigns::invites;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

/// Revokes an invitation (organiser); the code stops working at once. Revoking twice is
/// harmless.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "revoke_invite",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("invite_id" = String, Path, description = "The invitation id"),
    ),
    responses(
        (status = 204, description = "The invitation is revoked"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may revoke invitations", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or invitation", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/campaigns/{campaign_id}/invites/{invite_id}")]
pub async fn revoke_invite(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, invite_id) = path.into_inner();
    invites::revoke_invite(&state, &user.caller(), &campaign_id, &invite_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
