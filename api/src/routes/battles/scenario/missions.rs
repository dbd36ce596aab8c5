//! `POST /api/v1/battles/{battle_id}/scenario/mission-bonuses`: a side's optional +1 to two
//! different missions (docs/rules.md §3.5, S8), secret, after stances and attitudes are revealed.
//! When every player side has given its bonuses (`[]` for none) the service rolls 1d6 per
//! mission per side; a side whose top totals tie is then asked for a `mission-choice` (S9).

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

/// A side's mission bonuses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MissionBonusesRequest {
    /// The side.
    pub force_id: String,
    /// None, or two different missions (+1 each).
    #[schema(value_type = Vec<fad_domain::orders::RolledMission>, max_items = 2)]
    pub missions: Vec<Mission>,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Player-entered dice for this side's rolls (e.g. `{"mission": {"hold": [6]}}`).
    #[serde(default)]
    #[schema(value_type = DiceEntries)]
    pub dice: RawDice,
    /// Dice rolled at the table for the battle's non-player side (otherwise the service rolls
    /// them).
    #[serde(default)]
    #[schema(value_type = NonPlayerDiceEntries)]
    pub non_player_dice: RawDice,
}

impl Submission for MissionBonusesRequest {
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
        scenario.submit_mission_bonuses(side, self.missions, dice)
    }
}

/// Submits (or replaces) a side's secret mission bonuses. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_mission_bonuses",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = MissionBonusesRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not the mission-bonus step, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid missions or dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/mission-bonuses")]
pub async fn submit_mission_bonuses(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: MissionBonusesRequest = crate::extract::parse_json(&body)?;
    submit(
        &state,
        &user,
        path.into_inner(),
        &req,
        &body,
        "mission-bonuses",
        request,
    )
    .await
}
