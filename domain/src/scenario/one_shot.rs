//! The one-shot generator: both sides' choices (or one side against a non-player force) in one
//! call, run to the end.
//!
//! It runs the same [`Scenario`] machine with `one_shot` set: a side's tied top missions are
//! picked uniformly by a `mission_tie` die with one face per tied mission, and step 7 is not
//! played — each side's `recon_points` are reported for the players to spend at the table
//! (no Move, Reveal or Block is simulated, so no `recon_block` or `npf_block` rolls are made).

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::orders::{Attitude, Mission, Stance};
use crate::roster::{Force, Problem};
use crate::scenario::ScenarioError;
use crate::scenario::machine::{Orders, Scenario, ScenarioConfig, SideSetup};
use crate::scenario::missions::check_mission_bonuses;
use crate::scenario::non_player::NonPlayerSetup;

/// One side of a one-shot request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OneShotSide {
    /// Force id (a stored force's id, or any label for an inline force).
    pub force_id: String,
    /// The force.
    pub force: Force,
    /// A non-player force: stance and attitude are rolled when absent (§3.12).
    #[serde(default)]
    pub non_player: bool,
    /// Step 1 (required for a player side).
    #[serde(default)]
    pub stance: Option<Stance>,
    /// Step 2 (required for a player side).
    #[serde(default)]
    pub attitude: Option<Attitude>,
    /// Step 5's +1s (S8); none for a non-player side.
    #[serde(default)]
    pub mission_bonuses: Vec<Mission>,
    /// Step 3, by unit id or by unit name.
    #[serde(default)]
    pub recon_unit_ids: Vec<String>,
    /// S14: units sharing a host's marker, by id or name.
    #[serde(default)]
    pub attached_unit_ids: Vec<String>,
    /// Holo Projectors (+1 dummy each).
    #[serde(default)]
    pub holo_projectors: u32,
}

/// Maps unit names to ids where a reference is not an id but names exactly one unit.
fn resolve_refs(force: &Force, refs: &[String]) -> Vec<String> {
    refs.iter()
        .map(|r| {
            if force.unit(r).is_some() {
                return r.clone();
            }
            let mut named = force.units().filter(|u| u.name == *r);
            match (named.next(), named.next()) {
                (Some(u), None) => u.id.clone(),
                _ => r.clone(),
            }
        })
        .collect()
}

/// Generates a whole scenario. Every input problem is reported at once (paths under
/// `sides[i].`) before anything is rolled.
pub fn generate(
    sides: [OneShotSide; 2],
    config: ScenarioConfig,
    dice: &mut impl Dice,
) -> Result<Scenario, ScenarioError> {
    let config = ScenarioConfig {
        one_shot: true,
        ..config
    };
    // The forces move into the scenario (no copy: they are most of the input); the rest of each
    // side is read below, and its force through `scenario.sides`.
    let mut sides = sides;
    let setups = std::array::from_fn(|i| {
        let s = &mut sides[i];
        let empty = Force {
            name: String::new(),
            platoons: Vec::new(),
        };
        SideSetup {
            force_id: s.force_id.clone(),
            force: std::mem::replace(&mut s.force, empty),
            non_player: s.non_player.then_some(NonPlayerSetup {
                stance: s.stance,
                attitude: s.attitude,
            }),
        }
    });
    let mut scenario = Scenario::new(setups, config).map_err(ScenarioError::Invalid)?;
    let mut problems = Vec::new();
    let mut orders: [Option<Orders>; 2] = [None, None];
    for (i, side) in sides.iter().enumerate() {
        let at = |f: &str| format!("sides[{i}].{f}");
        let mut bonus_problems =
            check_mission_bonuses(&side.mission_bonuses, &at("mission_bonuses"));
        problems.append(&mut bonus_problems);
        if side.non_player {
            if !side.mission_bonuses.is_empty() {
                problems.push(Problem::new(
                    at("mission_bonuses"),
                    "a non-player force assigns no +1 bonuses (S8)",
                ));
            }
            if !side.recon_unit_ids.is_empty() {
                problems.push(Problem::new(
                    at("recon_unit_ids"),
                    "a non-player force's recon duty is automatic (§3.12)",
                ));
            }
            continue;
        }
        if side.stance.is_none() {
            problems.push(Problem::new(at("stance"), "a player side needs a stance"));
        }
        if side.attitude.is_none() {
            problems.push(Problem::new(
                at("attitude"),
                "a player side needs an attitude",
            ));
        }
        if let (Some(stance), Some(attitude)) = (side.stance, side.attitude) {
            let o = Orders {
                stance,
                attitude,
                recon_unit_ids: resolve_refs(&scenario.sides[i].force, &side.recon_unit_ids),
                attached_unit_ids: resolve_refs(&scenario.sides[i].force, &side.attached_unit_ids),
                holo_projectors: side.holo_projectors,
            };
            for mut p in scenario.check_orders(i, &o) {
                p.field = at(&p.field);
                problems.push(p);
            }
            orders[i] = Some(o);
        }
    }
    if !problems.is_empty() {
        return Err(ScenarioError::Invalid(problems));
    }
    for (i, o) in orders.into_iter().enumerate() {
        if let Some(o) = o {
            scenario.sides[i].orders = Some(o);
        }
    }
    scenario.advance(dice)?;
    for (i, side) in sides.iter().enumerate() {
        if !side.non_player {
            scenario.sides[i].mission_bonuses = Some(side.mission_bonuses.clone());
        }
    }
    scenario.advance(dice)?;
    Ok(scenario)
}
