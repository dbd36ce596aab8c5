//! `GET /api/v1/campaigns/{campaign_id}/members`, paged.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::store::memberships;

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
    let campaign_id = path.into_inner();
    let page = page.keyset("members", &campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let is_key = caller.user_id().is_none();
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(memberships::list_with_usernames(
                conn,
                &campaign_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(m, _)| m.key())?;
    Ok(web::Json(MemberList {
        members: rows
            .into_iter()
            .map(|(m, names)| {
                let mut member = MemberResponse::new(m, names);
                if is_key {
                    member.username = None;
                }
                member
            })
            .collect(),
        next,
    }))
}
