//! `POST /api/v1/battles/{battle_id}/scenario/mission-choice`: a side whose highest mission
//! totals tie picks one of the tied missions (docs/rules.md §3.5, S9; no re-roll). Once every side's
//! mission is settled the service assigns missions (Escalating Engagement when both are the
//! same, S10), grants the bonuses (S12) and runs step 6.

use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::orders::Mission;
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::NonPlayerDiceEntries;
use super::{BattleScenarioResponse, DiceEntries, RawDice, Submission, submit};

/// A side's pick among its tied missions.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MissionChoiceRequest {
    /// The side.
    pub force_id: String,
    /// One of the side's `tied_missions`.
    #[schema(value_type = fad_domain::orders::RolledMission)]
    pub mission: Mission,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Player-entered dice for this side's later rolls (recon return, placement order, …).
    #[serde(default)]
    #[schema(value_type = DiceEntries)]
    pub dice: RawDice,
    /// Dice rolled at the table for the battle's non-player side (otherwise the service rolls
    /// them).
    #[serde(default)]
    #[schema(value_type = NonPlayerDiceEntries)]
    pub non_player_dice: RawDice,
}

impl Submission for MissionChoiceRequest {
    fn force_id(&self) -> &str {
        &self.force_id
    }
    fn dice(&self) -> &RawDice {
        &self.dice
    }
    fn non_player_dice(&self) -> &RawDice {
        &self.non_player_dice
    }
    fn version(&self) -> Option<i64> {
        self.version
    }
    fn apply(
        self,
        scenario: &mut Scenario,
        side: usize,
        dice: &mut SideDice,
    ) -> Result<(), ScenarioError> {
        scenario.submit_mission_choice(side, self.mission, dice)
    }
}

/// Picks one of a side's tied missions. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_mission_choice",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = MissionChoiceRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No mission choice is open for this side, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not one of the tied missions, invalid dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/mission-choice")]
pub async fn submit_mission_choice(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: MissionChoiceRequest = crate::extract::parse_json(&body)?;
    submit(
        &state,
        &user,
        path.into_inner(),
        &req,
        &body,
        "mission-choice",
        request,
    )
    .await
}
