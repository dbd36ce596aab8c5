//! The post-battle rolls one step at a time, in the order players roll them at the table
//! (docs/rules.md §2.1 steps 1–5, §4.1 Unknown Resolve): replacements, vehicle replacements, quality
//! loss, unknown Resolve, resolve change, the reinforcement pool. Each step's dice depend on the
//! steps before it (a quality-loss roll only where replacements reached half the unit), so
//! [`Aftermath::due`] lists exactly the rolls the next step makes, for a form to ask for them.
//!
//! A step whose list is empty (no vehicle was damaged) is passed without a request.

use serde::{Deserialize, Serialize};

use super::quality_loss::QualityLoss;
use super::quality_loss::{quality_after, quality_loss_due};
use super::replacements::{InfantryReplacement, reference_strength, replaced_figures};
use super::report::VehicleDamage;
use super::resolve_change::{ResolveChange, resolve_after, resolve_roll_due, rolling_resolve};
use super::sequence::{Aftermath, dice_problem, roll_one};
use super::tables::d6_row;
use super::vehicle_replacements::{VehicleFate, VehicleReplacement, vehicle_fate};
use super::{UnitEvent, UnitEventRecord, figures};
use crate::dice::{Dice, RollRequest, RollStep};
use crate::kit::VehicleState;
use crate::ladder::Resolve;
use crate::names::Named;
use crate::roster::{Problem, Unit, UnitKind, UnitStatus};
use crate::rulesets::gzg_fma_1999::{Casualty, casualty};

/// The roll steps of the sequence, in table order. `casualty` stands in for `replacement` under a
/// ruleset of figures (M4); each sequence rolls only the steps its units call for.
pub const ROLL_STEPS: [RollStep; 7] = [
    RollStep::Casualty,
    RollStep::Replacement,
    RollStep::VehicleReplacement,
    RollStep::QualityLoss,
    RollStep::UnknownResolve,
    RollStep::ResolveChange,
    RollStep::Reinforcements,
];

/// The SQUAD RESOLVE table of basic force generation (docs/rules.md §4.1), which an unknown Resolve
/// is rolled on, by d6 − 1.
pub const UNKNOWN_RESOLVE: [Resolve; 6] = crate::forcegen::basic::SQUAD_RESOLVE;

/// One roll the next step makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DueRoll {
    /// The step, as in the roll log and the `dice` object.
    pub step: RollStep,
    /// The unit id, or the force id for the pool.
    pub subject: String,
    /// The unit's name (absent for the pool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_name: Option<String>,
    /// The dice, for example `1d6`.
    pub dice: String,
    /// Why the rules call for it, and what the faces do.
    pub why: String,
    /// The step's name under the ruleset where it is not the step's own ("Motivation change"
    /// for `resolve_change` on figures, M6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Whether a unit without a Resolve has an unknown one (the Unknown Resolve option) rather than
/// none at all: vehicles generally have none (C15), off-board units keep their starting Resolve
/// (§1.15), and a Fanatic's is fixed at Steady (C17).
pub fn resolve_unknown(unit: &Unit) -> bool {
    unit.resolve.is_none()
        && !matches!(unit.kind, UnitKind::Vehicle | UnitKind::OffBoardArtillery)
        && !unit.resolve_frozen()
        // A one-page unit has no Resolve at all (O3).
        && unit.one_page.is_none()
}

/// The Resolve rolled for a unit whose Resolve was unknown.
pub fn unknown_resolve(d6: u8) -> Resolve {
    UNKNOWN_RESOLVE[usize::from(d6.clamp(1, 6) - 1)]
}

/// Faces written as people write them: `5–6`, `1`, `1–2, 5`.
fn face_runs(faces: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &f in faces {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == f => *end = f,
            _ => runs.push((f, f)),
        }
    }
    runs.iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The faces of a d6 table whose row `pick` accepts; `None` when no face does.
fn faces<T: Copy>(table: &[T; 6], pick: impl Fn(T) -> bool) -> Option<String> {
    let picked: Vec<usize> = (1..=6).filter(|f| pick(table[f - 1])).collect();
    (!picked.is_empty()).then(|| face_runs(&picked))
}

/// A d6 table in words, each run of faces with its row: `1–2 none, 3–4 ..., 5–6 ...`.
fn table_text<T: Copy + PartialEq>(table: &[T; 6], words: impl Fn(T) -> String) -> String {
    let mut parts: Vec<(Vec<usize>, T)> = Vec::new();
    for (i, row) in table.iter().enumerate() {
        match parts.last_mut() {
            Some((faces, last)) if last == row => faces.push(i + 1),
            _ => parts.push((vec![i + 1], *row)),
        }
    }
    parts
        .into_iter()
        .map(|(faces, row)| format!("{} {}", face_runs(&faces), words(row)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn position(step: RollStep) -> usize {
    ROLL_STEPS.iter().position(|s| *s == step).unwrap_or(0)
}

impl Aftermath {
    /// The next roll step that needs dice; `None` once every roll is made.
    pub fn next_step(&self) -> Option<RollStep> {
        self.next_roll
    }

    /// Whether `step` is already rolled (or was passed because it needed no dice).
    pub fn step_done(&self, step: RollStep) -> bool {
        self.next_roll
            .is_none_or(|next| position(step) < position(next))
    }

    /// The rolls the next step makes (empty once every roll is made).
    pub fn next_dice(&self) -> Vec<DueRoll> {
        self.next_roll.map(|s| self.due(s)).unwrap_or_default()
    }

    fn unit_due(&self, step: RollStep, unit: &Unit, why: String) -> DueRoll {
        DueRoll {
            step,
            subject: unit.id.clone(),
            unit_name: Some(unit.name.clone()),
            dice: "1d6".to_owned(),
            why,
            label: None,
        }
    }

    /// Whether the sequence runs on figures (its ruleset examines casualties one by one, M4).
    fn on_figures(&self) -> bool {
        self.tables.casualty.is_some()
    }

    /// The rolls `step` makes on the state as it is, in roster order.
    pub fn due(&self, step: RollStep) -> Vec<DueRoll> {
        let loss = |id: &str| self.losses.get(id).copied().unwrap_or_default();
        let units = self.after_rolls.units();
        let t = &self.tables;
        match step {
            RollStep::Casualty => {
                let Some(table) = &t.casualty else {
                    return Vec::new();
                };
                let rows = table_text(table, |r| {
                    match r {
                        Casualty::Returns => "back on the roster",
                        Casualty::SeriouslyWounded => {
                            "seriously wounded, out (may be returned for 1 CP)"
                        }
                        Casualty::Dead => "dead",
                    }
                    .to_owned()
                });
                units
                    .filter(|u| figures::casualty_due(u, loss(&u.id)))
                    .map(|u| DueRoll {
                        label: Some(figures::CASUALTY_LABEL.to_owned()),
                        ..self.unit_due(
                            step,
                            u,
                            format!("down at the end of the battle: casualty roll ({rows}; M4)"),
                        )
                    })
                    .collect()
            }
            RollStep::Replacement => {
                // The table's words once per call, not per unit.
                let lone = match faces(&t.replacement, |r| r == InfantryReplacement::FullStrength)
                {
                    Some(f) => format!("a lone figure returns only on {f}"),
                    None => "a lone figure never returns by the roll".to_owned(),
                };
                let rows = table_text(&t.replacement, |r| {
                    match r {
                        InfantryReplacement::NoReplacements => "none",
                        InfantryReplacement::HalfTheLosses => "half the losses rounded up",
                        InfantryReplacement::FullStrength => "back to full strength",
                    }
                    .to_owned()
                });
                units
                    .filter(|u| {
                        u.kind.is_infantry_type() && u.fma.is_none() && loss(&u.id).figures > 0
                    })
                    .map(|u| {
                        let text = if u.is_lone_figure() { &lone } else { &rows };
                        let why = format!(
                            "lost {} figure(s): infantry replacements ({text})",
                            loss(&u.id).figures
                        );
                        self.unit_due(step, u, why)
                    })
                    .collect()
            }
            RollStep::VehicleReplacement => units
                .filter_map(|u| {
                    let table = &t.vehicle_replacement;
                    if u.one_page.is_some() {
                        return self.models_due(u, loss(&u.id).figures);
                    }
                    let why = match (u.kind, u.vehicle_state) {
                        (UnitKind::Vehicle, Some(VehicleState::Damaged)) => format!(
                            "damaged: vehicle replacements ({} repaired)",
                            faces(table, |r| r != VehicleReplacement::NotRepairedOrReplaced)
                                .unwrap_or_else(|| "never".to_owned())
                        ),
                        (UnitKind::Vehicle, Some(VehicleState::Destroyed))
                            if loss(&u.id).vehicle_damage == Some(VehicleDamage::Destroyed) =>
                        {
                            format!(
                                "destroyed: vehicle replacements ({} replaced)",
                                faces(table, |r| r == VehicleReplacement::RepairedOrReplaced)
                                    .unwrap_or_else(|| "never".to_owned())
                            )
                        }
                        _ => return None,
                    };
                    Some(self.unit_due(step, u, why))
                })
                .collect(),
            // No quality loss on figures (M5): a figure is never refilled.
            RollStep::QualityLoss if self.on_figures() => Vec::new(),
            RollStep::QualityLoss => units
                .filter_map(|u| {
                    let (figures, reference) = *self.replaced.get(&u.id)?;
                    quality_loss_due(figures, reference).then(|| {
                        // Few units roll this step: the words per unit cost nothing to speak of.
                        let drops = match faces(&t.quality_loss, |r| r == QualityLoss::Drops) {
                            Some(f) => format!("{f} drops one level"),
                            None => "Quality never drops".to_owned(),
                        };
                        let why = format!(
                            "received {figures} replacement(s), at least half of {reference}: quality loss ({drops})"
                        );
                        self.unit_due(step, u, why)
                    })
                })
                .collect(),
            RollStep::UnknownResolve => units
                .filter(|u| resolve_unknown(u) && u.fma.is_none() && loss(&u.id).figures > 0)
                .map(|u| {
                    let rows = table_text(&t.unknown_resolve, |r| {
                        crate::rulesets::fad5e::display_name(r.name())
                    });
                    let why =
                        format!("its Resolve is unknown and it took casualties: roll it ({rows})");
                    self.unit_due(step, u, why)
                })
                .collect(),
            RollStep::ResolveChange => {
                let rows = table_text(&t.resolve_change, |r| {
                    match r {
                        ResolveChange::Drops => "down one level",
                        ResolveChange::Stays => "same",
                        ResolveChange::Improves => "up one level",
                    }
                    .to_owned()
                });
                if self.on_figures() {
                    return self.motivation_due(&rows);
                }
                units
                .filter(|u| resolve_roll_due(u, loss(&u.id), &self.rules))
                .map(|u| {
                    let mut why = format!("suffered losses or damage: resolve change ({rows})");
                    if u.resolve.is_none() {
                        why.push_str("; its unrated crew counts as Steady (house rule vehicle_resolve_change, C15)");
                    }
                    self.unit_due(step, u, why)
                })
                .collect()
            }
            RollStep::Reinforcements => vec![DueRoll {
                step,
                subject: self.force_id.clone(),
                unit_name: None,
                dice: format!("{}d6", t.pool_dice),
                why: if self.on_figures() {
                    "the reinforcement pool: the total is the new figures available (M7)"
                } else {
                    "the reinforcement pool: the total is the troopers available"
                }
                .to_owned(),
                label: None,
            }],
            _ => Vec::new(),
        }
    }

    /// Makes the rolls of `step`, which must be the next one ([`Self::next_step`]); then passes
    /// the following steps that need no dice.
    pub fn roll_step(&mut self, step: RollStep, dice: &mut impl Dice) -> Result<(), Vec<Problem>> {
        if self.next_roll != Some(step) {
            let message = match self.next_roll {
                Some(next) => format!("the next step to roll is {next}"),
                None => "every post-battle roll is made".to_owned(),
            };
            return Err(vec![Problem::new("step", message)]);
        }
        let log_start = dice.log().len();
        let force_id = self.force_id.clone();
        for due in self.due(step) {
            let id = due.subject.as_str();
            if step == RollStep::Reinforcements {
                self.pool_dice = dice
                    .roll(
                        RollRequest::d6(step, id, usize::from(self.tables.pool_dice))
                            .for_force(&force_id),
                    )
                    .map_err(|e| vec![dice_problem(&e)])?;
                continue;
            }
            if step == RollStep::VehicleReplacement && self.is_one_page(id) {
                let count = self.losses.get(id).map_or(0, |l| l.figures);
                let rolls = dice
                    .roll(
                        RollRequest::d6(step, id, usize::try_from(count).unwrap_or(0))
                            .for_force(&force_id),
                    )
                    .map_err(|e| vec![dice_problem(&e)])?;
                self.replace_models(id, &rolls);
                continue;
            }
            let roll = roll_one(dice, step, id, &force_id)?;
            self.apply(step, id, roll);
        }
        self.rolls.extend_from_slice(&dice.log()[log_start..]);
        self.next_roll = ROLL_STEPS.get(position(step) + 1).copied();
        self.pass_empty_steps();
        Ok(())
    }

    /// Makes every roll that remains, step by step.
    pub fn roll_remaining(&mut self, dice: &mut impl Dice) -> Result<(), Vec<Problem>> {
        while let Some(step) = self.next_roll {
            self.roll_step(step, dice)?;
        }
        Ok(())
    }

    /// Moves past steps that need no dice.
    pub(super) fn pass_empty_steps(&mut self) {
        while let Some(step) = self.next_roll {
            if !self.due(step).is_empty() {
                return;
            }
            self.next_roll = ROLL_STEPS.get(position(step) + 1).copied();
        }
    }

    /// M6: each figure still on the roster in a team that lost figures, in roster order.
    fn motivation_due(&self, rows: &str) -> Vec<DueRoll> {
        let teams = figures::teams_with_losses(&self.battle_start, &self.losses);
        self.after_rolls
            .platoons
            .iter()
            .enumerate()
            .flat_map(|(i, team)| {
                let lost = teams.contains(&i);
                team.units
                    .iter()
                    .filter(move |u| figures::motivation_change_due(u, lost))
            })
            .map(|u| DueRoll {
                label: Some(figures::MOTIVATION_CHANGE.to_owned()),
                ..self.unit_due(
                    RollStep::ResolveChange,
                    u,
                    format!(
                        "its team lost figures: Motivation change on the resolve-change table ({rows}; up is toward 1, M6)"
                    ),
                )
            })
            .collect()
    }

    fn is_one_page(&self, id: &str) -> bool {
        self.after_rolls
            .unit(id)
            .is_some_and(|u| u.one_page.is_some())
    }

    /// O4: a one-page vehicle unit rolls one die per destroyed model.
    fn models_due(&self, unit: &Unit, lost: u32) -> Option<DueRoll> {
        if unit.kind != UnitKind::Vehicle || lost == 0 {
            return None;
        }
        let replaced = faces(&self.tables.vehicle_replacement, |r| {
            r == VehicleReplacement::RepairedOrReplaced
        })
        .unwrap_or_else(|| "never".to_owned());
        Some(DueRoll {
            dice: format!("{lost}d6"),
            why: format!(
                "lost {lost} vehicle model(s): one die each on vehicle replacements ({replaced} replaces the model; O4)"
            ),
            ..self.unit_due(RollStep::VehicleReplacement, unit, String::new())
        })
    }

    /// Applies a one-page vehicle unit's dice, one per destroyed model (O4): each die on the
    /// replacing row brings a model back; the replaced models count for quality loss (O1, C7).
    fn replace_models(&mut self, id: &str, rolls: &[u8]) {
        let Some(unit) = self.after_rolls.unit_mut(id) else {
            return;
        };
        let mut back = 0;
        for &roll in rolls {
            let row = d6_row(&self.tables.vehicle_replacement, roll);
            let fate = if row == VehicleReplacement::RepairedOrReplaced {
                back += 1;
                VehicleFate::Replaced
            } else {
                VehicleFate::Eliminated
            };
            self.roll_events.push(UnitEventRecord::new(
                id,
                UnitEvent::VehicleReplacement { roll, fate },
            ));
        }
        unit.strength = (unit.strength + back).min(unit.starting_strength);
        if unit.strength > 0 {
            unit.status = UnitStatus::Active;
        }
        if back > 0 {
            self.replaced
                .insert(id.to_owned(), (back, unit.starting_strength));
        }
    }

    fn apply(&mut self, step: RollStep, id: &str, roll: u8) {
        let loss = self.losses.get(id).copied().unwrap_or_default();
        let start_strength = self.battle_start.unit(id).map_or(0, |u| u.strength);
        let rules = self.rules;
        let Some(unit) = self.after_rolls.unit_mut(id) else {
            return;
        };
        let event = match step {
            RollStep::Casualty => {
                let Some(table) = &self.tables.casualty else {
                    return;
                };
                let casualty = casualty(table, roll);
                figures::apply_casualty(unit, casualty);
                UnitEvent::Casualty { roll, casualty }
            }
            RollStep::ResolveChange if unit.fma.is_some() => {
                let Some((from, to)) =
                    figures::apply_motivation_change(unit, &self.tables.resolve_change, roll)
                else {
                    return;
                };
                UnitEvent::MotivationChange { roll, from, to }
            }
            RollStep::Replacement => {
                let row = d6_row(&self.tables.replacement, roll);
                let figures = replaced_figures(unit, start_strength, loss.figures, row, &rules);
                unit.strength += figures;
                if unit.strength > 0 {
                    unit.status = UnitStatus::Active;
                }
                let reference = reference_strength(unit, start_strength, &rules);
                self.replaced.insert(id.to_owned(), (figures, reference));
                UnitEvent::Replacements { roll, figures }
            }
            RollStep::VehicleReplacement => {
                let state = unit.vehicle_state.unwrap_or(VehicleState::Operational);
                let Some(fate) =
                    vehicle_fate(state, d6_row(&self.tables.vehicle_replacement, roll))
                else {
                    return;
                };
                match fate {
                    VehicleFate::Repaired => unit.vehicle_state = Some(VehicleState::Operational),
                    VehicleFate::Replaced => {
                        unit.vehicle_state = Some(VehicleState::Operational);
                        unit.status = UnitStatus::Active;
                        // C7: a new vehicle counts as R = E = 1.
                        self.replaced.insert(id.to_owned(), (1, 1));
                    }
                    VehicleFate::StaysDamaged => {}
                    VehicleFate::Eliminated => unit.status = UnitStatus::Eliminated,
                }
                UnitEvent::VehicleReplacement { roll, fate }
            }
            RollStep::QualityLoss => {
                let from = unit.quality;
                unit.quality = quality_after(from, d6_row(&self.tables.quality_loss, roll));
                UnitEvent::QualityLoss {
                    roll,
                    from,
                    to: unit.quality,
                }
            }
            RollStep::UnknownResolve => {
                let to = d6_row(&self.tables.unknown_resolve, roll);
                unit.resolve = Some(to);
                UnitEvent::ResolveRolled { roll, to }
            }
            RollStep::ResolveChange => {
                // An unrated crew rolls as Steady under `vehicle_resolve_change` (C15) and
                // keeps the Resolve it rolls.
                let Some(from) = rolling_resolve(unit, loss, &rules) else {
                    return;
                };
                let to = resolve_after(from, d6_row(&self.tables.resolve_change, roll));
                unit.resolve = Some(to);
                UnitEvent::ResolveChange { roll, from, to }
            }
            _ => return,
        };
        self.roll_events.push(UnitEventRecord::new(id, event));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_resolve_uses_the_squad_resolve_table() {
        let got: Vec<_> = (1..=6).map(unknown_resolve).collect();
        use Resolve::*;
        assert_eq!(got, [Uncertain, Steady, Steady, Steady, Steady, Determined]);
    }
}
