//! Personal access tokens: a person's credential for a bot, scoped, revocable, stored as
//! SHA-256 with `last_used_at` (see [`crate::auth::secret`]).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::personal_tokens;
use crate::store::api_keys::LAST_USED_RESOLUTION;

/// Most live (unrevoked, unexpired) tokens one person may hold.
pub const MAX_PER_USER: i64 = 20;

/// A token, without its hash.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = personal_tokens)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct PersonalToken {
    /// The token id (UUID text).
    pub id: String,
    /// The person it acts for.
    pub user_id: String,
    /// The person's name for it ("discord bot").
    pub name: String,
    /// The first characters of the token, to tell tokens apart.
    pub token_prefix: String,
    /// The scopes as a JSON array.
    pub scopes: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// When it stops working, if ever.
    pub expires_at: Option<NaiveDateTime>,
    /// Last use (UTC, to the minute), if ever used.
    pub last_used_at: Option<NaiveDateTime>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<NaiveDateTime>,
}

/// A new token row.
#[derive(Insertable)]
#[diesel(table_name = personal_tokens)]
pub struct NewPersonalToken<'a> {
    /// The token id.
    pub id: &'a str,
    /// The person.
    pub user_id: &'a str,
    /// Its name.
    pub name: &'a str,
    /// SHA-256 hex of the token.
    pub token_hash: &'a str,
    /// The first characters of the token.
    pub token_prefix: &'a str,
    /// The scopes as a JSON array.
    pub scopes: &'a str,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Expiry, if any.
    pub expires_at: Option<NaiveDateTime>,
}

/// Inserts a token.
pub fn insert(conn: &mut Db, token: &NewPersonalToken<'_>) -> QueryResult<()> {
    diesel::insert_into(personal_tokens::table)
        .values(token)
        .execute(conn)
        .map(|_| ())
}

/// A person's live tokens (not revoked, not expired at `now`), newest first.
pub fn list_live(
    conn: &mut Db,
    user_id: &str,
    now: NaiveDateTime,
) -> QueryResult<Vec<PersonalToken>> {
    personal_tokens::table
        .filter(personal_tokens::user_id.eq(user_id))
        .filter(personal_tokens::revoked_at.is_null())
        .filter(
            personal_tokens::expires_at
                .is_null()
                .or(personal_tokens::expires_at.gt(now)),
        )
        .order((
            personal_tokens::created_at.desc(),
            personal_tokens::id.asc(),
        ))
        .select(PersonalToken::as_select())
        .load(conn)
}

/// The live token whose hash is `token_hash`.
pub fn find_live_by_hash(
    conn: &mut Db,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<PersonalToken>> {
    personal_tokens::table
        .filter(personal_tokens::token_hash.eq(token_hash))
        .filter(personal_tokens::revoked_at.is_null())
        .filter(
            personal_tokens::expires_at
                .is_null()
                .or(personal_tokens::expires_at.gt(now)),
        )
        .select(PersonalToken::as_select())
        .first(conn)
        .optional()
}

/// Records a use at `now`, unless one was recorded within [`LAST_USED_RESOLUTION`].
pub fn touch_last_used(
    conn: &mut Db,
    token: &PersonalToken,
    now: NaiveDateTime,
) -> QueryResult<()> {
    if token
        .last_used_at
        .is_some_and(|at| at >= now - LAST_USED_RESOLUTION)
    {
        return Ok(());
    }
    diesel::update(personal_tokens::table.filter(personal_tokens::id.eq(&token.id)))
        .set(personal_tokens::last_used_at.eq(now))
        .execute(conn)
        .map(|_| ())
}

/// Revokes `user_id`'s token `id`; the rows changed (0 when unknown, another person's, or
/// already revoked).
pub fn revoke(conn: &mut Db, user_id: &str, id: &str, now: NaiveDateTime) -> QueryResult<usize> {
    // The account's live streams check their credential once this commits (crate::live).
    crate::live::marks::owner(user_id);
    diesel::update(
        personal_tokens::table
            .filter(personal_tokens::id.eq(id))
            .filter(personal_tokens::user_id.eq(user_id))
            .filter(personal_tokens::revoked_at.is_null()),
    )
    .set(personal_tokens::revoked_at.eq(now))
    .execute(conn)
}

/// Whether `user_id` has (or had) a token `id`.
pub fn exists(conn: &mut Db, user_id: &str, id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        personal_tokens::table
            .filter(personal_tokens::id.eq(id))
            .filter(personal_tokens::user_id.eq(user_id)),
    ))
    .get_result(conn)
}
