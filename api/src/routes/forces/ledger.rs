//! `GET /api/v1/forces/{force_id}/ledger` (campaign points earned and spent, with the running
//! balance) and `POST /api/v1/forces/{force_id}/ledger` (an organiser's adjustment).

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces::history::{self, LedgerAdjustment, LedgerPage};
use crate::auth::{AuthUser, Caller};
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::paging::{Page, PageParams};
use crate::store::ledger::{LedgerEntry, LedgerKind};

/// One ledger entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LedgerEntryResponse {
    /// The entry id.
    pub id: String,
    /// 1, 2, 3, ... per force.
    pub seq: i64,
    /// When (RFC 3339 UTC).
    pub at: DateTime<Utc>,
    /// `earned` or `spent`.
    #[schema(value_type = crate::store::ledger::LedgerKind)]
    pub kind: String,
    /// Campaign points.
    pub amount: i64,
    /// The balance after this entry (never negative).
    pub balance: i64,
    /// The user who made it; `null` for the service.
    pub actor_id: Option<String>,
    /// `battle`, `purchase`, `adjustment`, ...
    pub cause_kind: String,
    /// The battle or purchase id.
    pub cause_id: Option<String>,
    /// A note.
    pub note: Option<String>,
}

impl From<LedgerEntry> for LedgerEntryResponse {
    fn from(e: LedgerEntry) -> Self {
        Self {
            id: e.id,
            seq: e.seq,
            at: e.at.and_utc(),
            kind: e.kind,
            amount: e.amount,
            balance: e.balance,
            actor_id: e.actor_id,
            cause_kind: e.cause_kind,
            cause_id: e.cause_id,
            note: e.note,
        }
    }
}

/// A force's ledger: the totals of the whole ledger and a page of its entries.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LedgerResponse {
    /// The force id.
    pub force_id: String,
    /// The current balance (of the whole ledger, whichever page this is).
    pub balance: i64,
    /// Total earned (whole ledger).
    pub earned: i64,
    /// Total spent (whole ledger).
    pub spent: i64,
    /// Entries, oldest first, each with its running balance.
    pub entries: Vec<LedgerEntryResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// A force's campaign points: earned per battle, spent per purchase, with the running balance,
/// oldest first, a page at a time; the totals are those of the whole ledger.
#[utoipa::path(
    tag = "forces",
    operation_id = "get_force_ledger",
    security(("bearer" = []), ("api_key" = [])),
    params(("force_id" = String, Path, description = "The force id"), PageParams),
    responses(
        (status = 200, description = "The ledger's totals and a page of entries", body = LedgerResponse),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/forces/{force_id}/ledger")]
pub async fn get_force_ledger(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<HttpResponse, ApiError> {
    let ledger = history::read_ledger(&state, &caller, &path, page).await?;
    Ok(HttpResponse::Ok().json(LedgerResponse::from(ledger)))
}

impl From<LedgerPage> for LedgerResponse {
    fn from(page: LedgerPage) -> Self {
        Self {
            force_id: page.force_id,
            balance: page.balance,
            earned: page.earned,
            spent: page.spent,
            entries: page.entries.into_iter().map(Into::into).collect(),
            next: page.next,
        }
    }
}

/// An organiser's adjustment to a force's campaign points.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "earned", "amount": 2, "note": "Painting competition prize"}))]
pub struct AddLedgerEntryRequest {
    /// `earned` or `spent`.
    pub kind: LedgerKind,
    /// Campaign points, 1–1000.
    pub amount: i64,
    /// Why (shown in the ledger), up to 200 characters.
    pub note: Option<String>,
}

/// Adds an adjustment (organiser only): campaign points earned or spent outside a battle or
/// purchase. Spending more than the balance gets 409 and changes nothing. Answers the ledger
/// after the entry as `GET` would: the totals and a page of entries (the first unless `after`
/// is given).
#[utoipa::path(
    tag = "forces",
    operation_id = "add_ledger_entry",
    security(("bearer" = [])),
    params(("force_id" = String, Path, description = "The force id"), PageParams),
    request_body = AddLedgerEntryRequest,
    responses(
        (status = 201, description = "The ledger after the entry", body = LedgerResponse),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may adjust a ledger", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The balance would become negative", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid amount or note", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/forces/{force_id}/ledger")]
pub async fn add_ledger_entry(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
    body: Json<AddLedgerEntryRequest>,
) -> Result<HttpResponse, ApiError> {
    let AddLedgerEntryRequest { kind, amount, note } = body.into_inner();
    let adjustment = LedgerAdjustment { kind, amount, note };
    let ledger = history::adjust_ledger(&state, &user.caller(), &path, page, adjustment).await?;
    Ok(HttpResponse::Created().json(LedgerResponse::from(ledger)))
}
