//! Step 6 – contact markers: True markers (S14), Dummy markers with every modifier (S1, S12,
//! S13), who places first, and the placement in batches of five (S15) (docs/rules.md §3.6;
//! S000 › SCENARIO GENERATION › Deploy Contact Markers; NIGHT FIGHTING; TECHNOLOGY › HOLO
//! PROJECTORS).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollStep};
use crate::orders::Stance;
use crate::roster::{Unit, UnitKind};
use crate::traits::{DummyMarkerGroup, Trait};

/// Dummy markers per platoon (P, C12).
pub const DUMMY_PER_PLATOON: i32 = 5;
/// Dummy markers per platoon by stance: Neutral +2, Defensive −2 (the same effect as the stance
/// blurbs, S1).
pub const STANCE_DUMMY_PER_PLATOON: [(Stance, i32); 3] = [
    (Stance::Offensive, 0),
    (Stance::Neutral, 2),
    (Stance::Defensive, -2),
];
/// Per unit with Elusive or Stealth (counted once, S13).
pub const DUMMY_PER_ELUSIVE_OR_STEALTH_UNIT: i32 = 1;
/// Per unit with Flyer or Relentless (counted once, S13).
pub const DUMMY_PER_FLYER_OR_RELENTLESS_UNIT: i32 = -1;
/// Per Holo Projector.
pub const DUMMY_PER_HOLO_PROJECTOR: i32 = 1;
/// Most Holo Projectors a side may declare: far beyond any force, and it keeps the marker count
/// (and so the placement plan) small.
pub const MAX_HOLO_PROJECTORS: u32 = 100;
/// Markers placed per turn (S15).
pub const MARKERS_PER_BATCH: u32 = 5;

/// A side's contact markers (identities are never shown to the opponent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactMarkers {
    /// True markers.
    #[serde(rename = "true")]
    pub true_markers: u32,
    /// Dummy markers.
    pub dummy: u32,
}

impl ContactMarkers {
    /// True plus Dummy.
    pub fn total(self) -> u32 {
        self.true_markers.saturating_add(self.dummy)
    }
}

/// Dummy markers: 5 per platoon, ±2 per platoon by stance, +1 per Elusive/Stealth unit, −1 per
/// Flyer/Relentless unit (a unit with both of a pair counts once, S13), +1d6 for night fighting,
/// +1 per Holo Projector; never below 0 (S13). `unit_traits` are each unit's traits, including
/// mission-bonus traits given at step 5 (S12).
pub fn dummy_markers(
    platoons: u32,
    stance: Stance,
    unit_traits: &[Vec<Trait>],
    night_fighting_roll: Option<u8>,
    holo_projectors: u32,
) -> u32 {
    let p = i64::from(platoons.max(1));
    let stance_mod = STANCE_DUMMY_PER_PLATOON
        .iter()
        .find(|(s, _)| *s == stance)
        .map_or(0, |x| x.1);
    let mut total = p * i64::from(DUMMY_PER_PLATOON + stance_mod);
    for traits in unit_traits {
        let groups: BTreeSet<_> = traits
            .iter()
            .filter_map(|t| t.dummy_marker_group())
            .map(|g| g == DummyMarkerGroup::Adds)
            .collect();
        if groups.contains(&true) {
            total += i64::from(DUMMY_PER_ELUSIVE_OR_STEALTH_UNIT);
        }
        if groups.contains(&false) {
            total += i64::from(DUMMY_PER_FLYER_OR_RELENTLESS_UNIT);
        }
    }
    total += i64::from(night_fighting_roll.unwrap_or(0));
    total += i64::from(holo_projectors) * i64::from(DUMMY_PER_HOLO_PROJECTOR);
    u32::try_from(total.max(0)).unwrap_or(u32::MAX)
}

/// Whether a unit starts on the table and so has a True marker of its own (S14): every fielded
/// unit (not eliminated, not an unrepaired damaged vehicle, C16) but off-board support; an
/// attached or embarked unit shares its host's marker unless the strict house rule is on.
pub fn has_own_true_marker(unit: &Unit, shares_marker: bool, strict_one_per_unit: bool) -> bool {
    unit.is_fielded()
        && unit.kind != UnitKind::OffBoardArtillery
        && (strict_one_per_unit || !shares_marker)
}

/// True markers before the recon return: one per unit that has its own (S14).
pub fn true_markers<'a>(
    units: impl IntoIterator<Item = &'a Unit>,
    shared: &BTreeSet<String>,
    strict_one_per_unit: bool,
) -> u32 {
    units
        .into_iter()
        .filter(|u| has_own_true_marker(u, shared.contains(&u.id), strict_one_per_unit))
        .count() as u32
}

/// Who places first: the side with more markers; on equal counts each rolls 1d6 and the lowest
/// places first, ties re-rolled (`placement_order` rolls).
pub fn first_to_place(dice: &mut impl Dice, sides: [(&str, u32); 2]) -> Result<usize, DiceError> {
    match sides[0].1.cmp(&sides[1].1) {
        std::cmp::Ordering::Greater => return Ok(0),
        std::cmp::Ordering::Less => return Ok(1),
        std::cmp::Ordering::Equal => {}
    }
    loop {
        let a = dice.d6(RollStep::PlacementOrder, sides[0].0, Some(sides[0].0))?;
        let b = dice.d6(RollStep::PlacementOrder, sides[1].0, Some(sides[1].0))?;
        if a != b {
            return Ok(if a < b { 0 } else { 1 });
        }
    }
}

/// One batch of the placement: `side` places `count` markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlacementBatch {
    /// Side index.
    pub side: usize,
    /// Markers in this batch.
    pub count: u32,
}

/// S15: batches of five, alternating from `first`; when one side runs out the other places all
/// the rest.
pub fn placement_batches(first: usize, totals: [u32; 2]) -> Vec<PlacementBatch> {
    let mut left = totals;
    let mut side = first.min(1);
    let mut out = Vec::new();
    while left.iter().any(|&l| l > 0) {
        if left[side] == 0 {
            side = 1 - side;
        }
        let count = if left[1 - side] == 0 {
            left[side]
        } else {
            left[side].min(MARKERS_PER_BATCH)
        };
        out.push(PlacementBatch { side, count });
        left[side] -= count;
        side = 1 - side;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};
    use crate::scenario::recon_duty::tests::unit;
    use proptest::prelude::*;

    #[test]
    fn s1_one_platoon_no_traits_offensive_5_neutral_7_defensive_3() {
        assert_eq!(dummy_markers(1, Stance::Offensive, &[], None, 0), 5);
        assert_eq!(dummy_markers(1, Stance::Neutral, &[], None, 0), 7);
        assert_eq!(dummy_markers(1, Stance::Defensive, &[], None, 0), 3);
    }

    #[test]
    fn s1_stance_effect_is_per_platoon() {
        assert_eq!(dummy_markers(3, Stance::Neutral, &[], None, 0), 21);
        assert_eq!(dummy_markers(2, Stance::Defensive, &[], None, 0), 6);
    }

    #[test]
    fn trait_rows_elusive_stealth_add_flyer_relentless_remove() {
        let units = vec![
            vec![Trait::Elusive],
            vec![Trait::Stealth],
            vec![Trait::Flyer],
            vec![Trait::Relentless],
            vec![Trait::Relentless],
        ];
        assert_eq!(
            dummy_markers(1, Stance::Offensive, &units, None, 0),
            5 + 2 - 3
        );
    }

    #[test]
    fn s13_a_unit_with_both_of_a_pair_counts_once() {
        let units = vec![
            vec![Trait::Elusive, Trait::Stealth],
            vec![Trait::Flyer, Trait::Relentless],
        ];
        assert_eq!(dummy_markers(1, Stance::Offensive, &units, None, 0), 5);
    }

    #[test]
    fn s13_the_total_never_goes_below_zero() {
        let units = vec![vec![Trait::Flyer]; 10];
        assert_eq!(dummy_markers(1, Stance::Defensive, &units, None, 0), 0);
    }

    #[test]
    fn night_fighting_and_holo_projectors_add() {
        assert_eq!(dummy_markers(1, Stance::Offensive, &[], Some(4), 2), 11);
    }

    #[test]
    fn s14_true_markers_for_on_table_units_with_shared_markers() {
        let units = [
            unit("a", UnitKind::Squad, &[]),
            unit("c", UnitKind::Character, &[]),
            unit("art", UnitKind::OffBoardArtillery, &[]),
            unit("s", UnitKind::Sniper, &[]),
        ];
        let none = BTreeSet::new();
        assert_eq!(true_markers(&units, &none, false), 3);
        let shared: BTreeSet<String> = ["c".to_owned()].into();
        assert_eq!(true_markers(&units, &shared, false), 2);
        // House rule: strict one marker per unit.
        assert_eq!(true_markers(&units, &shared, true), 3);
    }

    #[test]
    fn c16_s14_an_unrepaired_damaged_vehicle_has_no_true_marker() {
        use crate::kit::VehicleState;
        use crate::roster::UnitStatus;
        let vehicle = |id: &str, state: Option<VehicleState>| {
            let mut u = unit(id, UnitKind::Vehicle, &[]);
            u.vehicle_state = state;
            u
        };
        let mut gone = unit("gone", UnitKind::Squad, &[]);
        gone.status = UnitStatus::Eliminated;
        let units = [
            vehicle("ok", Some(VehicleState::Operational)),
            vehicle("new", None),
            vehicle("damaged", Some(VehicleState::Damaged)),
            vehicle("destroyed", Some(VehicleState::Destroyed)),
            gone,
        ];
        let none = BTreeSet::new();
        // Only the operational vehicle and the one without a recorded state take the field.
        assert_eq!(true_markers(&units, &none, false), 2);
        assert_eq!(true_markers(&units, &none, true), 2);
    }

    #[test]
    fn rules_3_6_a_self_less_droid_squad_removes_one_dummy_marker() {
        let mut droids = unit("d", UnitKind::Squad, &[Trait::DroidTroopers]);
        droids.trait_options.droid_self_less = true;
        let preserving = unit("p", UnitKind::Squad, &[Trait::DroidTroopers]);
        let traits = vec![droids.effective_traits(), preserving.effective_traits()];
        assert_eq!(dummy_markers(1, Stance::Offensive, &traits, None, 0), 4);
    }

    #[test]
    fn most_markers_place_first_equal_counts_lowest_roll_ties_re_rolled() {
        let mut dice = ServerDice::seeded(1);
        assert_eq!(first_to_place(&mut dice, [("a", 9), ("b", 8)]).unwrap(), 0);
        assert_eq!(first_to_place(&mut dice, [("a", 7), ("b", 8)]).unwrap(), 1);
        assert!(dice.log().is_empty());
        let mut e = EnteredDice::new();
        e.entry(RollStep::PlacementOrder)
            .or_default()
            .insert("a".into(), vec![4, 5]);
        e.entry(RollStep::PlacementOrder)
            .or_default()
            .insert("b".into(), vec![4, 2]);
        let mut dice = TableDice::new(&e, ServerDice::seeded(1)).unwrap();
        assert_eq!(first_to_place(&mut dice, [("a", 8), ("b", 8)]).unwrap(), 1);
        assert_eq!(dice.log().len(), 4);
    }

    #[test]
    fn s15_batches_of_five_then_the_rest() {
        let b = placement_batches(1, [7, 14]);
        let seq: Vec<_> = b.iter().map(|b| (b.side, b.count)).collect();
        assert_eq!(seq, [(1, 5), (0, 5), (1, 5), (0, 2), (1, 4)]);
    }

    proptest! {
        #[test]
        fn batches_place_every_marker_in_at_most_five_while_both_have_some(
            a in 0u32..40, b in 0u32..40, first in 0usize..2
        ) {
            let batches = placement_batches(first, [a, b]);
            let placed: [u32; 2] = [0, 1].map(|s| batches.iter().filter(|x| x.side == s).map(|x| x.count).sum());
            prop_assert_eq!(placed, [a, b]);
            prop_assert!(batches.iter().all(|x| x.count > 0));
        }

        #[test]
        fn dummy_markers_are_never_negative_and_fit_the_formula(
            p in 1u32..6, s in 0usize..3, adds in 0usize..5, removes in 0usize..12
        ) {
            let stance = [Stance::Offensive, Stance::Neutral, Stance::Defensive][s];
            let mut units = vec![vec![Trait::Stealth]; adds];
            units.extend(vec![vec![Trait::Flyer]; removes]);
            let per = [5i64, 7, 3][s];
            let expected = (i64::from(p) * per + adds as i64 - removes as i64).max(0);
            prop_assert_eq!(i64::from(dummy_markers(p, stance, &units, None, 0)), expected);
        }
    }
}
