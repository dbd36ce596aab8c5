//! One-shot scenarios: one row per scenario with the whole scenario as JSON,
//! so every read is one statement. Readable by its creator, or by anyone holding its share
//! token (stored as SHA-256); one generated signed out has no creator and is readable by its id
//! until it expires. Past `expires_at` a row reads as gone here, before the sweep deletes it.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::scenarios;

/// A scenario row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = scenarios)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct ScenarioRow {
    /// UUID text.
    pub id: String,
    /// The user who generated (or kept) it; `None` for one generated signed out.
    pub created_by: Option<String>,
    /// SHA-256 hex of the share token, when shared.
    pub share_token_hash: Option<String>,
    /// The scenario document as JSON.
    pub document: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// When it stops existing (UTC); `None`: never (it has a creator).
    pub expires_at: Option<NaiveDateTime>,
    /// Keyed hash of the client address that generated it signed out (the per-address limit).
    pub client_hash: Option<String>,
    /// SHA-256 hex of side 1's sheet token (scenarios generated before sheets per side have
    /// none).
    pub side1_token_hash: Option<String>,
    /// SHA-256 hex of side 2's sheet token.
    pub side2_token_hash: Option<String>,
}

/// Rows not yet expired at `now`.
fn live(
    now: NaiveDateTime,
) -> diesel::dsl::Or<
    diesel::dsl::IsNull<scenarios::expires_at>,
    diesel::dsl::Gt<scenarios::expires_at, NaiveDateTime>,
> {
    scenarios::expires_at
        .is_null()
        .or(scenarios::expires_at.gt(now))
}

/// Inserts a scenario.
pub fn insert(conn: &mut Db, row: &ScenarioRow) -> QueryResult<()> {
    diesel::insert_into(scenarios::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// The scenario `id` if `user_id` created it (otherwise `None`, as if it did not exist).
pub fn find_by_id_and_creator(
    conn: &mut Db,
    id: &str,
    user_id: &str,
) -> QueryResult<Option<ScenarioRow>> {
    scenarios::table
        .filter(scenarios::id.eq(id))
        .filter(scenarios::created_by.eq(user_id))
        .filter(live(crate::store::now()))
        .select(ScenarioRow::as_select())
        .first(conn)
        .optional()
}

/// The scenario `id` if `user_id` created it or nobody did (one generated signed out, which its
/// unguessable id opens), and it has not expired.
pub fn find_by_id_for_viewer(
    conn: &mut Db,
    id: &str,
    user_id: Option<&str>,
) -> QueryResult<Option<ScenarioRow>> {
    let mut query = scenarios::table
        .filter(scenarios::id.eq(id))
        .filter(live(crate::store::now()))
        .select(ScenarioRow::as_select())
        .into_boxed();
    query = match user_id {
        Some(user) => query.filter(
            scenarios::created_by
                .is_null()
                .or(scenarios::created_by.eq(user.to_owned())),
        ),
        None => query.filter(scenarios::created_by.is_null()),
    };
    query.first(conn).optional()
}

/// Makes `user_id` the creator of the live, creator-less scenario `id` and clears its expiry;
/// whether a row changed.
pub fn keep(conn: &mut Db, id: &str, user_id: &str) -> QueryResult<bool> {
    diesel::update(
        scenarios::table
            .filter(scenarios::id.eq(id))
            .filter(scenarios::created_by.is_null())
            .filter(live(crate::store::now())),
    )
    .set((
        scenarios::created_by.eq(Some(user_id)),
        scenarios::expires_at.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)
    .map(|n| n > 0)
}

/// Deletes up to `limit` scenarios that expired before `now`; how many it deleted.
pub fn delete_expired(conn: &mut Db, now: NaiveDateTime, limit: i64) -> QueryResult<usize> {
    let ids: Vec<String> = scenarios::table
        .filter(scenarios::expires_at.le(now))
        .select(scenarios::id)
        .limit(limit)
        .load(conn)?;
    if ids.is_empty() {
        return Ok(0);
    }
    diesel::delete(scenarios::table.filter(scenarios::id.eq_any(ids))).execute(conn)
}

/// The shared scenario whose token hashes to `token_hash`.
pub fn find_by_share_hash(conn: &mut Db, token_hash: &str) -> QueryResult<Option<ScenarioRow>> {
    scenarios::table
        .filter(scenarios::share_token_hash.eq(token_hash))
        .filter(live(crate::store::now()))
        .select(ScenarioRow::as_select())
        .first(conn)
        .optional()
}

/// The live scenario whose side sheet token hashes to `token_hash`, with that side's index.
pub fn find_by_side_hash(
    conn: &mut Db,
    token_hash: &str,
) -> QueryResult<Option<(ScenarioRow, usize)>> {
    let row = scenarios::table
        .filter(
            scenarios::side1_token_hash
                .eq(token_hash)
                .or(scenarios::side2_token_hash.eq(token_hash)),
        )
        .filter(live(crate::store::now()))
        .select(ScenarioRow::as_select())
        .first(conn)
        .optional()?;
    Ok(row.map(|r| {
        let side = usize::from(r.side1_token_hash.as_deref() != Some(token_hash));
        (r, side)
    }))
}

/// Up to `limit` of the scenarios `user_id` generated, newest first (ties by id), after the one
/// whose key is `after`.
pub fn list_for_creator(
    conn: &mut Db,
    user_id: &str,
    after: Option<&crate::store::CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<ScenarioRow>> {
    let mut query = scenarios::table
        .filter(scenarios::created_by.eq(user_id))
        .filter(live(crate::store::now()))
        .order((scenarios::created_at.desc(), scenarios::id.asc()))
        .select(ScenarioRow::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            scenarios::created_at
                .lt(at)
                .or(scenarios::created_at.eq(at).and(scenarios::id.gt(id))),
        );
    }
    query.load(conn)
}
