//! `GET /api/v1/campaigns/{campaign_id}/standings`: the campaign table, per force. Readable by
//! members and by the campaign's integration keys.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::standings;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

pub use crate::app::campaigns::standings::StandingRow;

/// A page of the standings of a campaign.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingsResponse {
    /// The campaign.
    pub campaign_id: String,
    /// One line per force: most wins first, then most campaign points, then fewest losses,
    /// then name (then force id).
    pub forces: Vec<StandingRow>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Reads a campaign's standings: per force, battles, wins, draws, losses, campaign points and
/// roster points. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_standings",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the standings", body = StandingsResponse),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials, or a revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/standings")]
pub async fn get_standings(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<StandingsResponse>, ApiError> {
    let campaign_id = path.into_inner();
    let listed = standings::read_standings(&state, &caller, &campaign_id, page).await?;
    Ok(web::Json(StandingsResponse {
        campaign_id,
        forces: listed.items,
        next: listed.next,
    }))
}
