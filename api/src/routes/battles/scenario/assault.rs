//! `POST /api/v1/battles/{battle_id}/scenario/assault-target`: a side whose mission is Assault
//! declares which of its two far objectives is the target (docs/rules.md §3.10 Assault, S11). Once,
//! any time after missions are assigned while the battle has no result; it does not hold up the
//! steps. The target is as secret as the mission: the opponent, integration keys and the
//! battle's public views see neither until the rules reveal the mission.

use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::{BattleScenarioResponse, RawDice, Submission, submit};

/// No dice are rolled for a declaration.
static NO_DICE: RawDice = RawDice::new();

/// A side's Assault target.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssaultTargetRequest {
    /// The side (its mission is Assault).
    pub force_id: String,
    /// One of the side's two far objectives (`objectives[].sector[force_id] == "far"`), e.g. `o2`.
    #[schema(min_length = 1, max_length = 16)]
    pub objective_id: String,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
}

impl Submission for AssaultTargetRequest {
    fn force_id(&self) -> &str {
        &self.force_id
    }
    fn dice(&self) -> &RawDice {
        &NO_DICE
    }
    fn non_player_dice(&self) -> &RawDice {
        &NO_DICE
    }
    fn version(&self) -> Option<i64> {
        self.version
    }
    fn apply(
        self,
        scenario: &mut Scenario,
        side: usize,
        _dice: &mut SideDice,
    ) -> Result<(), ScenarioError> {
        scenario.declare_assault_target(side, &self.objective_id)
    }
}

/// Declares an Assault side's target objective (secret like the mission). Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "declare_scenario_assault_target",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = AssaultTargetRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with `assault_target` set and only the target among its objectives' `needed_by`", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The side's mission is not (yet) Assault, the target is already declared, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not one of the side's far objectives, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/assault-target")]
pub async fn declare_assault_target(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: AssaultTargetRequest = crate::extract::parse_json(&body)?;
    submit(
        &state,
        &user,
        path.into_inner(),
        &req,
        &body,
        "assault-target",
        request,
    )
    .await
}
