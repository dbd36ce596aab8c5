//! `DELETE /api/v1/campaigns/{campaign_id}/api-keys/{key_id}`: the organiser revokes a key.

use actix_web::{HttpResponse, delete, web};

use crate::AppState;
use crate::app::campaigns::api_keys;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

/// Revokes an integration key (organiser); it gets 401 from then on. Revoking twice is harmless.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "revoke_api_key",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("key_id" = String, Path, description = "The key id"),
    ),
    responses(
        (status = 204, description = "The key is revoked"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may revoke keys", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or key", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/campaigns/{campaign_id}/api-keys/{key_id}")]
pub async fn revoke_api_key(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, key_id) = path.into_inner();
    api_keys::revoke_api_key(&state, &user.caller(), &campaign_id, &key_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
