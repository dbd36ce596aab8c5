//! Counts behind the abuse quotas ([`crate::quota`]): run inside the write's transaction, so
//! every process of the service sees the same numbers.

use chrono::NaiveDateTime;
use diesel::dsl::{count_star, min};
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{battles, campaigns, forces, scenarios};

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

/// Battles of a campaign created after `since`, and the oldest such creation time.
pub fn battles_since(
    conn: &mut Db,
    campaign_id: &str,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .filter(battles::created_at.gt(since))
        .select((count_star(), min(battles::created_at)))
        .first(conn)
}

/// One-shot scenarios an account generated after `since`, and the oldest such creation time.
pub fn scenarios_since(
    conn: &mut Db,
    user_id: &str,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    scenarios::table
        .filter(scenarios::created_by.eq(user_id))
        .filter(scenarios::created_at.gt(since))
        .select((count_star(), min(scenarios::created_at)))
        .first(conn)
}

/// One-shot scenarios generated signed out from the client whose keyed address hash is
/// `client_hash` after `since`, and the oldest such creation time.
pub fn anonymous_scenarios_since(
    conn: &mut Db,
    client_hash: &str,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    scenarios::table
        .filter(scenarios::client_hash.eq(client_hash))
        .filter(scenarios::created_at.gt(since))
        .select((count_star(), min(scenarios::created_at)))
        .first(conn)
}
