//! The campaign settings as HTTP types: docs/rules.md §6 config items (house rules) plus service
//! settings, and their two endpoints.
//!
//! The house-rule types mirror [`fad_domain::house_rules`] (the domain crate carries no OpenAPI
//! derives); the conversions destructure every field, so a new switch in the domain fails to
//! compile here until it is documented.

pub mod read;
pub mod update;

use fad_domain::house_rules::{
    FullStrength, HouseRules, LoneFigureReturn, MoraleModifier, NpfReconReading, SquadStrengthRoll,
};
use fad_domain::rulesets::Pricing;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::campaigns::settings::SettingsView;
use crate::store::campaigns::CampaignSettings;

/// C3: what "full strength" means for a 5–6 replacement roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FullStrengthSetting {
    /// The unit's establishment (settled reading).
    #[default]
    Establishment,
    /// The unit's strength at the start of the battle.
    BattleStart,
}

/// C5: when a lone figure returns to duty after the replacement roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoneFigureReturnSetting {
    /// Only on a 5–6 (settled reading).
    #[default]
    OnFiveOrSix,
    /// Never by the roll; only by buying it back for 1 CP.
    Never,
}

/// F1: basic force generation's squad-strength roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SquadStrengthRollSetting {
    /// One roll per player for every squad (settled reading).
    #[default]
    PerPlayer,
    /// One roll per squad.
    PerSquad,
}

/// F3: how a squad leader's ±1 to Morale Tests applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoraleModifierSetting {
    /// Added to each die: the target shifts one step, clamped 2+..6+ (settled reading).
    #[default]
    PerDie,
    /// ±1 success.
    PerSuccess,
}

/// S25: which non-player forces roll per platoon to send one more squad on recon duty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NpfReconReadingSetting {
    /// Those with an Offensive stance (settled reading).
    #[default]
    OffensiveStance,
    /// Those with an Aggressive attitude.
    AggressiveAttitude,
}

/// The house rules of a campaign (docs/rules.md §6 config items). Every field is optional in a
/// request and defaults to the settled reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRulesBody {
    /// C3: meaning of "full strength". Default `establishment`.
    pub full_strength: FullStrengthSetting,
    /// C5: lone figures and the replacement roll. Default `on_five_or_six`.
    pub lone_figure_return: LoneFigureReturnSetting,
    /// C13: unspent campaign points are banked (true) or lost. Default true.
    pub bank_campaign_points: bool,
    /// C15: every damaged or destroyed-and-replaced vehicle rolls Resolve Change, an unrated
    /// crew counting as Steady. Default false (only a crew with a Resolve rolls).
    pub vehicle_resolve_change: bool,
    /// C19: squad-leader experience can be bought like Leadership. Default false.
    pub squad_leader_experience_purchasable: bool,
    /// S11: missions are hidden from the opponent (Escalating Engagement is always public).
    /// Default true.
    pub missions_hidden: bool,
    /// S14: one True marker for every unit, even attached or embarked ones. Default false.
    pub strict_one_marker_per_unit: bool,
    /// S25: which non-player forces roll to send one more recon squad. Default
    /// `offensive_stance`.
    pub npf_recon_reading: NpfReconReadingSetting,
    /// F1: squad-strength roll in basic force generation. Default `per_player`.
    pub squad_strength_roll: SquadStrengthRollSetting,
    /// F3: squad-leader morale modifier. Default `per_die`.
    pub morale_modifier: MoraleModifierSetting,
    /// B6: under a ruleset without points (`fad-basic-advanced`), `fad5e` prices its forces by
    /// FAD 5e's point system; absent, they are unpriced. A ruleset with points ignores it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pricing: Option<PricingSetting>,
}

/// B6: the point system a ruleset without points borrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PricingSetting {
    /// FAD 5e's point value system (docs/rules.md §4.3).
    Fad5e,
}

impl Default for HouseRulesBody {
    fn default() -> Self {
        HouseRules::default().into()
    }
}

impl From<HouseRules> for HouseRulesBody {
    fn from(rules: HouseRules) -> Self {
        let HouseRules {
            full_strength,
            lone_figure_return,
            bank_campaign_points,
            vehicle_resolve_change,
            squad_leader_experience_purchasable,
            missions_hidden,
            strict_one_marker_per_unit,
            npf_recon_reading,
            squad_strength_roll,
            morale_modifier,
            pricing,
        } = rules;
        Self {
            full_strength: match full_strength {
                FullStrength::Establishment => FullStrengthSetting::Establishment,
                FullStrength::BattleStart => FullStrengthSetting::BattleStart,
            },
            lone_figure_return: match lone_figure_return {
                LoneFigureReturn::OnFiveOrSix => LoneFigureReturnSetting::OnFiveOrSix,
                LoneFigureReturn::Never => LoneFigureReturnSetting::Never,
            },
            bank_campaign_points,
            vehicle_resolve_change,
            squad_leader_experience_purchasable,
            missions_hidden,
            strict_one_marker_per_unit,
            npf_recon_reading: match npf_recon_reading {
                NpfReconReading::OffensiveStance => NpfReconReadingSetting::OffensiveStance,
                NpfReconReading::AggressiveAttitude => NpfReconReadingSetting::AggressiveAttitude,
            },
            squad_strength_roll: match squad_strength_roll {
                SquadStrengthRoll::PerPlayer => SquadStrengthRollSetting::PerPlayer,
                SquadStrengthRoll::PerSquad => SquadStrengthRollSetting::PerSquad,
            },
            morale_modifier: match morale_modifier {
                MoraleModifier::PerDie => MoraleModifierSetting::PerDie,
                MoraleModifier::PerSuccess => MoraleModifierSetting::PerSuccess,
            },
            // "none" is the absence of the switch: the ruleset's own pricing.
            pricing: match pricing {
                Some(Pricing::Fad5e) => Some(PricingSetting::Fad5e),
                Some(Pricing::None) | None => None,
            },
        }
    }
}

impl From<HouseRulesBody> for HouseRules {
    fn from(body: HouseRulesBody) -> Self {
        let HouseRulesBody {
            full_strength,
            lone_figure_return,
            bank_campaign_points,
            vehicle_resolve_change,
            squad_leader_experience_purchasable,
            missions_hidden,
            strict_one_marker_per_unit,
            npf_recon_reading,
            squad_strength_roll,
            morale_modifier,
            pricing,
        } = body;
        Self {
            full_strength: match full_strength {
                FullStrengthSetting::Establishment => FullStrength::Establishment,
                FullStrengthSetting::BattleStart => FullStrength::BattleStart,
            },
            lone_figure_return: match lone_figure_return {
                LoneFigureReturnSetting::OnFiveOrSix => LoneFigureReturn::OnFiveOrSix,
                LoneFigureReturnSetting::Never => LoneFigureReturn::Never,
            },
            bank_campaign_points,
            vehicle_resolve_change,
            squad_leader_experience_purchasable,
            missions_hidden,
            strict_one_marker_per_unit,
            npf_recon_reading: match npf_recon_reading {
                NpfReconReadingSetting::OffensiveStance => NpfReconReading::OffensiveStance,
                NpfReconReadingSetting::AggressiveAttitude => NpfReconReading::AggressiveAttitude,
            },
            squad_strength_roll: match squad_strength_roll {
                SquadStrengthRollSetting::PerPlayer => SquadStrengthRoll::PerPlayer,
                SquadStrengthRollSetting::PerSquad => SquadStrengthRoll::PerSquad,
            },
            morale_modifier: match morale_modifier {
                MoraleModifierSetting::PerDie => MoraleModifier::PerDie,
                MoraleModifierSetting::PerSuccess => MoraleModifier::PerSuccess,
            },
            pricing: pricing.map(|PricingSetting::Fad5e| Pricing::Fad5e),
        }
    }
}

/// A campaign's settings and the version to send back when changing them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SettingsResponse {
    /// The settings' version (separate from the campaign's name and description version); send
    /// it (or `If-Match`) with a change.
    pub version: i64,
    /// House rules (docs/rules.md §6).
    pub house_rules: HouseRulesBody,
    /// Whether a reported battle result waits for the other side or the organiser to confirm it.
    pub results_need_confirmation: bool,
    /// Whether rosters are locked after a force's first battle: raising Quality, Resolve,
    /// strength or points outside the post-battle sequence then needs the organiser.
    pub lock_rosters_after_play: bool,
    /// Whether anyone may read the standings without signing in.
    pub public_standings: bool,
}

impl SettingsResponse {
    /// The response for `settings` at settings version `version`.
    pub fn of(version: i64, settings: CampaignSettings) -> Self {
        let CampaignSettings {
            house_rules,
            results_need_confirmation,
            lock_rosters_after_play,
            // The pin is the campaign's own field (`ruleset` beside `settings`).
            ruleset: _,
            public_standings,
        } = settings;
        Self {
            version,
            house_rules: house_rules.into(),
            results_need_confirmation,
            lock_rosters_after_play,
            public_standings,
        }
    }
}

impl From<SettingsView> for SettingsResponse {
    fn from(view: SettingsView) -> Self {
        Self::of(view.version, view.settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_rules_round_trip_and_serialise_like_the_domain() {
        let domain = HouseRules {
            full_strength: FullStrength::BattleStart,
            lone_figure_return: LoneFigureReturn::Never,
            bank_campaign_points: false,
            vehicle_resolve_change: true,
            squad_leader_experience_purchasable: true,
            missions_hidden: false,
            strict_one_marker_per_unit: true,
            npf_recon_reading: NpfReconReading::AggressiveAttitude,
            squad_strength_roll: SquadStrengthRoll::PerSquad,
            morale_modifier: MoraleModifier::PerSuccess,
            pricing: Some(Pricing::Fad5e),
        };
        let body = HouseRulesBody::from(domain);
        assert_eq!(HouseRules::from(body), domain);
        assert_eq!(
            serde_json::to_value(body).unwrap(),
            serde_json::to_value(domain).unwrap()
        );
        assert_eq!(
            serde_json::to_value(HouseRulesBody::default()).unwrap(),
            serde_json::to_value(HouseRules::default()).unwrap()
        );
    }
}
