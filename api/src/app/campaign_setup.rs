//! Setting up a campaign from the pages: create it, create an invitation, join with a code.
//!
//! Interim: these are the same steps as the JSON handlers (`routes/campaigns/create.rs`,
//! `invites/create.rs`, `invites/join.rs`, using their validation helpers and the same store
//! calls); when the campaign use cases move into this layer, the pages call those instead and
//! this module goes.

use chrono::TimeDelta;

use crate::AppState;
use crate::auth::secret::{PlainSecret, hash_secret};
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, FieldError};
use crate::routes::campaigns::{validate_description, validate_name};
use crate::store::campaigns::{self, Campaign, CampaignSettings};
use crate::store::invites::{self, Invite};
use crate::store::memberships::{self, Membership, Role};
use crate::store::{self};

/// How long an invitation made from the campaign page works.
pub const INVITE_LIFETIME_DAYS: i64 = 14;

/// Creates a campaign with the settled readings; the caller becomes its organiser. Field
/// errors name `name` and `description`.
pub async fn create_campaign(
    state: &AppState,
    user_id: &str,
    name: &str,
    description: Option<String>,
) -> Result<Campaign, ApiError> {
    let mut errors = Vec::new();
    let name = validate_name(name)
        .map_err(|m| errors.push(FieldError::new("name", m)))
        .ok();
    let description = validate_description(description)
        .map_err(|m| errors.push(FieldError::new("description", m)))
        .ok();
    let (Some(name), Some(description)) = (name, description) else {
        return Err(ApiError::Validation(errors));
    };
    let now = store::now();
    let campaign = Campaign {
        id: store::new_id(),
        name,
        description,
        settings: serde_json::to_string(&CampaignSettings::default())
            .map_err(|e| ApiError::Internal(e.into()))?,
        version: 1,
        created_by: user_id.to_owned(),
        created_at: now,
        updated_at: now,
    };
    let stored = campaign.clone();
    let quotas = state.config.quotas;
    let user_id = user_id.to_owned();
    state
        .db
        .transaction(move |conn| {
            quotas.check_campaigns(conn, &user_id)?;
            campaigns::insert(conn, &stored)?;
            let organiser = Membership::new(&stored.id, &user_id, Role::Organiser, now);
            Ok(memberships::insert(conn, &organiser)?)
        })
        .await?;
    tracing::info!(campaign.id = %campaign.id, "Created campaign {}", campaign.id);
    Ok(campaign)
}

/// A new invitation: its code in clear (shown once) and when it stops working.
#[derive(Debug)]
pub struct NewInvite {
    /// The code to hand out.
    pub code: PlainSecret,
    /// Expiry (UTC).
    pub expires_at: chrono::NaiveDateTime,
}

/// Creates an invitation (organiser only; others 403, outsiders 404).
pub async fn create_invite(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
) -> Result<NewInvite, ApiError> {
    let code = PlainSecret::invite_code().map_err(|e| ApiError::Internal(e.into()))?;
    let now = store::now();
    let invite = Invite {
        id: store::new_id(),
        campaign_id: campaign_id.to_owned(),
        code_hash: code.hash(),
        created_by: user_id.to_owned(),
        created_at: now,
        expires_at: now + TimeDelta::days(INVITE_LIFETIME_DAYS),
        max_uses: None,
        uses: 0,
        revoked_at: None,
    };
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let expires_at = invite.expires_at;
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &invite.campaign_id, Need::Organiser)?;
            Ok(invites::insert(conn, &invite)?)
        })
        .await?;
    Ok(NewInvite { code, expires_at })
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

/// The campaign a usable code joins (the code itself is the credential to see its name).
pub async fn preview_invite(
    state: &AppState,
    user_id: Option<&str>,
    code: &str,
) -> Result<InvitePreview, ApiError> {
    let code_hash = hash_secret(code.trim());
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
    code: &str,
) -> Result<String, ApiError> {
    let code_hash = hash_secret(code.trim());
    let now = store::now();
    let user_id = user_id.to_owned();
    state
        .db
        .transaction(move |conn| {
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
            // event: member.joined
            tracing::info!(campaign.id = %invite.campaign_id, user.id = %user_id, "User {user_id} joined campaign {}", invite.campaign_id);
            Ok(invite.campaign_id)
        })
        .await
}
