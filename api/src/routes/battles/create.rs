//! `POST /api/v1/campaigns/{campaign_id}/battles`: a battle between two forces of the campaign,
//! or one force and a non-player force (API.md › Battles). State `scenario`.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, FieldError, Problem};
use crate::store::{self, battles};

use super::{BattleResponse, Side, idempotency_key, idempotent, owned_forces, states, to_value};

/// A new battle.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBattleRequest {
    /// Exactly two sides; at least one is a stored force of this campaign.
    pub sides: Vec<Side>,
    /// The battle is fought at night: each side's contact markers get 1d6 more dummies
    /// (docs/rules.md §3.6), rolled as step `night_fighting` with the side's force id as subject.
    /// Default false.
    #[serde(default)]
    pub night_fighting: bool,
}

fn check_sides(sides: &[Side]) -> Result<Vec<String>, ApiError> {
    let mut errors = Vec::new();
    if sides.len() != 2 {
        errors.push(FieldError::new("sides", "a battle has exactly two sides"));
    }
    let mut forces: Vec<String> = Vec::new();
    for (i, side) in sides.iter().enumerate() {
        if side.owner_name.is_some() {
            errors.push(FieldError::new(
                format!("sides[{i}].owner_name"),
                "is filled in by the server from the force's owner; leave it out",
            ));
        }
        match (&side.force_id, &side.non_player) {
            (Some(id), None) => {
                if forces.contains(id) {
                    errors.push(FieldError::new(
                        format!("sides[{i}].force_id"),
                        "a force cannot fight itself",
                    ));
                }
                forces.push(id.clone());
            }
            (None, Some(np)) => {
                // The scenario reads it (name, stance, attitude, units): refuse what it cannot.
                if let Err(problems) = super::scenario::non_player::parse(i, np) {
                    errors.extend(problems);
                }
            }
            _ => errors.push(FieldError::new(
                format!("sides[{i}]"),
                "give exactly one of force_id or non_player",
            )),
        }
    }
    if errors.is_empty() && forces.is_empty() {
        errors.push(FieldError::new(
            "sides",
            "at least one side is a player force",
        ));
    }
    if errors.is_empty() {
        Ok(forces)
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// Creates a battle. The caller must own one of the forces or be the organiser. Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "create_battle",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body = CreateBattleRequest,
    responses(
        (status = 201, description = "The battle", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller owns neither force and is not the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid sides (an unknown field, with its path), a force of another campaign or archived, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The campaign created its most battles in the last 24 hours (`FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY`); `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/battles")]
pub async fn create_battle(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: CreateBattleRequest = crate::extract::parse_json(&body)?;
    let caller = user.caller();
    let actor = user.user_id.clone();
    let quotas = state.config.quotas;
    let scope = format!("POST /api/v1/campaigns/{campaign_id}/battles");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let access = campaign_access(conn, &caller, &campaign_id, Need::Write)?;
        quotas.check_battles(conn, &campaign_id)?;
        let forces = check_sides(&request.sides)?;
        for (i, id) in forces.iter().enumerate() {
            let field = || format!("sides[{i}].force_id");
            let force = store::forces::find_by_id(conn, id)?;
            match force {
                Some(f) if f.campaign_id == campaign_id && f.archived_at.is_none() => {}
                Some(f) if f.campaign_id == campaign_id => {
                    return Err(ApiError::validation(field(), "the force is archived"));
                }
                _ => {
                    return Err(ApiError::validation(
                        field(),
                        "no such force in this campaign",
                    ));
                }
            }
        }
        if !access.is_organiser() && owned_forces(conn, &access, &forces)?.is_empty() {
            return Err(ApiError::Forbidden(
                "Only a side's owner or the organiser may set up a battle.".to_owned(),
            ));
        }
        let now = store::now();
        let battle = battles::Battle {
            id: store::new_id(),
            campaign_id,
            state: states::SCENARIO.to_owned(),
            sides: serde_json::to_string(&request.sides)
                .map_err(|e| ApiError::Internal(e.into()))?,
            result: None,
            result_by: None,
            confirmed_by: None,
            version: 1,
            created_by: actor,
            created_at: now,
            updated_at: now,
            corrections: "[]".to_owned(),
            options: serde_json::to_string(&battles::BattleOptions {
                night_fighting: request.night_fighting,
            })
            .map_err(|e| ApiError::Internal(e.into()))?,
        };
        battles::insert(conn, &battle)?;
        tracing::info!(battle.id = %battle.id, "Created battle {}", battle.id);
        Ok((
            StatusCode::CREATED,
            to_value(&BattleResponse::new(battle, &[])?)?,
        ))
    })
    .await
}
