//! Runs the one-shot generator on checked inputs: per-side entered dice with a server fallback
//! seeded from the OS, then the optional narrative (docs/rules.md §3, §5).

use fad_domain::dice::{DiceError, ServerDice};
use fad_domain::narrative::roll_narrative;
use fad_domain::scenario::ScenarioError;
use fad_domain::scenario::one_shot::generate;
use fad_domain::scenario::side_dice::{EnteredBySide, SideDice};

use crate::error::{ApiError, FieldError};

use super::document::ScenarioDocument;
use crate::app::scenario_request::{Prepared, problems};

pub use crate::app::dice::os_seed;

/// Where an entered-dice error belongs: `sides[i].dice.<step>.<subject>`.
fn dice_field(entered: &EnteredBySide, forces: &[String], e: &DiceError) -> String {
    let (step, subject) = match e {
        DiceError::OutOfRange { step, subject, .. }
        | DiceError::WrongCount { step, subject, .. }
        | DiceError::TooMany { step, subject, .. }
        | DiceError::UnknownSubject { step, subject } => (step, subject),
    };
    let side = forces.iter().position(|f| {
        entered
            .get(f)
            .and_then(|s| s.get(step))
            .is_some_and(|s| s.contains_key(subject))
    });
    match side {
        Some(i) => format!("sides[{i}].{}", e.field()),
        None => e.field(),
    }
}

/// Generates the whole scenario with `server` rolling what was not entered.
pub fn run(prepared: Prepared, server: ServerDice) -> Result<ScenarioDocument, ApiError> {
    let force_ids: Vec<String> = prepared.forces.iter().map(|f| f.force_id.clone()).collect();
    let entered = prepared.entered.clone();
    let dice_error = |e: DiceError| {
        ApiError::Validation(vec![FieldError::new(
            dice_field(&entered, &force_ids, &e),
            e.message(),
        )])
    };
    let mut dice = SideDice::new(&prepared.entered, server).map_err(|errs| {
        ApiError::Validation(
            errs.iter()
                .map(|e| FieldError::new(dice_field(&entered, &force_ids, e), e.message()))
                .collect(),
        )
    })?;
    let scenario = generate(prepared.sides, prepared.config, &mut dice).map_err(|e| match e {
        ScenarioError::Invalid(p) => ApiError::Validation(problems(p)),
        ScenarioError::Dice(e) => dice_error(e),
        ScenarioError::Conflict(m) => ApiError::Internal(anyhow::anyhow!("one-shot conflict: {m}")),
    })?;
    let narrative = if prepared.narrative {
        let ids: Vec<&str> = force_ids.iter().map(String::as_str).collect();
        Some(roll_narrative(&mut dice, &ids).map_err(dice_error)?)
    } else {
        None
    };
    crate::app::dice::refuse_surplus(dice.surplus().into_iter().map(|(_, e)| e).collect(), |e| {
        dice_field(&entered, &force_ids, e)
    })?;
    let unused_dice = dice.unused();
    Ok(ScenarioDocument {
        scenario,
        forces: prepared.forces,
        narrative,
        rolls: dice.take_log(),
        unused_dice,
        ruleset: prepared.ruleset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::scenario_request::{CreateScenarioRequest, prepare};
    use fad_domain::odds::{OddsQuery, mission_odds};
    use fad_domain::orders::{Attitude, Mission, Stance};
    use serde_json::json;

    fn seed(n: u64) -> [u8; 32] {
        let mut s = [0u8; 32];
        s[..8].copy_from_slice(&n.to_le_bytes());
        s
    }

    fn request(stance: &str, attitude: &str, bonuses: &[&str]) -> CreateScenarioRequest {
        let unit = json!([{"name": "Line", "kind": "squad", "resolve": "steady"}]);
        serde_json::from_value(json!({"sides": [
            {"name": "Red", "units": unit, "stance": stance, "attitude": attitude, "mission_bonuses": bonuses},
            {"name": "Blue", "units": unit, "stance": "defensive", "attitude": "passive"}
        ], "pre_battle_events": false}))
        .unwrap()
    }

    /// A one-shot document loads from format 1 (the full serde form stored before formats were
    /// numbered) and from today's compact format to the same value, and the compact one is
    /// smaller.
    #[test]
    fn a_scenario_document_loads_from_both_formats() {
        let prepared = prepare(request("offensive", "aggressive", &["hold"]), |_| None).unwrap();
        let doc = run(prepared, ServerDice::from_seed(seed(7))).unwrap();
        let v1 = serde_json::to_string(&doc).unwrap();
        let v2 = crate::store::doc::encode(&doc).unwrap();
        assert_eq!(crate::store::doc::version_of(&v1), Some(1));
        assert_eq!(crate::store::doc::version_of(&v2), Some(2));
        let from_v1: ScenarioDocument = crate::store::doc::decode(&v1).unwrap();
        let from_v2: ScenarioDocument = crate::store::doc::decode(&v2).unwrap();
        assert_eq!(from_v1, doc);
        assert_eq!(from_v2, doc);
        assert!(
            v2.len() < v1.len(),
            "compact {} < full {}",
            v2.len(),
            v1.len()
        );
    }

    /// Server-rolled missions (ties picked uniformly by the `mission_tie` die) follow the exact
    /// odds of [`fad_domain::odds`]: a chi-square test over fixed seeds, so it is deterministic.
    #[test]
    fn server_rolled_missions_follow_the_exact_odds() {
        const RUNS: u64 = 4000;
        for (stance, attitude, bonuses) in [
            ("neutral", "cautious", vec![]),
            ("offensive", "aggressive", vec!["hold", "patrol"]),
        ] {
            let mut counts = [0u64; 8];
            let mut ties = 0u64;
            for n in 0..RUNS {
                let prepared = prepare(request(stance, attitude, &bonuses), |_| None).unwrap();
                let doc = run(prepared, ServerDice::from_seed(seed(n))).unwrap();
                let side = &doc.scenario.sides[0];
                let m = side.rolled_mission.unwrap();
                counts[Mission::ROLLED.iter().position(|r| *r == m).unwrap()] += 1;
                let tie_rolls = doc
                    .rolls
                    .iter()
                    .filter(|r| {
                        r.step == fad_domain::dice::RollStep::MissionTie
                            && r.force_id.as_deref() == Some("side_1")
                    })
                    .count();
                ties += tie_rolls as u64;
            }
            let odds = mission_odds(OddsQuery {
                stance: Stance::parse_name(stance),
                attitude: Attitude::parse_name(attitude),
                bonuses: fad_domain::odds::MissionBonuses::from_slice(
                    &bonuses
                        .iter()
                        .map(|b| Mission::parse_name(b))
                        .collect::<Vec<_>>(),
                )
                .unwrap(),
            });
            let mut chi = 0.0;
            for (i, c) in counts.iter().enumerate() {
                let expected = odds.missions[i].chance.probability * RUNS as f64;
                if expected > 0.0 {
                    chi += (*c as f64 - expected).powi(2) / expected;
                } else {
                    assert_eq!(*c, 0, "{stance}/{attitude}: impossible mission rolled");
                }
            }
            // 7 degrees of freedom; 24.3 is the 0.1% critical value.
            assert!(chi < 24.3, "{stance}/{attitude}: chi² {chi} for {counts:?}");
            // The tie share as a binomial: within 4 standard deviations.
            let p = odds.tie.probability;
            let sd = (p * (1.0 - p) * RUNS as f64).sqrt();
            assert!(
                ((ties as f64) - p * RUNS as f64).abs() < 4.0 * sd,
                "ties {ties} vs p {p}"
            );
        }
    }

    trait ParseName: Sized {
        fn parse_name(s: &str) -> Self;
    }
    impl<T: fad_domain::names::Named> ParseName for T {
        fn parse_name(s: &str) -> Self {
            T::parse(s).unwrap()
        }
    }
}
