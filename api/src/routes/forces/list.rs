//! `GET /api/v1/campaigns/{campaign_id}/forces`: a campaign's forces.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::store::forces;

use super::ForceResponse;

/// Query of [`list_forces`].
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListForcesQuery {
    /// Include archived forces (default false).
    #[serde(default)]
    pub include_archived: bool,
}

/// A campaign's forces with their rosters and points, oldest first (members and the
/// campaign's integration keys).
#[utoipa::path(
    tag = "forces",
    operation_id = "list_forces",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), ListForcesQuery),
    responses(
        (status = 200, description = "The forces", body = Vec<ForceResponse>),
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
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let include_archived = query.include_archived;
    let rows = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(forces::list_for_campaign(
                conn,
                &campaign_id,
                include_archived,
            )?)
        })
        .await?;
    let mut body = String::from("[");
    for (i, force) in rows.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&state.rosters.force_json(force)?);
    }
    body.push(']');
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
