//! Step 4, RESOLVE CHANGE (docs/rules.md §2.1–§2.3, C1, C8, C15, C17; S000 › CAMPAIGN RULES – QUICK
//! › POST BATTLE STEPS › RESOLVE CHANGE; POINT VALUE SYSTEM on Fanatic).
//!
//! A unit that suffered losses or damage of any kind rolls 1d6, if it still has figures, bears a
//! Resolve (a vehicle only when its crew has one, C15), and its Resolve may change: Fanatic and
//! Zombie units are fixed at Steady (C17), and off-board units "cannot change their starting
//! Resolve" (docs/rules.md §1.15).

use serde::{Deserialize, Serialize};

use super::report::AppliedLoss;
use crate::house_rules::HouseRules;
use crate::ladder::{Ladder, Resolve};
use crate::roster::{Unit, UnitKind, UnitStatus};

/// A row of the RESOLVE CHANGE table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ResolveChange {
    /// 1–2: Resolve drops one level (never below Reluctant).
    Drops,
    /// 3–4: Resolve stays the same.
    Stays,
    /// 5–6: Resolve improves one level (never above Determined, C8).
    Improves,
}

/// RESOLVE CHANGE by d6 − 1 (C1).
pub const RESOLVE_CHANGE: [ResolveChange; 6] = [
    ResolveChange::Drops,
    ResolveChange::Drops,
    ResolveChange::Stays,
    ResolveChange::Stays,
    ResolveChange::Improves,
    ResolveChange::Improves,
];

/// The table row for a d6.
pub fn resolve_change(d6: u8) -> ResolveChange {
    RESOLVE_CHANGE[usize::from(d6.clamp(1, 6) - 1)]
}

/// The Resolve after the table `row` the roll gave, clamped at both ends of the ladder (C8).
pub fn resolve_after(resolve: Resolve, row: ResolveChange) -> Resolve {
    match row {
        ResolveChange::Drops => resolve.down(),
        ResolveChange::Stays => resolve,
        ResolveChange::Improves => resolve.up(),
    }
}

/// Whether the unit's Resolve can change at all: it has one, is not Fanatic or Zombie (C17) and
/// is not an off-board unit (§1.15). Shared with the Resolve purchase.
pub fn resolve_can_change(unit: &Unit) -> bool {
    unit.resolve.is_some() && !unit.resolve_frozen() && unit.kind != UnitKind::OffBoardArtillery
}

/// The Resolve a unit rolls Resolve Change from: its own; or, with the house rule
/// `vehicle_resolve_change` (C15), Steady for a vehicle whose unrated crew was damaged or
/// destroyed (and replaced) in this battle. `None`: the unit has no Resolve to change.
pub fn rolling_resolve(unit: &Unit, loss: AppliedLoss, rules: &HouseRules) -> Option<Resolve> {
    let unrated_vehicle_rolls = rules.vehicle_resolve_change
        && unit.kind == UnitKind::Vehicle
        && loss.vehicle_damage.is_some();
    match unit.resolve {
        Some(resolve) => Some(resolve),
        None if unrated_vehicle_rolls => Some(Resolve::Steady),
        None => None,
    }
}

/// Whether `unit` (after steps 1–2) makes the Resolve Change roll, given its losses or damage in
/// this battle: it must still be on the table (figures left, not eliminated, C6; a destroyed
/// vehicle only once replaced, C16) and have a Resolve that can change ([`rolling_resolve`]).
pub fn resolve_roll_due(unit: &Unit, loss: AppliedLoss, rules: &HouseRules) -> bool {
    loss.any()
        && unit.status == UnitStatus::Active
        && unit.strength > 0
        && rolling_resolve(unit, loss, rules).is_some()
        && !unit.resolve_frozen()
        && unit.kind != UnitKind::OffBoardArtillery
        // No Resolve in the one-page family, whatever the house rules say (O3).
        && unit.one_page.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::VehicleDamage;
    use crate::campaign::testkit::{squad, vehicle, with_kind};
    use crate::traits::Trait;

    /// On FAD 5e's table, by the die.
    fn resolve_after(resolve: Resolve, d6: u8) -> Resolve {
        super::resolve_after(resolve, resolve_change(d6))
    }

    const LOST: AppliedLoss = AppliedLoss {
        figures: 1,
        vehicle_damage: None,
    };
    const NOTHING: AppliedLoss = AppliedLoss {
        figures: 0,
        vehicle_damage: None,
    };
    const DAMAGED: AppliedLoss = AppliedLoss {
        figures: 0,
        vehicle_damage: Some(VehicleDamage::Damaged),
    };

    /// Under the default house rules.
    fn due(unit: &Unit, loss: AppliedLoss) -> bool {
        resolve_roll_due(unit, loss, &HouseRules::default())
    }

    #[test]
    fn c1_resolve_change_rows_one_to_six() {
        use ResolveChange::*;
        let rows: Vec<_> = (1..=6).map(resolve_change).collect();
        assert_eq!(rows, [Drops, Drops, Stays, Stays, Improves, Improves]);
    }

    #[test]
    fn c8_resolve_clamps_at_determined_and_reluctant() {
        assert_eq!(resolve_after(Resolve::Steady, 6), Resolve::Determined);
        assert_eq!(resolve_after(Resolve::Determined, 5), Resolve::Determined);
        assert_eq!(resolve_after(Resolve::Reluctant, 1), Resolve::Reluctant);
        assert_eq!(resolve_after(Resolve::Steady, 2), Resolve::Uncertain);
        assert_eq!(resolve_after(Resolve::Steady, 4), Resolve::Steady);
    }

    #[test]
    fn c17_fanatic_and_zombie_units_skip_the_roll() {
        let mut u = squad("s", 8);
        u.traits = vec![Trait::Fanatic];
        assert!(!due(&u, LOST));
        u.traits = vec![Trait::Zombie];
        assert!(!due(&u, LOST));
        u.traits = vec![];
        assert!(due(&u, LOST));
        assert!(!due(&u, NOTHING));
    }

    #[test]
    fn c15_vehicle_rolls_only_when_its_crew_has_resolve() {
        let mut v = vehicle("v");
        assert!(!due(&v, DAMAGED));
        v.resolve = Some(Resolve::Steady);
        assert!(due(&v, DAMAGED));
        assert!(due(&v, LOST), "a rated crew's losses count too");
    }

    #[test]
    fn c15_vehicle_resolve_change_rolls_every_damaged_or_replaced_vehicle_as_steady() {
        let rules = HouseRules {
            vehicle_resolve_change: true,
            ..HouseRules::default()
        };
        let destroyed = AppliedLoss {
            figures: 0,
            vehicle_damage: Some(VehicleDamage::Destroyed),
        };
        let v = vehicle("v");
        assert!(resolve_roll_due(&v, DAMAGED, &rules));
        assert_eq!(rolling_resolve(&v, DAMAGED, &rules), Some(Resolve::Steady));
        // Destroyed and replaced: active again, so it rolls; not replaced, it does not (C16).
        assert!(resolve_roll_due(&v, destroyed, &rules));
        let mut gone = vehicle("g");
        gone.status = UnitStatus::Eliminated;
        assert!(!resolve_roll_due(&gone, destroyed, &rules));
        // Crew losses alone are not damage; and a rated crew rolls from its own Resolve.
        assert!(!resolve_roll_due(&v, LOST, &rules));
        let mut rated = vehicle("r");
        rated.resolve = Some(Resolve::Determined);
        assert_eq!(
            rolling_resolve(&rated, DAMAGED, &rules),
            Some(Resolve::Determined)
        );
        // Squads are unaffected by the switch.
        assert_eq!(
            rolling_resolve(&squad("s", 8), LOST, &rules),
            Some(Resolve::Steady)
        );
    }

    #[test]
    fn c6_an_eliminated_unit_does_not_roll_for_resolve() {
        let mut u = squad("s", 8);
        u.strength = 0;
        u.status = UnitStatus::Eliminated;
        assert!(!due(&u, LOST));
    }

    #[test]
    fn off_board_units_cannot_change_their_starting_resolve() {
        let u = with_kind(squad("a", 1), UnitKind::OffBoardArtillery);
        assert!(!due(&u, LOST));
    }
}
