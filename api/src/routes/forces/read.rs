//! `GET /api/v1/forces/{force_id}`: a force with its points, in one SQL statement (two under
//! a house ruleset).

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::app::forces;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

use super::{ForceResponse, etag};

/// A force with its units and points (members and the campaign's integration keys).
#[utoipa::path(
    tag = "forces",
    operation_id = "get_force",
    security(("bearer" = []), ("api_key" = [])),
    params(("force_id" = String, Path, description = "The force id")),
    responses(
        (status = 200, description = "The force", body = ForceResponse,
            headers(("ETag" = String, description = "The force version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/forces/{force_id}")]
pub async fn get_force(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (named, rules) = forces::read_named_force(&state, &caller, &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(named.force.version))
        .content_type(ContentType::json())
        .body(
            state
                .rosters
                .force_json_under(&named.force, Some(&named.owner_name), &rules)?,
        ))
}
