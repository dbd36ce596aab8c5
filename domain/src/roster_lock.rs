//! Rosters locked after play (the campaign setting `lock_rosters_after_play`): once a force has
//! fought, its ratings move through the post-battle sequence (docs/rules.md §2), not through edits.
//! An edit that raises a unit's Quality, Resolve, strength, establishment or points, or adds a
//! unit, needs the organiser; lowering, renaming and fixing typos stay free.

use crate::ladder::Ladder;
use crate::points::unit_points;
use crate::roster::{Force as Roster, Problem, Unit};

/// Points differences below this are rounding, not a raise.
const POINTS_EPSILON: f64 = 0.005;

fn raise(
    field: String,
    what: &str,
    from: impl std::fmt::Display,
    to: impl std::fmt::Display,
) -> Problem {
    Problem::new(
        field,
        format!(
            "raises {what} from {from} to {to}; after the force has fought, only the post-battle sequence or the organiser (with a reason) may raise it"
        ),
    )
}

fn unit_raises(before: &Unit, after: &Unit, at: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if after.quality.index() > before.quality.index() {
        out.push(raise(
            format!("{at}.quality"),
            "Quality",
            before.quality,
            after.quality,
        ));
    }
    match (before.resolve, after.resolve) {
        (Some(b), Some(a)) if a.index() > b.index() => {
            out.push(raise(format!("{at}.resolve"), "Resolve", b, a));
        }
        (None, Some(a)) => out.push(raise(format!("{at}.resolve"), "Resolve", "unknown", a)),
        _ => {}
    }
    if after.strength > before.strength {
        out.push(raise(
            format!("{at}.strength"),
            "strength",
            before.strength,
            after.strength,
        ));
    }
    if after.starting_strength > before.starting_strength {
        out.push(raise(
            format!("{at}.starting_strength"),
            "the establishment",
            before.starting_strength,
            after.starting_strength,
        ));
    }
    let (from, to) = (unit_points(before), unit_points(after));
    if out.is_empty() && to > from + POINTS_EPSILON {
        out.push(raise(
            at.to_owned(),
            "the unit's points",
            format!("{from:.2}"),
            format!("{to:.2}"),
        ));
    }
    out
}

fn total_points(roster: &Roster) -> f64 {
    roster.units().map(unit_points).sum()
}

/// Every raise `after` makes over `before`, each naming its field in the request
/// (`platoons[i].units[j].quality`, ...). Empty when the edit only lowers, renames or fixes.
/// A kept unit (same id) is compared field by field; new units count as a raise when the
/// force's points go up (re-entering a unit, or swapping one for a cheaper one, stays free).
pub fn raises(before: &Roster, after: &Roster) -> Vec<Problem> {
    let mut out = Vec::new();
    let (from, to) = (total_points(before), total_points(after));
    for (i, platoon) in after.platoons.iter().enumerate() {
        for (j, unit) in platoon.units.iter().enumerate() {
            let at = format!("platoons[{i}].units[{j}]");
            match before.unit(&unit.id) {
                Some(old) => out.extend(unit_raises(old, unit, &at)),
                None if to > from + POINTS_EPSILON => out.push(Problem::new(
                    at,
                    format!(
                        "adds a unit and raises the force's points from {from:.2} to {to:.2}; after the force has fought, only the post-battle sequence or the organiser (with a reason) may"
                    ),
                )),
                None => {}
            }
        }
    }
    out
}
