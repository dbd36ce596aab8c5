//! The FMA family's post-battle steps: the casualty roll (M4), no quality loss (M5), Motivation
//! change (M6), new figures by team (M7) and the menu (M8), row by row and as the acceptance
//! sequence of docs/rules.md §11.

use super::*;
use crate::campaign::reinforcements::{NewSquad, ReinforcementChoice, TeamAllocation};
use crate::campaign::report::{BattleReport, UnitLosses};
use crate::campaign::resolve_change::RESOLVE_CHANGE;
use crate::campaign::sequence::Aftermath;
use crate::campaign::{Purchase, PurchaseItem, UnitEvent};
use crate::dice::{EnteredDice, RollStep, ServerDice, TableDice};
use crate::house_rules::HouseRules;
use crate::names::Named;
use crate::rulesets::gzg_fma_1999::{
    CASUALTY, Die, FmaArmour, FmaWeapon, RangeBand, Toughness, v1,
};

const F: &str = "force-1";

fn rifle() -> FmaWeapon {
    let band = |inches, firepower| RangeBand { inches, firepower };
    FmaWeapon {
        name: "Assault rifle".into(),
        bands: [band(12, Die::D10), band(24, Die::D8), band(36, Die::D6)],
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
        strength: 1,
        starting_strength: 1,
        ..Unit::default()
    };
    profile.sync_fad_fields(&mut unit);
    unit.fma = Some(profile);
    unit
}

/// Team Bravo: four Veterans, Motivation 1/2/2/3.
fn bravo() -> Force {
    Force {
        name: "Strike force".into(),
        platoons: vec![Platoon {
            name: "Bravo".into(),
            units: vec![
                figure("b1", Experience::Veteran, 1),
                figure("b2", Experience::Veteran, 2),
                figure("b3", Experience::Veteran, 2),
                figure("b4", Experience::Veteran, 3),
            ],
        }],
    }
}

fn down(ids: &[&str]) -> BattleReport {
    BattleReport {
        losses: ids
            .iter()
            .map(|id| UnitLosses {
                unit_id: (*id).into(),
                figures_lost: 1,
                eliminated: false,
                vehicle_damage: None,
                destroyed_on_recon: false,
            })
            .collect(),
    }
}

fn table(values: &[(RollStep, &str, &[u8])]) -> TableDice {
    let mut out = EnteredDice::new();
    for (step, subject, v) in values {
        out.entry(*step)
            .or_default()
            .entry((*subject).to_owned())
            .or_default()
            .extend_from_slice(v);
    }
    TableDice::new(&out, ServerDice::seeded(7)).unwrap()
}

fn start(force: &Force, report: &BattleReport) -> Aftermath {
    Aftermath::start(F, force, report, 0, &HouseRules::default(), &v1()).unwrap()
}

fn due(a: &Aftermath) -> Vec<(RollStep, String, String, Option<String>)> {
    a.next_dice()
        .into_iter()
        .map(|d| (d.step, d.subject, d.dice, d.label))
        .collect()
}

fn motivation(a: &Aftermath, id: &str) -> u8 {
    a.after_rolls
        .unit(id)
        .unwrap()
        .fma
        .as_ref()
        .unwrap()
        .motivation
}

#[test]
fn m4_casualty_rows_one_to_six() {
    let rows: Vec<(UnitStatus, u32, bool)> = (1..=6)
        .map(|d| {
            let mut u = figure("x", Experience::Regular, 2);
            u.strength = 0;
            u.status = UnitStatus::Eliminated;
            apply_casualty(
                &mut u,
                crate::rulesets::gzg_fma_1999::casualty(&CASUALTY, d),
            );
            (u.status, u.strength, u.fma.unwrap().dead)
        })
        .collect();
    let back = (UnitStatus::Active, 1, false);
    let out = (UnitStatus::Eliminated, 0, false);
    let dead = (UnitStatus::Eliminated, 0, true);
    assert_eq!(rows, vec![back, back, out, out, dead, dead]);
}

#[test]
fn m6_motivation_change_rows_on_the_figure_and_its_fad_resolve() {
    use crate::ladder::Resolve;
    let after = |m: u8, d: u8| {
        let mut u = figure("x", Experience::Regular, m);
        let (from, to) = apply_motivation_change(&mut u, &RESOLVE_CHANGE, d).unwrap();
        assert_eq!(from, m);
        (to, u.resolve)
    };
    let got: Vec<u8> = (1..=6).map(|d| after(2, d).0).collect();
    assert_eq!(got, vec![3, 3, 2, 2, 1, 1]);
    let got: Vec<u8> = (1..=6).map(|d| after(1, d).0).collect();
    assert_eq!(got, vec![2, 2, 1, 1, 1, 1]);
    let got: Vec<u8> = (1..=6).map(|d| after(3, d).0).collect();
    assert_eq!(got, vec![3, 3, 3, 3, 2, 2]);
    assert_eq!(after(2, 6).1, Some(Resolve::Determined));
    assert_eq!(after(2, 1).1, Some(Resolve::Uncertain));
}

#[test]
fn m4_m5_m6_acceptance_two_of_four_down() {
    let force = bravo();
    let mut a = start(&force, &down(&["b2", "b3"]));
    let casualty = Some("Casualty".to_owned());
    assert_eq!(
        due(&a),
        vec![
            (
                RollStep::Casualty,
                "b2".into(),
                "1d6".into(),
                casualty.clone()
            ),
            (RollStep::Casualty, "b3".into(), "1d6".into(), casualty),
        ]
    );
    let mut dice = table(&[
        (RollStep::Casualty, "b2", &[2]),
        (RollStep::Casualty, "b3", &[5]),
        (RollStep::ResolveChange, "b1", &[6]),
        (RollStep::ResolveChange, "b2", &[1]),
        (RollStep::ResolveChange, "b4", &[4]),
        (RollStep::Reinforcements, F, &[1, 1]),
    ]);
    a.roll_step(RollStep::Casualty, &mut dice).unwrap();
    let b2 = a.after_rolls.unit("b2").unwrap();
    assert_eq!((b2.status, b2.strength), (UnitStatus::Active, 1));
    let b3 = a.after_rolls.unit("b3").unwrap();
    assert!(b3.fma.as_ref().unwrap().dead);
    // Never replacement, never quality loss: straight to Motivation change.
    let label = Some(MOTIVATION_CHANGE.to_owned());
    assert_eq!(
        due(&a),
        vec![
            (
                RollStep::ResolveChange,
                "b1".into(),
                "1d6".into(),
                label.clone()
            ),
            (
                RollStep::ResolveChange,
                "b2".into(),
                "1d6".into(),
                label.clone()
            ),
            (RollStep::ResolveChange, "b4".into(), "1d6".into(), label),
        ]
    );
    a.roll_step(RollStep::ResolveChange, &mut dice).unwrap();
    assert_eq!(
        (
            motivation(&a, "b1"),
            motivation(&a, "b2"),
            motivation(&a, "b4")
        ),
        (1, 3, 3)
    );
    assert_eq!(a.next_step(), Some(RollStep::Reinforcements));
    a.roll_step(RollStep::Reinforcements, &mut dice).unwrap();
    let steps: Vec<RollStep> = a.rolls.iter().map(|r| r.step).collect();
    assert!(!steps.contains(&RollStep::Replacement));
    assert!(!steps.contains(&RollStep::QualityLoss));
    let events: Vec<UnitEvent> = a
        .roll_events
        .iter()
        .filter(|e| e.unit_id == "b2")
        .map(|e| e.event.clone())
        .collect();
    assert!(events.contains(&UnitEvent::Casualty {
        roll: 2,
        casualty: Casualty::Returns
    }));
    assert!(events.contains(&UnitEvent::MotivationChange {
        roll: 1,
        from: 2,
        to: 3
    }));
    // M8: CP = 2 for one team; improve_motivation on b2 (3 → 2) costs 1 CP.
    assert_eq!(a.cp_available(), 2);
    let mut server = ServerDice::seeded(1);
    a.purchase(
        vec![Purchase::of(PurchaseItem::ImproveResolve, Some("b2"))],
        &mut server,
    )
    .unwrap();
    let out = a.outcome().unwrap();
    assert_eq!(out.campaign_points.spent, 1);
    let b2 = out.roster.unit("b2").unwrap();
    assert_eq!(b2.fma.as_ref().unwrap().motivation, 2);
    // M8: a Veteran is never raised to Elite.
    let refused = a
        .purchase(
            vec![Purchase::of(PurchaseItem::ImproveQuality, Some("b1"))],
            &mut server,
        )
        .unwrap_err();
    assert_eq!(refused[0].field, "purchases[0].unit_id");
    assert!(refused[0].message.contains("M8, 000 l.3141"), "{refused:?}");
    // M7: pool 1 + 1 = 2 figures; one joins Bravo (3 → 4), a second is refused.
    let two = ReinforcementChoice {
        teams: vec![TeamAllocation {
            team: crate::campaign::PlatoonRef::Name("Bravo".into()),
            figures: 2,
        }],
        ..ReinforcementChoice::default()
    };
    let refused = a.reinforce(two).unwrap_err();
    assert_eq!(refused[0].field, "teams[0].figures");
    assert!(
        refused[0].message.contains("3 of its starting 4"),
        "{refused:?}"
    );
    let one = ReinforcementChoice {
        teams: vec![TeamAllocation {
            team: crate::campaign::PlatoonRef::Index(0),
            figures: 1,
        }],
        ..ReinforcementChoice::default()
    };
    a.reinforce(one).unwrap();
    let out = a.finalize().unwrap();
    assert_eq!(
        (
            out.reinforcements.total,
            out.reinforcements.allocated,
            out.reinforcements.lost
        ),
        (2, 1, 1)
    );
    let team = &out.roster.platoons[0];
    assert_eq!(team_size(team), (4, 4));
    let recruit = team.units.last().unwrap();
    let profile = recruit.fma.as_ref().unwrap();
    assert_eq!(
        (
            profile.experience,
            profile.quality_die(),
            profile.motivation
        ),
        (Experience::Green, Die::D6, 3)
    );
    assert_eq!(profile.weapons, vec![rifle()]);
    assert!(
        out.roster
            .unit("b3")
            .unwrap()
            .fma
            .as_ref()
            .unwrap()
            .replaced
    );
    assert!(crate::rulesets::gzg_fma_1999::validate_fma(&out.roster).is_ok());
}

#[test]
fn m4_m8_an_out_figure_returns_for_one_cp_a_dead_one_never() {
    let force = bravo();
    let mut a = start(&force, &down(&["b2", "b3"]));
    let mut dice = table(&[
        (RollStep::Casualty, "b2", &[3]),
        (RollStep::Casualty, "b3", &[5]),
    ]);
    a.roll_remaining(&mut dice).unwrap();
    assert_eq!(
        a.after_rolls.unit("b2").unwrap().status,
        UnitStatus::Eliminated
    );
    let mut server = ServerDice::seeded(1);
    a.purchase(
        vec![Purchase::of(PurchaseItem::ReturnLoneFigure, Some("b2"))],
        &mut server,
    )
    .unwrap();
    let out = a.outcome().unwrap();
    assert_eq!(out.campaign_points.spent, 1);
    let b2 = out.roster.unit("b2").unwrap();
    assert_eq!((b2.status, b2.strength), (UnitStatus::Active, 1));
    let refused = a
        .purchase(
            vec![Purchase::of(PurchaseItem::ReturnLoneFigure, Some("b3"))],
            &mut server,
        )
        .unwrap_err();
    assert_eq!(refused[0].field, "purchases[0].unit_id");
    assert!(refused[0].message.contains("dead"), "{refused:?}");
}

#[test]
fn m6_an_out_figure_and_a_team_without_losses_roll_nothing() {
    let mut force = bravo();
    force.platoons.push(Platoon {
        name: "Charlie".into(),
        units: vec![figure("c1", Experience::Regular, 2)],
    });
    let mut a = start(&force, &down(&["b1"]));
    let mut dice = table(&[(RollStep::Casualty, "b1", &[4])]);
    a.roll_step(RollStep::Casualty, &mut dice).unwrap();
    let subjects: Vec<String> = a.next_dice().into_iter().map(|d| d.subject).collect();
    assert_eq!(subjects, vec!["b2", "b3", "b4"]);
    assert_eq!(a.cp_available(), 4);
}

#[test]
fn m8_improve_experience_one_grade_and_motivation_stops_at_one() {
    let mut u = figure("x", Experience::Green, 1);
    improve_experience(&mut u).unwrap();
    assert_eq!(u.fma.as_ref().unwrap().experience, Experience::Regular);
    improve_experience(&mut u).unwrap();
    assert_eq!(u.fma.as_ref().unwrap().experience, Experience::Veteran);
    assert!(improve_experience(&mut u).unwrap_err().contains("Elite"));
    assert!(
        improve_motivation(&mut u)
            .unwrap_err()
            .contains("already 1")
    );
    assert_eq!(
        PurchaseItem::read("improve_experience"),
        Ok(PurchaseItem::ImproveQuality)
    );
    assert_eq!(
        PurchaseItem::read("improve_motivation"),
        Ok(PurchaseItem::ImproveResolve)
    );
    let bought: Purchase =
        serde_json::from_str(r#"{"item": "improve_motivation", "unit_id": "x"}"#).unwrap();
    assert_eq!(bought.item, PurchaseItem::ImproveResolve);
    assert!(PurchaseItem::read("improve_luck").is_err());
}

#[test]
fn m7_a_new_team_needs_five_to_eight_figures() {
    let force = bravo();
    let mut a = start(&force, &down(&[]));
    let mut dice = table(&[(RollStep::Reinforcements, F, &[3, 4])]);
    a.roll_remaining(&mut dice).unwrap();
    let team = |n| ReinforcementChoice {
        new_squad: Some(NewSquad {
            name: "Delta".into(),
            troopers: n,
            platoon: None,
            id: None,
            modelled_on: None,
        }),
        ..ReinforcementChoice::default()
    };
    let refused = a.reinforce(team(4)).unwrap_err();
    assert_eq!(refused[0].field, "new_squad.troopers");
    // A full team has no room either.
    let full = ReinforcementChoice {
        teams: vec![TeamAllocation {
            team: crate::campaign::PlatoonRef::Index(0),
            figures: 1,
        }],
        ..ReinforcementChoice::default()
    };
    assert_eq!(a.reinforce(full).unwrap_err()[0].field, "teams[0].figures");
    a.reinforce(team(6)).unwrap();
    let out = a.finalize().unwrap();
    assert_eq!(
        (out.reinforcements.new_squad, out.reinforcements.lost),
        (6, 1)
    );
    let delta = &out.roster.platoons[1];
    assert_eq!((delta.name.as_str(), delta.units.len()), ("Delta", 6));
    assert!(crate::rulesets::gzg_fma_1999::validate_fma(&out.roster).is_ok());
}

#[test]
fn fad5e_sequences_never_roll_the_casualty_step() {
    use crate::campaign::testkit::{force_of, squad};
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let a = Aftermath::start(
        F,
        &roster,
        &BattleReport {
            losses: vec![UnitLosses {
                unit_id: "s".into(),
                figures_lost: 2,
                eliminated: false,
                vehicle_damage: None,
                destroyed_on_recon: false,
            }],
        },
        0,
        &HouseRules::default(),
        &crate::rulesets::Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(a.next_step(), Some(RollStep::Replacement));
    assert!(a.due(RollStep::Casualty).is_empty());
    assert!(a.next_dice().iter().all(|d| d.label.is_none()));
    assert_eq!(RollStep::Casualty.name(), "casualty");
}
