//! The Fast And Dirty (FAD 5th edition) campaign, scenario and force rules as pure Rust.
//!
//! No I/O, no database, no clock: dice come in through [`dice::Dice`] and every roll is logged.
//! `docs/rules.md` (served as `/rules`) restates the rules as this crate applies them; each
//! module cites the section or reading id it implements.

pub mod campaign;
pub mod dice;
pub mod fair_dice;
pub mod forcegen;
pub mod house_rules;
pub mod kit;
pub mod ladder;
pub mod lifecycle;
pub mod names;
pub mod narrative;
pub mod odds;
pub mod orders;
pub mod points;
pub mod roster;
pub mod roster_lock;
pub mod rulesets;
pub mod scenario;
pub mod solo;
pub mod standings;
pub mod traits;
pub mod validation;
pub mod vocabulary;
