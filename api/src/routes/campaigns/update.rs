//! `PATCH /api/v1/campaigns/{campaign_id}`: rename a campaign or change its description
//! (organiser), guarded by the campaign version.

use actix_web::{HttpRequest, HttpResponse, patch, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::{self, CampaignChanges};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

use super::{CampaignResponse, etag, if_match};

/// Changes to a campaign; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"version": 1, "name": "Operation Long Winter", "description": "Autumn league: four players, one battle a fortnight."}))]
pub struct UpdateCampaignRequest {
    /// The version the change is based on. Required unless `If-Match` is sent.
    pub version: Option<i64>,
    /// A new name, 1–100 characters.
    pub name: Option<String>,
    /// A new description (up to 2000 characters); `""` removes it.
    pub description: Option<String>,
    /// Another ruleset (id, or `{"id", "version"}`): only while the campaign has no battles,
    /// and one of another family only while it has no forces.
    pub ruleset: Option<crate::routes::rulesets::RulesetChoice>,
    /// Read-only (as `GET` answers it): ignored; settings change through their own `PUT`.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub id: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored; settings change through their own `PUT`.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub role: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored; settings change through their own `PUT`.
    #[serde(default)]
    #[schema(read_only, value_type = Option<crate::routes::campaigns::settings::SettingsResponse>)]
    pub settings: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored; settings change through their own `PUT`.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub created_at: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored; settings change through their own `PUT`.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub updated_at: Option<serde_json::Value>,
}

/// Renames a campaign or changes its description (organiser). A stale `version` gets 409 and
/// a stale `If-Match` 412; neither changes anything. Settings change through
/// `PUT /campaigns/{campaign_id}/settings`.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "update_campaign",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("If-Match" = Option<String>, Header, description = "The `ETag` the change is based on"),
    ),
    request_body = UpdateCampaignRequest,
    responses(
        (status = 200, description = "The campaign", body = CampaignResponse,
            headers(("ETag" = String, description = "The new campaign version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may change the campaign", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version` is stale, or the ruleset cannot change any more (the campaign has a battle, or forces and the family differs)", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name or description, an unknown ruleset, or no version given", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[patch("/campaigns/{campaign_id}")]
pub async fn update_campaign(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<UpdateCampaignRequest>,
) -> Result<HttpResponse, ApiError> {
    let UpdateCampaignRequest {
        version,
        name,
        description,
        ruleset,
        ..
    } = body.into_inner();
    let changes = CampaignChanges {
        version,
        if_match: if_match(req.headers()),
        name,
        description,
        ruleset: ruleset.map(Into::into),
    };
    let view = campaigns::update_campaign(&state, &user.caller(), &path, changes).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(view.campaign.version))
        .json(CampaignResponse::from(view)))
}
