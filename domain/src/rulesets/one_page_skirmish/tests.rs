//! The one-page skirmish family: its ladder, validation (O2, O3, O9), and FAD 5e's post-battle
//! sequence on bases with entered dice, every table row (O1–O6).

use super::*;
use crate::campaign::report::{BattleReport, UnitLosses, VehicleDamage};
use crate::campaign::sequence::Aftermath;
use crate::campaign::{Allocation, NewSquad, Purchase, ReinforcementChoice};
use crate::dice::{EnteredDice, RollStep, ServerDice, TableDice};
use crate::kit::{Armour, BasicWeapon};
use crate::ladder::Quality;
use crate::roster::{Force, Platoon, Unit, UnitKind, UnitStatus};
use crate::rulesets::builtin;

const F: &str = "force-1";

fn profile(carried_bases: u32) -> OnePageProfile {
    OnePageProfile {
        armour: OnePageArmour::Light,
        force_projection: ForceProjection {
            point_blank: 1,
            short: 3,
            medium: 2,
            long: 2,
            very_long: 0,
            at: 1,
        },
        carried_bases,
    }
}

/// An infantry unit of `bases` bases at `training`.
fn infantry(id: &str, training: Training, bases: u32) -> Unit {
    Unit {
        id: id.into(),
        name: format!("Line {id}"),
        kind: UnitKind::Squad,
        quality: training.quality(),
        resolve: None,
        strength: bases,
        starting_strength: bases,
        one_page: Some(profile(0)),
        ..Unit::default()
    }
}

fn vehicle(id: &str, models: u32) -> Unit {
    Unit {
        kind: UnitKind::Vehicle,
        name: format!("Carrier {id}"),
        one_page: Some(profile(0)),
        ..infantry(id, Training::Seasoned, models)
    }
}

fn force(units: Vec<Unit>) -> Force {
    Force {
        name: "Skirmishers".into(),
        platoons: vec![Platoon {
            name: "First group".into(),
            units,
        }],
    }
}

fn dice(values: &[(RollStep, &str, &[u8])]) -> TableDice {
    let mut entered = EnteredDice::new();
    for (step, subject, v) in values {
        entered
            .entry(*step)
            .or_default()
            .entry((*subject).to_owned())
            .or_default()
            .extend_from_slice(v);
    }
    TableDice::new(&entered, ServerDice::seeded(7)).unwrap()
}

fn lost(unit: &str, n: u32) -> UnitLosses {
    UnitLosses {
        unit_id: unit.into(),
        figures_lost: n,
        eliminated: false,
        vehicle_damage: None,
        destroyed_on_recon: false,
    }
}

fn start(roster: &Force, losses: Vec<UnitLosses>) -> Aftermath {
    Aftermath::start(F, roster, &BattleReport { losses }, 0, &v1().options, &v1()).unwrap()
}

fn roll(a: &mut Aftermath, step: RollStep, values: &[(RollStep, &str, &[u8])]) {
    a.roll_step(step, &mut dice(values)).unwrap();
}

#[test]
fn o1_training_ladder_is_green_to_elite_rated_5_to_2_on_quality_rungs() {
    let r = v1();
    let ladder = r.ladder("training").unwrap();
    let got: Vec<(&str, &str, Option<i32>)> = ladder
        .rungs
        .iter()
        .map(|g| (g.key.as_str(), g.name.as_str(), g.number))
        .collect();
    assert_eq!(
        got,
        [
            ("green", "Green", Some(5)),
            ("seasoned", "Seasoned", Some(4)),
            ("veteran", "Veteran", Some(3)),
            ("elite", "Elite", Some(2)),
        ]
    );
    assert!(r.ladder("resolve").is_none());
    for t in Training::ALL {
        assert_eq!(Training::of(t.quality()), *t);
        assert_eq!(t.quality().row().test_target, t.rating());
    }
    assert_eq!(r.family, crate::rulesets::Family::OnePage);
    assert_eq!(builtin(ID, None), Some(v1()));
    assert_eq!(builtin(ID, Some(2)), None);
}

/// Version 1 is frozen: this hash changes only if its document does, which must ship as
/// version 2 instead.
const V1_HASH: &str = "475155b004a5626a501fc17d20c0f1c603f41e1c48dddb765c4e4f4e8b4f6653";

#[test]
fn version_1_is_frozen() {
    assert_eq!(v1().hash(), V1_HASH);
}

#[test]
fn o5_o6_o7_tables_pool_cp_new_unit_and_decisions() {
    let r = v1();
    let fad = CampaignTables::fad5e();
    assert_eq!(r.tables.replacement, fad.replacement);
    assert_eq!(r.tables.vehicle_replacement, fad.vehicle_replacement);
    assert_eq!(r.tables.quality_loss, fad.quality_loss);
    assert_eq!(r.tables.pool_dice, 1);
    assert_eq!(r.tables.cp_per_platoon, 2);
    assert_eq!(
        (
            r.tables.new_squad.min,
            r.tables.new_squad.max,
            r.tables.new_squad.quality
        ),
        (2, 4, Quality::Conscript)
    );
    assert_eq!(r.decisions.pricing, Pricing::None);
    assert_eq!(r.decisions.resolve, ResolveRule::Absent);
    let sold: Vec<PurchaseItem> = r
        .tables
        .menu
        .iter()
        .filter(|m| m.enabled)
        .map(|m| m.item)
        .collect();
    assert_eq!(
        sold,
        [
            PurchaseItem::ImproveQuality,
            PurchaseItem::ExtraReinforcementDie
        ]
    );
    assert_eq!(DEPLOYMENT_ZONES_CM, [5, 10, 15]);
    // O8: FAD 5e's Offensive, Neutral and Defensive zones (6", 12", 18") in cm.
    assert_eq!([6, 12, 18].map(scaled_cm), DEPLOYMENT_ZONES_CM);
    assert_eq!(r.readings.len(), 9);
}

#[test]
fn o2_a_veteran_unit_of_four_bases_validates_and_five_bases_do_not() {
    let ok = force(vec![infantry("a", Training::Veteran, 4)]);
    assert_eq!(validate_one_page(&ok), Ok(()));
    let five = force(vec![infantry("a", Training::Veteran, 5)]);
    let errors = validate_one_page(&five).unwrap_err();
    assert_eq!(errors[0].field, "platoons[0].units[0].starting_strength");
    assert!(errors[0].message.contains("O2"));
}

#[test]
fn o2_o3_fad_fields_resolve_and_kinds_are_refused_each_at_its_path() {
    let mut u = infantry("a", Training::Green, 2);
    u.resolve = Some(crate::ladder::Resolve::Steady);
    u.basic_weapon = Some(BasicWeapon::AssaultRifles);
    u.armour = Armour::Heavy;
    let mut c = infantry("c", Training::Green, 1);
    c.kind = UnitKind::Character;
    let mut bare = infantry("d", Training::Green, 1);
    bare.one_page = None;
    let errors = validate_one_page(&force(vec![u, c, bare])).unwrap_err();
    let fields: Vec<&str> = errors.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "platoons[0].units[0].resolve",
            "platoons[0].units[0].armour",
            "platoons[0].units[0].basic_weapon",
            "platoons[0].units[1].kind",
            "platoons[0].units[2].one_page",
        ]
    );
}

#[test]
fn o9_a_vehicle_carries_two_bases_per_model() {
    let mut v = vehicle("v", 1);
    v.one_page = Some(profile(2));
    assert_eq!(validate_one_page(&force(vec![v.clone()])), Ok(()));
    v.one_page = Some(profile(3));
    let errors = validate_one_page(&force(vec![v])).unwrap_err();
    assert_eq!(
        errors[0].field,
        "platoons[0].units[0].one_page.carried_bases"
    );
    assert!(errors[0].message.contains("O9"));
    let mut foot = infantry("a", Training::Green, 2);
    foot.one_page = Some(profile(1));
    assert!(validate_one_page(&force(vec![foot])).is_err());
}

/// Bases back for each face when a unit of 4 lost 3 (1–2 none, 3–4 half rounded up, 5–6 all).
#[test]
fn o2_replacement_table_every_row_on_bases() {
    for (d6, back) in [(1, 0), (2, 0), (3, 2), (4, 2), (5, 3), (6, 3)] {
        let roster = force(vec![infantry("a", Training::Veteran, 4)]);
        let mut a = start(&roster, vec![lost("a", 3)]);
        roll(
            &mut a,
            RollStep::Replacement,
            &[(RollStep::Replacement, "a", &[d6])],
        );
        assert_eq!(
            a.after_rolls.unit("a").unwrap().strength,
            1 + back,
            "d6 {d6}"
        );
    }
}

#[test]
fn acceptance_veteran_loses_three_bases_then_seasoned_and_a_1d6_pool() {
    let roster = force(vec![infantry("a", Training::Veteran, 4)]);
    let mut a = start(&roster, vec![lost("a", 3)]);
    let due = a.next_dice();
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].step, due[0].dice.as_str()),
        (RollStep::Replacement, "1d6")
    );
    roll(
        &mut a,
        RollStep::Replacement,
        &[(RollStep::Replacement, "a", &[4])],
    );
    assert_eq!(a.after_rolls.unit("a").unwrap().strength, 3);
    assert_eq!(a.next_step(), Some(RollStep::QualityLoss));
    roll(
        &mut a,
        RollStep::QualityLoss,
        &[(RollStep::QualityLoss, "a", &[2])],
    );
    let unit = a.after_rolls.unit("a").unwrap();
    assert_eq!(Training::of(unit.quality), Training::Seasoned);
    // O3: no resolve step; the pool is one die.
    assert_eq!(a.next_step(), Some(RollStep::Reinforcements));
    assert_eq!(a.next_dice()[0].dice, "1d6");
    roll(
        &mut a,
        RollStep::Reinforcements,
        &[(RollStep::Reinforcements, F, &[4])],
    );
    assert_eq!(a.pool_total(), 4);
    assert_eq!(a.after_rolls.unit("a").unwrap().resolve, None);
    assert_eq!(a.cp_earned, 2);
}

#[test]
fn o1_quality_loss_table_every_row() {
    for (d6, to) in [
        (1, Training::Seasoned),
        (2, Training::Seasoned),
        (3, Training::Veteran),
        (4, Training::Veteran),
        (5, Training::Veteran),
        (6, Training::Veteran),
    ] {
        let roster = force(vec![infantry("a", Training::Veteran, 2)]);
        let mut a = start(&roster, vec![lost("a", 2)]);
        roll(
            &mut a,
            RollStep::Replacement,
            &[(RollStep::Replacement, "a", &[6])],
        );
        roll(
            &mut a,
            RollStep::QualityLoss,
            &[(RollStep::QualityLoss, "a", &[d6])],
        );
        assert_eq!(
            Training::of(a.after_rolls.unit("a").unwrap().quality),
            to,
            "d6 {d6}"
        );
    }
}

#[test]
fn o2_a_one_base_unit_is_no_lone_figure() {
    let roster = force(vec![infantry("a", Training::Seasoned, 1)]);
    assert!(!roster.platoons[0].units[0].is_lone_figure());
    for (d6, back) in [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 1)] {
        let mut a = start(&roster, vec![lost("a", 1)]);
        roll(
            &mut a,
            RollStep::Replacement,
            &[(RollStep::Replacement, "a", &[d6])],
        );
        let unit = a.after_rolls.unit("a").unwrap();
        assert_eq!(unit.strength, back, "d6 {d6}");
        assert_eq!(unit.status == UnitStatus::Active, back == 1);
    }
}

/// One die per destroyed model: 1–4 the model is lost, 5–6 replaced.
#[test]
fn o4_vehicle_table_every_row_one_die_per_destroyed_model() {
    for (d6, back) in [(1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 1)] {
        let roster = force(vec![vehicle("v", 2)]);
        let mut a = start(&roster, vec![lost("v", 1)]);
        assert_eq!(a.after_rolls.unit("v").unwrap().strength, 1);
        let due = a.next_dice();
        assert_eq!(due.len(), 1);
        assert_eq!(
            (due[0].step, due[0].subject.as_str(), due[0].dice.as_str()),
            (RollStep::VehicleReplacement, "v", "1d6")
        );
        roll(
            &mut a,
            RollStep::VehicleReplacement,
            &[(RollStep::VehicleReplacement, "v", &[d6])],
        );
        assert_eq!(
            a.after_rolls.unit("v").unwrap().strength,
            1 + back,
            "d6 {d6}"
        );
    }
    // Two models lost: two dice.
    let roster = force(vec![vehicle("v", 2)]);
    let mut a = start(&roster, vec![lost("v", 2)]);
    assert_eq!(a.next_dice()[0].dice, "2d6");
    roll(
        &mut a,
        RollStep::VehicleReplacement,
        &[(RollStep::VehicleReplacement, "v", &[6, 1])],
    );
    let v = a.after_rolls.unit("v").unwrap();
    assert_eq!((v.strength, v.status), (1, UnitStatus::Active));
}

#[test]
fn o4_an_immobilised_vehicle_rolls_nothing() {
    let roster = force(vec![vehicle("v", 2)]);
    let mut line = lost("v", 0);
    line.vehicle_damage = Some(VehicleDamage::Damaged);
    let a = start(&roster, vec![line]);
    assert_eq!(a.next_step(), Some(RollStep::Reinforcements));
    let v = a.after_rolls.unit("v").unwrap();
    assert_eq!((v.strength, v.vehicle_state), (2, None));
}

#[test]
fn o1_o3_menu_training_up_to_veteran_never_elite_and_no_resolve() {
    let roster = force(vec![
        infantry("s", Training::Seasoned, 3),
        infantry("v", Training::Veteran, 3),
    ]);
    let mut a = start(&roster, vec![]);
    a.roll_remaining(&mut dice(&[(RollStep::Reinforcements, F, &[1])]))
        .unwrap();
    let mut d = dice(&[]);
    a.purchase(
        vec![Purchase::of(PurchaseItem::ImproveQuality, Some("s"))],
        &mut d,
    )
    .unwrap();
    let effects = a.purchase_effects().unwrap();
    assert_eq!(
        Training::of(effects.roster.unit("s").unwrap().quality),
        Training::Veteran
    );
    assert_eq!(effects.spent, 1);
    let elite = a
        .purchase(
            vec![Purchase::of(PurchaseItem::ImproveQuality, Some("v"))],
            &mut d,
        )
        .unwrap_err();
    assert!(elite[0].message.contains("Elite"));
    let resolve = a
        .purchase(
            vec![Purchase::of(PurchaseItem::ImproveResolve, Some("s"))],
            &mut d,
        )
        .unwrap_err();
    assert!(resolve[0].message.contains("not sold"));
}

#[test]
fn o5_bases_fill_units_and_form_a_new_seasoned_unit_with_the_profile() {
    let roster = force(vec![
        infantry("a", Training::Veteran, 3),
        infantry("b", Training::Green, 1),
    ]);
    let mut a = start(&roster, vec![lost("a", 2), lost("b", 1)]);
    a.roll_remaining(&mut dice(&[
        (RollStep::Replacement, "a", &[1]),
        (RollStep::Replacement, "b", &[1]),
        (RollStep::Reinforcements, F, &[5]),
    ]))
    .unwrap();
    a.reinforce(ReinforcementChoice {
        teams: Vec::new(),
        allocations: vec![
            Allocation {
                unit_id: "a".into(),
                troopers: 1,
            },
            Allocation {
                unit_id: "b".into(),
                troopers: 1,
            },
        ],
        new_squad: Some(NewSquad {
            name: "Fresh".into(),
            troopers: 3,
            platoon: None,
            id: None,
            modelled_on: Some("a".into()),
        }),
    })
    .unwrap();
    let outcome = a.finalize().unwrap();
    let fresh = outcome.roster.units().find(|u| u.name == "Fresh").unwrap();
    assert_eq!(
        (fresh.strength, Training::of(fresh.quality), fresh.resolve),
        (3, Training::Seasoned, None)
    );
    assert_eq!(fresh.one_page, Some(profile(0)));
    assert_eq!(validate_one_page(&outcome.roster), Ok(()));
    // Five bases for a new unit would be too many (2–4).
    let mut b = start(&roster, vec![]);
    b.roll_remaining(&mut dice(&[(RollStep::Reinforcements, F, &[6])]))
        .unwrap();
    assert!(
        b.reinforce(ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![],
            new_squad: Some(NewSquad {
                name: "Big".into(),
                troopers: 5,
                platoon: None,
                id: None,
                modelled_on: None,
            }),
        })
        .is_err()
    );
}
