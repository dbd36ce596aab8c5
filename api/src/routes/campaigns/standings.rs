//! `GET /api/v1/campaigns/{campaign_id}/standings`: the campaign table, per force. Readable by
//! members and by the campaign's integration keys.

use actix_web::http::header::{ETAG, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, get, web};
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
    /// then name (then force id); each with its `rank`, as in the published standings.
    pub rows: Vec<StandingRow>,
    /// The same lines as `rows`, under the name earlier versions used; read `rows`.
    #[schema(deprecated)]
    pub forces: Vec<StandingRow>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// A published campaign's whole table, for anyone.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PublicStandingsResponse {
    /// The campaign.
    pub campaign_id: String,
    /// Its name.
    pub campaign_name: String,
    /// Every line, in order, each with its `rank`.
    pub rows: Vec<StandingRow>,
}

/// `body` as JSON with a strong `ETag` of its bytes, or 304 when `If-None-Match` names it.
pub fn tagged_json(req: &HttpRequest, body: &impl Serialize) -> Result<HttpResponse, ApiError> {
    let bytes = serde_json::to_vec(body).map_err(|e| ApiError::Internal(e.into()))?;
    let tag = crate::routes::rulesets::body_etag(&bytes);
    let value = HeaderValue::from_str(&tag).map_err(|e| ApiError::Internal(e.into()))?;
    if crate::routes::rulesets::not_modified(req.headers(), &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((ETAG, value))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((ETAG, value))
        .content_type("application/json")
        .body(bytes))
}

/// Reads a campaign's standings: per force, battles, wins, draws, losses, campaign points and
/// roster points. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_standings",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the standings", body = StandingsResponse,
            headers(("ETag" = String, description = "A tag of this answer; send it as `If-None-Match`"))),
        (status = 304, description = "Unchanged since the `If-None-Match` tag"),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials, or a revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/standings")]
pub async fn get_standings(
    req: HttpRequest,
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let listed = standings::read_standings(&state, &caller, &campaign_id, page).await?;
    tagged_json(
        &req,
        &StandingsResponse {
            campaign_id,
            forces: listed.items.clone(),
            rows: listed.items,
            next: listed.next,
        },
    )
}

/// Reads the standings of a campaign whose organiser published them (setting
/// `public_standings`), without credentials and from any web page
/// (`Access-Control-Allow-Origin: *`); 404 while they are not published.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_public_standings",
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The whole table", body = PublicStandingsResponse,
            headers(
                ("ETag" = String, description = "A tag of this answer; send it as `If-None-Match`"),
                ("Access-Control-Allow-Origin" = String, description = "`*`"),
            )),
        (status = 304, description = "Unchanged since the `If-None-Match` tag"),
        (status = 404, description = "No such campaign, or its standings are not published", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/public/campaigns/{campaign_id}/standings")]
pub async fn get_public_standings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let table = standings::read_public_standings(&state, &campaign_id).await?;
    let mut response = tagged_json(
        &req,
        &PublicStandingsResponse {
            campaign_id,
            campaign_name: table.campaign_name,
            rows: table.rows,
        },
    )?;
    response.headers_mut().insert(
        actix_web::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    Ok(response)
}
