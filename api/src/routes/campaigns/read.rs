//! `GET /api/v1/campaigns/{campaign_id}`: one campaign, for its members and its integration
//! keys.

use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::app::campaigns;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

use super::{CampaignResponse, etag};

/// Reads a campaign: its name, description and settings (all of which the campaign's
/// integration keys may read too; `role` is then absent). Outsiders get 404, as if it did not
/// exist.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_campaign",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The campaign", body = CampaignResponse,
            headers(("ETag" = String, description = "The campaign version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}")]
pub async fn get_campaign(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let view = campaigns::read_campaign(&state, &caller, &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(view.campaign.version))
        .json(CampaignResponse::from(view)))
}
