//! Benchmarks one full post-battle sequence (docs/rules.md §2: roll, purchases, reinforcements,
//! finalize) for a 20-unit force as a pure function, with server dice. No target is set
//! for it; the service's W2 step latency is bounded by the database, not by this. Run with
//! `cargo bench -p fad-domain --bench aftermath`.

mod forces;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fad_domain::campaign::{
    BattleReport, Choices, Purchase, PurchaseItem, ReinforcementChoice, UnitLosses,
    post_battle_sequence,
};
use fad_domain::dice::ServerDice;
use fad_domain::house_rules::HouseRules;
use fad_domain::rulesets::Ruleset;

fn bench_aftermath(c: &mut Criterion) {
    let start = forces::force("blue");
    let ids: Vec<String> = start.units().map(|u| u.id.clone()).collect();
    // Half the units lost figures, one was wiped out; an untouched squad improves its Resolve.
    let report = BattleReport {
        losses: ids
            .iter()
            .take(10)
            .enumerate()
            .map(|(i, id)| UnitLosses {
                unit_id: id.clone(),
                figures_lost: if i == 0 { 8 } else { 3 },
                eliminated: i == 0,
                vehicle_damage: None,
                destroyed_on_recon: false,
            })
            .collect(),
    };
    let choices = Choices {
        purchases: vec![
            Purchase {
                item: PurchaseItem::ImproveResolve,
                unit_id: ids.last().cloned(),
                personality: None,
                trait_: None,
            },
            Purchase {
                item: PurchaseItem::ExtraReinforcementDie,
                unit_id: None,
                personality: None,
                trait_: None,
            },
        ],
        reinforcements: ReinforcementChoice::default(),
    };
    let rules = HouseRules::default();
    let ruleset = Ruleset::fad5e();
    let run = |dice: &mut ServerDice| {
        post_battle_sequence("blue", &start, &report, 0, &choices, dice, &rules, &ruleset)
    };
    let check = run(&mut ServerDice::seeded(1));
    assert!(
        check.is_ok(),
        "the benchmark sequence must be valid: {check:?}"
    );
    let mut seed = 0;
    c.bench_function("aftermath/full_sequence_20_units", |b| {
        b.iter_batched(
            || {
                seed += 1;
                ServerDice::seeded(seed)
            },
            |mut dice| run(black_box(&mut dice)),
            BatchSize::SmallInput,
        );
    });
}

criterion_group!(benches, bench_aftermath);
criterion_main!(benches);
