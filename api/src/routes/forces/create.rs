//! `POST /api/v1/campaigns/{campaign_id}/forces`: create a force owned by the caller.

use actix_web::{HttpResponse, post, web};

use crate::AppState;
use crate::app::forces;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store;

use super::{ForceResponse, RosterRequest, etag};

/// The 201 for a newly stored force: its URL, version and body.
pub async fn created(
    state: &AppState,
    force: store::forces::Force,
) -> Result<HttpResponse, ApiError> {
    let location = format!("/api/v1/forces/{}", force.id);
    let rules = forces::ruled::campaign_force_rules(state, &force.campaign_id).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", location))
        .insert_header(etag(force.version))
        .json(ForceResponse::under(force, &rules)?))
}

/// Creates a force in a campaign, owned by the caller (any member). The server assigns every
/// unit's `id` (an `id` sent is ignored); `points` is computed by the server and ignored on input. Every problem
/// is reported in one 422 and nothing is stored.
#[utoipa::path(
    tag = "forces",
    operation_id = "create_force",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body = RosterRequest,
    responses(
        (status = 201, description = "The force", body = ForceResponse,
            headers(("ETag" = String, description = "The force version"), ("Location" = String, description = "The force's URL"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid roster (every problem with its path, unknown fields included), or the campaign holds its most forces (`FAD_MAX_FORCES_PER_CAMPAIGN`)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/forces")]
pub async fn create_force(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<RosterRequest>,
) -> Result<HttpResponse, ApiError> {
    let force = forces::create_force(&state, &user.caller(), &path, body.into_inner()).await?;
    created(&state, force).await
}
