//! A one-shot scenario as stored and as answered. A scenario is stored as one JSON document
//! ([`ScenarioDocument`], format-versioned through [`crate::store::doc`]): the domain's machine
//! state, the roll log, the narrative and the unused entered dice. The creator (and a
//! share-link holder) sees everything ([`Viewer::Everything`]): a one-shot scenario is one person
//! preparing game night, with no secrets between the sides.

use chrono::{DateTime, Utc};
use fad_domain::dice::RollLog;
use fad_domain::narrative::Narrative;
use fad_domain::rulesets::RulesetPin;
use fad_domain::scenario::side_dice::EnteredBySide;
use fad_domain::scenario::{Scenario, ScenarioView, Viewer};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::scenario_request::ForceRef;
use crate::app::scenarios::{ScenarioRecord, ShareLinks};
use crate::error::ApiError;
use crate::store::doc::{self, StoredDoc};
use crate::store::scenarios::ScenarioRow;

/// What is stored per scenario (JSON text in `scenarios.document`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioDocument {
    /// The finished machine state (both forces included).
    pub scenario: Scenario,
    /// The sides' forces, in side order.
    pub forces: Vec<ForceRef>,
    /// The circumstances of war, when asked for (docs/rules.md §5).
    #[serde(default)]
    pub narrative: Option<Narrative>,
    /// Every roll, in order.
    pub rolls: RollLog,
    /// Entered values no roll used, per force id.
    #[serde(default)]
    pub unused_dice: EnteredBySide,
    /// The ruleset it is played under; left out for FAD 5e version 1, so documents stored
    /// before rulesets existed keep their bytes.
    #[serde(default, skip_serializing_if = "RulesetPin::is_fad5e_v1")]
    pub ruleset: RulesetPin,
}

/// A scenario as its creator (or a share-link holder) sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScenarioResponse {
    /// The scenario id.
    pub id: String,
    /// When it was generated (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// Whether a share link exists.
    pub shared: bool,
    /// The share link (the printable sheet), when shared (absent for scenarios shared before
    /// links could be read again, whose token was only kept hashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_url: Option<String>,
    /// The same scenario as JSON through the share link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_api_url: Option<String>,
    /// Each side's own printable sheet, in side order: that side's secrets, and of the other
    /// side only what the rules reveal (hand each player their own; empty for scenarios
    /// generated before sheets per side).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_sheet_urls: Vec<String>,
    /// The sides' forces, in side order.
    pub forces: Vec<ForceRef>,
    /// The whole scenario: `state`, `night_fighting`, `escalating_engagement`,
    /// `table_edge_chooser`, `first_to_place_markers`, `objectives`, and per side `stance`,
    /// `attitude`, `recon_points`, `table_edge_roll`, `deployment_zone_inches`,
    /// `field_defences`, `mission`, `mission_totals`, `tied_missions`, `contact_markers`,
    /// `night_fighting_roll`, `recon_duty`, `bonus`, `bonus_traits` (each `{trait, unit_id,
    /// unit_name}`), `pre_battle_events`, ….
    #[serde(flatten)]
    pub scenario: ScenarioView,
    /// The circumstances of war, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrative: Option<Narrative>,
    /// Every roll in order.
    pub rolls: RollLog,
    /// Entered values no roll used: force id → step → subject → values.
    #[schema(value_type = BTreeMap<String, fad_domain::dice::EnteredDiceSchema>)]
    pub unused_dice: EnteredBySide,
    /// The ruleset it is played under, when not FAD 5e version 1 (`{"id", "version"}`).
    #[serde(skip_serializing_if = "RulesetPin::is_fad5e_v1")]
    pub ruleset: RulesetPin,
}

impl StoredDoc for ScenarioDocument {
    const KIND: &'static str = "one-shot scenario";
}

impl ScenarioDocument {
    /// The document of a stored row, in any format.
    pub fn of_row(row: &ScenarioRow) -> Result<Self, ApiError> {
        doc::decode(&row.document)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored scenario {}: {e}", row.id)))
    }
}

impl ScenarioResponse {
    /// Puts share links in the response.
    pub fn set_share_links(&mut self, links: ShareLinks) {
        self.share_url = Some(links.sheet);
        self.share_api_url = Some(links.api);
    }

    /// The response for a stored scenario, with its share links when it has them.
    pub fn with_links(scenario: &ScenarioRecord) -> Result<Self, ApiError> {
        let mut response = Self::from_row(&scenario.row)?;
        if let Some(links) = scenario.links.clone() {
            response.set_share_links(links);
        }
        response.side_sheet_urls = scenario.side_links.clone();
        Ok(response)
    }

    /// The response for a stored row.
    pub fn from_row(row: &ScenarioRow) -> Result<Self, ApiError> {
        Ok(Self::new(row, ScenarioDocument::of_row(row)?))
    }

    /// The response for a row and its parsed document.
    pub fn new(row: &ScenarioRow, doc: ScenarioDocument) -> Self {
        Self {
            id: row.id.clone(),
            created_at: row.created_at.and_utc(),
            shared: row.share_token_hash.is_some(),
            share_url: None,
            share_api_url: None,
            side_sheet_urls: Vec::new(),
            forces: doc.forces,
            scenario: doc.scenario.view_for(Viewer::Everything),
            narrative: doc.narrative,
            rolls: doc.rolls,
            unused_dice: doc.unused_dice,
            ruleset: doc.ruleset,
        }
    }
}
