//! Battles, results and the post-battle sequence (docs/rules.md §2): one function per use case,
//! and what they share: the battle's shapes, the access checks and the row locks.
//!
//! When the losses hit the roster: recording a result snapshots each player force's roster as
//! "battle start" (with the force version) and validates the losses against it; nothing in the
//! stored roster changes until that force's aftermath is finalized, which commits losses,
//! steps 1–6 and the player's choices as one history entry (cause `battle`, with the roll log)
//! plus the ledger entries, in one transaction. A disputed pending result thus changes nothing.

pub mod aftermath;
pub mod corrections;
pub mod create;
#[cfg(test)]
mod golden;
pub mod lifecycle;
pub mod names;
pub mod outcome;
pub mod page;
pub mod reads;
pub mod result;
pub mod scenario;
pub mod solo;
pub mod step_events;
pub mod timeline;
pub mod watch;

use chrono::{DateTime, Utc};
use fad_domain::lifecycle::{AftermathStage, BattleState};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{Caller, CampaignAccess, Need, campaign_access};
use crate::db::Db;
use crate::error::ApiError;

use crate::store::{aftermath as rows, battles};

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// One side of a battle: a stored force or a non-player force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Side {
    /// The stored force, for a player side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The non-player force's description, for a non-player side: optional `name`, `stance`
    /// and `attitude` (rolled when absent, docs/rules.md §3.12) and an inline force (`platoons`,
    /// `units`) as in `POST /scenarios`; any other field is refused. A chosen `stance` and
    /// `attitude` are left out of what battle reads, lists and the timeline show until the
    /// scenario reveals them (when orders close) or the battle has a result; a referee sees
    /// them in `GET /battles/{id}` once the scenario has started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_player: Option<scenario::non_player::NonPlayerBody>,
    /// The player side's owner's display name (or username), in battle reads and lists;
    /// read-only (a request that sends it is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub owner_name: Option<String>,
}

/// The recorded result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattleResult {
    /// `win` or `draw`.
    #[schema(value_type = crate::store::events::ResultOutcome)]
    pub outcome: String,
    /// The winning force; `null` for a draw or when the non-player side won.
    pub winner_force_id: Option<String>,
    /// Per-unit losses, each with the force it belongs to.
    pub losses: Vec<RecordedLoss>,
}

/// One unit's losses in a recorded result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordedLoss {
    /// The force the unit belongs to.
    pub force_id: String,
    /// The unit.
    pub unit_id: String,
    /// Figures lost (C2).
    pub figures_lost: u32,
    /// Wiped out (C4).
    pub eliminated: bool,
    /// `damaged` or `destroyed`, for vehicles.
    #[schema(value_type = Option<fad_domain::campaign::VehicleDamage>)]
    pub vehicle_damage: Option<String>,
    /// A recon unit destroyed by ambush (C2).
    pub destroyed_on_recon: bool,
}

/// One player side's post-battle sequence, in brief.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AftermathSummary {
    /// The force.
    pub force_id: String,
    /// `open` (nothing rolled yet), `rolling` (some roll steps made), `rolled` or `finalized`.
    pub stage: AftermathStage,
    /// The step version.
    pub version: i64,
}

impl AftermathSummary {
    /// Each side's sequence of a battle, by force id.
    pub fn of_battle(conn: &mut Db, battle_id: &str) -> Result<Vec<Self>, ApiError> {
        Ok(Self::of_stages(&rows::stages_for_battle(conn, battle_id)?))
    }

    /// The summaries of stages already read.
    pub fn of_stages(stages: &[rows::SequenceStage]) -> Vec<Self> {
        stages
            .iter()
            .map(|r| Self {
                force_id: r.force_id.clone(),
                stage: r.stage,
                version: r.version,
            })
            .collect()
    }

    /// The summaries of loaded rows.
    pub fn of_rows(rows: &[rows::AftermathRow]) -> Vec<Self> {
        rows.iter()
            .map(|r| Self {
                force_id: r.force_id.clone(),
                stage: r.stage,
                version: r.version,
            })
            .collect()
    }
}

/// A battle.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BattleResponse {
    /// The battle id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// The ruleset it is played under: its campaign's, fixed since the campaign's first battle.
    pub ruleset: fad_domain::rulesets::RulesetPin,
    /// `scenario`, `pending`, `aftermath`, `complete` or `void`.
    pub state: BattleState,
    /// The two sides.
    pub sides: Vec<Side>,
    /// The result, once recorded.
    pub result: Option<BattleResult>,
    /// Who recorded the result.
    pub result_by: Option<String>,
    /// Who confirmed it.
    pub confirmed_by: Option<String>,
    /// Each player side's post-battle sequence, once the result is recorded.
    pub aftermath: Vec<AftermathSummary>,
    /// The scenario as the caller may see it, once its workflow has started (`GET
    /// /battles/{id}` shows the caller's own side in full; lists, the timeline and integration
    /// keys only what the rules have revealed to both sides). See `GET .../scenario`.
    pub scenario: Option<fad_domain::scenario::ScenarioView>,
    /// The organiser's voids and reopenings, oldest first (a reopening keeps the result and
    /// the rolls it discarded).
    pub corrections: Vec<battles::Correction>,
    /// The battle is fought at night (docs/rules.md §3.6: each side adds 1d6 dummy markers).
    pub night_fighting: bool,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// Last change (RFC 3339 UTC).
    pub updated_at: DateTime<Utc>,
}

impl BattleResponse {
    /// The response for a stored battle and its aftermath rows.
    pub fn new(
        battle: battles::Battle,
        aftermath: Vec<AftermathSummary>,
    ) -> Result<Self, ApiError> {
        let sides: Vec<Side> = serde_json::from_str(&battle.sides).map_err(internal)?;
        let result = battle
            .result
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(internal)?;
        let corrections = battle.corrections().map_err(internal)?;
        let night_fighting = battle.options().map_err(internal)?.night_fighting;
        Ok(Self {
            corrections,
            night_fighting,
            id: battle.id,
            campaign_id: battle.campaign_id,
            ruleset: fad_domain::rulesets::RulesetPin::default(),
            state: battle.state,
            sides,
            result,
            result_by: battle.result_by,
            confirmed_by: battle.confirmed_by,
            aftermath,
            scenario: None,
            version: battle.version,
            created_at: battle.created_at.and_utc(),
            updated_at: battle.updated_at.and_utc(),
        })
    }

    /// Loads the battle's aftermath rows and builds the response, with the scenario's public
    /// view.
    pub fn load(conn: &mut Db, battle: battles::Battle) -> Result<Self, ApiError> {
        let aftermath = AftermathSummary::of_battle(conn, &battle.id)?;
        Self::new(battle, aftermath)?.with_public_scenario(conn)
    }

    /// The response with its owners' names and ruleset filled in (see [`names::name_sides`]).
    pub fn named(mut self, conn: &mut Db) -> Result<Self, ApiError> {
        names::name_sides(conn, std::slice::from_mut(&mut self))?;
        Ok(self)
    }

    /// Adds the scenario as everyone may see it (what the rules have revealed to both sides),
    /// and hides a non-player side's chosen stance and attitude until then.
    pub fn with_public_scenario(mut self, conn: &mut Db) -> Result<Self, ApiError> {
        self.scenario = scenario::public_view(conn, &self.id)?;
        self.hide_non_player_choices();
        Ok(self)
    }

    /// Drops `stance` and `attitude` from a non-player side's description while the battle's
    /// scenario has not revealed them (docs/rules.md §3.0: secret until steps 4–5, which the
    /// workflow runs when orders close); a battle with a result shows them.
    pub fn hide_non_player_choices(&mut self) {
        let revealed = self.state != BattleState::Scenario
            || self
                .scenario
                .as_ref()
                .is_some_and(|v| v.state > fad_domain::scenario::ScenarioState::Orders);
        if revealed {
            return;
        }
        for side in &mut self.sides {
            if let Some(description) = &mut side.non_player {
                description.stance = None;
                description.attitude = None;
            }
        }
    }
}

/// The 404 for a battle the caller may not see.
pub fn battle_not_found() -> ApiError {
    ApiError::not_found("battle")
}

/// Loads a battle and checks the caller's access to its campaign (outsiders get 404).
pub fn authorize_battle(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    need: Need,
) -> Result<(battles::Battle, CampaignAccess), ApiError> {
    let battle = battles::find_by_id(conn, battle_id)?.ok_or_else(battle_not_found)?;
    let access = campaign_access(conn, caller, &battle.campaign_id, need).map_err(|e| match e {
        ApiError::NotFound(_) => battle_not_found(),
        other => other,
    })?;
    Ok((battle, access))
}

/// The player forces of a battle's sides.
pub fn player_forces(battle: &battles::Battle) -> Result<Vec<String>, ApiError> {
    let sides: Vec<Side> = serde_json::from_str(&battle.sides).map_err(internal)?;
    Ok(sides.into_iter().filter_map(|s| s.force_id).collect())
}

/// Whether the caller owns one of `force_ids` (returns the owned ids, in `force_ids` order).
pub fn owned_forces(
    conn: &mut Db,
    access: &CampaignAccess,
    force_ids: &[String],
) -> Result<Vec<String>, ApiError> {
    match access.user_id.as_deref() {
        Some(user_id) => Ok(battles::owned_by(conn, user_id, force_ids)?),
        None => Ok(Vec::new()),
    }
}

/// Takes the battle's row lock for the rest of the transaction (bumps its version; see
/// [`battles::lock`]); 404 when there is no such battle.
pub fn lock_battle(conn: &mut Db, battle_id: &str) -> Result<battles::Battle, ApiError> {
    battles::lock(conn, battle_id)?.ok_or_else(battle_not_found)
}

/// [`lock_battle`] without changing the row: for a write that may be a side's secret (a
/// scenario step), whose battle `version` and `updated_at` must not move unless what everyone
/// sees changed ([`touch_battle`]).
pub fn lock_battle_quietly(conn: &mut Db, battle_id: &str) -> Result<battles::Battle, ApiError> {
    battles::lock_quietly(conn, battle_id)?.ok_or_else(battle_not_found)
}

/// Bumps a battle's version and `updated_at` (after [`lock_battle_quietly`]).
pub fn touch_battle(conn: &mut Db, battle_id: &str) -> Result<(), ApiError> {
    Ok(battles::touch(conn, battle_id)?)
}

/// [`lock_battle`] then [`authorize_battle`]'s access check on the locked row: two statements
/// instead of four. The lock comes first; a refused caller's transaction rolls back, so taking
/// it changes nothing for them.
pub fn lock_authorized(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    need: Need,
) -> Result<(battles::Battle, CampaignAccess), ApiError> {
    let battle = lock_battle(conn, battle_id)?;
    let access = campaign_access(conn, caller, &battle.campaign_id, need).map_err(|e| match e {
        ApiError::NotFound(_) => battle_not_found(),
        other => other,
    })?;
    Ok((battle, access))
}

/// Converts domain problems into a 422.
pub fn problems(list: Vec<fad_domain::roster::Problem>) -> ApiError {
    list.into()
}

/// Serializes a response value.
pub fn to_value<T: Serialize>(value: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(internal)
}
