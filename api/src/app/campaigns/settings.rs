//! A campaign's settings: house rules (docs/rules.md §6 config items) and service settings.

use crate::AppState;
use crate::app::authorization::{Need, campaign_access, campaign_not_found, person};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::store::{self, campaigns, campaigns::CampaignSettings};

use super::Precondition;

/// The settings of a campaign at one version.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsView {
    /// The settings' own version (separate from the campaign's name and description).
    pub version: i64,
    /// The settings.
    pub settings: CampaignSettings,
}

/// New settings, replacing the old ones whole except the ruleset pin, which only
/// [`super::update_campaign`] changes (with its own checks).
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsChanges {
    /// The version the change is based on (see [`Precondition::new`]).
    pub version: Option<i64>,
    /// The text of an `If-Match` header, if one came.
    pub if_match: Option<String>,
    /// The new settings.
    pub settings: CampaignSettings,
}

/// Reads a campaign's settings (members).
pub async fn read_settings(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<SettingsView, ApiError> {
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let campaign = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)
        })
        .await?;
    let settings = campaign
        .settings()
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(SettingsView {
        version: campaign.settings_version,
        settings,
    })
}

/// Replaces a campaign's settings (organiser), guarded by the settings' own version (a rename
/// does not make it stale): a stale
/// `version` gets 409 and a stale `If-Match` 412.
pub async fn update_settings(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    changes: SettingsChanges,
) -> Result<SettingsView, ApiError> {
    person(caller)?;
    let SettingsChanges {
        version,
        if_match,
        settings,
    } = changes;
    let precondition = Precondition::new(version, if_match.as_deref(), "campaign's settings")?;
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let now = store::now();
    let mut stored = settings;
    let updated = state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            let current =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            precondition.check(current.settings_version)?;
            stored.ruleset = current
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))?
                .ruleset;
            let updated = campaigns::update_settings_if_version(
                conn,
                &campaign_id,
                current.settings_version,
                &stored,
                now,
            )?
            .ok_or_else(|| {
                ApiError::Conflict(
                    "The campaign's settings changed meanwhile; read them again and retry."
                        .to_owned(),
                )
            })?;
            Ok((updated, stored))
        })
        .await?;
    let (updated, settings) = updated;
    tracing::info!(campaign.id = %updated.id, "Updated settings of campaign {}", updated.id);
    Ok(SettingsView {
        version: updated.settings_version,
        settings,
    })
}
