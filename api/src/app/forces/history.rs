//! A force's history (every change to its roster, with the roster as of each entry) and its
//! campaign-point ledger.

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, authorize_force};
use crate::auth::Caller;
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::paging::{Keyset, Page};
use crate::store::events::{self, Event, EventType};
use crate::store::history::{self, HistoryCause, HistoryEntry};
use crate::store::ledger::{self, LedgerEntry, LedgerKind, NewLedgerEntry};
use crate::store::{self, forces};

/// Lists a force's history, newest first, a page at a time.
pub async fn list_history(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    page: Page,
) -> Result<Listed<HistoryEntry>, ApiError> {
    let page = page.keyset::<i64>("history", force_id)?;
    let (before, fetch) = (page.after, page.fetch());
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    let rows = state
        .db
        .read(move |conn| {
            authorize_force(conn, &caller, &force_id, Need::Read)?;
            Ok(history::list(conn, &force_id, before, fetch)?)
        })
        .await?;
    let (items, next) = page.finish(rows, |e| e.version)?;
    Ok(Listed { items, next })
}

/// Reads one history entry; its snapshot is the roster right after that change.
pub async fn read_history_entry(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    entry_id: &str,
) -> Result<HistoryEntry, ApiError> {
    let (caller, force_id, entry_id) = (caller.clone(), force_id.to_owned(), entry_id.to_owned());
    state
        .db
        .read(move |conn| {
            authorize_force(conn, &caller, &force_id, Need::Read)?;
            history::find(conn, &force_id, &entry_id)?
                .ok_or_else(|| ApiError::NotFound("No such history entry.".to_owned()))
        })
        .await
}

/// A page of a force's ledger with the whole ledger's totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerPage {
    /// The force.
    pub force_id: String,
    /// Campaign points to spend: earned minus spent.
    pub balance: i64,
    /// Every point earned.
    pub earned: i64,
    /// Every point spent.
    pub spent: i64,
    /// The page's entries.
    pub entries: Vec<LedgerEntry>,
    /// The cursor of the next page.
    pub next: Option<String>,
}

/// An organiser's adjustment of a ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerAdjustment {
    /// Earned or spent.
    pub kind: LedgerKind,
    /// 1–1000 campaign points.
    pub amount: i64,
    /// Why (up to 200 characters).
    pub note: Option<String>,
}

fn ledger_page(
    conn: &mut Db,
    force_id: String,
    page: &Keyset<i64>,
) -> Result<LedgerPage, ApiError> {
    let totals = ledger::totals(conn, &force_id)?;
    let rows = ledger::list(conn, &force_id, page.after, page.fetch())?;
    let (entries, next) = page.finish(rows, |e| e.seq)?;
    Ok(LedgerPage {
        force_id,
        balance: totals.balance,
        earned: totals.earned,
        spent: totals.spent,
        entries,
        next,
    })
}

/// Reads a page of a force's ledger.
pub async fn read_ledger(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    page: Page,
) -> Result<LedgerPage, ApiError> {
    let page = page.keyset::<i64>("ledger", force_id)?;
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    state
        .db
        .read(move |conn| {
            authorize_force(conn, &caller, &force_id, Need::Read)?;
            ledger_page(conn, force_id, &page)
        })
        .await
}

/// The organiser adjusts a force's ledger; returns the first page of the ledger after it.
pub async fn adjust_ledger(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    page: Page,
    adjustment: LedgerAdjustment,
) -> Result<LedgerPage, ApiError> {
    let actor = crate::app::authorization::person(caller)?.to_owned();
    let page = page.keyset::<i64>("ledger", force_id)?;
    let LedgerAdjustment { kind, amount, note } = adjustment;
    let mut errors = Vec::new();
    if !(1..=1000).contains(&amount) {
        errors.push(FieldError::new("amount", "must be between 1 and 1000"));
    }
    let note = note.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
    if note.as_ref().is_some_and(|n| n.chars().count() > 200) {
        errors.push(FieldError::new("note", "must have at most 200 characters"));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let (caller, id) = (caller.clone(), force_id.to_owned());
    let now = store::now();
    state
        .db
        .transaction(move |conn| {
            let (_, access) = authorize_force(conn, &caller, &id, Need::Write)?;
            if !access.is_organiser() {
                return Err(ApiError::Forbidden(
                    "Only the campaign's organiser may adjust a ledger.".to_owned(),
                ));
            }
            let entry = NewLedgerEntry {
                kind,
                amount,
                cause: HistoryCause::new("adjustment", Some(&actor)),
                note,
            };
            ledger::append(conn, &id, &[entry], now)?;
            let force =
                forces::find_by_id(conn, &id)?.ok_or_else(|| ApiError::not_found("force"))?;
            let mut event = Event::force(EventType::ForceLedgerAdjusted, &force.campaign_id, &id);
            event.data.kind = Some(kind);
            event.data.amount = Some(amount);
            events::append(conn, &event)?;
            ledger_page(conn, id, &page)
        })
        .await
}
