//! `POST /api/v1/campaigns`: create a campaign; the caller becomes its organiser.

use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::{self, NewCampaign};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

use super::settings::HouseRulesBody;
use super::{CampaignResponse, etag};

/// A new campaign.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Operation Long Winter", "description": "Four players, one battle a fortnight.", "house_rules": {"missions_hidden": true}, "results_need_confirmation": true, "lock_rosters_after_play": true}))]
pub struct CreateCampaignRequest {
    /// 1–100 characters.
    #[schema(example = "Operation Long Winter")]
    pub name: String,
    /// Up to 2000 characters.
    pub description: Option<String>,
    /// House rules; omitted switches take the settled readings.
    pub house_rules: Option<HouseRulesBody>,
    /// Whether results wait for confirmation (default true).
    pub results_need_confirmation: Option<bool>,
    /// Whether rosters are locked after a force's first battle (default true): raising
    /// Quality, Resolve, strength or points then needs the organiser.
    pub lock_rosters_after_play: Option<bool>,
    /// The ruleset: its id (newest version) or `{"id", "version"}`; default `fad5e`, newest.
    /// A house ruleset must be the caller's or one its campaigns play; its option defaults
    /// become the campaign's house rules unless `house_rules` is sent.
    pub ruleset: Option<crate::routes::rulesets::RulesetChoice>,
}

/// Creates a campaign. The caller becomes its organiser.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "create_campaign",
    security(("bearer" = [])),
    request_body = CreateCampaignRequest,
    responses(
        (status = 201, description = "The campaign", body = CampaignResponse,
            headers(("ETag" = String, description = "The campaign version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name or description, an unknown field, an unknown ruleset or version or a house ruleset the caller may not use (at `ruleset`), or the account created its most campaigns (`FAD_MAX_CAMPAIGNS_PER_ACCOUNT`)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns")]
pub async fn create_campaign(
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<CreateCampaignRequest>,
) -> Result<HttpResponse, ApiError> {
    let CreateCampaignRequest {
        name,
        description,
        house_rules,
        results_need_confirmation,
        lock_rosters_after_play,
        ruleset,
    } = body.into_inner();
    let input = NewCampaign {
        name,
        description,
        house_rules: house_rules.map(Into::into),
        results_need_confirmation,
        lock_rosters_after_play,
        ruleset: ruleset.map(Into::into),
    };
    let view = campaigns::create_campaign(&state, &user.caller(), input).await?;
    let location = format!("/api/v1/campaigns/{}", view.campaign.id);
    Ok(HttpResponse::Created()
        .insert_header(("Location", location))
        .insert_header(etag(view.campaign.version))
        .json(CampaignResponse::from(view)))
}
