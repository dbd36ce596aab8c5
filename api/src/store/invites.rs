//! Invitation codes: created by a campaign's organiser, stored as SHA-256, used by `join`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::invites;
use crate::store::CreatedKey;

/// An invitation row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = invites)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Invite {
    /// The invitation id (UUID text).
    pub id: String,
    /// The campaign it joins.
    pub campaign_id: String,
    /// SHA-256 hex of the code.
    pub code_hash: String,
    /// The organiser who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// After this time the code no longer works (UTC).
    pub expires_at: NaiveDateTime,
    /// How many times the code may be used; `None` for no limit.
    pub max_uses: Option<i32>,
    /// How many times it has been used.
    pub uses: i32,
    /// When it was revoked, if it was.
    pub revoked_at: Option<NaiveDateTime>,
}

impl Invite {
    /// Whether the code still lets someone join at `now`.
    pub fn is_usable(&self, now: NaiveDateTime) -> bool {
        self.revoked_at.is_none()
            && now < self.expires_at
            && self.max_uses.is_none_or(|max| self.uses < max)
    }
}

/// Inserts an invitation.
pub fn insert(conn: &mut Db, invite: &Invite) -> QueryResult<()> {
    diesel::insert_into(invites::table)
        .values(invite)
        .execute(conn)
        .map(|_| ())
}

/// Up to `limit` of a campaign's invitations, newest first (ties by id), after the one whose
/// key is `after`.
pub fn list_for_campaign(
    conn: &mut Db,
    campaign_id: &str,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<Invite>> {
    let mut query = invites::table
        .filter(invites::campaign_id.eq(campaign_id))
        .order((invites::created_at.desc(), invites::id.asc()))
        .select(Invite::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            invites::created_at
                .lt(at)
                .or(invites::created_at.eq(at).and(invites::id.gt(id))),
        );
    }
    query.load(conn)
}

/// The invitation of `campaign_id` with id `id`.
pub fn find_in_campaign(conn: &mut Db, campaign_id: &str, id: &str) -> QueryResult<Option<Invite>> {
    invites::table
        .filter(invites::id.eq(id))
        .filter(invites::campaign_id.eq(campaign_id))
        .select(Invite::as_select())
        .first(conn)
        .optional()
}

/// The invitation whose code hashes to `code_hash`.
pub fn find_by_code_hash(conn: &mut Db, code_hash: &str) -> QueryResult<Option<Invite>> {
    invites::table
        .filter(invites::code_hash.eq(code_hash))
        .select(Invite::as_select())
        .first(conn)
        .optional()
}

/// Counts one use of a usable invitation. The check and the increment are one `UPDATE`, so
/// two people racing for the last use cannot both get it. Returns whether the use was counted.
pub fn claim_use(conn: &mut Db, id: &str, now: NaiveDateTime) -> QueryResult<bool> {
    let changed = diesel::update(
        invites::table
            .filter(invites::id.eq(id))
            .filter(invites::revoked_at.is_null())
            .filter(invites::expires_at.gt(now))
            .filter(
                invites::max_uses
                    .is_null()
                    .or(invites::uses.lt(invites::max_uses.assume_not_null())),
            ),
    )
    .set(invites::uses.eq(invites::uses + 1))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Revokes an invitation of `campaign_id`; returns the number of rows changed (0 when unknown,
/// of another campaign, or already revoked).
pub fn revoke(
    conn: &mut Db,
    campaign_id: &str,
    id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        invites::table
            .filter(invites::id.eq(id))
            .filter(invites::campaign_id.eq(campaign_id))
            .filter(invites::revoked_at.is_null()),
    )
    .set(invites::revoked_at.eq(now))
    .execute(conn)
}
