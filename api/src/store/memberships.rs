//! Campaign memberships: who belongs to which campaign, as organiser or player.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use crate::db::Db;
use crate::schema::{memberships, users};

/// A member's role in a campaign. Stored as its `snake_case` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Runs the campaign: settings, invitations, keys, members. Exactly one per campaign.
    Organiser,
    /// Plays in the campaign.
    Player,
}

impl Role {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Organiser => "organiser",
            Self::Player => "player",
        }
    }

    /// Reads a stored name; anything but `organiser` is the least privileged role.
    pub fn from_stored(name: &str) -> Self {
        if name == "organiser" {
            Self::Organiser
        } else {
            Self::Player
        }
    }
}

/// A membership row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = memberships)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Membership {
    /// The campaign.
    pub campaign_id: String,
    /// The member.
    pub user_id: String,
    /// The role's stored name; read it with [`Membership::role`].
    pub role: String,
    /// When the user joined (UTC).
    pub joined_at: NaiveDateTime,
}

impl Membership {
    /// A new membership.
    pub fn new(campaign_id: &str, user_id: &str, role: Role, joined_at: NaiveDateTime) -> Self {
        Self {
            campaign_id: campaign_id.to_owned(),
            user_id: user_id.to_owned(),
            role: role.as_str().to_owned(),
            joined_at,
        }
    }

    /// The member's role.
    pub fn role(&self) -> Role {
        Role::from_stored(&self.role)
    }
}

/// Inserts a membership; an existing one fails with a unique (primary key) violation.
pub fn insert(conn: &mut Db, membership: &Membership) -> QueryResult<()> {
    diesel::insert_into(memberships::table)
        .values(membership)
        .execute(conn)
        .map(|_| ())
}

/// `user_id`'s membership of `campaign_id`, if any.
pub fn find(conn: &mut Db, campaign_id: &str, user_id: &str) -> QueryResult<Option<Membership>> {
    crate::on_backend!(conn, |conn| memberships::table
        .find((campaign_id, user_id))
        .select(Membership::as_select())
        .first(conn)
        .optional())
}

/// The sort key of the member list: (is the organiser, joined at, user id).
pub type MemberKey = (bool, NaiveDateTime, String);

impl Membership {
    /// This member's place in [`list_with_usernames`].
    pub fn key(&self) -> MemberKey {
        (
            self.role() == Role::Organiser,
            self.joined_at,
            self.user_id.clone(),
        )
    }
}

/// A member's `(username, display_name)`.
pub type MemberNames = (String, Option<String>);

/// Up to `limit` members of a campaign with their names, organiser first, then by join
/// time (ties by user id), after the member whose key is `after`.
pub fn list_with_usernames(
    conn: &mut Db,
    campaign_id: &str,
    after: Option<&MemberKey>,
    limit: i64,
) -> QueryResult<Vec<(Membership, MemberNames)>> {
    let organiser = Role::Organiser.as_str();
    let mut query = memberships::table
        .inner_join(users::table)
        .filter(memberships::campaign_id.eq(campaign_id))
        .order((
            memberships::role.eq(organiser).desc(),
            memberships::joined_at.asc(),
            memberships::user_id.asc(),
        ))
        .select((
            Membership::as_select(),
            (users::username, users::display_name),
        ))
        .limit(limit)
        .into_boxed();
    // A campaign has exactly one organiser, and it comes first: after it, every player follows.
    match after {
        None => {}
        Some((true, _, _)) => query = query.filter(memberships::role.ne(organiser)),
        Some((false, at, user_id)) => {
            query = query.filter(memberships::role.ne(organiser)).filter(
                memberships::joined_at.gt(at).or(memberships::joined_at
                    .eq(at)
                    .and(memberships::user_id.gt(user_id))),
            );
        }
    }
    query.load(conn)
}

/// One member of a campaign with their username.
pub fn find_with_username(
    conn: &mut Db,
    campaign_id: &str,
    user_id: &str,
) -> QueryResult<Option<(Membership, MemberNames)>> {
    memberships::table
        .inner_join(users::table)
        .filter(memberships::campaign_id.eq(campaign_id))
        .filter(memberships::user_id.eq(user_id))
        .select((
            Membership::as_select(),
            (users::username, users::display_name),
        ))
        .first(conn)
        .optional()
}

/// Sets a member's role; returns the number of rows changed (0 or 1).
pub fn set_role(conn: &mut Db, campaign_id: &str, user_id: &str, role: Role) -> QueryResult<usize> {
    // Their open battle streams check their access again (a role decides what they see).
    crate::live::marks::owner(user_id);
    diesel::update(memberships::table.find((campaign_id, user_id)))
        .set(memberships::role.eq(role.as_str()))
        .execute(conn)
}

/// Removes a membership; returns the number of rows removed (0 or 1).
pub fn delete(conn: &mut Db, campaign_id: &str, user_id: &str) -> QueryResult<usize> {
    // Their open battle streams end at once (see `set_role`).
    crate::live::marks::owner(user_id);
    diesel::delete(memberships::table.find((campaign_id, user_id))).execute(conn)
}
