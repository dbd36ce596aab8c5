//! Rolling on a d6 table and the Quantity Test (docs/rules.md §4.2 › Priority points; S000 ›
//! ADVANCED FORCE GENERATION › PRIORITY ASSIGNMENT). Every roll is a `force_generation` roll whose
//! `detail` names the table.

use crate::dice::{Dice, DiceError, RollRequest, RollStep};

/// A d6 table: the result for each face 1..=6.
pub type D6Table<T> = [T; 6];

/// A Quantity Test success: each die at 5+.
pub const QUANTITY_TEST_TARGET: u8 = 5;

/// Rolls 1d6 for `subject` on `table` (named `detail` in the log).
pub fn roll_on<T: Copy>(
    dice: &mut dyn Dice,
    subject: &str,
    detail: &str,
    table: &D6Table<T>,
) -> Result<T, DiceError> {
    let face = roll_d6(dice, subject, detail)?;
    Ok(table[usize::from(face.clamp(1, 6)) - 1])
}

/// Rolls 1d6 for `subject` and returns the face.
pub fn roll_d6(dice: &mut dyn Dice, subject: &str, detail: &str) -> Result<u8, DiceError> {
    let values =
        dice.roll(RollRequest::d6(RollStep::ForceGeneration, subject, 1).with_detail(detail))?;
    Ok(values.first().copied().unwrap_or(1))
}

/// A Quantity Test: rolls `count` d6 in one roll and counts the 5+ (the successes).
pub fn quantity_test(
    dice: &mut dyn Dice,
    subject: &str,
    detail: &str,
    count: usize,
) -> Result<u32, DiceError> {
    let values =
        dice.roll(RollRequest::d6(RollStep::ForceGeneration, subject, count).with_detail(detail))?;
    Ok(count_successes(&values))
}

/// The 5+ among `values`.
pub fn count_successes(values: &[u8]) -> u32 {
    values
        .iter()
        .filter(|v| **v >= QUANTITY_TEST_TARGET)
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, RollSource, ServerDice, TableDice};

    #[test]
    fn quantity_test_counts_fives_and_sixes_only() {
        assert_eq!(count_successes(&[1, 2, 3, 4, 5, 6]), 2);
        assert_eq!(count_successes(&[5, 5, 5, 5, 5]), 5);
        assert_eq!(count_successes(&[4, 4]), 0);
    }

    #[test]
    fn a_table_roll_is_logged_with_step_subject_and_detail() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::ForceGeneration)
            .or_default()
            .insert("platoon[0]".into(), vec![6, 2, 5, 5, 1]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        let got = roll_on(&mut dice, "platoon[0]", "platoon_size", &[3, 3, 3, 3, 4, 4]).unwrap();
        assert_eq!(got, 4);
        let qt = quantity_test(&mut dice, "platoon[0]", "support_heavy_weapons", 4).unwrap();
        assert_eq!(qt, 2);
        let log = dice.log();
        assert_eq!(log[0].detail.as_deref(), Some("platoon_size"));
        assert_eq!(log[0].step, RollStep::ForceGeneration);
        assert_eq!(log[1].dice, "4d6");
        assert_eq!(log[1].source, RollSource::Player);
    }
}
