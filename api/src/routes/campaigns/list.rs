//! `GET /api/v1/campaigns`: the caller's campaigns, paged.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::CampaignResponse;

/// A page of the caller's campaigns.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignList {
    /// Newest first.
    pub campaigns: Vec<CampaignResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Lists the campaigns the caller belongs to, newest first, a page at a time.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_campaigns",
    security(("bearer" = [])),
    params(PageParams),
    responses(
        (status = 200, description = "A page of the caller's campaigns", body = CampaignList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot list campaigns", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns")]
pub async fn list_campaigns(
    user: AuthUser,
    state: web::Data<AppState>,
    page: Page,
) -> Result<web::Json<CampaignList>, ApiError> {
    let listed = campaigns::list_campaigns(&state, &user.caller(), page).await?;
    Ok(web::Json(CampaignList {
        campaigns: listed.items.into_iter().map(Into::into).collect(),
        next: listed.next,
    }))
}
