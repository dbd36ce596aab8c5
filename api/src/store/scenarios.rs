//! One-shot scenarios (issue 7 item 4): one row per scenario with the whole scenario as JSON,
//! so every read is one statement. Readable by its creator, or by anyone holding its share
//! token (stored as SHA-256).

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
    /// The user who generated it.
    pub created_by: String,
    /// SHA-256 hex of the share token, when shared.
    pub share_token_hash: Option<String>,
    /// The scenario document as JSON.
    pub document: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
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
        .select(ScenarioRow::as_select())
        .first(conn)
        .optional()
}

/// The shared scenario whose token hashes to `token_hash`.
pub fn find_by_share_hash(conn: &mut Db, token_hash: &str) -> QueryResult<Option<ScenarioRow>> {
    scenarios::table
        .filter(scenarios::share_token_hash.eq(token_hash))
        .select(ScenarioRow::as_select())
        .first(conn)
        .optional()
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
