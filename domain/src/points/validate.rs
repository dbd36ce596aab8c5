//! Gear the point value system cannot price, reported as problems with dotted paths (RULES.md
//! §1.6–§1.10, §1.13, §4.3): powered-armour-only kit on other armour, weapon traits outside
//! their price column, munitions without a weapon that fires them, single-figure traits on a
//! squad, ratings outside their range.

use crate::kit::HeavyWeapon;
use crate::roster::{Problem, Unit};

use super::gear::{
    ArmourAddon, JAMMER_MAX_RATING, WeaponClass, takes_auto_cannon_rounds, takes_munitions,
};

/// The highest communications rating.
pub const COMMS_MAX_RATING: u8 = 4;

/// Checks `unit`'s gear; `path` prefixes every field, e.g. `platoons[0].units[2]`.
pub fn validate_gear(unit: &Unit, path: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let at = |field: &str| {
        if path.is_empty() {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        }
    };
    let powered = unit.armour.is_powered();
    for (k, w) in unit.support_weapons.iter().enumerate() {
        if w.powered_armour_only() && !powered {
            problems.push(Problem::new(
                at(&format!("support_weapons[{k}]")),
                format!("{w} is for powered armour only"),
            ));
        }
    }
    if unit.linked_weapons && !powered {
        problems.push(Problem::new(
            at("linked_weapons"),
            "linked weapons are for powered armour only",
        ));
    }
    if !unit.powered_armour_upgrades.is_empty() && !powered {
        problems.push(Problem::new(
            at("powered_armour_upgrades"),
            "powered-armour upgrades need light or heavy powered armour",
        ));
    }
    for (k, a) in unit.armour_addons.iter().enumerate() {
        if *a == ArmourAddon::ColdSuit && powered {
            problems.push(Problem::new(
                at(&format!("armour_addons[{k}]")),
                "a cold suit is not for powered armour",
            ));
        }
    }
    if unit.jammer_rating > JAMMER_MAX_RATING {
        problems.push(Problem::new(
            at("jammer_rating"),
            format!("jammers are rated 0 to {JAMMER_MAX_RATING}"),
        ));
    }
    if unit.comms_rating.is_some_and(|r| r > COMMS_MAX_RATING) {
        problems.push(Problem::new(
            at("comms_rating"),
            format!("communications are rated 0 to {COMMS_MAX_RATING}"),
        ));
    }
    if unit.hover_bot_upgrades as usize > unit.bots.len() {
        problems.push(Problem::new(
            at("hover_bot_upgrades"),
            "more Hover-Bot upgrades than bots",
        ));
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
    for (k, t) in unit.traits.iter().enumerate() {
        if t.single_figure_only() && unit.starting_strength > 1 {
            problems.push(Problem::new(
                at(&format!("traits[{k}]")),
                format!("{t} may only be taken by a single figure"),
            ));
        }
    }
    if unit.trait_options.resilient_points.is_some_and(|rp| rp < 2) {
        problems.push(Problem::new(
            at("trait_options.resilient_points"),
            "Resilient starts at 2 RP",
        ));
    }
    if unit
        .trait_options
        .infect_multiplier
        .is_some_and(|m| !m.is_finite() || m <= 0.0)
    {
        problems.push(Problem::new(
            at("trait_options.infect_multiplier"),
            "the agreed Infect multiplier must be a positive number",
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Armour, BasicWeapon, SupportWeapon};
    use crate::points::TraitOptions;
    use crate::points::gear::{Bot, Munition, PoweredArmourUpgrade, WeaponTrait};
    use crate::traits::Trait;

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
    fn powered_armour_only_kit_is_refused_on_other_armour() {
        let unit = Unit {
            armour: Armour::BattleDress,
            support_weapons: vec![SupportWeapon::MissileRack],
            linked_weapons: true,
            powered_armour_upgrades: vec![PoweredArmourUpgrade::Gunner],
            strength: 3,
            starting_strength: 3,
            ..Unit::default()
        };
        assert_eq!(
            fields(&unit),
            [
                "platoons[0].units[1].support_weapons[0]",
                "platoons[0].units[1].linked_weapons",
                "platoons[0].units[1].powered_armour_upgrades"
            ]
        );
        let powered = Unit {
            armour: Armour::LightPowered,
            armour_addons: vec![ArmourAddon::ColdSuit],
            ..unit
        };
        assert_eq!(fields(&powered), ["platoons[0].units[1].armour_addons[0]"]);
    }

    #[test]
    fn ratings_bots_and_options_out_of_range_are_refused() {
        let unit = Unit {
            jammer_rating: 4,
            comms_rating: Some(5),
            hover_bot_upgrades: 1,
            trait_options: TraitOptions {
                resilient_points: Some(1),
                infect_multiplier: Some(0.0),
                ..TraitOptions::default()
            },
            ..Unit::default()
        };
        assert_eq!(
            fields(&unit),
            [
                "platoons[0].units[1].jammer_rating",
                "platoons[0].units[1].comms_rating",
                "platoons[0].units[1].hover_bot_upgrades",
                "platoons[0].units[1].trait_options.resilient_points",
                "platoons[0].units[1].trait_options.infect_multiplier"
            ]
        );
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

    #[test]
    fn single_figure_traits_are_refused_on_a_squad() {
        let squad = Unit {
            traits: vec![Trait::Tough, Trait::Hero],
            strength: 6,
            starting_strength: 6,
            ..Unit::default()
        };
        assert_eq!(fields(&squad), ["platoons[0].units[1].traits[1]"]);
        let lone = Unit {
            traits: vec![Trait::Legend],
            ..Unit::default()
        };
        assert!(fields(&lone).is_empty());
    }
}
