//! The differential test of the post-battle engine: 10,000 generated cases (rosters, battle
//! reports, house rules, dice, purchases and reinforcement choices) run through the sequence step
//! by step, and a SHA-256 digest of everything each case produces (every `next_dice` list, the
//! stored `Aftermath`, the `Outcome`, or the problems) per block of 100 cases, compared with
//! `differential.digests`. The digests were recorded with the engine as it was before it read its
//! tables from a ruleset, so a mismatch means FAD 5e's outcome changed; the message names the
//! block. They were recorded once more when the purchase problems were reworded for people
//! (before that, with the old wording restored, every block still matched). Record again only for
//! a deliberate change of outcome or wording:
//! `cargo test -p fad-domain record_differential_digests -- --ignored`.

use std::fmt::Write as _;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::Purchase;
use super::reinforcements::{
    Allocation, NewSquad, PlatoonRef, ReinforcementChoice, can_take_troopers, typical_squad,
};
use super::report::{BattleReport, UnitLosses};
use super::sequence::Aftermath;
use crate::dice::ServerDice;
use crate::house_rules::{FullStrength, HouseRules, LoneFigureReturn};
use crate::roster::{Force, Problem};
use crate::rulesets::Ruleset;

const CASES: usize = 10_000;
const BLOCK: usize = 100;
const FORCE: &str = "force-d";
const DIGESTS: &str = include_str!("differential.digests");

type Case = (Force, BattleReport, Vec<Purchase>, u64, u32, HouseRules, u8);

fn arb_rules() -> impl Strategy<Value = HouseRules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(battle_start, never, bank, vehicle, leader)| HouseRules {
            full_strength: if battle_start {
                FullStrength::BattleStart
            } else {
                FullStrength::Establishment
            },
            lone_figure_return: if never {
                LoneFigureReturn::Never
            } else {
                LoneFigureReturn::OnFiveOrSix
            },
            bank_campaign_points: bank,
            vehicle_resolve_change: vehicle,
            squad_leader_experience_purchasable: leader,
            ..HouseRules::default()
        })
}

fn arb_full_case() -> impl Strategy<Value = Case> {
    (super::tests::arb_case(), arb_rules(), 0..20u8).prop_map(
        |((roster, report, purchases, seed, banked), rules, twist)| {
            (roster, report, purchases, seed, banked, rules, twist)
        },
    )
}

/// The cases, the same on every run: a fixed-seed runner draws each from the strategy.
fn cases() -> impl Iterator<Item = Case> {
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = arb_full_case();
    (0..CASES).filter_map(move |_| strategy.new_tree(&mut runner).ok().map(|t| t.current()))
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("unserializable: {e}"))
}

fn problems(p: &[Problem]) -> String {
    format!("problems {}", json(&p))
}

/// Runs one case and writes everything it produced to `out`.
fn run_case(case: &Case, out: &mut String) {
    let (roster, report, purchases, seed, banked, rules, twist) = case;
    let mut report = report.clone();
    // One case in twenty reports a unit the force does not have: the problems are compared too.
    if *twist == 0 {
        report.losses.push(UnitLosses {
            unit_id: "nobody".into(),
            figures_lost: 1,
            eliminated: false,
            vehicle_damage: None,
            destroyed_on_recon: false,
        });
    }
    let dice = &mut ServerDice::seeded(*seed);
    let mut a = match Aftermath::start(FORCE, roster, &report, *banked, rules, &Ruleset::fad5e()) {
        Ok(a) => a,
        Err(p) => {
            out.push_str(&problems(&p));
            return;
        }
    };
    while let Some(step) = a.next_step() {
        let _ = write!(out, "due {}|", json(&a.next_dice()));
        if let Err(p) = a.roll_step(step, dice) {
            out.push_str(&problems(&p));
            return;
        }
    }
    // The whole list at once (its problems name costs and limits), then grown one purchase at a
    // time keeping those that stay valid, which redoes purchases and reuses kept dice.
    let mut whole = a.clone();
    match whole.purchase(purchases.clone(), &mut ServerDice::seeded(seed ^ 1)) {
        Ok(()) => {
            let _ = write!(
                out,
                "whole ok {}|",
                json(&whole.outcome().map(|o| o.campaign_points))
            );
        }
        Err(p) => out.push_str(&problems(&p)),
    }
    let mut kept: Vec<Purchase> = Vec::new();
    for p in purchases {
        let mut trial = kept.clone();
        trial.push(p.clone());
        if a.purchase(trial.clone(), dice).is_ok() {
            kept = trial;
        }
    }
    if let Err(p) = a.purchase(kept, dice) {
        out.push_str(&problems(&p));
        return;
    }
    let now = match a.outcome() {
        Ok(o) => o.roster,
        Err(p) => {
            out.push_str(&problems(&p));
            return;
        }
    };
    let mut left = a.pool_total();
    let mut allocations = Vec::new();
    for u in now.units() {
        let room = u.starting_strength.saturating_sub(u.strength);
        // Every third case leaves troopers unassigned, so lost troopers are compared too.
        if can_take_troopers(u) && room > 0 && left > 0 && twist % 3 != 1 {
            let n = room.min(left);
            allocations.push(Allocation {
                unit_id: u.id.clone(),
                troopers: n,
            });
            left -= n;
        }
    }
    let platoon = now.platoons.iter().position(|p| typical_squad(p).is_some());
    let new_squad = platoon.filter(|_| left >= 5).map(|i| NewSquad {
        name: "New".into(),
        troopers: left.min(8),
        platoon: Some(PlatoonRef::Index(i)),
        id: None,
        modelled_on: None,
    });
    if let Err(p) = a.reinforce(ReinforcementChoice {
        teams: Vec::new(),
        allocations,
        new_squad,
    }) {
        out.push_str(&problems(&p));
    }
    let _ = write!(out, "aftermath {}|", json(&a));
    match a.finalize() {
        Ok(o) => {
            let _ = write!(out, "outcome {}", json(&o));
        }
        Err(p) => out.push_str(&problems(&p)),
    }
}

/// One hex SHA-256 per block of [`BLOCK`] cases.
fn digests() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut text = String::new();
    for (i, case) in cases().enumerate() {
        let _ = write!(text, "case {i}|");
        run_case(&case, &mut text);
        text.push('\n');
        if (i + 1) % BLOCK == 0 {
            blocks.push(crate::rulesets::sha256_hex(&text));
            text.clear();
        }
    }
    blocks
}

#[test]
fn the_engine_reproduces_every_recorded_digest() {
    let recorded: Vec<&str> = DIGESTS.lines().collect();
    assert_eq!(
        recorded.len(),
        CASES / BLOCK,
        "differential.digests has one line per block"
    );
    let got = digests();
    assert_eq!(got.len(), recorded.len(), "the generator made fewer cases");
    let wrong: Vec<String> = got
        .iter()
        .zip(&recorded)
        .enumerate()
        .filter(|(_, (g, r))| g != r)
        .map(|(i, _)| format!("block {i} (cases {} to {})", i * BLOCK, (i + 1) * BLOCK - 1))
        .collect();
    assert!(
        wrong.is_empty(),
        "the outcome changed in {}",
        wrong.join(", ")
    );
}

#[test]
#[ignore = "records the digests; run only for a deliberate change of outcome"]
fn record_differential_digests() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/campaign/differential.digests"
    );
    let mut text = digests().join("\n");
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

#[test]
fn the_cases_cover_problems_purchases_vehicles_and_new_squads() {
    let mut seen = [0usize; 5];
    for case in cases().take(1000) {
        let mut out = String::new();
        run_case(&case, &mut out);
        seen[0] += usize::from(out.contains("problems"));
        seen[1] += usize::from(out.contains("\"item\""));
        seen[2] += usize::from(out.contains("vehicle_replacement\",\"subject"));
        seen[3] += usize::from(out.contains("\"formed\""));
        seen[4] += usize::from(out.contains("\"quality_loss\",\"subject"));
    }
    assert!(
        seen.iter().all(|n| *n >= 10),
        "too few cases of some kind: {seen:?}"
    );
}
