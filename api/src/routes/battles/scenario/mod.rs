//! A battle's scenario workflow over HTTP: `GET /battles/{id}/scenario`, the four
//! `POST /battles/{id}/scenario/…` steps, the Assault target declaration and the per-side
//! printable sheet; see [`crate::app::battles::scenario`].

pub mod assault;
pub mod choice;
pub mod missions;
pub mod orders;
pub mod read;
pub mod recon;
pub mod share;

pub use crate::app::battles::scenario::{
    BattleScenarioDocument, BattleScenarioResponse, DiceEntries, NonPlayerDiceEntries, RawDice,
    non_player, public_view,
};
