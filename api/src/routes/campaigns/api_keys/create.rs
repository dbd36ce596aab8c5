//! `POST /api/v1/campaigns/{campaign_id}/api-keys`: the organiser creates an integration key.

use actix_web::{HttpResponse, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::api_keys;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

/// A new integration key.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "club website"}))]
pub struct CreateApiKeyRequest {
    /// What the key is for, 1–100 characters ("club website").
    #[schema(example = "club website")]
    pub name: String,
}

/// A new key, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedApiKeyResponse {
    /// The key id (to revoke it).
    pub id: String,
    /// The key: `fad_` + 64 hex digits. Send it as `Authorization: Bearer <key>` or
    /// `X-Api-Key: <key>`. It cannot be shown again.
    pub key: String,
    /// The campaign it reads.
    pub campaign_id: String,
    /// Its name.
    pub name: String,
    /// The first characters of the key, as listed later.
    pub key_prefix: String,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
}

/// Creates a read-only integration key for the campaign (organiser). It reads the campaign's
/// standings, battles, forces and public scenario data, and nothing else.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "create_api_key",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body = CreateApiKeyRequest,
    responses(
        (status = 201, description = "The key, shown once", body = CreatedApiKeyResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may create keys", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/api-keys")]
pub async fn create_api_key(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<CreateApiKeyRequest>,
) -> Result<HttpResponse, ApiError> {
    let name = body.into_inner().name;
    let created = api_keys::create_api_key(&state, &user.caller(), &path, &name).await?;
    let key = created.key;
    Ok(HttpResponse::Created().json(CreatedApiKeyResponse {
        id: key.id,
        key: created.secret,
        campaign_id: key.campaign_id,
        name: key.name,
        key_prefix: key.key_prefix,
        created_at: key.created_at.and_utc(),
    }))
}
