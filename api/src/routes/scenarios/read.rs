//! `GET /api/v1/scenarios/{scenario_id}` (its creator; others get 404) and
//! `GET /api/v1/scenarios/shared/{token}` (anyone holding the share token).

use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::app::scenarios;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::ScenarioResponse;

/// Reads a scenario the caller generated.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_scenario",
    security(("bearer" = [])),
    params(("scenario_id" = String, Path, description = "The scenario id")),
    responses(
        (status = 200, description = "The whole scenario with its rolls", body = ScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read one-shot scenarios", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, or another user's", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/{scenario_id}")]
pub async fn get_scenario(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let scenario = scenarios::read_scenario(&state, &user.caller(), &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-store"))
        .json(ScenarioResponse::with_links(&scenario)?))
}

/// Reads a shared scenario through its share token (no credentials needed).
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_shared_scenario",
    params(("token" = String, Path, description = "The share token from `share_url`")),
    responses(
        (status = 200, description = "The whole scenario with its rolls", body = ScenarioResponse),
        (status = 404, description = "No scenario is shared with this token", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/shared/{token}")]
pub async fn get_shared_scenario(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let row = scenarios::read_shared_scenario(&state, &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-store"))
        .json(ScenarioResponse::from_row(&row)?))
}
