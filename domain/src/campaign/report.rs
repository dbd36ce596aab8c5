//! The battle report the post-battle sequence starts from: per-unit losses and vehicle damage
//! (docs/rules.md §2.3 inputs, C2, C16; S000 › CAMPAIGN RULES – QUICK › POST BATTLE STEPS).
//!
//! The sequence takes the roster **as it stood at the start of the battle** together with this
//! report, and applies the losses itself. The battle-start roster is needed anyway: a wiped-out
//! unit's L is every figure it had then (C4), the C3 alternative reads "full strength" as the
//! battle-start strength, and P is counted at the start of the battle (C12).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::kit::VehicleState;
use crate::named_enum;
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus};

named_enum! {
    /// How a vehicle ended the battle (docs/rules.md C16).
    pub enum VehicleDamage("vehicle_damage") {
        /// System-killed, immobilized or abandoned at battle end.
        Damaged = "damaged",
        /// Vehicle kill, or destroyed in close assault.
        Destroyed = "destroyed",
    }
}

/// One unit's line of the battle report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnitLosses {
    /// The unit.
    pub unit_id: String,
    /// Figures dead, captured/lost or untreated-wounded at battle end (C2).
    #[serde(default)]
    pub figures_lost: u32,
    /// The unit was wiped out: every figure it had at the start of the battle is lost (C4).
    #[serde(default)]
    pub eliminated: bool,
    /// Vehicle end state; `null` for an undamaged vehicle or a foot unit.
    #[serde(default)]
    pub vehicle_damage: Option<VehicleDamage>,
    /// A recon unit destroyed by ambush: all its figures are lost (C2).
    #[serde(default)]
    pub destroyed_on_recon: bool,
}

/// The battle report for one force.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BattleReport {
    /// Per-unit losses; units not listed lost nothing.
    #[serde(default)]
    pub losses: Vec<UnitLosses>,
}

/// What one unit lost, after the report was checked against the roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppliedLoss {
    /// L: figures lost (for a vehicle, crew losses; they trigger only the Resolve roll, C15).
    pub figures: u32,
    /// Vehicle damage suffered in this battle.
    pub vehicle_damage: Option<VehicleDamage>,
}

impl AppliedLoss {
    /// "Suffered losses (or damage) of any kind" (docs/rules.md §2.1 step 4).
    pub fn any(&self) -> bool {
        self.figures > 0 || self.vehicle_damage.is_some()
    }
}

/// Why a vehicle that was not fielded cannot appear with damage or losses in a report (C16).
fn sat_out(unit: &Unit) -> String {
    let why = if unit.status == UnitStatus::Eliminated {
        "was eliminated before the battle"
    } else {
        "was left damaged by an earlier battle and not repaired"
    };
    format!(
        "the vehicle {why}, so it was not on the table (C16): it cannot be damaged, destroyed or lose crew in this battle"
    )
}

/// Checks the report against the battle-start roster and returns each unit's loss by unit id.
/// Every problem is reported at once, with paths like `losses[2].figures_lost`. Contradictory
/// lines are refused: more figures lost than the unit had, a wiped-out foot unit that did not
/// lose all of them, vehicle damage on a foot unit, an eliminated vehicle reported only damaged,
/// damage or crew losses for a vehicle that was not fielded (eliminated, or damaged and not
/// repaired).
pub fn check_report(
    roster: &Force,
    report: &BattleReport,
) -> Result<BTreeMap<String, AppliedLoss>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut out = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for (i, line) in report.losses.iter().enumerate() {
        let at = |f: &str| format!("losses[{i}].{f}");
        let Some(unit) = roster.unit(&line.unit_id) else {
            problems.push(Problem::new(at("unit_id"), "no such unit in this force"));
            continue;
        };
        if !seen.insert(line.unit_id.as_str()) {
            problems.push(Problem::new(at("unit_id"), "unit listed twice"));
            continue;
        }
        let is_vehicle = unit.kind == UnitKind::Vehicle;
        // A vehicle's figures are its crew (C15); a foot unit's are its strength.
        let figures = match &unit.vehicle {
            Some(profile) if is_vehicle => profile.crew.max(unit.strength),
            _ => unit.strength,
        };
        if line.figures_lost > figures {
            problems.push(Problem::new(
                at("figures_lost"),
                format!(
                    "{} figures lost, but the unit had {figures} at the start of the battle",
                    line.figures_lost
                ),
            ));
            continue;
        }
        if line.vehicle_damage.is_some() && !is_vehicle {
            problems.push(Problem::new(
                at("vehicle_damage"),
                "only a vehicle can be damaged or destroyed",
            ));
            continue;
        }
        let wiped_out = line.eliminated || line.destroyed_on_recon;
        // A one-page vehicle unit counts its models like bases (O4).
        let by_models = is_vehicle && unit.one_page.is_some();
        // A wiped-out unit lost every figure (C2, C4); a lower count contradicts it. 0 is a
        // count left out (the field's default), which means all of them.
        if wiped_out
            && (!is_vehicle || by_models)
            && line.figures_lost != 0
            && line.figures_lost != unit.strength
        {
            problems.push(Problem::new(
                at("figures_lost"),
                format!(
                    "the unit is reported wiped out, so it lost all {} figures it had at the start of the battle, not {}",
                    unit.strength, line.figures_lost
                ),
            ));
            continue;
        }
        // An eliminated vehicle is a destroyed one (C16), never merely damaged.
        if wiped_out && is_vehicle && line.vehicle_damage == Some(VehicleDamage::Damaged) {
            problems.push(Problem::new(
                at("vehicle_damage"),
                "the vehicle is reported eliminated, which means destroyed; give destroyed or leave vehicle damage out",
            ));
            continue;
        }
        let damaged = line.vehicle_damage.is_some() || wiped_out;
        // A vehicle that sat the battle out (eliminated, or damaged and not repaired, C16) was
        // not on the table: nothing can happen to it or its crew in this battle.
        if is_vehicle && !unit.is_fielded() && (damaged || line.figures_lost > 0) {
            let field = if damaged {
                "vehicle_damage"
            } else {
                "figures_lost"
            };
            problems.push(Problem::new(at(field), sat_out(unit)));
            continue;
        }
        let (figures, vehicle_damage) = if by_models {
            // O4: an immobilised model is fine by the next turn; a destroyed one is lost.
            let all = wiped_out || line.vehicle_damage == Some(VehicleDamage::Destroyed);
            (
                if all {
                    unit.strength
                } else {
                    line.figures_lost
                },
                None,
            )
        } else if is_vehicle {
            let damage = if wiped_out {
                Some(VehicleDamage::Destroyed)
            } else {
                line.vehicle_damage
            };
            (line.figures_lost, damage)
        } else if wiped_out {
            (unit.strength, None)
        } else {
            (line.figures_lost, None)
        };
        out.insert(
            line.unit_id.clone(),
            AppliedLoss {
                figures,
                vehicle_damage,
            },
        );
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Whether `line` reports every figure of `unit` lost: wiped out, destroyed on recon, all its
/// figures given, or (for a vehicle) destroyed.
fn reports_all_lost(unit: &Unit, line: &UnitLosses) -> bool {
    line.eliminated
        || line.destroyed_on_recon
        || if unit.kind == UnitKind::Vehicle && unit.one_page.is_none() {
            line.vehicle_damage == Some(VehicleDamage::Destroyed)
        } else {
            line.figures_lost >= unit.strength
        }
}

/// Checks that every unit an ambush destroyed on its recon return (`ambushed`, docs/rules.md
/// §3.6, C2) is reported wiped out: a report that leaves one out, or gives it fewer losses, is
/// refused naming the unit. (The service does not book the losses itself: the report is the
/// players' account of the battle, and a silent fix would hide the slip.)
pub fn check_ambushed(roster: &Force, report: &BattleReport, ambushed: &[String]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for id in ambushed {
        let Some(unit) = roster.unit(id) else {
            continue;
        };
        let lost = if unit.kind == UnitKind::Vehicle {
            "counts as destroyed".to_owned()
        } else {
            format!("lost all {} figures", unit.strength)
        };
        let why = format!(
            "{} was destroyed by an ambush on its recon return (C2), so it {lost}: report it with destroyed_on_recon",
            unit.name
        );
        match report.losses.iter().position(|l| l.unit_id == *id) {
            None => problems.push(Problem::new("losses", format!("{why}; it has no line"))),
            Some(i) if !reports_all_lost(unit, &report.losses[i]) => {
                let field = if unit.kind == UnitKind::Vehicle {
                    "vehicle_damage"
                } else {
                    "figures_lost"
                };
                problems.push(Problem::new(format!("losses[{i}].{field}"), why));
            }
            Some(_) => {}
        }
    }
    problems
}

/// Applies the checked losses to a copy of the battle-start roster: foot units lose figures
/// (status `eliminated` at zero, C6); vehicles take their damage state, and a destroyed vehicle
/// is off the table until the vehicle replacement roll (C16). A vehicle's `strength` is left
/// alone: its crew losses only trigger the Resolve roll (C15).
pub fn apply_losses(roster: &Force, losses: &BTreeMap<String, AppliedLoss>) -> Force {
    let mut out = roster.clone();
    for unit in out.units_mut() {
        let Some(loss) = losses.get(&unit.id) else {
            continue;
        };
        if unit.kind == UnitKind::Vehicle && unit.one_page.is_none() {
            match loss.vehicle_damage {
                // A vehicle destroyed earlier and not replaced cannot be "damaged" again.
                Some(VehicleDamage::Damaged)
                    if unit.vehicle_state != Some(VehicleState::Destroyed) =>
                {
                    unit.vehicle_state = Some(VehicleState::Damaged);
                }
                Some(VehicleDamage::Destroyed) => {
                    unit.vehicle_state = Some(VehicleState::Destroyed);
                    unit.status = UnitStatus::Eliminated;
                }
                _ => {}
            }
        } else {
            unit.strength = unit.strength.saturating_sub(loss.figures);
            if unit.strength == 0 {
                unit.status = UnitStatus::Eliminated;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::testkit::{force_of, squad, vehicle};

    fn line(unit: &str, figures_lost: u32) -> UnitLosses {
        UnitLosses {
            unit_id: unit.into(),
            figures_lost,
            eliminated: false,
            vehicle_damage: None,
            destroyed_on_recon: false,
        }
    }

    fn report(losses: Vec<UnitLosses>) -> BattleReport {
        BattleReport { losses }
    }

    fn fields(problems: &[Problem]) -> Vec<&str> {
        problems.iter().map(|p| p.field.as_str()).collect()
    }

    #[test]
    fn c2_c16_a_damaged_vehicle_that_sat_out_takes_no_damage_or_losses() {
        let mut parked = vehicle("v");
        parked.vehicle_state = Some(VehicleState::Damaged);
        let roster = force_of(vec![vec![squad("s", 6), parked]]);
        let cases = [
            (
                UnitLosses {
                    vehicle_damage: Some(VehicleDamage::Damaged),
                    ..line("v", 0)
                },
                "losses[0].vehicle_damage",
            ),
            (
                UnitLosses {
                    vehicle_damage: Some(VehicleDamage::Destroyed),
                    ..line("v", 0)
                },
                "losses[0].vehicle_damage",
            ),
            (
                UnitLosses {
                    eliminated: true,
                    ..line("v", 0)
                },
                "losses[0].vehicle_damage",
            ),
            (line("v", 2), "losses[0].figures_lost"),
        ];
        for (l, field) in cases {
            let problems = check_report(&roster, &report(vec![l.clone()])).unwrap_err();
            assert_eq!(fields(&problems), [field], "{l:?}");
            assert!(problems[0].message.contains("not repaired"), "{problems:?}");
        }
        // A line that reports nothing for it is harmless; a repaired one can be damaged again.
        assert!(check_report(&roster, &report(vec![line("v", 0)])).is_ok());
        let mut repaired = roster.clone();
        repaired.units_mut().for_each(|u| {
            if u.id == "v" {
                u.vehicle_state = Some(VehicleState::Operational);
            }
        });
        let damaged = UnitLosses {
            vehicle_damage: Some(VehicleDamage::Damaged),
            ..line("v", 1)
        };
        assert!(check_report(&repaired, &report(vec![damaged])).is_ok());
    }

    #[test]
    fn c2_s3_6_a_unit_ambushed_on_recon_must_be_reported_wiped_out() {
        let roster = force_of(vec![vec![squad("s", 6), squad("t", 8), vehicle("v")]]);
        let ambushed = ["s".to_owned(), "v".to_owned()];
        // Left out entirely: one problem per unit, naming it.
        let none = check_ambushed(&roster, &report(vec![line("t", 1)]), &ambushed);
        assert_eq!(fields(&none), ["losses", "losses"]);
        assert!(none[0].message.contains("Squad s") && none[0].message.contains("all 6"));
        assert!(none[1].message.contains("Vehicle v"));
        // Fewer losses, or a vehicle only damaged.
        let fewer = check_ambushed(
            &roster,
            &report(vec![
                line("s", 5),
                UnitLosses {
                    vehicle_damage: Some(VehicleDamage::Damaged),
                    ..line("v", 0)
                },
            ]),
            &ambushed,
        );
        assert_eq!(
            fields(&fewer),
            ["losses[0].figures_lost", "losses[1].vehicle_damage"]
        );
        // Wiped out by any of the ways a report says so.
        let whole = [
            UnitLosses {
                destroyed_on_recon: true,
                ..line("s", 0)
            },
            UnitLosses {
                eliminated: true,
                ..line("v", 0)
            },
        ];
        assert!(check_ambushed(&roster, &report(whole.to_vec()), &ambushed).is_empty());
        let counted = [
            line("s", 6),
            UnitLosses {
                vehicle_damage: Some(VehicleDamage::Destroyed),
                ..line("v", 0)
            },
        ];
        assert!(check_ambushed(&roster, &report(counted.to_vec()), &ambushed).is_empty());
    }
}
