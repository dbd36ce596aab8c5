//! Forces for the pages: read one force with its points and campaign points, and generate a
//! basic force with server dice.
//! Generation goes through the same use case as the JSON API ([`super::forces::generate`]).

use std::collections::BTreeMap;

use fad_domain::forcegen::GenerationChoices;

use crate::AppState;
use crate::app::forces::generate::generate_force;
use crate::app::idempotency::{Body, Write};

use crate::app::accounts::SessionUser;
use crate::app::authorization::force_not_found;
use crate::app::forces::response::RosterResponse;
use crate::auth::secret::hash_secret;
use crate::auth::{Caller, Need, access_with_membership};
use crate::error::ApiError;
use crate::store::{forces, sessions, users};

/// One force as a member sees it.
#[derive(Debug, Clone)]
pub struct ForceView {
    /// Force id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// The owner's username.
    pub owner: String,
    /// The roster with points at every level.
    pub roster: RosterResponse,
    /// Campaign points balance (the ledger's sum).
    pub campaign_points: i64,
    /// Whether it is archived.
    pub archived: bool,
    /// Whether the caller may edit it (owner or organiser).
    pub can_edit: bool,
    /// Whether the caller organises its campaign (may adjust its ledger).
    pub is_organiser: bool,
    /// The force's version (an edit form's hidden field).
    pub version: i64,
}

/// One force as a member sees it, with its roster still as stored (for pages that derive
/// what they show from the stored text, and may reuse what they derived before).
#[derive(Debug, Clone)]
pub struct StoredForceView {
    /// The stored force, its roster text unparsed.
    pub force: forces::Force,
    /// The owner's shown name.
    pub owner: String,
    /// Campaign points balance (the ledger's sum).
    pub campaign_points: i64,
    /// Whether the caller may edit it (owner or organiser).
    pub can_edit: bool,
    /// Whether the caller organises its campaign (may adjust its ledger).
    pub is_organiser: bool,
}

/// Reads a force as stored (members of its campaign; others 404) in one statement: the force
/// with the caller's membership, its owner's name (as the JSON read does) and its ledger
/// balance.
pub async fn read_stored_force(
    state: &AppState,
    user_id: &str,
    force_id: &str,
) -> Result<StoredForceView, ApiError> {
    let user_id = user_id.to_owned();
    let force_id = force_id.to_owned();
    state
        .db
        .run(move |conn| stored_force_view(conn, &user_id, &force_id))
        .await
}

/// The force page's read for the holder of a session cookie, in one statement: the session
/// (`None` when it is not live: sign in again) and the force as [`read_stored_force`] reads it.
pub async fn read_stored_force_for_session(
    state: &AppState,
    cookie_value: &str,
    force_id: &str,
) -> Result<Option<(SessionUser, StoredForceView)>, ApiError> {
    let session_hash = hash_secret(cookie_value);
    let force_id = force_id.to_owned();
    state
        .db
        .run(move |conn| {
            let now = crate::store::now();
            let Some((force, membership, names, balance, user_id, username)) =
                forces::find_named_for_session(conn, &force_id, &session_hash, now)?
            else {
                // No such force: whether the session is live decides between signing in and
                // a 404.
                return match sessions::find_live(conn, &session_hash, now)? {
                    None => Ok(None),
                    Some(_) => Err(force_not_found()),
                };
            };
            let (Some(user_id), Some(username)) = (user_id, username) else {
                return Ok(None);
            };
            let view = force_view(&user_id, force, membership, names, balance)?;
            let user = SessionUser {
                user_id,
                username,
                session_hash,
            };
            Ok(Some((user, view)))
        })
        .await
}

/// One force for `user_id`: the force, membership, owner and balance in one statement.
pub fn stored_force_view(
    conn: &mut crate::db::Db,
    user_id: &str,
    force_id: &str,
) -> Result<StoredForceView, ApiError> {
    let (force, membership, names, balance) =
        forces::find_named_with_balance(conn, force_id, user_id)?.ok_or_else(force_not_found)?;
    force_view(user_id, force, membership, names, balance)
}

/// The view of a force read for `user_id` (members of its campaign; others 404).
fn force_view(
    user_id: &str,
    force: forces::Force,
    membership: Option<crate::store::memberships::Membership>,
    (username, display_name): crate::store::memberships::MemberNames,
    balance: Option<i64>,
) -> Result<StoredForceView, ApiError> {
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let access = access_with_membership(&caller, &force.campaign_id, Need::Read, membership)
        .map_err(|e| match e {
            ApiError::NotFound(_) => force_not_found(),
            other => other,
        })?;
    Ok(StoredForceView {
        can_edit: access.is_user_or_organiser(&force.owner_id),
        is_organiser: access.is_organiser(),
        owner: users::shown(username, display_name),
        campaign_points: balance.unwrap_or(0),
        force,
    })
}

/// Reads a force with its roster and points (members of its campaign; others 404).
pub async fn read_force(
    state: &AppState,
    user_id: &str,
    force_id: &str,
) -> Result<ForceView, ApiError> {
    let stored = read_stored_force(state, user_id, force_id).await?;
    let roster = stored
        .force
        .roster()
        .map_err(|e| ApiError::Internal(e.into()))?;
    let force = stored.force;
    Ok(ForceView {
        version: force.version,
        archived: force.archived_at.is_some(),
        id: force.id,
        campaign_id: force.campaign_id,
        owner: stored.owner,
        roster: RosterResponse::new(roster),
        campaign_points: stored.campaign_points,
        can_edit: stored.can_edit,
        is_organiser: stored.is_organiser,
    })
}

/// The usernames of `user_ids` (people named in a force's history or ledger, members or former
/// members of its campaign), by id; ids of deleted accounts are left out.
pub async fn usernames(
    state: &AppState,
    user_ids: Vec<String>,
) -> Result<BTreeMap<String, String>, ApiError> {
    let mut ids = user_ids;
    ids.sort();
    ids.dedup();
    state
        .db
        .read(move |conn| {
            let mut names = BTreeMap::new();
            for id in ids {
                if let Some(user) = users::find_by_id(conn, &id)? {
                    names.insert(id, user.username);
                }
            }
            Ok(names)
        })
        .await
}

/// A generated force's name as given: blank is none (a name is chosen), at most 100
/// characters (field `name`).
pub fn generation_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > 100) {
        return Err(ApiError::validation(
            "name",
            "must have at most 100 characters",
        ));
    }
    Ok(name.map(str::to_owned))
}

/// Generates a basic force (docs/rules.md §4.1) with server dice, owned by the caller; answers
/// its id. Field errors name `name` and `platoons`.
pub async fn generate_basic_force(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
    name: Option<String>,
    platoons: u32,
    attacker: bool,
) -> Result<String, ApiError> {
    let name = generation_name(name.as_deref())?;
    let choices: GenerationChoices = GenerationChoices::Basic(
        serde_json::from_value(serde_json::json!({
            "name": name, "platoons": platoons, "attacker": attacker
        }))
        .map_err(|e| ApiError::Internal(e.into()))?,
    );
    generate_with_choices(state, user_id, campaign_id, choices).await
}

/// Generates a force from the player's choices (basic or advanced, what the JSON generate
/// endpoint accepts) with server dice, owned by the caller; answers its id. Invalid choices
/// get 422 naming their fields (`priorities.manpower`, `platoons`, ...).
pub async fn generate_with_choices(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
    choices: GenerationChoices,
) -> Result<String, ApiError> {
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    // A page's form carries no Idempotency-Key: each submission generates once.
    let write = Write::new(user_id, format!("page generate {campaign_id}"), None, b"");
    let answer = generate_force(
        state,
        &caller,
        campaign_id,
        choices,
        Default::default(),
        Default::default(),
        write,
    )
    .await?;
    match answer.body {
        Body::Fresh(generated) => Ok(generated.force.id),
        Body::Replayed(_) => Err(ApiError::Internal(anyhow::anyhow!(
            "a page generation without a key was replayed"
        ))),
    }
}
