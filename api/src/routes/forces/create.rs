//! `POST /api/v1/campaigns/{campaign_id}/forces`: create a force owned by the caller.

use actix_web::{HttpResponse, post, web};
use fad_domain::dice::RollLog;
use fad_domain::roster::Force as Roster;

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store::{self, forces, history::HistoryCause};

use super::{ForceResponse, IdMode, RosterRequest, etag, parse_roster};

/// Stores a validated roster as a new force of `campaign_id` owned by `user`, with its first
/// history entry; answers 201 with `Location` and `ETag`.
pub async fn store_new_force(
    state: &AppState,
    user: &AuthUser,
    campaign_id: String,
    roster: Roster,
    cause: HistoryCause,
    rolls: RollLog,
) -> Result<(forces::Force, HttpResponse), ApiError> {
    let caller = user.caller();
    let now = store::now();
    let force = forces::Force {
        id: store::new_id(),
        campaign_id,
        owner_id: user.user_id.clone(),
        name: roster.name.clone(),
        roster: serde_json::to_string(&roster).map_err(|e| ApiError::Internal(e.into()))?,
        version: 1,
        archived_at: None,
        created_at: now,
        updated_at: now,
    };
    let stored = force.clone();
    let quotas = state.config.quotas;
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &stored.campaign_id, Need::Write)?;
            quotas.check_forces(conn, &stored.campaign_id)?;
            forces::insert(conn, &stored, &roster, &cause, &rolls)?;
            store::events::append(
                conn,
                &store::events::Event::force_created(&stored.campaign_id, &stored.id),
            )
        })
        .await?;
    tracing::info!(force.id = %force.id, "Created force {}", force.id);
    let location = format!("/api/v1/forces/{}", force.id);
    let response = HttpResponse::Created()
        .insert_header(("Location", location))
        .insert_header(etag(force.version))
        .json(ForceResponse::new(force.clone())?);
    Ok((force, response))
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
    let campaign_id = path.into_inner();
    let roster = parse_roster(body.into_inner(), IdMode::Renew, None)?;
    let cause = HistoryCause::new("create", Some(&user.user_id));
    let (_, response) =
        store_new_force(&state, &user, campaign_id, roster, cause, Vec::new()).await?;
    Ok(response)
}
