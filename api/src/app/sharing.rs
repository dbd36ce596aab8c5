//! Share links to one side's printable sheet of a battle: create (or read again), revoke, open.
//!
//! Who may share or revoke a side's link: whoever may see that side in full, i.e. the force's
//! owner, or an organiser who plays neither side (a referee). An organiser who plays the other
//! side may not, since the link would show them the opponent's hidden choices. Keys never.
//!
//! The link shows what that side may see at the moment it is opened, and only while the person
//! who shared it still may see that side in full (a force handed to another player, or a member
//! who left, takes their old links with them: those answer 404), and only while the side's
//! owner still belongs to the campaign (a referee's link to a side whose player left answers
//! 404 too).

use fad_domain::scenario::Viewer;

use crate::AppState;
use crate::app::battles::scenario::read::Seen;
use crate::app::battles::scenario::{acting_sides, load, versions};
use crate::app::battles::{battle_not_found, lock_battle_quietly};
use crate::auth::derived::{Purpose, link_token};
use crate::auth::secret::hash_secret;
use crate::auth::{Caller, Need, campaign_access};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::{self, battles, memberships, share_links};

/// The path a side's share link opens (outside `/api/v1`; no credentials needed).
pub const SHARED_SHEET_PATH: &str = "/sheets/shared";

/// A side's share link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedLink {
    /// The link to hand out.
    pub url: String,
    /// Whether this call made it (`false`: it already existed).
    pub created: bool,
}

/// The share link of battle side `force_id`: the existing one, or a new one.
pub async fn share_battle_sheet(
    state: &AppState,
    caller: &Caller,
    battle_id: &str,
    force_id: &str,
) -> Result<SharedLink, ApiError> {
    let (caller, battle_id, force_id) = (caller.clone(), battle_id.to_owned(), force_id.to_owned());
    let secret = state.jwt_secret.clone();
    let config = state.config.clone();
    state
        .db
        .transaction(move |conn| {
            authorize_side(conn, &caller, &battle_id, &force_id)?;
            let token_of = |id: &str| link_token(secret.expose(), Purpose::BattleSheetLink, id);
            if let Some(link) = share_links::find_for_side(conn, &battle_id, &force_id)? {
                let token = token_of(&link.id)?;
                if hash_secret(&token) == link.token_hash {
                    return Ok(SharedLink {
                        url: config.link(&format!("{SHARED_SHEET_PATH}/{token}")),
                        created: false,
                    });
                }
                // Made under another service secret: it no longer opens, so replace it.
                share_links::delete_for_side(conn, &battle_id, &force_id)?;
            }
            let id = store::new_id();
            let token = token_of(&id)?;
            share_links::insert(
                conn,
                &share_links::ShareLink {
                    id,
                    battle_id,
                    force_id,
                    token_hash: hash_secret(&token),
                    created_by: caller.user_id().unwrap_or_default().to_owned(),
                    created_at: store::now(),
                },
            )?;
            Ok(SharedLink {
                url: config.link(&format!("{SHARED_SHEET_PATH}/{token}")),
                created: true,
            })
        })
        .await
}

/// Revokes battle side `force_id`'s share link (nothing to do when there is none).
pub async fn revoke_battle_sheet(
    state: &AppState,
    caller: &Caller,
    battle_id: &str,
    force_id: &str,
) -> Result<(), ApiError> {
    let (caller, battle_id, force_id) = (caller.clone(), battle_id.to_owned(), force_id.to_owned());
    state
        .db
        .transaction(move |conn| {
            authorize_side(conn, &caller, &battle_id, &force_id)?;
            share_links::delete_for_side(conn, &battle_id, &force_id)?;
            Ok(())
        })
        .await
}

/// What a share link shows now: its side's view of the battle's scenario. 404 for an unknown
/// or revoked token, and for a link whose author may no longer see that side.
pub async fn open_shared_battle_sheet(state: &AppState, token: &str) -> Result<Seen, ApiError> {
    let hash = hash_secret(token);
    state
        .db
        .read(move |conn| {
            let gone = || ApiError::not_found("shared sheet");
            let link = share_links::find_by_token_hash(conn, &hash)?.ok_or_else(gone)?;
            let battle = battles::find_by_id(conn, &link.battle_id)?.ok_or_else(gone)?;
            let author = Caller::User {
                user_id: link.created_by.clone(),
            };
            let access = campaign_access(conn, &author, &battle.campaign_id, Need::Read).map_err(
                |e| match e {
                    ApiError::NotFound(_) | ApiError::Forbidden(_) => gone(),
                    other => other,
                },
            )?;
            let (row, doc) = load(conn, &battle)?;
            let side = doc.scenario.side_index(&link.force_id).ok_or_else(gone)?;
            if !acting_sides(conn, &access, &doc.scenario)?
                .sides
                .contains(&side)
            {
                return Err(gone());
            }
            if !owner_is_member(conn, &link.force_id, &battle.campaign_id)? {
                return Err(gone());
            }
            let viewer = Viewer::Side(side);
            let stored = row.is_some();
            let version = row.map_or(0, |r| versions::stored(&doc, r.version).of(viewer));
            Ok(Seen {
                battle_id: battle.id,
                battle_version: battle.version,
                version,
                doc,
                viewer,
                stored,
            })
        })
        .await
}

/// Whether the owner of force `force_id` still belongs to campaign `campaign_id`: a side whose
/// player left is shown to nobody through a link, whoever made it (a referee's link included).
fn owner_is_member(conn: &mut Db, force_id: &str, campaign_id: &str) -> Result<bool, ApiError> {
    let Some(force) = store::forces::find_by_id(conn, force_id)? else {
        return Ok(false);
    };
    Ok(memberships::find(conn, campaign_id, &force.owner_id)?.is_some())
}

/// Checks that `caller` may share battle side `force_id` (see the module doc), holding the
/// battle's row lock so two first shares of one side cannot both insert.
fn authorize_side(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    force_id: &str,
) -> Result<(), ApiError> {
    let battle = lock_battle_quietly(conn, battle_id)?;
    let access =
        campaign_access(conn, caller, &battle.campaign_id, Need::Write).map_err(|e| match e {
            ApiError::NotFound(_) => battle_not_found(),
            other => other,
        })?;
    let (_, doc) = load(conn, &battle)?;
    let side = doc
        .scenario
        .side_index(force_id)
        .ok_or_else(|| ApiError::validation("force_id", "is not a side of this battle"))?;
    if doc.scenario.sides[side].is_non_player() {
        return Err(ApiError::validation(
            "force_id",
            "is the non-player side, which has no player to share a sheet with",
        ));
    }
    if !acting_sides(conn, &access, &doc.scenario)?
        .sides
        .contains(&side)
    {
        return Err(ApiError::Forbidden(
            "Only the force's owner, or an organiser who plays neither side, may share or revoke its sheet."
                .to_owned(),
        ));
    }
    Ok(())
}
