//! `GET /api/v1/forces/{force_id}/export`: a force as portable JSON that
//! `POST /campaigns/{campaign_id}/forces/import` takes unchanged (ids renewed there).

use actix_web::{HttpResponse, get, web};
use fad_domain::roster::Platoon;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

pub use crate::app::forces::{EXPORT_FORMAT, EXPORT_FORMAT_VERSION};

/// A platoon in an export.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ExportPlatoon {
    /// Name.
    pub name: String,
    /// Units (without `points`).
    pub units: Vec<fad_domain::roster::Unit>,
}

/// A force as portable JSON.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ForceExport {
    /// Always `fad-force`.
    pub format: String,
    /// Always 1.
    pub format_version: u32,
    /// The force's name.
    pub name: String,
    /// Its platoons.
    pub platoons: Vec<ExportPlatoon>,
}

/// Exports a force's roster (members and the campaign's integration keys).
#[utoipa::path(
    tag = "forces",
    operation_id = "export_force",
    security(("bearer" = []), ("api_key" = [])),
    params(("force_id" = String, Path, description = "The force id")),
    responses(
        (status = 200, description = "The portable force", body = ForceExport),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/forces/{force_id}/export")]
pub async fn export_force(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let force = forces::read_force(&state, &caller, &path).await?;
    let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
    Ok(HttpResponse::Ok().json(ForceExport {
        format: EXPORT_FORMAT.to_owned(),
        format_version: EXPORT_FORMAT_VERSION,
        name: roster.name,
        platoons: roster
            .platoons
            .into_iter()
            .map(|Platoon { name, units }| ExportPlatoon { name, units })
            .collect(),
    }))
}
