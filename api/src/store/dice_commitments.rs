//! Committed server-dice seeds (`dice_commitments`): issued before the roll that uses them,
//! marked used by it, revealed in its roll log.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::dice_commitments as t;

/// A commitment row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = t)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct CommitmentRow {
    /// Random UUID text.
    pub id: String,
    /// The workflow whose next server roll uses it.
    pub scope: String,
    /// The seed: 64 lowercase hex digits, shown only once used.
    pub seed: String,
    /// Lowercase hex SHA-256 of the seed's bytes.
    pub sha256: String,
    /// When issued (UTC).
    pub created_at: NaiveDateTime,
    /// When a roll used it.
    pub used_at: Option<NaiveDateTime>,
    /// When an unused one issued for a single request stops being usable.
    pub expires_at: Option<NaiveDateTime>,
    /// Keyed hash of the address that asked for one signed out (for its hourly limit).
    pub client_hash: Option<String>,
}

/// The open (unused, unexpired) commitment of `scope`, if any.
pub fn open(conn: &mut Db, scope: &str, now: NaiveDateTime) -> QueryResult<Option<CommitmentRow>> {
    crate::on_backend!(conn, |conn| t::table
        .filter(t::scope.eq(scope))
        .filter(t::used_at.is_null())
        .filter(t::expires_at.is_null().or(t::expires_at.gt(now)))
        .select(CommitmentRow::as_select())
        .first(conn)
        .optional())
}

/// One commitment by id.
pub fn find(conn: &mut Db, id: &str) -> QueryResult<Option<CommitmentRow>> {
    crate::on_backend!(conn, |conn| t::table
        .find(id)
        .select(CommitmentRow::as_select())
        .first(conn)
        .optional())
}

/// Inserts `row` unless its scope already has an open commitment (two requests racing to
/// issue the first one); returns whether it was inserted.
pub fn insert_if_none_open(conn: &mut Db, row: &CommitmentRow) -> QueryResult<bool> {
    // A savepoint: on PostgreSQL a failed statement would abort the caller's transaction.
    let inserted = conn.transaction(|conn| diesel::insert_into(t::table).values(row).execute(conn));
    match inserted {
        Ok(n) => Ok(n == 1),
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(false),
        Err(other) => Err(other),
    }
}

/// Inserts the first commitments of new workflows, replacing any still open in their scopes
/// (a workflow started again, such as a reopened result's sequences): two statements.
pub fn insert_all(conn: &mut Db, rows: &[CommitmentRow]) -> QueryResult<()> {
    let scopes: Vec<&str> = rows.iter().map(|r| r.scope.as_str()).collect();
    crate::on_backend!(conn, |conn| diesel::delete(
        t::table
            .filter(t::scope.eq_any(&scopes))
            .filter(t::used_at.is_null()),
    )
    .execute(conn))?;
    // The multi connection cannot express a multi-row INSERT; each backend can.
    let insert = diesel::insert_into(t::table).values(rows.to_vec());
    match conn {
        Db::Pg(pg) => insert.execute(pg)?,
        Db::Sqlite(sqlite) => insert.execute(sqlite)?,
    };
    Ok(())
}

/// Marks `id` used, if it still was open; returns whether this call used it.
pub fn mark_used(conn: &mut Db, id: &str, now: NaiveDateTime) -> QueryResult<bool> {
    crate::on_backend!(conn, |conn| diesel::update(
        t::table.find(id).filter(t::used_at.is_null())
    )
    .set(t::used_at.eq(Some(now)))
    .execute(conn)
    .map(|n| n == 1))
}

/// Replaces the open commitment `old_id`, just spent, by `next` in place (a chain whose spent
/// commitments nobody reads again: the roll log keeps each one's seed); whether it was open.
pub fn replace_spent(conn: &mut Db, old_id: &str, next: &CommitmentRow) -> QueryResult<bool> {
    crate::on_backend!(conn, |conn| diesel::update(
        t::table.find(old_id).filter(t::used_at.is_null())
    )
    .set((
        t::id.eq(&next.id),
        t::seed.eq(&next.seed),
        t::sha256.eq(&next.sha256),
        t::created_at.eq(next.created_at),
    ))
    .execute(conn)
    .map(|n| n == 1))
}

/// Deletes commitments issued for a single request that expired unused.
pub fn delete_expired(conn: &mut Db, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(
        t::table
            .filter(t::used_at.is_null())
            .filter(t::expires_at.le(now)),
    )
    .execute(conn)
}

/// How many commitments the address `client_hash` was issued since `since`.
pub fn issued_to_address_since(
    conn: &mut Db,
    client_hash: &str,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    t::table
        .filter(t::client_hash.eq(client_hash))
        .filter(t::created_at.gt(since))
        .count()
        .get_result(conn)
}

/// Every commitment of `scope` in the order they were spent, the open one last.
pub fn chain(conn: &mut Db, scope: &str) -> QueryResult<Vec<CommitmentRow>> {
    let mut rows: Vec<CommitmentRow> = crate::on_backend!(conn, |conn| t::table
        .filter(t::scope.eq(scope))
        .select(CommitmentRow::as_select())
        .load(conn))?;
    in_spending_order(&mut rows);
    Ok(rows)
}

/// The chains of `scopes` in one statement, each as [`chain`] gives it (an empty one for a
/// scope with none), in the order of `scopes`.
pub fn chains(conn: &mut Db, scopes: &[String]) -> QueryResult<Vec<Vec<CommitmentRow>>> {
    let rows: Vec<CommitmentRow> = crate::on_backend!(conn, |conn| t::table
        .filter(t::scope.eq_any(scopes))
        .select(CommitmentRow::as_select())
        .load(conn))?;
    let mut out: Vec<Vec<CommitmentRow>> = scopes.iter().map(|_| Vec::new()).collect();
    for row in rows {
        if let Some(i) = scopes.iter().position(|s| *s == row.scope) {
            out[i].push(row);
        }
    }
    for chain in &mut out {
        in_spending_order(chain);
    }
    Ok(out)
}

/// Each is issued as the one before it is spent, so spending time orders a chain.
fn in_spending_order(rows: &mut [CommitmentRow]) {
    rows.sort_by(|a, b| {
        (a.used_at.is_none(), a.used_at, a.created_at).cmp(&(
            b.used_at.is_none(),
            b.used_at,
            b.created_at,
        ))
    });
}
