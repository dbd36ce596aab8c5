//! The FMA family: its ladders and tables row by row, validation (M1–M3), the casualty table
//! (M4), Motivation change (M6), the menu and new teams (M7, M8) and the marker draw (M10).

use super::*;
use crate::campaign::resolve_change::RESOLVE_CHANGE;
use crate::dice::{Dice, DiceError, EnteredDice, RollStep, ServerDice, TableDice};
use crate::ladder::{Quality, Resolve};
use crate::roster::{Force, Platoon, Unit, UnitKind, UnitStatus};

fn rifle() -> FmaWeapon {
    FmaWeapon {
        name: "Assault rifle".into(),
        bands: [
            RangeBand {
                inches: 12,
                firepower: Die::D10,
            },
            RangeBand {
                inches: 24,
                firepower: Die::D8,
            },
            RangeBand {
                inches: 36,
                firepower: Die::D6,
            },
        ],
        impact: Die::D10,
        impact_multiplier: 1,
    }
}

fn figure(id: &str, experience: Experience, motivation: u8) -> Unit {
    let profile = FmaProfile {
        experience,
        motivation,
        role: None,
        armour: FmaArmour::Light,
        toughness: Toughness::Normal,
        weapons: vec![rifle()],
        dead: false,
        replaced: false,
    };
    let mut unit = Unit {
        id: id.into(),
        name: format!("Trooper {id}"),
        kind: UnitKind::Character,
        resolve: None,
        strength: 1,
        starting_strength: 1,
        ..Unit::default()
    };
    profile.sync_fad_fields(&mut unit);
    unit.fma = Some(profile);
    unit
}

fn team(name: &str, units: Vec<Unit>) -> Force {
    Force {
        name: "Strike force".into(),
        platoons: vec![Platoon {
            name: name.into(),
            units,
        }],
    }
}

/// The acceptance team Bravo: four Veterans, Motivation 1/2/2/3, light armour (d6), assault rifles.
fn bravo() -> Force {
    team(
        "Bravo",
        vec![
            figure("b1", Experience::Veteran, 1),
            figure("b2", Experience::Veteran, 2),
            figure("b3", Experience::Veteran, 2),
            figure("b4", Experience::Veteran, 3),
        ],
    )
}

fn fields(force: &Force) -> Vec<String> {
    validate_fma(force)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.field)
        .collect()
}

#[test]
fn experience_rows_give_die_colour_and_fad_rung() {
    let rows: Vec<(Experience, u8, &str, Quality)> = Experience::ALL
        .iter()
        .map(|e| {
            (
                *e,
                e.quality_die().sides(),
                e.marker_colour(),
                e.fad_quality(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (Experience::Untrained, 4, "yellow", Quality::Rabble),
            (Experience::Green, 6, "green", Quality::Conscript),
            (Experience::Regular, 8, "blue", Quality::Regular),
            (Experience::Veteran, 10, "orange", Quality::Regular),
            (Experience::Elite, 12, "red", Quality::Elite),
        ]
    );
    assert_eq!(Experience::parse("novice"), Ok(Experience::Untrained));
    assert_eq!(
        serde_json::from_str::<Experience>("\"novice\"").unwrap(),
        Experience::Untrained
    );
    assert_eq!(
        serde_json::to_string(&Experience::Untrained).unwrap(),
        "\"untrained\""
    );
    assert!(Experience::Elite.is_top());
}

#[test]
fn motivation_rows_number_and_fad_rung() {
    let rows: Vec<(Motivation, u8, Resolve)> = Motivation::ALL
        .iter()
        .map(|m| (*m, m.level(), m.fad_resolve()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (Motivation::Low, 3, Resolve::Uncertain),
            (Motivation::Average, 2, Resolve::Steady),
            (Motivation::High, 1, Resolve::Determined),
        ]
    );
    for level in 1..=3 {
        assert_eq!(
            Motivation::of_level(level).map(Motivation::level),
            Some(level)
        );
    }
    assert_eq!(Motivation::of_level(0), None);
    assert_eq!(Motivation::of_level(4), None);
}

#[test]
fn armour_rows_and_toughness_never_past_d12() {
    let dice: Vec<Option<Die>> = FmaArmour::ALL.iter().map(|a| a.die()).collect();
    assert_eq!(
        dice,
        vec![
            None,
            Some(Die::D4),
            Some(Die::D6),
            Some(Die::D8),
            Some(Die::D10),
            Some(Die::D12),
        ]
    );
    // Each toughness step on unarmoured d4: d4, d6, d8, d10.
    let raised: Vec<ArmourValue> = Toughness::ALL
        .iter()
        .map(|t| armour_value(FmaArmour::None, *t))
        .collect();
    assert_eq!(
        raised,
        vec![
            ArmourValue::Die(Die::D4),
            ArmourValue::Die(Die::D6),
            ArmourValue::Die(Die::D8),
            ArmourValue::Die(Die::D10),
        ]
    );
    // Acceptance: d12 armour and incredibly tough stays d12 (l.883–886); medium d8 + very tough = d12.
    assert_eq!(
        armour_value(FmaArmour::VeryHeavy, Toughness::IncrediblyTough),
        ArmourValue::Die(Die::D12)
    );
    assert_eq!(
        armour_value(FmaArmour::Medium, Toughness::VeryTough),
        ArmourValue::Die(Die::D12)
    );
    assert_eq!(
        armour_value(FmaArmour::Heavy, Toughness::IncrediblyTough),
        ArmourValue::Die(Die::D12)
    );
    assert_eq!(
        armour_value(FmaArmour::NonCombatant, Toughness::Normal),
        ArmourValue::Fixed
    );
    assert_eq!(ArmourValue::Fixed.to_string(), "1");
    assert_eq!(ArmourValue::Die(Die::D6).to_string(), "d6");
}

#[test]
fn casualty_rows_by_d6() {
    let rows: Vec<(Casualty, FigureFate, bool)> = (1..=6)
        .map(|d| {
            let c = casualty(&CASUALTY, d);
            (c, c.fate(), c.may_be_returned())
        })
        .collect();
    let back = (Casualty::Returns, FigureFate::Active, false);
    let out = (Casualty::SeriouslyWounded, FigureFate::Returnable, true);
    let dead = (Casualty::Dead, FigureFate::Dead, false);
    assert_eq!(rows, vec![back, back, out, out, dead, dead]);
}

#[test]
fn motivation_change_rows_clamp_at_both_ends() {
    use Motivation::{Average, High, Low};
    // d6 1..=6 for each Motivation: 1-2 worse, 3-4 same, 5-6 better.
    let table = |m| -> Vec<Motivation> {
        (1..=6)
            .map(|d| motivation_change(&RESOLVE_CHANGE, d, m))
            .collect()
    };
    assert_eq!(table(High), vec![Average, Average, High, High, High, High]);
    assert_eq!(table(Average), vec![Low, Low, Average, Average, High, High]);
    assert_eq!(table(Low), vec![Low, Low, Low, Low, Average, Average]);
    // Acceptance: b1 (1) rolls 6 stays 1; b2 (2) rolls 1 goes to 3; b4 (3) rolls 4 stays 3.
    assert_eq!(motivation_change(&RESOLVE_CHANGE, 6, High).level(), 1);
    assert_eq!(motivation_change(&RESOLVE_CHANGE, 1, Average).level(), 3);
    assert_eq!(motivation_change(&RESOLVE_CHANGE, 4, Low).level(), 3);
}

#[test]
fn decisions_tables_menu_and_new_team() {
    let r = v1();
    assert_eq!(r.id, ID);
    assert_eq!(r.family, crate::rulesets::Family::Fma);
    assert_eq!(r.sources, vec![SOURCE.to_owned()]);
    assert_eq!(r.decisions, DECISIONS);
    assert_eq!(r.decisions.casualties, Casualties::Examination);
    assert_eq!(r.decisions.quality_loss, QualityLossRule::Never);
    assert_eq!(r.decisions.resolve, ResolveRule::MembersOfGroupWithLosses);
    assert_eq!(r.decisions.pricing, Pricing::None);
    assert_eq!(r.decisions.force_generation, ForceGeneration::FmaMarkers);
    assert_eq!(r.decisions.scenario, ScenarioSupport::None);
    let t = &r.tables;
    assert_eq!(t.casualty, Some(CASUALTY));
    assert_eq!(t.cp_per_platoon, 2);
    assert_eq!(t.pool_dice, 2);
    assert_eq!(t.resolve_change, RESOLVE_CHANGE);
    assert_eq!((t.new_squad.min, t.new_squad.max), (5, 8));
    assert_eq!(t.new_squad.quality, Experience::Green.fad_quality());
    assert_eq!(t.new_squad.resolve, Motivation::Low.fad_resolve());
    let sold: Vec<(PurchaseItem, u32)> = t
        .menu
        .iter()
        .filter(|row| row.enabled)
        .map(|row| (row.item, row.cost))
        .collect();
    assert_eq!(
        sold,
        vec![
            (PurchaseItem::ImproveQuality, 1),
            (PurchaseItem::ImproveResolve, 1),
            (PurchaseItem::ExtraReinforcementDie, 1),
            (PurchaseItem::ReturnLoneFigure, 1),
            (PurchaseItem::RepairVehicle, 1),
            (PurchaseItem::ReplaceVehicle, 2),
        ]
    );
    for item in [
        PurchaseItem::GrantPersonality,
        PurchaseItem::ImproveLeadership,
        PurchaseItem::AssignTrait,
    ] {
        assert!(!t.sells(item), "{item} is not sold (M8)");
    }
    assert_eq!(
        item_word(PurchaseItem::ImproveQuality),
        "improve_experience"
    );
    assert_eq!(
        item_word(PurchaseItem::ImproveResolve),
        "improve_motivation"
    );
    assert_eq!(
        item_word(PurchaseItem::ReturnLoneFigure),
        "return_lone_figure"
    );
}

#[test]
fn ladders_and_readings() {
    let r = v1();
    let rungs = |name: &str| -> Vec<(String, Option<i32>)> {
        r.ladder(name)
            .unwrap()
            .rungs
            .iter()
            .map(|g| (g.key.clone(), g.number))
            .collect()
    };
    let s = |k: &str, n: i32| (k.to_owned(), Some(n));
    assert_eq!(
        rungs("experience"),
        vec![
            s("untrained", 4),
            s("green", 6),
            s("regular", 8),
            s("veteran", 10),
            s("elite", 12)
        ]
    );
    assert_eq!(
        rungs("motivation"),
        vec![s("low", 3), s("average", 2), s("high", 1)]
    );
    let ids: Vec<&str> = r.readings.iter().map(|x| x.id.as_str()).collect();
    let want: Vec<String> = (1..=13).map(|n| format!("M{n}")).collect();
    assert_eq!(ids, want.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(r.builtin && r.extends.is_none());
}

#[test]
fn version_1_is_frozen() {
    assert_eq!(v1(), v1());
    let json = serde_json::to_string(&v1()).unwrap();
    assert_eq!(serde_json::from_str::<Ruleset>(&json).unwrap(), v1());
    assert_eq!(v1().hash(), PINNED_HASH);
}

const PINNED_HASH: &str = "d7b2d33f2b5ef53a1ef60d6f6413ab296635903ba6db72bba57bf14d29dc0d55";

#[test]
fn fad5e_document_has_no_casualty_table() {
    let json = serde_json::to_value(crate::rulesets::Ruleset::fad5e()).unwrap();
    assert!(json["tables"].get("casualty").is_none());
}

#[test]
fn bravo_validates_with_d10_quality_dice() {
    let force = bravo();
    assert_eq!(validate_fma(&force), Ok(()));
    for unit in force.units() {
        let p = unit.fma.as_ref().unwrap();
        assert_eq!(p.quality_die(), Die::D10);
        assert_eq!(p.armour_value(), ArmourValue::Die(Die::D6));
        assert_eq!(unit.quality, Quality::Regular);
    }
    assert_eq!(
        force.platoons[0].units[0].fma.as_ref().unwrap().weapons[0].summary(),
        "Assault rifle 12/24/36 d10/d8/d6, impact d10"
    );
    assert_eq!(
        force.platoons[0].units[0].fma.as_ref().unwrap().marker(),
        "VET 1"
    );
    assert_eq!(force.platoons[0].units[3].resolve, Some(Resolve::Uncertain));
}

#[test]
fn the_police_team_of_the_seed_validates() {
    let mut morgan = figure("p1", Experience::Green, 1);
    morgan.fma.as_mut().unwrap().role = Some(TeamRole::Leader);
    let mut lewis = figure("p2", Experience::Veteran, 2);
    lewis.fma.as_mut().unwrap().role = Some(TeamRole::Second);
    let force = team(
        "Police",
        vec![
            morgan,
            lewis,
            figure("p3", Experience::Regular, 2),
            figure("p4", Experience::Regular, 3),
            figure("p5", Experience::Veteran, 3),
        ],
    );
    assert_eq!(validate_fma(&force), Ok(()));
}

#[test]
fn motivation_outside_1_to_3_is_refused_m3() {
    let mut force = bravo();
    force.platoons[0].units[1].fma.as_mut().unwrap().motivation = 4;
    force.platoons[0].units[2].fma.as_mut().unwrap().motivation = 0;
    let problems = validate_fma(&force).unwrap_err();
    assert_eq!(
        problems
            .iter()
            .map(|p| p.field.as_str())
            .collect::<Vec<_>>(),
        vec![
            "platoons[0].units[1].fma.motivation",
            "platoons[0].units[2].fma.motivation"
        ]
    );
    assert!(
        problems[0].message.contains("not 4 (M3)"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_figure_is_a_character_of_one_m1() {
    let mut force = bravo();
    force.platoons[0].units[0].starting_strength = 2;
    force.platoons[0].units[1].kind = UnitKind::Squad;
    force.platoons[0].units[2].fma = None;
    force.platoons[0].units[3].strength = 0;
    assert_eq!(
        fields(&force),
        vec![
            "platoons[0].units[0].starting_strength",
            "platoons[0].units[1].kind",
            "platoons[0].units[2].fma",
            "platoons[0].units[3].status",
        ]
    );
    force.platoons[0].units[3].status = UnitStatus::Eliminated;
    force.platoons[0].units = vec![force.platoons[0].units[3].clone()];
    assert_eq!(validate_fma(&force), Ok(()));
    force.platoons[0].units.clear();
    assert_eq!(fields(&force), vec!["platoons[0].units"]);
    force.platoons.clear();
    assert_eq!(fields(&force), vec!["platoons"]);
}

#[test]
fn one_leader_and_one_second_per_team_m3() {
    let mut force = bravo();
    for u in &mut force.platoons[0].units[..2] {
        u.fma.as_mut().unwrap().role = Some(TeamRole::Leader);
    }
    let problems = validate_fma(&force).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].field, "platoons[0].units[1].fma.role");
}

#[test]
fn toughness_on_fixed_armour_and_bad_weapons_are_refused_m2() {
    let mut force = bravo();
    {
        let p = force.platoons[0].units[0].fma.as_mut().unwrap();
        p.armour = FmaArmour::NonCombatant;
        p.toughness = Toughness::Tough;
    }
    {
        let p = force.platoons[0].units[1].fma.as_mut().unwrap();
        p.weapons[0].bands[2].inches = 24;
        p.weapons[0].impact_multiplier = 0;
    }
    assert_eq!(
        fields(&force),
        vec![
            "platoons[0].units[0].fma.toughness",
            "platoons[0].units[1].fma.weapons[0].bands",
            "platoons[0].units[1].fma.weapons[0].impact_multiplier",
        ]
    );
    // d12 and incredibly tough is allowed; it plays as d12.
    let mut force = bravo();
    let p = force.platoons[0].units[0].fma.as_mut().unwrap();
    p.armour = FmaArmour::VeryHeavy;
    p.toughness = Toughness::IncrediblyTough;
    assert_eq!(validate_fma(&force), Ok(()));
}

#[test]
fn fad_fields_are_not_part_of_a_figure() {
    let mut force = bravo();
    force.platoons[0].units[0].armour = crate::kit::Armour::Heavy;
    assert_eq!(fields(&force), vec!["platoons[0].units[0].armour"]);
}

#[test]
fn a_vehicle_is_a_unit_with_a_state_m13() {
    let mut force = bravo();
    force.platoons[0].units.push(Unit {
        id: "v1".into(),
        name: "Patrol car".into(),
        kind: UnitKind::Vehicle,
        strength: 1,
        starting_strength: 1,
        resolve: None,
        vehicle_state: Some(crate::kit::VehicleState::Operational),
        ..Unit::default()
    });
    assert_eq!(validate_fma(&force), Ok(()));
    force.platoons[0].units[4].vehicle_state = None;
    assert_eq!(fields(&force), vec!["platoons[0].units[4].vehicle_state"]);
}

#[test]
fn a_profile_reads_from_json_with_defaults() {
    let p: FmaProfile =
        serde_json::from_str(r#"{"experience": "novice", "motivation": 2, "armour": "none"}"#)
            .unwrap();
    assert_eq!(p.experience, Experience::Untrained);
    assert_eq!(p.toughness, Toughness::Normal);
    assert!(p.weapons.is_empty() && p.role.is_none());
    assert!(
        serde_json::from_str::<FmaProfile>(
            r#"{"experience": "green", "motivation": 2, "armour": "none", "luck": 1}"#
        )
        .is_err()
    );
}

/// The acceptance pool: Green-2, Regular-2 ×4, Veteran-2 ×2, Regular-3.
fn pool() -> Vec<Marker> {
    let g = |e, m| Marker::new(e, m);
    vec![
        g(Experience::Green, 2),
        g(Experience::Regular, 2),
        g(Experience::Regular, 2),
        g(Experience::Regular, 2),
        g(Experience::Regular, 2),
        g(Experience::Veteran, 2),
        g(Experience::Veteran, 2),
        g(Experience::Regular, 3),
    ]
}

fn entered(values: &[u8]) -> EnteredDice {
    let mut dice = EnteredDice::new();
    dice.entry(RollStep::MarkerDraw)
        .or_default()
        .insert("Bravo".into(), values.to_vec());
    dice
}

#[test]
fn the_marker_draw_picks_by_position_among_those_left_m10() {
    let mut dice = TableDice::new(&entered(&[1, 7, 5, 1]), ServerDice::seeded(1)).unwrap();
    let drawn = draw_markers(&mut dice, &pool(), 4, "Bravo", Some("f1")).unwrap();
    assert_eq!(
        drawn,
        vec![
            Marker::new(Experience::Green, 2),
            Marker::new(Experience::Regular, 3),
            Marker::new(Experience::Veteran, 2),
            Marker::new(Experience::Regular, 2),
        ]
    );
    let log = dice.take_log();
    assert_eq!(
        log.iter().map(|r| r.dice.as_str()).collect::<Vec<_>>(),
        vec!["1d8", "1d7", "1d6", "1d5"]
    );
    assert!(log.iter().all(|r| r.step == RollStep::MarkerDraw
        && r.subject == "Bravo"
        && r.force_id.as_deref() == Some("f1")));
    assert!(dice.unused().is_empty());
}

#[test]
fn a_drawn_value_above_the_markers_left_is_refused() {
    // 8 is fine for the first draw (1d8) but not for the second (1d7).
    let mut dice = TableDice::new(&entered(&[8, 8]), ServerDice::seeded(1)).unwrap();
    let err = draw_markers(&mut dice, &pool(), 2, "Bravo", None).unwrap_err();
    assert!(
        matches!(
            err,
            DiceError::OutOfRange {
                value: 8,
                sides: 7,
                ..
            }
        ),
        "{err:?}"
    );
    // A marker-draw die may show 7 when entered; a casualty die may not.
    assert!(TableDice::new(&entered(&[7]), ServerDice::seeded(1)).is_ok());
    let mut casualty_dice = EnteredDice::new();
    casualty_dice
        .entry(RollStep::Casualty)
        .or_default()
        .insert("b2".into(), vec![7]);
    assert!(TableDice::new(&casualty_dice, ServerDice::seeded(1)).is_err());
    assert!(TableDice::new(&entered(&[0]), ServerDice::seeded(1)).is_err());
}

#[test]
fn server_draws_stay_in_the_pool_and_log_each_roll() {
    let mut dice = ServerDice::seeded(7);
    let drawn = draw_markers(&mut dice, &pool(), 8, "Bravo", None).unwrap();
    let mut sorted = drawn.clone();
    let mut all = pool();
    let key = |m: &Marker| (m.experience, m.motivation);
    sorted.sort_by_key(key);
    all.sort_by_key(key);
    assert_eq!(sorted, all, "every marker drawn once");
    assert_eq!(dice.log().len(), 8);
}

#[test]
fn the_default_pool_is_two_per_figure_without_elite_or_untrained() {
    assert_eq!(default_pool(4), pool());
    let big = default_pool(7);
    assert_eq!(big.len(), 14);
    assert!(
        big.iter()
            .all(|m| !matches!(m.experience, Experience::Elite | Experience::Untrained))
    );
    let regular = big
        .iter()
        .filter(|m| m.experience == Experience::Regular)
        .count();
    assert!(regular * 2 > big.len(), "mostly Regular");
    assert!(check_pool(&big, 7).is_empty());
}

#[test]
fn a_pool_too_small_or_with_bad_motivation_is_refused() {
    let mut p = pool();
    p[2].motivation = 4;
    let fields: Vec<String> = check_pool(&p[..3], 4)
        .into_iter()
        .map(|x| x.field)
        .collect();
    assert_eq!(fields, vec!["markers", "markers[2].motivation"]);
    assert_eq!(
        check_pool(&pool(), 0)
            .into_iter()
            .map(|x| x.field)
            .collect::<Vec<_>>(),
        vec!["figures"]
    );
}

#[test]
fn generation_draws_team_after_team_from_one_pool_m10() {
    use super::generation::{MarkerChoices, MarkerTeam, generate_by_markers, validate_choices};
    let team = |name: &str, figures| MarkerTeam {
        name: name.into(),
        figures,
        armour: FmaArmour::Light,
        weapons: vec![rifle()],
    };
    let choices = MarkerChoices {
        name: "Police".into(),
        teams: vec![team("Bravo", 4)],
        markers: Some(pool()),
    };
    assert!(validate_choices(&choices).is_empty());
    let mut dice = TableDice::new(&entered(&[1, 7, 5, 1]), ServerDice::seeded(1)).unwrap();
    let force = generate_by_markers(&choices, &mut dice).unwrap();
    let got: Vec<(Experience, u8, String)> = force
        .units()
        .map(|u| {
            let p = u.fma.as_ref().unwrap();
            (p.experience, p.motivation, u.name.clone())
        })
        .collect();
    use Experience::{Green, Regular, Veteran};
    assert_eq!(
        got,
        vec![
            (Green, 2, "Bravo 1".into()),
            (Regular, 3, "Bravo 2".into()),
            (Veteran, 2, "Bravo 3".into()),
            (Regular, 2, "Bravo 4".into()),
        ]
    );
    assert!(validate_fma(&force).is_ok());
    // Two teams share the pool: the second draws from the 4 markers the first left.
    let two = MarkerChoices {
        teams: vec![team("Bravo", 4), team("Charlie", 4)],
        ..choices.clone()
    };
    let mut server = ServerDice::seeded(3);
    let force = generate_by_markers(&two, &mut server).unwrap();
    assert_eq!(force.units().count(), 8);
    let dice: Vec<String> = server.take_log().iter().map(|r| r.dice.clone()).collect();
    assert_eq!(
        dice,
        ["1d8", "1d7", "1d6", "1d5", "1d4", "1d3", "1d2", "1d1"]
    );
    // Too few markers, a team of none, a repeated name.
    let bad = MarkerChoices {
        teams: vec![team("Bravo", 9)],
        ..choices.clone()
    };
    assert_eq!(validate_choices(&bad)[0].field, "markers");
    let bad = MarkerChoices {
        teams: vec![team("Bravo", 0), team("Bravo", 1)],
        ..choices
    };
    let fields: Vec<String> = validate_choices(&bad)
        .into_iter()
        .map(|p| p.field)
        .collect();
    assert_eq!(fields, ["teams[0].figures", "teams[1].name"]);
}
