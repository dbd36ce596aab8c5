//! Table definitions for both backends (one file; the migrations in `migrations/postgres` and
//! `migrations/sqlite` must produce exactly these tables and columns, which a black-box test
//! checks). Column types stay in the common subset: Text ids, Timestamp (UTC), JSON as Text.

diesel::table! {
    /// Accounts.
    users (id) {
        /// UUID as text.
        id -> Text,
        /// The name as registered.
        username -> Text,
        /// Lowercased name; unique, so names differing only in case collide.
        username_lower -> Text,
        /// Argon2id PHC string.
        password_hash -> Text,
        /// Creation time, UTC.
        created_at -> Timestamp,
    }
}
