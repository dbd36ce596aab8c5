//! Battles (API.md › Battles; issue 6): one row per battle with its sides and result as JSON and
//! an optimistic-concurrency `version`.
//!
//! State changes are `UPDATE … WHERE id = ? AND version = ?` in the caller's transaction, never
//! an in-memory lock, so several server processes may share one database.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::battles;

/// A battle row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = battles)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Battle {
    /// The battle id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// `scenario`, `pending`, `aftermath`, `complete` or `void`.
    pub state: String,
    /// The sides as JSON.
    pub sides: String,
    /// The recorded result as JSON.
    pub result: Option<String>,
    /// Who recorded the result.
    pub result_by: Option<String>,
    /// Who confirmed it (the recorder's own id when confirmation is off).
    pub confirmed_by: Option<String>,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// Inserts a battle.
pub fn insert(conn: &mut Db, battle: &Battle) -> QueryResult<()> {
    diesel::insert_into(battles::table)
        .values(battle)
        .execute(conn)
        .map(|_| ())
}

/// The battle with this id.
pub fn find_by_id(conn: &mut Db, id: &str) -> QueryResult<Option<Battle>> {
    battles::table
        .find(id)
        .select(Battle::as_select())
        .first(conn)
        .optional()
}

/// A campaign's battles, oldest first.
pub fn list_for_campaign(conn: &mut Db, campaign_id: &str) -> QueryResult<Vec<Battle>> {
    battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .order((battles::created_at.asc(), battles::id.asc()))
        .select(Battle::as_select())
        .load(conn)
}

/// Writes `next` (state, result, confirmation) when the stored version is `next.version - 1`.
/// Returns whether a row changed (false: stale).
pub fn update_if_version(conn: &mut Db, next: &Battle) -> QueryResult<bool> {
    let changed = diesel::update(
        battles::table
            .filter(battles::id.eq(&next.id))
            .filter(battles::version.eq(next.version - 1)),
    )
    .set((
        battles::state.eq(&next.state),
        battles::result.eq(&next.result),
        battles::result_by.eq(&next.result_by),
        battles::confirmed_by.eq(&next.confirmed_by),
        battles::version.eq(next.version),
        battles::updated_at.eq(next.updated_at),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
