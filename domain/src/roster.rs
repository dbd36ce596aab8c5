//! The roster: force → platoons → units (docs/rules.md §1.15, C3, C6, C9).
//!
//! A unit keeps its establishment `starting_strength` (E, the initial starting value, C9) beside
//! its current `strength`; the campaign rules cap every replacement and reinforcement at E.

use serde::{Deserialize, Serialize};

use crate::kit::{
    Armour, BasicWeapon, HeavyWeapon, Mobility, Personality, SupportWeapon, VehicleState,
};
use crate::ladder::{Aptitude, LeaderExperience, Leadership, Quality, Resolve};
use crate::named_enum;
use crate::points::TraitOptions;
use crate::points::gear::{
    Ability, ArmourAddon, Bot, FireControl, Gadget, Grenade, Munition, PoweredArmourUpgrade,
    VehicleProperty, WeaponTrait,
};
use crate::rulesets::gzg_fma_1999::FmaProfile;
use crate::rulesets::one_page_skirmish::OnePageProfile;
use crate::traits::{Trait, effective_traits};

named_enum! {
    /// The kind of a unit (docs/rules.md §1.15).
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
    /// Foot units that use the infantry replacement table (docs/rules.md §2.1, C23).
    pub fn is_infantry_type(self) -> bool {
        !matches!(self, Self::Vehicle | Self::OffBoardArtillery)
    }
}

named_enum! {
    /// A unit's campaign status (docs/rules.md C6).
    pub enum UnitStatus("status") {
        /// On the roster and fit to field.
        Active = "active",
        /// At zero figures (or a vehicle not replaced); kept with its ratings and E.
        Eliminated = "eliminated",
    }
}

named_enum! {
    /// A character's branch (docs/rules.md §1.3).
    pub enum Branch("branch") {
        /// Infantry.
        Infantry = "infantry",
        /// Gunnery (heavy weapons).
        Gunnery = "gunnery",
        /// Cavalry (armour).
        Cavalry = "cavalry",
    }
}

/// Armour per facing of a vehicle (docs/rules.md §1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VehicleArmour {
    /// Front facing rating.
    pub front: u8,
    /// Side facing rating.
    pub side: u8,
    /// Rear facing rating.
    pub rear: u8,
}

/// A vehicle's profile (docs/rules.md §1.11, §4.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// One unit of a force: its profile, gear and campaign state. Fields after `status` are
/// optional gear that most units do not have.
// Build one in code with `Unit { id, kind, .., ..Default::default() }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Unit {
    /// Stable id across edits and battles, assigned by the server: creating, importing or
    /// generating a force gives every unit a fresh id (any id sent is ignored); replacing a
    /// force keeps the ids of its own units (omit `id` for a new unit).
    #[cfg_attr(feature = "openapi", schema(required = false))]
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
    /// Abilities: Drop Troops, Jet Packs (docs/rules.md §1.13; priced like traits).
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Traits of the squad basic weapon, priced per armed trooper (docs/rules.md §1.10).
    #[serde(default)]
    pub basic_weapon_traits: Vec<WeaponTrait>,
    /// Traits of every support weapon of the unit, priced per support weapon.
    #[serde(default)]
    pub support_weapon_traits: Vec<WeaponTrait>,
    /// Traits of every heavy weapon of the unit, priced per heavy weapon.
    #[serde(default)]
    pub heavy_weapon_traits: Vec<WeaponTrait>,
    /// Munitions and auto-cannon rounds, priced per unit.
    #[serde(default)]
    pub munitions: Vec<Munition>,
    /// Linked basic weapons (powered armour only), +1 per armed trooper.
    #[serde(default)]
    pub linked_weapons: bool,
    /// Suits worn over the armour, priced per figure.
    #[serde(default)]
    pub armour_addons: Vec<ArmourAddon>,
    /// Powered-armour upgrades, priced per figure (docs/rules.md §4.3).
    #[serde(default)]
    pub powered_armour_upgrades: Vec<PoweredArmourUpgrade>,
    /// Grenades, priced per unit.
    #[serde(default)]
    pub grenades: Vec<Grenade>,
    /// Gadgets (one entry per Field Projector), priced per unit or per figure.
    #[serde(default)]
    pub gadgets: Vec<Gadget>,
    /// Jammer rating 0–3 (0 = none), +3 per rating.
    #[serde(default)]
    pub jammer_rating: u8,
    /// Bots, one entry per bot.
    #[serde(default)]
    pub bots: Vec<Bot>,
    /// How many of the bots are upgraded to Hover-Bots (+2 each).
    #[serde(default)]
    pub hover_bot_upgrades: u32,
    /// Communications rating 0–4; `None` is the standard rating 1 (0 = no comms gear, −2).
    #[serde(default)]
    pub comms_rating: Option<u8>,
    /// The unit has no ranged attacks at all (×0.7 with the traits).
    #[serde(default)]
    pub no_ranged_attacks: bool,
    /// Options of the traits with several prices (Droid Troopers, Holy, Resilient, ...).
    #[serde(default)]
    pub trait_options: TraitOptions,
    /// Vehicle properties (vehicles only; free unless a house table prices them, F17).
    #[serde(default)]
    pub vehicle_properties: Vec<VehicleProperty>,
    /// Vehicle fire control (vehicles only; free unless a house table prices it, F17).
    #[serde(default)]
    pub fire_control: Option<FireControl>,
    /// The one-page skirmish profile (docs/rules.md O2): present on every unit of a
    /// `one-page-skirmish` roster and on no other. Such a unit counts bases (or vehicle models)
    /// in `strength`, holds its training in `quality` by rung (O1) and has no Resolve (O3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_page: Option<OnePageProfile>,
    /// The FMA figure profile (docs/rules.md M1): present on every figure of a `gzg-fma-1999`
    /// roster and on no other unit. Such a unit is one figure; its grade and Motivation live
    /// here, mirrored onto `quality` and `resolve` for generic code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fma: Option<FmaProfile>,
}

impl Default for Unit {
    /// A one-figure Conscript, Steady, Light-armoured squad with no gear and an empty id; meant
    /// as the `..Default::default()` base of struct literals.
    fn default() -> Self {
        Self {
            id: String::new(),
            name: String::new(),
            kind: UnitKind::Squad,
            quality: Quality::Conscript,
            resolve: Some(Resolve::Steady),
            strength: 1,
            starting_strength: 1,
            armour: Armour::Light,
            basic_weapon: None,
            support_weapons: Vec::new(),
            heavy_weapons: Vec::new(),
            traits: Vec::new(),
            personalities: Vec::new(),
            leadership: None,
            branch: None,
            leader_experience: None,
            aptitude: None,
            psionic_strength: None,
            vehicle: None,
            vehicle_state: None,
            status: UnitStatus::Active,
            abilities: Vec::new(),
            basic_weapon_traits: Vec::new(),
            support_weapon_traits: Vec::new(),
            heavy_weapon_traits: Vec::new(),
            munitions: Vec::new(),
            linked_weapons: false,
            armour_addons: Vec::new(),
            powered_armour_upgrades: Vec::new(),
            grenades: Vec::new(),
            gadgets: Vec::new(),
            jammer_rating: 0,
            bots: Vec::new(),
            hover_bot_upgrades: 0,
            comms_rating: None,
            no_ranged_attacks: false,
            trait_options: TraitOptions::default(),
            vehicle_properties: Vec::new(),
            fire_control: None,
            one_page: None,
            fma: None,
        }
    }
}

fn default_armour() -> Armour {
    Armour::Light
}

fn default_status() -> UnitStatus {
    UnitStatus::Active
}

impl Unit {
    /// A lone figure: establishment of one figure (C5). A one-page unit of one base is not:
    /// that text has no lone figures (O2).
    pub fn is_lone_figure(&self) -> bool {
        self.kind.is_infantry_type() && self.starting_strength == 1 && self.one_page.is_none()
    }
    /// Traits with the implied ones (Zombie → Relentless, Fanatic; self-less Droid Troopers →
    /// Relentless).
    pub fn effective_traits(&self) -> Vec<Trait> {
        effective_traits(&self.traits, &self.trait_options)
    }
    /// Whether the unit takes the field in a battle (docs/rules.md C6, C16, S14): on the roster as
    /// active, and for a vehicle not left damaged (unrepaired) or destroyed. Everything that
    /// asks whether a unit is present in a battle asks this.
    pub fn is_fielded(&self) -> bool {
        self.status == UnitStatus::Active
            && !(self.kind == UnitKind::Vehicle
                && matches!(
                    self.vehicle_state,
                    Some(VehicleState::Damaged | VehicleState::Destroyed)
                ))
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Platoon {
    /// Name.
    pub name: String,
    /// Units, the platoon's own and attached support.
    pub units: Vec<Unit>,
}

/// A force (roster).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
