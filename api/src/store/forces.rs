//! Forces (rosters; docs/rules.md §1, §4): one row per force with the roster as
//! JSON text and an optimistic-concurrency `version`.
//!
//! Every roster change goes through [`insert`], [`replace_roster_if_version`] or
//! [`replace_roster_from`], which write the
//! history entry ([`super::history`]) in the same transaction, so a force's history is complete.
//! The version check is in SQL (`UPDATE … WHERE id = ? AND version = ?`), never an in-memory
//! lock: several server processes may share one database.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use fad_domain::dice::RollLog;
use fad_domain::roster::Force as Roster;

use crate::db::Db;
use crate::schema::{campaigns, force_ledger, forces, memberships, users, web_sessions};
use crate::store::CreatedKey;
use crate::store::memberships::{MemberNames, Membership};

use super::doc::{self, DocError};
use super::history::{self, HistoryCause};

/// A force row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = forces)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Force {
    /// The force id (UUID text).
    pub id: String,
    /// The campaign it belongs to.
    pub campaign_id: String,
    /// The user who owns it.
    pub owner_id: String,
    /// Its name (a copy of the roster's, for listings).
    pub name: String,
    /// The roster as a stored document ([`super::doc`]); read it with [`Force::roster`], write
    /// it with [`roster_text`].
    pub roster: String,
    /// Optimistic-concurrency version, starting at 1.
    pub version: i64,
    /// When it was archived, if it was.
    pub archived_at: Option<NaiveDateTime>,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

impl Force {
    /// The roster.
    pub fn roster(&self) -> Result<Roster, DocError> {
        doc::decode(&self.roster)
    }

    /// Each unit's id and name, in roster order: what a page that names units needs. A roster
    /// in today's format is read for those two fields only (its kit, ladders and traits are
    /// skipped unparsed); an older one through [`Force::roster`].
    pub fn unit_names(&self) -> Result<Vec<(String, String)>, DocError> {
        #[derive(serde::Deserialize)]
        struct Names {
            platoons: Vec<PlatoonNames>,
        }
        #[derive(serde::Deserialize)]
        struct PlatoonNames {
            units: Vec<UnitName>,
        }
        #[derive(serde::Deserialize)]
        struct UnitName {
            id: String,
            name: String,
        }
        if doc::in_format(&self.roster, <Roster as doc::StoredDoc>::VERSION) {
            if let Ok(names) = serde_json::from_str::<Names>(&self.roster) {
                return Ok(names
                    .platoons
                    .into_iter()
                    .flat_map(|p| p.units)
                    .map(|u| (u.id, u.name))
                    .collect());
            }
        }
        Ok(self
            .roster()?
            .platoons
            .into_iter()
            .flat_map(|p| p.units)
            .map(|u| (u.id, u.name))
            .collect())
    }
}

/// A roster as stored (see [`Force::roster`]).
pub fn roster_text(roster: &Roster) -> Result<String, DocError> {
    doc::encode(roster)
}

fn stored_roster(roster: &Roster) -> QueryResult<String> {
    roster_text(roster).map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
}

pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> QueryResult<String> {
    serde_json::to_string(value).map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
}

/// Inserts a new force at version 1 with its first history entry (`cause`, e.g. `create`,
/// `generation` with its `rolls`, `import`). Validate the roster first.
pub fn insert(
    conn: &mut Db,
    force: &Force,
    roster: &Roster,
    cause: &HistoryCause,
    rolls: &RollLog,
) -> QueryResult<()> {
    diesel::insert_into(forces::table)
        .values(force)
        .execute(conn)?;
    let diff = history::diff(None, roster);
    history::append(
        conn,
        &force.id,
        force.version,
        force.created_at,
        cause,
        &diff,
        rolls,
        roster,
    )
}

/// The force with id `id`, archived or not. Authorize with its `campaign_id` before showing it.
pub fn find_by_id(conn: &mut Db, id: &str) -> QueryResult<Option<Force>> {
    crate::on_backend!(conn, |conn| forces::table
        .find(id)
        .select(Force::as_select())
        .first(conn)
        .optional())
}

/// The forces with these ids that exist, in no particular order (one statement).
pub fn find_many(conn: &mut Db, ids: &[String]) -> QueryResult<Vec<Force>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    crate::on_backend!(conn, |conn| forces::table
        .filter(forces::id.eq_any(ids.to_vec()))
        .select(Force::as_select())
        .load(conn))
}

/// The force with id `id` and, in the same statement, `user_id`'s membership of its campaign
/// (`None` when not a member): what [`crate::auth::access_with_membership`] needs.
pub fn find_with_membership(
    conn: &mut Db,
    id: &str,
    user_id: &str,
) -> QueryResult<Option<(Force, Option<Membership>)>> {
    forces::table
        .left_join(
            memberships::table.on(memberships::campaign_id
                .eq(forces::campaign_id)
                .and(memberships::user_id.eq(user_id))),
        )
        .filter(forces::id.eq(id))
        .select((Force::as_select(), Option::<Membership>::as_select()))
        .first(conn)
        .optional()
}

/// The force with id `id`, `user_id`'s membership of its campaign (`None` when not a member,
/// or for an integration key's empty id), its owner's names and its campaign's settings (the
/// rules it is read under), in one statement.
#[allow(clippy::type_complexity)]
pub fn find_named(
    conn: &mut Db,
    id: &str,
    user_id: &str,
) -> QueryResult<Option<(Force, Option<Membership>, MemberNames, String)>> {
    // Written out per backend: a select clause is typed by its backend.
    crate::on_backend!(conn, |conn| forces::table
        .inner_join(users::table.on(users::id.eq(forces::owner_id)))
        .inner_join(campaigns::table.on(campaigns::id.eq(forces::campaign_id)))
        .left_join(
            memberships::table.on(memberships::campaign_id
                .eq(forces::campaign_id)
                .and(memberships::user_id.eq(user_id))),
        )
        .filter(forces::id.eq(id))
        .select((
            Force::as_select(),
            Option::<Membership>::as_select(),
            (users::username, users::display_name),
            campaigns::settings,
        ))
        .first(conn)
        .optional())
}

/// The balance of force `id`'s newest ledger entry, as a subquery (`NULL` without entries).
#[diesel::dsl::auto_type(no_type_alias)]
fn newest_balance<'a>(id: &'a str) -> _ {
    force_ledger::table
        .filter(force_ledger::force_id.eq(id))
        .order(force_ledger::seq.desc())
        .limit(1_i64)
        .select(force_ledger::balance)
        .single_value()
}

/// [`find_named`] with the force's campaign-point balance (its newest ledger entry's; `None`
/// without entries), still one statement.
#[allow(clippy::type_complexity)]
pub fn find_named_with_balance(
    conn: &mut Db,
    id: &str,
    user_id: &str,
) -> QueryResult<Option<(Force, Option<Membership>, MemberNames, Option<i64>)>> {
    let balance = newest_balance(id);
    crate::on_backend!(conn, |conn| forces::table
        .inner_join(users::table.on(users::id.eq(forces::owner_id)))
        .left_join(
            memberships::table.on(memberships::campaign_id
                .eq(forces::campaign_id)
                .and(memberships::user_id.eq(user_id))),
        )
        .filter(forces::id.eq(id))
        .select((
            Force::as_select(),
            Option::<Membership>::as_select(),
            (users::username, users::display_name),
            balance,
        ))
        .first(conn)
        .optional())
}

/// What [`find_named_for_session`] reads: the force, the session user's membership of its
/// campaign, its owner's names, its balance, and the session's user id and username (`None`
/// when the session is not live).
pub type ForceForSession = (
    Force,
    Option<Membership>,
    MemberNames,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// [`find_named_with_balance`] for the holder of the session `session_hash`, with the session
/// read in the same statement (`None` only when there is no such force).
pub fn find_named_for_session(
    conn: &mut Db,
    id: &str,
    session_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<ForceForSession>> {
    let live_session = || {
        web_sessions::table
            .filter(web_sessions::id_hash.eq(session_hash))
            .filter(web_sessions::expires_at.gt(now))
    };
    let balance = newest_balance(id);
    // The session's user is another row of `users` than the owner's.
    let session_users = diesel::alias!(users as session_users);
    let session_username = session_users
        .filter(
            session_users
                .field(users::id)
                .nullable()
                .eq(live_session().select(web_sessions::user_id).single_value()),
        )
        .select(session_users.field(users::username))
        .single_value();
    // Written out per backend: a select clause is typed by its backend. The subqueries are
    // built once per arm as well (they move into the query).
    crate::on_backend!(conn, |conn| forces::table
        .inner_join(users::table.on(users::id.eq(forces::owner_id)))
        .left_join(
            memberships::table.on(memberships::campaign_id.eq(forces::campaign_id).and(
                memberships::user_id
                    .nullable()
                    .eq(live_session().select(web_sessions::user_id).single_value()),
            )),
        )
        .filter(forces::id.eq(id))
        .select((
            Force::as_select(),
            Option::<Membership>::as_select(),
            (users::username, users::display_name),
            balance,
            live_session().select(web_sessions::user_id).single_value(),
            session_username,
        ))
        .first(conn)
        .optional())
}

/// Up to `limit` forces of a campaign with their owners' names, oldest first (ties by id),
/// after the force whose key is `after`; archived ones only when `include_archived`.
pub fn list_for_campaign(
    conn: &mut Db,
    campaign_id: &str,
    include_archived: bool,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<(Force, MemberNames)>> {
    let mut query = forces::table
        .inner_join(users::table.on(users::id.eq(forces::owner_id)))
        .filter(forces::campaign_id.eq(campaign_id))
        .select((Force::as_select(), (users::username, users::display_name)))
        .order((forces::created_at.asc(), forces::id.asc()))
        .limit(limit)
        .into_boxed();
    if !include_archived {
        query = query.filter(forces::archived_at.is_null());
    }
    if let Some((at, id)) = after {
        query = query.filter(
            forces::created_at
                .gt(at)
                .or(forces::created_at.eq(at).and(forces::id.gt(id))),
        );
    }
    query.load(conn)
}

/// Replaces the roster when the stored version is `expected_version`, and records the change
/// (per-unit diff against the stored roster, `cause`, `rolls`, snapshot) in the history, in the
/// caller's transaction. Returns the updated force, or `None` when the version is stale or the
/// force is gone (nothing is written then). Validate `roster` first.
///
/// This and [`replace_roster_from`] are the one way to change a roster: edits, battle losses,
/// aftermath, purchases.
pub fn replace_roster_if_version(
    conn: &mut Db,
    force_id: &str,
    expected_version: i64,
    roster: &Roster,
    cause: &HistoryCause,
    rolls: &RollLog,
    now: NaiveDateTime,
) -> QueryResult<Option<Force>> {
    let Some(current) = find_by_id(conn, force_id)? else {
        return Ok(None);
    };
    if current.version != expected_version {
        return Ok(None);
    }
    let before = current
        .roster()
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
    let changed = replace_roster_from(
        conn,
        force_id,
        expected_version,
        &before,
        roster,
        None,
        cause,
        rolls,
        now,
    )?;
    if !changed {
        return Ok(None);
    }
    find_by_id(conn, force_id)
}

/// [`replace_roster_if_version`] for a caller that already holds the roster as it was at
/// `expected_version` (`before`, e.g. a battle-start snapshot taken with its version): two
/// statements, the version-checked `UPDATE` and the history entry, and no read. Every roster
/// change bumps the version, so the version check also proves `before` is what is replaced.
/// Returns false (nothing written) when the version is stale or the force is gone.
#[expect(
    clippy::too_many_arguments,
    reason = "the roster change and its history entry's columns"
)]
pub fn replace_roster_from(
    conn: &mut Db,
    force_id: &str,
    expected_version: i64,
    before: &Roster,
    roster: &Roster,
    stored: Option<String>,
    cause: &HistoryCause,
    rolls: &RollLog,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    // `stored`: `roster` as stored, when the caller wrote it out already.
    let json = match stored {
        Some(json) => json,
        None => stored_roster(roster)?,
    };
    let changed = crate::on_backend!(conn, |conn| diesel::update(
        forces::table
            .filter(forces::id.eq(force_id))
            .filter(forces::version.eq(expected_version)),
    )
    .set((
        forces::roster.eq(&json),
        forces::name.eq(&roster.name),
        forces::version.eq(expected_version + 1),
        forces::updated_at.eq(now),
    ))
    .execute(conn))?;
    if changed == 0 {
        return Ok(false);
    }
    let mut diff = history::diff(Some(before), roster);
    diff.reason.clone_from(&cause.reason);
    history::append_stored(
        conn,
        force_id,
        expected_version + 1,
        now,
        cause,
        &diff,
        rolls,
        json,
    )?;
    Ok(true)
}

/// Archives the force when the stored version is `expected_version` (bumping it and recording
/// an `archive` history entry). `None` when stale or gone.
pub fn archive_if_version(
    conn: &mut Db,
    force_id: &str,
    expected_version: i64,
    cause: &HistoryCause,
    now: NaiveDateTime,
) -> QueryResult<Option<Force>> {
    let Some(current) = find_by_id(conn, force_id)? else {
        return Ok(None);
    };
    let roster = current
        .roster()
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
    let changed = diesel::update(
        forces::table
            .filter(forces::id.eq(force_id))
            .filter(forces::version.eq(expected_version)),
    )
    .set((
        forces::archived_at.eq(Some(now)),
        forces::version.eq(expected_version + 1),
        forces::updated_at.eq(now),
    ))
    .execute(conn)?;
    if changed == 0 {
        return Ok(None);
    }
    let diff = history::RosterDiff::default();
    history::append(
        conn,
        force_id,
        expected_version + 1,
        now,
        cause,
        &diff,
        &Vec::new(),
        &roster,
    )?;
    find_by_id(conn, force_id)
}

/// The owners' names of the forces `ids`, as `(force id, names)`, in one statement.
pub fn owner_names(conn: &mut Db, ids: &[&str]) -> QueryResult<Vec<(String, MemberNames)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    crate::on_backend!(conn, |conn| forces::table
        .inner_join(users::table.on(users::id.eq(forces::owner_id)))
        .filter(forces::id.eq_any(ids))
        .select((forces::id, (users::username, users::display_name)))
        .load(conn))
}

/// Whether `user_id` owns a force of the campaign (archived ones included).
pub fn owns_any_in_campaign(conn: &mut Db, campaign_id: &str, user_id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        forces::table
            .filter(forces::campaign_id.eq(campaign_id))
            .filter(forces::owner_id.eq(user_id)),
    ))
    .get_result(conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn stored(roster: String) -> Force {
        let at = NaiveDate::from_ymd_opt(2026, 3, 4)
            .unwrap()
            .and_hms_opt(5, 6, 7)
            .unwrap();
        Force {
            id: "f1".to_owned(),
            campaign_id: "c1".to_owned(),
            owner_id: "o1".to_owned(),
            name: "Alpha".to_owned(),
            roster,
            version: 1,
            archived_at: None,
            created_at: at,
            updated_at: at,
        }
    }

    fn roster() -> Roster {
        let unit = |id: &str, name: &str| {
            serde_json::json!({"id": id, "name": name, "kind": "squad", "quality": "elite",
                "resolve": "steady", "strength": 6, "starting_strength": 8, "armour": "improved",
                "basic_weapon": "assault_rifles", "traits": ["brave"]})
        };
        serde_json::from_value(serde_json::json!({"name": "Alpha", "platoons": [
            {"name": "One", "units": [unit("a", "Squad \"A\""), unit("b", "Squad B")]},
            {"name": "Two", "units": [unit("c", "Squad C \u{e9}")]}]}))
        .unwrap()
    }

    fn names_of(roster: &Roster) -> Vec<(String, String)> {
        roster
            .units()
            .map(|u| (u.id.clone(), u.name.clone()))
            .collect()
    }

    #[test]
    fn unit_names_are_the_full_reads_names_in_todays_format_and_an_older_one() {
        let roster = roster();
        let today = stored(roster_text(&roster).unwrap());
        assert!(doc::in_format(
            &today.roster,
            <Roster as doc::StoredDoc>::VERSION
        ));
        assert_eq!(today.unit_names().unwrap(), names_of(&roster));
        assert_eq!(today.unit_names().unwrap()[2].1, "Squad C \u{e9}");
        // A roster stored before the format field (version 1) goes through the full read.
        let older = stored(serde_json::to_string(&roster).unwrap());
        assert!(!doc::in_format(
            &older.roster,
            <Roster as doc::StoredDoc>::VERSION
        ));
        assert_eq!(older.unit_names().unwrap(), names_of(&roster));
    }

    #[test]
    fn unit_names_of_a_document_that_does_not_read_is_an_error() {
        assert!(
            stored("{\"v\":2,\"platoons\":7}".to_owned())
                .unit_names()
                .is_err()
        );
    }
}
