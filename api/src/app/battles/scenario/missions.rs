//! A side's optional +1 to two different missions (docs/rules.md §3.5, S8), secret, after stances
//! and attitudes are revealed. When every player side has given its bonuses (`[]` for none) the
//! service rolls 1d6 per mission per side; a side whose top totals tie is then asked for a
//! `mission-choice` (S9). The side may also name the unit each bonus trait goes to
//! (§3.10, "traits to assign as you wish"); a trait not named goes by the fixed order.

use std::collections::BTreeMap;

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

/// A side's mission bonuses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}", "missions": ["hold", "interfere"], "dice": {"mission": {
    "assault": [1], "expand": [2], "hold": [6], "infiltrate": [1],
    "interfere": [3], "patrol": [2], "strike": [1], "sweep": [1]}}}))]
pub struct MissionBonusesRequest {
    /// The side.
    pub force_id: String,
    /// None, or two different missions (+1 each).
    #[schema(value_type = Vec<fad_domain::orders::RolledMission>, max_items = 2)]
    pub missions: Vec<Mission>,
    /// Optional: the unit of this force each mission-bonus trait goes to, by trait
    /// (`assault_troops`, `hardened`, `grizzled`, `tough`, `infiltrate`, `stealth`, `recon`,
    /// `agile`, `elusive`, `brave`, `shock_troops`), for whichever bonus the side's mission
    /// grants ("traits to assign as you wish", §3.10). A trait not named goes by the fixed
    /// order of docs/rules.md S12. The unit must be on the table in this battle.
    #[serde(default)]
    #[schema(example = json!({"hardened": "{unit_id}"}))]
    pub bonus_units: BTreeMap<String, String>,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Words of yours mixed into the seed of this side's server rolls in this step (1–128
    /// characters; `/rules#dice`): the roll's `proof` records them.
    #[serde(default)]
    pub client_seed: Option<String>,
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
    fn client_seed(&self) -> Option<&str> {
        self.client_seed.as_deref()
    }
    fn apply(
        self,
        scenario: &mut Scenario,
        side: usize,
        dice: &mut SideDice,
    ) -> Result<(), ScenarioError> {
        scenario.submit_mission_bonuses_with_units(side, self.missions, &self.bonus_units, dice)
    }
}

/// Submits (or replaces) a side's secret mission bonuses. Honours `Idempotency-Key`.
pub async fn submit_mission_bonuses(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: MissionBonusesRequest,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    submit(state, user, battle_id, "mission-bonuses", request, write).await
}
