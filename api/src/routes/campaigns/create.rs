//! `POST /api/v1/campaigns`: create a campaign; the caller becomes its organiser.

use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::Json;
use crate::store;
use crate::store::campaigns::{self, Campaign, CampaignSettings};
use crate::store::memberships::{self, Membership, Role};

use super::settings::HouseRulesBody;
use super::{CampaignResponse, etag, validate_description, validate_name};

/// A new campaign.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
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
        (status = 422, description = "Invalid name or description, an unknown field, or the account created its most campaigns (`FAD_MAX_CAMPAIGNS_PER_ACCOUNT`)", body = Problem, content_type = "application/problem+json"),
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
    } = body.into_inner();
    let mut errors = Vec::new();
    let name = validate_name(&name)
        .map_err(|m| errors.push(FieldError::new("name", m)))
        .ok();
    let description = validate_description(description)
        .map_err(|m| errors.push(FieldError::new("description", m)))
        .ok();
    let (Some(name), Some(description)) = (name, description) else {
        return Err(ApiError::Validation(errors));
    };
    let defaults = CampaignSettings::default();
    let settings = CampaignSettings {
        house_rules: house_rules.map_or(defaults.house_rules, Into::into),
        results_need_confirmation: results_need_confirmation
            .unwrap_or(defaults.results_need_confirmation),
        lock_rosters_after_play: lock_rosters_after_play
            .unwrap_or(defaults.lock_rosters_after_play),
    };
    let now = store::now();
    let campaign = Campaign {
        id: store::new_id(),
        name,
        description,
        settings: serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.into()))?,
        version: 1,
        created_by: user.user_id.clone(),
        created_at: now,
        updated_at: now,
    };
    let stored = campaign.clone();
    let quotas = state.config.quotas;
    state
        .db
        .transaction(move |conn| {
            quotas.check_campaigns(conn, &user.user_id)?;
            campaigns::insert(conn, &stored)?;
            let organiser = Membership::new(&stored.id, &user.user_id, Role::Organiser, now);
            Ok(memberships::insert(conn, &organiser)?)
        })
        .await?;
    tracing::info!(campaign.id = %campaign.id, "Created campaign {}", campaign.id);
    let version = campaign.version;
    let location = format!("/api/v1/campaigns/{}", campaign.id);
    Ok(HttpResponse::Created()
        .insert_header(("Location", location))
        .insert_header(etag(version))
        .json(CampaignResponse::new(campaign, Some(Role::Organiser))?))
}
