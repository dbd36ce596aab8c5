//! `DELETE /api/v1/campaigns/{campaign_id}/api-keys/{key_id}`: the organiser revokes a key.

use actix_web::{HttpResponse, delete, web};

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::store::{self, api_keys};

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
    let caller = user.caller();
    let now = store::now();
    let revoked = key_id.clone();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            if api_keys::find_in_campaign(conn, &campaign_id, &key_id)?.is_none() {
                return Err(ApiError::not_found("API key"));
            }
            api_keys::revoke(conn, &campaign_id, &key_id, now)?;
            Ok(())
        })
        .await?;
    tracing::info!(api_key.id = %revoked, "Revoked API key {revoked}");
    Ok(HttpResponse::NoContent().finish())
}
