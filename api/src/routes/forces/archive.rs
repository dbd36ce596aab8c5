//! `POST /api/v1/forces/{force_id}/archive`: archive a force (owner or organiser). An archived
//! force stays readable with its history but no longer changes.

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::routes::campaigns::if_match;

use super::{ForceResponse, etag};

/// The version an archive is based on.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"version": 1}))]
pub struct ArchiveForceRequest {
    /// The version the change is based on. Required unless `If-Match` is sent.
    pub version: Option<i64>,
}

/// Archives a force (its owner before its first battle, the organiser any time); it is then
/// listed only with `include_archived=true`, leaves the standings and refuses edits.
#[utoipa::path(
    tag = "forces",
    operation_id = "archive_force",
    security(("bearer" = [])),
    params(
        ("force_id" = String, Path, description = "The force id"),
        ("If-Match" = Option<String>, Header, description = "The `ETag` the change is based on"),
    ),
    request_body = ArchiveForceRequest,
    responses(
        (status = 200, description = "The archived force", body = ForceResponse,
            headers(("ETag" = String, description = "The new force version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the owner or the organiser may archive the force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version` is stale, the force is already archived, or it has fought and the caller is not the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No version given", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/forces/{force_id}/archive")]
pub async fn archive_force(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<ArchiveForceRequest>,
) -> Result<HttpResponse, ApiError> {
    let if_match = if_match(req.headers());
    let updated =
        forces::archive_force(&state, &user.caller(), &path, body.version, if_match).await?;
    let rules = forces::ruled::campaign_force_rules(&state, &updated.campaign_id).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(updated.version))
        .json(ForceResponse::under(updated, &rules)?))
}
