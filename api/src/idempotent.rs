//! `Idempotency-Key` on every write under `/api/v1`, in one middleware rather than
//! in each handler.
//!
//! A `POST`, `PUT`, `PATCH` or `DELETE` that carries the header first reserves its key (per
//! caller and `METHOD path`) in the one idempotency store ([`crate::store::idempotency`]):
//! - the key already holds an answer: the same body gets that status and body again with
//!   `Idempotent-Replayed: true` and nothing runs; another body gets 422;
//! - the key is reserved by a request still running: this one waits for that answer (up to
//!   [`WAIT_FOR_FIRST`]) and replays it, else 409; nothing runs twice; a reservation left by a
//!   process that died is free again after [`ABANDONED_AFTER_SECONDS`];
//! - otherwise the request runs; a 2xx answer is stored in the reservation, any other answer
//!   releases the key (nothing was changed, the key may be sent again).
//!
//! The writes that roll dice store their answer inside their own transaction
//! ([`crate::app::idempotency::run`]), in the reservation, so a crash between their commit and
//! the middleware's storing cannot let a retry roll again. What they store is the very text
//! they send ([`AnswerKept`]), so the middleware stores nothing more for them. Answers are kept for [`RETENTION_HOURS`] and then
//! swept ([`sweep`]).
//!
//! These writes take no key ([`takes_no_key`]): login (it changes nothing, so a retry is
//! already safe, and its answer is a bearer token the store must not keep in clear), the
//! creation of an integration key (its answer is the key, which the service keeps only
//! hashed), and registration (there is no account yet to keep an answer under; a retry answers
//! 409 on the name it took). Nor do the public dice endpoints: verification stores nothing, and
//! a retried commitment request only issues another commitment, which expires unused.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, web};
use std::sync::LazyLock;

use chrono::Duration;

use crate::AppState;
use crate::auth::Caller;
use crate::db::Database;
use crate::error::ApiError;
use crate::routes::API_BASE;
use crate::store::{self, idempotency as rows};

/// The header on a replayed answer.
pub const REPLAYED_HEADER: HeaderName = HeaderName::from_static("idempotent-replayed");

/// How long an answer stays replayable (at least 24 hours, as the README promises).
pub const RETENTION_HOURS: i64 = 48;

/// How long a request waits for the answer of another one with its key that is still running:
/// a little longer than a reservation's lease, so a retry sent just after a crash (its first
/// request's reservation left behind) waits the lease out and runs instead of answering 409.
const WAIT_FOR_FIRST: std::time::Duration =
    std::time::Duration::from_secs(ABANDONED_AFTER_SECONDS as u64 + 2);

/// How often it looks.
const WAIT_STEP: std::time::Duration = std::time::Duration::from_millis(25);

/// A reservation older than this belongs to a request that died (a crash or a kill between
/// reserving and answering): the key is free again. A write runs in well under a second (the
/// pool and the database time out long before this), so a live request never loses its key.
const ABANDONED_AFTER_SECONDS: i64 = 10;

/// Whether a write takes no key (see the module doc): login, registration, a new integration
/// key, a new personal access token. `path` may be the request's or the document's template.
pub fn takes_no_key(method: &Method, path: &str) -> bool {
    let new_key = method == Method::POST
        && path.starts_with("/api/v1/campaigns/")
        && path.ends_with("/api-keys");
    // A new personal token, like a new key: its secret is never stored for a replay.
    let new_token = method == Method::POST && path == "/api/v1/me/tokens";
    new_key
        || new_token
        || path == "/api/v1/auth/login"
        || path == "/api/v1/auth/register"
        || path.starts_with("/api/v1/dice/")
}

/// The middleware (see the module doc). Runs after authentication, so a key is per caller.
pub async fn idempotent_writes(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let pass = |req: ServiceRequest, next: Next<_>| async move {
        next.call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body)
    };
    if !is_api_write(req.method(), req.path()) {
        return pass(req, next).await;
    }
    let key = match crate::extract::idempotency_key_in(req.headers()) {
        Ok(Some(key)) => key,
        Ok(None) => return pass(req, next).await,
        Err(err) => return Ok(req.error_response(err)),
    };
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return pass(req, next).await;
    };
    // A key is its person's. Integration keys cannot write (authentication refused them).
    let caller = req.extensions().get::<Caller>().cloned();
    let Some(Caller::User { user_id }) = caller else {
        return pass(req, next).await;
    };
    let body = match req.extract::<web::Bytes>().await {
        Ok(body) => body,
        Err(err) => return Ok(req.error_response(err)),
    };
    req.set_payload(actix_web::dev::Payload::from(body.clone()));
    let slot = Slot {
        user_id,
        scope: format!("{} {}", req.method(), req.path()),
        key,
        hash: rows::hash_body(&body),
    };
    match reserve_or_wait(&state.db, &slot).await {
        Ok(Reservation::Mine) => {}
        Ok(Reservation::Answered(row)) => return Ok(req.into_response(replay(&row, &slot))),
        Err(err) => return Ok(req.error_response(err)),
    }
    let outcome = next
        .call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body);
    match outcome {
        Ok(response) if response.status().is_success() => keep(&state.db, slot, response).await,
        other => {
            release(&state.db, slot).await;
            other
        }
    }
}

/// A write under `/api/v1` that a key applies to: one the OpenAPI document declares, so a
/// method a path does not take still gets the router's 405 whatever its key.
fn is_api_write(method: &Method, path: &str) -> bool {
    let write = [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(method);
    write
        && path.starts_with(API_BASE)
        && !takes_no_key(method, path)
        && is_documented(method, path)
}

/// The documented write operations, as (method, path template split at `/`).
static DOCUMENTED_WRITES: LazyLock<Vec<(Method, Vec<String>)>> = LazyLock::new(|| {
    let api = crate::openapi::document();
    let mut writes = Vec::new();
    for (template, item) in &api.paths.paths {
        let segments: Vec<String> = template.split('/').map(str::to_owned).collect();
        let declared = [
            (Method::POST, item.post.is_some()),
            (Method::PUT, item.put.is_some()),
            (Method::PATCH, item.patch.is_some()),
            (Method::DELETE, item.delete.is_some()),
        ];
        for (method, present) in declared {
            if present {
                writes.push((method, segments.clone()));
            }
        }
    }
    writes
});

/// Whether `method path` matches a documented write (`{name}` matches one segment).
fn is_documented(method: &Method, path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').collect();
    DOCUMENTED_WRITES.iter().any(|(m, template)| {
        m == method
            && template.len() == segments.len()
            && template
                .iter()
                .zip(&segments)
                .all(|(t, s)| (t.starts_with('{') && t.ends_with('}') && !s.is_empty()) || t == s)
    })
}

/// One request's place in the store.
#[derive(Debug, Clone)]
struct Slot {
    user_id: String,
    scope: String,
    key: String,
    hash: String,
}

enum Reservation {
    /// Reserved for this request: run it.
    Mine,
    /// Answered before: replay (or refuse another body).
    Answered(rows::IdempotentResponse),
}

/// [`reserve`], waiting (up to [`WAIT_FOR_FIRST`]) while another request with the key runs:
/// two retries sent at once both get the one answer.
async fn reserve_or_wait(db: &Database, slot: &Slot) -> Result<Reservation, ApiError> {
    let started = std::time::Instant::now();
    loop {
        match reserve(db, slot.clone()).await {
            Err(ApiError::Conflict(_)) if started.elapsed() < WAIT_FOR_FIRST => {
                actix_web::rt::time::sleep(WAIT_STEP).await;
            }
            other => return other,
        }
    }
}

/// Reserves the key, or finds its answer. A key held by a running request is 409 (also when
/// two first uses collide on the primary key: see `error::constraints`).
async fn reserve(db: &Database, slot: Slot) -> Result<Reservation, ApiError> {
    db.transaction(move |conn| {
        let now = store::now();
        if let Some(row) = rows::find_any(conn, &slot.user_id, &slot.scope, &slot.key)? {
            if row.status != rows::PENDING {
                return Ok(Reservation::Answered(row));
            }
            if row.created_at > now - Duration::seconds(ABANDONED_AFTER_SECONDS) {
                return Err(ApiError::Conflict(
                    "A request with this Idempotency-Key is still running; send it again in a \
                     moment to get its answer."
                        .to_owned(),
                ));
            }
            rows::release(conn, &slot.user_id, &slot.scope, &slot.key)?;
        }
        rows::insert(
            conn,
            &rows::IdempotentResponse {
                user_id: slot.user_id,
                scope: slot.scope,
                idempotency_key: slot.key,
                request_hash: slot.hash,
                status: rows::PENDING,
                response: String::new(),
                created_at: now,
            },
        )?;
        Ok(Reservation::Mine)
    })
    .await
}

/// The stored answer again, or 422 when this body is not the first one's.
fn replay(row: &rows::IdempotentResponse, slot: &Slot) -> HttpResponse {
    if row.request_hash != slot.hash {
        return HttpResponse::from_error(crate::extract::idempotency_key_reused());
    }
    let status = u16::try_from(row.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::OK);
    let mut response = HttpResponse::build(status);
    response.insert_header((REPLAYED_HEADER, HeaderValue::from_static("true")));
    if row.response.is_empty() {
        return response.finish();
    }
    response
        .insert_header((header::CONTENT_TYPE, "application/json"))
        .body(row.response.clone())
}

/// Marks an answer whose write already stored it under its key, in its own transaction, as
/// the very text it sends ([`crate::app::idempotency::run`]): storing it again would rewrite
/// the same bytes.
#[derive(Debug, Clone, Copy)]
pub struct AnswerKept;

/// Stores a 2xx answer in the reservation and sends it on.
async fn keep(
    db: &Database,
    slot: Slot,
    response: ServiceResponse<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if response
        .response()
        .extensions()
        .get::<AnswerKept>()
        .is_some()
    {
        return Ok(response);
    }
    let (request, response) = response.into_parts();
    let (head, body) = response.into_parts();
    let bytes = actix_web::body::to_bytes(body)
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("reading a write's answer: {e}")))?;
    let status = i32::from(head.status().as_u16());
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => {
            let stored = db
                .transaction(move |conn| {
                    Ok(rows::complete(
                        conn,
                        &slot.user_id,
                        &slot.scope,
                        &slot.key,
                        status,
                        &text,
                    )?)
                })
                .await;
            if let Err(err) = stored {
                // The write is done; only its replay is lost. A retry runs it again.
                tracing::warn!("could not store an Idempotency-Key answer: {err}");
            }
        }
        Err(_) => release(db, slot).await,
    }
    let response = head.set_body(BoxBody::new(bytes));
    Ok(ServiceResponse::new(request, response))
}

/// Frees the key of a request that changed nothing.
async fn release(db: &Database, slot: Slot) {
    let released = db
        .transaction(move |conn| Ok(rows::release(conn, &slot.user_id, &slot.scope, &slot.key)?))
        .await;
    if let Err(err) = released {
        tracing::warn!("could not release an Idempotency-Key: {err}");
    }
}

/// Deletes the answers older than the retention; how many.
pub fn sweep(db: &Database) -> Result<usize, ApiError> {
    let before = store::now() - Duration::hours(RETENTION_HOURS);
    db.transaction_blocking(|conn| Ok(rows::delete_older_than(conn, before)?))
}
