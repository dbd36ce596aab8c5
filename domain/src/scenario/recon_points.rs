//! Step 3 – Recon Points: the RECON POINTS TABLE (docs/rules.md §3.3, §3.9, C12;
//! S000 › SCENARIO GENERATION › Determine Recon Points).

use crate::orders::{Attitude, Stance};

/// RP for each platoon (P, C12).
pub const RP_PER_PLATOON: i32 = 1;
/// RP for each unit on recon duty.
pub const RP_PER_RECON_UNIT: i32 = 2;
/// RP by stance: Offensive +2, Neutral +1, Defensive 0.
pub const STANCE_RP: [(Stance, i32); 3] = [
    (Stance::Offensive, 2),
    (Stance::Neutral, 1),
    (Stance::Defensive, 0),
];
/// RP by attitude: Aggressive 0, Cautious +2, Passive −1 (the blurbs repeat these, S1's reason).
pub const ATTITUDE_RP: [(Attitude, i32); 3] = [
    (Attitude::Aggressive, 0),
    (Attitude::Cautious, 2),
    (Attitude::Passive, -1),
];

fn lookup<K: PartialEq + Copy>(table: &[(K, i32)], key: K) -> i32 {
    table.iter().find(|(k, _)| *k == key).map_or(0, |x| x.1)
}

/// The stance's line of the table.
pub fn stance_recon_points(stance: Stance) -> i32 {
    lookup(&STANCE_RP, stance)
}

/// The attitude's line of the table.
pub fn attitude_recon_points(attitude: Attitude) -> i32 {
    lookup(&ATTITUDE_RP, attitude)
}

/// Total RP: P + stance + attitude + 2 per recon-duty unit. P is at least 1 (C12), so the
/// smallest total is 1 + 0 − 1 = 0 and the result is never negative.
pub fn recon_points(stance: Stance, attitude: Attitude, platoons: u32, recon_units: u32) -> u32 {
    let p = i64::from(platoons.max(1)) * i64::from(RP_PER_PLATOON);
    let total = p
        + i64::from(stance_recon_points(stance))
        + i64::from(attitude_recon_points(attitude))
        + i64::from(recon_units) * i64::from(RP_PER_RECON_UNIT);
    u32::try_from(total.max(0)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;
    use proptest::prelude::*;

    #[test]
    fn one_platoon_grid_matches_rules_3_3() {
        // Rows Offensive, Neutral, Defensive; columns Aggressive, Cautious, Passive.
        let grid = [[3, 5, 2], [2, 4, 1], [1, 3, 0]];
        for (si, s) in Stance::ALL.iter().enumerate() {
            for (ai, a) in Attitude::ALL.iter().enumerate() {
                assert_eq!(recon_points(*s, *a, 1, 0), grid[si][ai], "{s} {a}");
            }
        }
    }

    #[test]
    fn each_platoon_and_each_recon_unit_add() {
        assert_eq!(recon_points(Stance::Neutral, Attitude::Aggressive, 3, 0), 4);
        assert_eq!(recon_points(Stance::Neutral, Attitude::Aggressive, 1, 2), 6);
        // C12: P is never below 1.
        assert_eq!(recon_points(Stance::Defensive, Attitude::Passive, 0, 0), 0);
    }

    proptest! {
        #[test]
        fn recon_points_grow_with_platoons_and_recon_units(
            s in 0usize..3, a in 0usize..3, p in 1u32..10, r in 0u32..10
        ) {
            let (s, a) = (Stance::ALL[s], Attitude::ALL[a]);
            let base = recon_points(s, a, p, r);
            prop_assert_eq!(recon_points(s, a, p + 1, r), base + 1);
            prop_assert_eq!(recon_points(s, a, p, r + 1), base + 2);
        }
    }
}
