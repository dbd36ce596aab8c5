//! `GET /api/v1/campaigns/{campaign_id}/battles`: a campaign's battles, oldest first. Members
//! and the campaign's integration keys may read it.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::store::battles;

use super::BattleResponse;

/// A page of a campaign's battles.
#[derive(Debug, Serialize, ToSchema)]
pub struct BattleList {
    /// Oldest first.
    pub battles: Vec<BattleResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Lists a campaign's battles, oldest first, a page at a time.
#[utoipa::path(
    tag = "battles",
    operation_id = "list_battles",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the battles", body = BattleList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/battles")]
pub async fn list_battles(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<BattleList>, ApiError> {
    let campaign_id = path.into_inner();
    let page = page.keyset("battles", &campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (battles, next) = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let rows = battles::list_for_campaign(conn, &campaign_id, after.as_ref(), fetch)?;
            let (rows, next) = page.finish(rows, |b| (b.created_at, b.id.clone()))?;
            let mut battles = rows
                .into_iter()
                .map(|b| BattleResponse::load(conn, b))
                .collect::<Result<Vec<_>, _>>()?;
            super::names::name_sides(conn, &mut battles)?;
            Ok((battles, next))
        })
        .await?;
    Ok(web::Json(BattleList { battles, next }))
}
