//! Share links to one side's printable sheet of a battle (`battle_share_links`): one live link
//! per battle side. The token is derived from the row id ([`crate::auth::derived`]) and only
//! its SHA-256 is stored, for the lookup when the link is opened.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::battle_share_links as t;

/// A share link row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = t)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct ShareLink {
    /// Random UUID text; the token is derived from it.
    pub id: String,
    /// The battle.
    pub battle_id: String,
    /// The side (a player force of the battle) whose view the link shows.
    pub force_id: String,
    /// SHA-256 hex of the token.
    pub token_hash: String,
    /// Who shared it.
    pub created_by: String,
    /// When (UTC).
    pub created_at: NaiveDateTime,
}

/// The live link of a battle side, if any.
pub fn find_for_side(
    conn: &mut Db,
    battle_id: &str,
    force_id: &str,
) -> QueryResult<Option<ShareLink>> {
    t::table
        .filter(t::battle_id.eq(battle_id))
        .filter(t::force_id.eq(force_id))
        .select(ShareLink::as_select())
        .first(conn)
        .optional()
}

/// The link whose token hashes to `token_hash`.
pub fn find_by_token_hash(conn: &mut Db, token_hash: &str) -> QueryResult<Option<ShareLink>> {
    t::table
        .filter(t::token_hash.eq(token_hash))
        .select(ShareLink::as_select())
        .first(conn)
        .optional()
}

/// Inserts a link.
pub fn insert(conn: &mut Db, link: &ShareLink) -> QueryResult<()> {
    diesel::insert_into(t::table)
        .values(link)
        .execute(conn)
        .map(|_| ())
}

/// Deletes a battle side's link; returns how many rows went (0 or 1).
pub fn delete_for_side(conn: &mut Db, battle_id: &str, force_id: &str) -> QueryResult<usize> {
    diesel::delete(
        t::table
            .filter(t::battle_id.eq(battle_id))
            .filter(t::force_id.eq(force_id)),
    )
    .execute(conn)
}
