//! The `Idempotency-Key` store: the first response to a write, per user,
//! endpoint (`scope`, e.g. `"POST /api/v1/scenarios"`) and key, with a hash of the request body.
//!
//! Any rolling write can reuse it inside its transaction: [`find`] first; on a hit with the same
//! hash answer the stored response (nothing is rolled), with another hash refuse (409); on a miss
//! do the work and [`insert`] the response in the same transaction. Two concurrent first uses
//! collide on the primary key, and the loser's transaction rolls back.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use crate::db::Db;
use crate::schema::idempotency_keys;

/// Longest accepted `Idempotency-Key`.
pub const MAX_KEY_LEN: usize = 200;

/// The `status` of a reservation: a request with this key is running and has no answer yet.
pub const PENDING: i32 = 0;

/// A stored first response.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotency_keys)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct IdempotentResponse {
    /// The caller.
    pub user_id: String,
    /// The endpoint, e.g. `"POST /api/v1/scenarios"`.
    pub scope: String,
    /// The client's key.
    pub idempotency_key: String,
    /// SHA-256 hex of the request body.
    pub request_hash: String,
    /// The HTTP status of the first response.
    pub status: i32,
    /// Its JSON body.
    pub response: String,
    /// When it was stored (UTC).
    pub created_at: NaiveDateTime,
}

/// SHA-256 hex of a request body.
pub fn hash_body(body: &[u8]) -> String {
    hex::encode(Sha256::digest(body))
}

/// The stored answer for `(user_id, scope, key)`, if any (a reservation is no answer).
pub fn find(
    conn: &mut Db,
    user_id: &str,
    scope: &str,
    key: &str,
) -> QueryResult<Option<IdempotentResponse>> {
    Ok(find_any(conn, user_id, scope, key)?.filter(|row| row.status != PENDING))
}

/// The row for `(user_id, scope, key)`: an answer or a reservation.
pub fn find_any(
    conn: &mut Db,
    user_id: &str,
    scope: &str,
    key: &str,
) -> QueryResult<Option<IdempotentResponse>> {
    crate::on_backend!(conn, |conn| idempotency_keys::table
        .filter(idempotency_keys::user_id.eq(user_id))
        .filter(idempotency_keys::scope.eq(scope))
        .filter(idempotency_keys::idempotency_key.eq(key))
        .select(IdempotentResponse::as_select())
        .first(conn)
        .optional())
}

/// Stores a first response: in the request's own reservation when it has one (which keeps the
/// reservation's hash, that of the body as sent: [`crate::idempotent`]), else as a new row.
pub fn insert(conn: &mut Db, row: &IdempotentResponse) -> QueryResult<()> {
    let filled = fill(
        conn,
        &row.user_id,
        &row.scope,
        &row.idempotency_key,
        &row.request_hash,
        row.status,
        &row.response,
    )?;
    if filled > 0 {
        return Ok(());
    }
    diesel::insert_into(idempotency_keys::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// Stores the answer as it was sent in the request's row: fills its reservation, or replaces
/// what the write stored in its own transaction (the same JSON, perhaps with its keys in
/// another order), so a replay is the first answer byte for byte.
pub fn complete(
    conn: &mut Db,
    user_id: &str,
    scope: &str,
    key: &str,
    status: i32,
    response: &str,
) -> QueryResult<()> {
    diesel::update(
        idempotency_keys::table
            .filter(idempotency_keys::user_id.eq(user_id))
            .filter(idempotency_keys::scope.eq(scope))
            .filter(idempotency_keys::idempotency_key.eq(key)),
    )
    .set((
        idempotency_keys::status.eq(status),
        idempotency_keys::response.eq(response),
    ))
    .execute(conn)
    .map(|_| ())
}

/// Fills the reservation of `(user_id, scope, key)` made for the body `request_hash`, if there is
/// one; how many rows (0 or 1). A reservation another body took over (the first request's lease
/// ran out while it still ran) is never filled with this body's answer.
fn fill(
    conn: &mut Db,
    user_id: &str,
    scope: &str,
    key: &str,
    request_hash: &str,
    status: i32,
    response: &str,
) -> QueryResult<usize> {
    diesel::update(
        idempotency_keys::table
            .filter(idempotency_keys::user_id.eq(user_id))
            .filter(idempotency_keys::scope.eq(scope))
            .filter(idempotency_keys::idempotency_key.eq(key))
            .filter(idempotency_keys::request_hash.eq(request_hash))
            .filter(idempotency_keys::status.eq(PENDING)),
    )
    .set((
        idempotency_keys::status.eq(status),
        idempotency_keys::response.eq(response),
    ))
    .execute(conn)
}

/// Deletes a reservation (its request failed: the key may be used again).
pub fn release(conn: &mut Db, user_id: &str, scope: &str, key: &str) -> QueryResult<()> {
    diesel::delete(
        idempotency_keys::table
            .filter(idempotency_keys::user_id.eq(user_id))
            .filter(idempotency_keys::scope.eq(scope))
            .filter(idempotency_keys::idempotency_key.eq(key))
            .filter(idempotency_keys::status.eq(PENDING)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Deletes every row stored before `before` (answers past the retention, abandoned
/// reservations); how many.
pub fn delete_older_than(conn: &mut Db, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(before)))
        .execute(conn)
}
