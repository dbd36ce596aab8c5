//! How a force and its roster are answered: points at every level, as members see them. The
//! JSON handlers and the pages show the same values.

use chrono::{DateTime, Utc};
use fad_domain::ladder::Quality;
use fad_domain::points::{force_points, platoon_points, round_points, unit_points};
use fad_domain::roster::{Force as Roster, Unit};
use fad_domain::rulesets::{Family, Pricing, RulesetPin, fad_basic_advanced};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::store::forces;
use fad_domain::rulesets::one_page_skirmish::UNPRICED_REASON;

use super::ruled::ForceRules;

/// A unit with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UnitResponse {
    /// The unit.
    #[serde(flatten)]
    pub unit: Unit,
    /// Its points (docs/rules.md §4.3), 2 decimals; `null` under a ruleset without points.
    #[schema(read_only)]
    pub points: Option<f64>,
    /// The Quality the squad fights at while its leader lives, where the ruleset's squad
    /// leaders raise it (`fad-basic-advanced`, B2); `quality` stays its natural one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub effective_quality: Option<Quality>,
    /// An FMA figure's quality die, which its Experience gives (`d4` to `d12`, M2).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub quality_die: Option<String>,
}

/// A platoon with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlatoonResponse {
    /// Name.
    pub name: String,
    /// Its points: the sum of its units', 2 decimals; `null` when unpriced.
    #[schema(read_only)]
    pub points: Option<f64>,
    /// Units.
    pub units: Vec<UnitResponse>,
}

/// A roster with points at every level.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RosterResponse {
    /// The force's name.
    pub name: String,
    /// The force's points, 2 decimals; `null` under a ruleset without points.
    pub points: Option<f64>,
    /// Why `points` is `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unpriced_reason: Option<String>,
    /// Items of the roster the borrowed FAD 5e point system has no price for (counted as 0).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced_items: Vec<String>,
    /// Platoons.
    pub platoons: Vec<PlatoonResponse>,
}

impl RosterResponse {
    /// The roster with its points, as FAD 5e prices it.
    pub fn new(roster: Roster) -> Self {
        Self::under(roster, None)
    }

    /// The roster as the campaign's ruleset shows it (`None`: FAD 5e).
    pub fn under(roster: Roster, rules: Option<&ForceRules>) -> Self {
        let one_page = super::roster::is_one_page(&roster);
        let figures = fad_domain::campaign::figures::is_figure_roster(&roster)
            || rules.is_some_and(|r| r.ruleset.family == Family::Fma);
        let priced = !one_page && !figures && rules.is_none_or(|r| r.pricing() == Pricing::Fad5e);
        let shifts = rules.is_some_and(ForceRules::shifts_quality);
        let price = |p: f64| priced.then(|| round_points(p));
        let (unpriced_reason, unpriced_items) = match rules {
            // A one-page roster has no points (O7): its units are priced by texts the service lacks.
            _ if one_page => (Some(UNPRICED_REASON.to_owned()), Vec::new()),
            // Nor has an FMA roster: its costings are in a part of the text the service lacks (M9).
            _ if figures => (
                Some(fad_domain::rulesets::gzg_fma_1999::UNPRICED_REASON.to_owned()),
                Vec::new(),
            ),
            None => (None, Vec::new()),
            Some(_) if !priced => (
                Some(fad_basic_advanced::UNPRICED_REASON.to_owned()),
                Vec::new(),
            ),
            Some(_) => (None, fad_basic_advanced::unpriced_items(&roster)),
        };
        Self {
            points: price(force_points(&roster)),
            unpriced_reason,
            unpriced_items,
            name: roster.name,
            platoons: roster
                .platoons
                .into_iter()
                .map(|p| PlatoonResponse {
                    name: p.name.clone(),
                    points: price(platoon_points(&p)),
                    units: p
                        .units
                        .into_iter()
                        .map(|u| UnitResponse {
                            points: price(unit_points(&u)),
                            effective_quality: shifts
                                .then(|| fad_basic_advanced::effective_quality(&u))
                                .flatten(),
                            quality_die: u.fma.as_ref().map(|p| p.quality_die().to_string()),
                            unit: u,
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A force as members see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ForceResponse {
    /// The force id.
    #[schema(read_only)]
    pub id: String,
    /// The campaign.
    #[schema(read_only)]
    pub campaign_id: String,
    /// The owner's user id.
    #[schema(read_only)]
    pub owner_id: String,
    /// The owner's display name (or username); in reads (`GET` of a force and of the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub owner_name: Option<String>,
    /// The ruleset its campaign plays, which the roster is checked and priced under.
    #[schema(read_only)]
    pub ruleset: RulesetPin,
    /// The family of rules the roster is written in (`fad`, `one_page`).
    #[schema(read_only)]
    pub family: Family,
    /// The force's name.
    pub name: String,
    /// Its points (docs/rules.md §4.3), 2 decimals; `null` under a ruleset without points.
    #[schema(read_only)]
    pub points: Option<f64>,
    /// Why `points` is `null` (a ruleset without points, docs/rules.md B6).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub unpriced_reason: Option<String>,
    /// Items FAD 5e's point system, borrowed by a ruleset without its own, has no price for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(read_only)]
    pub unpriced_items: Vec<String>,
    /// Platoons with their units and points.
    pub platoons: Vec<PlatoonResponse>,
    /// Optimistic-concurrency version (also the `ETag`).
    #[schema(read_only)]
    pub version: i64,
    /// Whether it is archived (read-only).
    #[schema(read_only)]
    pub archived: bool,
    /// When it was archived.
    #[schema(read_only)]
    pub archived_at: Option<DateTime<Utc>>,
    /// Creation time.
    #[schema(read_only)]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[schema(read_only)]
    pub updated_at: DateTime<Utc>,
}

impl ForceResponse {
    /// The response for a stored force, as FAD 5e shows it.
    pub fn new(force: forces::Force) -> Result<Self, ApiError> {
        Self::under(force, &ForceRules::fad5e())
    }

    /// The response for a stored force under its campaign's rules.
    pub fn under(force: forces::Force, rules: &ForceRules) -> Result<Self, ApiError> {
        let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
        let RosterResponse {
            name,
            points,
            unpriced_reason,
            unpriced_items,
            platoons,
        } = RosterResponse::under(roster, (!rules.reads_as_fad5e()).then_some(rules));
        Ok(Self {
            id: force.id,
            campaign_id: force.campaign_id,
            owner_id: force.owner_id,
            owner_name: None,
            ruleset: rules.ruleset.pin(),
            family: rules.ruleset.family,
            name,
            points,
            unpriced_reason,
            unpriced_items,
            platoons,
            version: force.version,
            archived: force.archived_at.is_some(),
            archived_at: force.archived_at.map(|t| t.and_utc()),
            created_at: force.created_at.and_utc(),
            updated_at: force.updated_at.and_utc(),
        })
    }
}
