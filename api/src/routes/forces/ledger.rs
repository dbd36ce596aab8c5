//! `GET /api/v1/forces/{force_id}/ledger` (campaign points earned and spent, with the running
//! balance) and `POST /api/v1/forces/{force_id}/ledger` (an organiser's adjustment).

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Caller, Need};
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::Json;
use crate::store;
use crate::store::history::HistoryCause;
use crate::store::ledger::{self, LedgerEntry, LedgerKind, NewLedgerEntry};

use super::authorize_force;

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

/// A force's ledger.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LedgerResponse {
    /// The force id.
    pub force_id: String,
    /// The current balance.
    pub balance: i64,
    /// Total earned.
    pub earned: i64,
    /// Total spent.
    pub spent: i64,
    /// Entries, oldest first, each with its running balance.
    pub entries: Vec<LedgerEntryResponse>,
}

/// A force's campaign points: earned per battle, spent per purchase, with the running balance.
#[utoipa::path(
    tag = "forces",
    operation_id = "get_force_ledger",
    security(("bearer" = []), ("api_key" = [])),
    params(("force_id" = String, Path, description = "The force id")),
    responses(
        (status = 200, description = "The ledger", body = LedgerResponse),
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
) -> Result<HttpResponse, ApiError> {
    let force_id = path.into_inner();
    let id = force_id.clone();
    let rows = state
        .db
        .read(move |conn| {
            authorize_force(conn, &caller, &id, Need::Read)?;
            Ok(ledger::list(conn, &id)?)
        })
        .await?;
    Ok(HttpResponse::Ok().json(ledger_response(force_id, rows)))
}

fn ledger_response(force_id: String, rows: Vec<LedgerEntry>) -> LedgerResponse {
    let sum = |kind: &str| {
        rows.iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.amount)
            .sum()
    };
    LedgerResponse {
        force_id,
        balance: rows.last().map_or(0, |e| e.balance),
        earned: sum("earned"),
        spent: sum("spent"),
        entries: rows.into_iter().map(Into::into).collect(),
    }
}

/// An organiser's adjustment to a force's campaign points.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddLedgerEntryRequest {
    /// `earned` or `spent`.
    pub kind: LedgerKind,
    /// Campaign points, 1–1000.
    pub amount: i64,
    /// Why (shown in the ledger), up to 200 characters.
    pub note: Option<String>,
}

/// Adds an adjustment (organiser only): campaign points earned or spent outside a battle or
/// purchase. Spending more than the balance gets 409 and changes nothing.
#[utoipa::path(
    tag = "forces",
    operation_id = "add_ledger_entry",
    security(("bearer" = [])),
    params(("force_id" = String, Path, description = "The force id")),
    request_body = AddLedgerEntryRequest,
    responses(
        (status = 201, description = "The ledger after the entry", body = LedgerResponse),
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
    body: Json<AddLedgerEntryRequest>,
) -> Result<HttpResponse, ApiError> {
    let force_id = path.into_inner();
    let AddLedgerEntryRequest { kind, amount, note } = body.into_inner();
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
    let caller = user.caller();
    let actor = user.user_id.clone();
    let now = store::now();
    let id = force_id.clone();
    let rows = state
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
            Ok(ledger::list(conn, &id)?)
        })
        .await?;
    Ok(HttpResponse::Created().json(ledger_response(force_id, rows)))
}
