//! Browser sessions of the web pages (`web_sessions`): the SHA-256 of the cookie value, its
//! account and its expiry.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{users, web_sessions};

/// One session row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = web_sessions, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Session {
    /// SHA-256 (hex) of the cookie value.
    pub id_hash: String,
    /// The signed-in account.
    pub user_id: String,
    /// When the person logged in (UTC).
    pub created_at: NaiveDateTime,
    /// After this the session is no longer accepted (UTC).
    pub expires_at: NaiveDateTime,
}

/// Stores a new session.
pub fn insert(conn: &mut Db, session: &Session) -> QueryResult<usize> {
    diesel::insert_into(web_sessions::table)
        .values(session)
        .execute(conn)
}

/// The account id and username of the unexpired session with `id_hash`, in one query.
pub fn find_live(
    conn: &mut Db,
    id_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<(String, String)>> {
    crate::on_backend!(conn, |conn| web_sessions::table
        .inner_join(users::table)
        .filter(web_sessions::id_hash.eq(id_hash))
        .filter(web_sessions::expires_at.gt(now))
        .select((users::id, users::username))
        .first(conn)
        .optional())
}

/// Ends one session of `user_id`; returns how many rows went (0 or 1).
pub fn delete(conn: &mut Db, user_id: &str, id_hash: &str) -> QueryResult<usize> {
    // The account's live streams check their credential once this commits (crate::live).
    crate::live::marks::owner(user_id);
    diesel::delete(web_sessions::table.filter(web_sessions::id_hash.eq(id_hash))).execute(conn)
}

/// Ends every session of `user_id` (password change).
pub fn delete_for_user(conn: &mut Db, user_id: &str) -> QueryResult<usize> {
    // The account's live streams check their credential once this commits (crate::live).
    crate::live::marks::owner(user_id);
    diesel::delete(web_sessions::table.filter(web_sessions::user_id.eq(user_id))).execute(conn)
}

/// Drops the expired sessions of `user_id`, so an account's rows stay bounded by its live
/// logins.
pub fn delete_expired_for_user(
    conn: &mut Db,
    user_id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        web_sessions::table
            .filter(web_sessions::user_id.eq(user_id))
            .filter(web_sessions::expires_at.le(now)),
    )
    .execute(conn)
}
