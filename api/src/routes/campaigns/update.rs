//! `PATCH /api/v1/campaigns/{campaign_id}`: rename a campaign or change its description
//! (organiser), guarded by the campaign version.

use actix_web::{HttpRequest, HttpResponse, patch, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access, policy::campaign_not_found};
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::Json;
use crate::store::{self, campaigns, memberships::Role};

use super::{CampaignResponse, Precondition, etag, validate_description, validate_name};

/// Changes to a campaign; absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCampaignRequest {
    /// The version the change is based on. Required unless `If-Match` is sent.
    pub version: Option<i64>,
    /// A new name, 1–100 characters.
    pub name: Option<String>,
    /// A new description (up to 2000 characters); `""` removes it.
    pub description: Option<String>,
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
        (status = 409, description = "`version` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name or description, or no version given", body = Problem, content_type = "application/problem+json"),
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
    let campaign_id = path.into_inner();
    let UpdateCampaignRequest {
        version,
        name,
        description,
    } = body.into_inner();
    let mut errors = Vec::new();
    let name = match name.map(|n| validate_name(&n)) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(m)) => {
            errors.push(FieldError::new("name", m));
            None
        }
    };
    let description = match description.map(|d| validate_description(Some(d))) {
        None => None,
        Some(Ok(d)) => Some(d),
        Some(Err(m)) => {
            errors.push(FieldError::new("description", m));
            None
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let precondition = Precondition::read(req.headers(), version)?;
    let caller = user.caller();
    let now = store::now();
    let updated = state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            let current =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            precondition.check(current.version)?;
            let name = name.unwrap_or_else(|| current.name.clone());
            let description = description.unwrap_or_else(|| current.description.clone());
            campaigns::update_details_if_version(
                conn,
                &campaign_id,
                current.version,
                &name,
                description.as_deref(),
                now,
            )?
            .ok_or_else(|| ApiError::Conflict("The campaign changed meanwhile.".to_owned()))
        })
        .await?;
    tracing::info!(campaign.id = %updated.id, "Updated campaign {}", updated.id);
    let version = updated.version;
    Ok(HttpResponse::Ok()
        .insert_header(etag(version))
        .json(CampaignResponse::new(updated, Some(Role::Organiser))?))
}
