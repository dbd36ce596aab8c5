//! `POST /api/v1/scenarios`: the one-shot generator (issue 7 item 4; API.md › Scenario
//! generation). Both sides' choices, or one side against a non-player force, in one request.
//!
//! Honours `Idempotency-Key` ([`crate::store::idempotency`]): the same key and body answer the
//! first response again (without the share token, which is stored hashed) and store nothing new.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse, post, web};

use std::collections::BTreeMap;

use fad_domain::roster::Force;

use crate::AppState;
use crate::app::authorization::authorize_force;
use crate::auth::secret::hash_secret;
use crate::auth::{AuthUser, Need};
use crate::error::{ApiError, Problem};
use crate::extract::parse_json;
use crate::store::idempotency::{self, IdempotentResponse};
use crate::store::{
    self,
    scenarios::{self, ScenarioRow},
};

use super::request::{CreateScenarioRequest, prepare};
use super::{ScenarioResponse, generate};

/// The idempotency scope of this endpoint.
const SCOPE: &str = "POST /api/v1/scenarios";

/// The stored forces the request names that the caller may read, by id, as (name, roster). A
/// force that is unknown or not readable is left out, and `prepare` refuses it (422, same text).
async fn load_stored_forces(
    state: &AppState,
    user: &AuthUser,
    request: &CreateScenarioRequest,
) -> Result<BTreeMap<String, (String, Force)>, ApiError> {
    let ids: Vec<String> = request
        .sides
        .iter()
        .filter_map(|s| s.force_id.clone())
        .collect();
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let caller = user.caller();
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

/// Generates and stores a scenario; 201 with the whole scenario and its `rolls`.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "create_scenario",
    security(("bearer" = [])),
    request_body = CreateScenarioRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Repeat-safe key: the same key and body answer the first response again")),
    responses(
        (status = 201, description = "The scenario, with every roll; a repeat with the same Idempotency-Key and body answers the first response again", body = ScenarioResponse),
        (status = 400, description = "Malformed JSON or Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The Idempotency-Key was used with another body; invalid sides, choices or entered dice, an unknown field or a count beyond the rules (every problem, with its path)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The account generated its most scenarios in the last hour (`FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR`); `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/scenarios")]
pub async fn create_scenario(
    user: AuthUser,
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = crate::extract::idempotency_key(&req)?;
    let request: CreateScenarioRequest = parse_json(&body)?;
    let share = request.share;
    let stored = load_stored_forces(&state, &user, &request).await?;
    let prepared = prepare(request, |id| stored.get(id).cloned()).map_err(ApiError::Validation)?;
    let request_hash = idempotency::hash_body(&body);
    let seed = generate::os_seed()?;
    let id = store::new_id();
    let token = if share {
        Some(crate::app::scenarios::share_token(&state, &id)?)
    } else {
        None
    };
    let user_id = user.user_id;
    let quotas = state.config.quotas;
    let token_hash = token.as_deref().map(hash_secret);
    // Generation and serialization are pure CPU: they run before the transaction (so SQLite's
    // one writer holds its lock only for the inserts) and off the async workers. A replay
    // discards this unseen scenario.
    let doc = crate::db::in_request_span(move || generate::run(prepared, seed)).await??;
    let row = ScenarioRow {
        id,
        created_by: user_id.clone(),
        share_token_hash: token_hash,
        document: to_json(&doc)?,
        created_at: store::now(),
    };
    let id = row.id.clone();
    let created_at = row.created_at;
    let mut response = ScenarioResponse::new(&row, doc);
    // The stored replay never holds the share link (the token is kept hashed only).
    let replay = key.is_some().then(|| to_json(&response)).transpose()?;
    let body = match (&replay, &token) {
        (Some(replay), None) => replay.clone(),
        (_, token) => {
            if let Some(token) = token {
                response.set_share_links(crate::app::scenarios::share_links(&state, token));
            }
            to_json(&response)?
        }
    };
    let replayed = match key.zip(replay) {
        // The quota's count and the insert share one transaction.
        None => {
            state
                .db
                .transaction(move |conn| {
                    quotas.check_scenarios(conn, &user_id)?;
                    Ok(scenarios::insert(conn, &row)?)
                })
                .await?;
            None
        }
        Some((key, replay)) => {
            state
                .db
                .transaction(move |conn| {
                    if let Some(first) = idempotency::find(conn, &user_id, SCOPE, &key)? {
                        if first.request_hash != request_hash {
                            return Err(crate::extract::idempotency_key_reused());
                        }
                        return Ok(Some(first.response));
                    }
                    quotas.check_scenarios(conn, &user_id)?;
                    scenarios::insert(conn, &row)?;
                    idempotency::insert(
                        conn,
                        &IdempotentResponse {
                            user_id,
                            scope: SCOPE.to_owned(),
                            idempotency_key: key,
                            request_hash,
                            status: 201,
                            response: replay,
                            created_at,
                        },
                    )?;
                    Ok(None)
                })
                .await?
        }
    };
    let (status, id, body) = match replayed {
        // The first answer again, byte for byte, with its status: a retry cannot tell it
        // from the first answer.
        Some(first) => {
            let id = serde_json::from_str::<Identified>(&first)
                .map_err(|e| ApiError::Internal(e.into()))?
                .id;
            (StatusCode::CREATED, id, first)
        }
        None => (StatusCode::CREATED, id, body),
    };
    Ok(HttpResponse::build(status)
        .insert_header(("Location", format!("/api/v1/scenarios/{id}")))
        .content_type(ContentType::json())
        .body(body))
}

/// The id of a stored response, for the `Location` of a replay.
#[derive(serde::Deserialize)]
struct Identified {
    id: String,
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.into()))
}
