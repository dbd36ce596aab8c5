//! Integration keys: read-only, one campaign each, stored as SHA-256 with `last_used_at`.

use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::api_keys;
use crate::store::CreatedKey;

/// `last_used_at` is refreshed at most this often, so reads do not all write.
pub const LAST_USED_RESOLUTION: TimeDelta = TimeDelta::seconds(60);

/// An integration key, without its hash.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = api_keys)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct ApiKey {
    /// The key id (UUID text).
    pub id: String,
    /// The one campaign it may read.
    pub campaign_id: String,
    /// The organiser's name for it ("club website").
    pub name: String,
    /// The first characters of the key, to tell keys apart.
    pub key_prefix: String,
    /// The organiser who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last use (UTC, to the minute), if ever used.
    pub last_used_at: Option<NaiveDateTime>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<NaiveDateTime>,
}

/// A new key row.
#[derive(Insertable)]
#[diesel(table_name = api_keys)]
pub struct NewApiKey<'a> {
    /// The key id (UUID text).
    pub id: &'a str,
    /// The campaign.
    pub campaign_id: &'a str,
    /// Its name.
    pub name: &'a str,
    /// SHA-256 hex of the key.
    pub key_hash: &'a str,
    /// The first characters of the key.
    pub key_prefix: &'a str,
    /// The organiser creating it.
    pub created_by: &'a str,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
}

/// Inserts a key.
pub fn insert(conn: &mut Db, key: &NewApiKey<'_>) -> QueryResult<()> {
    diesel::insert_into(api_keys::table)
        .values(key)
        .execute(conn)
        .map(|_| ())
}

/// Up to `limit` of a campaign's keys (revoked ones too), newest first (ties by id), after the
/// one whose key is `after`.
pub fn list_for_campaign(
    conn: &mut Db,
    campaign_id: &str,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<ApiKey>> {
    let mut query = api_keys::table
        .filter(api_keys::campaign_id.eq(campaign_id))
        .order((api_keys::created_at.desc(), api_keys::id.asc()))
        .select(ApiKey::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            api_keys::created_at
                .lt(at)
                .or(api_keys::created_at.eq(at).and(api_keys::id.gt(id))),
        );
    }
    query.load(conn)
}

/// The key of `campaign_id` with id `id`.
pub fn find_in_campaign(conn: &mut Db, campaign_id: &str, id: &str) -> QueryResult<Option<ApiKey>> {
    api_keys::table
        .filter(api_keys::id.eq(id))
        .filter(api_keys::campaign_id.eq(campaign_id))
        .select(ApiKey::as_select())
        .first(conn)
        .optional()
}

/// The key that is not revoked and whose hash is `key_hash`.
pub fn find_active_by_hash(conn: &mut Db, key_hash: &str) -> QueryResult<Option<ApiKey>> {
    api_keys::table
        .filter(api_keys::key_hash.eq(key_hash))
        .filter(api_keys::revoked_at.is_null())
        .select(ApiKey::as_select())
        .first(conn)
        .optional()
}

/// Whether a use at `now` should be recorded: none is, or the last is older than
/// [`LAST_USED_RESOLUTION`].
pub fn use_is_stale(key: &ApiKey, now: NaiveDateTime) -> bool {
    key.last_used_at
        .is_none_or(|at| at < now - LAST_USED_RESOLUTION)
}

/// Records a use at `now`, unless one was recorded within [`LAST_USED_RESOLUTION`].
pub fn touch_last_used(conn: &mut Db, id: &str, now: NaiveDateTime) -> QueryResult<usize> {
    let stale_before = now - LAST_USED_RESOLUTION;
    diesel::update(
        api_keys::table.filter(api_keys::id.eq(id)).filter(
            api_keys::last_used_at
                .is_null()
                .or(api_keys::last_used_at.lt(stale_before)),
        ),
    )
    .set(api_keys::last_used_at.eq(now))
    .execute(conn)
}

/// Revokes a key of `campaign_id`; returns the number of rows changed (0 when unknown, of
/// another campaign, or already revoked).
pub fn revoke(
    conn: &mut Db,
    campaign_id: &str,
    id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    // Streams opened with the key end once this commits (crate::live).
    crate::live::marks::owner(id);
    diesel::update(
        api_keys::table
            .filter(api_keys::id.eq(id))
            .filter(api_keys::campaign_id.eq(campaign_id))
            .filter(api_keys::revoked_at.is_null()),
    )
    .set(api_keys::revoked_at.eq(now))
    .execute(conn)
}
