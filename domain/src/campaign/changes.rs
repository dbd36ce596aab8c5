//! What the post-battle sequence did to each unit: before/after snapshots and the events that
//! caused them, for the roster history and the response of every step (docs/rules.md §2.3; S000 › CAMPAIGN RULES – QUICK).

use serde::{Deserialize, Serialize};

use super::experience::PurchaseItem;
use super::report::VehicleDamage;
use super::vehicle_replacements::VehicleFate;
use crate::kit::{Personality, VehicleState};
use crate::ladder::{LeaderExperience, Leadership, Quality, Resolve};
use crate::roster::{Force, Unit, UnitStatus};
use crate::traits::Trait;

/// The campaign-relevant ratings of a unit at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnitSnapshot {
    /// Figures.
    pub strength: u32,
    /// Establishment E.
    pub starting_strength: u32,
    /// Quality.
    pub quality: Quality,
    /// Resolve.
    pub resolve: Option<Resolve>,
    /// Campaign status.
    pub status: UnitStatus,
    /// Vehicle state (vehicles only).
    pub vehicle_state: Option<VehicleState>,
    /// Character leadership.
    pub leadership: Option<Leadership>,
    /// Squad-leader experience.
    pub leader_experience: Option<LeaderExperience>,
    /// Traits.
    pub traits: Vec<Trait>,
    /// Personalities.
    pub personalities: Vec<Personality>,
}

impl UnitSnapshot {
    /// The snapshot of `unit`.
    pub fn of(unit: &Unit) -> Self {
        Self {
            strength: unit.strength,
            starting_strength: unit.starting_strength,
            quality: unit.quality,
            resolve: unit.resolve,
            status: unit.status,
            vehicle_state: unit.vehicle_state,
            leadership: unit.leadership,
            leader_experience: unit.leader_experience,
            traits: unit.traits.clone(),
            personalities: unit.personalities.clone(),
        }
    }
}

/// One thing that happened to a unit in the sequence, in order (`{"event": "...", ...}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum UnitEvent {
    /// The battle's losses (C2) and vehicle damage (C16).
    Losses {
        /// L, figures lost.
        figures: u32,
        /// Vehicle damage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        vehicle_damage: Option<VehicleDamage>,
    },
    /// Step 1: the replacement roll and the figures it returned.
    Replacements {
        /// The d6.
        roll: u8,
        /// R, figures replaced.
        figures: u32,
    },
    /// Step 2: the vehicle replacement roll.
    VehicleReplacement {
        /// The d6.
        roll: u8,
        /// What became of the vehicle.
        fate: VehicleFate,
    },
    /// Step 3 (or a 2 CP vehicle replacement, C7): the quality loss roll.
    QualityLoss {
        /// The d6.
        roll: u8,
        /// Quality before.
        from: Quality,
        /// Quality after.
        to: Quality,
    },
    /// Unknown Resolve (docs/rules.md §4.1 option): the unit's Resolve rolled on the squad resolve
    /// table the first time it took casualties.
    ResolveRolled {
        /// The d6.
        roll: u8,
        /// The Resolve it rolled.
        to: Resolve,
    },
    /// Step 4: the resolve change roll.
    ResolveChange {
        /// The d6.
        roll: u8,
        /// Resolve before.
        from: Resolve,
        /// Resolve after.
        to: Resolve,
    },
    /// FMA's casualty roll for a figure that was down (M4), in place of step 1.
    Casualty {
        /// The d6.
        roll: u8,
        /// What the examination found.
        casualty: crate::rulesets::gzg_fma_1999::Casualty,
    },
    /// FMA's Motivation change (M6), in place of step 4: levels 1 (high) to 3 (low).
    MotivationChange {
        /// The d6.
        roll: u8,
        /// Motivation level before.
        from: u8,
        /// Motivation level after.
        to: u8,
    },
    /// Step 6: a purchase from the experience menu.
    Purchase {
        /// The item.
        item: PurchaseItem,
        /// Campaign points paid.
        cost: u32,
        /// The personality granted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        personality: Option<Personality>,
        /// The trait assigned.
        #[serde(default, rename = "trait", skip_serializing_if = "Option::is_none")]
        trait_: Option<Trait>,
    },
    /// Reinforcement troopers joined the unit (C9, C10).
    Reinforced {
        /// Troopers.
        troopers: u32,
    },
    /// The unit was formed from the reinforcement pool as the one new squad (C10).
    Formed {
        /// Troopers, its establishment E.
        troopers: u32,
    },
}

/// An event and the unit it happened to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnitEventRecord {
    /// The unit.
    pub unit_id: String,
    /// What happened.
    pub event: UnitEvent,
}

impl UnitEventRecord {
    /// An event for `unit_id`.
    pub fn new(unit_id: &str, event: UnitEvent) -> Self {
        Self {
            unit_id: unit_id.to_owned(),
            event,
        }
    }
}

/// The change to one unit across the sequence so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnitChange {
    /// The unit.
    pub unit_id: String,
    /// Its name.
    pub name: String,
    /// Its platoon's name.
    pub platoon: String,
    /// At the start of the battle; `null` for the new squad.
    pub before: Option<UnitSnapshot>,
    /// Now.
    pub after: UnitSnapshot,
    /// What happened, in order.
    pub events: Vec<UnitEvent>,
}

/// Every unit that changed or had an event, in roster order.
pub fn unit_changes(before: &Force, after: &Force, events: &[UnitEventRecord]) -> Vec<UnitChange> {
    let mut out = Vec::new();
    for platoon in &after.platoons {
        for unit in &platoon.units {
            let was = before.unit(&unit.id).map(UnitSnapshot::of);
            let now = UnitSnapshot::of(unit);
            let happened: Vec<UnitEvent> = events
                .iter()
                .filter(|e| e.unit_id == unit.id)
                .map(|e| e.event.clone())
                .collect();
            if was.as_ref() != Some(&now) || !happened.is_empty() {
                out.push(UnitChange {
                    unit_id: unit.id.clone(),
                    name: unit.name.clone(),
                    platoon: platoon.name.clone(),
                    before: was,
                    after: now,
                    events: happened,
                });
            }
        }
    }
    out
}
