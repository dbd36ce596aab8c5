//! The authorization policy for campaign-scoped resources, in one function:
//! [`campaign_access`].
//!
//! | caller                              | `Need::Read` | `Need::Write` | `Need::Organiser` |
//! |-------------------------------------|--------------|---------------|-------------------|
//! | not a member / no such campaign     | 404          | 404           | 404               |
//! | player                              | ok           | ok            | 403               |
//! | organiser                           | ok           | ok            | ok                |
//! | API key of this campaign            | ok           | 403           | 403               |
//! | API key of another campaign         | 404          | 404           | 404               |
//!
//! 404 rather than 403 for outsiders, so nobody learns which private campaigns exist
//! (Vaultwarden "does not exist or belongs to another user"). 403 for members and for this
//! campaign's keys: they already know the campaign exists, and the contract says 403 when
//! authenticated. Ownership of a resource inside a campaign (a force's owner) is the
//! resource's own rule on top of this; see the recipe in [`super`].

use crate::db::Db;
use crate::error::ApiError;
use crate::store::memberships::{self, Membership, Role};

use super::Caller;

/// What a handler needs to do with a campaign's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Read it: members and this campaign's integration keys.
    Read,
    /// Change it as a participant: members only, never keys.
    Write,
    /// Change what only the organiser may: the organiser only.
    Organiser,
}

/// What the caller is to a campaign, once access is granted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignAccess {
    /// The campaign.
    pub campaign_id: String,
    /// The caller's user id; `None` for an integration key.
    pub user_id: Option<String>,
    /// The caller's role; `None` for an integration key.
    pub role: Option<Role>,
}

impl CampaignAccess {
    /// Whether the caller is this campaign's organiser.
    pub fn is_organiser(&self) -> bool {
        self.role == Some(Role::Organiser)
    }

    /// Whether the caller is the user `user_id` (a resource's owner) or the organiser.
    pub fn is_user_or_organiser(&self, user_id: &str) -> bool {
        self.is_organiser() || self.user_id.as_deref() == Some(user_id)
    }
}

/// The 404 every refusal to an outsider uses, whatever the reason.
pub fn campaign_not_found() -> ApiError {
    ApiError::NotFound("No such campaign.".to_owned())
}

/// Decides whether `caller` may do what `need` says with campaign `campaign_id`.
///
/// Runs one query (the caller's membership); call it first inside the handler's `db::run`
/// closure so the check and the work see the same state.
pub fn campaign_access(
    conn: &mut Db,
    caller: &Caller,
    campaign_id: &str,
    need: Need,
) -> Result<CampaignAccess, ApiError> {
    let membership = match caller {
        Caller::User { user_id } => memberships::find(conn, campaign_id, user_id)?,
        Caller::ApiKey { .. } => None,
    };
    access_with_membership(caller, campaign_id, need, membership)
}

/// [`campaign_access`] for a caller whose membership of `campaign_id` (for a person) was
/// already loaded with the resource, saving a round trip. `membership` is ignored for
/// an integration key.
pub fn access_with_membership(
    caller: &Caller,
    campaign_id: &str,
    need: Need,
    membership: Option<Membership>,
) -> Result<CampaignAccess, ApiError> {
    match caller {
        Caller::ApiKey {
            campaign_id: key_campaign,
            ..
        } => {
            if key_campaign != campaign_id {
                return Err(campaign_not_found());
            }
            match need {
                Need::Read => Ok(CampaignAccess {
                    campaign_id: campaign_id.to_owned(),
                    user_id: None,
                    role: None,
                }),
                Need::Write | Need::Organiser => Err(ApiError::Forbidden(
                    "Integration keys are read-only.".to_owned(),
                )),
            }
        }
        Caller::User { user_id } => {
            let membership = membership
                .filter(|m| m.campaign_id == campaign_id && m.user_id == *user_id)
                .ok_or_else(campaign_not_found)?;
            let role = membership.role();
            if need == Need::Organiser && role != Role::Organiser {
                return Err(ApiError::Forbidden(
                    "Only the campaign's organiser may do this.".to_owned(),
                ));
            }
            Ok(CampaignAccess {
                campaign_id: campaign_id.to_owned(),
                user_id: Some(user_id.clone()),
                role: Some(role),
            })
        }
    }
}
