//! `GET /scenarios/{scenario_id}` (the creator, with a Bearer token) and
//! `GET /scenarios/shared/{token}` (a share-link holder): the printable sheet.

use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::auth::AuthUser;
use crate::auth::secret::hash_secret;
use crate::error::{ApiError, Problem};
use crate::routes::scenarios::ScenarioDocument;
use crate::store::scenarios::{self, ScenarioRow};

use super::{html, page};

fn render(row: &ScenarioRow) -> Result<HttpResponse, ApiError> {
    let doc: ScenarioDocument = serde_json::from_str(&row.document)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored scenario {}: {e}", row.id)))?;
    let created = row
        .created_at
        .and_utc()
        .format("%Y-%m-%d %H:%M UTC")
        .to_string();
    Ok(html(page::render(&row.id, &created, &doc)))
}

/// The printable sheet of a scenario the caller generated.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_scenario_sheet",
    security(("bearer" = [])),
    params(("scenario_id" = String, Path, description = "The scenario id")),
    responses(
        (status = 200, description = "The printable sheet", body = String, content_type = "text/html"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read one-shot scenarios", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, or another user's", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/{scenario_id}")]
pub async fn get_sheet(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let row = state
        .db
        .run(move |conn| {
            scenarios::find_by_id_and_creator(conn, &id, &user.user_id)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await?;
    render(&row)
}

/// The printable sheet through a share link (no credentials needed).
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_shared_scenario_sheet",
    params(("token" = String, Path, description = "The share token from `share_url`")),
    responses(
        (status = 200, description = "The printable sheet", body = String, content_type = "text/html"),
        (status = 404, description = "No scenario is shared with this token", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/shared/{token}")]
pub async fn get_shared_sheet(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let hash = hash_secret(&path.into_inner());
    let row = state
        .db
        .run(move |conn| {
            scenarios::find_by_share_hash(conn, &hash)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await?;
    render(&row)
}
