//! Campaigns and membership (API.md "Campaigns and membership"), under `/api/v1`: campaigns and
//! their settings, members, invitations, integration keys and standings.

pub mod api_keys;
pub mod create;
pub mod invites;
pub mod list;
pub mod members;
pub mod read;
pub mod settings;
pub mod standings;
pub mod update;

use actix_web::http::header::{ETag, EntityTag, HeaderMap, IF_MATCH};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::error::{ApiError, FieldError};
use crate::store::campaigns::Campaign;
use crate::store::memberships::Role;

use settings::SettingsResponse;

/// Registers this resource's handlers (paths are relative to `/api/v1`). `join` comes before
/// the `{campaign_id}` routes so the literal path wins.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(invites::join::join_campaign)
        .service(create::create_campaign)
        .service(list::list_campaigns)
        .service(read::get_campaign)
        .service(update::update_campaign)
        .service(settings::read::get_campaign_settings)
        .service(settings::update::update_campaign_settings)
        .service(members::list::list_members)
        .service(members::remove::remove_member)
        .service(members::leave::leave_campaign)
        .service(members::transfer::transfer_organiser)
        .service(invites::create::create_invite)
        .service(invites::list::list_invites)
        .service(invites::revoke::revoke_invite)
        .service(api_keys::create::create_api_key)
        .service(api_keys::list::list_api_keys)
        .service(api_keys::revoke::revoke_api_key)
        .service(standings::get_standings);
}

/// A campaign as its members see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CampaignResponse {
    /// The campaign id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// The caller's role in it; absent for an integration key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// Its settings (house rules and service settings) with the campaign's version.
    pub settings: SettingsResponse,
    /// Optimistic-concurrency version (also the `ETag`).
    pub version: i64,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// Last change (RFC 3339 UTC).
    pub updated_at: DateTime<Utc>,
}

impl CampaignResponse {
    /// The response for `campaign` seen by a member with `role` (`None`: an integration key).
    pub fn new(campaign: Campaign, role: Option<Role>) -> Result<Self, ApiError> {
        let settings = campaign
            .settings()
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok(Self {
            settings: SettingsResponse::new(&campaign, settings),
            id: campaign.id,
            name: campaign.name,
            description: campaign.description,
            role,
            version: campaign.version,
            created_at: campaign.created_at.and_utc(),
            updated_at: campaign.updated_at.and_utc(),
        })
    }
}

/// The `ETag` of a campaign version: `"<version>"`.
pub fn etag(version: i64) -> ETag {
    ETag(EntityTag::new_strong(version.to_string()))
}

/// The version an edit is based on: the body's `version` and/or `If-Match: "<n>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precondition {
    /// `version` from the body.
    pub version: Option<i64>,
    /// The version named by `If-Match`.
    pub if_match: Option<i64>,
}

impl Precondition {
    /// Reads `If-Match` next to the body's `version`. 422 when neither is given; 412 when
    /// `If-Match` names no version of ours (it can never match).
    pub fn read(headers: &HeaderMap, version: Option<i64>) -> Result<Self, ApiError> {
        let if_match = match headers.get(IF_MATCH) {
            None => None,
            Some(value) => Some(
                value
                    .to_str()
                    .ok()
                    .map(|v| v.trim().trim_start_matches("W/").trim_matches('"'))
                    .and_then(|v| v.parse::<i64>().ok())
                    .ok_or_else(if_match_failed)?,
            ),
        };
        if version.is_none() && if_match.is_none() {
            return Err(ApiError::Validation(vec![FieldError::new(
                "version",
                "send the version the change is based on (or an If-Match header)",
            )]));
        }
        Ok(Self { version, if_match })
    }

    /// 409 when the body's `version` is stale, 412 when `If-Match` is.
    pub fn check(self, current: i64) -> Result<(), ApiError> {
        if self.version.is_some_and(|v| v != current) {
            return Err(ApiError::Conflict(format!(
                "The campaign changed: its version is now {current}."
            )));
        }
        if self.if_match.is_some_and(|v| v != current) {
            return Err(if_match_failed());
        }
        Ok(())
    }
}

fn if_match_failed() -> ApiError {
    ApiError::PreconditionFailed("If-Match does not match the current version.".to_owned())
}

/// Checks a campaign name: 1–100 characters after trimming. Returns the trimmed name.
pub fn validate_name(name: &str) -> Result<String, String> {
    let trimmed = name.trim();
    match trimmed.chars().count() {
        0 => Err("must not be empty".to_owned()),
        1..=100 => Ok(trimmed.to_owned()),
        _ => Err("must have at most 100 characters".to_owned()),
    }
}

/// Checks a description: at most 2000 characters; blank becomes `None`.
pub fn validate_description(description: Option<String>) -> Result<Option<String>, String> {
    match description
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty())
    {
        Some(d) if d.chars().count() > 2000 => Err("must have at most 2000 characters".to_owned()),
        other => Ok(other),
    }
}
