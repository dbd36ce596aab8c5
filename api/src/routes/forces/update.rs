//! `PUT /api/v1/forces/{force_id}`: replace a roster (owner or organiser), guarded by the
//! force version (`If-Match` → 412, body `version` → 409).

use actix_web::{HttpRequest, HttpResponse, put, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces::{self, ForceEdit};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::routes::campaigns::if_match;

use super::{ForceResponse, PlatoonRequest, RosterRequest, etag};

/// A replacement roster.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"version": 1, "name": "Red Company", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha Squad", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved",
         "basic_weapon": "assault_rifles", "traits": ["grizzled"]},
        {"name": "Lt. Varga", "kind": "character", "quality": "regular", "resolve": "determined",
         "strength": 1, "starting_strength": 1, "armour": "improved",
         "basic_weapon": "assault_rifles", "leadership": "experienced", "branch": "infantry",
         "personalities": ["lucky"]}
    ]}]}))]
pub struct ReplaceForceRequest {
    /// The version the change is based on. Required unless `If-Match` is sent.
    pub version: Option<i64>,
    /// The force's name.
    pub name: String,
    /// Its platoons. Units keep their `id`; a unit without `id` is new (the server assigns its
    /// id); an `id` the force does not have, or one two units share, is refused with 422 naming
    /// `platoons[i].units[j].id`.
    pub platoons: Vec<PlatoonRequest>,
    /// Why, kept in the history entry's diff. Required when the organiser raises a roster
    /// that is locked after play (the change is then recorded as a `correction`).
    #[serde(default)]
    pub reason: Option<String>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub id: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub campaign_id: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub owner_id: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub owner_name: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<fad_domain::rulesets::RulesetPin>)]
    pub ruleset: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<fad_domain::rulesets::Family>)]
    pub family: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<f64>)]
    pub points: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub unpriced_reason: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<Vec<String>>)]
    pub unpriced_items: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<bool>)]
    pub archived: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub archived_at: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub created_at: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub updated_at: Option<serde_json::Value>,
}

/// Replaces a force's roster. Nothing changes on a stale version, an invalid roster or an
/// archived force; the change is recorded in the force's history with a per-unit diff. Once
/// the force has fought and the campaign locks rosters after play (the default), an edit that
/// raises a unit's Quality, Resolve, strength, establishment or points, or adds a unit, is the
/// organiser's alone, with a `reason` (recorded as a `correction`); the owner gets 422 naming
/// each raised field. Lowering, renaming and fixing typos stay free.
#[utoipa::path(
    tag = "forces",
    operation_id = "replace_force",
    security(("bearer" = [])),
    params(
        ("force_id" = String, Path, description = "The force id"),
        ("If-Match" = Option<String>, Header, description = "The `ETag` the change is based on"),
    ),
    request_body = ReplaceForceRequest,
    responses(
        (status = 200, description = "The force", body = ForceResponse,
            headers(("ETag" = String, description = "The new force version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the owner or the organiser may change the force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`version` is stale, or the force is archived", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid roster, no version given, a raise of a roster locked after play by its owner, or the organiser's raise without a reason", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/forces/{force_id}")]
pub async fn replace_force(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<ReplaceForceRequest>,
) -> Result<HttpResponse, ApiError> {
    // The read-only fields of a force as `GET` answers it are ignored (PUT what you GET).
    let ReplaceForceRequest {
        version,
        name,
        platoons,
        reason,
        ..
    } = body.into_inner();
    let edit = ForceEdit {
        version,
        if_match: if_match(req.headers()),
        roster: RosterRequest { name, platoons },
        reason,
    };
    let updated = forces::replace_force(&state, &user.caller(), &path, edit).await?;
    let rules = forces::ruled::campaign_force_rules(&state, &updated.campaign_id).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(updated.version))
        .json(ForceResponse::under(updated, &rules)?))
}
