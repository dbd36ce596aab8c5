//! Invitations: the organiser creates codes (with an expiry and an optional use limit), lists
//! and revokes them. Joining with a code is [`super::members::join_campaign`].

use std::net::IpAddr;

use chrono::TimeDelta;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, campaign_access, person};
use crate::auth::Caller;
use crate::auth::derived::{invite_code_hash, invite_code_of_row};
use crate::auth::secret::{ShortCode, hash_secret};
use crate::error::{ApiError, FieldError};
use crate::paging::Page;
use crate::store::{self, invites, invites::Invite};

/// How long a code stays usable when the organiser does not say: 7 days.
pub const DEFAULT_EXPIRES_IN_SECONDS: i64 = 7 * 24 * 3600;
/// The longest a code may stay usable: 90 days.
pub const MAX_EXPIRES_IN_SECONDS: i64 = 90 * 24 * 3600;

/// A new invitation; `None` takes the default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NewInvite {
    /// Seconds until the code expires, 60 to [`MAX_EXPIRES_IN_SECONDS`].
    pub expires_in_seconds: Option<i64>,
    /// How many accounts may join with it, 1–1000; `None` for no limit.
    pub max_uses: Option<i32>,
}

/// A created invitation with its code, shown this once (only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedInvite {
    /// The stored invitation.
    pub invite: Invite,
    /// The code to hand to players, 8 characters shown as `K7M2-QX9P`.
    pub code: String,
    /// The page that joins with this code: `{public address}/join/{code}` (a path when the
    /// server has no public address).
    pub url: String,
}

/// The stored hash of an invitation code as a player typed it: a short code in any case, with
/// or without its dash, is hashed with a key derived from the service secret (so a leaked
/// table cannot be searched through the few short codes there are); anything else is taken
/// as an older 40-digit code, hashed as it was stored.
pub fn code_hash(state: &AppState, code: &str) -> Result<String, ApiError> {
    match ShortCode::normalize(code) {
        Some(short) => invite_code_hash(state.jwt_secret.expose(), &short),
        None => Ok(hash_secret(code.trim())),
    }
}

/// Spends one unit of `client`'s sign-in quota (the one registration and login spend) for an
/// attempt to join with a code: short codes are few enough to guess without it. 429 with
/// `Retry-After` beyond it.
pub fn spend_join_attempt(state: &AppState, client: IpAddr) -> Result<(), ApiError> {
    state
        .auth
        .rate_limiter
        .check(client)
        .map_err(|retry_after_secs| ApiError::TooManyRequests {
            detail: format!("Too many attempts from this address; retry in {retry_after_secs} s."),
            retry_after_secs,
        })
}

/// The short code of invitation row `id` and its stored hash: the code is derived from the
/// row's random id under the service secret, so the organiser's list can show it again.
fn new_code(state: &AppState, id: &str) -> Result<(String, String), ApiError> {
    let code = invite_code_of_row(state.jwt_secret.expose(), id)?;
    let normalized = ShortCode::normalize(&code).ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!("a generated code does not read back"))
    })?;
    let hash = invite_code_hash(state.jwt_secret.expose(), &normalized)?;
    Ok((code, hash))
}

/// The organiser creates an invitation code.
pub async fn create_invite(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    input: NewInvite,
) -> Result<CreatedInvite, ApiError> {
    let user_id = person(caller)?.to_owned();
    let NewInvite {
        expires_in_seconds,
        max_uses,
    } = input;
    let mut errors = Vec::new();
    let expires_in = expires_in_seconds.unwrap_or(DEFAULT_EXPIRES_IN_SECONDS);
    if !(60..=MAX_EXPIRES_IN_SECONDS).contains(&expires_in) {
        errors.push(FieldError::new(
            "expires_in_seconds",
            format!("must be between 60 and {MAX_EXPIRES_IN_SECONDS}"),
        ));
    }
    if max_uses.is_some_and(|n| !(1..=1000).contains(&n)) {
        errors.push(FieldError::new("max_uses", "must be between 1 and 1000"));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let id = store::new_id();
    let (code, code_hash) = new_code(state, &id)?;
    let now = store::now();
    let invite = Invite {
        id,
        campaign_id: campaign_id.to_owned(),
        code_hash,
        created_by: user_id,
        created_at: now,
        expires_at: now + TimeDelta::seconds(expires_in),
        max_uses,
        uses: 0,
        revoked_at: None,
    };
    let caller = caller.clone();
    let stored = invite.clone();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &stored.campaign_id, Need::Organiser)?;
            Ok(invites::insert(conn, &stored)?)
        })
        .await?;
    tracing::info!(campaign.id = %invite.campaign_id, invite.id = %invite.id, "Created invite {}", invite.id);
    Ok(CreatedInvite {
        invite,
        url: state.config.link(&format!("/join/{code}")),
        code,
    })
}

/// The code and link of `invite`, when the service can show them again: the code derived from
/// the row still hashes to the stored one (not for codes made before codes were derived, nor
/// after the service secret changed).
pub fn invite_link(state: &AppState, invite: &Invite) -> Option<(String, String)> {
    let code = invite_code_of_row(state.jwt_secret.expose(), &invite.id).ok()?;
    let normalized = ShortCode::normalize(&code)?;
    let hash = invite_code_hash(state.jwt_secret.expose(), &normalized).ok()?;
    (hash == invite.code_hash).then(|| {
        let url = state.config.link(&format!("/join/{code}"));
        (code, url)
    })
}

/// An invitation that still works, with its link when the service can show it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenInvite {
    /// The stored invitation.
    pub invite: Invite,
    /// Its code and link, see [`invite_link`].
    pub link: Option<(String, String)>,
}

/// The organiser's open invitations of a campaign (not revoked, not expired, uses left),
/// newest first, at most [`OPEN_INVITES_SHOWN`].
pub async fn open_invites(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<Vec<OpenInvite>, ApiError> {
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            Ok(invites::list_for_campaign(
                conn,
                &campaign_id,
                None,
                OPEN_INVITES_READ,
            )?)
        })
        .await?;
    let now = store::now();
    Ok(rows
        .into_iter()
        .filter(|i| i.is_usable(now))
        .take(OPEN_INVITES_SHOWN)
        .map(|invite| OpenInvite {
            link: invite_link(state, &invite),
            invite,
        })
        .collect())
}

/// Most open invitations the campaign page lists.
pub const OPEN_INVITES_SHOWN: usize = 20;
/// Invitations read to find them (revoked and expired ones are skipped).
const OPEN_INVITES_READ: i64 = 200;

/// The organiser lists a campaign's invitations, a page at a time.
pub async fn list_invites(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    page: Page,
) -> Result<Listed<Invite>, ApiError> {
    let page = page.keyset("invites", campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            Ok(invites::list_for_campaign(
                conn,
                &campaign_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (items, next) = page.finish(rows, |r| (r.created_at, r.id.clone()))?;
    Ok(Listed { items, next })
}

/// The organiser revokes an invitation (404 when the campaign has no such invitation).
pub async fn revoke_invite(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    invite_id: &str,
) -> Result<(), ApiError> {
    person(caller)?;
    let (caller, campaign_id, invite_id) =
        (caller.clone(), campaign_id.to_owned(), invite_id.to_owned());
    let now = store::now();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            if invites::find_in_campaign(conn, &campaign_id, &invite_id)?.is_none() {
                return Err(ApiError::not_found("invite"));
            }
            invites::revoke(conn, &campaign_id, &invite_id, now)?;
            Ok(())
        })
        .await
}
