//! `GET /api/v1/campaigns/{campaign_id}/members`, paged.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::members;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::MemberResponse;

/// A page of a campaign's members.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberList {
    /// The organiser first, then players by the time they joined.
    pub members: Vec<MemberResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Lists a campaign's members, organiser first, then by join time (members, and the campaign's
/// integration keys, which see display names but not usernames).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_members",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the members", body = MemberList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/members")]
pub async fn list_members(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<MemberList>, ApiError> {
    let listed = members::list_members(&state, &caller, &path, page).await?;
    Ok(web::Json(MemberList {
        members: listed.items.into_iter().map(Into::into).collect(),
        next: listed.next,
    }))
}
