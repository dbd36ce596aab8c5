//! Integration keys: the organiser creates named read-only keys for one campaign (shown once,
//! stored as SHA-256), lists and revokes them.

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, campaign_access, person};
use crate::auth::Caller;
use crate::auth::secret::PlainSecret;
use crate::error::ApiError;
use crate::paging::Page;
use crate::store::{self, api_keys, api_keys::ApiKey, api_keys::NewApiKey};

/// A created key with its secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedApiKey {
    /// The stored key (never used, not revoked).
    pub key: ApiKey,
    /// The secret to configure the integration with.
    pub secret: String,
}

/// The organiser creates an integration key named `name` (1–100 characters after trimming).
pub async fn create_api_key(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    name: &str,
) -> Result<CreatedApiKey, ApiError> {
    let user_id = person(caller)?.to_owned();
    let name = name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::validation(
            "name",
            "must have 1 to 100 characters",
        ));
    }
    let secret = PlainSecret::api_key().map_err(|e| ApiError::Internal(e.into()))?;
    let now = store::now();
    let key = ApiKey {
        id: store::new_id(),
        campaign_id: campaign_id.to_owned(),
        name,
        key_prefix: secret.display_prefix(),
        created_by: user_id,
        created_at: now,
        last_used_at: None,
        revoked_at: None,
    };
    let key_hash = secret.hash();
    let (caller, stored) = (caller.clone(), key.clone());
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &stored.campaign_id, Need::Organiser)?;
            let new = NewApiKey {
                id: &stored.id,
                campaign_id: &stored.campaign_id,
                name: &stored.name,
                key_hash: &key_hash,
                key_prefix: &stored.key_prefix,
                created_by: &stored.created_by,
                created_at: now,
            };
            Ok(api_keys::insert(conn, &new)?)
        })
        .await?;
    tracing::info!(campaign.id = %key.campaign_id, api_key.id = %key.id, "Created API key {}", key.id);
    Ok(CreatedApiKey {
        key,
        secret: secret.expose().to_owned(),
    })
}

/// The organiser lists a campaign's keys, a page at a time.
pub async fn list_api_keys(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    page: Page,
) -> Result<Listed<ApiKey>, ApiError> {
    let page = page.keyset("api-keys", campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            Ok(api_keys::list_for_campaign(
                conn,
                &campaign_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (items, next) = page.finish(rows, |r| (r.created_at, r.id.clone()))?;
    Ok(Listed { items, next })
}

/// The organiser revokes a key (404 when the campaign has no such key).
pub async fn revoke_api_key(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    key_id: &str,
) -> Result<(), ApiError> {
    person(caller)?;
    let (caller, campaign_id, key_id) = (caller.clone(), campaign_id.to_owned(), key_id.to_owned());
    let now = store::now();
    let revoked = key_id.clone();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            if api_keys::find_in_campaign(conn, &campaign_id, &key_id)?.is_none() {
                return Err(ApiError::not_found("API key"));
            }
            api_keys::revoke(conn, &campaign_id, &key_id, now)?;
            Ok(())
        })
        .await?;
    tracing::info!(api_key.id = %revoked, "Revoked API key {revoked}");
    Ok(())
}
