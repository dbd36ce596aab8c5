//! How a force and its roster are answered: points at every level, as members see them. The
//! JSON handlers and the pages show the same values.

use chrono::{DateTime, Utc};
use fad_domain::points::{force_points, platoon_points, round_points, unit_points};
use fad_domain::roster::{Force as Roster, Unit};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::store::forces;
use fad_domain::rulesets::one_page_skirmish::UNPRICED_REASON;

/// A unit with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UnitResponse {
    /// The unit.
    #[serde(flatten)]
    pub unit: Unit,
    /// Its points (docs/rules.md §4.3), 2 decimals; `null` under an unpriced ruleset.
    #[schema(read_only)]
    pub points: Option<f64>,
}

/// A platoon with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlatoonResponse {
    /// Name.
    pub name: String,
    /// Its points: the sum of its units', 2 decimals; `null` under an unpriced ruleset.
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
    /// The force's points, 2 decimals; `null` under an unpriced ruleset.
    pub points: Option<f64>,
    /// Why it has no points, when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unpriced_reason: Option<String>,
    /// Platoons.
    pub platoons: Vec<PlatoonResponse>,
}

impl RosterResponse {
    /// The roster with its points.
    pub fn new(roster: Roster) -> Self {
        // A one-page roster has no points (O7): its units are priced by texts the service lacks.
        let priced = !super::roster::is_one_page(&roster);
        let price = |points: f64| priced.then(|| round_points(points));
        let points = price(force_points(&roster));
        Self {
            name: roster.name,
            points,
            unpriced_reason: (!priced).then(|| UNPRICED_REASON.to_owned()),
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
    /// The force's name.
    pub name: String,
    /// Its points (docs/rules.md §4.3), 2 decimals; `null` under an unpriced ruleset.
    #[schema(read_only)]
    pub points: Option<f64>,
    /// Why it has no points, when it has none (an unpriced ruleset).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub unpriced_reason: Option<String>,
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
    /// The response for a stored force.
    pub fn new(force: forces::Force) -> Result<Self, ApiError> {
        let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
        let RosterResponse {
            name,
            points,
            unpriced_reason,
            platoons,
        } = RosterResponse::new(roster);
        Ok(Self {
            id: force.id,
            campaign_id: force.campaign_id,
            owner_id: force.owner_id,
            owner_name: None,
            name,
            points,
            unpriced_reason,
            platoons,
            version: force.version,
            archived: force.archived_at.is_some(),
            archived_at: force.archived_at.map(|t| t.and_utc()),
            created_at: force.created_at.and_utc(),
            updated_at: force.updated_at.and_utc(),
        })
    }
}
