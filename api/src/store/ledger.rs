//! A force's campaign-point ledger (docs/rules.md §3 campaign points): entries earned (per
//! battle) and spent (per purchase), each with the running balance, which is never negative.
//!
//! Entries are numbered per force (`seq`); `(force_id, seq)` is unique, so two concurrent
//! appends can never both win (the loser gets a unique violation → 409 and changes nothing).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::Db;
use crate::error::ApiError;
use crate::schema::force_ledger;

use super::history::HistoryCause;

/// Earned or spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LedgerKind {
    /// Campaign points credited (a battle).
    Earned,
    /// Campaign points spent (a purchase).
    Spent,
}

impl LedgerKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Earned => "earned",
            Self::Spent => "spent",
        }
    }
}

/// A ledger entry to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLedgerEntry {
    /// Earned or spent.
    pub kind: LedgerKind,
    /// How many campaign points (≥ 0).
    pub amount: i64,
    /// What caused it (`battle` + battle id, `purchase` + purchase id, `adjustment`) and who.
    pub cause: HistoryCause,
    /// A note for people (the purchase item, ...).
    pub note: Option<String>,
}

/// A ledger row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = force_ledger)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
// `None` is NULL, not SQLite's missing `DEFAULT` keyword, so rows insert in one statement.
#[diesel(treat_none_as_default_value = false)]
pub struct LedgerEntry {
    /// The entry id.
    pub id: String,
    /// The force.
    pub force_id: String,
    /// 1, 2, 3, ... per force.
    pub seq: i64,
    /// When (UTC).
    pub at: NaiveDateTime,
    /// `earned` or `spent`.
    pub kind: String,
    /// Campaign points.
    pub amount: i64,
    /// The balance after this entry.
    pub balance: i64,
    /// Who; `None` for the service.
    pub actor_id: Option<String>,
    /// The kind of cause.
    pub cause_kind: String,
    /// The cause's id.
    pub cause_id: Option<String>,
    /// A note.
    pub note: Option<String>,
}

/// Why an append was refused.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// Spending more than the balance; nothing was written.
    #[error("the force has {balance} campaign point(s); {wanted} cannot be spent")]
    Overdrawn {
        /// The balance before the refused entry.
        balance: i64,
        /// The amount the refused entry wanted to spend.
        wanted: i64,
    },
    /// A negative amount.
    #[error("amounts are never negative")]
    NegativeAmount,
    /// The database failed.
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
}

impl From<LedgerError> for ApiError {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Overdrawn { .. } => {
                ApiError::Conflict(format!("Not enough campaign points: {err}."))
            }
            LedgerError::NegativeAmount => ApiError::validation("amount", "must not be negative"),
            LedgerError::Db(e) => e.into(),
        }
    }
}

/// The newest entry of a force, if any.
pub fn last(conn: &mut Db, force_id: &str) -> QueryResult<Option<LedgerEntry>> {
    crate::on_backend!(conn, |conn| force_ledger::table
        .filter(force_ledger::force_id.eq(force_id))
        .order(force_ledger::seq.desc())
        .select(LedgerEntry::as_select())
        .first(conn)
        .optional())
}

/// The current balance (0 for a force without entries).
pub fn balance(conn: &mut Db, force_id: &str) -> QueryResult<i64> {
    Ok(last(conn, force_id)?.map_or(0, |e| e.balance))
}

/// Appends `entries` in order, in the caller's transaction; returns the new balance. Refuses
/// the whole batch (writing nothing of it) when any entry would make the balance negative.
pub fn append(
    conn: &mut Db,
    force_id: &str,
    entries: &[NewLedgerEntry],
    now: NaiveDateTime,
) -> Result<i64, LedgerError> {
    let last = last(conn, force_id)?.map(|e| (e.seq, e.balance));
    append_after(conn, force_id, last, entries, now)
}

/// [`append`] after the newest entry `last` = (seq, balance) the caller read earlier in its
/// transaction, saving that read. An entry committed since then makes the insert a unique
/// violation on `(force_id, seq)`, so nothing is ever appended on a stale balance.
pub fn append_after(
    conn: &mut Db,
    force_id: &str,
    last: Option<(i64, i64)>,
    entries: &[NewLedgerEntry],
    now: NaiveDateTime,
) -> Result<i64, LedgerError> {
    let (mut seq, mut balance) = last.unwrap_or((0, 0));
    let mut rows = Vec::with_capacity(entries.len());
    for entry in entries {
        if entry.amount < 0 {
            return Err(LedgerError::NegativeAmount);
        }
        balance = match entry.kind {
            LedgerKind::Earned => balance.saturating_add(entry.amount),
            LedgerKind::Spent if entry.amount > balance => {
                return Err(LedgerError::Overdrawn {
                    balance,
                    wanted: entry.amount,
                });
            }
            LedgerKind::Spent => balance - entry.amount,
        };
        seq += 1;
        rows.push(LedgerEntry {
            id: super::new_id(),
            force_id: force_id.to_owned(),
            seq,
            at: now,
            kind: entry.kind.as_str().to_owned(),
            amount: entry.amount,
            balance,
            actor_id: entry.cause.actor_id.clone(),
            cause_kind: entry.cause.kind.clone(),
            cause_id: entry.cause.id.clone(),
            note: entry.note.clone(),
        });
    }
    // One multi-row INSERT, whatever the number of entries (no per-entry round trips).
    // The multi connection cannot express it; each backend can.
    let insert = diesel::insert_into(force_ledger::table).values(&rows);
    match conn {
        _ if rows.is_empty() => 0,
        Db::Pg(pg) => insert.execute(pg)?,
        Db::Sqlite(sqlite) => insert.execute(sqlite)?,
    };
    Ok(balance)
}

/// Up to `limit` entries of a force, oldest first, after entry number `after` when given
/// (`seq` is unique per force, so it alone is the list's sort key).
pub fn list(
    conn: &mut Db,
    force_id: &str,
    after: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<LedgerEntry>> {
    let mut query = force_ledger::table
        .filter(force_ledger::force_id.eq(force_id))
        .order(force_ledger::seq.asc())
        .select(LedgerEntry::as_select())
        .limit(limit)
        .into_boxed();
    if let Some(after) = after {
        query = query.filter(force_ledger::seq.gt(after));
    }
    query.load(conn)
}

/// A whole ledger in figures: the balance after the newest entry, and the campaign points
/// earned and spent over every entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, QueryableByName)]
pub struct Totals {
    /// The current balance.
    #[diesel(sql_type = BigInt)]
    pub balance: i64,
    /// Total earned.
    #[diesel(sql_type = BigInt)]
    pub earned: i64,
    /// Total spent.
    #[diesel(sql_type = BigInt)]
    pub spent: i64,
}

/// `$1` is the only bind: SQLite reads the repeated `$1` as the same parameter too.
const TOTALS_SQL: &str = "\
SELECT COALESCE((SELECT n.balance FROM force_ledger n WHERE n.force_id = $1 \
                  ORDER BY n.seq DESC LIMIT 1), 0) AS balance, \
       CAST(COALESCE(SUM(CASE WHEN l.kind = 'earned' THEN l.amount ELSE 0 END), 0) AS BIGINT) \
         AS earned, \
       CAST(COALESCE(SUM(CASE WHEN l.kind = 'spent' THEN l.amount ELSE 0 END), 0) AS BIGINT) \
         AS spent \
  FROM force_ledger l \
 WHERE l.force_id = $1";

/// The [`Totals`] of a force's ledger, in one statement whatever its length.
pub fn totals(conn: &mut Db, force_id: &str) -> QueryResult<Totals> {
    diesel::sql_query(TOTALS_SQL)
        .bind::<Text, _>(force_id)
        .get_result(conn)
}

/// The entries of a force with this cause (`battle` + battle id, ...), oldest first.
pub fn list_for_cause(
    conn: &mut Db,
    force_id: &str,
    cause_kind: &str,
    cause_id: &str,
) -> QueryResult<Vec<LedgerEntry>> {
    force_ledger::table
        .filter(force_ledger::force_id.eq(force_id))
        .filter(force_ledger::cause_kind.eq(cause_kind))
        .filter(force_ledger::cause_id.eq(cause_id))
        .order(force_ledger::seq.asc())
        .select(LedgerEntry::as_select())
        .load(conn)
}
