//! The ruleset a campaign's forces are checked and shown under: its limits on a roster (squad
//! leaders, personalities, vehicle Resolve) and how it prices (docs/rules.md §9, B1–B3, B6).

use fad_domain::house_rules::HouseRules;
use fad_domain::rulesets::{LeaderEffect, Pricing, Ruleset};
use fad_domain::validation::RulesetLimits;

use crate::AppState;
use crate::db::Db;
use crate::error::ApiError;
use crate::store::campaigns;

/// A campaign's ruleset with the campaign's option switches.
#[derive(Debug, Clone)]
pub struct ForceRules {
    /// The pinned ruleset (shared: the built-in ones are built once).
    pub ruleset: std::sync::Arc<Ruleset>,
    /// The campaign's switches (`pricing` among them).
    pub options: HouseRules,
}

impl ForceRules {
    /// FAD 5e, as a roster outside any campaign is read.
    pub fn fad5e() -> Self {
        Self {
            ruleset: fad_domain::rulesets::shared_fad5e(),
            options: HouseRules::default(),
        }
    }

    /// The campaign's, read with `conn` (FAD 5e for a campaign that is not there: the caller's
    /// own check answers 404 for it).
    pub fn of_campaign(conn: &mut Db, campaign_id: &str) -> Result<Self, ApiError> {
        let settings = campaigns::find_by_id(conn, campaign_id)?
            .map(|c| c.settings())
            .transpose()
            .map_err(|e| ApiError::Internal(e.into()))?
            .unwrap_or_default();
        Self::under(conn, settings)
    }

    /// The rules of a campaign whose settings (JSON) were read already.
    pub fn of_settings(conn: &mut Db, settings: &str) -> Result<Self, ApiError> {
        let settings = serde_json::from_str::<campaigns::CampaignSettings>(settings)
            .map_err(|e| ApiError::Internal(e.into()))?;
        Self::under(conn, settings)
    }

    fn under(conn: &mut Db, settings: campaigns::CampaignSettings) -> Result<Self, ApiError> {
        Ok(Self {
            ruleset: crate::app::rulesets::load(conn, &settings.ruleset)?,
            options: settings.house_rules,
        })
    }

    /// What a roster may hold.
    pub fn limits(&self) -> RulesetLimits {
        self.ruleset.limits()
    }

    /// How forces are priced.
    pub fn pricing(&self) -> Pricing {
        self.ruleset.pricing(&self.options)
    }

    /// Whether a squad leader shifts the squad's Quality (B2), so units show an effective one.
    pub fn shifts_quality(&self) -> bool {
        self.ruleset.decisions.leader_effect == LeaderEffect::QualityShift
    }

    /// Whether forces read exactly as under FAD 5e (its limits and prices): answers need
    /// nothing this module adds.
    pub fn reads_as_fad5e(&self) -> bool {
        !self.shifts_quality()
            && self.pricing() == Pricing::Fad5e
            && self.ruleset.decisions.vehicle_resolve
                != fad_domain::rulesets::VehicleResolve::Required
    }
}

/// The rules `campaign_id`'s forces are checked and shown under. No transaction: one
/// statement, and a house ruleset's stored version (the second) never changes.
pub async fn campaign_force_rules(
    state: &AppState,
    campaign_id: &str,
) -> Result<ForceRules, ApiError> {
    let id = campaign_id.to_owned();
    state
        .db
        .run(move |conn| ForceRules::of_campaign(conn, &id))
        .await
}
