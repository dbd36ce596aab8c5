//! Accounts (`users` table): insert and look-ups by id and by case-insensitive name.

use crate::db::Db;
use crate::schema::users;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// One account row.
#[derive(Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = users, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct User {
    /// UUID text.
    pub id: String,
    /// Name as registered.
    pub username: String,
    /// Lowercased name (unique).
    pub username_lower: String,
    /// Argon2id PHC string.
    pub password_hash: String,
    /// Creation time, UTC, microseconds.
    pub created_at: NaiveDateTime,
    /// The name other players see; `None` shows the username.
    pub display_name: Option<String>,
}

impl User {
    /// The name other players see: the display name, or else the username.
    pub fn shown_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.username)
    }
}

impl std::fmt::Debug for User {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The hash stays out of logs.
        f.debug_struct("User")
            .field("id", &self.id)
            .field("username", &self.username)
            .field("created_at", &self.created_at)
            .finish_non_exhaustive()
    }
}

/// The columns of [`User`], for `RETURNING` (the table has more: `credentials_version` is read
/// on its own).
const USER_COLUMNS: (
    users::id,
    users::username,
    users::username_lower,
    users::password_hash,
    users::created_at,
    users::display_name,
) = (
    users::id,
    users::username,
    users::username_lower,
    users::password_hash,
    users::created_at,
    users::display_name,
);

/// Inserts `user` and returns the stored row. A taken name is a `UniqueViolation` on
/// `users_username_lower_key` (→ 409 through `ApiError`).
pub fn insert(conn: &mut Db, user: &User) -> QueryResult<User> {
    diesel::insert_into(users::table)
        .values(user)
        .returning(USER_COLUMNS)
        .get_result(conn)
}

/// The user with `id`, if any.
pub fn find_by_id(conn: &mut Db, id: &str) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

/// The credentials generation of the user with `id` (`None`: no such user), one primary-key
/// look-up.
pub fn credentials_version(conn: &mut Db, id: &str) -> QueryResult<Option<i64>> {
    users::table
        .find(id)
        .select(users::credentials_version)
        .first(conn)
        .optional()
}

/// Whether a user with `id` exists (one primary-key look-up).
pub fn exists(conn: &mut Db, id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(users::table.find(id))).get_result(conn)
}

/// The user whose name equals `username` ignoring case, if any.
pub fn find_by_username(conn: &mut Db, username: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::username_lower.eq(username.to_lowercase()))
        .select(User::as_select())
        .first(conn)
        .optional()
}

/// Replaces the password hash of the user whose name equals `username` ignoring case and starts
/// a new credentials generation (every access token issued before is refused); returns the
/// number of rows changed (0 when there is no such user).
pub fn set_password_hash(conn: &mut Db, username: &str, password_hash: &str) -> QueryResult<usize> {
    diesel::update(users::table.filter(users::username_lower.eq(username.to_lowercase())))
        .set((
            users::password_hash.eq(password_hash),
            users::credentials_version.eq(users::credentials_version + 1),
        ))
        .execute(conn)
}

/// Sets (or, with `None`, clears) the display name of user `id`; returns the updated row.
pub fn set_display_name(
    conn: &mut Db,
    id: &str,
    display_name: Option<&str>,
) -> QueryResult<Option<User>> {
    diesel::update(users::table.find(id))
        .set(users::display_name.eq(display_name))
        .returning(USER_COLUMNS)
        .get_result(conn)
        .optional()
}

/// The name other players see for a joined `(username, display_name)` pair.
pub fn shown(username: String, display_name: Option<String>) -> String {
    display_name.unwrap_or(username)
}
