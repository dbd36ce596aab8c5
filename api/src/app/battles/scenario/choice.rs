//! A side whose highest mission totals tie picks one of the tied missions (docs/rules.md §3.5, S9;
//! no re-roll). Once every side's mission is settled the service assigns missions (Escalating
//! Engagement when both are the same, S10), grants the bonuses (S12) and runs step 6.

use crate::app::idempotency::{Answer, Write};
use fad_domain::orders::Mission;
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::ApiError;

use super::NonPlayerDiceEntries;
use super::{BattleScenarioResponse, DiceEntries, RawDice, Submission, submit};

/// A side's pick among its tied missions.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}", "mission": "hold", "dice": {"recon_return": {"{unit_id}": [6]}}}))]
pub struct MissionChoiceRequest {
    /// The side.
    pub force_id: String,
    /// One of the side's `tied_missions`.
    #[schema(value_type = fad_domain::orders::RolledMission)]
    pub mission: Mission,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Words of yours mixed into the seed of this side's server rolls in this step (1–128
    /// characters; `/rules#dice`): the roll's `proof` records them.
    #[serde(default)]
    pub client_seed: Option<String>,
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
    fn client_seed(&self) -> Option<&str> {
        self.client_seed.as_deref()
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
pub async fn submit_mission_choice(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: MissionChoiceRequest,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    submit(state, user, battle_id, "mission-choice", request, write).await
}
