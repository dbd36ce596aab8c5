//! `GET /api/v1/campaigns/{campaign_id}/settings`: house rules and service settings.

use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access, policy::campaign_not_found};
use crate::error::{ApiError, Problem};
use crate::store::campaigns;

use super::super::etag;
use super::SettingsResponse;

/// Reads a campaign's settings (members).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_campaign_settings",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The settings", body = SettingsResponse,
            headers(("ETag" = String, description = "The campaign version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read settings", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/settings")]
pub async fn get_campaign_settings(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let caller = user.caller();
    let campaign = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)
        })
        .await?;
    let settings = campaign
        .settings()
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(campaign.settings_version))
        .json(SettingsResponse::new(&campaign, settings)))
}
