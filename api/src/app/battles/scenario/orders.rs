//! A side's secret steps 1–3 (stance, attitude, recon duty; docs/rules.md §3.1–§3.3, S4).
//! Resubmitting before every player side has given orders replaces the earlier orders; afterwards
//! 409. When the last orders arrive the service runs steps 3–4 (RP, the table-edge roll with
//! re-rolled ties, deployment zones, field defences, objectives) and the non-player side's
//! automatic choices (§3.12).

use crate::app::idempotency::{Answer, Write};
use fad_domain::orders::{Attitude, Stance};
use fad_domain::scenario::contact_markers::MAX_HOLO_PROJECTORS;
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Orders, Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::ApiError;

use super::NonPlayerDiceEntries;
use super::{BattleScenarioResponse, DiceEntries, RawDice, Submission, submit};

/// A side's orders.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}", "stance": "defensive", "attitude": "passive",
    "recon_unit_ids": ["{unit_id}"], "holo_projectors": 0,
    "dice": {"table_edge": {"{force_id}": [3]}, "recon_return": {"{unit_id}": [6]}}}))]
pub struct OrdersRequest {
    /// The side (a force of the battle that the caller acts for).
    pub force_id: String,
    /// Step 1.
    pub stance: Stance,
    /// Step 2.
    pub attitude: Attitude,
    /// Step 3: units on recon duty (docs/rules.md §3.3 eligibility, S4).
    #[serde(default)]
    pub recon_unit_ids: Vec<String>,
    /// S14: units deploying attached to or embarked in another unit (they share its marker).
    #[serde(default)]
    pub attached_unit_ids: Vec<String>,
    /// Holo Projectors in the force (+1 dummy marker each).
    #[serde(default)]
    #[schema(maximum = 100)]
    pub holo_projectors: u32,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Words of yours mixed into the seed of this side's server rolls in this step (1–128
    /// characters; `/rules#dice`): the roll's `proof` records them.
    #[serde(default)]
    pub client_seed: Option<String>,
    /// Player-entered dice for this side's rolls: step → subject → values.
    #[serde(default)]
    #[schema(value_type = DiceEntries)]
    pub dice: RawDice,
    /// Dice rolled at the table for the battle's non-player side (otherwise the service rolls
    /// them).
    #[serde(default)]
    #[schema(value_type = NonPlayerDiceEntries)]
    pub non_player_dice: RawDice,
}

impl Submission for OrdersRequest {
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
        scenario.submit_orders(
            side,
            Orders {
                stance: self.stance,
                attitude: self.attitude,
                recon_unit_ids: self.recon_unit_ids,
                attached_unit_ids: self.attached_unit_ids,
                holo_projectors: self.holo_projectors,
            },
            dice,
        )
    }
}

/// Submits (or replaces) a side's secret orders. Honours `Idempotency-Key`.
pub async fn submit_orders(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: OrdersRequest,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    if request.holo_projectors > MAX_HOLO_PROJECTORS {
        return Err(ApiError::validation(
            "holo_projectors",
            format!("at most {MAX_HOLO_PROJECTORS} Holo Projectors"),
        ));
    }
    submit(state, user, battle_id, "orders", request, write).await
}
