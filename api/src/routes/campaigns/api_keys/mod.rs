//! Integration keys: the organiser creates named read-only keys for one campaign (shown once,
//! stored as SHA-256), lists and revokes them. What a key may read is decided by
//! [`crate::auth::campaign_access`] with `Need::Read`.

pub mod create;
pub mod list;
pub mod revoke;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::api_keys::ApiKey;

/// An integration key, without the key itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ApiKeyResponse {
    /// The key id (to revoke it).
    pub id: String,
    /// The campaign it reads.
    pub campaign_id: String,
    /// Its name.
    pub name: String,
    /// The first characters of the key (`fad_` + 8), to tell keys apart.
    pub key_prefix: String,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// Last use, to the minute (RFC 3339 UTC); absent if never used.
    pub last_used_at: Option<DateTime<Utc>>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl From<ApiKey> for ApiKeyResponse {
    fn from(key: ApiKey) -> Self {
        Self {
            id: key.id,
            campaign_id: key.campaign_id,
            name: key.name,
            key_prefix: key.key_prefix,
            created_at: key.created_at.and_utc(),
            last_used_at: key.last_used_at.map(|t| t.and_utc()),
            revoked_at: key.revoked_at.map(|t| t.and_utc()),
        }
    }
}
