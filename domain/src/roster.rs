//! The roster: force → platoons → units (API.md › Forces; RULES.md §1.15, C3, C6, C9).
//!
//! A unit keeps its establishment `starting_strength` (E, the initial starting value, C9) beside
//! its current `strength`; the campaign rules cap every replacement and reinforcement at E.

use serde::{Deserialize, Serialize};

use crate::kit::{
    Armour, BasicWeapon, HeavyWeapon, Mobility, Personality, SupportWeapon, VehicleState,
};
use crate::ladder::{Aptitude, LeaderExperience, Leadership, Quality, Resolve};
use crate::named_enum;
use crate::traits::{Trait, effective_traits};

named_enum! {
    /// The kind of a unit (API.md `Unit.kind`; RULES.md §1.15).
    pub enum UnitKind("unit_kind") {
        /// An infantry squad.
        Squad = "squad",
        /// A command squad / platoon HQ.
        CommandSquad = "command_squad" ["platoon_hq", "hq"],
        /// A heavy weapons team.
        WeaponsTeam = "weapons_team" ["heavy_weapons_team"],
        /// A vehicle.
        Vehicle = "vehicle",
        /// An independent character (leader).
        Character = "character",
        /// A sniper.
        Sniper = "sniper",
        /// A psionic.
        Psionic = "psionic",
        /// Off-board artillery or support.
        OffBoardArtillery = "off_board_artillery" ["off_board"],
    }
}

impl UnitKind {
    /// Foot units that use the infantry replacement table (RULES.md §2.1, C23).
    pub fn is_infantry_type(self) -> bool {
        !matches!(self, Self::Vehicle | Self::OffBoardArtillery)
    }
}

named_enum! {
    /// A unit's campaign status (API.md `Unit.status`; RULES.md C6).
    pub enum UnitStatus("status") {
        /// On the roster and fit to field.
        Active = "active",
        /// At zero figures (or a vehicle not replaced); kept with its ratings and E.
        Eliminated = "eliminated",
    }
}

named_enum! {
    /// A character's branch (RULES.md §1.3).
    pub enum Branch("branch") {
        /// Infantry.
        Infantry = "infantry",
        /// Gunnery (heavy weapons).
        Gunnery = "gunnery",
        /// Cavalry (armour).
        Cavalry = "cavalry",
    }
}

/// Armour per facing of a vehicle (RULES.md §1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct VehicleArmour {
    /// Front facing rating.
    pub front: u8,
    /// Side facing rating.
    pub side: u8,
    /// Rear facing rating.
    pub rear: u8,
}

/// A vehicle's profile (RULES.md §1.11, §4.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VehicleProfile {
    /// Mobility type.
    pub mobility: Mobility,
    /// Armour per facing.
    pub armour: VehicleArmour,
    /// Crew figures (3 points each).
    pub crew: u32,
    /// Multi-role crewmen among them (5 points each instead of 3).
    #[serde(default)]
    pub multi_role_crew: u32,
    /// Passengers carried (2 points each).
    #[serde(default)]
    pub passengers: u32,
    /// Weapons the passengers may fire (1 point each).
    #[serde(default)]
    pub passenger_fired_weapons: u32,
}

/// One unit of a force (API.md `Unit`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id across edits and battles.
    pub id: String,
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: UnitKind,
    /// Quality.
    pub quality: Quality,
    /// Resolve; `None` for a vehicle whose crew has no Resolve (C15).
    #[serde(default)]
    pub resolve: Option<Resolve>,
    /// Current figures.
    pub strength: u32,
    /// Establishment E: the initial starting value (C3, C9).
    pub starting_strength: u32,
    /// Personal armour.
    #[serde(default = "default_armour")]
    pub armour: Armour,
    /// Squad basic weapon.
    #[serde(default)]
    pub basic_weapon: Option<BasicWeapon>,
    /// Support weapons, one trooper each.
    #[serde(default)]
    pub support_weapons: Vec<SupportWeapon>,
    /// Heavy weapons (weapons teams, vehicles, off-board units).
    #[serde(default)]
    pub heavy_weapons: Vec<HeavyWeapon>,
    /// Traits.
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// Personalities of members.
    #[serde(default)]
    pub personalities: Vec<Personality>,
    /// Character leadership.
    #[serde(default)]
    pub leadership: Option<Leadership>,
    /// Character branch.
    #[serde(default)]
    pub branch: Option<Branch>,
    /// Squad-leader experience.
    #[serde(default)]
    pub leader_experience: Option<LeaderExperience>,
    /// Psionic aptitude.
    #[serde(default)]
    pub aptitude: Option<Aptitude>,
    /// Psionic Strength (3 at the start).
    #[serde(default)]
    pub psionic_strength: Option<u32>,
    /// Vehicle profile (vehicles only).
    #[serde(default)]
    pub vehicle: Option<VehicleProfile>,
    /// Vehicle state (vehicles only).
    #[serde(default)]
    pub vehicle_state: Option<VehicleState>,
    /// Campaign status.
    #[serde(default = "default_status")]
    pub status: UnitStatus,
}

fn default_armour() -> Armour {
    Armour::Light
}

fn default_status() -> UnitStatus {
    UnitStatus::Active
}

impl Unit {
    /// A lone figure: establishment of one figure (C5).
    pub fn is_lone_figure(&self) -> bool {
        self.kind.is_infantry_type() && self.starting_strength == 1
    }
    /// Traits with the implied ones (Zombie → Relentless, Fanatic).
    pub fn effective_traits(&self) -> Vec<Trait> {
        effective_traits(&self.traits)
    }
    /// Whether the unit has `t`, directly or implied.
    pub fn has_trait(&self, t: Trait) -> bool {
        self.effective_traits().contains(&t)
    }
    /// Resolve frozen at Steady by Fanatic or Zombie (C17).
    pub fn resolve_frozen(&self) -> bool {
        self.effective_traits().iter().any(|t| t.freezes_resolve())
    }
}

/// A platoon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platoon {
    /// Name.
    pub name: String,
    /// Units, the platoon's own and attached support.
    pub units: Vec<Unit>,
}

/// A force (roster).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    /// Name.
    pub name: String,
    /// Platoons.
    pub platoons: Vec<Platoon>,
}

impl Force {
    /// P: platoons in the force's organisation, minimum 1 (C12).
    pub fn platoon_count(&self) -> u32 {
        u32::try_from(self.platoons.len())
            .unwrap_or(u32::MAX)
            .max(1)
    }
    /// Every unit, in roster order.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.platoons.iter().flat_map(|p| p.units.iter())
    }
    /// Every unit, mutable.
    pub fn units_mut(&mut self) -> impl Iterator<Item = &mut Unit> {
        self.platoons.iter_mut().flat_map(|p| p.units.iter_mut())
    }
    /// The unit with `id`.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units().find(|u| u.id == id)
    }
    /// The unit with `id`, mutable.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units_mut().find(|u| u.id == id)
    }
}

/// One validation problem, with the JSON path of the offending value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Dotted path, e.g. `platoons[0].units[2].strength`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem at `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}
