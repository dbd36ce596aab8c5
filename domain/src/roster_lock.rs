//! Rosters locked after play (the campaign setting `lock_rosters_after_play`): once a force has
//! fought, its ratings move through the post-battle sequence (docs/rules.md §2), not through edits.
//! An edit that raises a unit's Quality, Resolve, strength, establishment or points, repairs a
//! vehicle, raises a squad leader's experience, or adds a unit, needs the organiser; lowering,
//! renaming and fixing typos stay free.

use crate::kit::VehicleState;
use crate::ladder::{Ladder, LeaderExperience};
use crate::points::unit_points;
use crate::roster::{Force as Roster, Problem, Unit, UnitKind};

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

/// A vehicle's state from worst to best; no state is an operational vehicle.
const VEHICLE_STATES: [VehicleState; 3] = [
    VehicleState::Destroyed,
    VehicleState::Damaged,
    VehicleState::Operational,
];

fn vehicle_rank(state: Option<VehicleState>) -> usize {
    let state = state.unwrap_or(VehicleState::Operational);
    VEHICLE_STATES.iter().position(|s| *s == state).unwrap_or(0)
}

/// A vehicle set back to a better state (a damaged one to operational): the repair the vehicle
/// replacement roll or the 1-point repair gives (C16), not an edit.
fn repair(before: &Unit, after: &Unit, at: &str) -> Option<Problem> {
    let (from, to) = (before.vehicle_state, after.vehicle_state);
    (before.kind == UnitKind::Vehicle && vehicle_rank(to) > vehicle_rank(from)).then(|| {
        raise(
            format!("{at}.vehicle_state"),
            "the vehicle's state",
            from.unwrap_or(VehicleState::Operational),
            to.unwrap_or(VehicleState::Operational),
        )
    })
}

/// A squad leader's experience raised; no recorded experience counts as Experienced (no
/// effect on Morale Tests, F3).
fn leader_raise(before: &Unit, after: &Unit, at: &str) -> Option<Problem> {
    let level = |e: Option<LeaderExperience>| e.unwrap_or(LeaderExperience::Experienced);
    let (from, to) = (
        level(before.leader_experience),
        level(after.leader_experience),
    );
    (to.rank() > from.rank()).then(|| {
        raise(
            format!("{at}.leader_experience"),
            "the squad leader's experience",
            from,
            to,
        )
    })
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
    if let Some(p) = repair(before, after, at) {
        out.push(p);
    }
    if let Some(p) = leader_raise(before, after, at) {
        out.push(p);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::testkit::{force_of, squad, vehicle};

    fn fields(problems: &[Problem]) -> Vec<&str> {
        problems.iter().map(|p| p.field.as_str()).collect()
    }

    /// The roster with unit `id` changed by `change`.
    fn edited(roster: &Roster, id: &str, change: impl Fn(&mut Unit)) -> Roster {
        let mut out = roster.clone();
        out.units_mut().filter(|u| u.id == id).for_each(change);
        out
    }

    #[test]
    fn c26_repairing_a_damaged_vehicle_is_a_raise() {
        let mut parked = vehicle("v");
        parked.vehicle_state = Some(VehicleState::Damaged);
        let before = force_of(vec![vec![squad("s", 6), parked]]);
        for to in [Some(VehicleState::Operational), None] {
            let after = edited(&before, "v", |u| u.vehicle_state = to);
            let problems = raises(&before, &after);
            assert_eq!(fields(&problems), ["platoons[0].units[1].vehicle_state"]);
            assert!(problems[0].message.contains("from damaged to operational"));
        }
        // Marking a vehicle damaged (a lowering) stays free.
        let fine = force_of(vec![vec![vehicle("v")]]);
        let lowered = edited(&fine, "v", |u| {
            u.vehicle_state = Some(VehicleState::Damaged)
        });
        assert!(raises(&fine, &lowered).is_empty());
    }

    #[test]
    fn c26_raising_a_squad_leaders_experience_is_a_raise() {
        let mut led = squad("s", 6);
        led.leader_experience = Some(LeaderExperience::Inexperienced);
        let before = force_of(vec![vec![led, squad("t", 6)]]);
        let after = edited(&before, "s", |u| {
            u.leader_experience = Some(LeaderExperience::Veteran);
        });
        let problems = raises(&before, &after);
        assert_eq!(
            fields(&problems),
            ["platoons[0].units[0].leader_experience"]
        );
        assert!(
            problems[0]
                .message
                .contains("from inexperienced to veteran")
        );
        // No recorded leader counts as Experienced: a Veteran is a raise, Inexperienced is not.
        let veteran = edited(&before, "t", |u| {
            u.leader_experience = Some(LeaderExperience::Veteran);
        });
        assert_eq!(
            fields(&raises(&before, &veteran)),
            ["platoons[0].units[1].leader_experience"]
        );
        let green = edited(&before, "t", |u| {
            u.leader_experience = Some(LeaderExperience::Inexperienced);
        });
        assert!(raises(&before, &green).is_empty());
    }
}
