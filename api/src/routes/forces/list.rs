//! `GET /api/v1/campaigns/{campaign_id}/forces`: a campaign's forces, paged.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::store::{forces, users};

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
    let campaign_id = path.into_inner();
    let page = page.keyset("forces", &campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let include_archived = query.include_archived;
    let rows = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(forces::list_for_campaign(
                conn,
                &campaign_id,
                include_archived,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(f, _)| (f.created_at, f.id.clone()))?;
    let mut body = String::from(r#"{"forces":["#);
    for (i, (force, (username, display_name))) in rows.into_iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        let owner_name = users::shown(username, display_name);
        body.push_str(&state.rosters.force_json(&force, Some(&owner_name))?);
    }
    body.push_str(r#"],"next":"#);
    body.push_str(&serde_json::to_string(&next).map_err(|e| ApiError::Internal(e.into()))?);
    body.push('}');
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
