//! Discipline (docs/rules.md `solo-discipline`): a group's willingness to follow its orders,
//! a target from 2+ to 5+ like Quality, tested on 3d6 at the start of every turn, and one step
//! worse once half the group are casualties (`solo-aborting`).

use crate::dice::{Dice, DiceError, RollRequest, RollStep};
use crate::ladder::Quality;

use super::approach::{FALL_BACK_ANCHOR, HOLD_POSITION_ANCHOR};

/// The best Discipline (2+).
pub const BEST: u8 = 2;
/// The worst Discipline (5+): aborting never takes a group past it.
pub const WORST: u8 = 5;
/// Dice in a Discipline Test.
pub const TEST_DICE: usize = 3;

/// What a group does this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TestResult {
    /// 2–3 passes: it carries out its Approach.
    CarryOut,
    /// 1 pass: it holds its position and improves it.
    Hold,
    /// 0 passes: it falls back at full speed to the nearest defensible position.
    FallBack,
    /// Still on its way there: no test this turn.
    FallingBack,
}

/// One row of the Discipline Test table: passes → result, with its anchor (a carried-out
/// Approach links to the Approach's own anchor instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestRow {
    /// Dice at or above the Discipline number.
    pub passes: u8,
    /// What the group does.
    pub result: TestResult,
    /// The anchor in docs/rules.md.
    pub anchor: &'static str,
}

/// The Discipline Test table.
pub const TEST_TABLE: [TestRow; 4] = [
    TestRow {
        passes: 0,
        result: TestResult::FallBack,
        anchor: FALL_BACK_ANCHOR,
    },
    TestRow {
        passes: 1,
        result: TestResult::Hold,
        anchor: HOLD_POSITION_ANCHOR,
    },
    TestRow {
        passes: 2,
        result: TestResult::CarryOut,
        anchor: "solo-carry-out",
    },
    TestRow {
        passes: 3,
        result: TestResult::CarryOut,
        anchor: "solo-carry-out",
    },
];

/// The row for `passes` (more than 3 reads as 3).
pub fn test_row(passes: u8) -> TestRow {
    TEST_TABLE[usize::from(passes.min(3))]
}

/// Dice of `values` at or above `discipline`: each one passes, as in a Quality test.
pub fn passes(values: &[u8], discipline: u8) -> u8 {
    u8::try_from(values.iter().filter(|v| **v >= discipline).count()).unwrap_or(u8::MAX)
}

/// Rolls a group's Discipline Test (3d6, step `discipline`, subject the group's name) and
/// counts its passes.
pub fn discipline_test(
    dice: &mut dyn Dice,
    group: &str,
    force_id: Option<&str>,
    discipline: u8,
) -> Result<(Vec<u8>, u8), DiceError> {
    let mut request = RollRequest::d6(RollStep::Discipline, group, TEST_DICE);
    request.force_id = force_id;
    let values = dice.roll(request)?;
    let passed = passes(&values, discipline);
    Ok((values, passed))
}

/// The default Discipline of a group: the worst (highest) Quality test target among its units
/// (2+ for a group of Elite units, 5+ if one is Rabble).
pub fn default_discipline(qualities: impl IntoIterator<Item = Quality>) -> u8 {
    qualities
        .into_iter()
        .map(|q| q.row().test_target)
        .max()
        .unwrap_or(crate::ladder::QUALITY_TABLE[1].test_target)
        .clamp(BEST, WORST)
}

/// Whether `casualties` of `figures` is half the group or more (aborting the mission).
pub fn half_lost(casualties: u32, figures: u32) -> bool {
    figures > 0 && casualties.saturating_mul(2) >= figures
}

/// Discipline one step worse, never past 5+.
pub fn worsened(discipline: u8) -> u8 {
    discipline.saturating_add(1).min(WORST)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};
    use crate::names::Named;

    #[test]
    fn every_row_of_the_test_table() {
        assert_eq!(test_row(0).result, TestResult::FallBack);
        assert_eq!(test_row(0).anchor, "solo-no-pass");
        assert_eq!(test_row(1).result, TestResult::Hold);
        assert_eq!(test_row(1).anchor, "solo-one-pass");
        assert_eq!(test_row(2).result, TestResult::CarryOut);
        assert_eq!(test_row(3).result, TestResult::CarryOut);
        assert_eq!(test_row(3).anchor, "solo-carry-out");
        for (i, row) in TEST_TABLE.iter().enumerate() {
            assert_eq!(usize::from(row.passes), i);
        }
    }

    #[test]
    fn a_die_at_or_above_the_number_passes() {
        assert_eq!(passes(&[4, 4, 4], 4), 3);
        assert_eq!(passes(&[3, 4, 6], 4), 2);
        assert_eq!(passes(&[1, 2, 5], 5), 1);
        assert_eq!(passes(&[1, 1, 1], 2), 0);
        assert_eq!(passes(&[2, 2, 2], 2), 3);
        assert_eq!(passes(&[4, 4, 4], 5), 0);
    }

    #[test]
    fn the_default_is_the_worst_quality_target_of_the_group() {
        assert_eq!(default_discipline([Quality::Elite]), 2);
        assert_eq!(default_discipline([Quality::Regular]), 3);
        assert_eq!(default_discipline([Quality::Conscript]), 4);
        assert_eq!(default_discipline([Quality::Rabble]), 5);
        assert_eq!(default_discipline([Quality::Elite, Quality::Conscript]), 4);
        assert_eq!(default_discipline([Quality::Regular, Quality::Rabble]), 5);
        assert_eq!(default_discipline([]), 4);
        for q in Quality::ALL {
            assert!((BEST..=WORST).contains(&default_discipline([*q])));
        }
    }

    #[test]
    fn half_the_group_lost_worsens_discipline_one_step_never_past_5() {
        assert!(!half_lost(4, 10));
        assert!(half_lost(5, 10));
        assert!(half_lost(5, 9));
        assert!(!half_lost(4, 9));
        assert!(!half_lost(0, 0));
        assert_eq!(worsened(2), 3);
        assert_eq!(worsened(3), 4);
        assert_eq!(worsened(4), 5);
        assert_eq!(worsened(5), 5);
    }

    #[test]
    fn the_test_rolls_three_dice_logged_as_discipline_for_the_group() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Discipline)
            .or_default()
            .insert("Left flank".into(), vec![3, 4, 6]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        let (values, passed) = discipline_test(&mut dice, "Left flank", Some("np"), 4).unwrap();
        assert_eq!(values, vec![3, 4, 6]);
        assert_eq!(passed, 2);
        let roll = &dice.log()[0];
        assert_eq!(roll.step, RollStep::Discipline);
        assert_eq!(roll.subject, "Left flank");
        assert_eq!(roll.dice, "3d6");
        assert_eq!(roll.force_id.as_deref(), Some("np"));
    }
}
