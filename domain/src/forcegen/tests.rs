//! The common options (Heroic Characters, Psionics, Not Like Us) and the generation API.

use super::*;
use crate::dice::{EnteredDice, RollStep, ServerDice, TableDice};
use crate::kit::{Armour, BasicWeapon};
use crate::ladder::{Aptitude, Leadership, Quality, Resolve};
use crate::roster::UnitKind;
use crate::traits::Trait;

fn dice(entries: &[(&str, &[u8])]) -> TableDice {
    let mut entered = EnteredDice::new();
    let step = entered.entry(RollStep::ForceGeneration).or_default();
    for (subject, values) in entries {
        step.insert((*subject).to_owned(), values.to_vec());
    }
    TableDice::new(&entered, ServerDice::seeded(5)).unwrap()
}

fn basic(json: &str) -> GenerationChoices {
    serde_json::from_str(json).unwrap()
}

/// Two platoons of 3 squads of 8, Conscript Steady Light, Assault Rifles.
fn two_platoons(extra: &[(&str, &[u8])]) -> TableDice {
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("platoon[0]", &[1]),
        ("platoon[1]", &[1]),
        ("force", &[3, 5]),
    ];
    let squads = [
        "platoon[0].squad[0]",
        "platoon[0].squad[1]",
        "platoon[0].squad[2]",
        "platoon[1].squad[0]",
        "platoon[1].squad[1]",
        "platoon[1].squad[2]",
    ];
    for s in squads {
        entries.push((s, &[2, 2, 2, 2]));
    }
    for (subject, values) in extra {
        match entries.iter_mut().find(|(s, _)| s == subject) {
            Some(entry) => entry.1 = values,
            None => entries.push((subject, values)),
        }
    }
    dice(&entries)
}

fn run(choices: &GenerationChoices, mut d: TableDice) -> Generated {
    let g = generate(choices, &HouseRules::default(), &mut d).unwrap();
    assert!(d.unused().is_empty(), "unused: {:?}", d.unused());
    g
}

#[test]
fn heroic_characters_one_per_five_plus_with_nature_experienced_and_agile() {
    let c = basic(r#"{"method": "basic", "platoons": 2, "options": {"heroic_characters": true}}"#);
    let g = run(
        &c,
        two_platoons(&[
            ("force", &[3, 5, 5, 6, 2]),
            ("force.character[0]", &[2]),
            ("force.character[1]", &[6]),
        ]),
    );
    let chars: Vec<_> = g
        .force
        .units()
        .filter(|u| u.kind == UnitKind::Character)
        .collect();
    assert_eq!(chars.len(), 2);
    assert_eq!(chars[0].traits, [Trait::Agile, Trait::Villain]);
    assert_eq!(chars[1].traits, [Trait::Agile, Trait::Legend]);
    assert_eq!(chars[0].leadership, Some(Leadership::Experienced));
    assert_eq!(chars[0].quality, Quality::Regular);
    assert_eq!(chars[0].armour, Armour::Light);
    assert_eq!(chars[0].basic_weapon, Some(BasicWeapon::AssaultRifles));
    assert_eq!(chars[0].strength, 1);
    // Round-robin over the platoons.
    assert_eq!(chars[0].id, "p0-u4");
    assert_eq!(chars[1].id, "p1-u4");
    let rolls: Vec<_> = g
        .rolls
        .iter()
        .filter(|r| r.detail.as_deref() == Some("heroic_characters"))
        .collect();
    assert_eq!(rolls[0].dice, "3d6");
}

#[test]
fn psionics_on_five_plus_take_a_member_and_roll_aptitude() {
    let c = basic(r#"{"method": "basic", "platoons": 2, "options": {"psionics": true}}"#);
    let g = run(
        &c,
        two_platoons(&[("platoon[0]", &[1, 4]), ("platoon[1]", &[1, 5, 3])]),
    );
    assert!(
        g.force.platoons[0]
            .units
            .iter()
            .all(|u| u.kind != UnitKind::Psionic)
    );
    let p1 = &g.force.platoons[1].units;
    let psionic = p1.iter().find(|u| u.kind == UnitKind::Psionic).unwrap();
    assert_eq!(psionic.aptitude, Some(Aptitude::Competent));
    assert_eq!(psionic.psionic_strength, Some(3));
    assert_eq!(psionic.strength, 1);
    assert_eq!(
        p1[1].strength, 7,
        "the psionic is a member of the first squad"
    );
}

#[test]
fn not_like_us_puts_both_results_on_every_unit() {
    let c = basic(r#"{"method": "basic", "platoons": 2, "options": {"not_like_us": true}}"#);
    let g = run(&c, two_platoons(&[("force", &[3, 5, 5, 2])]));
    for unit in g.force.units() {
        assert_eq!(
            unit.traits,
            [Trait::ShockTroops, Trait::Tough, Trait::Berserk]
        );
    }
}

#[test]
fn not_like_us_fanatic_freezes_every_resolve_at_steady() {
    let c = basic(r#"{"method": "basic", "platoons": 2, "options": {"not_like_us": true}}"#);
    let g = run(
        &c,
        two_platoons(&[
            ("force", &[3, 5, 4, 6]),
            ("platoon[0].squad[0]", &[2, 6, 2, 2]),
        ]),
    );
    for unit in g.force.units() {
        assert!(unit.traits.contains(&Trait::Fanatic) && unit.traits.contains(&Trait::Relentless));
        assert_eq!(unit.resolve, Some(Resolve::Steady));
    }
}

#[test]
fn subjects_are_checked_against_the_choices() {
    let c = basic(r#"{"method": "basic", "platoons": 1, "attacker": true}"#);
    for ok in [
        "force",
        "force.artillery[1]",
        "force.character[2]",
        "platoon[1]",
        "platoon[0].squad[4]",
        "platoon[1].heavy_weapon[0]",
    ] {
        assert!(subject_allowed(&c, ok), "{ok}");
    }
    for bad in [
        "forces",
        "force.character[3]",
        "platoon[2]",
        "platoon[0].squad[x]",
        "platoon[0]squad[1]",
        "platoon[0].squad[1].x",
        "p0-u1",
    ] {
        assert!(!subject_allowed(&c, bad), "{bad}");
    }
}

#[test]
fn the_result_serializes_with_force_rolls_effects_pending_and_notes() {
    let c = basic(r#"{"method": "basic", "platoons": 1}"#);
    let g = run(&c, dice(&[("platoon[0]", &[1])]));
    let json = serde_json::to_value(&g).unwrap();
    let keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["effects", "force", "notes", "pending", "rolls"]);
    assert_eq!(json["rolls"][0]["step"], "force_generation");
    assert_eq!(json["rolls"][0]["detail"], "platoon_size");
    assert_eq!(json["force"]["platoons"][0]["units"][0]["id"], "p0-u0");
}

#[test]
fn a_chosen_name_follows_the_roster_name_rules_before_any_roll() {
    let choices_named = |method: &str, name: &str| -> GenerationChoices {
        let mut json = serde_json::json!({"method": method, "platoons": 1, "name": name});
        if method == "advanced" {
            json["priorities"] = serde_json::json!({"manpower": 1});
        }
        serde_json::from_value(json).unwrap()
    };
    for method in ["basic", "advanced"] {
        for (name, message) in [
            ("J\u{1d}", "must not contain control characters"),
            ("  ", "must not be empty"),
            (&"n".repeat(101) as &str, "at most"),
        ] {
            let problems = validate(&choices_named(method, name));
            assert!(
                problems
                    .iter()
                    .any(|p| p.field == "name" && p.message.contains(message)),
                "{method} {name:?}: {problems:?}"
            );
        }
        assert_eq!(validate(&choices_named(method, "Iron Column")), []);
    }
}
