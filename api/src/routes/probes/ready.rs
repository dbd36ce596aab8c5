//! `GET /ready`: readiness. One database round trip; 503 while the database is unreachable and
//! 200 again once it is back (the pool reconnects; no restart needed).

use super::HealthResponse;
use crate::AppState;
use crate::error::{ApiError, Problem};
use actix_web::get;
use actix_web::web::{Data, Json};

/// Readiness probe: the database answers.
#[utoipa::path(
    tag = "health",
    operation_id = "get_ready",
    responses(
        (status = 200, description = "The database answers", body = HealthResponse),
        (status = 503, description = "The database is unreachable", body = Problem,
            content_type = "application/problem+json"),
    )
)]
#[get("/ready")]
pub async fn ready(state: Data<AppState>) -> Result<Json<HealthResponse>, ApiError> {
    state.db.ping().await?;
    Ok(Json(HealthResponse {
        status: "ready".to_owned(),
    }))
}
