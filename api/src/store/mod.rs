//! Queries, one module per aggregate. Functions take `&mut Db` and return diesel results, so
//! they compose inside one [`Database::transaction`](crate::db::Database::transaction).

pub mod aftermath;
pub mod api_keys;
pub mod battle_scenarios;
pub mod battles;
pub mod campaigns;
mod default_probe;
pub mod dice_commitments;
pub mod doc;
mod doc_compact;
#[cfg(test)]
mod doc_golden;
pub mod event_names;
pub mod events;
pub mod forces;
pub mod history;
pub mod idempotency;
pub mod invites;
pub mod ledger;
pub mod memberships;
pub mod personal_tokens;
pub mod quotas;
pub mod rulesets;
pub mod scenarios;
pub mod sessions;
pub mod share_links;
pub mod solo;
pub mod standings;
pub mod story;
pub mod users;
pub mod webhooks;

use chrono::{NaiveDateTime, SubsecRound, Utc};

/// The sort key of lists ordered by creation time, `(created_at, id)`: the id breaks ties, so
/// a paged list has one order (see [`crate::paging`]).
pub type CreatedKey = (NaiveDateTime, String);

/// The current time in UTC as stored (`Timestamp`), truncated to microseconds so PostgreSQL and
/// SQLite return the same value that was written.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}

/// A new random id (UUID v4, hyphenated text).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
