//! House rulesets: one row per version of a club's document (built-in rulesets live in the
//! binary, not here).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{campaigns, memberships, rulesets};

/// One version of a house ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = rulesets)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct StoredRuleset {
    /// `club/<slug>`.
    pub id: String,
    /// 1, 2, ...: every edit is a new row.
    pub version: i64,
    /// The account that wrote it.
    pub owner: String,
    /// Its name, as the document says.
    pub name: String,
    /// The family of the built-in ruleset it extends.
    pub family: String,
    /// The house document as JSON text.
    pub document: String,
    /// SHA-256 of the canonical document, lowercase hex.
    pub hash: String,
    /// When this version was written (UTC).
    pub created_at: NaiveDateTime,
    /// Archived: no longer offered, still read by the campaigns pinned to it.
    pub archived: bool,
}

/// Inserts one version.
pub fn insert(conn: &mut Db, row: &StoredRuleset) -> QueryResult<()> {
    diesel::insert_into(rulesets::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// Version `version` of `id`, or its newest version when `version` is `None`.
pub fn find(conn: &mut Db, id: &str, version: Option<i64>) -> QueryResult<Option<StoredRuleset>> {
    let mut query = rulesets::table
        .filter(rulesets::id.eq(id))
        .select(StoredRuleset::as_select())
        .order(rulesets::version.desc())
        .into_boxed();
    if let Some(version) = version {
        query = query.filter(rulesets::version.eq(version));
    }
    query.first(conn).optional()
}

/// How many house rulesets `owner` holds and has not archived (every version of one id
/// counts once).
pub fn count_for_owner(conn: &mut Db, owner: &str) -> QueryResult<i64> {
    rulesets::table
        .filter(rulesets::owner.eq(owner))
        .filter(rulesets::version.eq(1))
        .filter(rulesets::archived.eq(false))
        .count()
        .get_result(conn)
}

/// The newest version of every house ruleset `owner` holds that is not archived, by id.
pub fn list_for_owner(conn: &mut Db, owner: &str) -> QueryResult<Vec<StoredRuleset>> {
    let rows: Vec<StoredRuleset> = rulesets::table
        .filter(rulesets::owner.eq(owner))
        .filter(rulesets::archived.eq(false))
        .order((rulesets::id.asc(), rulesets::version.desc()))
        .select(StoredRuleset::as_select())
        .load(conn)?;
    Ok(newest_of_each(rows))
}

/// Every row of `ids` (all versions), by id then newest version first.
pub fn list_ids(conn: &mut Db, ids: &[String]) -> QueryResult<Vec<StoredRuleset>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    rulesets::table
        .filter(rulesets::id.eq_any(ids))
        .order((rulesets::id.asc(), rulesets::version.desc()))
        .select(StoredRuleset::as_select())
        .load(conn)
}

/// Keeps the first row of each id (rows ordered by id, newest version first).
fn newest_of_each(rows: Vec<StoredRuleset>) -> Vec<StoredRuleset> {
    let mut out: Vec<StoredRuleset> = Vec::new();
    for row in rows {
        if out.last().is_none_or(|last| last.id != row.id) {
            out.push(row);
        }
    }
    out
}

/// The settings texts of the campaigns `user_id` belongs to (to find the rulesets they pin).
pub fn member_campaign_settings(conn: &mut Db, user_id: &str) -> QueryResult<Vec<String>> {
    campaigns::table
        .inner_join(memberships::table)
        .filter(memberships::user_id.eq(user_id))
        .select(campaigns::settings)
        .load(conn)
}

/// Every campaign's settings text that mentions `id` (a cheap filter; the caller parses each
/// to see whether it pins the ruleset).
pub fn settings_mentioning(conn: &mut Db, id: &str) -> QueryResult<Vec<String>> {
    let escaped = id
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    campaigns::table
        .filter(
            campaigns::settings
                .like(format!("%{escaped}%"))
                .escape('\\'),
        )
        .select(campaigns::settings)
        .load(conn)
}

/// Archives every version of `id`.
pub fn archive(conn: &mut Db, id: &str) -> QueryResult<usize> {
    diesel::update(rulesets::table.filter(rulesets::id.eq(id)))
        .set(rulesets::archived.eq(true))
        .execute(conn)
}
