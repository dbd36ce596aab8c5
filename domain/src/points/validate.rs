//! Gear the point value system cannot price, reported as problems with dotted paths (docs/rules.md
//! §1.6, §1.10): weapon traits outside their price column or on weapons the unit does not have,
//! munitions without a weapon that fires them, a cold suit over powered armour. It complements
//! [`crate::validation::unit_problems`], which already checks the powered-armour-only kit, the
//! ratings, bots, single-figure traits and trait options; this module does not repeat those.

use crate::kit::HeavyWeapon;
use crate::roster::{Problem, Unit};

use super::gear::{ArmourAddon, WeaponClass, takes_auto_cannon_rounds, takes_munitions};

/// Checks `unit`'s priced gear; `path` prefixes every field, e.g. `platoons[0].units[2]`.
pub fn validate_gear(unit: &Unit, path: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let at = |field: &str| {
        if path.is_empty() {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        }
    };
    for (k, a) in unit.armour_addons.iter().enumerate() {
        if *a == ArmourAddon::ColdSuit && unit.armour.is_powered() {
            problems.push(Problem::new(
                at(&format!("armour_addons[{k}]")),
                "a cold suit is not for powered armour",
            ));
        }
    }
    for (k, t) in unit.basic_weapon_traits.iter().enumerate() {
        if unit.basic_weapon.is_none() || t.points(WeaponClass::SmallArm).is_none() {
            problems.push(Problem::new(
                at(&format!("basic_weapon_traits[{k}]")),
                format!("{t} cannot be put on the unit's small arm"),
            ));
        }
    }
    for (k, t) in unit.support_weapon_traits.iter().enumerate() {
        let fits = !unit.support_weapons.is_empty()
            && unit
                .support_weapons
                .iter()
                .all(|w| t.points(WeaponClass::Support(*w)).is_some());
        if !fits {
            problems.push(Problem::new(
                at(&format!("support_weapon_traits[{k}]")),
                format!("{t} cannot be put on every support weapon of the unit"),
            ));
        }
    }
    for (k, t) in unit.heavy_weapon_traits.iter().enumerate() {
        let fits = !unit.heavy_weapons.is_empty()
            && unit
                .heavy_weapons
                .iter()
                .all(|w| t.points(WeaponClass::Heavy(*w)).is_some());
        if !fits {
            problems.push(Problem::new(
                at(&format!("heavy_weapon_traits[{k}]")),
                format!("{t} cannot be put on every heavy weapon of the unit"),
            ));
        }
    }
    let fires = |pred: fn(HeavyWeapon) -> bool| unit.heavy_weapons.iter().any(|w| pred(*w));
    for (k, m) in unit.munitions.iter().enumerate() {
        let ok = if m.is_auto_cannon_round() {
            fires(takes_auto_cannon_rounds)
        } else {
            fires(takes_munitions)
        };
        if !ok {
            problems.push(Problem::new(
                at(&format!("munitions[{k}]")),
                if m.is_auto_cannon_round() {
                    format!("{m} needs an auto cannon")
                } else {
                    format!("{m} needs a mortar, missile launcher or cannon")
                },
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Armour, BasicWeapon, SupportWeapon};
    use crate::points::gear::{Bot, Munition, WeaponTrait};

    fn fields(unit: &Unit) -> Vec<String> {
        validate_gear(unit, "platoons[0].units[1]")
            .into_iter()
            .map(|p| p.field)
            .collect()
    }

    #[test]
    fn ordinary_kit_is_valid() {
        let unit = Unit {
            strength: 8,
            starting_strength: 8,
            basic_weapon: Some(BasicWeapon::AssaultRifles),
            support_weapons: vec![SupportWeapon::SquadAutomaticWeapon],
            basic_weapon_traits: vec![WeaponTrait::AutoTarget],
            support_weapon_traits: vec![WeaponTrait::SmartTargeting],
            heavy_weapons: vec![HeavyWeapon::MortarLight],
            heavy_weapon_traits: vec![WeaponTrait::ManPortable],
            munitions: vec![Munition::Smart],
            bots: vec![Bot::MedBot],
            hover_bot_upgrades: 1,
            jammer_rating: 3,
            comms_rating: Some(4),
            ..Unit::default()
        };
        assert!(validate_gear(&unit, "").is_empty());
    }

    #[test]
    fn a_cold_suit_is_refused_over_powered_armour() {
        let unit = Unit {
            armour: Armour::LightPowered,
            armour_addons: vec![ArmourAddon::SelfSealing, ArmourAddon::ColdSuit],
            ..Unit::default()
        };
        assert_eq!(fields(&unit), ["platoons[0].units[1].armour_addons[1]"]);
        let light = Unit {
            armour: Armour::Light,
            ..unit
        };
        assert!(fields(&light).is_empty());
    }

    #[test]
    fn weapon_traits_and_munitions_must_fit_the_unit_weapons() {
        let unit = Unit {
            basic_weapon: Some(BasicWeapon::AssaultRifles),
            basic_weapon_traits: vec![WeaponTrait::Gatling],
            support_weapons: vec![SupportWeapon::CombatBlade],
            support_weapon_traits: vec![WeaponTrait::LimitedSupply, WeaponTrait::Terror],
            heavy_weapons: vec![HeavyWeapon::BeamLight],
            heavy_weapon_traits: vec![WeaponTrait::Gatling, WeaponTrait::HypertechCoolingSystem],
            munitions: vec![Munition::Fragstorm, Munition::Incendiary],
            ..Unit::default()
        };
        assert_eq!(
            fields(&unit),
            [
                "platoons[0].units[1].basic_weapon_traits[0]",
                "platoons[0].units[1].support_weapon_traits[0]",
                "platoons[0].units[1].heavy_weapon_traits[0]",
                "platoons[0].units[1].munitions[0]",
                "platoons[0].units[1].munitions[1]"
            ]
        );
    }
}
