//! `GET /api/v1/forces/{force_id}/history` (newest first, paged) and
//! `GET /api/v1/forces/{force_id}/history/{entry_id}` (one entry with the roster as of it).

use actix_web::{HttpResponse, get, web};
use chrono::{DateTime, Utc};
use fad_domain::dice::RollLog;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces::history;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::store::history::{HistoryEntry, RosterDiff};

use super::RosterResponse;

/// Why the roster changed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CauseResponse {
    /// `create`, `edit`, `archive`, `import`, `generation`, `battle`, `purchase`, ...
    pub kind: String,
    /// The battle, purchase or source force id, when there is one.
    pub id: Option<String>,
}

/// One change to a roster.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEntryResponse {
    /// The entry id.
    pub id: String,
    /// The force version this change produced.
    pub version: i64,
    /// When (RFC 3339 UTC).
    pub at: DateTime<Utc>,
    /// The user who made it; `null` for the service.
    pub actor_id: Option<String>,
    /// Why.
    pub cause: CauseResponse,
    /// Per-unit diff.
    pub diff: RosterDiff,
    /// The rolls that made it.
    pub rolls: RollLog,
    /// The roster as of this entry (only on the single-entry endpoint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roster: Option<RosterResponse>,
}

impl HistoryEntryResponse {
    fn new(entry: HistoryEntry, with_roster: bool) -> Result<Self, ApiError> {
        let internal = |e: serde_json::Error| ApiError::Internal(e.into());
        let roster = if with_roster {
            Some(RosterResponse::new(entry.roster()?))
        } else {
            None
        };
        Ok(Self {
            diff: serde_json::from_str(&entry.diff).map_err(internal)?,
            rolls: serde_json::from_str(&entry.rolls).map_err(internal)?,
            id: entry.id,
            version: entry.version,
            at: entry.at.and_utc(),
            actor_id: entry.actor_id,
            cause: CauseResponse {
                kind: entry.cause_kind,
                id: entry.cause_id,
            },
            roster,
        })
    }
}

/// A page of history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryPage {
    /// Entries, newest first.
    pub entries: Vec<HistoryEntryResponse>,
    /// Pass as `after` to read the next (older) page; `null` on the last page.
    pub next: Option<String>,
}

/// Every change to a roster, newest first, a page at a time: edits, battles, purchases,
/// generation, with the actor, cause, per-unit diff and rolls.
#[utoipa::path(
    tag = "forces",
    operation_id = "list_force_history",
    security(("bearer" = []), ("api_key" = [])),
    params(("force_id" = String, Path, description = "The force id"), PageParams),
    responses(
        (status = 200, description = "A page of entries", body = HistoryPage),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/forces/{force_id}/history")]
pub async fn list_force_history(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<HttpResponse, ApiError> {
    let listed = history::list_history(&state, &caller, &path, page).await?;
    let entries = listed
        .items
        .into_iter()
        .map(|e| HistoryEntryResponse::new(e, false))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(HttpResponse::Ok().json(HistoryPage {
        entries,
        next: listed.next,
    }))
}

/// One history entry with the roster (and its points) as it was right after that change.
#[utoipa::path(
    tag = "forces",
    operation_id = "get_force_history_entry",
    security(("bearer" = []), ("api_key" = [])),
    params(
        ("force_id" = String, Path, description = "The force id"),
        ("entry_id" = String, Path, description = "The history entry id"),
    ),
    responses(
        (status = 200, description = "The entry with `roster`", body = HistoryEntryResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such force or entry, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/forces/{force_id}/history/{entry_id}")]
pub async fn get_force_history_entry(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (force_id, entry_id) = path.into_inner();
    let entry = history::read_history_entry(&state, &caller, &force_id, &entry_id).await?;
    Ok(HttpResponse::Ok().json(HistoryEntryResponse::new(entry, true)?))
}
