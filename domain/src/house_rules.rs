//! House rules: the docs/rules.md §6 items marked (config), each defaulting to the settled reading.
//! A campaign stores one `HouseRules` in its settings; rules read it, never a global.

use serde::{Deserialize, Serialize};

/// C3: what "full strength" means for a 5–6 replacement roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FullStrength {
    /// The establishment E, the unit's initial starting value (settled reading).
    #[default]
    Establishment,
    /// The unit's strength at the start of this battle.
    BattleStart,
}

/// C5: when a lone figure returns to duty after the replacement roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LoneFigureReturn {
    /// Only on a 5–6 (settled reading).
    #[default]
    OnFiveOrSix,
    /// Never by the roll; only by buying it back for 1 CP.
    Never,
}

/// F1: basic generation's squad-strength roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SquadStrengthRoll {
    /// One roll per player for every squad (settled reading).
    #[default]
    PerPlayer,
    /// One roll per squad.
    PerSquad,
}

/// F3: how a squad leader's ±1 to Morale Tests applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoraleModifier {
    /// Added to each die, i.e. the target shifts one step, clamped 2+..6+ (settled reading).
    #[default]
    PerDie,
    /// ±1 success.
    PerSuccess,
}

/// S25: which non-player forces the text's "forces with an aggressive stance" means (they roll
/// per platoon to send one more squad on recon duty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NpfReconReading {
    /// An Offensive stance (settled reading: "stance" names that list).
    #[default]
    OffensiveStance,
    /// An Aggressive attitude ("aggressive" names that attitude).
    AggressiveAttitude,
}

/// The house-rule switches of a campaign (docs/rules.md §6 config items).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct HouseRules {
    /// C3: meaning of "full strength".
    pub full_strength: FullStrength,
    /// C5: lone figures and the replacement roll.
    pub lone_figure_return: LoneFigureReturn,
    /// C13: unspent campaign points are banked (true) or lost after the sequence.
    pub bank_campaign_points: bool,
    /// C15: every damaged or destroyed-and-replaced vehicle rolls Resolve Change, an unrated
    /// crew counting as Steady (default: only a crew with a Resolve rolls).
    pub vehicle_resolve_change: bool,
    /// C19: whether squad-leader experience can be bought like Leadership (default no).
    pub squad_leader_experience_purchasable: bool,
    /// S11: missions are hidden from the opponent (Escalating Engagement is always public).
    pub missions_hidden: bool,
    /// S14: one True marker for every unit, even attached or embarked ones (default: shared).
    pub strict_one_marker_per_unit: bool,
    /// S25: which NP forces roll to send an extra recon squad.
    pub npf_recon_reading: NpfReconReading,
    /// F1: squad-strength roll in basic force generation.
    pub squad_strength_roll: SquadStrengthRoll,
    /// F3: squad-leader morale modifier.
    pub morale_modifier: MoraleModifier,
    /// B6: under a ruleset without points (`fad-basic-advanced`), `fad5e` prices forces by FAD
    /// 5e's point system; absent, they stay unpriced. A ruleset with its own pricing ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing: Option<crate::rulesets::Pricing>,
}

impl Default for HouseRules {
    fn default() -> Self {
        Self {
            full_strength: FullStrength::Establishment,
            lone_figure_return: LoneFigureReturn::OnFiveOrSix,
            bank_campaign_points: true,
            vehicle_resolve_change: false,
            squad_leader_experience_purchasable: false,
            missions_hidden: true,
            strict_one_marker_per_unit: false,
            npf_recon_reading: NpfReconReading::OffensiveStance,
            squad_strength_roll: SquadStrengthRoll::PerPlayer,
            morale_modifier: MoraleModifier::PerDie,
            pricing: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_settled_readings() {
        let rules: HouseRules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, HouseRules::default());
        assert_eq!(rules.full_strength, FullStrength::Establishment); // C3
        assert_eq!(rules.lone_figure_return, LoneFigureReturn::OnFiveOrSix); // C5
        assert!(rules.bank_campaign_points); // C13
        assert!(!rules.vehicle_resolve_change); // C15
        assert!(!rules.squad_leader_experience_purchasable); // C19
        assert!(rules.missions_hidden); // S11
        assert!(!rules.strict_one_marker_per_unit); // S14
        assert_eq!(rules.npf_recon_reading, NpfReconReading::OffensiveStance); // S25
        assert_eq!(rules.squad_strength_roll, SquadStrengthRoll::PerPlayer); // F1
        assert_eq!(rules.morale_modifier, MoraleModifier::PerDie); // F3
    }

    #[test]
    fn one_switch_can_be_changed_alone() {
        let rules: HouseRules = serde_json::from_str(r#"{"missions_hidden": false}"#).unwrap();
        assert!(!rules.missions_hidden);
        assert!(rules.bank_campaign_points);
    }
}
