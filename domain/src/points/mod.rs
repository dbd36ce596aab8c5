//! The point value system (docs/rules.md §4.3 with F11–F17; S000 › POINT VALUE SYSTEM): what a unit,
//! a platoon and a force are worth.
//!
//! ```text
//! figure      = start cost + armour (+ add-ons, powered-armour upgrades) + weapon (+ its traits)
//!               (+ leadership | aptitude and extra Strength)
//! unit_base   = (Σ figures + personalities + unit-level adds) × (Quality factor + Resolve adj.)
//! unit_final  = unit_base × Π abilities × Π traits (× 0.7 no ranged attacks) (× 2.5 off-board)
//! vehicle     = (Σ facing armour + mobility + weapons + crew + passengers) × Quality factor
//! ```
//!
//! Readings taken here (the text leaves them open):
//! - **Points follow the current state.** [`unit_points`] prices the unit's current `strength`
//!   with its current Quality and Resolve. An eliminated unit (status `eliminated`, no figures
//!   left, or a destroyed vehicle) is worth **0**; a damaged vehicle keeps its value.
//!   [`establishment_points`] prices the establishment E regardless of state.
//! - **Who is lost first.** With fewer figures than weapons, the support weapons are kept (in list
//!   order) and riflemen are lost first; a leader figure is lost last.
//! - **Infantry figures.** A squad of N has a leader equipped like his men (the 57.2 example): every
//!   figure is a trooper at 4. Each support weapon is carried by one trooper *instead of* the basic
//!   weapon. A unit with a `leadership` rating (a platoon HQ, an independent leader) has one leader
//!   figure at the character start cost 10 plus leadership.
//! - **Weapons teams and off-board units** pay 3 per crew figure plus their heavy weapons; the
//!   small arm is not costed (F14). Heavy weapons carried by other infantry (a powered-armour
//!   one-man team) are added to the unit's sum.
//! - **Personalities** are listed per unit, one entry per member who has it, and added once each.
//! - **Resolve** absent on an infantry-type unit counts as Steady; vehicles use no Resolve.
//! - **Vehicles** multiply by the crew Quality only, as §4.3 states; traits and abilities are not
//!   applied to vehicles. A facing rated below 3 (soft skin) costs 0; above 12 costs the 12 price.
//!   Vehicle properties and fire control are free (F17) unless the campaign agrees a
//!   [`HousePoints`] table; their house costs are added before the Quality factor.
//! - **Rounding.** Full precision everywhere; [`round_points`] gives the 2-decimal display (F15).

pub mod gear;
pub mod multipliers;
pub mod validate;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use multipliers::{TraitOptions, trait_multiplier, unit_multiplier};
pub use validate::validate_gear;

use crate::kit::{SupportWeapon, VEHICLE_ARMOUR_POINTS, VehicleState};
use crate::roster::{Force, Platoon, Unit, UnitKind, UnitStatus, VehicleProfile};
use gear::{
    FireControl, HOVER_BOT_UPGRADE_POINTS, JAMMER_MAX_RATING, JAMMER_POINTS_PER_RATING,
    LINKED_WEAPONS_POINTS, VehicleProperty, WeaponClass,
};

/// Start cost of an infantry trooper (Light armour, Assault Rifle, Conscript, Steady).
pub const TROOPER_START_COST: f64 = 4.0;
/// Start cost per weapons-team crew member (Light armour; small arm not costed, F14).
pub const WEAPONS_TEAM_CREW_COST: f64 = 3.0;
/// Start cost of a character (leader), before leadership.
pub const CHARACTER_START_COST: f64 = 10.0;
/// Start cost of a psionic (Marginal, Strength 3).
pub const PSIONIC_START_COST: f64 = 20.0;
/// Strength a psionic's start cost includes.
pub const PSIONIC_INCLUDED_STRENGTH: u32 = 3;
/// Cost of each Strength point above the included three.
pub const PSIONIC_EXTRA_STRENGTH_COST: f64 = 5.0;
/// Start cost of a sniper (Light armour, Sniper Rifle).
pub const SNIPER_START_COST: f64 = 15.0;
/// The final multiplier of an off-board unit.
pub const OFF_BOARD_MULTIPLIER: f64 = 2.5;
/// Comms: each level above rating 1 costs this much per unit; no comms saves the same.
pub const COMMS_POINTS_PER_LEVEL: f64 = 2.0;
/// Vehicle crewman.
pub const VEHICLE_CREW_COST: f64 = 3.0;
/// Vehicle crewman handling several positions.
pub const VEHICLE_MULTI_ROLE_CREW_COST: f64 = 5.0;
/// Per passenger a vehicle carries.
pub const VEHICLE_PASSENGER_COST: f64 = 2.0;
/// Per weapon fired by a passenger.
pub const VEHICLE_PASSENGER_WEAPON_COST: f64 = 1.0;

/// How a unit's points were reached, for display and audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PointsBreakdown {
    /// Figures priced (current strength, or E for establishment points).
    pub figures: u32,
    /// Every + and − added up: figures, personalities and unit-level adds (F16).
    pub additions: f64,
    /// Quality factor plus Resolve adjustment (F11); Quality factor alone for vehicles.
    pub factor: f64,
    /// `additions × factor`: the Base Cost.
    pub base_cost: f64,
    /// Product of abilities, traits, no-ranged-attacks and off-board multipliers.
    pub multiplier: f64,
    /// The unit's points at full precision.
    pub total: f64,
}

/// Costs the campaign agreed for what the source leaves unpriced (F17): vehicle properties and
/// fire control. Absent entries cost 0. JSON: `{"vehicle_properties": {"smoke": 2},
/// "fire_control": {"extensive": 5}}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct HousePoints {
    /// Points per vehicle property.
    pub vehicle_properties: BTreeMap<VehicleProperty, f64>,
    /// Points per fire-control level.
    pub fire_control: BTreeMap<FireControl, f64>,
}

impl HousePoints {
    fn vehicle_extras(&self, unit: &Unit) -> f64 {
        let properties: f64 = unit
            .vehicle_properties
            .iter()
            .filter_map(|p| self.vehicle_properties.get(p))
            .sum();
        let fire_control = unit
            .fire_control
            .and_then(|f| self.fire_control.get(&f))
            .copied()
            .unwrap_or(0.0);
        properties + fire_control
    }
}

/// Rounds points to the 2 decimals they are displayed with (F15).
pub fn round_points(points: f64) -> f64 {
    (points * 100.0).round() / 100.0
}

/// Whether the unit counts as gone for points: eliminated, no figures, or a destroyed vehicle.
pub fn is_eliminated(unit: &Unit) -> bool {
    unit.status == UnitStatus::Eliminated
        || (unit.kind != UnitKind::Vehicle && unit.strength == 0)
        || unit.vehicle_state == Some(VehicleState::Destroyed)
}

/// The unit's points in its current state (0 when eliminated), full precision.
pub fn unit_points(unit: &Unit) -> f64 {
    unit_points_with(unit, &HousePoints::default())
}

/// [`unit_points`] with the campaign's house costs.
pub fn unit_points_with(unit: &Unit, house: &HousePoints) -> f64 {
    if is_eliminated(unit) {
        0.0
    } else {
        breakdown_with(unit, unit.strength, house).total
    }
}

/// The unit's points at its establishment E, whatever its state.
pub fn establishment_points(unit: &Unit) -> f64 {
    breakdown(unit, unit.starting_strength).total
}

/// A platoon's points: the sum of its units' [`unit_points`].
pub fn platoon_points(platoon: &Platoon) -> f64 {
    platoon_points_with(platoon, &HousePoints::default())
}

/// [`platoon_points`] with the campaign's house costs.
pub fn platoon_points_with(platoon: &Platoon, house: &HousePoints) -> f64 {
    platoon
        .units
        .iter()
        .map(|u| unit_points_with(u, house))
        .sum()
}

/// A force's points: the sum of its platoons'.
pub fn force_points(force: &Force) -> f64 {
    force_points_with(force, &HousePoints::default())
}

/// [`force_points`] with the campaign's house costs.
pub fn force_points_with(force: &Force, house: &HousePoints) -> f64 {
    force
        .platoons
        .iter()
        .map(|p| platoon_points_with(p, house))
        .sum()
}

/// Prices `unit` as if it had `figures` figures, with its current ratings and gear.
pub fn breakdown(unit: &Unit, figures: u32) -> PointsBreakdown {
    breakdown_with(unit, figures, &HousePoints::default())
}

/// [`breakdown`] with the campaign's house costs.
pub fn breakdown_with(unit: &Unit, figures: u32, house: &HousePoints) -> PointsBreakdown {
    if unit.kind == UnitKind::Vehicle {
        return vehicle_breakdown(unit, house);
    }
    let additions = figure_sum(unit, figures) + unit_adds(unit, figures);
    let factor =
        unit.quality.row().points_factor + unit.resolve.map_or(0.0, |r| r.row().points_adjustment);
    let base_cost = additions * factor;
    let mut multiplier = unit_multiplier(unit);
    if unit.kind == UnitKind::OffBoardArtillery {
        multiplier *= OFF_BOARD_MULTIPLIER;
    }
    PointsBreakdown {
        figures,
        additions,
        factor,
        base_cost,
        multiplier,
        total: base_cost * multiplier,
    }
}

/// What every figure wears: armour, add-ons and powered-armour upgrades.
fn protection(unit: &Unit) -> f64 {
    unit.armour.points()
        + unit.armour_addons.iter().map(|a| a.points()).sum::<f64>()
        + unit
            .powered_armour_upgrades
            .iter()
            .map(|u| u.points())
            .sum::<f64>()
}

/// A figure's small arm with its traits (and linked weapons).
fn small_arm(unit: &Unit) -> f64 {
    let weapon = unit.basic_weapon.map_or(0.0, |w| w.points());
    let traits: f64 = unit
        .basic_weapon_traits
        .iter()
        .filter_map(|t| t.points(WeaponClass::SmallArm))
        .sum();
    let linked = if unit.linked_weapons && unit.armour.is_powered() {
        LINKED_WEAPONS_POINTS
    } else {
        0.0
    };
    weapon + traits + linked
}

fn support_weapon(unit: &Unit, weapon: SupportWeapon) -> f64 {
    weapon.points()
        + unit
            .support_weapon_traits
            .iter()
            .filter_map(|t| t.points(WeaponClass::Support(weapon)))
            .sum::<f64>()
}

fn heavy_weapons(unit: &Unit) -> f64 {
    unit.heavy_weapons
        .iter()
        .map(|w| {
            w.points()
                + unit
                    .heavy_weapon_traits
                    .iter()
                    .filter_map(|t| t.points(WeaponClass::Heavy(*w)))
                    .sum::<f64>()
        })
        .sum()
}

fn leader_extras(unit: &Unit) -> f64 {
    unit.leadership.map_or(0.0, |l| l.points())
}

fn psionic_extras(unit: &Unit) -> f64 {
    let aptitude = unit.aptitude.map_or(0.0, |a| a.psionic_points());
    let strength = unit.psionic_strength.unwrap_or(PSIONIC_INCLUDED_STRENGTH);
    let extra = strength.saturating_sub(PSIONIC_INCLUDED_STRENGTH);
    aptitude + PSIONIC_EXTRA_STRENGTH_COST * f64::from(extra)
}

/// Σ figures plus personalities, before unit-level adds.
fn figure_sum(unit: &Unit, figures: u32) -> f64 {
    let wear = protection(unit);
    let n = f64::from(figures);
    let figures_cost = match unit.kind {
        UnitKind::Squad | UnitKind::CommandSquad => {
            let mut left = figures;
            let mut sum = 0.0;
            if unit.leadership.is_some() && left > 0 {
                left -= 1;
                sum += CHARACTER_START_COST + wear + small_arm(unit) + leader_extras(unit);
            }
            let carried = unit.support_weapons.len().min(left as usize);
            for w in &unit.support_weapons[..carried] {
                sum += TROOPER_START_COST + wear + support_weapon(unit, *w);
            }
            let riflemen = left - carried as u32;
            sum += f64::from(riflemen) * (TROOPER_START_COST + wear + small_arm(unit));
            sum + heavy_weapons(unit)
        }
        UnitKind::WeaponsTeam | UnitKind::OffBoardArtillery => {
            n * (WEAPONS_TEAM_CREW_COST + wear) + heavy_weapons(unit)
        }
        UnitKind::Character => {
            n * (CHARACTER_START_COST + wear + small_arm(unit) + leader_extras(unit))
        }
        UnitKind::Psionic => {
            n * (PSIONIC_START_COST + wear + small_arm(unit) + psionic_extras(unit))
        }
        UnitKind::Sniper => n * (SNIPER_START_COST + wear),
        UnitKind::Vehicle => 0.0,
    };
    let personalities: f64 = unit.personalities.iter().map(|p| p.points()).sum();
    if figures == 0 {
        figures_cost
    } else {
        figures_cost + personalities
    }
}

/// Unit-level + and − items, added before the multipliers (F16).
fn unit_adds(unit: &Unit, figures: u32) -> f64 {
    let grenades: f64 = unit.grenades.iter().map(|g| g.points()).sum();
    let gadgets: f64 = unit
        .gadgets
        .iter()
        .map(|g| {
            if g.per_figure() {
                g.points() * f64::from(figures)
            } else {
                g.points()
            }
        })
        .sum();
    let jammers = JAMMER_POINTS_PER_RATING * f64::from(unit.jammer_rating.min(JAMMER_MAX_RATING));
    let bots: f64 = unit.bots.iter().map(|b| b.points()).sum::<f64>()
        + HOVER_BOT_UPGRADE_POINTS * f64::from(unit.hover_bot_upgrades);
    let munitions: f64 = unit.munitions.iter().map(|m| m.points()).sum();
    grenades + gadgets + jammers + bots + munitions + comms_points(unit.comms_rating)
}

/// Comms relative to the included rating 1: +2 per level above, −2 with none.
pub fn comms_points(rating: Option<u8>) -> f64 {
    match rating {
        None => 0.0,
        Some(0) => -COMMS_POINTS_PER_LEVEL,
        Some(r) => COMMS_POINTS_PER_LEVEL * f64::from(r.min(4) - 1),
    }
}

/// Points of one vehicle facing rated `rating`: column 0 front, 1 side, 2 rear.
pub fn vehicle_facing_points(rating: u8, facing: usize) -> f64 {
    if rating < 3 {
        return 0.0;
    }
    let row = VEHICLE_ARMOUR_POINTS[usize::from(rating.min(12) - 3)];
    match facing {
        0 => row.1,
        1 => row.2,
        _ => row.3,
    }
}

fn profile_points(profile: &VehicleProfile) -> f64 {
    let armour = vehicle_facing_points(profile.armour.front, 0)
        + vehicle_facing_points(profile.armour.side, 1)
        + vehicle_facing_points(profile.armour.rear, 2);
    let multi = profile.multi_role_crew.min(profile.crew);
    let crew = VEHICLE_CREW_COST * f64::from(profile.crew - multi)
        + VEHICLE_MULTI_ROLE_CREW_COST * f64::from(multi);
    armour
        + profile.mobility.points()
        + crew
        + VEHICLE_PASSENGER_COST * f64::from(profile.passengers)
        + VEHICLE_PASSENGER_WEAPON_COST * f64::from(profile.passenger_fired_weapons)
}

fn vehicle_breakdown(unit: &Unit, house: &HousePoints) -> PointsBreakdown {
    let munitions: f64 = unit.munitions.iter().map(|m| m.points()).sum();
    let additions = unit.vehicle.as_ref().map_or(0.0, profile_points)
        + heavy_weapons(unit)
        + munitions
        + house.vehicle_extras(unit);
    let factor = unit.quality.row().points_factor;
    let base_cost = additions * factor;
    PointsBreakdown {
        figures: unit.strength,
        additions,
        factor,
        base_cost,
        multiplier: 1.0,
        total: base_cost,
    }
}

#[cfg(test)]
mod tests;
