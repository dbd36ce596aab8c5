//! Benchmarks the exact mission odds (docs/rules.md §3.5, S8, S9): one query enumerates the 6^8
//! outcomes; the target is well under 20 ms in a release build. Run with
//! `cargo bench -p fad-domain --bench odds`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fad_domain::odds::{MissionBonuses, OddsQuery, all_mission_odds, mission_odds};
use fad_domain::orders::{Attitude, Mission, Stance};

fn bench_odds(c: &mut Criterion) {
    let plain = OddsQuery {
        stance: Stance::Neutral,
        attitude: Attitude::Cautious,
        bonuses: None,
    };
    let with_bonuses = OddsQuery {
        stance: Stance::Offensive,
        attitude: Attitude::Aggressive,
        bonuses: MissionBonuses::new(Mission::Strike, Mission::Hold).ok(),
    };
    c.bench_function("mission_odds/one_query_no_bonus", |b| {
        b.iter(|| mission_odds(black_box(plain)));
    });
    c.bench_function("mission_odds/one_query_two_bonuses", |b| {
        b.iter(|| mission_odds(black_box(with_bonuses)));
    });
    let mut group = c.benchmark_group("mission_odds");
    group.sample_size(10);
    group.bench_function("all_261_queries", |b| b.iter(all_mission_odds));
    group.finish();
}

criterion_group!(benches, bench_odds);
criterion_main!(benches);
