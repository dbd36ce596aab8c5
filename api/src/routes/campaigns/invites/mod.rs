//! Invitations: the organiser creates codes (with an expiry and an optional use limit), lists
//! and revokes them; anyone logged in joins a campaign as a player with a code.

pub mod create;
pub mod join;
pub mod list;
pub mod revoke;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::invites::Invite;

/// An invitation, with its code and link while the service can show them again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct InviteResponse {
    /// The invitation id.
    pub id: String,
    /// The campaign it joins.
    pub campaign_id: String,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// After this time the code no longer works (RFC 3339 UTC).
    pub expires_at: DateTime<Utc>,
    /// How many times the code may be used; absent for no limit.
    pub max_uses: Option<i32>,
    /// How many times it has been used.
    pub uses: i32,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
    /// The code while it still works and the service can show it again (a code is derived from
    /// its invitation, so the list repeats it; absent once revoked, expired or used up, and for
    /// codes made before codes were derived or after the service secret changed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The page that joins with the code, like the one `create_invite` answers; present with
    /// `code`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl From<Invite> for InviteResponse {
    fn from(invite: Invite) -> Self {
        Self {
            id: invite.id,
            campaign_id: invite.campaign_id,
            created_at: invite.created_at.and_utc(),
            expires_at: invite.expires_at.and_utc(),
            max_uses: invite.max_uses,
            uses: invite.uses,
            revoked_at: invite.revoked_at.map(|t| t.and_utc()),
            code: None,
            url: None,
        }
    }
}
