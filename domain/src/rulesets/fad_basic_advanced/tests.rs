//! Every row of the ruleset's tables with entered dice, and its limits on rosters and purchases.

use super::*;
use crate::campaign::report::{BattleReport, UnitLosses, VehicleDamage};
use crate::campaign::sequence::Aftermath;
use crate::campaign::testkit::{character, force_of, squad, vehicle};
use crate::campaign::{Purchase, PurchaseItem};
use crate::dice::{EnteredDice, RollStep, ServerDice, TableDice};
use crate::kit::VehicleState;
use crate::points::{force_points, round_points};
use crate::roster::UnitKind;
use crate::rulesets::{Pricing, builtin, builtins};
use crate::validation::{force_problems, validate_force_under};

const F: &str = "force-1";

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

fn losses(
    unit: &str,
    figures: u32,
    eliminated: bool,
    damage: Option<VehicleDamage>,
) -> BattleReport {
    BattleReport {
        losses: vec![UnitLosses {
            unit_id: unit.into(),
            figures_lost: figures,
            eliminated,
            vehicle_damage: damage,
            destroyed_on_recon: false,
        }],
    }
}

fn led(quality: Quality, experience: LeaderExperience) -> Unit {
    let mut s = squad("s", 8);
    s.quality = quality;
    s.leader_experience = Some(experience);
    s
}

/// A vehicle the family's checks accept (the campaign testkit's has a rear armour of 2).
fn tank() -> Unit {
    let mut v = vehicle("v");
    if let Some(profile) = v.vehicle.as_mut() {
        profile.armour.rear = 3;
    }
    v
}

fn problems_under(force: &Force) -> Vec<(String, String)> {
    validate_force_under(force, &v1().limits())
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p.field, p.message))
        .collect()
}

/// Version 1 is frozen: a change to its document ships as version 2 instead.
const V1_HASH: &str = "b894156d9f9c8935ba8b3641abbed31b4e1ddc919fdd3a5908dd6a9b050d0925";

#[test]
fn version_1_is_frozen() {
    assert_eq!(v1().hash(), V1_HASH);
}

#[test]
fn it_is_a_built_in_of_the_fad_family_from_both_seeds() {
    let r = v1();
    assert_eq!(builtin(ID, None), Some(r.clone()));
    assert_eq!(builtin(ID, Some(1)), Some(r.clone()));
    assert_eq!(builtin(ID, Some(2)), None);
    assert!(builtins().iter().any(|b| b.id == ID));
    assert_eq!(r.family, Family::Fad);
    assert_eq!(r.sources, SOURCES);
    assert!(r.builtin && r.extends.is_none());
    assert_eq!(r.decisions, DECISIONS);
    assert_eq!(r.decisions.vehicle_resolve, VehicleResolve::Required);
    assert_eq!(r.decisions.leader_effect, LeaderEffect::QualityShift);
    assert_eq!(r.decisions.pricing, Pricing::None);
    assert_eq!(r.decisions.scenario, ScenarioSupport::Native);
    // FAD 5e's sequence, its numbers unchanged; only the grantable personalities differ.
    let mut tables = r.tables.clone();
    assert_eq!(tables.personalities, PERSONALITIES);
    assert_eq!(
        tables.new_squad.leader_experience,
        Some(LeaderExperience::Regular)
    );
    tables.personalities.clear();
    tables.new_squad.leader_experience = None;
    assert!(tables.is_fad5e());
    assert_eq!(r.options, HouseRules::default());
    let ids: Vec<&str> = r.readings.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]);
}

#[test]
fn ladders_quality_resolve_and_the_squad_leader_shifts() {
    let r = v1();
    let rungs = |name: &str| -> Vec<(String, Option<i32>)> {
        r.ladder(name)
            .unwrap()
            .rungs
            .iter()
            .map(|g| (g.key.clone(), g.number))
            .collect()
    };
    let s = |k: &str, n: Option<i32>| (k.to_owned(), n);
    assert_eq!(
        rungs("quality"),
        [
            s("rabble", Some(5)),
            s("conscript", Some(4)),
            s("regular", Some(3)),
            s("elite", Some(2))
        ]
    );
    let fad5e = Ruleset::fad5e();
    assert_eq!(r.ladder("resolve"), fad5e.ladder("resolve"));
    assert_eq!(
        rungs("leader_experience"),
        [
            s("regular", Some(0)),
            s("experienced", Some(1)),
            s("veteran", Some(2))
        ]
    );
    assert_eq!(
        r.ladder("leader_experience").unwrap().role,
        LadderRole::Leader
    );
}

#[test]
fn b3_nine_personalities_with_anti_armour_expert_and_without_tech() {
    let r = v1();
    let names: Vec<&str> = r
        .lists
        .personalities
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "brawler",
            "comms",
            "knife_fighter",
            "lucky",
            "medic",
            "motivator",
            "sharpshooter",
            "anti_armour_expert",
            "trigger_happy"
        ]
    );
    let aae = &v1().lists.personalities[7];
    assert_eq!(aae.points, None, "FAD 5e has no price for it (B6)");
    assert_eq!(v1().lists.traits, Ruleset::fad5e().lists.traits);
}

/// Table 20, every row on every natural Quality: the shift, clamped at Elite.
#[test]
fn b2_table_20_every_row_on_every_quality() {
    use LeaderExperience as L;
    use Quality as Q;
    let cases = [
        (Q::Rabble, L::Regular, Q::Rabble),
        (Q::Rabble, L::Experienced, Q::Conscript),
        (Q::Rabble, L::Veteran, Q::Regular),
        (Q::Conscript, L::Regular, Q::Conscript),
        (Q::Conscript, L::Experienced, Q::Regular),
        (Q::Conscript, L::Veteran, Q::Elite),
        (Q::Regular, L::Regular, Q::Regular),
        (Q::Regular, L::Experienced, Q::Elite),
        (Q::Regular, L::Veteran, Q::Elite),
        (Q::Elite, L::Regular, Q::Elite),
        (Q::Elite, L::Experienced, Q::Elite),
        (Q::Elite, L::Veteran, Q::Elite),
    ];
    for (natural, leader, effective) in cases {
        assert_eq!(
            effective_quality(&led(natural, leader)),
            Some(effective),
            "{natural:?} led by {leader:?}"
        );
    }
    assert_eq!(
        LEADER_QUALITY_SHIFT.map(|(e, n)| (e, n, quality_shift(e))),
        [
            (L::Regular, 0, 0),
            (L::Experienced, 1, 1),
            (L::Veteran, 2, 2)
        ]
    );
    // No squad leader, or a unit that has none: its own Quality.
    assert_eq!(effective_quality(&squad("s", 8)), None);
    assert_eq!(effective_quality(&character("c")), None);
}

#[test]
fn b2_the_seed_example_rabble_led_by_a_veteran_is_regular() {
    assert_eq!(
        effective_quality(&led(Quality::Rabble, LeaderExperience::Veteran)),
        Some(Quality::Regular)
    );
}

#[test]
fn b1_b2_b3_roster_limits_and_fad5e_keeps_its_own() {
    // A vehicle without a Resolve: refused here (B1), valid under FAD 5e (C15).
    let f = force_of(vec![vec![tank()]]);
    let got = problems_under(&f);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "platoons[0].units[0].resolve");
    assert!(got[0].1.contains("B1"), "{}", got[0].1);
    assert!(force_problems(&f).is_empty());
    let mut rated = tank();
    rated.resolve = Some(Resolve::Steady);
    assert!(problems_under(&force_of(vec![vec![rated]])).is_empty());

    // Squad leaders: regular here, inexperienced under FAD 5e, each refused by the other.
    let f = force_of(vec![vec![led(
        Quality::Rabble,
        LeaderExperience::Inexperienced,
    )]]);
    let got = problems_under(&f);
    assert_eq!(got[0].0, "platoons[0].units[0].leader_experience");
    assert!(got[0].1.contains("B2"), "{}", got[0].1);
    assert!(force_problems(&f).is_empty());
    let f = force_of(vec![vec![led(Quality::Rabble, LeaderExperience::Regular)]]);
    assert!(problems_under(&f).is_empty());
    let fad5e = force_problems(&f);
    assert_eq!(fad5e.len(), 1);
    assert_eq!(fad5e[0].field, "platoons[0].units[0].leader_experience");

    // Personalities: Tech is FAD 5e's, Anti-Armour Expert this ruleset's (B3).
    let mut c = character("c");
    c.personalities = vec![Personality::Tech];
    let f = force_of(vec![vec![c.clone()]]);
    let got = problems_under(&f);
    assert_eq!(got[0].0, "platoons[0].units[0].personalities[0]");
    assert!(force_problems(&f).is_empty());
    c.personalities = vec![Personality::AntiArmourExpert];
    let f = force_of(vec![vec![c]]);
    assert!(problems_under(&f).is_empty());
    assert_eq!(
        force_problems(&f)[0].field,
        "platoons[0].units[0].personalities[0]"
    );
}

/// B1: a Regular/Steady vehicle left damaged rolls vehicle replacement and resolve change;
/// 2 and 1 leave it damaged and Uncertain.
#[test]
fn b1_a_damaged_vehicle_rolls_vehicle_replacement_then_resolve_change() {
    let mut v = vehicle("v");
    v.resolve = Some(Resolve::Steady);
    let roster = force_of(vec![vec![v]]);
    let report = losses("v", 0, false, Some(VehicleDamage::Damaged));
    let r = v1();
    let rules = HouseRules::default();
    let a = Aftermath::start(F, &roster, &report, 0, &rules, &r).unwrap();
    let due: Vec<RollStep> = [RollStep::VehicleReplacement, RollStep::ResolveChange]
        .into_iter()
        .filter(|s| a.due(*s).iter().any(|d| d.subject == "v"))
        .collect();
    assert_eq!(due, [RollStep::VehicleReplacement, RollStep::ResolveChange]);
    let mut d = dice(&[
        (RollStep::VehicleReplacement, "v", &[2]),
        (RollStep::ResolveChange, "v", &[1]),
        (RollStep::Reinforcements, F, &[1, 1]),
    ]);
    let a = Aftermath::roll(F, &roster, &report, 0, &mut d, &rules, &r).unwrap();
    let v = a.after_rolls.unit("v").unwrap();
    assert_eq!(v.vehicle_state, Some(VehicleState::Damaged));
    assert_eq!(v.resolve, Some(Resolve::Uncertain));
}

/// B2: a Conscript squad (E = 8) with an Experienced leader is wiped out; replacement 3 gives
/// 4 figures, quality loss is due and 1 drops its natural Quality to Rabble: effective Conscript.
#[test]
fn b2_the_wiped_out_conscript_squad_loses_natural_quality() {
    let roster = force_of(vec![vec![led(
        Quality::Conscript,
        LeaderExperience::Experienced,
    )]]);
    let report = losses("s", 8, true, None);
    let mut d = dice(&[
        (RollStep::Replacement, "s", &[3]),
        (RollStep::QualityLoss, "s", &[1]),
        (RollStep::Reinforcements, F, &[1, 1]),
    ]);
    let a = Aftermath::roll(
        F,
        &roster,
        &report,
        0,
        &mut d,
        &HouseRules::default(),
        &v1(),
    )
    .unwrap();
    let s = a.after_rolls.unit("s").unwrap();
    assert_eq!(s.strength, 4);
    assert_eq!(s.quality, Quality::Rabble);
    assert_eq!(effective_quality(s), Some(Quality::Conscript));
    let logged: Vec<RollStep> = a.rolls.iter().map(|r| r.step).collect();
    assert!(logged.contains(&RollStep::QualityLoss));
}

/// B3: grant_personality sells Anti-Armour Expert for 1 CP and refuses Tech; FAD 5e the other
/// way round.
#[test]
fn b3_grant_personality_follows_the_ruleset_list() {
    let roster = force_of(vec![vec![character("c")]]);
    let report = losses("c", 0, false, None);
    let grant = |p: Personality| Purchase {
        personality: Some(p),
        ..Purchase::of(PurchaseItem::GrantPersonality, Some("c"))
    };
    let run = |ruleset: &Ruleset, p: Personality| {
        let mut a =
            Aftermath::start(F, &roster, &report, 0, &HouseRules::default(), ruleset).unwrap();
        let mut d = dice(&[(RollStep::Reinforcements, F, &[1, 1])]);
        a.roll_remaining(&mut d).unwrap();
        let mut none = dice(&[]);
        a.purchase(vec![grant(p)], &mut none).map(|()| a)
    };
    let a = run(&v1(), Personality::AntiArmourExpert).unwrap();
    assert_eq!(a.cost(PurchaseItem::GrantPersonality), 1);
    let effects = a.purchase_effects().unwrap();
    assert_eq!(effects.spent, 1);
    assert_eq!(
        effects.roster.unit("c").unwrap().personalities,
        [Personality::AntiArmourExpert]
    );
    let refused = run(&v1(), Personality::Tech).err().unwrap();
    assert_eq!(refused[0].field, "purchases[0].personality");
    assert!(run(&Ruleset::fad5e(), Personality::Tech).is_ok());
    let refused = run(&Ruleset::fad5e(), Personality::AntiArmourExpert)
        .err()
        .unwrap();
    assert_eq!(refused[0].field, "purchases[0].personality");
}

/// B6: unpriced by default; the option borrows FAD 5e's points: a Regular Steady squad of 6 with
/// assault rifles and Light armour is 6 × 4 × 1.3 = 31.2, an Anti-Armour Expert adds nothing and
/// is listed as unpriced.
#[test]
fn b6_pricing_is_none_unless_borrowed_and_unpriced_items_are_listed() {
    let r = v1();
    assert_eq!(r.pricing(&HouseRules::default()), Pricing::None);
    let borrowed = HouseRules {
        pricing: Some(Pricing::Fad5e),
        ..HouseRules::default()
    };
    assert_eq!(r.pricing(&borrowed), Pricing::Fad5e);
    // FAD 5e prices whatever the option says.
    let unpriced = HouseRules {
        pricing: Some(Pricing::None),
        ..HouseRules::default()
    };
    assert_eq!(Ruleset::fad5e().pricing(&unpriced), Pricing::Fad5e);

    let mut s = squad("s", 6);
    assert_eq!(s.kind, UnitKind::Squad);
    let f = force_of(vec![vec![s.clone()]]);
    assert_eq!(round_points(force_points(&f)), 31.2);
    assert!(unpriced_items(&f).is_empty());
    s.personalities = vec![Personality::AntiArmourExpert];
    let f = force_of(vec![vec![s]]);
    assert_eq!(round_points(force_points(&f)), 31.2);
    assert_eq!(unpriced_items(&f), ["anti_armour_expert"]);
    assert!(UNPRICED_REASON.contains("B6"));
}

#[test]
fn the_vocabulary_shows_this_ruleset_s_words() {
    let v = crate::rulesets::ruleset_vocabulary(&v1(), &HouseRules::default());
    let leaders: Vec<&str> = v
        .words
        .leader_experience
        .iter()
        .map(|t| t.term.name)
        .collect();
    assert_eq!(leaders, ["regular", "experienced", "veteran"]);
    let personalities: Vec<&str> = v.words.personalities.iter().map(|t| t.term.name).collect();
    assert!(personalities.contains(&"anti_armour_expert"));
    assert!(!personalities.contains(&"tech"));
    assert!(v.options.iter().any(|o| o.name == "pricing"));
    assert_eq!(v.readings[0].rules_url, "/rules/fad-basic-advanced#B1");
    // FAD 5e's vocabulary has neither.
    let fad5e = crate::rulesets::ruleset_vocabulary(&Ruleset::fad5e(), &HouseRules::default());
    assert!(!fad5e.options.iter().any(|o| o.name == "pricing"));
    let leaders: Vec<&str> = fad5e
        .words
        .leader_experience
        .iter()
        .map(|t| t.term.name)
        .collect();
    assert_eq!(leaders, ["inexperienced", "experienced", "veteran"]);
}
