//! Members: who plays in a campaign; leaving, removing a player, handing over the organiser
//! role, and joining with an invitation code.

use std::net::IpAddr;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, campaign_access, person};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::paging::Page;
use crate::store::events::{self, Event};
use crate::store::memberships::{self, MemberNames, Membership, Role};
use crate::store::{self, invites, users};

/// A member of a campaign with the account's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberView {
    /// The membership.
    pub membership: Membership,
    /// The member's username; `None` for an integration key, which sees display names only.
    pub username: Option<String>,
    /// The name to show: the display name, or else the username.
    pub display_name: String,
}

impl MemberView {
    /// The view of `membership` with the member's `(username, display_name)`.
    pub fn new(membership: Membership, (username, display_name): MemberNames) -> Self {
        Self {
            membership,
            display_name: users::shown(username.clone(), display_name),
            username: Some(username),
        }
    }
}

/// Lists a campaign's members, a page at a time (anyone who may read the campaign; the
/// campaign's integration keys see display names but not usernames).
pub async fn list_members(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    page: Page,
) -> Result<Listed<MemberView>, ApiError> {
    let page = page.keyset("members", campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let is_key = caller.user_id().is_none();
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(memberships::list_with_usernames(
                conn,
                &campaign_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(m, _)| m.key())?;
    Ok(Listed {
        items: rows
            .into_iter()
            .map(|(membership, names)| {
                let mut member = MemberView::new(membership, names);
                if is_key {
                    member.username = None;
                }
                member
            })
            .collect(),
        next,
    })
}

/// The caller leaves a campaign. The organiser cannot (409): the role must be handed over first.
pub async fn leave_campaign(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<(), ApiError> {
    let user_id = person(caller)?.to_owned();
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    state
        .db
        .transaction(move |conn| {
            let access = campaign_access(conn, &caller, &campaign_id, Need::Write)?;
            if access.is_organiser() {
                return Err(ApiError::Conflict(
                    "The organiser cannot leave; hand the role over first.".to_owned(),
                ));
            }
            if memberships::delete(conn, &campaign_id, &user_id)? > 0 {
                events::append(conn, &Event::member_left(&campaign_id, &user_id, false))?;
            }
            Ok(())
        })
        .await
}

/// The organiser removes a player (404 when `member_id` is not a member).
pub async fn remove_member(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    member_id: &str,
) -> Result<(), ApiError> {
    let user_id = person(caller)?.to_owned();
    let (caller, campaign_id, member_id) =
        (caller.clone(), campaign_id.to_owned(), member_id.to_owned());
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            if member_id == user_id {
                return Err(ApiError::Conflict(
                    "The organiser cannot be removed; hand the role over first.".to_owned(),
                ));
            }
            match memberships::delete(conn, &campaign_id, &member_id)? {
                0 => Err(ApiError::not_found("member")),
                _ => {
                    events::append(conn, &Event::member_left(&campaign_id, &member_id, true))?;
                    Ok(())
                }
            }
        })
        .await
}

/// The organiser hands the role to another member (`target`), becoming a player.
pub async fn transfer_organiser(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    target: &str,
) -> Result<MemberView, ApiError> {
    let user_id = person(caller)?.to_owned();
    let (caller, campaign_id, target) = (caller.clone(), campaign_id.to_owned(), target.to_owned());
    let (membership, names) = state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            if memberships::find(conn, &campaign_id, &target)?.is_none() {
                return Err(ApiError::validation(
                    "/user_id",
                    "is not a member of this campaign",
                ));
            }
            // Demote first: the unique index allows one organiser per campaign.
            memberships::set_role(conn, &campaign_id, &user_id, Role::Player)?;
            memberships::set_role(conn, &campaign_id, &target, Role::Organiser)?;
            memberships::find_with_username(conn, &campaign_id, &target)?
                .ok_or_else(|| ApiError::not_found("member"))
        })
        .await?;
    tracing::info!(campaign.id = %membership.campaign_id, "Handed over organiser of campaign {}", membership.campaign_id);
    Ok(MemberView::new(membership, names))
}

/// Joins a campaign as a player with an invitation code. Every unusable code (unknown,
/// expired, used up, revoked) gets the same 404; a member gets 409. A short code is read in
/// any case, with or without its dash (see [`super::invites::code_hash`]). Every attempt
/// spends one unit of the `client` address's sign-in quota, first
/// ([`super::invites::spend_join_attempt`]).
pub async fn join_campaign(
    state: &AppState,
    caller: &Caller,
    client: IpAddr,
    code: &str,
) -> Result<MemberView, ApiError> {
    super::invites::spend_join_attempt(state, client)?;
    let user_id = person(caller)?.to_owned();
    let code_hash = super::invites::code_hash(state, code)?;
    let now = store::now();
    let (membership, names) = state
        .db
        .transaction(move |conn| {
            // One answer for every unusable code: no hint about which codes once existed.
            let unusable = || ApiError::NotFound("No usable invitation with this code.".to_owned());
            let invite = invites::find_by_code_hash(conn, &code_hash)?.ok_or_else(unusable)?;
            if memberships::find(conn, &invite.campaign_id, &user_id)?.is_some() {
                return Err(ApiError::Conflict(
                    "You are already a member of this campaign.".to_owned(),
                ));
            }
            if !invites::claim_use(conn, &invite.id, now)? {
                return Err(unusable());
            }
            let membership = Membership::new(&invite.campaign_id, &user_id, Role::Player, now);
            memberships::insert(conn, &membership)?;
            events::append(
                conn,
                &Event::member_joined(
                    &membership.campaign_id,
                    &membership.user_id,
                    &membership.role,
                ),
            )?;
            let account = users::find_by_id(conn, &user_id)?
                .ok_or_else(|| ApiError::Unauthorized("Unknown user.".to_owned()))?;
            Ok((membership, (account.username, account.display_name)))
        })
        .await?;
    tracing::info!(campaign.id = %membership.campaign_id, user.id = %membership.user_id, "User {} joined campaign {}", membership.user_id, membership.campaign_id);
    Ok(MemberView::new(membership, names))
}
