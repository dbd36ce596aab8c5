//! Advanced generation: every results table by priority, the Quantity Tests, F4–F10, the
//! additional changes, the leaders and the invariants of generated forces.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::dice::{Dice, DiceError, Roll, RollLog, RollRequest, RollSource, RollStep, ServerDice};
use crate::forcegen::{Generated, GenerationChoices, GenerationError, PendingAward, generate};
use crate::house_rules::HouseRules;
use crate::ladder::Leadership;
use crate::roster::UnitKind;

/// Test dice scripted by (subject, table): values are taken in order; anything not scripted
/// rolls `fallback` (1 by default: every table's first row, no Quantity Test success).
struct Script {
    values: BTreeMap<(String, String), Vec<u8>>,
    fallback: u8,
    log: RollLog,
}

impl Script {
    fn new(entries: &[(&str, &str, &[u8])]) -> Self {
        let mut values = BTreeMap::new();
        for (subject, detail, v) in entries {
            values.insert(((*subject).to_owned(), (*detail).to_owned()), v.to_vec());
        }
        Self {
            values,
            fallback: 1,
            log: Vec::new(),
        }
    }
    fn count(&self, detail: &str) -> usize {
        self.log
            .iter()
            .filter(|r| r.detail.as_deref() == Some(detail))
            .count()
    }
}

impl Dice for Script {
    fn produce(&mut self, request: &RollRequest<'_>) -> Result<(Vec<u8>, RollSource), DiceError> {
        let key = (
            request.subject.to_owned(),
            request.detail.unwrap_or("").to_owned(),
        );
        let queue = self.values.entry(key).or_default();
        let values = (0..request.count)
            .map(|_| {
                if queue.is_empty() {
                    self.fallback
                } else {
                    queue.remove(0)
                }
            })
            .collect();
        Ok((values, RollSource::Player))
    }
    fn log(&self) -> &RollLog {
        &self.log
    }
    fn record(&mut self, roll: Roll) {
        self.log.push(roll);
    }
}

fn choices(json: &str) -> AdvancedChoices {
    serde_json::from_str(json).unwrap()
}

fn with_priorities(p: Priorities) -> AdvancedChoices {
    AdvancedChoices {
        name: None,
        platoons: 1,
        priorities: p,
        individual_platoons: false,
        declared: Declarations::default(),
        additional_changes: Vec::new(),
        exceptional_traits: Vec::new(),
        personalities: Vec::new(),
        award_squads: AwardSquads::default(),
        options: GenerationOptions::default(),
    }
}

fn at(category: Category, points: u8) -> Priorities {
    let mut p = Priorities::default();
    match category {
        Category::Manpower => p.manpower = points,
        Category::FirePower => p.fire_power = points,
        Category::Gear => p.gear = points,
        Category::Support => p.support = points,
        Category::Training => p.training = points,
        Category::Aggression => p.aggression = points,
    }
    p
}

fn run(c: &AdvancedChoices, dice: &mut Script) -> Generated {
    generate(
        &GenerationChoices::Advanced(c.clone()),
        &HouseRules::default(),
        dice,
    )
    .unwrap()
}

fn squads(g: &Generated, platoon: usize) -> Vec<&Unit> {
    g.force.platoons[platoon]
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Squad)
        .collect()
}

fn hq(g: &Generated, platoon: usize) -> &Unit {
    &g.force.platoons[platoon].units[0]
}

/// Runs one generation per priority (0–3 points in `category`) and face 1–6 of `detail`.
fn each_row(
    category: Category,
    subject: &str,
    detail: &str,
    mut check: impl FnMut(usize, usize, &Generated),
) {
    for points in 0..=3u8 {
        for face in 1..=6u8 {
            let mut dice = Script::new(&[(subject, detail, &[face; 5])]);
            let g = run(&with_priorities(at(category, points)), &mut dice);
            check(usize::from(points), usize::from(face) - 1, &g);
        }
    }
}

#[test]
fn platoon_size_rows_by_manpower_match_rules_4_2_and_f8() {
    assert_eq!(
        PLATOON_SIZE,
        [
            [2, 3, 3, 3, 3, 3],
            [3, 3, 3, 3, 4, 4],
            [3, 3, 4, 4, 4, 4],
            [4, 4, 4, 4, 4, 5]
        ]
    );
    each_row(
        Category::Manpower,
        "platoon[0]",
        "platoon_size",
        |p, f, g| {
            assert_eq!(squads(g, 0).len() as u32, PLATOON_SIZE[p][f]);
        },
    );
}

#[test]
fn squad_strength_rows_and_f4_hq_extra_troopers_by_manpower() {
    assert_eq!(
        SQUAD_STRENGTH,
        [
            [4, 4, 6, 6, 8, 8],
            [6, 6, 8, 8, 10, 10],
            [8, 8, 10, 10, 12, 12],
            [8, 8, 10, 10, 12, 12]
        ]
    );
    assert_eq!(HQ_EXTRA_TROOPERS, [0, 0, 1, 2]);
    each_row(
        Category::Manpower,
        "platoon[0]",
        "squad_strength",
        |p, f, g| {
            assert!(
                squads(g, 0)
                    .iter()
                    .all(|s| s.strength == SQUAD_STRENGTH[p][f])
            );
            assert_eq!(hq(g, 0).strength, 1 + 3 + HQ_EXTRA_TROOPERS[p]);
        },
    );
}

#[test]
fn declared_per_squad_strength_rolls_each_squad() {
    let mut c = with_priorities(at(Category::Manpower, 1));
    c.declared.squad_strength_per_squad = true;
    let mut dice = Script::new(&[
        ("platoon[0].squad[0]", "squad_strength", &[1]),
        ("platoon[0].squad[1]", "squad_strength", &[4]),
        ("platoon[0].squad[2]", "squad_strength", &[6]),
    ]);
    let g = run(&c, &mut dice);
    let got: Vec<u32> = squads(&g, 0).iter().map(|s| s.strength).collect();
    assert_eq!(got, [6, 8, 10]);
}

#[test]
fn basic_weapon_rows_by_fire_power_match_rules_4_2() {
    use crate::names::Named;
    let names: Vec<Vec<&str>> = BASIC_WEAPON
        .iter()
        .map(|row| row.iter().map(|w| w.name()).collect())
        .collect();
    assert_eq!(
        names,
        [
            [
                "sub_machine_guns",
                "low_tech_rifles",
                "low_tech_rifles",
                "low_tech_rifles",
                "low_tech_rifles",
                "assault_carbines"
            ],
            [
                "low_tech_rifles",
                "low_tech_rifles",
                "assault_carbines",
                "assault_carbines",
                "assault_rifles",
                "assault_rifles"
            ],
            [
                "assault_carbines",
                "assault_carbines",
                "assault_rifles",
                "assault_rifles",
                "high_tech_rifles",
                "high_tech_rifles"
            ],
            [
                "assault_rifles",
                "assault_rifles",
                "high_tech_rifles",
                "high_tech_rifles",
                "gauss_rifles",
                "gauss_rifles"
            ],
        ]
    );
    each_row(
        Category::FirePower,
        "platoon[0]",
        "basic_weapon",
        |p, f, g| {
            let want = Some(BASIC_WEAPON[p][f]);
            assert!(squads(g, 0).iter().all(|s| s.basic_weapon == want));
            assert_eq!(hq(g, 0).basic_weapon, want);
        },
    );
}

#[test]
fn support_weapon_rows_are_the_same_for_every_priority() {
    assert_eq!(SUPPORT_WEAPON, crate::forcegen::basic::SUPPORT_WEAPON);
    for face in 1..=6u8 {
        let mut dice = Script::new(&[("platoon[0].squad[1]", "support_weapon", &[face])]);
        let g = run(&with_priorities(Priorities::default()), &mut dice);
        assert_eq!(
            squads(&g, 0)[1].support_weapons,
            [SUPPORT_WEAPON[usize::from(face) - 1]]
        );
    }
}

#[test]
fn quantity_tests_roll_2_to_5_dice_by_priority() {
    for points in 0..=3u8 {
        let p = Priorities {
            fire_power: points,
            support: points,
            training: points,
            ..Priorities::default()
        };
        let mut dice = Script::new(&[]);
        run(&with_priorities(p), &mut dice);
        let mut aggressive = Script::new(&[]);
        run(
            &with_priorities(at(Category::Aggression, points)),
            &mut aggressive,
        );
        let want = format!("{}d6", points + 2);
        let tests = [
            (&dice, "fire_power_bonus"),
            (&dice, "support_heavy_weapons"),
            (&dice, "support_artillery"),
            (&dice, "training_traits"),
            (&dice, "training_personalities"),
            (&aggressive, "aggression_hardened"),
            (&dice, "leadership"),
            (&dice, "squad_leaders"),
        ];
        for (log, detail) in tests {
            let roll = log
                .log
                .iter()
                .find(|r| r.detail.as_deref() == Some(detail))
                .unwrap();
            assert_eq!(roll.dice, want, "{detail}");
        }
    }
}

#[test]
fn fire_power_bonus_gives_a_rifle_grenade_per_success_and_top_a_plasma_rifle() {
    let mut dice = Script::new(&[
        ("platoon[0]", "squad_strength", &[6]),
        ("platoon[0]", "fire_power_bonus", &[5, 6, 1, 5, 2]),
    ]);
    let g = run(&with_priorities(at(Category::FirePower, 3)), &mut dice);
    let got: Vec<_> = squads(&g, 0)
        .iter()
        .map(|s| s.support_weapons.clone())
        .collect();
    use SupportWeapon::*;
    // Low Manpower, face 1: two squads of 8 (squad_strength 6).
    assert_eq!(
        got,
        [
            vec![FlameThrower, RifleGrenade, RifleGrenade],
            vec![FlameThrower, RifleGrenade, PlasmaRifle],
        ]
    );
    let mut dice = Script::new(&[("platoon[0]", "fire_power_bonus", &[5, 6, 6])]);
    let g = run(&with_priorities(at(Category::FirePower, 1)), &mut dice);
    let total: usize = squads(&g, 0).iter().map(|s| s.support_weapons.len()).sum();
    assert_eq!(
        total,
        2 + 3,
        "Low Manpower: 2 squads of 4; 3 grenades, no plasma rifle"
    );
}

#[test]
fn platoon_armour_rows_by_gear_match_rules_4_2() {
    use crate::names::Named;
    let names: Vec<Vec<&str>> = PLATOON_ARMOUR
        .iter()
        .map(|row| row.iter().map(|a| a.name()).collect())
        .collect();
    assert_eq!(
        names,
        [
            ["none", "none", "none", "light", "light", "light"],
            ["none", "light", "light", "light", "light", "improved"],
            [
                "light", "light", "improved", "improved", "improved", "heavy"
            ],
            ["improved", "improved", "heavy", "heavy", "heavy", "heavy"],
        ]
    );
    each_row(Category::Gear, "platoon[0]", "platoon_armour", |p, f, g| {
        let want = PLATOON_ARMOUR[p][f];
        assert!(squads(g, 0).iter().all(|s| s.armour == want));
        assert_eq!(hq(g, 0).armour, want);
    });
}

#[test]
fn f5_jet_packs_per_squad_on_5_plus_at_top_gear_and_6_at_high() {
    assert_eq!(JET_PACK_TARGET, [None, None, Some(6), Some(5)]);
    let script: [(&str, &str, &[u8]); 2] = [
        ("platoon[0].squad[0]", "jet_packs", &[5]),
        ("platoon[0].squad[1]", "jet_packs", &[6]),
    ];
    let mut dice = Script::new(&script);
    let g = run(&with_priorities(at(Category::Gear, 3)), &mut dice);
    let got: Vec<bool> = squads(&g, 0)
        .iter()
        .map(|s| s.abilities.contains(&Ability::JetPacks))
        .collect();
    assert_eq!(got, [true, true]);
    let mut dice = Script::new(&script);
    let g = run(&with_priorities(at(Category::Gear, 2)), &mut dice);
    let got: Vec<bool> = squads(&g, 0)
        .iter()
        .map(|s| s.abilities.contains(&Ability::JetPacks))
        .collect();
    assert_eq!(got, [false, true]);
    let mut dice = Script::new(&[]);
    run(&with_priorities(at(Category::Gear, 1)), &mut dice);
    assert_eq!(dice.count("jet_packs"), 0);
}

#[test]
fn support_heavy_weapons_one_team_per_success_type_rolled_once_by_default() {
    use crate::names::Named;
    assert_eq!(
        HEAVY_WEAPON.map(|w| w.name()),
        [
            "auto_cannon_light",
            "beam_light",
            "cannon_light",
            "chain_gun_light",
            "heavy_mg",
            "rail_gun_light"
        ]
    );
    for face in 1..=6u8 {
        let mut dice = Script::new(&[
            ("platoon[0]", "support_heavy_weapons", &[5, 6, 4, 1]),
            ("platoon[0]", "heavy_weapon", &[face]),
        ]);
        let g = run(&with_priorities(at(Category::Support, 2)), &mut dice);
        let teams: Vec<_> = g
            .force
            .units()
            .filter(|u| u.kind == UnitKind::WeaponsTeam)
            .collect();
        let w = HEAVY_WEAPON[usize::from(face) - 1];
        assert_eq!(teams.len(), 2);
        assert!(
            teams
                .iter()
                .all(|t| t.heavy_weapons == [w] && t.strength == u32::from(w.crew()))
        );
        assert_eq!(dice.count("heavy_weapon"), 1);
    }
}

#[test]
fn declared_heavy_weapon_types_are_rolled_per_weapon() {
    let mut c = with_priorities(at(Category::Support, 3));
    c.declared.heavy_weapon_type_per_weapon = true;
    let mut dice = Script::new(&[
        ("platoon[0]", "support_heavy_weapons", &[5, 6, 1, 1, 1]),
        ("platoon[0].heavy_weapon[0]", "heavy_weapon", &[2]),
        ("platoon[0].heavy_weapon[1]", "heavy_weapon", &[6]),
    ]);
    let g = run(&c, &mut dice);
    let got: Vec<_> = g
        .force
        .units()
        .filter(|u| u.kind == UnitKind::WeaponsTeam)
        .map(|u| u.heavy_weapons[0])
        .collect();
    assert_eq!(got, [HeavyWeapon::BeamLight, HeavyWeapon::RailGunLight]);
}

#[test]
fn support_second_quantity_test_gives_regular_off_board_light_mortars() {
    let mut dice = Script::new(&[("platoon[0]", "support_artillery", &[6, 5, 5])]);
    let g = run(&with_priorities(at(Category::Support, 1)), &mut dice);
    let mortars: Vec<_> = g
        .force
        .units()
        .filter(|u| u.kind == UnitKind::OffBoardArtillery)
        .collect();
    assert_eq!(mortars.len(), 3);
    assert!(
        mortars
            .iter()
            .all(|m| m.heavy_weapons == [HeavyWeapon::MortarLight]
                && m.quality == Quality::Regular
                && m.strength == 2)
    );
}

#[test]
fn squad_quality_rows_by_training_match_rules_4_2() {
    use crate::names::Named;
    let names: Vec<Vec<&str>> = SQUAD_QUALITY
        .iter()
        .map(|row| row.iter().map(|q| q.name()).collect())
        .collect();
    assert_eq!(
        names,
        [
            [
                "rabble",
                "rabble",
                "conscript",
                "conscript",
                "conscript",
                "conscript"
            ],
            [
                "rabble",
                "conscript",
                "conscript",
                "conscript",
                "regular",
                "regular"
            ],
            [
                "conscript",
                "conscript",
                "regular",
                "regular",
                "regular",
                "elite"
            ],
            [
                "conscript",
                "regular",
                "regular",
                "regular",
                "regular",
                "elite"
            ],
        ]
    );
    each_row(
        Category::Training,
        "platoon[0].squad[1]",
        "squad_quality",
        |p, f, g| {
            assert_eq!(squads(g, 0)[1].quality, SQUAD_QUALITY[p][f]);
            assert_eq!(squads(g, 0)[0].quality, SQUAD_QUALITY[p][0]);
            assert_eq!(hq(g, 0).quality, Quality::Regular);
        },
    );
}

#[test]
fn training_bonus_traits_and_personalities_follow_the_preference_lists() {
    let mut c = with_priorities(at(Category::Training, 2));
    c.exceptional_traits = vec![Trait::Tough, Trait::Brave, Trait::Stealth];
    c.personalities = vec![Personality::Medic];
    let mut dice = Script::new(&[
        ("platoon[0]", "training_traits", &[5, 5, 1, 1]),
        ("platoon[0]", "training_personalities", &[6, 6, 6, 1]),
    ]);
    let g = run(&c, &mut dice);
    let s = squads(&g, 0);
    assert_eq!(s[0].traits, [Trait::Tough]);
    assert_eq!(s[1].traits, [Trait::Brave]);
    assert_eq!(s[0].personalities, [Personality::Medic]);
    assert!(s[1].personalities.is_empty());
    assert_eq!(
        g.pending,
        [PendingAward {
            platoon: 0,
            award: AwardKind::Personality,
            count: 2
        }]
    );
}

#[test]
fn f6_exceptional_traits_are_beneficial_and_not_single_figure() {
    assert!(is_exceptional_trait(Trait::Tough));
    assert!(is_exceptional_trait(Trait::Brave));
    assert!(!is_exceptional_trait(Trait::Hero));
    assert!(!is_exceptional_trait(Trait::Legend));
    assert!(!is_exceptional_trait(Trait::Goon));
    assert!(!is_exceptional_trait(Trait::AirMobile));
    assert!(!is_exceptional_trait(Trait::Infect));
    let mut c = with_priorities(Priorities::default());
    c.exceptional_traits = vec![Trait::Tough, Trait::Villain, Trait::Shaky];
    let fields: Vec<_> = c.validate().into_iter().map(|p| p.field).collect();
    assert_eq!(fields, ["exceptional_traits[1]", "exceptional_traits[2]"]);
}

#[test]
fn squad_resolve_rows_by_aggression_match_rules_4_2() {
    use crate::names::Named;
    let names: Vec<Vec<&str>> = SQUAD_RESOLVE
        .iter()
        .map(|row| row.iter().map(|r| r.name()).collect())
        .collect();
    assert_eq!(
        names,
        [
            [
                "reluctant",
                "uncertain",
                "uncertain",
                "uncertain",
                "steady",
                "steady"
            ],
            [
                "uncertain",
                "steady",
                "steady",
                "steady",
                "steady",
                "determined"
            ],
            [
                "steady",
                "steady",
                "steady",
                "determined",
                "determined",
                "determined"
            ],
            [
                "steady",
                "determined",
                "determined",
                "determined",
                "determined",
                "determined"
            ],
        ]
    );
    each_row(
        Category::Aggression,
        "platoon[0]",
        "squad_resolve",
        |p, f, g| {
            assert!(
                squads(g, 0)
                    .iter()
                    .all(|s| s.resolve == Some(SQUAD_RESOLVE[p][f]))
            );
            assert_eq!(hq(g, 0).resolve, Some(Resolve::Steady));
        },
    );
}

#[test]
fn declared_per_squad_resolve_rolls_each_squad() {
    let mut c = with_priorities(at(Category::Aggression, 1));
    c.declared.resolve_per_squad = true;
    let mut dice = Script::new(&[
        ("platoon[0].squad[0]", "squad_resolve", &[1]),
        ("platoon[0].squad[1]", "squad_resolve", &[6]),
    ]);
    let g = run(&c, &mut dice);
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.resolve).collect();
    assert_eq!(got, [Some(Resolve::Uncertain), Some(Resolve::Determined)]);
}

#[test]
fn aggression_bonus_gives_hardened_to_one_squad_per_success() {
    let mut dice = Script::new(&[("platoon[0]", "aggression_hardened", &[5, 6, 6])]);
    let g = run(&with_priorities(at(Category::Aggression, 1)), &mut dice);
    let got: Vec<bool> = squads(&g, 0)
        .iter()
        .map(|s| s.traits.contains(&Trait::Hardened))
        .collect();
    assert_eq!(got, [true, true]);
    assert_eq!(
        g.notes,
        ["platoon[0]: 1 Hardened success(es) beyond the squads"]
    );
}

#[test]
fn leadership_quantity_test_at_training_raises_the_platoon_leader() {
    let mut dice = Script::new(&[("platoon[0]", "leadership", &[5, 6, 1])]);
    let g = run(&with_priorities(at(Category::Training, 1)), &mut dice);
    assert_eq!(hq(&g, 0).leadership, Some(Leadership::Inspiring));
    let mut dice = Script::new(&[("platoon[0]", "leadership", &[5, 6, 5, 5, 5])]);
    let g = run(&with_priorities(at(Category::Training, 3)), &mut dice);
    assert_eq!(hq(&g, 0).leadership, Some(Leadership::Heroic));
    assert_eq!(g.notes.len(), 2);
}

#[test]
fn f7_squad_leaders_start_inexperienced_and_rise_with_the_training_test() {
    let mut dice = Script::new(&[("platoon[0]", "squad_leaders", &[5, 5, 6])]);
    let g = run(&with_priorities(at(Category::Training, 1)), &mut dice);
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.leader_experience).collect();
    use LeaderExperience::*;
    assert_eq!(got, [Some(Veteran), Some(Experienced)]);
    assert_eq!(hq(&g, 0).leader_experience, None);
    let mut dice = Script::new(&[]);
    let g = run(&with_priorities(at(Category::Training, 1)), &mut dice);
    assert!(
        squads(&g, 0)
            .iter()
            .all(|s| s.leader_experience == Some(Inexperienced))
    );
}

fn with_change(category: Category, change: &str) -> Generated {
    let mut c = with_priorities(Priorities {
        manpower: 1,
        ..at(category, 1)
    });
    c.additional_changes = vec![vec![serde_json::from_str(change).unwrap()]];
    let mut dice = Script::new(&[]);
    run(&c, &mut dice)
}

#[test]
fn change_assault_troops_gives_the_trait_and_smgs() {
    let g = with_change(
        Category::Aggression,
        r#"{"kind": "assault_troops", "squads": [1]}"#,
    );
    let s = squads(&g, 0);
    assert_eq!(s[1].traits, [Trait::AssaultTroops]);
    assert_eq!(s[1].basic_weapon, Some(BasicWeapon::SubMachineGuns));
    assert!(s[0].traits.is_empty());
}

#[test]
fn change_human_wave_swaps_the_support_trooper_for_three_riflemen() {
    let g = with_change(Category::Manpower, r#"{"kind": "human_wave"}"#);
    assert!(
        squads(&g, 0)
            .iter()
            .all(|s| s.strength == 8 && s.support_weapons.is_empty())
    );
}

#[test]
fn change_improved_armour_costs_two_troopers_for_one_armour_level() {
    let g = with_change(
        Category::Gear,
        r#"{"kind": "improved_armour", "squads": [0]}"#,
    );
    let s = squads(&g, 0);
    // Medium Gear, face 1: no armour; one level better is Improvised.
    assert_eq!((s[0].strength, s[0].armour), (4, Armour::Improvised));
    assert_eq!((s[1].strength, s[1].armour), (6, Armour::None));
}

#[test]
fn change_independent_leader_leaves_the_leader_alone_and_feeds_the_squads() {
    let g = with_change(Category::Support, r#"{"kind": "independent_leader"}"#);
    assert_eq!(hq(&g, 0).strength, 1);
    assert!(squads(&g, 0).iter().all(|s| s.strength == 7));
}

#[test]
fn change_local_militia_trades_quality_for_agile_and_resolve() {
    let g = with_change(Category::Training, r#"{"kind": "local_militia"}"#);
    for s in squads(&g, 0) {
        assert_eq!(s.quality, Quality::Rabble);
        assert_eq!(s.resolve, Some(Resolve::Uncertain));
        assert_eq!(s.traits, [Trait::Agile]);
    }
}

#[test]
fn change_more_support_swaps_two_troopers_for_one_saw_trooper() {
    let g = with_change(Category::FirePower, r#"{"kind": "more_support"}"#);
    for s in squads(&g, 0) {
        assert_eq!(s.strength, 5);
        assert_eq!(
            s.support_weapons,
            [
                SupportWeapon::FlameThrower,
                SupportWeapon::SquadAutomaticWeapon
            ]
        );
    }
}

#[test]
fn additional_changes_need_a_point_in_their_category() {
    for change in AdditionalChange::ALL {
        let mut c = with_priorities(Priorities::default());
        c.additional_changes = vec![vec![AdditionalChangeChoice {
            kind: *change,
            squads: None,
        }]];
        let problems = c.validate();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "additional_changes[0][0].kind");
        let mut p = Priorities::default();
        match change.category() {
            Category::Manpower => p.manpower = 1,
            Category::FirePower => p.fire_power = 1,
            Category::Gear => p.gear = 1,
            Category::Support => p.support = 1,
            Category::Training => p.training = 1,
            Category::Aggression => p.aggression = 1,
        }
        c.priorities = p;
        assert!(c.validate().is_empty(), "{change}");
    }
}

#[test]
fn f10_without_individual_platoons_one_platoon_is_rolled_and_copied() {
    let c = choices(
        r#"{"platoons": 3, "priorities": {"manpower": 3, "fire_power": 2, "gear": 1,
            "support": 1, "training": 1, "aggression": 1},
            "additional_changes": [[], [{"kind": "human_wave"}]]}"#,
    );
    let g = generate(
        &GenerationChoices::Advanced(c),
        &HouseRules::default(),
        &mut ServerDice::seeded(3),
    )
    .unwrap();
    assert!(g.rolls.iter().all(|r| r.subject.starts_with("platoon[0]")));
    let strip = |p: &crate::roster::Platoon| {
        p.units
            .iter()
            .map(|u| Unit {
                id: String::new(),
                ..u.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&g.force.platoons[0]), strip(&g.force.platoons[2]));
    assert_ne!(strip(&g.force.platoons[0]), strip(&g.force.platoons[1]));
}

#[test]
fn f10_individual_platoons_roll_every_platoon() {
    let c = choices(
        r#"{"platoons": 2, "individual_platoons": true,
            "priorities": {"manpower": 1, "support": 1}}"#,
    );
    let mut dice = Script::new(&[
        ("platoon[0]", "platoon_size", &[1]),
        ("platoon[1]", "platoon_size", &[6]),
    ]);
    let g = run(&c, &mut dice);
    assert_eq!((squads(&g, 0).len(), squads(&g, 1).len()), (3, 4));
    assert_eq!(dice.count("platoon_size"), 2);
    assert_eq!(dice.count("support_artillery"), 2);
}

#[test]
fn validation_reports_priorities_platoons_and_basic_only_options() {
    let c = choices(
        r#"{"platoons": 0, "priorities": {"manpower": 3, "fire_power": 3, "gear": 3,
            "support": 1},
            "additional_changes": [[{"kind": "independent_leader", "squads": [0]},
                                    {"kind": "independent_leader"}]],
            "options": {"squad_leaders": true, "heroic_characters": true}}"#,
    );
    let fields: Vec<_> = c.validate().into_iter().map(|p| p.field).collect();
    assert_eq!(
        fields,
        [
            "platoons",
            "priorities",
            "additional_changes",
            "additional_changes[0][0].squads",
            "additional_changes[0][1].kind",
            "options.squad_leaders"
        ]
    );
    let mut dice = Script::new(&[]);
    let err = generate(
        &GenerationChoices::Advanced(c),
        &HouseRules::default(),
        &mut dice,
    )
    .unwrap_err();
    assert!(matches!(err, GenerationError::Invalid(_)));
    assert!(dice.log.is_empty());
}

#[test]
fn advanced_choices_deserialize_from_the_documented_json() {
    let json = r#"{"method": "advanced", "platoons": 2,
        "priorities": {"manpower": 2, "fire_power": 2, "gear": 1, "support": 1,
                       "training": 2, "aggression": 1},
        "individual_platoons": true,
        "declared": {"resolve_per_squad": true},
        "additional_changes": [[{"kind": "human_wave", "squads": [0]}], []],
        "exceptional_traits": ["tough", "infiltrate"],
        "personalities": ["medic", "comms"],
        "options": {"heroic_characters": true, "psionics": true, "not_like_us": true}}"#;
    let parsed: GenerationChoices = serde_json::from_str(json).unwrap();
    let GenerationChoices::Advanced(c) = &parsed else {
        panic!("advanced expected")
    };
    assert!(c.validate().is_empty());
    assert_eq!(c.exceptional_traits[1], Trait::Infiltration);
    let g = generate(&parsed, &HouseRules::default(), &mut ServerDice::seeded(11)).unwrap();
    assert_eq!(g.force.platoons.len(), 2);
}

fn any_priorities() -> impl Strategy<Value = Priorities> {
    prop::sample::select(super::super::priorities::exact_allocations())
}

proptest! {
    #[test]
    fn generated_advanced_forces_are_valid_and_reproducible(
        priorities in any_priorities(),
        platoons in 1u32..=3,
        individual in any::<bool>(),
        declared in any::<[bool; 3]>(),
        options in any::<[bool; 3]>(),
        change in prop::option::of(0usize..AdditionalChange::ALL.len()),
        seed in any::<u64>(),
    ) {
        let mut c = with_priorities(priorities);
        c.platoons = platoons;
        c.individual_platoons = individual;
        c.declared = Declarations {
            squad_strength_per_squad: declared[0],
            resolve_per_squad: declared[1],
            heavy_weapon_type_per_weapon: declared[2],
        };
        c.options.heroic_characters = options[0];
        c.options.psionics = options[1];
        c.options.not_like_us = options[2];
        c.exceptional_traits = vec![Trait::Tough, Trait::Brave];
        c.personalities = vec![Personality::Medic];
        if let Some(k) = change {
            let kind = AdditionalChange::ALL[k];
            if priorities.points(kind.category()) > 0 {
                c.additional_changes = vec![vec![AdditionalChangeChoice { kind, squads: None }]];
            }
        }
        prop_assert!(c.validate().is_empty(), "{:?}", c.validate());
        let choices = GenerationChoices::Advanced(c);
        let rules = HouseRules::default();
        let a = generate(&choices, &rules, &mut ServerDice::seeded(seed)).unwrap();
        let b = generate(&choices, &rules, &mut ServerDice::seeded(seed)).unwrap();
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a.force.platoons.len() as u32, platoons);
        for platoon in &a.force.platoons {
            let n = platoon.units.iter().filter(|u| u.kind == UnitKind::Squad).count();
            prop_assert!((2..=MAX_SQUADS).contains(&n));
        }
        for unit in a.force.units() {
            prop_assert_eq!(unit.strength, unit.starting_strength);
            prop_assert!(unit.strength >= 1);
            if unit.kind == UnitKind::Squad {
                prop_assert!(unit.support_weapons.len() < unit.strength as usize);
                prop_assert!(unit.leader_experience.is_some());
            }
            prop_assert!(crate::points::unit_points(unit) > 0.0);
            prop_assert!(crate::points::validate_gear(unit, "").is_empty());
            let json = serde_json::to_string(unit).unwrap();
            let back: Unit = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, unit);
        }
        let problems = crate::validation::force_problems(&a.force);
        prop_assert!(problems.is_empty(), "{:?}", problems);
        for roll in &a.rolls {
            prop_assert_eq!(roll.step, RollStep::ForceGeneration);
            prop_assert!(roll.detail.is_some());
            prop_assert!(crate::forcegen::subject_allowed(&choices, &roll.subject), "{}", roll.subject);
        }
    }
}

#[test]
fn award_squads_choose_who_receives_each_award() {
    let mut c = with_priorities(Priorities {
        manpower: 3,
        fire_power: 1,
        training: 2,
        aggression: 1,
        ..Priorities::default()
    });
    c.exceptional_traits = vec![Trait::Tough, Trait::Brave];
    c.personalities = vec![Personality::Medic, Personality::Lucky];
    c.award_squads = serde_json::from_str(
        r#"{"fire_power_bonus": [3], "exceptional_traits": [2, 0], "personalities": [1],
            "hardened": [3, 2], "squad_leaders": [2, 4]}"#,
    )
    .unwrap();
    let mut dice = Script::new(&[
        ("platoon[0]", "squad_strength", &[6]),
        ("platoon[0]", "fire_power_bonus", &[5, 5, 1]),
        ("platoon[0]", "training_traits", &[5, 5, 1, 1]),
        ("platoon[0]", "training_personalities", &[5, 5, 1, 1]),
        ("platoon[0]", "aggression_hardened", &[6, 1, 1]),
        ("platoon[0]", "squad_leaders", &[5, 5, 5, 1]),
    ]);
    let g = run(&c, &mut dice);
    let s = squads(&g, 0);
    assert_eq!(s.len(), 4);
    use SupportWeapon::*;
    assert_eq!(
        s[3].support_weapons,
        [FlameThrower, RifleGrenade, RifleGrenade]
    );
    assert_eq!(s[0].support_weapons, [FlameThrower]);
    assert_eq!(s[2].traits, [Trait::Tough]);
    assert_eq!(s[0].traits, [Trait::Brave]);
    assert_eq!(s[1].personalities, [Personality::Medic, Personality::Lucky]);
    assert_eq!(s[3].traits, [Trait::Hardened]);
    assert_eq!(s[2].leader_experience, Some(LeaderExperience::Veteran));
    assert_eq!(
        s[0].leader_experience,
        Some(LeaderExperience::Inexperienced)
    );
    assert_eq!(
        g.notes,
        [
            "award_squads.squad_leaders: platoon[0] has no squad[4]; skipped",
            "platoon[0]: 1 squad-leader success(es) beyond Veteran"
        ]
    );
}

#[test]
fn award_squads_out_of_range_or_twice_are_refused() {
    let mut c = with_priorities(Priorities::default());
    c.award_squads.hardened = Some(vec![1, 5, 1]);
    let fields: Vec<_> = c.validate().into_iter().map(|p| p.field).collect();
    assert_eq!(
        fields,
        ["award_squads.hardened[1]", "award_squads.hardened[2]"]
    );
}
