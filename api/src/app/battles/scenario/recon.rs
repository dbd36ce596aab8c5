//! Step 7, spending recon points (docs/rules.md §3.7, S16–S18, S28). On its turn a side plays
//! `move` (up to two friendly markers, 6" each) or `reveal` (one enemy marker), or `pass`es; when
//! the opponent spends an RP the service asks the other side (`recon_prompt: "block"`) to `block`
//! (1d6, 4+; a successful Block can itself be blocked) or `pass`. A non-player side blocks
//! automatically (S28). The step ends when both pass in a row or have no RP left; then the service
//! reveals the forces and rolls the pre-battle events (§3.8, §3.11), and the scenario is `ready`.

use crate::app::idempotency::{Answer, Write};
use fad_domain::scenario::recon_phase::ReconAction;
use fad_domain::scenario::side_dice::SideDice;
use fad_domain::scenario::{Scenario, ScenarioError};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError};

use super::NonPlayerDiceEntries;
use super::{BattleScenarioResponse, DiceEntries, RawDice, Submission, submit};

/// Longest marker label.
const MAX_LABEL: usize = 100;

/// A recon action's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReconActionName {
    /// Move up to two friendly markers up to 6" each (1 RP).
    Move,
    /// Reveal one enemy marker (1 RP).
    Reveal,
    /// Block the expenditure the side is asked about (1 RP; 1d6, 4+).
    Block,
    /// End the turn without spending, or decline to block.
    Pass,
}

/// One recon action.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}", "action": "move", "markers": ["r1", "r2"]}))]
pub struct ReconActionRequest {
    /// The side.
    pub force_id: String,
    /// What the side does.
    pub action: ReconActionName,
    /// `move`: labels of the (up to two) markers moved, for the log.
    #[serde(default)]
    #[schema(max_items = 2)]
    pub markers: Vec<String>,
    /// `reveal`: the label of the enemy marker, for the log.
    #[serde(default)]
    pub marker: Option<String>,
    /// The scenario `version` the client saw (optional): a stale one is 409.
    #[serde(default)]
    pub version: Option<i64>,
    /// Words of yours mixed into the seed of this side's server rolls in this step (1–128
    /// characters; `/rules#dice`): the roll's `proof` records them.
    #[serde(default)]
    pub client_seed: Option<String>,
    /// Player-entered dice for this side's rolls (e.g. `{"recon_block": {"<force id>": [5]}}`).
    #[serde(default)]
    #[schema(value_type = DiceEntries)]
    pub dice: RawDice,
    /// Dice rolled at the table for the battle's non-player side (otherwise the service rolls
    /// them).
    #[serde(default)]
    #[schema(value_type = NonPlayerDiceEntries)]
    pub non_player_dice: RawDice,
}

impl ReconActionRequest {
    fn check(&self) -> Result<(), ApiError> {
        let mut errors = Vec::new();
        if self.action != ReconActionName::Move && !self.markers.is_empty() {
            errors.push(FieldError::new("markers", "only a move names markers"));
        }
        if self.action != ReconActionName::Reveal && self.marker.is_some() {
            errors.push(FieldError::new("marker", "only a reveal names a marker"));
        }
        if self.markers.len() > 2 {
            errors.push(FieldError::new(
                "markers",
                "a move moves at most two markers",
            ));
        }
        for (i, label) in self.markers.iter().chain(self.marker.iter()).enumerate() {
            if label.chars().count() > MAX_LABEL {
                let field = if i < self.markers.len() {
                    format!("markers[{i}]")
                } else {
                    "marker".to_owned()
                };
                errors.push(FieldError::new(
                    field,
                    format!("at most {MAX_LABEL} characters"),
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Validation(errors))
        }
    }
}

impl Submission for ReconActionRequest {
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
        let action = match self.action {
            ReconActionName::Move => ReconAction::Move {
                markers: self.markers,
            },
            ReconActionName::Reveal => ReconAction::Reveal {
                marker: self.marker,
            },
            ReconActionName::Block => ReconAction::Block,
            ReconActionName::Pass => ReconAction::Pass,
        };
        scenario.recon_action(side, action, dice)
    }
}

/// Plays one recon action (a turn, or the answer to a Block prompt). Honours
/// `Idempotency-Key`.
pub async fn submit_recon_action(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: ReconActionRequest,
    write: Write,
) -> Result<Answer<BattleScenarioResponse>, ApiError> {
    request.check()?;
    submit(state, user, battle_id, "recon-actions", request, write).await
}
