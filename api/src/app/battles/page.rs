//! The battle page's read: in one read transaction, one trip to the blocking pool, everything
//! the page shows of the battle for one person (the signature its live updates compare, the
//! battle, its scenario as that person sees it, the stored rosters of its player forces, their
//! part in the battle for the result panel, and solo play for a battle against a non-player
//! force), the scenario document loaded and decoded once for all of them. Only a first view
//! writes afterwards: the first dice commitments of the scenario or of solo play.

use crate::AppState;
use crate::app::battle_pages::{BattleRole, role_of_forces};
use crate::app::force_pages::{self, StoredForceView};
use crate::auth::Caller;
use crate::error::ApiError;

use super::scenario::BattleScenarioResponse;
use crate::store::aftermath as rows;

use super::scenario::read::{commitments_seen, response_of, seen_with_access};
use super::solo::{self, SoloResponse, Target};
use super::{AftermathSummary, BattleResponse, reads, watch};

/// What the battle page shows, read for one person.
pub struct PageRead {
    /// What the live updates compare with ([`watch::view_signature`]).
    pub signature: String,
    /// The battle as this person may see it.
    pub battle: BattleResponse,
    /// Its scenario as this person may see it.
    pub scenario: BattleScenarioResponse,
    /// The stored roster of each player force, in side order.
    pub forces: Vec<StoredForceView>,
    /// This person's part in the battle.
    pub role: BattleRole,
    /// Solo play, for a battle with a non-player side.
    pub solo: Option<SoloResponse>,
}

/// Reads the battle page of `battle_id` for `user_id` (404 for anyone but the campaign's
/// members). The first view of a battle also issues its scenario's first dice commitments.
pub async fn read_page(
    state: &AppState,
    user_id: &str,
    battle_id: &str,
) -> Result<PageRead, ApiError> {
    let (user_id, battle_id) = (user_id.to_owned(), battle_id.to_owned());
    let target = Target::Battle(battle_id.clone());
    let read_target = target.clone();
    let (signature, battle, seen, shown, forces, role, solo) = state
        .db
        .read(move |conn| {
            let caller = Caller::User {
                user_id: user_id.clone(),
            };
            // Each row once: the battle and the person's access come with their view of the
            // scenario, the sequences' stages serve both the signature and the battle.
            let (seen, battle_row, access) = seen_with_access(conn, &caller, &battle_id, None)?;
            let stages = rows::stages_for_battle(conn, &battle_id)?;
            let signature = watch::signature_with_stages(&seen, &stages);
            let aftermath = AftermathSummary::of_stages(&stages);
            let battle = reads::battle_response_seen(conn, battle_row, aftermath, &seen)?;
            let shown = commitments_seen(conn, &seen)?;
            let forces = battle
                .sides
                .iter()
                .filter_map(|s| s.force_id.as_deref())
                .map(|force_id| force_pages::stored_force_view(conn, &user_id, force_id))
                .collect::<Result<Vec<_>, _>>()?;
            let role = role_of_forces(&user_id, &access, &forces);
            // Solo play runs only a non-player side (a battle without one answers 409 to
            // `GET .../solo`): the page then has no Solo panel.
            let solo = if battle.sides.iter().any(|s| s.non_player.is_some()) {
                match solo::solo_in(conn, &caller, &read_target) {
                    Ok(answer) => Some(answer),
                    Err(ApiError::Conflict(_)) => None,
                    Err(e) => return Err(e),
                }
            } else {
                None
            };
            Ok((signature, battle, seen, shown, forces, role, solo))
        })
        .await?;
    let scenario = response_of(state, seen, shown).await?;
    let solo = match solo {
        Some(answer) => Some(solo::with_commitment(state, &target, answer).await?),
        None => None,
    };
    Ok(PageRead {
        signature,
        battle,
        scenario,
        forces,
        role,
        solo,
    })
}
