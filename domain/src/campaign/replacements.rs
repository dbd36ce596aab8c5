//! Step 1, INFANTRY REPLACEMENTS (docs/rules.md §2.1–§2.3, C1–C6, C23; S000 › CAMPAIGN RULES – QUICK
//! › POST BATTLE STEPS › INFANTRY REPLACEMENTS).
//!
//! Every infantry-type unit (squads, command squads, weapons teams counting crew, lone figures)
//! that lost figures rolls 1d6. "Full strength" is the establishment E by default (C3); a lone
//! figure returns only on 5–6 (C5), or never by the roll under the C5 house rule.

use serde::{Deserialize, Serialize};

use crate::house_rules::{FullStrength, HouseRules, LoneFigureReturn};
use crate::roster::Unit;

/// A row of the INFANTRY REPLACEMENTS table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InfantryReplacement {
    /// 1–2: no replacements available.
    NoReplacements,
    /// 3–4: half the losses are replaced, rounded up (a lone figure is not returned, C5).
    HalfTheLosses,
    /// 5–6: the unit is back to full strength (C3).
    FullStrength,
}

/// INFANTRY REPLACEMENTS by d6 − 1 (C1: one d6, no modifiers).
pub const INFANTRY_REPLACEMENTS: [InfantryReplacement; 6] = [
    InfantryReplacement::NoReplacements,
    InfantryReplacement::NoReplacements,
    InfantryReplacement::HalfTheLosses,
    InfantryReplacement::HalfTheLosses,
    InfantryReplacement::FullStrength,
    InfantryReplacement::FullStrength,
];

/// The table row for a d6 (values outside 1–6 are clamped; the dice never produce them).
pub fn infantry_replacement(d6: u8) -> InfantryReplacement {
    INFANTRY_REPLACEMENTS[usize::from(d6.clamp(1, 6) - 1)]
}

/// What "full strength" and "half of their strength" are measured against (C3): the
/// establishment E, or under the house rule the strength at the start of the battle (never
/// above E, C9).
pub fn reference_strength(unit: &Unit, battle_start_strength: u32, rules: &HouseRules) -> u32 {
    match rules.full_strength {
        FullStrength::Establishment => unit.starting_strength,
        FullStrength::BattleStart => battle_start_strength.min(unit.starting_strength),
    }
}

/// R, the figures replaced for `unit` (its strength after the battle's losses), which lost
/// `losses` figures and had `battle_start_strength` at the start of the battle, on the table
/// `row` its die gave. Never raises the unit above E (C9).
pub fn replaced_figures(
    unit: &Unit,
    battle_start_strength: u32,
    losses: u32,
    row: InfantryReplacement,
    rules: &HouseRules,
) -> u32 {
    let room = unit.starting_strength.saturating_sub(unit.strength);
    if unit.is_lone_figure() {
        let returns = row == InfantryReplacement::FullStrength
            && rules.lone_figure_return == LoneFigureReturn::OnFiveOrSix;
        return if returns { room } else { 0 };
    }
    let full = reference_strength(unit, battle_start_strength, rules);
    let to_full = full.saturating_sub(unit.strength).min(room);
    match row {
        InfantryReplacement::NoReplacements => 0,
        InfantryReplacement::HalfTheLosses => losses.div_ceil(2).min(to_full),
        InfantryReplacement::FullStrength => to_full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::testkit::{squad, with_kind};
    use crate::roster::UnitKind;

    /// On FAD 5e's table, by the die.
    fn replaced_figures(unit: &Unit, start: u32, losses: u32, d6: u8, rules: &HouseRules) -> u32 {
        super::replaced_figures(unit, start, losses, infantry_replacement(d6), rules)
    }

    fn after_losses(e: u32, start: u32, lost: u32) -> Unit {
        let mut u = squad("s", e);
        u.strength = start - lost;
        u
    }

    #[test]
    fn c1_infantry_replacement_table_rows_one_to_six() {
        use InfantryReplacement::*;
        let rows: Vec<_> = (1..=6).map(infantry_replacement).collect();
        assert_eq!(
            rows,
            [
                NoReplacements,
                NoReplacements,
                HalfTheLosses,
                HalfTheLosses,
                FullStrength,
                FullStrength
            ]
        );
    }

    #[test]
    fn rows_1_2_replace_nothing() {
        let rules = HouseRules::default();
        for d6 in 1..=2 {
            assert_eq!(
                replaced_figures(&after_losses(8, 8, 5), 8, 5, d6, &rules),
                0
            );
        }
    }

    #[test]
    fn rows_3_4_replace_half_the_losses_rounded_up() {
        let rules = HouseRules::default();
        for d6 in 3..=4 {
            assert_eq!(
                replaced_figures(&after_losses(8, 8, 5), 8, 5, d6, &rules),
                3
            );
            assert_eq!(
                replaced_figures(&after_losses(8, 8, 4), 8, 4, d6, &rules),
                2
            );
        }
    }

    #[test]
    fn rows_5_6_restore_full_strength() {
        let rules = HouseRules::default();
        for d6 in 5..=6 {
            assert_eq!(
                replaced_figures(&after_losses(8, 8, 5), 8, 5, d6, &rules),
                5
            );
        }
    }

    #[test]
    fn c3_full_strength_is_the_establishment_even_for_an_understrength_unit() {
        // E = 10, started the battle with 6, lost 4: a 5–6 brings it back to 10.
        let rules = HouseRules::default();
        let u = after_losses(10, 6, 4);
        assert_eq!(replaced_figures(&u, 6, 4, 6, &rules), 8);
    }

    #[test]
    fn c3_house_rule_full_strength_is_the_battle_start_strength() {
        let rules = HouseRules {
            full_strength: FullStrength::BattleStart,
            ..HouseRules::default()
        };
        let u = after_losses(10, 6, 4);
        assert_eq!(replaced_figures(&u, 6, 4, 6, &rules), 4);
        assert_eq!(replaced_figures(&u, 6, 4, 3, &rules), 2);
        assert_eq!(reference_strength(&u, 6, &rules), 6);
    }

    #[test]
    fn c3_half_the_losses_is_capped_at_the_establishment() {
        // E = 8, started with 9 figures (over E by an earlier edit), lost 2: cap at E.
        let rules = HouseRules::default();
        let mut u = squad("s", 8);
        u.strength = 7;
        assert_eq!(replaced_figures(&u, 9, 2, 3, &rules), 1);
    }

    #[test]
    fn c4_a_wiped_out_unit_returns_with_half_its_battle_start_figures_rounded_up() {
        let rules = HouseRules::default();
        assert_eq!(replaced_figures(&after_losses(7, 7, 7), 7, 7, 4, &rules), 4);
        assert_eq!(replaced_figures(&after_losses(8, 8, 8), 8, 8, 3, &rules), 4);
    }

    #[test]
    fn c5_lone_figure_returns_only_on_five_or_six() {
        let rules = HouseRules::default();
        let lone = after_losses(1, 1, 1);
        let got: Vec<u32> = (1..=6)
            .map(|d| replaced_figures(&lone, 1, 1, d, &rules))
            .collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 1]);
    }

    #[test]
    fn c5_house_rule_lone_figure_never_returns_by_the_roll() {
        let rules = HouseRules {
            lone_figure_return: LoneFigureReturn::Never,
            ..HouseRules::default()
        };
        let lone = after_losses(1, 1, 1);
        for d in 1..=6 {
            assert_eq!(replaced_figures(&lone, 1, 1, d, &rules), 0);
        }
    }

    #[test]
    fn c23_weapons_team_uses_the_infantry_table_counting_crew() {
        let rules = HouseRules::default();
        let mut team = with_kind(squad("t", 3), UnitKind::WeaponsTeam);
        team.strength = 0;
        assert_eq!(replaced_figures(&team, 3, 3, 3, &rules), 2);
        let mut one = with_kind(squad("t1", 1), UnitKind::WeaponsTeam);
        one.strength = 0;
        assert!(one.is_lone_figure());
        assert_eq!(replaced_figures(&one, 1, 1, 4, &rules), 0);
    }
}
