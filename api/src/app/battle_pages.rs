//! Reads that gather what the result, confirmation and post-battle pages show one person: their
//! part in the battle, each player side's roster as the result names its units, and one force's
//! post-battle sequence with the names of its units. Authorized like the JSON reads (a
//! non-member gets 404); who may act is decided again by the use case on every write.

use std::collections::BTreeMap;

use fad_domain::campaign::Outcome;
use fad_domain::roster::Force as Roster;

use crate::AppState;
use crate::auth::{Caller, CampaignAccess, Need, campaign_access};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::{aftermath as rows, forces};

use super::battles::aftermath::AftermathResponse;
use super::battles::aftermath::read::read_aftermath;
use super::battles::reads::read_battle;
use super::battles::result::may_confirm;
use super::battles::{BattleResponse, battle_not_found};

/// What one person is to a battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleRole {
    /// The person.
    pub user_id: String,
    /// Whether they organise the battle's campaign.
    pub is_organiser: bool,
    /// The battle's player forces they own.
    pub owned: Vec<String>,
    /// The player forces' names, by force id (names are public to the campaign's members).
    pub force_names: BTreeMap<String, String>,
}

impl BattleRole {
    /// A player force's name (or "a deleted force").
    pub fn force_name(&self, force_id: &str) -> &str {
        self.force_names
            .get(force_id)
            .map_or("a deleted force", String::as_str)
    }

    /// Whether they may record the result (a side's owner or the organiser).
    pub fn may_record(&self) -> bool {
        self.is_organiser || !self.owned.is_empty()
    }

    /// Whether they may confirm the battle's pending result (see
    /// [`super::battles::result::confirm_result`]).
    pub fn may_confirm(&self, battle: &BattleResponse) -> bool {
        let recorder = battle.result_by.as_deref() == Some(self.user_id.as_str());
        may_confirm(self.is_organiser, !self.owned.is_empty(), recorder)
    }

    /// Whether they may run `force_id`'s post-battle sequence (its owner or the organiser).
    pub fn may_run(&self, force_id: &str) -> bool {
        self.is_organiser || self.owned.iter().any(|f| f == force_id)
    }
}

/// One player side as the result form lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SideRoster {
    /// The force.
    pub force_id: String,
    /// The roster the result names units of: the battle-start snapshot once a result is
    /// recorded, else the roster as it stands.
    pub roster: Roster,
}

/// The battle, the person's part in it and the player sides' rosters.
#[derive(Debug, Clone)]
pub struct ResultView {
    /// The battle as `GET /battles/{id}` shows it to this person.
    pub battle: BattleResponse,
    /// Their part in it.
    pub role: BattleRole,
    /// The player sides, in the battle's order.
    pub sides: Vec<SideRoster>,
}

fn caller(user_id: &str) -> Caller {
    Caller::User {
        user_id: user_id.to_owned(),
    }
}

/// What `user_id` is to `battle`, inside the caller's read transaction.
pub(crate) fn role_in(
    conn: &mut Db,
    user_id: &str,
    battle: &BattleResponse,
) -> Result<BattleRole, ApiError> {
    let access =
        campaign_access(conn, &caller(user_id), &battle.campaign_id, Need::Read).map_err(|e| {
            match e {
                ApiError::NotFound(_) => battle_not_found(),
                other => other,
            }
        })?;
    role_with_access(conn, user_id, &access, battle)
}

/// [`role_in`] with the person's access to the battle's campaign already read.
pub(crate) fn role_with_access(
    conn: &mut Db,
    user_id: &str,
    access: &CampaignAccess,
    battle: &BattleResponse,
) -> Result<BattleRole, ApiError> {
    let players: Vec<String> = battle
        .sides
        .iter()
        .filter_map(|s| s.force_id.clone())
        .collect();
    let owned = super::battles::owned_forces(conn, access, &players)?;
    let force_names = forces::find_many(conn, &players)?
        .into_iter()
        .map(|f| (f.id, f.name))
        .collect();
    Ok(BattleRole {
        user_id: user_id.to_owned(),
        is_organiser: access.is_organiser(),
        owned,
        force_names,
    })
}

/// [`role_with_access`] from the battle's player forces as the battle page read them already
/// (in side order): who owns each and its name, without reading them again.
pub(crate) fn role_of_forces(
    user_id: &str,
    access: &CampaignAccess,
    forces: &[super::force_pages::StoredForceView],
) -> BattleRole {
    BattleRole {
        user_id: user_id.to_owned(),
        is_organiser: access.is_organiser(),
        owned: forces
            .iter()
            .filter(|f| f.force.owner_id == user_id)
            .map(|f| f.force.id.clone())
            .collect(),
        force_names: forces
            .iter()
            .map(|f| (f.force.id.clone(), f.force.name.clone()))
            .collect(),
    }
}

/// What `user_id` is to `battle` (read with [`read_battle`] before).
pub async fn battle_role(
    state: &AppState,
    user_id: &str,
    battle: &BattleResponse,
) -> Result<BattleRole, ApiError> {
    let (user_id, battle) = (user_id.to_owned(), battle.clone());
    state
        .db
        .read(move |conn| role_in(conn, &user_id, &battle))
        .await
}

/// The battle with the person's part in it and the rosters its result names units of.
pub async fn result_view(
    state: &AppState,
    user_id: &str,
    battle_id: &str,
) -> Result<ResultView, ApiError> {
    let battle = read_battle(state, caller(user_id), battle_id.to_owned()).await?;
    let user_id = user_id.to_owned();
    state
        .db
        .read(move |conn| {
            let role = role_in(conn, &user_id, &battle)?;
            let ids: Vec<String> = battle
                .sides
                .iter()
                .filter_map(|s| s.force_id.clone())
                .collect();
            let snapshots = rows::list_for_battle(conn, &battle.id)?;
            let current = forces::find_many(conn, &ids)?;
            let mut sides = Vec::new();
            for id in ids {
                let roster = match snapshots.iter().find(|r| r.force_id == id) {
                    Some(row) => row.battle_start.clone(),
                    None => match current.iter().find(|f| f.id == id) {
                        Some(force) => force.roster().map_err(|e| ApiError::Internal(e.into()))?,
                        // A deleted force: the result form cannot name its units.
                        None => continue,
                    },
                };
                sides.push(SideRoster {
                    force_id: id,
                    roster,
                });
            }
            Ok(ResultView {
                battle,
                role,
                sides,
            })
        })
        .await
}

/// One force's post-battle sequence as its page shows it.
#[derive(Debug, Clone)]
pub struct AftermathView {
    /// The battle.
    pub battle: BattleResponse,
    /// The person's part in it.
    pub role: BattleRole,
    /// The sequence as `GET .../aftermath/{force_id}` answers it.
    pub sequence: AftermathResponse,
    /// The force's roster at the start of the battle.
    pub start: Roster,
    /// The sequence so far (or final), typed; `None` before the first roll.
    pub outcome: Option<Outcome>,
    /// The campaign's ruleset: the menu and its costs.
    pub ruleset: std::sync::Arc<fad_domain::rulesets::Ruleset>,
}

/// One force's post-battle sequence with the battle, the person's part in it and the
/// battle-start roster (members; others 404).
pub async fn aftermath_view(
    state: &AppState,
    user_id: &str,
    battle_id: &str,
    force_id: &str,
) -> Result<AftermathView, ApiError> {
    let battle = read_battle(state, caller(user_id), battle_id.to_owned()).await?;
    let sequence = read_aftermath(
        state,
        caller(user_id),
        battle_id.to_owned(),
        force_id.to_owned(),
    )
    .await?;
    let outcome = sequence
        .outcome
        .as_ref()
        .map(|raw| serde_json::from_str::<Outcome>(raw.get()))
        .transpose()
        .map_err(|e| ApiError::Internal(e.into()))?;
    let (user_id, battle_id, force_id) = (
        user_id.to_owned(),
        battle_id.to_owned(),
        force_id.to_owned(),
    );
    state
        .db
        .read(move |conn| {
            let role = role_in(conn, &user_id, &battle)?;
            let row = rows::find(conn, &battle_id, &force_id)?.ok_or_else(|| {
                ApiError::NotFound(
                    "That force has no post-battle sequence in this battle.".to_owned(),
                )
            })?;
            let start: Roster = row.battle_start;
            let ruleset = crate::app::rulesets::load(conn, &sequence.ruleset)?;
            Ok(AftermathView {
                battle,
                role,
                sequence,
                start,
                outcome,
                ruleset,
            })
        })
        .await
}
