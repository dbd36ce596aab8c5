//! Reading battles: one battle as the caller may see it, and a campaign's battles a page at a
//! time. Members and the campaign's integration keys may read.

use fad_domain::scenario::Viewer;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::ApiError;
use crate::paging::Keyset;

use crate::store::{CreatedKey, battles};

use super::{AftermathSummary, BattleResponse, authorize_battle, scenario};

/// A page of a campaign's battles.
#[derive(Debug, Serialize, ToSchema)]
pub struct BattleList {
    /// Oldest first.
    pub battles: Vec<BattleResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// One battle: state, sides, the scenario as the caller may see it, result and each side's
/// aftermath stage.
pub async fn read_battle(
    state: &AppState,
    caller: Caller,
    battle_id: String,
) -> Result<BattleResponse, ApiError> {
    state
        .db
        .read(move |conn| {
            // Read whether or not a row is stored (the same work either way, see
            // `scenario::load`).
            let seen = scenario::read::seen_by(conn, &caller, &battle_id, None)?;
            battle_seen(conn, &caller, &battle_id, &seen)
        })
        .await
}

/// The battle read inside a caller's transaction, with the scenario as `caller` sees it
/// (`seen`, read in the same transaction).
pub fn battle_seen(
    conn: &mut crate::db::Db,
    caller: &Caller,
    battle_id: &str,
    seen: &scenario::read::Seen,
) -> Result<BattleResponse, ApiError> {
    let (battle, _) = authorize_battle(conn, caller, battle_id, Need::Read)?;
    let aftermath = AftermathSummary::of_battle(conn, &battle.id)?;
    battle_response_seen(conn, battle, aftermath, seen)
}

/// [`battle_seen`] of a battle row and its sequences' stages already read and authorized in the
/// caller's transaction.
pub fn battle_response_seen(
    conn: &mut crate::db::Db,
    battle: battles::Battle,
    aftermath: Vec<AftermathSummary>,
    seen: &scenario::read::Seen,
) -> Result<BattleResponse, ApiError> {
    let mut response = BattleResponse::new(battle, aftermath)?;
    // Shown once something this caller sees has happened (a stored row alone would betray the
    // other side's first secret choice).
    if seen.version > 0 {
        response.scenario = Some(seen.doc.scenario.view_for(seen.viewer));
    }
    let everything = seen.stored && seen.viewer == Viewer::Everything;
    if !everything {
        response.hide_non_player_choices();
    }
    super::names::name_sides(conn, std::slice::from_mut(&mut response))?;
    Ok(response)
}

/// A campaign's battles, oldest first, one page (`page` names where it starts).
pub async fn list_battles(
    state: &AppState,
    caller: Caller,
    campaign_id: String,
    page: Keyset<CreatedKey>,
) -> Result<BattleList, ApiError> {
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (battles, next) = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let rows = battles::list_for_campaign(conn, &campaign_id, after.as_ref(), fetch)?;
            let (rows, next) = page.finish(rows, |b| (b.created_at, b.id.clone()))?;
            let mut battles = rows
                .into_iter()
                .map(|b| BattleResponse::load(conn, b))
                .collect::<Result<Vec<_>, _>>()?;
            super::names::name_sides(conn, &mut battles)?;
            Ok((battles, next))
        })
        .await?;
    Ok(BattleList { battles, next })
}
