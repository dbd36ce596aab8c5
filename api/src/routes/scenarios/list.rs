//! `GET /api/v1/scenarios`: the caller's one-shot scenarios, newest first, paged.

use actix_web::{HttpResponse, get, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::scenarios::{self, ScenarioRecord};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::ForceRef;

/// One scenario in the list: enough to find it again; read it whole with
/// `GET /api/v1/scenarios/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioSummary {
    /// The scenario id.
    pub id: String,
    /// When it was generated (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// The sides' forces, in side order.
    pub forces: Vec<ForceRef>,
    /// Whether a share link exists.
    pub shared: bool,
    /// The share link (the printable sheet), when shared and readable again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_url: Option<String>,
    /// The same scenario as JSON through the share link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_api_url: Option<String>,
    /// Each side's own printable sheet, in side order (absent for scenarios generated before
    /// sheets per side).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_sheet_urls: Vec<String>,
}

/// A page of the caller's scenarios.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioList {
    /// Newest first.
    pub scenarios: Vec<ScenarioSummary>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Only the part of a stored document the list shows (the rest is not parsed).
#[derive(Deserialize)]
struct Sides {
    forces: Vec<ForceRef>,
}

impl ScenarioSummary {
    fn new(scenario: ScenarioRecord) -> Result<Self, ApiError> {
        let ScenarioRecord {
            row,
            links,
            side_links,
        } = scenario;
        let sides: Sides = serde_json::from_str(&row.document)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored scenario {}: {e}", row.id)))?;
        let (share_url, share_api_url) = links.map(|l| (l.sheet, l.api)).unzip();
        Ok(Self {
            id: row.id,
            created_at: row.created_at.and_utc(),
            forces: sides.forces,
            shared: row.share_token_hash.is_some(),
            share_url,
            share_api_url,
            side_sheet_urls: side_links,
        })
    }
}

/// Lists the one-shot scenarios the caller generated, newest first.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "list_scenarios",
    security(("bearer" = [])),
    params(PageParams),
    responses(
        (status = 200, description = "A page of the caller's scenarios", body = ScenarioList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read one-shot scenarios", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios")]
pub async fn list_scenarios(
    user: AuthUser,
    state: web::Data<AppState>,
    page: Page,
) -> Result<HttpResponse, ApiError> {
    let listed = scenarios::list_scenarios(&state, &user.caller(), page).await?;
    let scenarios = listed
        .items
        .into_iter()
        .map(ScenarioSummary::new)
        .collect::<Result<_, _>>()?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-store"))
        .json(ScenarioList {
            scenarios,
            next: listed.next,
        }))
}
