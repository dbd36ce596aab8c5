//! The stance and attitude effects that are not RP, zones, markers or field defences: the
//! Offensive stance's artillery calls (S20) and the Aggressive attitude's Under Fire ignores
//! (docs/rules.md §3.1, §3.2, §3.9, S19, S20; S000 › SCENARIO GENERATION › Select a Stance, Select an
//! Attitude). They still apply in an Escalating Engagement (S19).

use crate::orders::{Attitude, Stance};

/// Offensive: one off-board medium cannon (Regular) limited to two calls (S20).
pub const OFFENSIVE_ARTILLERY_CALLS: u32 = 2;
/// Aggressive: ignore any three Under Fire conditions during the battle.
pub const AGGRESSIVE_UNDER_FIRE_IGNORES: u32 = 3;

/// Artillery calls from the stance.
pub fn stance_artillery_calls(stance: Stance) -> u32 {
    if stance == Stance::Offensive {
        OFFENSIVE_ARTILLERY_CALLS
    } else {
        0
    }
}

/// Under Fire conditions the attitude lets the side ignore.
pub fn under_fire_ignores(attitude: Attitude) -> u32 {
    if attitude == Attitude::Aggressive {
        AGGRESSIVE_UNDER_FIRE_IGNORES
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s20_offensive_gets_two_artillery_calls_and_aggressive_three_under_fire_ignores() {
        assert_eq!(stance_artillery_calls(Stance::Offensive), 2);
        assert_eq!(stance_artillery_calls(Stance::Neutral), 0);
        assert_eq!(stance_artillery_calls(Stance::Defensive), 0);
        assert_eq!(under_fire_ignores(Attitude::Aggressive), 3);
        assert_eq!(under_fire_ignores(Attitude::Cautious), 0);
        assert_eq!(under_fire_ignores(Attitude::Passive), 0);
    }
}
