//! `PUT /api/v1/campaigns/{campaign_id}/settings`: replace the settings (organiser), guarded by
//! the settings' own version (a rename does not make it stale).

use actix_web::{HttpRequest, HttpResponse, put, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::settings::{self, SettingsChanges};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store::campaigns::CampaignSettings;

use super::super::{etag, if_match};
use super::{HouseRulesBody, SettingsResponse};

/// New settings. Omitted house-rule switches take the settled readings (this replaces the
/// settings; it does not merge).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"version": 1, "house_rules": {"missions_hidden": false, "bank_campaign_points": true}, "results_need_confirmation": true, "lock_rosters_after_play": false}))]
pub struct UpdateSettingsRequest {
    /// The settings version the change is based on. Required unless `If-Match` is sent.
    pub version: Option<i64>,
    /// House rules (docs/rules.md §6).
    #[serde(default)]
    pub house_rules: HouseRulesBody,
    /// Whether results wait for confirmation (default true).
    #[serde(default = "default_true")]
    pub results_need_confirmation: bool,
    /// Whether rosters are locked after a force's first battle (default true): raising
    /// Quality, Resolve, strength or points then needs the organiser.
    #[serde(default = "default_true")]
    pub lock_rosters_after_play: bool,
    /// Whether anyone may read the standings without signing in (default false): the page
    /// `/campaigns/{id}/standings/embed` and `GET /api/v1/public/campaigns/{id}/standings`.
    #[serde(default)]
    pub public_standings: bool,
}

fn default_true() -> bool {
    true
}

/// Replaces a campaign's settings (organiser). A stale `version` gets 409 and a stale `If-Match`
/// 412; neither changes anything.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "update_campaign_settings",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("If-Match" = Option<String>, Header, description = "The `ETag` the change is based on"),
    ),
    request_body = UpdateSettingsRequest,
    responses(
        (status = 200, description = "The new settings", body = SettingsResponse,
            headers(("ETag" = String, description = "The new settings version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may change settings", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Neither `version` nor `If-Match` was sent", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/campaigns/{campaign_id}/settings")]
pub async fn update_campaign_settings(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<UpdateSettingsRequest>,
) -> Result<HttpResponse, ApiError> {
    let UpdateSettingsRequest {
        version,
        house_rules,
        results_need_confirmation,
        lock_rosters_after_play,
        public_standings,
    } = body.into_inner();
    let changes = SettingsChanges {
        version,
        if_match: if_match(req.headers()),
        settings: CampaignSettings {
            house_rules: house_rules.into(),
            results_need_confirmation,
            lock_rosters_after_play,
            public_standings,
            // Kept from the stored settings: the ruleset changes through PATCH of the campaign.
            ruleset: Default::default(),
        },
    };
    let view = settings::update_settings(&state, &user.caller(), &path, changes).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(view.version))
        .json(SettingsResponse::from(view)))
}
