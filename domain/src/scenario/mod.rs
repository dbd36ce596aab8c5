//! Scenario generation (docs/rules.md §3, §6.2 S1–S30; S000 › SCENARIO GENERATION, MISSION DETAILS,
//! PRE BATTLE EVENTS, UNCONTROLLED FORCES).
//!
//! The pure building blocks live in one module per rule; [`machine`] strings them together as a
//! state machine whose states are the steps that wait for a player, [`view`] says what each
//! viewer may see, and [`one_shot`] runs the whole sequence in one call.

pub mod contact_markers;
pub mod deployment;
pub mod machine;
pub mod missions;
pub mod next_dice;
pub mod non_player;
pub mod objectives;
pub mod one_shot;
pub mod pre_battle;
pub mod recon_duty;
pub mod recon_phase;
pub mod recon_points;
pub mod side_dice;
pub mod stance_effects;
pub mod table_edge;
pub mod view;

#[cfg(test)]
mod tests;

use crate::dice::DiceError;
use crate::roster::Problem;

pub use machine::{Orders, Scenario, ScenarioConfig, ScenarioState, SideSetup, StateInfo};
pub use view::{ScenarioView, Viewer};

/// Why a scenario input was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// The input does not fit the current step (HTTP 409): a closed step, not this side's turn.
    #[error("{0}")]
    Conflict(String),
    /// The input is invalid (HTTP 422), every problem at once.
    #[error("the step's input breaks the rules: {} problem(s)", .0.len())]
    Invalid(Vec<Problem>),
    /// Entered dice did not fit a roll (HTTP 422).
    #[error("{0}")]
    Dice(DiceError),
}
