//! `/api/v1/campaigns/{campaign_id}/members`: who plays in a campaign; removing members,
//! leaving, and handing over the organiser role.

pub mod leave;
pub mod list;
pub mod remove;
pub mod transfer;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::campaigns::members::MemberView;
use crate::store::memberships::Role;

/// A member of a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemberResponse {
    /// The campaign.
    pub campaign_id: String,
    /// The member's user id.
    pub user_id: String,
    /// The member's username (absent for integration keys, which see display names only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// The name to show for the member: their display name, or else their username.
    pub display_name: String,
    /// `organiser` or `player`.
    pub role: Role,
    /// When they joined (RFC 3339 UTC).
    pub joined_at: DateTime<Utc>,
}

impl From<MemberView> for MemberResponse {
    fn from(view: MemberView) -> Self {
        let MemberView {
            membership,
            username,
            display_name,
        } = view;
        Self {
            display_name,
            role: membership.role(),
            campaign_id: membership.campaign_id,
            user_id: membership.user_id,
            username,
            joined_at: membership.joined_at.and_utc(),
        }
    }
}
