//! End-to-end tests of the post-battle sequence: the docs/rules.md §2.3 worked example, the settled
//! readings that span several steps, redo semantics, entered dice, and the invariants.

use proptest::prelude::*;

use super::experience::PurchaseItem;
use super::reinforcements::{Allocation, NewSquad, ReinforcementChoice};
use super::report::{BattleReport, UnitLosses, VehicleDamage};
use super::sequence::{Aftermath, Choices, Outcome, post_battle_sequence, roll_subject_allowed};
use super::testkit::{character, force_of, squad, vehicle, with_kind};
use super::{Purchase, UnitEvent};
use crate::dice::{Dice, EnteredDice, RollLog, RollSource, RollStep, ServerDice, TableDice};
use crate::house_rules::HouseRules;
use crate::kit::VehicleState;
use crate::ladder::{Ladder, Quality, Resolve};
use crate::names::Named;
use crate::roster::{Force, UnitKind, UnitStatus};
use crate::rulesets::Ruleset;
use crate::traits::Trait;

const F: &str = "force-1";

fn entered(values: &[(RollStep, &str, &[u8])]) -> EnteredDice {
    let mut out = EnteredDice::new();
    for (step, subject, v) in values {
        out.entry(*step)
            .or_default()
            .entry((*subject).to_owned())
            .or_default()
            .extend_from_slice(v);
    }
    out
}

fn table(values: &[(RollStep, &str, &[u8])]) -> TableDice {
    TableDice::new(&entered(values), ServerDice::seeded(99)).unwrap()
}

fn lost(unit: &str, figures: u32) -> UnitLosses {
    UnitLosses {
        unit_id: unit.into(),
        figures_lost: figures,
        eliminated: false,
        vehicle_damage: None,
        destroyed_on_recon: false,
    }
}

fn report(lines: Vec<UnitLosses>) -> BattleReport {
    BattleReport { losses: lines }
}

fn steps(log: &RollLog) -> Vec<(RollStep, String, Vec<u8>)> {
    log.iter()
        .map(|r| (r.step, r.subject.clone(), r.values.clone()))
        .collect()
}

fn log_as_entered(log: &RollLog) -> EnteredDice {
    let mut out = EnteredDice::new();
    for r in log {
        out.entry(r.step)
            .or_default()
            .entry(r.subject.clone())
            .or_default()
            .extend_from_slice(&r.values);
    }
    out
}

#[test]
fn rules_2_3_worked_example_squad_of_eight_loses_five() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[4]),
        (RollStep::QualityLoss, "s", &[1]), // 2·3 = 6 < 8: never called for
        (RollStep::ResolveChange, "s", &[6]),
        (RollStep::Reinforcements, F, &[3, 4]),
    ]);
    let mut a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("s", 5)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let s = a.after_rolls.unit("s").unwrap();
    assert_eq!(s.strength, 6); // step 1: ceil(5/2) = 3 replaced
    assert_eq!(s.quality, Quality::Regular); // step 3: no roll
    assert_eq!(s.resolve, Some(Resolve::Determined)); // step 4: rolled 6
    assert_eq!(a.pool_total(), 7); // step 5
    assert_eq!(a.cp_earned, 2); // step 6: one platoon
    assert_eq!(
        steps(&a.rolls),
        [
            (RollStep::Replacement, "s".into(), vec![4]),
            (RollStep::ResolveChange, "s".into(), vec![6]),
            (RollStep::Reinforcements, F.into(), vec![3, 4]),
        ]
    );
    assert!(a.rolls.iter().all(|r| r.source == RollSource::Player));
    assert_eq!(
        dice.unused(),
        entered(&[(RollStep::QualityLoss, "s", &[1])])
    );

    // Two troopers go to the squad (cap E = 8), five form a new Conscript/Uncertain squad.
    let three = ReinforcementChoice {
        teams: Vec::new(),
        allocations: vec![Allocation {
            unit_id: "s".into(),
            troopers: 3,
        }],
        new_squad: None,
    };
    let errors = a.reinforce(three).unwrap_err();
    assert!(errors[0].message.contains("C9"));
    a.reinforce(ReinforcementChoice {
        teams: Vec::new(),
        allocations: vec![Allocation {
            unit_id: "s".into(),
            troopers: 2,
        }],
        new_squad: Some(NewSquad {
            name: "Fresh".into(),
            troopers: 5,
            platoon: None,
            id: None,
            modelled_on: None,
        }),
    })
    .unwrap();
    let out = a.finalize().unwrap();
    assert_eq!(out.roster.unit("s").unwrap().strength, 8);
    let n = out.roster.unit("force-1-squad-1").unwrap();
    assert_eq!(
        (n.strength, n.starting_strength, n.quality, n.resolve),
        (5, 5, Quality::Conscript, Some(Resolve::Uncertain))
    );
    assert_eq!(
        (
            out.reinforcements.total,
            out.reinforcements.allocated,
            out.reinforcements.new_squad,
            out.reinforcements.lost
        ),
        (7, 2, 5, 0)
    );
    let change = &out.changes[0];
    assert_eq!(change.unit_id, "s");
    assert_eq!(change.before.as_ref().unwrap().strength, 8);
    assert_eq!(change.after.strength, 8);
    assert_eq!(
        change.events,
        [
            UnitEvent::Losses {
                figures: 5,
                vehicle_damage: None
            },
            UnitEvent::Replacements {
                roll: 4,
                figures: 3
            },
            UnitEvent::ResolveChange {
                roll: 6,
                from: Resolve::Steady,
                to: Resolve::Determined
            },
            UnitEvent::Reinforced { troopers: 2 },
        ]
    );
    assert!(out.changes[1].before.is_none());
    assert_eq!(out.campaign_points.balance, 2);
}

#[test]
fn rules_2_3_worked_example_wiped_out_squad_comes_back_with_four_and_rolls_quality() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let mut wiped = lost("s", 0);
    wiped.eliminated = true;
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[2]),
        (RollStep::ResolveChange, "s", &[3]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![wiped]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let s = a.after_rolls.unit("s").unwrap();
    assert_eq!((s.strength, s.status), (4, UnitStatus::Active)); // C4
    assert_eq!(s.quality, Quality::Conscript); // C7: 2·4 ≥ 8, rolled 2
    assert_eq!(s.resolve, Some(Resolve::Steady));
    assert!(dice.unused().is_empty());
}

#[test]
fn c2_recon_unit_destroyed_by_ambush_loses_all_figures() {
    let roster = force_of(vec![vec![squad("r", 6)]]);
    let mut line = lost("r", 0);
    line.destroyed_on_recon = true;
    let mut dice = table(&[(RollStep::Replacement, "r", &[1])]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(
        a.roll_events[0].event,
        UnitEvent::Losses {
            figures: 6,
            vehicle_damage: None
        }
    );
    let r = a.after_rolls.unit("r").unwrap();
    assert_eq!((r.strength, r.status), (0, UnitStatus::Eliminated)); // C6
}

#[test]
fn c2_units_without_losses_make_no_rolls() {
    let roster = force_of(vec![vec![squad("a", 8), squad("b", 8)]]);
    let mut dice = ServerDice::seeded(1);
    let a = Aftermath::roll(
        F,
        &roster,
        &BattleReport::default(),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(steps(&a.rolls).len(), 1); // only the pool
    assert_eq!(a.after_rolls, roster);
}

#[test]
fn c6_eliminated_unit_stays_on_the_roster_keeps_its_ratings_and_skips_resolve() {
    let mut s = squad("s", 6);
    s.quality = Quality::Elite;
    let roster = force_of(vec![vec![s]]);
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[2]),
        (RollStep::ResolveChange, "s", &[6]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("s", 6)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let s = a.after_rolls.unit("s").unwrap();
    assert_eq!((s.strength, s.status), (0, UnitStatus::Eliminated));
    assert_eq!((s.quality, s.starting_strength), (Quality::Elite, 6));
    assert_eq!(
        dice.unused(),
        entered(&[(RollStep::ResolveChange, "s", &[6])])
    );
}

#[test]
fn c5_lone_figure_failed_roll_then_returned_for_one_cp() {
    let roster = force_of(vec![vec![character("c"), squad("s", 8)]]);
    let mut dice = table(&[
        (RollStep::Replacement, "c", &[4]),
        (RollStep::QualityLoss, "c", &[1]),
        (RollStep::ResolveChange, "c", &[6]),
        (RollStep::Reinforcements, F, &[1, 1]),
    ]);
    let mut a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("c", 1)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(
        a.after_rolls.unit("c").unwrap().status,
        UnitStatus::Eliminated
    );
    assert_eq!(dice.unused().len(), 2); // no quality or resolve roll for an absent figure
    a.purchase(
        vec![Purchase::of(PurchaseItem::ReturnLoneFigure, Some("c"))],
        &mut dice,
    )
    .unwrap();
    let out = a.finalize().unwrap();
    let c = out.roster.unit("c").unwrap();
    assert_eq!((c.strength, c.status), (1, UnitStatus::Active));
    assert_eq!(out.campaign_points.spent, 1);
}

#[test]
fn c5_c7_lone_figure_returned_by_the_roll_then_makes_the_quality_roll() {
    let roster = force_of(vec![vec![character("c")]]);
    let mut dice = table(&[
        (RollStep::Replacement, "c", &[5]),
        (RollStep::QualityLoss, "c", &[3]),
        (RollStep::ResolveChange, "c", &[4]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("c", 1)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(a.after_rolls.unit("c").unwrap().strength, 1);
    assert!(dice.unused().is_empty());
}

#[test]
fn c7_c16_destroyed_vehicle_replaced_by_the_roll_rolls_quality_and_c15_no_resolve() {
    let roster = force_of(vec![vec![vehicle("v")]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Destroyed);
    let mut dice = table(&[
        (RollStep::VehicleReplacement, "v", &[5]),
        (RollStep::QualityLoss, "v", &[1]),
        (RollStep::ResolveChange, "v", &[6]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let v = a.after_rolls.unit("v").unwrap();
    assert_eq!(v.vehicle_state, Some(VehicleState::Operational));
    assert_eq!(v.status, UnitStatus::Active);
    assert_eq!(v.quality, Quality::Conscript);
    assert_eq!(
        dice.unused(),
        entered(&[(RollStep::ResolveChange, "v", &[6])])
    );
}

#[test]
fn c7_repaired_vehicle_makes_no_quality_roll_and_c15_crew_with_resolve_rolls() {
    let mut v = vehicle("v");
    v.resolve = Some(Resolve::Steady);
    let roster = force_of(vec![vec![v]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Damaged);
    let mut dice = table(&[
        (RollStep::VehicleReplacement, "v", &[3]),
        (RollStep::QualityLoss, "v", &[1]),
        (RollStep::ResolveChange, "v", &[1]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let v = a.after_rolls.unit("v").unwrap();
    assert_eq!(v.vehicle_state, Some(VehicleState::Operational));
    assert_eq!(v.quality, Quality::Regular);
    assert_eq!(v.resolve, Some(Resolve::Uncertain));
    assert_eq!(
        dice.unused(),
        entered(&[(RollStep::QualityLoss, "v", &[1])])
    );
}

#[test]
fn c16_unrepaired_damaged_vehicle_rolls_again_after_the_next_battle() {
    let roster = force_of(vec![vec![vehicle("v")]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Damaged);
    let rules = HouseRules::default();
    let mut dice = table(&[(RollStep::VehicleReplacement, "v", &[2])]);
    let first = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut dice,
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    let after = first.finalize().unwrap().roster;
    assert_eq!(
        after.unit("v").unwrap().vehicle_state,
        Some(VehicleState::Damaged)
    );
    // Next battle: not fielded, no new damage, but it rolls again.
    let mut dice = table(&[(RollStep::VehicleReplacement, "v", &[4])]);
    let second = Aftermath::roll(
        F,
        &after,
        &BattleReport::default(),
        0,
        &mut dice,
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(
        second.after_rolls.unit("v").unwrap().vehicle_state,
        Some(VehicleState::Operational)
    );
    assert!(dice.unused().is_empty());
}

#[test]
fn c16_destroyed_vehicle_not_replaced_is_eliminated_and_does_not_roll_again() {
    let roster = force_of(vec![vec![vehicle("v")]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Destroyed);
    let rules = HouseRules::default();
    let mut dice = table(&[(RollStep::VehicleReplacement, "v", &[4])]);
    let first = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut dice,
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    let after = first.finalize().unwrap().roster;
    let v = after.unit("v").unwrap();
    assert_eq!(
        (v.status, v.vehicle_state),
        (UnitStatus::Eliminated, Some(VehicleState::Destroyed))
    );
    let mut dice = ServerDice::seeded(3);
    let second = Aftermath::roll(
        F,
        &after,
        &BattleReport::default(),
        0,
        &mut dice,
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert!(
        second
            .rolls
            .iter()
            .all(|r| r.step != RollStep::VehicleReplacement)
    );
}

fn destroyed_vehicle_aftermath() -> Aftermath {
    let roster = force_of(vec![vec![vehicle("v"), squad("s", 8)]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Destroyed);
    let mut dice = table(&[
        (RollStep::VehicleReplacement, "v", &[1]),
        (RollStep::Reinforcements, F, &[2, 2]),
    ]);
    Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        3,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap()
}

#[test]
fn c7_vehicle_replaced_for_two_cp_rolls_quality_once_and_keeps_it_across_redos() {
    let mut a = destroyed_vehicle_aftermath();
    let replace = Purchase::of(PurchaseItem::ReplaceVehicle, Some("v"));
    let mut dice = table(&[(RollStep::QualityLoss, "v", &[2])]);
    a.purchase(vec![replace.clone()], &mut dice).unwrap();
    assert_eq!(
        a.finalize().unwrap().roster.unit("v").unwrap().quality,
        Quality::Conscript
    );
    // Dropped, then bought again with other dice: the kept roll is reused, nothing is rolled.
    a.purchase(vec![], &mut ServerDice::seeded(5)).unwrap();
    let v = a.finalize().unwrap().roster.unit("v").unwrap().clone();
    assert_eq!(
        (v.status, v.quality),
        (UnitStatus::Eliminated, Quality::Regular)
    );
    let mut other = table(&[(RollStep::QualityLoss, "v", &[6])]);
    a.purchase(vec![replace], &mut other).unwrap();
    assert_eq!(
        a.finalize().unwrap().roster.unit("v").unwrap().quality,
        Quality::Conscript
    );
    assert_eq!(other.unused().len(), 1);
    let quality_rolls = a
        .rolls
        .iter()
        .filter(|r| r.step == RollStep::QualityLoss)
        .count();
    assert_eq!(quality_rolls, 1);
}

#[test]
fn c11_extra_dice_join_the_pool_and_are_never_rolled_again_on_redo() {
    let mut a = destroyed_vehicle_aftermath(); // pool 2 + 2 = 4, 3 + 2 CP available
    let die = Purchase::of(PurchaseItem::ExtraReinforcementDie, None);
    let mut dice = table(&[(RollStep::ReinforcementsExtra, F, &[6, 5, 4, 3])]);
    a.purchase(vec![die.clone(), die.clone(), die.clone()], &mut dice)
        .unwrap();
    assert_eq!(a.pool_total(), 4 + 6 + 5 + 4);
    a.purchase(vec![die.clone()], &mut dice).unwrap();
    assert_eq!(a.pool_total(), 4 + 6); // fewer: the surplus leaves the pool
    a.purchase(vec![die.clone(); 4], &mut dice).unwrap();
    assert_eq!(a.pool_total(), 4 + 6 + 5 + 4 + 3); // more: only the fourth is new
    let extra: Vec<u8> = a
        .rolls
        .iter()
        .filter(|r| r.step == RollStep::ReinforcementsExtra)
        .flat_map(|r| r.values.clone())
        .collect();
    assert_eq!(extra, [6, 5, 4, 3]);
    assert!(dice.unused().is_empty());
    let out = a.finalize().unwrap();
    assert_eq!(out.reinforcements.extra_dice, [6, 5, 4, 3]);
    assert_eq!(out.campaign_points.spent, 4);
}

#[test]
fn c11_allocation_is_kept_while_it_fits_and_cleared_when_the_pool_shrinks() {
    let mut a = destroyed_vehicle_aftermath();
    let mut s = a.after_rolls.clone();
    s.unit_mut("s").unwrap().strength = 2;
    a.after_rolls = s;
    let die = Purchase::of(PurchaseItem::ExtraReinforcementDie, None);
    let mut dice = table(&[(RollStep::ReinforcementsExtra, F, &[6, 1])]);
    a.purchase(vec![die.clone()], &mut dice).unwrap();
    let six = ReinforcementChoice {
        teams: Vec::new(),
        allocations: vec![Allocation {
            unit_id: "s".into(),
            troopers: 6,
        }],
        new_squad: None,
    };
    a.reinforce(six.clone()).unwrap();
    a.purchase(vec![die.clone(), die], &mut dice).unwrap();
    assert_eq!(a.reinforcements, Some(six));
    a.purchase(vec![], &mut dice).unwrap();
    assert_eq!(a.reinforcements, None);
}

#[test]
fn a_refused_purchase_changes_nothing_and_rolls_nothing() {
    let mut a = destroyed_vehicle_aftermath();
    let before = a.clone();
    let mut dice = ServerDice::seeded(8);
    let errors = a
        .purchase(
            vec![
                Purchase::of(PurchaseItem::ExtraReinforcementDie, None),
                Purchase::of(PurchaseItem::ReplaceVehicle, Some("v")),
                Purchase::of(PurchaseItem::ImproveQuality, Some("nobody")),
            ],
            &mut dice,
        )
        .unwrap_err();
    assert_eq!(errors[0].field, "purchases[2].unit_id");
    assert_eq!(a, before);
    assert!(dice.log().is_empty());
}

#[test]
fn c13_unspent_points_are_banked_by_default_and_forfeited_under_the_house_rule() {
    let roster = force_of(vec![vec![squad("a", 8)], vec![squad("b", 8)]]);
    let choices = Choices {
        purchases: vec![Purchase::of(PurchaseItem::ImproveResolve, Some("a"))],
        ..Choices::default()
    };
    let run = |rules: HouseRules| {
        post_battle_sequence(
            F,
            &roster,
            &BattleReport::default(),
            5,
            &choices,
            &mut ServerDice::seeded(1),
            &rules,
            &Ruleset::fad5e(),
        )
        .unwrap()
        .campaign_points
    };
    let banked = run(HouseRules::default());
    assert_eq!(
        (
            banked.banked_before,
            banked.earned,
            banked.spent,
            banked.balance,
            banked.forfeited
        ),
        (5, 4, 1, 8, 0)
    );
    let lost = run(HouseRules {
        bank_campaign_points: false,
        ..HouseRules::default()
    });
    assert_eq!((lost.balance, lost.forfeited), (0, 8));
}

#[test]
fn c12_campaign_points_count_platoons_at_the_start_of_the_battle() {
    let roster = force_of(vec![
        vec![squad("a", 8)],
        vec![squad("b", 8)],
        vec![squad("c", 8)],
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("c", 8)]),
        0,
        &mut ServerDice::seeded(2),
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(a.cp_earned, 6);
}

#[test]
fn c17_fanatic_squad_skips_the_resolve_roll_in_the_sequence() {
    let mut s = squad("s", 8);
    s.traits = vec![Trait::Fanatic];
    let roster = force_of(vec![vec![s]]);
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[6]),
        (RollStep::QualityLoss, "s", &[6]),
        (RollStep::ResolveChange, "s", &[1]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("s", 2)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(
        a.after_rolls.unit("s").unwrap().resolve,
        Some(Resolve::Steady)
    );
    assert_eq!(dice.unused().len(), 2); // 2·2 < 8: no quality roll either
}

#[test]
fn c10_c24_reinforcements_take_the_units_ratings_and_kit() {
    let mut s = squad("s", 8);
    s.quality = Quality::Elite;
    s.resolve = Some(Resolve::Reluctant);
    let roster = force_of(vec![vec![s.clone()]]);
    let choices = Choices {
        purchases: vec![],
        reinforcements: ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![Allocation {
                unit_id: "s".into(),
                troopers: 2,
            }],
            new_squad: None,
        },
    };
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[1]),
        (RollStep::ResolveChange, "s", &[3]),
        (RollStep::Reinforcements, F, &[1, 1]),
    ]);
    let out = post_battle_sequence(
        F,
        &roster,
        &report(vec![lost("s", 3)]),
        0,
        &choices,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let after = out.roster.unit("s").unwrap();
    assert_eq!(after.strength, 7);
    assert_eq!(
        (
            after.quality,
            after.resolve,
            after.armour,
            after.basic_weapon
        ),
        (s.quality, s.resolve, s.armour, s.basic_weapon)
    );
}

#[test]
fn battle_report_problems_are_all_reported_with_their_paths() {
    let roster = force_of(vec![vec![squad("s", 8), squad("t", 8), vehicle("v")]]);
    let mut damaged_squad = lost("t", 1);
    damaged_squad.vehicle_damage = Some(VehicleDamage::Damaged);
    let errors = Aftermath::roll(
        F,
        &roster,
        &report(vec![
            lost("nobody", 1),
            lost("s", 9),
            damaged_squad,
            lost("v", 4),
            lost("v", 3),
        ]),
        0,
        &mut ServerDice::seeded(1),
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap_err();
    let fields: Vec<&str> = errors.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "losses[0].unit_id",
            "losses[1].figures_lost",
            "losses[2].vehicle_damage",
            "losses[3].figures_lost",
            "losses[4].unit_id"
        ]
    );
}

#[test]
fn c22_entered_dice_out_of_count_surface_as_problems_and_subjects_are_checked() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let mut dice = table(&[(RollStep::Reinforcements, F, &[3])]);
    let errors = Aftermath::roll(
        F,
        &roster,
        &BattleReport::default(),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap_err();
    assert_eq!(errors[0].field, format!("dice.reinforcements.{F}"));
    assert!(roll_subject_allowed(F, &roster, RollStep::Replacement, "s"));
    assert!(!roll_subject_allowed(
        F,
        &roster,
        RollStep::Replacement,
        "x"
    ));
    assert!(roll_subject_allowed(
        F,
        &roster,
        RollStep::ReinforcementsExtra,
        F
    ));
    assert!(!roll_subject_allowed(
        F,
        &roster,
        RollStep::Reinforcements,
        "s"
    ));
    assert!(!roll_subject_allowed(F, &roster, RollStep::Mission, "hold"));
}

#[test]
fn state_and_outcome_round_trip_through_json() {
    let mut a = destroyed_vehicle_aftermath();
    a.purchase(
        vec![
            Purchase::of(PurchaseItem::ReplaceVehicle, Some("v")),
            Purchase {
                trait_: Some(Trait::Tough),
                ..Purchase::of(PurchaseItem::AssignTrait, Some("s"))
            },
        ],
        &mut ServerDice::seeded(4),
    )
    .unwrap();
    let json = serde_json::to_string(&a).unwrap();
    let back: Aftermath = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    let out = a.finalize().unwrap();
    let value = serde_json::to_value(&out).unwrap();
    assert_eq!(value["purchases"][1]["trait"], "tough");
    assert_eq!(value["purchases"][1]["cost"], 2);
    assert_eq!(value["changes"][0]["events"][0]["event"], "losses");
    let back: Outcome = serde_json::from_value(value).unwrap();
    assert_eq!(back, out);
    let choices: Choices = serde_json::from_str(
        r#"{"purchases": [{"item": "grant_personality", "unit_id": "s", "personality": "medic"}],
            "allocations": [{"unit_id": "s", "troopers": 1}],
            "new_squad": {"name": "New", "troopers": 5, "platoon": "Platoon 0"}}"#,
    )
    .unwrap();
    assert_eq!(choices.reinforcements.allocations.len(), 1);
}

#[test]
fn c3_house_rule_half_of_their_strength_is_the_battle_start_strength_for_quality_loss() {
    // E = 10, six figures at the start, all six lost, rolled 3: three come back either way.
    let mut s = squad("s", 10);
    s.strength = 6;
    let roster = force_of(vec![vec![s]]);
    let values: &[(RollStep, &str, &[u8])] = &[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[1]),
        (RollStep::ResolveChange, "s", &[3]),
    ];
    let run = |rules: HouseRules| {
        let mut dice = table(values);
        let a = Aftermath::roll(
            F,
            &roster,
            &report(vec![lost("s", 6)]),
            0,
            &mut dice,
            &rules,
            &Ruleset::fad5e(),
        )
        .unwrap();
        (a.after_rolls.unit("s").unwrap().clone(), dice.unused())
    };
    let (settled, unused) = run(HouseRules::default());
    assert_eq!((settled.strength, settled.quality), (3, Quality::Regular)); // 2·3 < E = 10
    assert_eq!(unused, entered(&[(RollStep::QualityLoss, "s", &[1])]));
    let (house, unused) = run(HouseRules {
        full_strength: crate::house_rules::FullStrength::BattleStart,
        ..HouseRules::default()
    });
    assert_eq!((house.strength, house.quality), (3, Quality::Conscript)); // 2·3 ≥ 6
    assert!(unused.is_empty());
}

#[test]
fn c16_damage_reported_for_a_vehicle_eliminated_before_the_battle_is_refused() {
    let mut v = vehicle("v");
    v.status = UnitStatus::Eliminated;
    v.vehicle_state = Some(VehicleState::Destroyed);
    let roster = force_of(vec![vec![v]]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Destroyed);
    let errors = Aftermath::roll(
        F,
        &roster,
        &report(vec![line]),
        0,
        &mut ServerDice::seeded(1),
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap_err();
    assert_eq!(errors[0].field, "losses[0].vehicle_damage");
}

#[test]
fn c2_c4_c16_contradictory_loss_lines_are_refused_each_at_its_field() {
    use super::report::check_report;
    let roster = force_of(vec![vec![squad("s", 8), squad("t", 6), vehicle("v")]]);
    let wiped = |unit: &str, figures: u32| UnitLosses {
        eliminated: true,
        ..lost(unit, figures)
    };
    let damaged = |unit: &str| UnitLosses {
        vehicle_damage: Some(VehicleDamage::Damaged),
        ..lost(unit, 0)
    };
    let cases: Vec<(UnitLosses, &str)> = vec![
        // Eliminated with fewer figures than the unit had (C4: L is every figure).
        (wiped("s", 5), "losses[0].figures_lost"),
        // Destroyed on recon likewise (C2).
        (
            UnitLosses {
                destroyed_on_recon: true,
                ..lost("s", 3)
            },
            "losses[0].figures_lost",
        ),
        // More than it had.
        (lost("t", 7), "losses[0].figures_lost"),
        // Vehicle damage on a foot unit.
        (damaged("s"), "losses[0].vehicle_damage"),
        // An eliminated vehicle is destroyed, not damaged (C16).
        (
            UnitLosses {
                eliminated: true,
                ..damaged("v")
            },
            "losses[0].vehicle_damage",
        ),
    ];
    for (line, field) in cases {
        let problems = check_report(&roster, &report(vec![line.clone()])).unwrap_err();
        assert_eq!(problems.len(), 1, "{line:?}");
        assert_eq!(problems[0].field, field, "{line:?}");
    }
    // Consistent lines pass: all 8 of an eliminated squad, a destroyed eliminated vehicle with
    // crew losses, a wiped-out squad's figures given exactly.
    let ok = check_report(
        &roster,
        &report(vec![
            wiped("s", 8),
            lost("t", 6),
            UnitLosses {
                eliminated: true,
                vehicle_damage: Some(VehicleDamage::Destroyed),
                ..lost("v", 1)
            },
        ]),
    )
    .unwrap();
    assert_eq!(ok["s"].figures, 8);
    // A count left out (0) of a wiped-out unit means all of them.
    let all = check_report(&roster, &report(vec![wiped("t", 0)])).unwrap();
    assert_eq!(all["t"].figures, 6);
    assert_eq!(ok["t"].figures, 6);
    assert_eq!(ok["v"].vehicle_damage, Some(VehicleDamage::Destroyed));
}

#[test]
fn c20_the_battle_result_is_no_input_and_has_no_effect() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let win: BattleReport = serde_json::from_str(
        r#"{"outcome": "win", "losses": [{"unit_id": "s", "figures_lost": 3}]}"#,
    )
    .unwrap();
    let loss: BattleReport = serde_json::from_str(
        r#"{"outcome": "loss", "losses": [{"unit_id": "s", "figures_lost": 3}]}"#,
    )
    .unwrap();
    assert_eq!(win, loss);
    let rules = HouseRules::default();
    let a = Aftermath::roll(
        F,
        &roster,
        &win,
        0,
        &mut ServerDice::seeded(6),
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    let b = Aftermath::roll(
        F,
        &roster,
        &loss,
        0,
        &mut ServerDice::seeded(6),
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();
    assert_eq!(a, b);
}

#[test]
fn c21_mission_bonus_units_are_not_on_the_roster_and_get_no_replacement_roll() {
    // The bonus sniper of a Strike mission is battle-only: reporting its loss is refused, and
    // nothing is rolled or written.
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let mut dice = ServerDice::seeded(1);
    let errors = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("bonus-sniper", 1)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap_err();
    assert_eq!(errors[0].field, "losses[0].unit_id");
    assert!(dice.log().is_empty());
}

#[test]
fn c22_rolls_not_entered_are_made_by_the_server_and_logged() {
    let roster = force_of(vec![vec![squad("a", 8), squad("b", 8)]]);
    let mut dice = table(&[(RollStep::Replacement, "a", &[2])]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("a", 2), lost("b", 2)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    let sources: Vec<(RollStep, &str, RollSource)> = a
        .rolls
        .iter()
        .map(|r| (r.step, r.subject.as_str(), r.source))
        .collect();
    assert_eq!(sources[0], (RollStep::Replacement, "a", RollSource::Player));
    assert_eq!(sources[1], (RollStep::Replacement, "b", RollSource::Server));
    assert!(a.rolls.iter().all(|r| r.force_id.as_deref() == Some(F)));
    assert_eq!(
        a.rolls.last().map(|r| (r.step, r.dice.as_str())),
        Some((RollStep::Reinforcements, "2d6"))
    );
}

// ---- Property tests -------------------------------------------------------------------------

fn arb_unit(i: usize) -> impl Strategy<Value = crate::roster::Unit> {
    (
        0..6u8,
        0..4usize,
        0..4usize,
        1..11u32,
        0..11u32,
        any::<bool>(),
    )
        .prop_map(move |(kind, q, r, e, cur, fanatic)| {
            let id = format!("u{i}");
            let mut u = match kind {
                0 => character(&id),
                1 => {
                    let mut v = vehicle(&id);
                    v.vehicle_state = Some(
                        [VehicleState::Operational, VehicleState::Damaged]
                            [usize::from(cur % 2 == 1)],
                    );
                    v
                }
                2 => with_kind(squad(&id, e.min(3)), UnitKind::WeaponsTeam),
                _ => squad(&id, e),
            };
            u.quality = Quality::at(q);
            if u.resolve.is_some() {
                u.resolve = Some(Resolve::at(r));
            }
            if fanatic && u.kind == UnitKind::Squad {
                u.traits = vec![Trait::Fanatic];
                u.resolve = Some(Resolve::Steady);
            }
            if u.kind != UnitKind::Vehicle {
                u.strength = cur.min(u.starting_strength);
                if u.strength == 0 {
                    u.status = UnitStatus::Eliminated;
                }
            }
            u
        })
}

pub(super) fn arb_case() -> impl Strategy<Value = (Force, BattleReport, Vec<Purchase>, u64, u32)> {
    prop::collection::vec(1..4usize, 1..4)
        .prop_flat_map(|sizes| {
            let total: usize = sizes.iter().sum();
            let units: Vec<_> = (0..total).map(arb_unit).collect();
            (Just(sizes), units)
        })
        .prop_map(|(sizes, units)| {
            let mut it = units.into_iter();
            force_of(
                sizes
                    .iter()
                    .map(|n| it.by_ref().take(*n).collect())
                    .collect(),
            )
        })
        .prop_flat_map(|roster| {
            let n = roster.units().count();
            let losses = prop::collection::vec((0..12u32, 0..5u8), n);
            let buys = prop::collection::vec((0..9usize, 0..n, 0..3usize), 0..6);
            (Just(roster), losses, buys, any::<u64>(), 0..6u32)
        })
        .prop_map(|(roster, losses, buys, seed, banked)| {
            let units: Vec<_> = roster.units().cloned().collect();
            let lines = units
                .iter()
                .zip(losses)
                // A vehicle that sat the battle out (damaged, not repaired) has no line (C16).
                .filter(|(u, (lost, _))| {
                    *lost > 0 && (u.kind != UnitKind::Vehicle || u.is_fielded())
                })
                .map(|(u, (lost, how))| {
                    let vehicle = u.kind == UnitKind::Vehicle;
                    let eliminated = how == 4;
                    UnitLosses {
                        unit_id: u.id.clone(),
                        // A wiped-out foot unit loses every figure (a consistent report).
                        figures_lost: if eliminated && !vehicle {
                            u.strength
                        } else {
                            lost.min(u.strength)
                        },
                        eliminated,
                        vehicle_damage: if vehicle && !eliminated {
                            [
                                None,
                                Some(VehicleDamage::Damaged),
                                Some(VehicleDamage::Destroyed),
                            ][usize::from(how % 3)]
                        } else {
                            None
                        },
                        destroyed_on_recon: false,
                    }
                })
                .collect();
            let purchases = buys
                .into_iter()
                .map(|(item, unit, extra)| {
                    let item = PurchaseItem::ALL[item];
                    let mut p =
                        Purchase::of(item, item.needs_unit().then_some(units[unit].id.as_str()));
                    if item == PurchaseItem::GrantPersonality {
                        p.personality = Some(crate::kit::Personality::ALL[extra]);
                    }
                    if item == PurchaseItem::AssignTrait {
                        p.trait_ = Some([Trait::Tough, Trait::Fanatic, Trait::Hero][extra]);
                    }
                    p
                })
                .collect();
            (roster, report(lines), purchases, seed, banked)
        })
}

/// Runs the steps with `dice`, keeping purchases only if valid and then filling units below E
/// greedily from the pool, and a new squad if five or more troopers are left.
fn run_steps(
    roster: &Force,
    report: &BattleReport,
    purchases: &[Purchase],
    banked: u32,
    dice: &mut impl Dice,
) -> (Aftermath, Outcome) {
    let rules = HouseRules::default();
    let mut a =
        Aftermath::roll(F, roster, report, banked, dice, &rules, &Ruleset::fad5e()).unwrap();
    // Grow the list one purchase at a time, keeping those that stay valid: this also redoes
    // purchases many times, so kept dice are reused.
    let mut kept: Vec<Purchase> = Vec::new();
    for p in purchases {
        let mut trial = kept.clone();
        trial.push(p.clone());
        if a.purchase(trial.clone(), dice).is_ok() {
            kept = trial;
        }
    }
    a.purchase(kept, dice).unwrap();
    let now = a.outcome().unwrap().roster;
    let mut left = a.pool_total();
    let mut allocations = Vec::new();
    for u in now.units() {
        let room = u.starting_strength.saturating_sub(u.strength);
        if super::reinforcements::can_take_troopers(u) && room > 0 && left > 0 {
            let n = room.min(left);
            allocations.push(Allocation {
                unit_id: u.id.clone(),
                troopers: n,
            });
            left -= n;
        }
    }
    let new_squad = (left >= 5
        && now
            .platoons
            .iter()
            .any(|p| super::reinforcements::typical_squad(p).is_some()))
    .then(|| {
        let platoon = now
            .platoons
            .iter()
            .position(|p| super::reinforcements::typical_squad(p).is_some())
            .unwrap_or(0);
        NewSquad {
            name: "New".into(),
            troopers: left.min(8),
            platoon: Some(super::reinforcements::PlatoonRef::Index(platoon)),
            id: None,
            modelled_on: None,
        }
    });
    a.reinforce(ReinforcementChoice {
        teams: Vec::new(),
        allocations,
        new_squad,
    })
    .unwrap();
    let out = a.finalize().unwrap();
    (a, out)
}

proptest! {
    #[test]
    fn strength_never_exceeds_establishment_and_ladders_stay_in_range(
        (roster, report, purchases, seed, banked) in arb_case()
    ) {
        let (a, out) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        for force in [&a.after_rolls, &out.roster] {
            for u in force.units() {
                prop_assert!(u.strength <= u.starting_strength.max(1), "{} {}/{}", u.id, u.strength, u.starting_strength);
                prop_assert!(u.quality.index() < Quality::ALL.len());
                prop_assert!(u.resolve.is_none_or(|r| r.index() < Resolve::ALL.len()));
                prop_assert_eq!(u.status == UnitStatus::Eliminated && u.kind != UnitKind::Vehicle, u.strength == 0 && u.kind != UnitKind::Vehicle);
            }
        }
        // Purchases never produce Elite (C8): any Elite unit was Elite at the start.
        for u in out.roster.units() {
            if u.quality == Quality::Elite {
                prop_assert_eq!(roster.unit(&u.id).map(|b| b.quality), Some(Quality::Elite));
            }
            if u.resolve_frozen() {
                prop_assert_eq!(u.resolve, Some(Resolve::Steady));
            }
        }
    }

    #[test]
    fn campaign_points_never_go_negative(
        (roster, report, purchases, seed, banked) in arb_case()
    ) {
        let (_, out) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        let cp = out.campaign_points;
        prop_assert!(cp.spent <= cp.banked_before + cp.earned);
        prop_assert_eq!(cp.balance + cp.forfeited + cp.spent, cp.banked_before + cp.earned);
        prop_assert_eq!(out.reinforcements.allocated + out.reinforcements.new_squad + out.reinforcements.lost, out.reinforcements.total);
    }

    #[test]
    fn the_same_seed_gives_the_same_roll_log(
        (roster, report, purchases, seed, banked) in arb_case()
    ) {
        let (_, one) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        let (_, two) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        prop_assert_eq!(&one.rolls, &two.rolls);
        prop_assert_eq!(one, two);
    }

    #[test]
    fn the_steps_after_the_rolls_leave_the_rolled_roster_as_it_is(
        (roster, report, purchases, seed, banked) in arb_case()
    ) {
        // Purchases, reinforcements and finalize work out their effects from the rolled roster
        // and never change it, so the service writes it only when a roll step runs.
        let rolled = Aftermath::roll(F, &roster, &report, banked, &mut ServerDice::seeded(seed),
            &HouseRules::default(), &Ruleset::fad5e()).unwrap();
        let (after_steps, _) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        prop_assert_eq!(&after_steps.after_rolls, &rolled.after_rolls);
    }

    #[test]
    fn entered_dice_reproduce_the_server_outcome(
        (roster, report, purchases, seed, banked) in arb_case()
    ) {
        let (_, server) = run_steps(&roster, &report, &purchases, banked, &mut ServerDice::seeded(seed));
        let mut table = TableDice::new(&log_as_entered(&server.rolls), ServerDice::seeded(seed ^ 0x5eed)).unwrap();
        let (_, entered) = run_steps(&roster, &report, &purchases, banked, &mut table);
        prop_assert!(table.unused().is_empty());
        prop_assert!(entered.rolls.iter().all(|r| r.source == RollSource::Player));
        prop_assert_eq!(&entered.roster, &server.roster);
        prop_assert_eq!(&entered.changes, &server.changes);
        prop_assert_eq!(entered.campaign_points, server.campaign_points);
        prop_assert_eq!(steps(&entered.rolls), steps(&server.rolls));
    }
}

#[test]
fn rolls_step_by_step_list_each_steps_dice_and_match_the_one_call_roll() {
    let roster = force_of(vec![vec![squad("s", 8), squad("t", 6)]]);
    let losses = report(vec![lost("s", 8)]);
    let values: &[(RollStep, &str, &[u8])] = &[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[1]),
        (RollStep::ResolveChange, "s", &[5]),
        (RollStep::Reinforcements, F, &[2, 6]),
    ];
    let rules = HouseRules::default();
    let whole = Aftermath::roll(
        F,
        &roster,
        &losses,
        0,
        &mut table(values),
        &rules,
        &Ruleset::fad5e(),
    )
    .unwrap();

    let mut a = Aftermath::start(F, &roster, &losses, 0, &rules, &Ruleset::fad5e()).unwrap();
    let mut seen = Vec::new();
    let mut dice = table(values);
    while let Some(step) = a.next_step() {
        let due: Vec<_> = a
            .next_dice()
            .iter()
            .map(|d| (d.step, d.subject.clone()))
            .collect();
        assert!(due.iter().all(|(s, _)| *s == step));
        seen.push(due);
        a.roll_step(step, &mut dice).unwrap();
    }

    // Wiped out, 3 → ceil(8/2) = 4 back; 2·4 ≥ 8 → the quality roll is due (C7, C4).
    assert_eq!(
        seen,
        [
            vec![(RollStep::Replacement, "s".to_owned())],
            vec![(RollStep::QualityLoss, "s".to_owned())],
            vec![(RollStep::ResolveChange, "s".to_owned())],
            vec![(RollStep::Reinforcements, F.to_owned())],
        ]
    );
    assert_eq!(a.after_rolls, whole.after_rolls);
    assert_eq!(a.rolls, whole.rolls);
    assert_eq!(a.pool_total(), 8);
    assert!(a.fully_rolled());
    assert!(a.roll_step(RollStep::Replacement, &mut dice).is_err());
}

#[test]
fn unknown_resolve_4_1_is_rolled_on_first_casualties_then_the_resolve_change_applies() {
    let mut unknown = squad("u", 8);
    unknown.resolve = None;
    let mut untouched = squad("v", 8);
    untouched.resolve = None;
    let roster = force_of(vec![vec![unknown, untouched]]);
    let mut dice = table(&[
        (RollStep::Replacement, "u", &[1]),
        (RollStep::UnknownResolve, "u", &[6]),
        (RollStep::ResolveChange, "u", &[1]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report(vec![lost("u", 2)]),
        0,
        &mut dice,
        &HouseRules::default(),
        &Ruleset::fad5e(),
    )
    .unwrap();
    // 6 on the squad resolve table → Determined; resolve change 1 → Steady.
    assert_eq!(
        a.after_rolls.unit("u").unwrap().resolve,
        Some(Resolve::Steady)
    );
    assert_eq!(a.after_rolls.unit("v").unwrap().resolve, None);
    let logged: Vec<_> = a.rolls.iter().map(|r| r.step).collect();
    assert_eq!(
        logged,
        [
            RollStep::Replacement,
            RollStep::UnknownResolve,
            RollStep::ResolveChange,
            RollStep::Reinforcements
        ]
    );
    let mut bought = a.clone();
    let refused = bought
        .purchase(
            vec![Purchase::of(PurchaseItem::ImproveResolve, Some("v"))],
            &mut ServerDice::seeded(1),
        )
        .unwrap_err();
    assert!(refused[0].message.contains("unknown"), "{refused:?}");
}

// ---- A house ruleset's numbers -------------------------------------------------------------

/// A house ruleset on FAD 5e: 3 CP per platoon, Quality drops only on a 1, a trait costs 3.
fn stockholm(extra: serde_json::Value) -> Ruleset {
    let mut set = serde_json::json!({
        "campaign.cp_per_platoon": 3,
        "campaign.tables.quality_loss": ["drops", "stays", "stays", "stays", "stays", "stays"],
        "campaign.menu.assign_trait.cost": 3,
    });
    if let (Some(set), Some(extra)) = (set.as_object_mut(), extra.as_object()) {
        set.extend(extra.clone());
    }
    let doc = serde_json::from_value(serde_json::json!({
        "id": "club/stockholm-fad", "name": "Stockholm club FAD",
        "extends": {"id": "fad5e", "version": 1}, "set": set,
    }))
    .unwrap();
    crate::rulesets::build_house(&Ruleset::fad5e(), &doc, 1).unwrap()
}

/// The paths at which two JSON values differ.
fn differing_paths(a: &serde_json::Value, b: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let (l, r) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                differing_paths(l, r, &format!("{at}.{k}"), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (l, r)) in x.iter().zip(y).enumerate() {
                differing_paths(l, r, &format!("{at}[{i}]"), out);
            }
        }
        _ if a != b => out.push(at.to_owned()),
        _ => {}
    }
}

#[test]
fn a_house_ruleset_changes_exactly_its_numbers_with_entered_dice() {
    // Squad s (E 8, Regular) is wiped out: 3 → 4 back, so Quality Loss is due (2·4 ≥ 8) and
    // the entered 2 drops it under FAD 5e (1–2) but not under the house table (1 only).
    let roster = force_of(vec![vec![squad("s", 8), squad("t", 6)]]);
    let losses = report(vec![lost("s", 8)]);
    let dice: &[(RollStep, &str, &[u8])] = &[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[2]),
        (RollStep::ResolveChange, "s", &[4]),
        (RollStep::Reinforcements, F, &[2, 6]),
    ];
    let mut tough = Purchase::of(PurchaseItem::AssignTrait, Some("t"));
    tough.trait_ = Some(Trait::Tough);
    let choices = Choices {
        purchases: vec![tough],
        reinforcements: ReinforcementChoice::default(),
    };
    let rules = HouseRules::default();
    let run = |ruleset: &Ruleset| {
        post_battle_sequence(
            F,
            &roster,
            &losses,
            1,
            &choices,
            &mut table(dice),
            &rules,
            ruleset,
        )
        .unwrap()
    };
    let fad = run(&Ruleset::fad5e());
    let house = run(&stockholm(serde_json::json!({})));

    assert_eq!(fad.roster.unit("s").unwrap().quality, Quality::Conscript);
    assert_eq!(house.roster.unit("s").unwrap().quality, Quality::Regular);
    assert_eq!(
        (fad.campaign_points.earned, house.campaign_points.earned),
        (2, 3)
    );
    assert_eq!(
        (fad.campaign_points.spent, house.campaign_points.spent),
        (2, 3)
    );
    assert_eq!((fad.purchases[0].cost, house.purchases[0].cost), (2, 3));
    assert_eq!(fad.campaign_points.balance, 1);
    assert_eq!(house.campaign_points.balance, 1);
    assert_eq!(fad.rolls, house.rolls, "the same dice, the same rolls");

    let mut paths = Vec::new();
    differing_paths(
        &serde_json::to_value(&fad).unwrap(),
        &serde_json::to_value(&house).unwrap(),
        "",
        &mut paths,
    );
    assert_eq!(
        paths,
        [
            ".campaign_points.earned",
            ".campaign_points.spent",
            ".changes[0].after.quality",
            ".changes[0].events[2].to",
            ".changes[1].events[0].cost",
            ".purchases[0].cost",
            ".roster.platoons[0].units[0].quality",
        ]
    );
}

#[test]
fn a_house_sequence_keeps_its_ruleset_and_fad5e_documents_keep_their_bytes() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let losses = report(vec![lost("s", 2)]);
    let rules = HouseRules::default();
    let fad = Aftermath::start(F, &roster, &losses, 0, &rules, &Ruleset::fad5e()).unwrap();
    let json = serde_json::to_value(&fad).unwrap();
    for key in ["tables", "ruleset", "ruleset_name"] {
        assert!(json.get(key).is_none(), "{key} is written for FAD 5e");
    }
    let read: Aftermath = serde_json::from_value(json).unwrap();
    assert_eq!(read, fad);
    assert_eq!(read.ruleset, crate::rulesets::RulesetPin::default());

    let house_rules = stockholm(serde_json::json!({}));
    let house = Aftermath::start(F, &roster, &losses, 0, &rules, &house_rules).unwrap();
    let json = serde_json::to_value(&house).unwrap();
    assert_eq!(
        json["ruleset"],
        serde_json::json!({"id": "club/stockholm-fad", "version": 1})
    );
    assert_eq!(json["tables"]["cp_per_platoon"], 3);
    let read: Aftermath = serde_json::from_value(json).unwrap();
    assert_eq!(read, house);
    assert_eq!(read.cp_earned, 3);
}

#[test]
fn a_house_ruleset_s_due_rolls_describe_its_own_tables() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let losses = report(vec![lost("s", 8)]);
    let ruleset = stockholm(serde_json::json!({
        "campaign.pool_dice": 3,
        "campaign.tables.resolve_change": ["drops", "stays", "stays", "stays", "stays", "improves"],
    }));
    let mut a = Aftermath::start(F, &roster, &losses, 0, &HouseRules::default(), &ruleset).unwrap();
    let mut whys = Vec::new();
    let mut dice = table(&[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[1]),
    ]);
    while let Some(step) = a.next_step() {
        whys.extend(a.next_dice().into_iter().map(|d| (d.dice, d.why)));
        a.roll_step(step, &mut dice).unwrap();
    }
    assert_eq!(
        whys[1].1,
        "received 4 replacement(s), at least half of 8: quality loss (1 drops one level)"
    );
    assert_eq!(
        whys[2].1,
        "suffered losses or damage: resolve change (1 down one level, 2–5 same, 6 up one level)"
    );
    assert_eq!(whys[3].0, "3d6");
    assert_eq!(a.pool_dice.len(), 3);
}

#[test]
fn an_item_the_ruleset_does_not_sell_is_refused_naming_the_ruleset() {
    let roster = force_of(vec![vec![squad("s", 8)]]);
    let ruleset = stockholm(serde_json::json!({"campaign.menu.improve_resolve.enabled": false}));
    let mut a = Aftermath::roll(
        F,
        &roster,
        &report(vec![]),
        5,
        &mut ServerDice::seeded(3),
        &HouseRules::default(),
        &ruleset,
    )
    .unwrap();
    let refused = a
        .purchase(
            vec![Purchase::of(PurchaseItem::ImproveResolve, Some("s"))],
            &mut ServerDice::seeded(4),
        )
        .unwrap_err();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].field, "purchases[0].item");
    assert_eq!(
        refused[0].message,
        "improve_resolve is not sold under Stockholm club FAD"
    );
    assert!(a.purchases.is_empty());
}
