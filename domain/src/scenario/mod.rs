//! Scenario generation (RULES.md §3, §6.2 S1–S30; S000 › SCENARIO GENERATION, MISSION DETAILS,
//! PRE BATTLE EVENTS, UNCONTROLLED FORCES).
//!
//! The pure building blocks live in one module per rule; [`machine`] strings them together as a
//! state machine whose states are the steps that wait for a player.

pub mod contact_markers;
pub mod deployment;
pub mod missions;
pub mod non_player;
pub mod objectives;
pub mod pre_battle;
pub mod recon_duty;
pub mod recon_points;
pub mod table_edge;
