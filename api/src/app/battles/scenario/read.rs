//! Reading a battle's scenario as the caller may see it, for the JSON read and the printable
//! sheet.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::auth::{Caller, CampaignAccess, Need};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::battles;

use super::super::authorize_battle;
use super::{
    BattleScenarioDocument, BattleScenarioResponse, acting_sides, dice_commitments, load, viewer_of,
};

/// Whose view to take.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ScenarioQuery {
    /// One of the forces the caller acts for (the caller owns it, or is an organiser who plays
    /// neither side); without it: the only such force, or everything for a caller who acts for
    /// both sides or referees (an organiser who plays neither side also sees a non-player
    /// side's secrets).
    pub force_id: Option<String>,
}

/// What a read answers: the document, its version and the viewer.
pub struct Seen {
    /// The battle id.
    pub battle_id: String,
    /// The battle row's version (moves with every public change of the battle).
    pub battle_version: i64,
    /// The version of what this viewer sees (0 until something it sees has changed).
    pub version: i64,
    /// The document.
    pub doc: BattleScenarioDocument,
    /// Who looks.
    pub viewer: fad_domain::scenario::Viewer,
    /// Whether the scenario's row is stored (a side has made its first choice).
    pub stored: bool,
}

/// Loads a battle's scenario for the caller (403 when `force_id` names a side it does not act
/// for).
pub fn seen_by(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    force_id: Option<&str>,
) -> Result<Seen, ApiError> {
    seen_with_access(conn, caller, battle_id, force_id).map(|(seen, _, _)| seen)
}

/// [`seen_by`], with the battle's row and the caller's access it read on the way (the battle
/// page shows them too, and reads nothing twice).
pub fn seen_with_access(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    force_id: Option<&str>,
) -> Result<(Seen, battles::Battle, CampaignAccess), ApiError> {
    let (battle, access) = authorize_battle(conn, caller, battle_id, Need::Read)?;
    let (row, doc) = load(conn, &battle)?;
    let acting = acting_sides(conn, &access, &doc.scenario)?;
    let viewer = match force_id {
        // A referee sees everything, a non-player side's secrets included.
        None if acting.referee => fad_domain::scenario::Viewer::Everything,
        None => viewer_of(&acting.sides),
        Some(id) => {
            let side = doc
                .scenario
                .side_index(id)
                .ok_or_else(|| ApiError::validation("force_id", "not a side of this battle"))?;
            if !acting.sides.contains(&side) {
                return Err(ApiError::Forbidden(
                    "Only the force's owner, or an organiser who plays neither side, may see it in full."
                        .to_owned(),
                ));
            }
            viewer_of(&[side])
        }
    };
    let stored = row.is_some();
    let version = row.map_or(0, |r| super::versions::stored(&doc, r.version).of(viewer));
    let seen = Seen {
        battle_id: battle.id.clone(),
        battle_version: battle.version,
        version,
        doc,
        viewer,
        stored,
    };
    Ok((seen, battle, access))
}

/// A battle's scenario as the caller may see it (`force_id`: whose view, see
/// [`ScenarioQuery`]). Members and the campaign's integration keys may read it; each sees only
/// what the rules have revealed to it.
pub async fn read_scenario(
    state: &AppState,
    caller: Caller,
    battle_id: String,
    force_id: Option<String>,
) -> Result<BattleScenarioResponse, ApiError> {
    let (seen, shown) = state
        .db
        .read(move |conn| {
            let seen = seen_by(conn, &caller, &battle_id, force_id.as_deref())?;
            let shown = commitments_seen(conn, &seen)?;
            Ok((seen, shown))
        })
        .await?;
    response_of(state, seen, shown).await
}

/// The dice commitments `seen`'s viewer is shown, read in its transaction; `None` before the
/// scenario's first commitments are issued ([`response_of`] issues them).
pub fn commitments_seen(
    conn: &mut Db,
    seen: &Seen,
) -> Result<Option<Vec<dice_commitments::ScenarioDiceCommitment>>, ApiError> {
    let sides = side_ids(&seen.doc);
    let visible = seen
        .doc
        .scenario
        .visible_rolls(&seen.doc.rolls, seen.viewer);
    dice_commitments::shown_if_issued(conn, &seen.battle_id, &sides, seen.viewer, &visible)
}

/// The scenario's answer for what was read (`seen`, `shown`): the first read of a battle's
/// scenario issues its first commitments, in a transaction of its own.
pub async fn response_of(
    state: &AppState,
    seen: Seen,
    shown: Option<Vec<dice_commitments::ScenarioDiceCommitment>>,
) -> Result<BattleScenarioResponse, ApiError> {
    let shown = match shown {
        Some(shown) => shown,
        None => {
            // The first read of a battle's scenario issues its first commitments.
            let (id, sides, viewer) = (seen.battle_id.clone(), side_ids(&seen.doc), seen.viewer);
            let visible = seen.doc.scenario.visible_rolls(&seen.doc.rolls, viewer);
            state
                .db
                .transaction(move |conn| {
                    dice_commitments::ensure(conn, &id, &sides)?;
                    dice_commitments::shown(conn, &id, &sides, viewer, &visible)
                })
                .await?
        }
    };
    let mut response = BattleScenarioResponse::new(
        &seen.battle_id,
        seen.version,
        &seen.doc,
        seen.viewer,
        &seen.doc.rolls,
    );
    response.dice_commitments = shown;
    Ok(response)
}

fn side_ids(doc: &BattleScenarioDocument) -> Vec<String> {
    doc.scenario
        .sides
        .iter()
        .map(|s| s.force_id.clone())
        .collect()
}

/// What the caller sees of a battle's scenario, for its printable sheet.
pub async fn scenario_seen(
    state: &AppState,
    caller: Caller,
    battle_id: String,
    force_id: Option<String>,
) -> Result<Seen, ApiError> {
    state
        .db
        .read(move |conn| seen_by(conn, &caller, &battle_id, force_id.as_deref()))
        .await
}
