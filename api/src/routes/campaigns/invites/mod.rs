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

/// An invitation, without its code (the code is shown once, when created).
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
        }
    }
}
