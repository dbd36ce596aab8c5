//! Step 3, QUALITY LOSS (docs/rules.md §2.1–§2.3, C1, C3, C7; S000 › CAMPAIGN RULES – QUICK ›
//! POST BATTLE STEPS › QUALITY LOSS).
//!
//! A unit rolls 1d6 when it received at least half its strength in step-1 replacements
//! (2·R ≥ E; reinforcements and the new squad do not count). A destroyed vehicle that is
//! replaced, by the roll or for 2 CP, counts as R = E = 1 and rolls; a repaired one does not.

use serde::{Deserialize, Serialize};

use crate::ladder::{Ladder, Quality};

/// A row of the QUALITY LOSS table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum QualityLoss {
    /// 1–2: Quality drops one level (never below Rabble).
    Drops,
    /// 3+ (3–6, C1): Quality stays the same.
    Stays,
}

/// QUALITY LOSS by d6 − 1 (C1: "3+" means 3–6).
pub const QUALITY_LOSS: [QualityLoss; 6] = [
    QualityLoss::Drops,
    QualityLoss::Drops,
    QualityLoss::Stays,
    QualityLoss::Stays,
    QualityLoss::Stays,
    QualityLoss::Stays,
];

/// The table row for a d6.
pub fn quality_loss(d6: u8) -> QualityLoss {
    QUALITY_LOSS[usize::from(d6.clamp(1, 6) - 1)]
}

/// C7: whether `replaced` figures out of a reference strength (E, or the battle-start strength
/// under the C3 house rule) call for the roll.
pub fn quality_loss_due(replaced: u32, reference: u32) -> bool {
    replaced > 0 && 2 * replaced >= reference
}

/// The Quality after the table `row` the roll gave, clamped at Rabble.
pub fn quality_after(quality: Quality, row: QualityLoss) -> Quality {
    match row {
        QualityLoss::Drops => quality.down(),
        QualityLoss::Stays => quality,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On FAD 5e's table, by the die.
    fn quality_after(quality: Quality, d6: u8) -> Quality {
        super::quality_after(quality, quality_loss(d6))
    }

    #[test]
    fn c1_quality_loss_rows_one_to_six_three_plus_means_three_to_six() {
        use QualityLoss::*;
        let rows: Vec<_> = (1..=6).map(quality_loss).collect();
        assert_eq!(rows, [Drops, Drops, Stays, Stays, Stays, Stays]);
    }

    #[test]
    fn quality_drops_one_level_on_one_or_two_and_never_below_rabble() {
        assert_eq!(quality_after(Quality::Regular, 1), Quality::Conscript);
        assert_eq!(quality_after(Quality::Elite, 2), Quality::Regular);
        assert_eq!(quality_after(Quality::Regular, 3), Quality::Regular);
        assert_eq!(quality_after(Quality::Rabble, 1), Quality::Rabble);
    }

    #[test]
    fn c7_roll_when_twice_the_replacements_reach_the_establishment() {
        assert!(!quality_loss_due(3, 8)); // worked example: 6 < 8
        assert!(quality_loss_due(4, 8)); // wiped out and rolled 3–4: 8 ≥ 8
        assert!(quality_loss_due(4, 7));
        assert!(!quality_loss_due(0, 0));
        assert!(quality_loss_due(1, 1)); // a replaced vehicle, R = E = 1
    }
}
