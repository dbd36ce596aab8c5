//! `PUT /api/v1/forces/{force_id}`: replace a roster (owner or organiser), guarded by the
//! force version (`If-Match` → 412, body `version` → 409).

use actix_web::{HttpRequest, HttpResponse, put, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Need};
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store::{self, aftermath, campaigns, forces, history::HistoryCause};

use super::{
    ForceResponse, IdMode, PlatoonRequest, Precondition, RosterRequest, archived, authorize_force,
    etag, lock, parse_roster, stale,
};

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
}

/// Longest accepted reason.
const REASON_MAX_CHARS: usize = 500;

/// The reason, trimmed; `None` when absent or blank; 422 when too long.
fn checked_reason(reason: Option<String>) -> Result<Option<String>, ApiError> {
    let reason = reason
        .map(|r| r.trim().to_owned())
        .filter(|r| !r.is_empty());
    if reason
        .as_ref()
        .is_some_and(|r| r.chars().count() > REASON_MAX_CHARS)
    {
        return Err(ApiError::validation(
            "reason",
            format!("at most {REASON_MAX_CHARS} characters"),
        ));
    }
    Ok(reason)
}

/// The history cause of an edit, or the refusal of a raise on a roster locked after play
/// (`lock_rosters_after_play`): the owner gets a 422 naming each raised field; the organiser
/// must give a reason and the edit is recorded as a `correction`.
fn edit_cause(
    conn: &mut crate::db::Db,
    force: &forces::Force,
    access: &crate::auth::CampaignAccess,
    raised: Vec<crate::error::FieldError>,
    reason: Option<String>,
    actor: &str,
) -> Result<HistoryCause, ApiError> {
    let edit = |reason| Ok(HistoryCause::new("edit", Some(actor)).with_reason(reason));
    if raised.is_empty() {
        return edit(reason);
    }
    let settings = campaigns::find_by_id(conn, &force.campaign_id)?
        .map(|c| c.settings())
        .transpose()
        .map_err(|e| ApiError::Internal(e.into()))?
        .unwrap_or_default();
    if !settings.lock_rosters_after_play || !aftermath::has_fought(conn, &force.id)? {
        return edit(reason);
    }
    if !access.is_organiser() {
        return Err(ApiError::Validation(raised));
    }
    match reason {
        Some(reason) => Ok(HistoryCause::new("correction", Some(actor)).with_reason(Some(reason))),
        None => Err(ApiError::validation(
            "reason",
            "this edit raises a roster locked after play: as the organiser, give a reason; it is recorded as a correction in the force's history",
        )),
    }
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
    let force_id = path.into_inner();
    let ReplaceForceRequest {
        version,
        name,
        platoons,
        reason,
    } = body.into_inner();
    let reason = checked_reason(reason)?;
    let precondition = Precondition::read(req.headers(), version)?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    let now = store::now();
    let request = RosterRequest { name, platoons };
    let updated = state
        .db
        .transaction(move |conn| {
            let (current, access) = authorize_force(conn, &caller, &force_id, Need::Write)?;
            let expected = precondition.check(current.version)?;
            if current.archived_at.is_some() {
                return Err(archived());
            }
            let before = current.roster().map_err(|e| ApiError::Internal(e.into()))?;
            let roster = parse_roster(request, IdMode::Replace, Some(&before))?;
            let raised = lock::raises(&before, &roster);
            let cause = edit_cause(conn, &current, &access, raised, reason, &actor)?;
            forces::replace_roster_if_version(
                conn,
                &force_id,
                expected,
                &roster,
                &cause,
                &Vec::new(),
                now,
            )?
            .ok_or_else(|| stale(expected + 1))
        })
        .await?;
    tracing::info!(force.id = %updated.id, "Replaced force {}", updated.id);
    Ok(HttpResponse::Ok()
        .insert_header(etag(updated.version))
        .json(ForceResponse::new(updated)?))
}
