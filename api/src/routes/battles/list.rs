//! `GET /api/v1/campaigns/{campaign_id}/battles`: a campaign's battles, oldest first. Members
//! and the campaign's integration keys may read it.

use actix_web::{get, web};

use crate::AppState;
use crate::app::battles::reads as app;
pub use crate::app::battles::reads::BattleList;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

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
    let list = app::list_battles(&state, caller, campaign_id, page).await?;
    Ok(web::Json(list))
}
