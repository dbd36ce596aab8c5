//! Step 2, VEHICLE REPLACEMENTS (docs/rules.md §2.1–§2.3, C1, C16; S000 › CAMPAIGN RULES – QUICK ›
//! POST BATTLE STEPS › VEHICLE REPLACEMENTS).
//!
//! Every damaged or destroyed vehicle rolls 1d6. An unrepaired damaged vehicle stays damaged and
//! rolls again after each later battle; a destroyed vehicle that is not replaced is eliminated
//! and comes back only for 2 CP (C16).

use serde::{Deserialize, Serialize};

use crate::kit::VehicleState;

/// A row of the VEHICLE REPLACEMENTS table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum VehicleReplacement {
    /// 1–2: vehicle not repaired or replaced.
    NotRepairedOrReplaced,
    /// 3–4: a damaged vehicle is repaired; a destroyed one is not replaced.
    RepairedNotReplaced,
    /// 5–6: vehicle repaired or replaced.
    RepairedOrReplaced,
}

/// VEHICLE REPLACEMENTS by d6 − 1 (C1).
pub const VEHICLE_REPLACEMENTS: [VehicleReplacement; 6] = [
    VehicleReplacement::NotRepairedOrReplaced,
    VehicleReplacement::NotRepairedOrReplaced,
    VehicleReplacement::RepairedNotReplaced,
    VehicleReplacement::RepairedNotReplaced,
    VehicleReplacement::RepairedOrReplaced,
    VehicleReplacement::RepairedOrReplaced,
];

/// The table row for a d6.
pub fn vehicle_replacement(d6: u8) -> VehicleReplacement {
    VEHICLE_REPLACEMENTS[usize::from(d6.clamp(1, 6) - 1)]
}

/// What happened to one vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum VehicleFate {
    /// A damaged vehicle was repaired.
    Repaired,
    /// A destroyed vehicle was replaced (a wholly new crew: it makes the Quality Loss roll, C7).
    Replaced,
    /// A damaged vehicle stays damaged (not fielded; rolls again after the next battle).
    StaysDamaged,
    /// A destroyed vehicle is not replaced: eliminated, back only for 2 CP.
    Eliminated,
}

/// The fate of a vehicle in `state` (damaged or destroyed) on the table `row` its die gave;
/// `None` for an operational vehicle, which does not roll.
pub fn vehicle_fate(state: VehicleState, row: VehicleReplacement) -> Option<VehicleFate> {
    match state {
        VehicleState::Operational => None,
        VehicleState::Damaged => Some(match row {
            VehicleReplacement::NotRepairedOrReplaced => VehicleFate::StaysDamaged,
            _ => VehicleFate::Repaired,
        }),
        VehicleState::Destroyed => Some(match row {
            VehicleReplacement::RepairedOrReplaced => VehicleFate::Replaced,
            _ => VehicleFate::Eliminated,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On FAD 5e's table, by the die.
    fn vehicle_fate(state: VehicleState, d6: u8) -> Option<VehicleFate> {
        super::vehicle_fate(state, vehicle_replacement(d6))
    }

    #[test]
    fn c1_vehicle_replacement_table_rows_one_to_six() {
        use VehicleReplacement::*;
        let rows: Vec<_> = (1..=6).map(vehicle_replacement).collect();
        assert_eq!(
            rows,
            [
                NotRepairedOrReplaced,
                NotRepairedOrReplaced,
                RepairedNotReplaced,
                RepairedNotReplaced,
                RepairedOrReplaced,
                RepairedOrReplaced
            ]
        );
    }

    #[test]
    fn c16_damaged_vehicle_is_repaired_on_three_or_more() {
        use VehicleFate::*;
        let got: Vec<_> = (1..=6)
            .map(|d| vehicle_fate(VehicleState::Damaged, d))
            .collect();
        assert_eq!(
            got,
            [
                Some(StaysDamaged),
                Some(StaysDamaged),
                Some(Repaired),
                Some(Repaired),
                Some(Repaired),
                Some(Repaired)
            ]
        );
    }

    #[test]
    fn c16_destroyed_vehicle_is_replaced_only_on_five_or_six() {
        use VehicleFate::*;
        let got: Vec<_> = (1..=6)
            .map(|d| vehicle_fate(VehicleState::Destroyed, d))
            .collect();
        assert_eq!(
            got,
            [
                Some(Eliminated),
                Some(Eliminated),
                Some(Eliminated),
                Some(Eliminated),
                Some(Replaced),
                Some(Replaced)
            ]
        );
    }

    #[test]
    fn operational_vehicle_does_not_roll() {
        assert_eq!(vehicle_fate(VehicleState::Operational, 6), None);
    }
}
