//! One player force's post-battle sequence over HTTP: `roll`, `reinforcements`, `purchases`,
//! `finalize` and `GET`; see [`crate::app::battles::aftermath`].

pub mod finalize;
pub mod purchases;
pub mod read;
pub mod reinforcements;
pub mod roll;

pub use crate::app::battles::aftermath::{
    AftermathResponse, DiceRequest, NextRoll, Pending, RawDice, UnitRoom,
};

/// Scope string for the idempotency store.
pub fn scope(battle_id: &str, force_id: &str, step: &str) -> String {
    format!("POST /api/v1/battles/{battle_id}/aftermath/{force_id}/{step}")
}
