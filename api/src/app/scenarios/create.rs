//! Generating a one-shot scenario: both sides' choices, or one
//! side against a non-player force, in one request. The JSON handler and the generator page
//! both call [`create_scenario`].
//!
//! - A signed-in person's scenario is theirs and never expires; it counts against the account's
//!   hourly quota. With an `Idempotency-Key` the same key and body answer the first response
//!   again (without the share token, which is stored hashed) and store nothing new.
//! - A signed-out person's scenario has no creator, is always shared (its link is how it is
//!   found again), expires after `FAD_ONESHOT_TTL_DAYS` and counts against its client
//!   address's hourly quota (the address is stored as a keyed hash only).

use std::collections::BTreeMap;
use std::net::IpAddr;

use chrono::Duration;
use fad_domain::roster::Force;

use crate::AppState;
use crate::app::authorization::{authorize_force, person};
use crate::app::scenario_request::{CreateScenarioRequest, prepare};
use crate::app::scenarios::document::{ScenarioDocument, ScenarioResponse};
use crate::app::scenarios::generate;
use crate::auth::derived::client_address_hash;
use crate::auth::secret::hash_secret;
use crate::auth::{Caller, Need};
use crate::error::ApiError;
use crate::store::idempotency::{self, IdempotentResponse};
use crate::store::{self, scenarios, scenarios::ScenarioRow};

/// The idempotency scope of generation.
const SCOPE: &str = "POST /api/v1/scenarios";

/// Who generates a scenario.
#[derive(Debug, Clone)]
pub enum Generator {
    /// A signed-in person (the caller must be a person, not an integration key).
    Person(Caller),
    /// Someone signed out, known only by the client address the request came from.
    Anonymous(IpAddr),
}

/// A repeat-safe request: its `Idempotency-Key` and the hash of its body.
#[derive(Debug, Clone)]
pub struct Repeat {
    /// The key as sent.
    pub key: String,
    /// [`crate::store::idempotency::hash_body`] of the request body.
    pub request_hash: String,
}

/// What generation answers.
#[derive(Debug, Clone)]
pub enum Generated {
    /// Made now: the whole scenario, with its share links when shared.
    Fresh(Box<ScenarioResponse>),
    /// The first answer for this `Idempotency-Key`, as stored (its id, and its JSON text).
    Replayed {
        /// The scenario's id.
        id: String,
        /// The stored answer, byte for byte.
        body: String,
    },
}

impl Generated {
    /// The scenario's id.
    pub fn id(&self) -> &str {
        match self {
            Self::Fresh(response) => &response.id,
            Self::Replayed { id, .. } => id,
        }
    }
}

/// The stored forces the request names that the caller may read, by id, as (name, roster). A
/// force that is unknown or not readable is left out, and `prepare` refuses it (422, same
/// text); signed out, every named force is.
async fn load_stored_forces(
    state: &AppState,
    generator: &Generator,
    request: &CreateScenarioRequest,
) -> Result<BTreeMap<String, (String, Force)>, ApiError> {
    let ids: Vec<String> = request
        .sides
        .iter()
        .filter_map(|s| s.force_id.clone())
        .collect();
    let Generator::Person(caller) = generator else {
        return Ok(BTreeMap::new());
    };
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let caller = caller.clone();
    state
        .db
        .read(move |conn| {
            let mut found = BTreeMap::new();
            for id in ids {
                match authorize_force(conn, &caller, &id, Need::Read) {
                    Ok((row, _)) => {
                        let roster = row.roster().map_err(|e| ApiError::Internal(e.into()))?;
                        found.insert(id, (row.name, roster));
                    }
                    Err(ApiError::NotFound(_) | ApiError::Forbidden(_)) => {}
                    Err(other) => return Err(other),
                }
            }
            Ok(found)
        })
        .await
}

/// Generates and stores a scenario. Checks the request, rolls outside the transaction, then
/// checks the quota and inserts in one transaction.
pub async fn create_scenario(
    state: &AppState,
    generator: Generator,
    mut request: CreateScenarioRequest,
    repeat: Option<Repeat>,
) -> Result<Generated, ApiError> {
    let user_id = match &generator {
        Generator::Person(caller) => Some(person(caller)?.to_owned()),
        Generator::Anonymous(_) => None,
    };
    let client_hash = match &generator {
        Generator::Anonymous(address) => Some(client_address_hash(
            state.jwt_secret.expose(),
            &address.to_string(),
        )?),
        Generator::Person(_) => None,
    };
    if user_id.is_none() {
        // Without an account the link is the only way back to it.
        request.share = true;
    }
    let stored = load_stored_forces(state, &generator, &request).await?;
    let commitment_id = request.dice_commitment_id.take();
    let client_seed = request.client_seed.take();
    let server =
        crate::app::dice::committed_dice(state, commitment_id.clone(), client_seed).await?;
    let share = request.share;
    let prepared = prepare(request, |id| stored.get(id).cloned()).map_err(ApiError::Validation)?;
    let id = store::new_id();
    let token = if share {
        Some(super::share_token(state, &id)?)
    } else {
        None
    };
    let created_at = store::now();
    let expires_at = user_id
        .is_none()
        .then(|| created_at + Duration::days(i64::from(state.config.oneshot_ttl_days)));
    // Generation and serialization are pure CPU: they run before the transaction (so SQLite's
    // one writer holds its lock only for the inserts) and off the async workers. A replay
    // discards this unseen scenario.
    let doc: ScenarioDocument =
        crate::db::in_request_span(move || generate::run(prepared, server)).await??;
    let row = ScenarioRow {
        id: id.clone(),
        created_by: user_id.clone(),
        share_token_hash: token.as_deref().map(hash_secret),
        document: crate::store::doc::encode(&doc)?,
        created_at,
        expires_at,
        client_hash: client_hash.clone(),
        side1_token_hash: Some(hash_secret(&super::side_token(state, &id, 0)?)),
        side2_token_hash: Some(hash_secret(&super::side_token(state, &id, 1)?)),
    };
    let mut response = ScenarioResponse::new(&row, doc);
    // The stored replay never holds the share link (the token is kept hashed only).
    let replay = match (&repeat, &user_id) {
        (Some(_), Some(_)) => Some(to_json(&response)?),
        _ => None,
    };
    if let Some(token) = &token {
        response.set_share_links(super::share_links(state, token));
    }
    response.side_sheet_urls = super::side_links(state, &row)?;
    let quotas = state.config.quotas;
    let replayed = state
        .db
        .transaction(move |conn| {
            let (user_id, repeat, replay) = match (user_id, repeat, replay) {
                (Some(user_id), Some(repeat), Some(replay)) => (user_id, repeat, replay),
                (Some(user_id), _, _) => {
                    quotas.check_scenarios(conn, &user_id)?;
                    spend(conn, commitment_id.as_deref())?;
                    scenarios::insert(conn, &row)?;
                    return Ok(None);
                }
                (None, _, _) => {
                    let client = client_hash.as_deref().unwrap_or_default();
                    quotas.check_anonymous_scenarios(conn, client)?;
                    spend(conn, commitment_id.as_deref())?;
                    scenarios::insert(conn, &row)?;
                    return Ok(None);
                }
            };
            if let Some(first) = idempotency::find(conn, &user_id, SCOPE, &repeat.key)? {
                if first.request_hash != repeat.request_hash {
                    return Err(crate::extract::idempotency_key_reused());
                }
                return Ok(Some(first.response));
            }
            quotas.check_scenarios(conn, &user_id)?;
            spend(conn, commitment_id.as_deref())?;
            scenarios::insert(conn, &row)?;
            idempotency::insert(
                conn,
                &IdempotentResponse {
                    user_id,
                    scope: SCOPE.to_owned(),
                    idempotency_key: repeat.key,
                    request_hash: repeat.request_hash,
                    status: 201,
                    response: replay,
                    created_at,
                },
            )?;
            Ok(None)
        })
        .await?;
    match replayed {
        Some(body) => {
            let id = serde_json::from_str::<Identified>(&body)
                .map_err(|e| ApiError::Internal(e.into()))?
                .id;
            Ok(Generated::Replayed { id, body })
        }
        None => Ok(Generated::Fresh(Box::new(response))),
    }
}

/// The id of a stored response.
#[derive(serde::Deserialize)]
struct Identified {
    id: String,
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.into()))
}

/// Spends the request's commitment, if it named one (409 when another request used it first).
fn spend(conn: &mut crate::db::Db, commitment_id: Option<&str>) -> Result<(), ApiError> {
    crate::app::dice::spend(conn, commitment_id)
}
