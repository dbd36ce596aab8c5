//! The campaign post-battle sequence (docs/rules.md §2, C1–C24; S000 › CAMPAIGN RULES – QUICK).
//!
//! A pure function from (roster at battle start, battle report, dice, choices) to (new roster,
//! per-unit changes, roll log, problems), also available as resumable steps for the service
//! ([`Aftermath`]). One module per rule: each table is `const` data beside the function that
//! reads it.

pub mod changes;
pub mod experience;
pub mod figure_reinforcements;
pub mod figures;
pub mod quality_loss;
pub mod reinforcements;
pub mod replacements;
pub mod report;
pub mod resolve_change;
pub mod revert;
pub mod roll_steps;
pub mod sequence;
pub mod tables;
pub mod vehicle_replacements;

#[cfg(test)]
mod differential;
#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;

pub use changes::{UnitChange, UnitEvent, UnitEventRecord, UnitSnapshot};
pub use experience::{EXPERIENCE_MENU, MenuRow, Purchase, PurchaseItem};
pub use reinforcements::{Allocation, NewSquad, PlatoonRef, ReinforcementChoice, TeamAllocation};
pub use report::{BattleReport, UnitLosses, VehicleDamage};
pub use roll_steps::{DueRoll, ROLL_STEPS};
pub use sequence::{
    Aftermath, CampaignPoints, Choices, Outcome, Pool, PricedPurchase, post_battle_sequence,
    roll_subject_allowed,
};
pub use tables::{CampaignTables, NewSquadRule};
