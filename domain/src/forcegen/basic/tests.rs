//! Basic generation: every table row, every variation, enhancement, limitation and option, F1,
//! F2 and S5, and the invariants of generated forces.

use proptest::prelude::*;

use super::*;
use crate::dice::{EnteredDice, Roll, RollStep, ServerDice, TableDice};
use crate::forcegen::{Generated, GenerationChoices, GenerationError, generate};
use crate::house_rules::HouseRules;
use crate::roster::{Unit, UnitKind};

/// Entered dice by subject, server fallback.
fn dice(entries: &[(&str, &[u8])]) -> TableDice {
    let mut entered = EnteredDice::new();
    let step = entered.entry(RollStep::ForceGeneration).or_default();
    for (subject, values) in entries {
        step.insert((*subject).to_owned(), values.to_vec());
    }
    TableDice::new(&entered, ServerDice::seeded(99)).unwrap()
}

/// One platoon of 3 squads of 8, Conscript Steady Light, Assault Rifles, SAWs.
fn standard(extra: &[(&str, &[u8])]) -> TableDice {
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("platoon[0]", &[1]),
        ("force", &[3, 5]),
        ("platoon[0].squad[0]", &[2, 2, 2, 2]),
        ("platoon[0].squad[1]", &[2, 2, 2, 2]),
        ("platoon[0].squad[2]", &[2, 2, 2, 2]),
    ];
    for (subject, values) in extra {
        match entries.iter_mut().find(|(s, _)| s == subject) {
            Some(entry) => entry.1 = values,
            None => entries.push((subject, values)),
        }
    }
    dice(&entries)
}

fn choices(json: &str) -> BasicChoices {
    serde_json::from_str(json).unwrap()
}

fn run(c: &BasicChoices, mut d: TableDice) -> Generated {
    run_with(c, &HouseRules::default(), &mut d)
}

fn run_with(c: &BasicChoices, rules: &HouseRules, d: &mut TableDice) -> Generated {
    let g = generate(&GenerationChoices::Basic(c.clone()), rules, d).unwrap();
    assert!(d.unused().is_empty(), "unused dice: {:?}", d.unused());
    g
}

fn one_platoon() -> BasicChoices {
    choices(r#"{"platoons": 1}"#)
}

fn squads(g: &Generated, platoon: usize) -> Vec<&Unit> {
    g.force.platoons[platoon]
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Squad)
        .collect()
}

fn faces<T: Copy>(table: &D6Table<T>) -> Vec<T> {
    table.to_vec()
}

#[test]
fn platoon_size_table_rows_match_rules_4_1() {
    assert_eq!(faces(&PLATOON_SIZE), [3, 3, 3, 3, 4, 4]);
    for face in 1..=6u8 {
        let g = run(&one_platoon(), dice(&[("platoon[0]", &[face])]));
        assert_eq!(
            squads(&g, 0).len(),
            PLATOON_SIZE[usize::from(face) - 1] as usize
        );
    }
}

#[test]
fn squad_strength_table_rows_match_rules_4_1() {
    assert_eq!(faces(&SQUAD_STRENGTH), [6, 6, 8, 8, 10, 10]);
    for face in 1..=6u8 {
        let g = run(&one_platoon(), standard(&[("force", &[face, 5])]));
        assert!(
            squads(&g, 0)
                .iter()
                .all(|s| s.strength == SQUAD_STRENGTH[usize::from(face) - 1])
        );
    }
}

#[test]
fn squad_quality_resolve_armour_and_support_rows_match_rules_4_1() {
    use crate::names::Named;
    assert_eq!(
        SQUAD_QUALITY.map(|q| q.name()),
        [
            "rabble",
            "conscript",
            "conscript",
            "conscript",
            "regular",
            "regular"
        ]
    );
    assert_eq!(
        SQUAD_RESOLVE.map(|r| r.name()),
        [
            "uncertain",
            "steady",
            "steady",
            "steady",
            "steady",
            "determined"
        ]
    );
    assert_eq!(
        SQUAD_ARMOUR.map(|a| a.name()),
        ["none", "light", "light", "light", "light", "improved"]
    );
    assert_eq!(
        SUPPORT_WEAPON.map(|w| w.name()),
        [
            "flame_thrower",
            "squad_automatic_weapon",
            "squad_automatic_weapon",
            "squad_automatic_weapon",
            "grenade_launcher",
            "grenade_launcher"
        ]
    );
    for face in 1..=6u8 {
        let f: &[u8] = &[face, face, face, face];
        let g = run(&one_platoon(), standard(&[("platoon[0].squad[1]", f)]));
        let s = squads(&g, 0)[1];
        let k = usize::from(face) - 1;
        assert_eq!(s.quality, SQUAD_QUALITY[k]);
        assert_eq!(s.resolve, Some(SQUAD_RESOLVE[k]));
        assert_eq!(s.armour, SQUAD_ARMOUR[k]);
        assert_eq!(s.support_weapons, [SUPPORT_WEAPON[k]]);
    }
}

#[test]
fn platoon_basic_weapon_rows_match_rules_4_1_and_arm_every_squad_and_hq() {
    use crate::names::Named;
    assert_eq!(
        BASIC_WEAPON.map(|w| w.name()),
        [
            "low_tech_rifles",
            "low_tech_rifles",
            "assault_carbines",
            "assault_carbines",
            "assault_rifles",
            "assault_rifles"
        ]
    );
    for face in 1..=6u8 {
        let g = run(&one_platoon(), standard(&[("force", &[3, face])]));
        let want = Some(BASIC_WEAPON[usize::from(face) - 1]);
        assert!(g.force.units().all(|u| u.basic_weapon == want));
    }
}

#[test]
fn command_squad_is_leader_and_three_regular_steady_light_without_support() {
    let g = run(&one_platoon(), standard(&[("force", &[3, 1])]));
    let hq = &g.force.platoons[0].units[0];
    assert_eq!(hq.kind, UnitKind::CommandSquad);
    assert_eq!((hq.strength, hq.starting_strength), (4, 4));
    assert_eq!(hq.quality, Quality::Regular);
    assert_eq!(hq.resolve, Some(Resolve::Steady));
    assert_eq!(hq.armour, Armour::Light);
    assert_eq!(hq.basic_weapon, Some(BasicWeapon::LowTechRifles));
    assert!(hq.support_weapons.is_empty());
    assert_eq!(hq.leadership, Some(crate::ladder::Leadership::Novice));
}

#[test]
fn the_standard_force_has_ids_names_and_the_roll_log() {
    let g = run(&one_platoon(), standard(&[]));
    let ids: Vec<_> = g.force.units().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["p0-u0", "p0-u1", "p0-u2", "p0-u3"]);
    assert_eq!(g.force.name, "Generated force");
    let details: Vec<_> = g
        .rolls
        .iter()
        .map(|r| format!("{}:{}", r.subject, r.detail.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        details,
        [
            "platoon[0]:platoon_size",
            "force:squad_strength",
            "platoon[0].squad[0]:squad_quality",
            "platoon[0].squad[1]:squad_quality",
            "platoon[0].squad[2]:squad_quality",
            "platoon[0].squad[0]:squad_resolve",
            "platoon[0].squad[1]:squad_resolve",
            "platoon[0].squad[2]:squad_resolve",
            "platoon[0].squad[0]:squad_armour",
            "platoon[0].squad[1]:squad_armour",
            "platoon[0].squad[2]:squad_armour",
            "force:basic_weapon",
            "platoon[0].squad[0]:support_weapon",
            "platoon[0].squad[1]:support_weapon",
            "platoon[0].squad[2]:support_weapon",
        ]
    );
    assert!(g.rolls.iter().all(|r| r.step == RollStep::ForceGeneration));
}

#[test]
fn f1_squad_strength_is_one_roll_per_player_by_default() {
    let mut d = dice(&[("platoon[0]", &[5]), ("platoon[1]", &[1]), ("force", &[6])]);
    let g = run_with(
        &choices(r#"{"platoons": 2}"#),
        &HouseRules::default(),
        &mut d,
    );
    let strength_rolls: Vec<&Roll> = g
        .rolls
        .iter()
        .filter(|r| r.detail.as_deref() == Some("squad_strength"))
        .collect();
    assert_eq!(strength_rolls.len(), 1);
    assert_eq!(strength_rolls[0].subject, "force");
    assert!(
        squads(&g, 0)
            .iter()
            .chain(squads(&g, 1).iter())
            .all(|s| s.strength == 10)
    );
    assert_eq!(squads(&g, 0).len() + squads(&g, 1).len(), 7);
}

#[test]
fn f1_config_per_squad_rolls_strength_for_each_squad() {
    let rules = HouseRules {
        squad_strength_roll: SquadStrengthRoll::PerSquad,
        ..HouseRules::default()
    };
    let mut d = dice(&[
        ("platoon[0]", &[1]),
        ("platoon[0].squad[0]", &[1]),
        ("platoon[0].squad[1]", &[3]),
        ("platoon[0].squad[2]", &[6]),
    ]);
    let g = run_with(&one_platoon(), &rules, &mut d);
    let got: Vec<u32> = squads(&g, 0).iter().map(|s| s.strength).collect();
    assert_eq!(got, [6, 8, 10]);
}

#[test]
fn attacker_gets_one_more_platoon() {
    let g = run(&choices(r#"{"platoons": 1, "attacker": true}"#), dice(&[]));
    assert_eq!(g.force.platoons.len(), 2);
}

fn with_variation(json: &str, extra: &[(&str, &[u8])]) -> Generated {
    let c = choices(&format!(r#"{{"platoons": 1, "variation": {json}}}"#));
    run(&c, standard(extra))
}

#[test]
fn variation_assault_troops_gives_every_squad_smgs_and_the_trait() {
    let g = with_variation(r#"{"kind": "assault_troops"}"#, &[]);
    for s in squads(&g, 0) {
        assert_eq!(s.basic_weapon, Some(BasicWeapon::SubMachineGuns));
        assert_eq!(s.traits, [Trait::AssaultTroops]);
    }
    assert_eq!(
        g.force.platoons[0].units[0].basic_weapon,
        Some(BasicWeapon::AssaultRifles)
    );
}

#[test]
fn variation_energy_weapons_swaps_one_support_weapon_on_picked_squads() {
    let g = with_variation(
        r#"{"kind": "energy_weapons", "squads": [{"platoon": 0, "squad": 1}]}"#,
        &[],
    );
    let got: Vec<_> = squads(&g, 0)
        .iter()
        .map(|s| s.support_weapons.clone())
        .collect();
    use SupportWeapon::*;
    assert_eq!(
        got,
        [
            vec![SquadAutomaticWeapon],
            vec![PlasmaRifle],
            vec![SquadAutomaticWeapon]
        ]
    );
    let all = with_variation(r#"{"kind": "energy_weapons"}"#, &[]);
    assert!(
        squads(&all, 0)
            .iter()
            .all(|s| s.support_weapons == [PlasmaRifle])
    );
}

#[test]
fn variation_heavy_rifles_rearms_one_squad_with_gauss_rifles_only() {
    let g = with_variation(r#"{"kind": "heavy_rifles"}"#, &[]);
    let s = squads(&g, 0);
    assert_eq!(s[0].basic_weapon, Some(BasicWeapon::GaussRifles));
    assert!(s[0].support_weapons.is_empty());
    assert_eq!(s[1].basic_weapon, Some(BasicWeapon::AssaultRifles));
}

#[test]
fn variation_human_wave_trades_the_support_weapon_for_two_soldiers() {
    let g = with_variation(r#"{"kind": "human_wave"}"#, &[]);
    for s in squads(&g, 0) {
        assert!(s.support_weapons.is_empty());
        assert_eq!((s.strength, s.starting_strength), (10, 10));
    }
}

#[test]
fn variation_improved_command_adds_two_soldiers_and_heavy_armour() {
    let g = with_variation(r#"{"kind": "improved_command"}"#, &[]);
    let hq = &g.force.platoons[0].units[0];
    assert_eq!((hq.strength, hq.armour), (6, Armour::Heavy));
}

#[test]
fn variation_local_militia_drops_quality_gains_agile_and_resolve() {
    let g = with_variation(
        r#"{"kind": "local_militia", "squads": [{"platoon": 0, "squad": 2}]}"#,
        &[],
    );
    let s = squads(&g, 0);
    assert_eq!(s[2].quality, Quality::Rabble);
    assert_eq!(s[2].resolve, Some(Resolve::Determined));
    assert_eq!(s[2].traits, [Trait::Agile]);
    assert_eq!(s[0].quality, Quality::Conscript);
}

#[test]
fn variation_lone_leader_cuts_the_hq_to_the_leader_and_adds_a_soldier() {
    let g = with_variation(r#"{"kind": "lone_leader"}"#, &[]);
    assert_eq!(g.force.platoons[0].units[0].strength, 1);
    assert!(squads(&g, 0).iter().all(|s| s.strength == 9));
}

#[test]
fn rules_4_1_more_support_a_squad_of_8_becomes_6_with_two_support_weapons() {
    let g = with_variation(
        r#"{"kind": "more_support", "support_weapon": "flame_thrower"}"#,
        &[],
    );
    for s in squads(&g, 0) {
        assert_eq!(s.strength, 6);
        assert_eq!(
            s.support_weapons,
            [
                SupportWeapon::SquadAutomaticWeapon,
                SupportWeapon::FlameThrower
            ]
        );
    }
    let saw = with_variation(r#"{"kind": "more_support"}"#, &[]);
    assert_eq!(
        squads(&saw, 0)[0].support_weapons[1],
        SupportWeapon::SquadAutomaticWeapon
    );
}

fn with_platoon_choices(enhancement: &str, limitation: &str, extra: &[(&str, &[u8])]) -> Generated {
    let c = choices(&format!(
        r#"{{"platoons": 1, "enhancements": [{enhancement}], "limitations": [{limitation}]}}"#
    ));
    run(&c, standard(extra))
}

const INFLEXIBLE: &str = r#"{"kind": "inflexible"}"#;
const IMPROVED_INTEL: &str = r#"{"kind": "improved_intel"}"#;

#[test]
fn enhancement_fire_power_adds_one_rolled_support_weapon_per_squad() {
    let g = with_platoon_choices(
        r#"{"kind": "fire_power"}"#,
        INFLEXIBLE,
        &[("platoon[0]", &[1, 1])],
    );
    assert!(squads(&g, 0).iter().all(|s| s.support_weapons
        == [
            SupportWeapon::SquadAutomaticWeapon,
            SupportWeapon::FlameThrower
        ]));
    assert!(
        g.rolls
            .iter()
            .any(|r| r.detail.as_deref() == Some("fire_power_support_weapon"))
    );
}

#[test]
fn enhancement_heavy_troopers_defaults_to_the_first_two_squads() {
    let g = with_platoon_choices(r#"{"kind": "heavy_troopers"}"#, INFLEXIBLE, &[]);
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.armour).collect();
    assert_eq!(got, [Armour::Heavy, Armour::Heavy, Armour::Light]);
    let picked = with_platoon_choices(
        r#"{"kind": "heavy_troopers", "squads": [2, 0]}"#,
        INFLEXIBLE,
        &[],
    );
    let got: Vec<_> = squads(&picked, 0).iter().map(|s| s.armour).collect();
    assert_eq!(got, [Armour::Heavy, Armour::Light, Armour::Heavy]);
}

#[test]
fn enhancements_improved_intel_and_longer_range_are_platoon_effects() {
    let g = with_platoon_choices(IMPROVED_INTEL, INFLEXIBLE, &[]);
    let effects: Vec<_> = g.effects.iter().map(|e| e.effect).collect();
    assert_eq!(effects, [Effect::ImprovedIntel, Effect::CoherencyTwoInches]);
    let g = with_platoon_choices(r#"{"kind": "longer_range"}"#, INFLEXIBLE, &[]);
    assert_eq!(g.effects[0].effect, Effect::LongerRange);
}

#[test]
fn enhancement_manpower_adds_two_soldiers_per_squad_not_the_hq() {
    let g = with_platoon_choices(r#"{"kind": "manpower"}"#, INFLEXIBLE, &[]);
    assert!(squads(&g, 0).iter().all(|s| s.strength == 10));
    assert_eq!(g.force.platoons[0].units[0].strength, 4);
}

#[test]
fn s5_enhancement_recon_adds_a_rolled_five_man_squad_with_the_recon_trait() {
    let g = with_platoon_choices(
        r#"{"kind": "recon"}"#,
        INFLEXIBLE,
        &[("platoon[0].squad[3]", &[6, 6, 6])],
    );
    let recon = squads(&g, 0)[3];
    assert_eq!(recon.name, "Recon squad");
    assert_eq!((recon.strength, recon.starting_strength), (5, 5));
    assert_eq!(recon.quality, Quality::Regular);
    assert_eq!(recon.resolve, Some(Resolve::Determined));
    assert_eq!(recon.armour, Armour::Improved);
    assert_eq!(recon.traits, [Trait::Recon]);
    assert!(recon.support_weapons.is_empty());
    assert_eq!(recon.basic_weapon, Some(BasicWeapon::AssaultRifles));
}

#[test]
fn enhancement_urban_assault_swaps_two_riflemen_to_assault_shotguns() {
    let g = with_platoon_choices(r#"{"kind": "urban_assault"}"#, INFLEXIBLE, &[]);
    for s in squads(&g, 0) {
        assert_eq!(s.strength, 8);
        assert_eq!(
            s.support_weapons,
            [
                SupportWeapon::SquadAutomaticWeapon,
                SupportWeapon::AssaultShotgun,
                SupportWeapon::AssaultShotgun
            ]
        );
    }
}

#[test]
fn enhancement_veterans_raises_one_squad_a_quality_level() {
    let g = with_platoon_choices(r#"{"kind": "veterans", "squads": [1]}"#, INFLEXIBLE, &[]);
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.quality).collect();
    assert_eq!(
        got,
        [Quality::Conscript, Quality::Regular, Quality::Conscript]
    );
}

#[test]
fn limitation_inexperienced_lowers_the_last_two_squads_by_default() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "inexperienced"}"#, &[]);
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.quality).collect();
    assert_eq!(got, [Quality::Conscript, Quality::Rabble, Quality::Rabble]);
}

#[test]
fn limitation_militia_makes_one_squad_rabble_without_armour() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "militia", "squads": [0]}"#, &[]);
    let s = squads(&g, 0);
    assert_eq!((s[0].quality, s[0].armour), (Quality::Rabble, Armour::None));
    assert_eq!(
        (s[2].quality, s[2].armour),
        (Quality::Conscript, Armour::Light)
    );
}

#[test]
fn f2_limitation_no_grenades_is_the_minus_2_no_grenades_trait_on_every_squad() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "no_grenades"}"#, &[]);
    assert!(
        squads(&g, 0)
            .iter()
            .all(|s| s.traits == [Trait::NoGrenades])
    );
}

#[test]
fn f2_limitations_shorter_range_and_inflexible_are_platoon_effects() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "shorter_range"}"#, &[]);
    assert_eq!(g.effects[1].effect, Effect::ShorterRange);
    let g = with_platoon_choices(IMPROVED_INTEL, INFLEXIBLE, &[]);
    assert_eq!(g.effects[1].effect, Effect::CoherencyTwoInches);
    assert!(
        squads(&g, 0)
            .iter()
            .all(|s| !s.traits.contains(&Trait::Inflexible))
    );
}

#[test]
fn limitation_under_gunned_removes_a_support_weapon_from_two_squads() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "under_gunned"}"#, &[]);
    let got: Vec<_> = squads(&g, 0)
        .iter()
        .map(|s| s.support_weapons.len())
        .collect();
    assert_eq!(got, [1, 0, 0]);
}

#[test]
fn limitation_under_strength_removes_one_soldier_per_squad() {
    let g = with_platoon_choices(IMPROVED_INTEL, r#"{"kind": "under_strength"}"#, &[]);
    assert!(
        squads(&g, 0)
            .iter()
            .all(|s| s.strength == 7 && s.starting_strength == 7)
    );
}

#[test]
fn limitation_war_weary_lowers_two_squads_resolve() {
    let g = with_platoon_choices(
        IMPROVED_INTEL,
        r#"{"kind": "war_wary", "squads": [0, 1]}"#,
        &[],
    );
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.resolve).collect();
    assert_eq!(
        got,
        [
            Some(Resolve::Uncertain),
            Some(Resolve::Uncertain),
            Some(Resolve::Steady)
        ]
    );
}

#[test]
fn a_pick_the_dice_did_not_produce_is_skipped_with_a_note() {
    let g = with_platoon_choices(r#"{"kind": "veterans", "squads": [3]}"#, INFLEXIBLE, &[]);
    assert_eq!(g.notes, ["veterans: platoon[0] has no squad[3]; skipped"]);
}

fn problems(json: &str) -> Vec<(String, String)> {
    choices(json)
        .validate()
        .into_iter()
        .map(|p| (p.field, p.message))
        .collect()
}

#[test]
fn cancelling_enhancement_and_limitation_pairs_are_refused() {
    for (e, l) in CANCELLING_PAIRS {
        let json = format!(
            r#"{{"platoons": 2, "enhancements": [null, {{"kind": "{e}"}}],
                "limitations": [null, {{"kind": "{l}"}}]}}"#
        );
        let got = problems(&json);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, "limitations[1].kind");
    }
    assert!(Limitation::UnderStrength.cancels(Enhancement::Manpower));
    assert!(!Limitation::UnderStrength.cancels(Enhancement::Veterans));
}

#[test]
fn militia_may_not_pick_the_veterans_squad() {
    let got = problems(
        r#"{"platoons": 1, "enhancements": [{"kind": "veterans", "squads": [1]}],
            "limitations": [{"kind": "militia", "squads": [1]}]}"#,
    );
    assert_eq!(got[0].0, "limitations[0].squads");
}

#[test]
fn an_enhancement_needs_a_limitation_for_its_platoon() {
    let got = problems(r#"{"platoons": 1, "enhancements": [{"kind": "manpower"}]}"#);
    assert_eq!(got[0].0, "limitations[0]");
}

#[test]
fn invalid_counts_picks_and_platoons_are_reported_with_paths() {
    let got = problems(
        r#"{"platoons": 0, "enhancements": [{"kind": "heavy_troopers", "squads": [1]},
            {"kind": "manpower", "squads": [0]}],
            "limitations": [{"kind": "war_weary", "squads": [7, 7]}, null, null],
            "variation": {"kind": "lone_leader", "squads": [{"platoon": 3, "squad": 0}],
                          "support_weapon": "saw"}}"#,
    );
    let fields: Vec<&str> = got.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(
        fields,
        [
            "platoons",
            "variation.squads",
            "variation.squads[0].platoon",
            "variation.support_weapon",
            "enhancements",
            "limitations",
            "enhancements[0].squads",
            "enhancements[1].squads",
            "limitations[1]",
            "limitations[0].squads[0]",
            "limitations[0].squads[1]",
            "limitations[0].squads[1]",
        ]
    );
}

#[test]
fn invalid_choices_roll_nothing() {
    let mut d = dice(&[]);
    let c = choices(r#"{"platoons": 9}"#);
    let err = generate(&GenerationChoices::Basic(c), &HouseRules::default(), &mut d).unwrap_err();
    assert!(matches!(err, GenerationError::Invalid(p) if p[0].field == "platoons"));
    assert!(d.log().is_empty());
}

#[test]
fn option_unknown_resolve_leaves_squad_resolve_unrolled() {
    let c = choices(r#"{"platoons": 1, "options": {"unknown_resolve": true}}"#);
    let g = run(&c, dice(&[("platoon[0]", &[1])]));
    assert!(squads(&g, 0).iter().all(|s| s.resolve.is_none()));
    assert!(
        g.rolls
            .iter()
            .all(|r| r.detail.as_deref() != Some("squad_resolve"))
    );
    assert_eq!(g.force.platoons[0].units[0].resolve, Some(Resolve::Steady));
    let mut later = dice(&[("p0-u1", &[6])]);
    assert_eq!(
        roll_unknown_resolve(&mut later, "p0-u1").unwrap(),
        Resolve::Determined
    );
}

#[test]
fn option_squad_leaders_rows_match_rules_1_4() {
    assert_eq!(
        faces(&SQUAD_LEADER),
        (1..=6)
            .map(LeaderExperience::from_basic_roll)
            .collect::<Vec<_>>()
    );
    let c = choices(r#"{"platoons": 1, "options": {"squad_leaders": true}}"#);
    let g = run(
        &c,
        standard(&[
            ("platoon[0].squad[0]", &[2, 2, 2, 2, 1]),
            ("platoon[0].squad[1]", &[2, 2, 2, 2, 4]),
            ("platoon[0].squad[2]", &[2, 2, 2, 2, 5]),
        ]),
    );
    let got: Vec<_> = squads(&g, 0).iter().map(|s| s.leader_experience).collect();
    use LeaderExperience::*;
    assert_eq!(got, [Some(Inexperienced), Some(Experienced), Some(Veteran)]);
}

#[test]
fn option_heavy_weapons_rows_give_one_team_per_platoon() {
    use crate::names::Named;
    assert_eq!(
        HEAVY_WEAPON.map(|w| w.name()),
        [
            "auto_cannon_light",
            "auto_cannon_light",
            "chain_gun_light",
            "chain_gun_light",
            "heavy_mg",
            "heavy_mg"
        ]
    );
    let c = choices(r#"{"platoons": 1, "options": {"heavy_weapons": true}}"#);
    for face in 1..=6u8 {
        let g = run(&c, standard(&[("platoon[0]", &[1, face])]));
        let team = g.force.platoons[0].units.last().unwrap();
        let weapon = HEAVY_WEAPON[usize::from(face) - 1];
        assert_eq!(team.kind, UnitKind::WeaponsTeam);
        assert_eq!(team.heavy_weapons, [weapon]);
        assert_eq!(team.strength, u32::from(weapon.crew()));
        assert_eq!(team.id, "p0-u4");
    }
}

#[test]
fn option_artillery_support_rows_and_one_more_for_the_attacker() {
    use crate::names::Named;
    assert_eq!(
        ARTILLERY.map(|w| w.name()),
        [
            "mortar_light",
            "mortar_light",
            "cannon_light",
            "cannon_light",
            "cannon_medium",
            "cannon_medium"
        ]
    );
    let c = choices(r#"{"platoons": 1, "attacker": true, "options": {"artillery_support": true}}"#);
    let g = run(
        &c,
        dice(&[("force.artillery[0]", &[2]), ("force.artillery[1]", &[6])]),
    );
    let arty: Vec<_> = g
        .force
        .units()
        .filter(|u| u.kind == UnitKind::OffBoardArtillery)
        .collect();
    assert_eq!(arty.len(), 2);
    assert_eq!(arty[0].heavy_weapons, [HeavyWeapon::MortarLight]);
    assert_eq!(arty[1].heavy_weapons, [HeavyWeapon::CannonMedium]);
    assert_eq!(arty[1].quality, Quality::Regular);
}

#[test]
fn basic_choices_deserialize_from_the_documented_json() {
    let json = r#"{"method": "basic", "platoons": 2, "attacker": true,
        "variation": {"kind": "more_support", "squads": [{"platoon": 1, "squad": 0}]},
        "enhancements": [{"kind": "veterans", "squads": [0]}, null],
        "limitations": [{"kind": "war_weary"}, {"kind": "no_grenades"}],
        "options": {"squad_leaders": true}}"#;
    let parsed: GenerationChoices = serde_json::from_str(json).unwrap();
    let GenerationChoices::Basic(c) = &parsed else {
        panic!("basic expected")
    };
    assert_eq!(c.total_platoons(), 3);
    assert!(c.validate().is_empty());
    let back: GenerationChoices =
        serde_json::from_str(&serde_json::to_string(&parsed).unwrap()).unwrap();
    assert_eq!(back, parsed);
}

fn any_basic_choices() -> impl Strategy<Value = BasicChoices> {
    let variation =
        prop::option::of(
            (0usize..Variation::ALL.len()).prop_map(|k| VariationChoice {
                kind: Variation::ALL[k],
                squads: None,
                support_weapon: None,
            }),
        );
    let platoon = (
        0usize..Enhancement::ALL.len(),
        0usize..Limitation::ALL.len(),
    );
    (
        1u32..=3,
        any::<bool>(),
        variation,
        prop::collection::vec(platoon, 0..4),
        any::<[bool; 7]>(),
    )
        .prop_map(|(platoons, attacker, variation, picks, o)| {
            let total = (platoons + u32::from(attacker)) as usize;
            let mut enhancements = Vec::new();
            let mut limitations = Vec::new();
            for (e, l) in picks.into_iter().take(total) {
                let e = Enhancement::ALL[e];
                let mut l = Limitation::ALL[l];
                if l.cancels(e) {
                    l = Limitation::Inflexible;
                }
                enhancements.push(Some(EnhancementChoice {
                    kind: e,
                    squads: None,
                }));
                limitations.push(Some(LimitationChoice {
                    kind: l,
                    squads: None,
                }));
            }
            BasicChoices {
                name: None,
                platoons,
                attacker,
                variation,
                enhancements,
                limitations,
                options: GenerationOptions {
                    unknown_resolve: o[0],
                    squad_leaders: o[1],
                    heavy_weapons: o[2],
                    artillery_support: o[3],
                    heroic_characters: o[4],
                    psionics: o[5],
                    not_like_us: o[6],
                },
            }
        })
}

proptest! {
    #[test]
    fn generated_basic_forces_are_valid_and_reproducible(
        c in any_basic_choices(), seed in any::<u64>(), per_squad in any::<bool>(),
    ) {
        let rules = HouseRules {
            squad_strength_roll: if per_squad {
                SquadStrengthRoll::PerSquad
            } else {
                SquadStrengthRoll::PerPlayer
            },
            ..HouseRules::default()
        };
        prop_assert!(c.validate().is_empty(), "{:?}", c.validate());
        let choices = GenerationChoices::Basic(c.clone());
        let a = generate(&choices, &rules, &mut ServerDice::seeded(seed)).unwrap();
        let b = generate(&choices, &rules, &mut ServerDice::seeded(seed)).unwrap();
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a.force.platoons.len() as u32, c.total_platoons());
        for unit in a.force.units() {
            prop_assert_eq!(unit.strength, unit.starting_strength);
            prop_assert!(unit.strength >= 1);
            if unit.kind == UnitKind::Squad {
                prop_assert!(unit.support_weapons.len() < unit.strength as usize);
            }
            prop_assert!(crate::points::unit_points(unit) > 0.0);
            prop_assert!(crate::points::validate_gear(unit, "").is_empty());
            // Every enum round-trips through its JSON name.
            let json = serde_json::to_string(unit).unwrap();
            let back: Unit = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, unit);
        }
        let mut ids: Vec<_> = a.force.units().map(|u| u.id.clone()).collect();
        ids.sort();
        ids.dedup();
        prop_assert_eq!(ids.len(), a.force.units().count());
        let problems = crate::validation::force_problems(&a.force);
        prop_assert!(problems.is_empty(), "{:?}", problems);
        for roll in &a.rolls {
            prop_assert_eq!(roll.step, RollStep::ForceGeneration);
            prop_assert!(roll.detail.is_some());
            prop_assert!(roll.values.iter().all(|v| (1..=6).contains(v)));
            prop_assert!(crate::forcegen::subject_allowed(&choices, &roll.subject), "{}", roll.subject);
        }
    }
}
