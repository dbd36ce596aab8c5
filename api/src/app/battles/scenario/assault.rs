//! A side whose mission is Assault declares which of its two far objectives is the target
//! (docs/rules.md §3.10 Assault, S11). Once, any time after missions are assigned while the battle
//! has no result; it does not hold up the steps. The target is as secret as the mission: the
//! opponent, integration keys and the battle's public views see neither until the rules reveal the
//! mission.

use crate::app::idempotency::{Answer, Write};
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::ApiError;

use super::{BattleScenarioResponse, RawDice, Submission, submit};

/// No dice are rolled for a declaration.
static NO_DICE: RawDice = RawDice::new();

/// A side's Assault target.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}", "objective_id": "o6"}))]
pub struct AssaultTargetRequest {
    /// The side (its mission is Assault).
    pub force_id: String,
    /// One of the side's two far objectives (`objectives[].sector[force_id] == "far"`), e.g. `o2`.
    #[schema(min_length = 1, max_length = 16)]
    pub objective_id: String,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Words of yours mixed into the seed of this side's server rolls in this step (1–128
    /// characters; `/rules#dice`): the roll's `proof` records them.
    #[serde(default)]
    pub client_seed: Option<String>,
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
    fn client_seed(&self) -> Option<&str> {
        self.client_seed.as_deref()
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
pub async fn declare_assault_target(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: AssaultTargetRequest,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    submit(state, user, battle_id, "assault-target", request, write).await
}
