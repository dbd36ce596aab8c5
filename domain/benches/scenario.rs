//! Benchmarks one full one-shot scenario generation (docs/rules.md §3) as a pure function: two player sides of 20 units, server dice, every step
//! from orders to the finished scenario. Target: under 50 µs in a release build. Run
//! with `cargo bench -p fad-domain --bench scenario`.

mod forces;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fad_domain::dice::ServerDice;
use fad_domain::orders::{Attitude, Mission, Stance};
use fad_domain::scenario::ScenarioConfig;
use fad_domain::scenario::one_shot::{OneShotSide, generate};

fn side(id: &str, stance: Stance, attitude: Attitude, bonuses: Vec<Mission>) -> OneShotSide {
    let force = forces::force(id);
    let recon = vec![force.platoons[0].units[1].id.clone()];
    OneShotSide {
        force_id: id.to_owned(),
        force,
        non_player: false,
        stance: Some(stance),
        attitude: Some(attitude),
        mission_bonuses: bonuses,
        recon_unit_ids: recon,
        attached_unit_ids: Vec::new(),
        holo_projectors: 0,
    }
}

fn bench_one_shot(c: &mut Criterion) {
    let sides = [
        side(
            "red",
            Stance::Offensive,
            Attitude::Aggressive,
            vec![Mission::Strike, Mission::Assault],
        ),
        side(
            "blue",
            Stance::Defensive,
            Attitude::Cautious,
            vec![Mission::Hold],
        ),
    ];
    // Fails loudly here rather than benchmarking an early validation error.
    let check = generate(
        sides.clone(),
        ScenarioConfig::default(),
        &mut ServerDice::seeded(1),
    );
    assert!(
        check.is_ok(),
        "the benchmark scenario must be valid: {check:?}"
    );
    let mut seed = 0;
    c.bench_function("scenario/one_shot_generate_2x20_units", |b| {
        b.iter_batched(
            || {
                seed += 1;
                (sides.clone(), ServerDice::seeded(seed))
            },
            |(sides, mut dice)| generate(black_box(sides), ScenarioConfig::default(), &mut dice),
            BatchSize::SmallInput,
        );
    });
}

criterion_group!(benches, bench_one_shot);
criterion_main!(benches);
