//! The §4.3 worked examples and the pricing rules, row by row.

use proptest::prelude::*;

use super::*;
use crate::kit::{
    Armour, BasicWeapon, HeavyWeapon, Mobility, Personality, SupportWeapon, VehicleState,
};
use crate::ladder::{Aptitude, Ladder, Leadership, Quality, Resolve};
use crate::names::Named;
use crate::points::gear::{
    Ability, ArmourAddon, Bot, Gadget, Grenade, Munition, PoweredArmourUpgrade, WeaponTrait,
};
use crate::roster::VehicleArmour;
use crate::traits::Trait;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn regular_squad(strength: u32, support: Vec<SupportWeapon>) -> Unit {
    Unit {
        id: "s".into(),
        kind: UnitKind::Squad,
        quality: Quality::Regular,
        resolve: Some(Resolve::Steady),
        strength,
        starting_strength: strength,
        armour: Armour::Improved,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        support_weapons: support,
        ..Unit::default()
    }
}

/// The "squad from page 53": leader + 7 troopers + 1 SAW trooper with Trigger Happy (F12).
fn page_53_squad() -> Unit {
    Unit {
        personalities: vec![Personality::TriggerHappy],
        ..regular_squad(9, vec![SupportWeapon::SquadAutomaticWeapon])
    }
}

#[test]
fn example_regular_trooper_is_6_5() {
    let unit = regular_squad(1, vec![]);
    let b = breakdown(&unit, 1);
    assert!(close(b.additions, 5.0));
    assert!(close(unit_points(&unit), 6.5));
}

#[test]
fn example_support_trooper_is_11_7() {
    let unit = Unit {
        personalities: vec![Personality::TriggerHappy],
        ..regular_squad(1, vec![SupportWeapon::SquadAutomaticWeapon])
    };
    assert!(close(breakdown(&unit, 1).additions, 9.0));
    assert!(close(unit_points(&unit), 11.7));
}

#[test]
fn example_squad_of_eight_is_57_2() {
    let unit = Unit {
        personalities: vec![Personality::TriggerHappy],
        ..regular_squad(8, vec![SupportWeapon::SquadAutomaticWeapon])
    };
    assert!(close(unit_points(&unit), 57.2));
}

#[test]
fn f12_page_53_squad_is_nine_figures_with_base_cost_63_7() {
    let b = breakdown(&page_53_squad(), 9);
    assert!(close(b.base_cost, 63.7));
    assert!(close(b.total, 63.7));
}

#[test]
fn example_drop_troops_is_82_81() {
    let unit = Unit {
        abilities: vec![Ability::DropTroops],
        ..page_53_squad()
    };
    assert!(close(unit_points(&unit), 82.81));
    assert_eq!(round_points(unit_points(&unit)), 82.81);
}

#[test]
fn example_single_trait_hardened_is_70_07() {
    let unit = Unit {
        traits: vec![Trait::Hardened],
        ..page_53_squad()
    };
    assert!(close(unit_points(&unit), 70.07));
}

#[test]
fn example_double_trait_recon_agile_is_99_372_shown_99_37_f15() {
    let unit = Unit {
        traits: vec![Trait::Recon, Trait::Agile],
        ..page_53_squad()
    };
    assert!(close(unit_points(&unit), 99.372));
    assert_eq!(round_points(unit_points(&unit)), 99.37);
}

fn light_cannon_team(kind: UnitKind) -> Unit {
    Unit {
        kind,
        quality: Quality::Regular,
        strength: 3,
        starting_strength: 3,
        basic_weapon: Some(BasicWeapon::AssaultCarbines),
        heavy_weapons: vec![HeavyWeapon::CannonLight],
        ..Unit::default()
    }
}

#[test]
fn example_light_cannon_team_is_24_7_and_f14_small_arm_not_costed() {
    let unit = light_cannon_team(UnitKind::WeaponsTeam);
    assert!(close(breakdown(&unit, 3).additions, 19.0));
    assert!(close(unit_points(&unit), 24.7));
}

#[test]
fn example_off_board_light_cannon_is_61_75() {
    let unit = light_cannon_team(UnitKind::OffBoardArtillery);
    assert!(close(unit_points(&unit), 61.75));
}

#[test]
fn example_inspiring_character_is_26() {
    let unit = Unit {
        kind: UnitKind::Character,
        quality: Quality::Regular,
        armour: Armour::Improved,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        leadership: Some(Leadership::Inspiring),
        ..Unit::default()
    };
    assert!(close(breakdown(&unit, 1).additions, 20.0));
    assert!(close(unit_points(&unit), 26.0));
}

#[test]
fn f13_psionic_example_follows_the_components_31_to_40_3() {
    let unit = Unit {
        kind: UnitKind::Psionic,
        quality: Quality::Regular,
        armour: Armour::Improved,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        aptitude: Some(Aptitude::Competent),
        psionic_strength: Some(4),
        ..Unit::default()
    };
    assert!(close(breakdown(&unit, 1).additions, 31.0));
    assert!(close(unit_points(&unit), 40.3));
}

#[test]
fn example_elite_sniper_is_25_6() {
    let unit = Unit {
        kind: UnitKind::Sniper,
        quality: Quality::Elite,
        armour: Armour::Improved,
        heavy_weapons: vec![HeavyWeapon::SniperRifle],
        ..Unit::default()
    };
    assert!(close(breakdown(&unit, 1).additions, 16.0));
    assert!(close(unit_points(&unit), 25.6));
}

#[test]
fn f11_resolve_adjustment_is_added_to_the_quality_factor() {
    let mut unit = regular_squad(1, vec![]);
    let mut got = Vec::new();
    for q in Quality::ALL {
        for r in Resolve::ALL {
            unit.quality = *q;
            unit.resolve = Some(*r);
            got.push(breakdown(&unit, 1).factor);
        }
    }
    let want = [
        0.2, 0.4, 0.7, 1.0, 0.5, 0.7, 1.0, 1.3, 0.8, 1.0, 1.3, 1.6, 1.1, 1.3, 1.6, 1.9,
    ];
    for (g, w) in got.iter().zip(want) {
        assert!(close(*g, w), "{got:?}");
    }
    // Regular Determined ×1.6 and Rabble Reluctant ×0.2, as F11 states.
    unit.quality = Quality::Rabble;
    unit.resolve = Some(Resolve::Reluctant);
    assert!(close(unit_points(&unit), 5.0 * 0.2));
}

#[test]
fn f16_unit_level_adds_go_before_the_quality_multiplier() {
    let unit = Unit {
        grenades: vec![Grenade::Haze, Grenade::Penetrator],
        gadgets: vec![Gadget::Drones, Gadget::ThermalImaging],
        jammer_rating: 2,
        bots: vec![Bot::MedBot, Bot::GunBot],
        hover_bot_upgrades: 1,
        comms_rating: Some(3),
        traits: vec![Trait::Hardened],
        ..regular_squad(4, vec![])
    };
    // 4×5 + grenades 9 + drones 8 + thermal 4×1 + jammers 6 + bots 12 + hover 2 + comms 4 = 65.
    let b = breakdown(&unit, 4);
    assert!(close(b.additions, 65.0));
    assert!(close(b.total, 65.0 * 1.3 * 1.1));
}

#[test]
fn comms_rating_prices_relative_to_the_included_rating_1() {
    let got: Vec<f64> = [None, Some(0), Some(1), Some(2), Some(3), Some(4)]
        .into_iter()
        .map(comms_points)
        .collect();
    assert_eq!(got, [0.0, -2.0, 0.0, 2.0, 4.0, 6.0]);
}

#[test]
fn every_armour_row_is_priced_per_figure() {
    for armour in Armour::ALL {
        let unit = Unit {
            armour: *armour,
            strength: 3,
            starting_strength: 3,
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), 3.0 * (4.0 + armour.points())));
    }
}

#[test]
fn every_basic_weapon_row_is_priced_per_rifleman_not_per_support_trooper() {
    for weapon in BasicWeapon::ALL {
        let unit = Unit {
            basic_weapon: Some(*weapon),
            support_weapons: vec![SupportWeapon::FlameThrower],
            strength: 5,
            starting_strength: 5,
            ..Unit::default()
        };
        assert!(close(
            unit_points(&unit),
            4.0 * (4.0 + weapon.points()) + 4.0 + 3.0
        ));
    }
}

#[test]
fn every_support_weapon_row_is_priced_per_carrier() {
    for weapon in SupportWeapon::ALL {
        let unit = Unit {
            support_weapons: vec![*weapon, *weapon],
            strength: 2,
            starting_strength: 2,
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), 2.0 * (4.0 + weapon.points())));
    }
}

#[test]
fn every_heavy_weapon_row_is_priced_on_a_team() {
    for weapon in HeavyWeapon::ALL {
        let unit = Unit {
            kind: UnitKind::WeaponsTeam,
            heavy_weapons: vec![*weapon],
            strength: 2,
            starting_strength: 2,
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), 6.0 + weapon.points()));
    }
}

#[test]
fn every_personality_and_leadership_row_is_added_before_the_factor() {
    for p in Personality::ALL {
        let unit = Unit {
            quality: Quality::Regular,
            personalities: vec![*p],
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), (4.0 + p.points()) * 1.3));
    }
    for l in Leadership::ALL {
        let unit = Unit {
            kind: UnitKind::Character,
            leadership: Some(*l),
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), 10.0 + l.points()));
    }
    for a in Aptitude::ALL {
        let unit = Unit {
            kind: UnitKind::Psionic,
            aptitude: Some(*a),
            psionic_strength: Some(3),
            ..Unit::default()
        };
        assert!(close(unit_points(&unit), 20.0 + a.psionic_points()));
    }
}

#[test]
fn weapon_traits_are_priced_per_small_arm_support_and_heavy_weapon() {
    let unit = Unit {
        basic_weapon_traits: vec![WeaponTrait::Terror],
        support_weapon_traits: vec![WeaponTrait::SmartTargeting, WeaponTrait::Gatling],
        support_weapons: vec![SupportWeapon::SquadAutomaticWeapon],
        heavy_weapons: vec![HeavyWeapon::HeavyMg],
        heavy_weapon_traits: vec![WeaponTrait::Gatling],
        strength: 4,
        starting_strength: 4,
        ..Unit::default()
    };
    // 3 riflemen 3×4.5, SAW trooper 4+3+2 (Gatling not priced on support), HMG 6+3.
    assert!(close(unit_points(&unit), 13.5 + 9.0 + 9.0));
}

#[test]
fn powered_armour_upgrades_addons_and_linked_weapons_are_per_figure() {
    let unit = Unit {
        armour: Armour::HeavyPowered,
        armour_addons: vec![ArmourAddon::SelfSealing],
        powered_armour_upgrades: vec![PoweredArmourUpgrade::Assault, PoweredArmourUpgrade::Crude],
        linked_weapons: true,
        strength: 2,
        starting_strength: 2,
        ..Unit::default()
    };
    // per figure 4 + 9 + 0.25 + 5 − 2 + 1 linked = 17.25
    assert!(close(unit_points(&unit), 34.5));
    let unpowered = Unit {
        armour: Armour::Heavy,
        linked_weapons: true,
        ..Unit::default()
    };
    assert!(close(unit_points(&unpowered), 6.0));
}

#[test]
fn munitions_are_added_per_unit() {
    let unit = Unit {
        kind: UnitKind::WeaponsTeam,
        heavy_weapons: vec![HeavyWeapon::MortarLight],
        munitions: vec![Munition::Hypertech, Munition::Smart, Munition::Plasma],
        strength: 2,
        starting_strength: 2,
        ..Unit::default()
    };
    assert!(close(unit_points(&unit), 6.0 + 10.0 + 3.0 + 8.0 + 3.0));
}

#[test]
fn a_unit_with_leadership_has_one_leader_figure_at_the_character_cost() {
    let hq = Unit {
        kind: UnitKind::CommandSquad,
        quality: Quality::Regular,
        leadership: Some(Leadership::Experienced),
        strength: 4,
        starting_strength: 4,
        ..Unit::default()
    };
    assert!(close(unit_points(&hq), (15.0 + 3.0 * 4.0) * 1.3));
}

#[test]
fn riflemen_are_lost_before_support_troopers_and_the_leader() {
    let mut unit = Unit {
        kind: UnitKind::CommandSquad,
        leadership: Some(Leadership::Novice),
        support_weapons: vec![SupportWeapon::FlameThrower],
        strength: 2,
        starting_strength: 5,
        ..Unit::default()
    };
    assert!(close(unit_points(&unit), 10.0 + 7.0));
    unit.strength = 1;
    assert!(close(unit_points(&unit), 10.0));
    assert!(close(establishment_points(&unit), 10.0 + 7.0 + 3.0 * 4.0));
}

#[test]
fn eliminated_units_and_destroyed_vehicles_are_worth_zero() {
    let mut unit = regular_squad(6, vec![]);
    unit.status = UnitStatus::Eliminated;
    assert_eq!(unit_points(&unit), 0.0);
    assert!(establishment_points(&unit) > 0.0);
    let mut empty = regular_squad(6, vec![]);
    empty.strength = 0;
    assert_eq!(unit_points(&empty), 0.0);
    let mut tank = vehicle();
    tank.vehicle_state = Some(VehicleState::Damaged);
    assert!(unit_points(&tank) > 0.0);
    tank.vehicle_state = Some(VehicleState::Destroyed);
    assert_eq!(unit_points(&tank), 0.0);
}

fn vehicle() -> Unit {
    Unit {
        kind: UnitKind::Vehicle,
        quality: Quality::Regular,
        resolve: None,
        heavy_weapons: vec![HeavyWeapon::CannonMedium, HeavyWeapon::GeneralPurposeMg],
        traits: vec![Trait::Brave],
        vehicle: Some(VehicleProfile {
            mobility: Mobility::Tracked,
            armour: VehicleArmour {
                front: 10,
                side: 8,
                rear: 5,
            },
            crew: 3,
            multi_role_crew: 1,
            passengers: 4,
            passenger_fired_weapons: 1,
        }),
        vehicle_state: Some(VehicleState::Operational),
        ..Unit::default()
    }
}

#[test]
fn vehicle_is_armour_mobility_weapons_crew_passengers_times_quality_only() {
    // 112 + 36 + 4 (armour) + 5 (tracked) + 16 + 5 (weapons) + (2×3 + 5) (crew) + 4×2 + 1 = 198;
    // ×1.3, no resolve, no traits.
    let mut tank = vehicle();
    assert!(close(unit_points(&tank), 198.0 * 1.3));
    tank.resolve = Some(Resolve::Reluctant);
    assert!(close(unit_points(&tank), 198.0 * 1.3));
}

#[test]
fn vehicle_facing_table_matches_rules_1_11_and_clamps() {
    assert_eq!(vehicle_facing_points(2, 0), 0.0);
    assert_eq!(vehicle_facing_points(3, 0), 5.0);
    assert_eq!(vehicle_facing_points(7, 1), 22.0);
    assert_eq!(vehicle_facing_points(12, 2), 60.0);
    assert_eq!(vehicle_facing_points(15, 0), 180.0);
}

#[test]
fn platoon_and_force_points_sum_their_units() {
    let platoon = Platoon {
        name: "1st".into(),
        units: vec![page_53_squad(), light_cannon_team(UnitKind::WeaponsTeam)],
    };
    assert!(close(platoon_points(&platoon), 63.7 + 24.7));
    let force = Force {
        name: "f".into(),
        platoons: vec![platoon.clone(), platoon],
    };
    assert!(close(force_points(&force), 2.0 * (63.7 + 24.7)));
}

#[test]
fn f15_round_points_keeps_two_decimals() {
    assert_eq!(round_points(99.372), 99.37);
    assert_eq!(round_points(61.755), 61.76);
    assert_eq!(round_points(-0.004), -0.0);
}

proptest! {
    #[test]
    fn points_never_grow_when_figures_are_lost(
        strength in 1u32..15, lost in 0u32..15, q in 0usize..4, r in 0usize..4,
        supports in 0usize..3,
    ) {
        let mut unit = regular_squad(strength, vec![SupportWeapon::PlasmaRifle; supports]);
        unit.quality = Quality::at(q);
        unit.resolve = Some(Resolve::at(r));
        let full = unit_points(&unit);
        unit.strength = strength.saturating_sub(lost);
        prop_assert!(unit_points(&unit) <= full + 1e-9);
        prop_assert!(unit_points(&unit) >= 0.0);
    }

    #[test]
    fn better_quality_never_costs_less(strength in 1u32..15, q in 0usize..3, r in 0usize..4) {
        let mut unit = regular_squad(strength, vec![]);
        unit.resolve = Some(Resolve::at(r));
        unit.quality = Quality::at(q);
        let lower = unit_points(&unit);
        unit.quality = Quality::at(q + 1);
        prop_assert!(unit_points(&unit) > lower);
    }
}

#[test]
fn a_unit_without_the_point_fields_deserializes_with_their_defaults() {
    let json = r#"{"id":"u1","name":"1st squad","kind":"squad","quality":"regular",
        "strength":8,"starting_strength":8}"#;
    let unit: Unit = serde_json::from_str(json).unwrap();
    assert!(unit.abilities.is_empty() && unit.grenades.is_empty());
    assert_eq!(unit.comms_rating, None);
    assert_eq!(unit.trait_options, TraitOptions::default());
    assert!(close(unit_points(&unit), 8.0 * 4.0 * 1.3));
    let back: Unit = serde_json::from_str(&serde_json::to_string(&unit).unwrap()).unwrap();
    assert_eq!(back, unit);
}

#[test]
fn f17_vehicle_properties_and_fire_control_are_free_unless_a_house_table_prices_them() {
    use crate::points::gear::{FireControl, VehicleProperty};
    let tank = Unit {
        vehicle_properties: vec![VehicleProperty::Smoke, VehicleProperty::Stealth],
        fire_control: Some(FireControl::Extensive),
        ..vehicle()
    };
    assert!(close(unit_points(&tank), 198.0 * 1.3));
    let house: HousePoints = serde_json::from_str(
        r#"{"vehicle_properties": {"smoke": 2, "amphibious": 7}, "fire_control": {"extensive": 5}}"#,
    )
    .unwrap();
    assert!(close(unit_points_with(&tank, &house), 205.0 * 1.3));
    let force = Force {
        name: "f".into(),
        platoons: vec![Platoon {
            name: "p".into(),
            units: vec![tank.clone(), tank],
        }],
    };
    assert!(close(force_points_with(&force, &house), 2.0 * 205.0 * 1.3));
    assert!(close(force_points(&force), 2.0 * 198.0 * 1.3));
    // F18: the Stealth property is not the Stealth trait.
    assert!(!force.platoons[0].units[0].has_trait(Trait::Stealth));
}
