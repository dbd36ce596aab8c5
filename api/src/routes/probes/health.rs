//! `GET /health`: liveness. Answers 200 as long as the process serves HTTP; never touches the
//! database.

use actix_web::get;
use actix_web::web::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Body of the probes' 200 answers.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// `ok` for `/health`, `ready` for `/ready`.
    pub status: String,
}

/// Liveness probe: the process is up.
#[utoipa::path(
    tag = "health",
    operation_id = "get_health",
    responses(
        (status = 200, description = "The process is up", body = HealthResponse),
    )
)]
#[get("/health")]
pub async fn health() -> Json<HealthResponse> {
    Json(HealthResponse {
        status: "ok".to_owned(),
    })
}
