//! `GET /api/v1/campaigns/{campaign_id}/timeline`: the campaign's battles in order, each with
//! its result and every player side's aftermath summary; see [`crate::app::battles::timeline`].

use actix_web::{get, web};

use crate::AppState;
use crate::app::battles::timeline as app;
pub use crate::app::battles::timeline::{Timeline, TimelineAftermath, TimelineEntry};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

/// Reads a campaign's timeline, oldest battle first, a page at a time.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_timeline",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the timeline", body = Timeline),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/timeline")]
pub async fn get_timeline(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<Timeline>, ApiError> {
    let campaign_id = path.into_inner();
    let page = page.keyset("timeline", &campaign_id)?;
    Ok(web::Json(
        app::read_timeline(&state, caller, campaign_id, page).await?,
    ))
}
