//! What a viewer of a battle can see has changed: a short signature of the versions that move
//! exactly when something this viewer sees moves, for the battle page's live updates.
//!
//! The parts: the battle row's `version` (moves with every public change: results, corrections,
//! public scenario steps; never with a side's secret choice, see
//! [`super::lock_battle_quietly`]), the viewer's own scenario version
//! ([`super::scenario::versions`]: a side's secret choice bumps only that side's and the
//! referee's counters) and each post-battle sequence's stage and version (public to members).
//! A shared counter would tell the opponent that a secret choice was made; these do not.

use crate::AppState;
use crate::auth::{Caller, Need};
use crate::error::ApiError;
use crate::store::{aftermath as rows, battle_scenarios};

use super::authorize_battle;
use super::scenario::read::seen_by;

/// The signature of what `caller` sees of battle `battle_id` now (members of its campaign; 404
/// for anyone else, as the battle read).
pub async fn view_signature(
    state: &AppState,
    caller: Caller,
    battle_id: String,
) -> Result<String, ApiError> {
    state
        .db
        .read(move |conn| {
            let (battle, _) = authorize_battle(conn, &caller, &battle_id, Need::Read)?;
            // No stored scenario reads as version 0, the same as a stored one this viewer has
            // seen nothing of: the first secret choice stores the row.
            let scenario = if battle_scenarios::find::<super::scenario::BattleScenarioDocument>(
                conn, &battle_id,
            )?
            .is_some()
            {
                seen_by(conn, &caller, &battle_id, None)?.version
            } else {
                0
            };
            let aftermath = rows::list_for_battle(conn, &battle.id)?
                .iter()
                .map(|r| format!("{}:{}", r.stage.as_str(), r.version))
                .collect::<Vec<_>>()
                .join(",");
            Ok(format!("b{}.{scenario}.{aftermath}", battle.version))
        })
        .await
}
