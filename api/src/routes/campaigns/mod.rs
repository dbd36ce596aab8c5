//! Campaigns and membership, under `/api/v1`: campaigns and
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

use crate::app::campaigns::CampaignView;
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
        .service(standings::get_standings)
        .service(standings::get_public_standings);
}

/// A campaign as its members see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CampaignResponse {
    /// The campaign id.
    #[schema(read_only)]
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// The caller's role in it; absent for an integration key.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub role: Option<Role>,
    /// Its settings (house rules and service settings) with their own version.
    #[schema(read_only)]
    pub settings: SettingsResponse,
    /// The ruleset it plays, pinned at one version (`PATCH` may change it before the first
    /// battle).
    pub ruleset: crate::routes::rulesets::PinBody,
    /// Optimistic-concurrency version (also the `ETag`).
    #[schema(read_only)]
    pub version: i64,
    /// Creation time (RFC 3339 UTC).
    #[schema(read_only)]
    pub created_at: DateTime<Utc>,
    /// Last change (RFC 3339 UTC).
    #[schema(read_only)]
    pub updated_at: DateTime<Utc>,
}

impl From<CampaignView> for CampaignResponse {
    fn from(view: CampaignView) -> Self {
        let CampaignView {
            campaign,
            settings,
            role,
        } = view;
        Self {
            ruleset: crate::routes::rulesets::PinBody::from(&settings.ruleset),
            settings: SettingsResponse::of(campaign.settings_version, settings),
            id: campaign.id,
            name: campaign.name,
            description: campaign.description,
            role,
            version: campaign.version,
            created_at: campaign.created_at.and_utc(),
            updated_at: campaign.updated_at.and_utc(),
        }
    }
}

/// The `ETag` of a campaign version: `"<version>"`.
pub fn etag(version: i64) -> ETag {
    ETag(EntityTag::new_strong(version.to_string()))
}

/// The text of a request's `If-Match` header, if it sent one; a header that is not text reads
/// as text that names no version (412).
pub fn if_match(headers: &HeaderMap) -> Option<String> {
    headers
        .get(IF_MATCH)
        .map(|value| value.to_str().unwrap_or_default().to_owned())
}
