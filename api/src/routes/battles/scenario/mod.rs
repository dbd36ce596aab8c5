//! A battle's scenario workflow over HTTP: `GET /battles/{id}/scenario`, the four
//! `POST /battles/{id}/scenario/…` steps, the Assault target declaration and the per-side
//! printable sheet; see [`crate::app::battles::scenario`].

pub mod assault;
pub mod choice;
pub mod missions;
pub mod orders;
pub mod read;
pub mod recon;
pub mod sheet;

pub use crate::app::battles::scenario::{
    AttitudeName, BattleScenarioDocument, BattleScenarioResponse, DiceEntries, MissionName,
    NonPlayerDiceEntries, RawDice, StanceName, non_player, public_view,
};
