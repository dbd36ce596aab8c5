//! Rulesets under `/api/v1`: the list, one ruleset's vocabulary (or its editable house
//! document), a campaign's pinned rules, and house rulesets written, versioned and deleted by
//! their owner. House ids contain a slash (`club/<slug>`), so each `{id}` route has a
//! `club/{slug}` twin.

pub mod list;
pub mod read;
pub mod write;

use actix_web::http::header::HeaderMap;
use fad_domain::rulesets::{Ruleset, RulesetPin};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;

use crate::auth::Caller;
use crate::auth::caller::resolve;
use crate::error::ApiError;

/// Registers the handlers (paths relative to `/api/v1`); the literal `club/` paths first.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list::list_rulesets)
        .service(read::get_house_ruleset)
        .service(read::get_ruleset)
        .service(write::create_ruleset)
        .service(write::update_ruleset)
        .service(write::delete_ruleset)
        .service(read::get_campaign_rules);
}

/// A ruleset's id and version: what a campaign pins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"id": "fad5e", "version": 1}))]
pub struct PinBody {
    /// The ruleset's id (`fad5e`, or `club/<slug>` for a house ruleset).
    pub id: String,
    /// Its version.
    pub version: u32,
}

impl From<&RulesetPin> for PinBody {
    fn from(pin: &RulesetPin) -> Self {
        Self {
            id: pin.id.clone(),
            version: pin.version,
        }
    }
}

impl From<RulesetPin> for PinBody {
    fn from(pin: RulesetPin) -> Self {
        Self::from(&pin)
    }
}

pub use crate::app::rulesets::RulesetChoice;

/// The path of a ruleset's page.
pub fn rules_url(ruleset: &Ruleset) -> String {
    format!("/rules/{}", ruleset.id)
}

/// Who asks, on a public read: a person or key with credentials (checked: a bad one is 401),
/// or nobody.
pub async fn optional_caller(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Caller>, ApiError> {
    if headers.contains_key(actix_web::http::header::AUTHORIZATION)
        || headers.contains_key(crate::auth::caller::API_KEY_HEADER)
    {
        return resolve(state, headers).await.map(Some);
    }
    Ok(None)
}

/// A strong `ETag` of a body: a short SHA-256 of its bytes.
pub fn body_etag(body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("\"{}\"", hex::encode(&Sha256::digest(body)[..12]))
}

/// Whether `If-None-Match` names `etag` (or `*`).
pub fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get("if-none-match")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        })
}
