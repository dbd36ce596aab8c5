//! Setting up a campaign from the pages: the campaign use cases in the shapes the pages use
//! (create with the settled readings, an invitation that lasts two weeks, join with a code),
//! plus the preview a join page shows before the person decides.

use std::net::IpAddr;

use chrono::TimeDelta;

use crate::AppState;
use crate::app::campaigns::invites::{self as invite_cases, NewInvite as InviteInput};
use crate::app::campaigns::{self as campaign_cases, NewCampaign};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::store::campaigns::{self, Campaign};
use crate::store::{self, invites, memberships};

/// How long an invitation made from the campaign page works.
pub const INVITE_LIFETIME_DAYS: i64 = 14;

fn person(user_id: &str) -> Caller {
    Caller::User {
        user_id: user_id.to_owned(),
    }
}

/// Creates a campaign under `ruleset` (an id, its newest version; blank: FAD 5e) with its
/// house-rule defaults; the caller becomes its organiser. Field errors name `name`,
/// `description` and `ruleset`.
pub async fn create_campaign(
    state: &AppState,
    user_id: &str,
    name: &str,
    description: Option<String>,
    ruleset: &str,
) -> Result<Campaign, ApiError> {
    let input = NewCampaign {
        name: name.to_owned(),
        description,
        ruleset: (!ruleset.is_empty()).then(|| crate::app::rulesets::Choice {
            id: ruleset.to_owned(),
            version: None,
        }),
        ..NewCampaign::default()
    };
    Ok(
        campaign_cases::create_campaign(state, &person(user_id), input)
            .await?
            .campaign,
    )
}

/// A new invitation: its code in clear (shown once) and when it stops working.
#[derive(Debug)]
pub struct NewInvite {
    /// The code to hand out.
    pub code: String,
    /// Expiry (UTC).
    pub expires_at: chrono::NaiveDateTime,
}

/// Creates an invitation (organiser only; others 403, outsiders 404).
pub async fn create_invite(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
) -> Result<NewInvite, ApiError> {
    let input = InviteInput {
        expires_in_seconds: Some(TimeDelta::days(INVITE_LIFETIME_DAYS).num_seconds()),
        max_uses: None,
    };
    let created = invite_cases::create_invite(state, &person(user_id), campaign_id, input).await?;
    Ok(NewInvite {
        code: created.code,
        expires_at: created.invite.expires_at,
    })
}

/// The campaign's open invitations with their links (organiser only; others 403, outsiders
/// 404).
pub async fn open_invites(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
) -> Result<Vec<invite_cases::OpenInvite>, ApiError> {
    invite_cases::open_invites(state, &person(user_id), campaign_id).await
}

/// Revokes one of the campaign's invitations (organiser only); its link stops working at once.
pub async fn revoke_invite(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
    invite_id: &str,
) -> Result<(), ApiError> {
    invite_cases::revoke_invite(state, &person(user_id), campaign_id, invite_id).await
}

/// What an invitation code leads to, before joining.
#[derive(Debug, Clone)]
pub struct InvitePreview {
    /// The campaign.
    pub campaign_id: String,
    /// Its name.
    pub campaign_name: String,
    /// Whether the caller already belongs to it.
    pub already_member: bool,
}

fn unusable() -> ApiError {
    // One answer for every unusable code: no hint about which codes once existed.
    ApiError::NotFound("No usable invitation with this code.".to_owned())
}

/// The campaign a usable code joins (the code itself is the credential to see its name). Each
/// look spends one unit of `client`'s join quota, as a join through the API does: short codes
/// are few enough to guess, and the page must be no cheaper an oracle than the API (429 with
/// `Retry-After` beyond it; an unusable code is the API's one 404).
pub async fn preview_invite(
    state: &AppState,
    user_id: Option<&str>,
    client: IpAddr,
    code: &str,
) -> Result<InvitePreview, ApiError> {
    invite_cases::spend_join_attempt(state, client)?;
    preview_after_join_attempt(state, user_id, code).await
}

/// [`preview_invite`] without spending quota: only after a join attempt that already spent it
/// (joining twice lands on the campaign).
pub async fn preview_after_join_attempt(
    state: &AppState,
    user_id: Option<&str>,
    code: &str,
) -> Result<InvitePreview, ApiError> {
    let code_hash = invite_cases::code_hash(state, code)?;
    let user_id = user_id.map(str::to_owned);
    state
        .db
        .read(move |conn| {
            let invite = invites::find_by_code_hash(conn, &code_hash)?.ok_or_else(unusable)?;
            if !invite.is_usable(store::now()) {
                return Err(unusable());
            }
            let campaign =
                campaigns::find_by_id(conn, &invite.campaign_id)?.ok_or_else(unusable)?;
            let already_member = match &user_id {
                Some(id) => memberships::find(conn, &campaign.id, id)?.is_some(),
                None => false,
            };
            Ok(InvitePreview {
                campaign_id: campaign.id,
                campaign_name: campaign.name,
                already_member,
            })
        })
        .await
}

/// Joins as a player with a code; answers the campaign id. Unusable codes 404; a member 409.
pub async fn join_with_code(
    state: &AppState,
    user_id: &str,
    client: IpAddr,
    code: &str,
) -> Result<String, ApiError> {
    let joined =
        crate::app::campaigns::members::join_campaign(state, &person(user_id), client, code)
            .await?;
    Ok(joined.membership.campaign_id)
}
