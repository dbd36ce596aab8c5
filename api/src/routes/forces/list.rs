//! `GET /api/v1/campaigns/{campaign_id}/forces`: a campaign's forces, paged.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::app::forces;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::ForceResponse;

/// Query of [`list_forces`] besides the paging parameters ([`PageParams`]).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListForcesQuery {
    /// Include archived forces (default false).
    #[serde(default)]
    pub include_archived: bool,
}

/// A page of a campaign's forces (the document's schema: the handler writes the same JSON from
/// the rendered-roster cache).
#[derive(Debug, Serialize, ToSchema)]
pub struct ForceList {
    /// Oldest first.
    pub forces: Vec<ForceResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// A campaign's forces with their rosters and points, oldest first, a page at a time (members
/// and the campaign's integration keys).
#[utoipa::path(
    tag = "forces",
    operation_id = "list_forces",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), ListForcesQuery, PageParams),
    responses(
        (status = 200, description = "A page of the forces", body = ForceList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/forces")]
pub async fn list_forces(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<ListForcesQuery>,
    page: Page,
) -> Result<HttpResponse, ApiError> {
    let listed = forces::list_forces(&state, &caller, &path, query.include_archived, page).await?;
    let rules = forces::ruled::campaign_force_rules(&state, &path).await?;
    // The rosters come from the rendered-roster cache, already JSON: the list is assembled
    // around them rather than serialised again.
    let mut body = String::from(r#"{"forces":["#);
    for (i, named) in listed.items.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&state.rosters.force_json_under(
            &named.force,
            Some(&named.owner_name),
            &rules,
        )?);
    }
    body.push_str(r#"],"next":"#);
    body.push_str(&serde_json::to_string(&listed.next).map_err(|e| ApiError::Internal(e.into()))?);
    body.push('}');
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
