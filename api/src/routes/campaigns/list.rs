//! `GET /api/v1/campaigns`: the caller's campaigns, paged.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::store::campaigns;
use crate::store::memberships::Role;

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
    let page = page.keyset("campaigns", &user.user_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let rows = state
        .db
        .run(move |conn| {
            Ok(campaigns::list_for_user(
                conn,
                &user.user_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(c, _)| (c.created_at, c.id.clone()))?;
    let campaigns = rows
        .into_iter()
        .map(|(campaign, role)| CampaignResponse::new(campaign, Some(Role::from_stored(&role))))
        .collect::<Result<_, _>>()?;
    Ok(web::Json(CampaignList { campaigns, next }))
}
