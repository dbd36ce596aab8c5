//! Counts behind the abuse quotas ([`crate::quota`]): run inside the write's transaction, so
//! every process of the service sees the same numbers.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{battles, campaigns, forces, scenarios};

/// Takes PostgreSQL's transaction-scoped advisory lock `(namespace, hashtext(key))`: held until
/// the caller's transaction ends, so a second transaction counting the same quota waits for the
/// first one's insert to commit. SQLite needs none (its writers run one at a time).
pub fn lock(conn: &mut Db, namespace: i32, key: &str) -> QueryResult<()> {
    if let Db::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind::<diesel::sql_types::Integer, _>(namespace)
            .bind::<diesel::sql_types::Text, _>(key)
            .execute(pg)?;
    }
    Ok(())
}

/// Forces of a campaign, archived ones included (they keep their storage).
pub fn forces_in_campaign(conn: &mut Db, campaign_id: &str) -> QueryResult<i64> {
    forces::table
        .filter(forces::campaign_id.eq(campaign_id))
        .select(count_star())
        .first(conn)
}

/// Campaigns an account has created.
pub fn campaigns_created_by(conn: &mut Db, user_id: &str) -> QueryResult<i64> {
    campaigns::table
        .filter(campaigns::created_by.eq(user_id))
        .select(count_star())
        .first(conn)
}

// The windowed quotas ask for the `nth` newest write in the window instead of counting them
// all: at most `nth` index entries are read, however many writes a window holds (counting
// read every one, so a busy account's every write grew slower).

/// The creation time of the `nth` newest (1 = newest) battle of a campaign created after
/// `since`; `None` when it has fewer.
pub fn nth_newest_battle_since(
    conn: &mut Db,
    campaign_id: &str,
    since: NaiveDateTime,
    nth: u32,
) -> QueryResult<Option<NaiveDateTime>> {
    battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .filter(battles::created_at.gt(since))
        .order(battles::created_at.desc())
        .offset(i64::from(nth.saturating_sub(1)))
        .select(battles::created_at)
        .first(conn)
        .optional()
}

/// The creation time of the `nth` newest (1 = newest) one-shot scenario an account generated
/// after `since`; `None` when it has fewer.
pub fn nth_newest_scenario_since(
    conn: &mut Db,
    user_id: &str,
    since: NaiveDateTime,
    nth: u32,
) -> QueryResult<Option<NaiveDateTime>> {
    scenarios::table
        .filter(scenarios::created_by.eq(user_id))
        .filter(scenarios::created_at.gt(since))
        .order(scenarios::created_at.desc())
        .offset(i64::from(nth.saturating_sub(1)))
        .select(scenarios::created_at)
        .first(conn)
        .optional()
}

/// The creation time of the `nth` newest (1 = newest) one-shot scenario generated signed out
/// from the client whose keyed address hash is `client_hash` after `since`; `None` when it has
/// fewer.
pub fn nth_newest_anonymous_scenario_since(
    conn: &mut Db,
    client_hash: &str,
    since: NaiveDateTime,
    nth: u32,
) -> QueryResult<Option<NaiveDateTime>> {
    scenarios::table
        .filter(scenarios::client_hash.eq(client_hash))
        .filter(scenarios::created_at.gt(since))
        .order(scenarios::created_at.desc())
        .offset(i64::from(nth.saturating_sub(1)))
        .select(scenarios::created_at)
        .first(conn)
        .optional()
}
