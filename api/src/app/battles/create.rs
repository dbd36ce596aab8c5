//! Setting up a battle between two forces of a campaign, or one force and a non-player force.
//! It starts in `scenario`.

use actix_web::http::StatusCode;
use fad_domain::lifecycle::BattleState;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, FieldError};
use crate::store::events::{Event, EventType};
use crate::store::{self, battles};

use super::{BattleResponse, Side, owned_forces};

/// A new battle.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"sides": [{"force_id": "{force_id}"}, {"force_id": "{opponent_force_id}"}], "night_fighting": false}))]
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

/// Creates a battle. The caller must own one of the forces or be the organiser.
pub async fn create_battle(
    state: &AppState,
    user: &AuthUser,
    campaign_id: String,
    request: CreateBattleRequest,
    write: Write,
) -> Result<Answer<BattleResponse>, ApiError> {
    let caller = user.caller();
    let actor = user.user_id.clone();
    let quotas = state.config.quotas;
    idempotency::run(state, write, move |conn| {
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
            state: BattleState::Scenario,
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
        let event = Event::battle(
            EventType::BattleCreated,
            &battle.campaign_id,
            &battle.id,
            battle.state.as_str(),
        );
        store::events::append(conn, &event)?;
        let players = request
            .sides
            .iter()
            .filter_map(|side| side.force_id.clone())
            .collect();
        let first = super::step_events::PublicStep::first(players);
        store::events::append(
            conn,
            &first.event(&battle.campaign_id, &battle.id, battle.state.as_str()),
        )?;
        tracing::info!(battle.id = %battle.id, "Created battle {}", battle.id);
        let mut response = BattleResponse::new(battle, Vec::new())?;
        super::names::name_sides(conn, std::slice::from_mut(&mut response))?;
        Ok((StatusCode::CREATED, response))
    })
    .await
}
