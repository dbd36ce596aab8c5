//! `POST /api/v1/campaigns/{campaign_id}/forces/import`: a force exported from any campaign
//! becomes a new force of this one, owned by the caller, every unit id renewed.

use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces::{self, ForceImport};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

use super::create::created;
use super::{ForceResponse, PlatoonRequest, RosterRequest};

/// An exported force (the body of `GET /forces/{force_id}/export`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"format": "fad-force", "format_version": 1, "name": "Red Company", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha Squad", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved",
         "basic_weapon": "assault_rifles", "traits": ["grizzled"]},
        {"name": "Lt. Varga", "kind": "character", "quality": "regular", "resolve": "determined",
         "strength": 1, "starting_strength": 1, "armour": "improved",
         "basic_weapon": "assault_rifles", "leadership": "experienced", "branch": "infantry",
         "personalities": ["lucky"]}
    ]}]}))]
pub struct ImportForceRequest {
    /// `fad-force` (optional).
    pub format: Option<String>,
    /// 1 (optional).
    pub format_version: Option<u32>,
    /// The force's name.
    pub name: String,
    /// Its platoons; unit ids are renewed.
    pub platoons: Vec<PlatoonRequest>,
}

/// Imports an exported force into a campaign (any member; the caller owns it). It is validated
/// like a new force; every unit gets a new id.
#[utoipa::path(
    tag = "forces",
    operation_id = "import_force",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body = ImportForceRequest,
    responses(
        (status = 201, description = "The imported force", body = ForceResponse,
            headers(("ETag" = String, description = "The force version"), ("Location" = String, description = "The force's URL"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid roster or unknown format, or the campaign holds its most forces (`FAD_MAX_FORCES_PER_CAMPAIGN`)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/forces/import")]
pub async fn import_force(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<ImportForceRequest>,
) -> Result<HttpResponse, ApiError> {
    let ImportForceRequest {
        format,
        format_version,
        name,
        platoons,
    } = body.into_inner();
    let import = ForceImport {
        format,
        format_version,
        roster: RosterRequest { name, platoons },
    };
    let force = forces::import_force(&state, &user.caller(), &path, import).await?;
    created(&state, force).await
}
