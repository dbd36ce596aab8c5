//! Tests for roster validation: one per check, each naming the path it expects.

use proptest::prelude::*;

use super::*;
use crate::kit::{Armour, BasicWeapon, HeavyWeapon, Mobility, Personality, SupportWeapon};
use crate::ladder::{Aptitude, LeaderExperience, Leadership};
use crate::points::gear::{Ability, Bot};
use crate::roster::{Branch, Platoon, VehicleArmour};

fn squad(id: &str, figures: u32) -> Unit {
    Unit {
        id: id.to_owned(),
        name: format!("Squad {id}"),
        kind: UnitKind::Squad,
        strength: figures,
        starting_strength: figures,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        support_weapons: vec![SupportWeapon::SquadAutomaticWeapon],
        leader_experience: Some(LeaderExperience::Experienced),
        ..Unit::default()
    }
}

fn vehicle(id: &str) -> Unit {
    Unit {
        id: id.to_owned(),
        name: "Carrier".to_owned(),
        kind: UnitKind::Vehicle,
        quality: Quality::Regular,
        resolve: None,
        heavy_weapons: vec![HeavyWeapon::HeavyMg],
        vehicle: Some(VehicleProfile {
            mobility: Mobility::Tracked,
            armour: VehicleArmour {
                front: 8,
                side: 6,
                rear: 4,
            },
            crew: 3,
            multi_role_crew: 1,
            passengers: 8,
            passenger_fired_weapons: 2,
        }),
        vehicle_state: Some(VehicleState::Operational),
        ..Unit::default()
    }
}

fn lone(id: &str, kind: UnitKind) -> Unit {
    Unit {
        id: id.to_owned(),
        name: format!("{kind} {id}"),
        kind,
        ..Unit::default()
    }
}

/// A force that uses every kind and most optional fields correctly.
fn valid_force() -> Force {
    let hq = Unit {
        kind: UnitKind::CommandSquad,
        name: "Platoon HQ".to_owned(),
        quality: Quality::Regular,
        leadership: Some(Leadership::Novice),
        branch: Some(Branch::Infantry),
        support_weapons: vec![],
        ..squad("hq", 4)
    };
    let character = Unit {
        leadership: Some(Leadership::Experienced),
        branch: Some(Branch::Cavalry),
        traits: vec![Trait::Agile, Trait::Hero],
        ..lone("c1", UnitKind::Character)
    };
    let psionic = Unit {
        aptitude: Some(Aptitude::Competent),
        psionic_strength: Some(3),
        ..lone("p1", UnitKind::Psionic)
    };
    let team = Unit {
        heavy_weapons: vec![HeavyWeapon::AutoCannonLight],
        ..lone("t1", UnitKind::WeaponsTeam)
    };
    let team = Unit {
        strength: 3,
        starting_strength: 3,
        ..team
    };
    let off_board = Unit {
        heavy_weapons: vec![HeavyWeapon::MortarLight],
        strength: 2,
        starting_strength: 2,
        ..lone("ob1", UnitKind::OffBoardArtillery)
    };
    let powered = Unit {
        armour: Armour::HeavyPowered,
        support_weapons: vec![SupportWeapon::MissileRack],
        linked_weapons: true,
        traits: vec![Trait::Fanatic],
        personalities: vec![Personality::Medic, Personality::Lucky],
        abilities: vec![Ability::JetPacks],
        bots: vec![Bot::MedBot],
        hover_bot_upgrades: 1,
        jammer_rating: 3,
        comms_rating: Some(4),
        ..squad("pa1", 5)
    };
    let worn = Unit {
        strength: 3,
        ..squad("s2", 8)
    };
    let wiped = Unit {
        strength: 0,
        status: UnitStatus::Eliminated,
        ..squad("s3", 6)
    };
    let wrecked = Unit {
        vehicle_state: Some(VehicleState::Destroyed),
        status: UnitStatus::Eliminated,
        ..vehicle("v2")
    };
    Force {
        name: "3rd Colonial Rifles".to_owned(),
        platoons: vec![
            Platoon {
                name: "1st Platoon".to_owned(),
                units: vec![hq, squad("s1", 8), worn, wiped, team, character, powered],
            },
            Platoon {
                name: "Support".to_owned(),
                units: vec![
                    vehicle("v1"),
                    wrecked,
                    lone("sn1", UnitKind::Sniper),
                    psionic,
                    off_board,
                ],
            },
        ],
    }
}

/// The problems after `change` is applied to the valid force.
fn problems_after(change: impl FnOnce(&mut Force)) -> Vec<Problem> {
    let mut force = valid_force();
    change(&mut force);
    force_problems(&force)
}

fn fields(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|p| p.field.as_str()).collect()
}

/// The unit at `platoon`, `index`.
fn unit(force: &mut Force, platoon: usize, index: usize) -> &mut Unit {
    &mut force.platoons[platoon].units[index]
}

#[test]
fn the_example_force_is_valid() {
    assert_eq!(validate_force(&valid_force()), Ok(()));
}

#[test]
fn every_problem_is_returned_with_its_path_not_just_the_first() {
    let problems = problems_after(|f| {
        f.name = String::new();
        unit(f, 0, 1).strength = 9;
        unit(f, 1, 0).vehicle.as_mut().unwrap().armour.rear = 2;
        f.platoons[1].name = " ".to_owned();
    });
    assert_eq!(
        fields(&problems),
        [
            "name",
            "platoons[0].units[1].strength",
            "platoons[1].name",
            "platoons[1].units[0].vehicle.armour.rear",
        ]
    );
    assert_eq!(validate_force(&Force { ..valid_force() }), Ok(()));
}

#[test]
fn names_must_be_present_short_and_printable() {
    let problems = problems_after(|f| {
        f.name = "x".repeat(MAX_NAME_CHARS + 1);
        f.platoons[0].name = "bad\u{7}bell".to_owned();
        unit(f, 0, 1).name = String::new();
    });
    assert_eq!(
        fields(&problems),
        ["name", "platoons[0].name", "platoons[0].units[1].name"]
    );
    assert!(problems[0].message.contains("at most 100 characters"));
    assert!(problems[1].message.contains("control characters"));
    assert!(problems[2].message.contains("must not be empty"));
    // Exactly the limit is fine, and so are non-ASCII names (counted in characters).
    assert!(problems_after(|f| f.name = "é".repeat(MAX_NAME_CHARS)).is_empty());
}

#[test]
fn a_force_needs_platoons_and_at_most_twenty() {
    let problems = problems_after(|f| f.platoons.clear());
    assert_eq!(fields(&problems), ["platoons"]);
    let problems = problems_after(|f| {
        let platoon = f.platoons[0].clone();
        f.platoons = (0..=MAX_PLATOONS)
            .map(|i| {
                let mut p = platoon.clone();
                for u in &mut p.units {
                    u.id = format!("{}-{i}", u.id);
                }
                p
            })
            .collect();
    });
    assert_eq!(fields(&problems), ["platoons"]);
    assert!(problems[0].message.contains("at most 20 platoons"));
}

#[test]
fn a_platoon_needs_units_and_at_most_a_hundred() {
    let problems = problems_after(|f| f.platoons[1].units.clear());
    assert_eq!(fields(&problems), ["platoons[1].units"]);
    let problems = problems_after(|f| {
        f.platoons[1].units = (0..=MAX_UNITS_PER_PLATOON)
            .map(|i| squad(&format!("x{i}"), 6))
            .collect();
    });
    assert_eq!(fields(&problems), ["platoons[1].units"]);
}

#[test]
fn unit_ids_are_present_bounded_and_unique_across_the_force() {
    let problems = problems_after(|f| {
        unit(f, 1, 2).id = "s1".to_owned();
        unit(f, 0, 2).id = String::new();
        unit(f, 0, 3).id = "has space".to_owned();
        unit(f, 1, 3).id = "i".repeat(MAX_ID_CHARS + 1);
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[2].id",
            "platoons[0].units[3].id",
            "platoons[1].units[2].id",
            "platoons[1].units[3].id",
        ]
    );
    assert!(
        problems[2]
            .message
            .contains("already used by platoons[0].units[1]")
    );
}

#[test]
fn c9_strength_never_exceeds_the_establishment() {
    let problems = problems_after(|f| unit(f, 0, 1).strength = 9);
    assert_eq!(fields(&problems), ["platoons[0].units[1].strength"]);
    assert!(problems[0].message.contains("establishment of 8"));
    assert!(problems_after(|f| unit(f, 0, 1).strength = 8).is_empty());
}

#[test]
fn the_establishment_is_at_least_one_figure() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 3);
        u.starting_strength = 0;
        u.strength = 0;
        u.support_weapons.clear();
    });
    assert_eq!(
        fields(&problems),
        ["platoons[0].units[3].starting_strength"]
    );
}

#[test]
fn figures_are_bounded_so_hostile_input_is_refused() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.starting_strength = MAX_STRENGTH + 1;
        u.strength = MAX_STRENGTH + 1;
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].starting_strength",
            "platoons[0].units[1].strength",
        ]
    );
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.starting_strength = u32::MAX;
        u.strength = 1;
    });
    assert_eq!(
        fields(&problems),
        ["platoons[0].units[1].starting_strength"]
    );
    assert!(
        problems_after(|f| {
            let u = unit(f, 0, 1);
            u.starting_strength = MAX_STRENGTH;
            u.strength = MAX_STRENGTH;
        })
        .is_empty()
    );
}

#[test]
fn c6_status_follows_the_figures_for_foot_units() {
    let problems = problems_after(|f| unit(f, 0, 3).status = UnitStatus::Active);
    assert_eq!(fields(&problems), ["platoons[0].units[3].status"]);
    assert!(problems[0].message.contains("eliminated"));
    let problems = problems_after(|f| unit(f, 0, 1).status = UnitStatus::Eliminated);
    assert_eq!(fields(&problems), ["platoons[0].units[1].status"]);
    // An eliminated lone figure has no figures either.
    let problems = problems_after(|f| unit(f, 1, 2).status = UnitStatus::Eliminated);
    assert_eq!(fields(&problems), ["platoons[1].units[2].status"]);
    assert!(
        problems_after(|f| {
            let u = unit(f, 1, 2);
            u.status = UnitStatus::Eliminated;
            u.strength = 0;
        })
        .is_empty()
    );
}

#[test]
fn c16_a_vehicle_is_eliminated_exactly_when_destroyed() {
    let problems = problems_after(|f| unit(f, 1, 0).status = UnitStatus::Eliminated);
    assert_eq!(fields(&problems), ["platoons[1].units[0].status"]);
    let problems = problems_after(|f| unit(f, 1, 1).status = UnitStatus::Active);
    assert_eq!(fields(&problems), ["platoons[1].units[1].status"]);
    // A damaged vehicle stays active; its figures do not decide its status.
    assert!(
        problems_after(|f| unit(f, 1, 0).vehicle_state = Some(VehicleState::Damaged)).is_empty()
    );
}

#[test]
fn c5_characters_snipers_and_psionics_are_one_figure() {
    for (index, kind) in [
        (5, UnitKind::Character),
        (2, UnitKind::Sniper),
        (3, UnitKind::Psionic),
    ] {
        let platoon = usize::from(kind != UnitKind::Character);
        let problems = problems_after(|f| {
            let u = unit(f, platoon, index);
            assert_eq!(u.kind, kind);
            u.starting_strength = 2;
            u.strength = 2;
        });
        let expected = format!("platoons[{platoon}].units[{index}].starting_strength");
        assert!(fields(&problems).contains(&expected.as_str()), "{kind}");
        assert!(problems.iter().any(|p| p.message.contains("lone figure")));
    }
}

#[test]
fn an_unknown_resolve_is_allowed_for_any_kind() {
    // Vehicles generally have none (C15); basic generation's Unknown Resolve option (§4.1).
    assert!(problems_after(|f| unit(f, 0, 1).resolve = None).is_empty());
    assert!(problems_after(|f| unit(f, 1, 0).resolve = Some(Resolve::Uncertain)).is_empty());
}

/// Forces from the force generator with every option on pass validation.
#[test]
fn generated_forces_are_valid_rosters() {
    use crate::dice::ServerDice;
    use crate::forcegen::{GenerationChoices, generate};
    use crate::house_rules::HouseRules;
    let all_options = serde_json::json!({
        "unknown_resolve": true, "squad_leaders": true, "heavy_weapons": true,
        "artillery_support": true, "heroic_characters": true, "psionics": true,
        "not_like_us": true
    });
    let common_options = serde_json::json!({
        "heroic_characters": true, "psionics": true, "not_like_us": true
    });
    let requests = [
        serde_json::json!({"method": "basic", "platoons": 2, "attacker": true,
                           "options": all_options}),
        serde_json::json!({"method": "basic", "platoons": 1, "options": {"squad_leaders": true}}),
        serde_json::json!({"method": "advanced", "platoons": 2,
                           "priorities": {"manpower": 3, "fire_power": 2, "gear": 1,
                                          "support": 1, "training": 1, "aggression": 1},
                           "options": common_options}),
        serde_json::json!({"method": "advanced", "platoons": 3, "individual_platoons": true,
                           "priorities": {"support": 3, "training": 3, "aggression": 3},
                           "options": common_options}),
    ];
    for request in requests {
        let choices: GenerationChoices = serde_json::from_value(request.clone()).unwrap();
        for seed in 0..40 {
            let generated = generate(
                &choices,
                &HouseRules::default(),
                &mut ServerDice::seeded(seed),
            )
            .unwrap();
            assert_eq!(
                validate_force(&generated.force),
                Ok(()),
                "seed {seed} for {request}"
            );
        }
    }
}

#[test]
fn c17_fanatic_and_zombie_units_are_steady() {
    let problems = problems_after(|f| unit(f, 0, 6).resolve = Some(Resolve::Determined));
    assert_eq!(fields(&problems), ["platoons[0].units[6].resolve"]);
    assert!(problems[0].message.contains("C17"));
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.traits = vec![Trait::Zombie];
        u.resolve = Some(Resolve::Reluctant);
    });
    assert_eq!(fields(&problems), ["platoons[0].units[1].resolve"]);
    assert!(problems_after(|f| unit(f, 0, 1).traits = vec![Trait::Zombie]).is_empty());
}

#[test]
fn droid_troopers_are_never_elite() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.traits = vec![Trait::DroidTroopers];
        u.quality = Quality::Elite;
    });
    assert_eq!(fields(&problems), ["platoons[0].units[1].quality"]);
    assert!(problems_after(|f| unit(f, 0, 1).quality = Quality::Elite).is_empty());
    assert!(
        problems_after(|f| {
            let u = unit(f, 0, 1);
            u.traits = vec![Trait::DroidTroopers];
            u.quality = Quality::Regular;
        })
        .is_empty()
    );
}

#[test]
fn vehicles_need_a_profile_and_others_have_none() {
    let problems = problems_after(|f| unit(f, 1, 0).vehicle = None);
    assert_eq!(fields(&problems), ["platoons[1].units[0].vehicle"]);
    let problems = problems_after(|f| {
        let profile = unit(f, 1, 0).vehicle.clone();
        unit(f, 0, 1).vehicle = profile;
        unit(f, 0, 1).vehicle_state = Some(VehicleState::Operational);
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].vehicle",
            "platoons[0].units[1].vehicle_state",
        ]
    );
    // A vehicle may leave its state out (operational).
    assert!(problems_after(|f| unit(f, 1, 0).vehicle_state = None).is_empty());
}

#[test]
fn vehicle_armour_facings_are_three_to_twelve() {
    for (facing, bad) in [("front", 13), ("side", 2), ("rear", 0)] {
        let problems = problems_after(|f| {
            let armour = &mut unit(f, 1, 0).vehicle.as_mut().unwrap().armour;
            match facing {
                "front" => armour.front = bad,
                "side" => armour.side = bad,
                _ => armour.rear = bad,
            }
        });
        assert_eq!(
            fields(&problems),
            [format!("platoons[1].units[0].vehicle.armour.{facing}").as_str()]
        );
    }
    assert!(
        problems_after(|f| {
            let armour = &mut unit(f, 1, 0).vehicle.as_mut().unwrap().armour;
            armour.front = 12;
            armour.rear = 3;
        })
        .is_empty()
    );
}

#[test]
fn vehicle_crew_and_passengers_are_consistent_and_bounded() {
    let problems = problems_after(|f| {
        let p = unit(f, 1, 0).vehicle.as_mut().unwrap();
        p.crew = MAX_VEHICLE_CREW + 1;
        p.multi_role_crew = MAX_VEHICLE_CREW + 2;
        p.passengers = MAX_VEHICLE_PASSENGERS + 1;
        p.passenger_fired_weapons = MAX_VEHICLE_PASSENGERS + 2;
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[1].units[0].vehicle.crew",
            "platoons[1].units[0].vehicle.multi_role_crew",
            "platoons[1].units[0].vehicle.passengers",
            "platoons[1].units[0].vehicle.passenger_fired_weapons",
        ]
    );
}

#[test]
fn vehicles_carry_no_squad_weapons() {
    let problems = problems_after(|f| {
        let u = unit(f, 1, 0);
        u.basic_weapon = Some(BasicWeapon::AssaultRifles);
        u.support_weapons = vec![SupportWeapon::SquadAutomaticWeapon];
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[1].units[0].basic_weapon",
            "platoons[1].units[0].support_weapons",
        ]
    );
}

#[test]
fn leadership_and_branch_belong_to_characters_and_command_squads() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.leadership = Some(Leadership::Heroic);
        u.branch = Some(Branch::Gunnery);
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].leadership",
            "platoons[0].units[1].branch",
        ]
    );
}

#[test]
fn squad_leader_experience_belongs_to_squads() {
    let problems =
        problems_after(|f| unit(f, 1, 2).leader_experience = Some(LeaderExperience::Veteran));
    assert_eq!(
        fields(&problems),
        ["platoons[1].units[2].leader_experience"]
    );
}

#[test]
fn aptitude_and_psionic_strength_belong_to_psionics() {
    let problems = problems_after(|f| {
        let u = unit(f, 1, 2);
        u.aptitude = Some(Aptitude::Master);
        u.psionic_strength = Some(3);
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[1].units[2].aptitude",
            "platoons[1].units[2].psionic_strength",
        ]
    );
    let problems =
        problems_after(|f| unit(f, 1, 3).psionic_strength = Some(MAX_PSIONIC_STRENGTH + 1));
    assert_eq!(fields(&problems), ["platoons[1].units[3].psionic_strength"]);
    // A drained psionic (0 Strength) is still a valid roster entry.
    assert!(problems_after(|f| unit(f, 1, 3).psionic_strength = Some(0)).is_empty());
}

#[test]
fn c18_single_figure_traits_only_on_one_figure_units() {
    for t in [Trait::Hero, Trait::Hq, Trait::Legend, Trait::Villain] {
        let problems = problems_after(|f| unit(f, 0, 1).traits = vec![Trait::Tough, t]);
        assert_eq!(fields(&problems), ["platoons[0].units[1].traits[1]"], "{t}");
        assert!(problems[0].message.contains("single figure"));
        // A one-figure squad (an independent leader) may have it.
        assert!(
            problems_after(|f| {
                let u = unit(f, 0, 1);
                u.traits = vec![t];
                u.starting_strength = 1;
                u.strength = 1;
                u.support_weapons.clear();
            })
            .is_empty(),
            "{t}"
        );
    }
}

#[test]
fn c18_no_trait_twice() {
    let problems = problems_after(|f| {
        unit(f, 0, 1).traits = vec![Trait::Tough, Trait::Agile, Trait::Tough, Trait::Tough];
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].traits[2]",
            "platoons[0].units[1].traits[3]",
        ]
    );
    // An alias is the same trait: Infiltrate = Infiltration (F18).
    let u: Unit = serde_json::from_value(serde_json::json!({
        "id": "a", "name": "A", "kind": "squad", "quality": "regular", "resolve": "steady",
        "strength": 5, "starting_strength": 5, "traits": ["infiltrate", "infiltration"]
    }))
    .unwrap();
    assert_eq!(fields(&unit_problems(&u, "u")), ["u.traits[1]"]);
}

#[test]
fn powered_armour_only_support_weapons_need_powered_armour() {
    let problems = problems_after(|f| unit(f, 0, 6).armour = Armour::BattleDress);
    // The missile rack, the linked weapons: both need powered armour.
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[6].support_weapons[0]",
            "platoons[0].units[6].linked_weapons",
        ]
    );
    let problems = problems_after(|f| {
        unit(f, 0, 1).support_weapons = vec![
            SupportWeapon::SquadAutomaticWeapon,
            SupportWeapon::AssaultMountedAutomaticWeapon,
        ];
    });
    assert_eq!(
        fields(&problems),
        ["platoons[0].units[1].support_weapons[1]"]
    );
}

#[test]
fn support_weapons_are_one_trooper_each() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.starting_strength = 2;
        u.strength = 2;
        u.support_weapons = vec![SupportWeapon::SquadAutomaticWeapon; 3];
    });
    assert_eq!(fields(&problems), ["platoons[0].units[1].support_weapons"]);
}

#[test]
fn weapons_teams_and_off_board_units_need_a_heavy_weapon() {
    let problems = problems_after(|f| {
        unit(f, 0, 4).heavy_weapons.clear();
        unit(f, 1, 4).heavy_weapons.clear();
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[4].heavy_weapons",
            "platoons[1].units[4].heavy_weapons",
        ]
    );
}

#[test]
fn gear_ratings_and_powered_upgrades_are_checked() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.jammer_rating = 4;
        u.comms_rating = Some(5);
        u.bots = vec![Bot::MedBot];
        u.hover_bot_upgrades = 2;
        u.abilities = vec![Ability::DropTroops, Ability::DropTroops];
        u.powered_armour_upgrades = vec![crate::points::gear::PoweredArmourUpgrade::Shielded];
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].abilities[1]",
            "platoons[0].units[1].powered_armour_upgrades",
            "platoons[0].units[1].jammer_rating",
            "platoons[0].units[1].comms_rating",
            "platoons[0].units[1].hover_bot_upgrades",
        ]
    );
}

#[test]
fn gear_the_points_cannot_price_is_reported_too() {
    // A basic-weapon trait on a unit without a basic weapon (crate::points::validate_gear).
    let problems = problems_after(|f| {
        let u = unit(f, 1, 0);
        u.basic_weapon_traits = vec![crate::points::gear::WeaponTrait::Terror];
    });
    assert_eq!(
        fields(&problems),
        ["platoons[1].units[0].basic_weapon_traits[0]"]
    );
}

#[test]
fn at_most_one_personality_per_member() {
    let problems = problems_after(|f| {
        unit(f, 1, 2).personalities = vec![Personality::Lucky, Personality::Brawler];
    });
    assert_eq!(fields(&problems), ["platoons[1].units[2].personalities"]);
    // A vehicle counts its crew.
    assert!(
        problems_after(|f| unit(f, 1, 0).personalities = vec![Personality::Comms; 3]).is_empty()
    );
    let problems = problems_after(|f| unit(f, 1, 0).personalities = vec![Personality::Comms; 4]);
    assert_eq!(fields(&problems), ["platoons[1].units[0].personalities"]);
}

#[test]
fn lists_are_bounded() {
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.grenades = vec![crate::points::gear::Grenade::Haze; MAX_LIST_ITEMS + 1];
    });
    assert_eq!(fields(&problems), ["platoons[0].units[1].grenades"]);
    let problems = problems_after(|f| {
        let u = unit(f, 0, 1);
        u.traits = vec![Trait::Tough; MAX_LIST_ITEMS + 1];
    });
    // The bound, then each repeat up to the bound: never more than the list's worth.
    assert_eq!(problems[0].field, "platoons[0].units[1].traits");
    assert!(problems.len() <= MAX_LIST_ITEMS + 1);
}

#[test]
fn trait_options_are_sane() {
    let problems = problems_after(|f| {
        let o = &mut unit(f, 0, 1).trait_options;
        o.infect_multiplier = Some(f64::INFINITY);
        o.resilient_points = Some(1);
    });
    assert_eq!(
        fields(&problems),
        [
            "platoons[0].units[1].trait_options.infect_multiplier",
            "platoons[0].units[1].trait_options.resilient_points",
        ]
    );
    let problems = problems_after(|f| unit(f, 0, 1).trait_options.infect_multiplier = Some(0.0));
    assert_eq!(problems.len(), 1);
}

#[test]
fn a_roster_from_json_reports_problems_with_dotted_paths() {
    let force: Force = serde_json::from_value(serde_json::json!({
        "name": "Raiders",
        "platoons": [{"name": "A", "units": [
            {"id": "u1", "name": "Squad", "kind": "squad", "quality": "conscript",
             "resolve": "steady", "strength": 10, "starting_strength": 8},
            {"id": "u2", "name": "Tank", "kind": "vehicle", "quality": "regular",
             "strength": 1, "starting_strength": 1}
        ]}]
    }))
    .unwrap();
    let problems = validate_force(&force).unwrap_err();
    let json = serde_json::to_value(&problems).unwrap();
    assert_eq!(
        json,
        serde_json::json!([
            {"field": "platoons[0].units[0].strength",
             "message": problems[0].message},
            {"field": "platoons[0].units[1].vehicle",
             "message": "a vehicle needs its profile (mobility, armour, crew)"}
        ])
    );
}

proptest! {
    #[test]
    fn strength_within_the_establishment_with_matching_status_is_valid(
        e in 1u32..=MAX_STRENGTH,
        lost in 0u32..=MAX_STRENGTH,
    ) {
        let strength = e.saturating_sub(lost);
        let status = if strength == 0 { UnitStatus::Eliminated } else { UnitStatus::Active };
        let problems = problems_after(|f| {
            let u = unit(f, 0, 1);
            u.starting_strength = e;
            u.strength = strength;
            u.status = status;
            u.support_weapons.truncate(e as usize);
        });
        prop_assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn strength_above_the_establishment_is_always_refused(
        e in 1u32..=MAX_STRENGTH,
        extra in 1u32..1000,
    ) {
        let problems = problems_after(|f| {
            let u = unit(f, 0, 1);
            u.starting_strength = e;
            u.strength = e + extra;
            u.support_weapons.clear();
        });
        prop_assert!(fields(&problems).contains(&"platoons[0].units[1].strength"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The post-battle sequence (docs/rules.md §2.3) keeps a valid roster valid, whatever the losses
    /// and dice: a cross-check of C6/C9/C16 between the campaign rules and the validation.
    #[test]
    fn the_post_battle_sequence_keeps_a_roster_valid(
        seed in any::<u64>(),
        picks in prop::collection::vec((0u32..=100, any::<bool>(), 0u8..3), 12),
    ) {
        use crate::campaign::report::BattleReport;
        use crate::campaign::sequence::{Choices, post_battle_sequence};
        use crate::dice::ServerDice;
        use crate::house_rules::HouseRules;

        let force = valid_force();
        let mut losses = Vec::new();
        for (unit, (share, wiped, damage)) in force.units().zip(picks) {
            if unit.status == UnitStatus::Eliminated {
                continue;
            }
            if unit.kind == UnitKind::Vehicle {
                let damage = ["damaged", "destroyed"].get(usize::from(damage)).copied();
                losses.push(serde_json::json!({"unit_id": unit.id, "vehicle_damage": damage}));
            } else {
                // A wiped-out unit lost every figure (C4); the result check refuses anything else.
                let lost = if wiped && share > 0 { unit.strength } else { unit.strength * share / 100 };
                losses.push(serde_json::json!({
                    "unit_id": unit.id, "figures_lost": lost, "eliminated": wiped && lost > 0
                }));
            }
        }
        let report: BattleReport =
            serde_json::from_value(serde_json::json!({"losses": losses})).unwrap();
        let outcome = post_battle_sequence(
            "f1",
            &force,
            &report,
            0,
            &Choices::default(),
            &mut ServerDice::seeded(seed),
            &HouseRules::default(),
            &crate::rulesets::Ruleset::fad5e(),
        );
        let outcome = outcome.map_err(|p| TestCaseError::fail(format!("{p:?}")))?;
        prop_assert_eq!(validate_force(&outcome.roster), Ok(()));
    }
}

/// Rust and serde words no message a client reads may hold (whole words, case-sensitive).
const RUST_WORDS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
    "struct", "enum", "variant", "Option", "None", "Some", "unwrap", "panicked", "Vec", "String",
    "bool", "serde", "diesel", "SQL",
];
/// Rust and serde phrases, likewise.
const RUST_PHRASES: &[&str] = &[
    "invalid type",
    "invalid value",
    ", expected",
    "expected one of",
    "a sequence",
    "a map",
    "..=",
    "::",
    "{",
    "}",
];

/// The anchors of docs/rules.md, the project's rules reference.
fn rule_anchors() -> std::collections::BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules.md");
    let text = std::fs::read_to_string(path).unwrap();
    text.split("<a id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// Rule ids cited in `text`: C, S or F with one or two digits as a word, and § with a number.
fn cited_rule_ids(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut ids = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let starts_word = i == 0 || !is_word(chars[i - 1]);
        let rest = || chars[i + 1..].iter().collect::<String>();
        if matches!(c, 'C' | 'S' | 'F') && starts_word {
            let digits: String = rest().chars().take_while(char::is_ascii_digit).collect();
            let ends_word = chars.get(i + 1 + digits.len()).is_none_or(|&n| !is_word(n));
            if (1..=2).contains(&digits.len()) && ends_word {
                ids.push(format!("{c}{digits}"));
            }
        }
        if c == '§' {
            let number: String = rest()
                .chars()
                .take_while(|d| d.is_ascii_digit() || *d == '.')
                .collect();
            ids.push(number.trim_end_matches('.').to_owned());
        }
    }
    ids
}

/// What breaks the wording rules in `message`: Rust words, an empty text, unknown rule ids.
fn wording_faults(message: &str, anchors: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut faults = Vec::new();
    if message.trim().is_empty() {
        faults.push("empty".to_owned());
    }
    for word in message.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if RUST_WORDS.contains(&word) {
            faults.push(format!("Rust word `{word}`"));
        }
    }
    for phrase in RUST_PHRASES {
        if message.contains(phrase) {
            faults.push(format!("Rust phrase `{phrase}`"));
        }
    }
    for id in cited_rule_ids(message) {
        if !anchors.contains(&id) {
            faults.push(format!("rule id `{id}` has no anchor in docs/rules.md"));
        }
    }
    faults
}

/// Every kind of roster problem, each provoked on the valid force, reads in plain words and
/// cites only rule ids the rules reference has; so do the dice, name and bonus errors.
#[test]
fn every_problem_kind_reads_in_plain_words() {
    use crate::dice::{DiceError, RollStep};
    use crate::names::Named;
    use crate::odds::{BonusError, MissionBonuses};
    use crate::orders::Mission;

    type Change = fn(&mut Force);
    let changes: Vec<(&str, Change)> = vec![
        ("empty name", |f| f.name = String::new()),
        ("long name", |f| f.name = "x".repeat(MAX_NAME_CHARS + 1)),
        ("control character", |f| {
            f.platoons[0].name = "a\u{7}".to_owned()
        }),
        ("no platoons", |f| f.platoons.clear()),
        ("too many platoons", |f| {
            let platoon = f.platoons[1].clone();
            f.platoons = (0..=MAX_PLATOONS)
                .map(|i| {
                    let mut p = platoon.clone();
                    p.units
                        .iter_mut()
                        .for_each(|u| u.id = format!("{}-{i}", u.id));
                    p
                })
                .collect();
        }),
        ("no units", |f| f.platoons[1].units.clear()),
        ("too many units", |f| {
            f.platoons[1].units = (0..=MAX_UNITS_PER_PLATOON)
                .map(|i| squad(&format!("x{i}"), 6))
                .collect();
        }),
        ("duplicate id", |f| unit(f, 1, 2).id = "s1".to_owned()),
        ("empty id", |f| unit(f, 0, 2).id = String::new()),
        ("id with space", |f| unit(f, 0, 2).id = "a b".to_owned()),
        ("long id", |f| {
            unit(f, 0, 2).id = "i".repeat(MAX_ID_CHARS + 1)
        }),
        ("C9 strength", |f| unit(f, 0, 1).strength = 9),
        ("no establishment", |f| {
            let u = unit(f, 0, 3);
            u.starting_strength = 0;
            u.support_weapons.clear();
        }),
        ("huge strength", |f| {
            let u = unit(f, 0, 1);
            u.starting_strength = MAX_STRENGTH + 1;
            u.strength = MAX_STRENGTH + 1;
        }),
        ("C6 status", |f| unit(f, 0, 3).status = UnitStatus::Active),
        ("C6 eliminated with figures", |f| {
            unit(f, 0, 1).status = UnitStatus::Eliminated
        }),
        ("C16 vehicle eliminated", |f| {
            unit(f, 1, 0).status = UnitStatus::Eliminated
        }),
        ("C16 destroyed active", |f| {
            unit(f, 1, 1).status = UnitStatus::Active
        }),
        ("C5 lone figure", |f| {
            let u = unit(f, 1, 2);
            u.starting_strength = 2;
            u.strength = 2;
        }),
        ("C17 fanatic", |f| {
            unit(f, 0, 6).resolve = Some(Resolve::Determined)
        }),
        ("elite droids", |f| {
            let u = unit(f, 0, 1);
            u.traits = vec![Trait::DroidTroopers];
            u.quality = Quality::Elite;
        }),
        ("vehicle without profile", |f| unit(f, 1, 0).vehicle = None),
        ("profile on a squad", |f| {
            let profile = unit(f, 1, 0).vehicle.clone();
            unit(f, 0, 1).vehicle = profile;
            unit(f, 0, 1).vehicle_state = Some(VehicleState::Operational);
        }),
        ("armour", |f| {
            unit(f, 1, 0).vehicle.as_mut().unwrap().armour.front = 13
        }),
        ("crew", |f| {
            let p = unit(f, 1, 0).vehicle.as_mut().unwrap();
            p.crew = MAX_VEHICLE_CREW + 1;
            p.multi_role_crew = MAX_VEHICLE_CREW + 2;
            p.passengers = MAX_VEHICLE_PASSENGERS + 1;
            p.passenger_fired_weapons = MAX_VEHICLE_PASSENGERS + 2;
        }),
        ("squad weapons on a vehicle", |f| {
            let u = unit(f, 1, 0);
            u.basic_weapon = Some(BasicWeapon::AssaultRifles);
            u.support_weapons = vec![SupportWeapon::SquadAutomaticWeapon];
        }),
        ("leadership on a squad", |f| {
            let u = unit(f, 0, 1);
            u.leadership = Some(Leadership::Heroic);
            u.branch = Some(Branch::Gunnery);
        }),
        ("squad leader on a sniper", |f| {
            unit(f, 1, 2).leader_experience = Some(LeaderExperience::Veteran);
        }),
        ("psionics on a sniper", |f| {
            let u = unit(f, 1, 2);
            u.aptitude = Some(Aptitude::Master);
            u.psionic_strength = Some(3);
        }),
        ("psionic strength", |f| {
            unit(f, 1, 3).psionic_strength = Some(MAX_PSIONIC_STRENGTH + 1)
        }),
        ("C18 single figure trait", |f| {
            unit(f, 0, 1).traits = vec![Trait::Tough, Trait::Hero]
        }),
        ("C18 trait twice", |f| {
            unit(f, 0, 1).traits = vec![Trait::Tough, Trait::Tough]
        }),
        ("powered armour weapons", |f| {
            unit(f, 0, 6).armour = Armour::BattleDress
        }),
        ("support weapons per trooper", |f| {
            let u = unit(f, 0, 1);
            u.starting_strength = 2;
            u.strength = 2;
            u.support_weapons = vec![SupportWeapon::SquadAutomaticWeapon; 3];
        }),
        ("team without heavy weapon", |f| {
            unit(f, 0, 4).heavy_weapons.clear()
        }),
        ("gear ratings", |f| {
            let u = unit(f, 0, 1);
            u.jammer_rating = 4;
            u.comms_rating = Some(5);
            u.bots = vec![Bot::MedBot];
            u.hover_bot_upgrades = 2;
            u.abilities = vec![Ability::DropTroops, Ability::DropTroops];
            u.powered_armour_upgrades = vec![crate::points::gear::PoweredArmourUpgrade::Shielded];
        }),
        ("unpriced gear", |f| {
            unit(f, 1, 0).basic_weapon_traits = vec![crate::points::gear::WeaponTrait::Terror];
        }),
        ("personalities", |f| {
            unit(f, 1, 2).personalities = vec![Personality::Lucky, Personality::Brawler]
        }),
        ("long list", |f| {
            unit(f, 0, 1).grenades = vec![crate::points::gear::Grenade::Haze; MAX_LIST_ITEMS + 1]
        }),
        ("trait options", |f| {
            let o = &mut unit(f, 0, 1).trait_options;
            o.infect_multiplier = Some(f64::INFINITY);
            o.resilient_points = Some(1);
        }),
    ];
    let anchors = rule_anchors();
    let mut faults = Vec::new();
    let mut messages = Vec::new();
    for (name, change) in changes {
        let problems = problems_after(change);
        assert!(!problems.is_empty(), "`{name}` provoked no problem");
        messages.extend(problems.into_iter().map(|p| (name.to_owned(), p.message)));
    }
    let step = RollStep::Replacement;
    let dice = [
        DiceError::OutOfRange {
            step,
            subject: "u1".into(),
            value: 7,
            sides: 6,
        },
        DiceError::WrongCount {
            step,
            subject: "u1".into(),
            needed: 2,
            given: 1,
        },
        DiceError::TooMany {
            step,
            subject: "u1".into(),
            used: 1,
            given: 3,
        },
        DiceError::UnknownSubject {
            step,
            subject: "u9".into(),
        },
    ];
    for err in dice {
        messages.push(("dice".to_owned(), err.message()));
        messages.push(("dice display".to_owned(), err.to_string()));
    }
    messages.push((
        "unknown name".to_owned(),
        Mission::parse("nap").unwrap_err().to_string(),
    ));
    for err in [
        BonusError::SameMission(Mission::Hold),
        BonusError::NotRolled(Mission::EscalatingEngagement),
        BonusError::WrongCount(3),
    ] {
        messages.push(("bonus".to_owned(), err.to_string()));
    }
    assert!(MissionBonuses::from_slice(&[Mission::Hold, Mission::Hold]).is_err());
    for (name, message) in &messages {
        for fault in wording_faults(message, &anchors) {
            faults.push(format!("{name}: {fault} in {message:?}"));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // The checks themselves can fail.
    assert!(!wording_faults("invalid type: string \"x\", expected u8", &anchors).is_empty());
    // An id without an anchor (built here so the source-wide citation check does not read it).
    let unanchored = format!("breaks C{}", 99);
    assert!(!wording_faults(&unanchored, &anchors).is_empty());
    assert!(wording_faults("at most 8 figures (C9)", &anchors).is_empty());
}
