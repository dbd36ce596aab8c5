//! `GET /api/v1/rulesets`: every ruleset the caller may choose.

use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::rulesets::{self, Listed};
use crate::error::{ApiError, Problem};

use super::{PinBody, body_etag, not_modified, optional_caller, rules_url};

/// One ruleset in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RulesetSummary {
    /// Its id (`fad5e`; a house ruleset's is `club/<slug>`).
    pub id: String,
    /// Its version (the newest the caller may see).
    pub version: u32,
    /// The family of rules it belongs to (`fad`): which rosters it takes.
    pub family: String,
    /// Its name.
    pub name: String,
    /// One line on what it is.
    pub summary: String,
    /// The rules texts it applies.
    pub sources: Vec<String>,
    /// Built into the service (true) or a club's house ruleset (false).
    pub builtin: bool,
    /// The ruleset a house ruleset extends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<PinBody>,
    /// SHA-256 of its canonical document, lowercase hex.
    pub hash: String,
    /// Its page, a path of this site.
    pub rules_url: String,
}

impl From<Listed> for RulesetSummary {
    fn from(listed: Listed) -> Self {
        let Listed { ruleset, hash, .. } = listed;
        Self {
            family: rulesets::family_name(&ruleset),
            rules_url: rules_url(&ruleset),
            extends: ruleset.extends.as_ref().map(PinBody::from),
            id: ruleset.id,
            version: ruleset.version,
            name: ruleset.name,
            summary: ruleset.summary,
            sources: ruleset.sources,
            builtin: ruleset.builtin,
            hash,
        }
    }
}

/// The list of rulesets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RulesetList {
    /// The built-in rulesets, then the caller's house rulesets and those its campaigns play.
    pub rulesets: Vec<RulesetSummary>,
    /// Always `null`: the list is short enough for one page.
    pub next: Option<String>,
}

/// Every ruleset a campaign may choose: the built-in ones for anyone; signed in, also the
/// caller's own house rulesets and those of the campaigns it belongs to.
#[utoipa::path(
    tag = "rules",
    operation_id = "list_rulesets",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The rulesets (with `ETag`)", body = RulesetList),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 401, description = "Invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rulesets")]
pub async fn list_rulesets(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let caller = optional_caller(&state, req.headers()).await?;
    let listed = rulesets::list(&state, caller).await?;
    let body = RulesetList {
        rulesets: listed.into_iter().map(RulesetSummary::from).collect(),
        next: None,
    };
    let bytes = serde_json::to_vec(&body).map_err(|e| ApiError::Internal(e.into()))?;
    let etag = body_etag(&bytes);
    if not_modified(req.headers(), &etag) {
        return Ok(HttpResponse::NotModified()
            .insert_header(("ETag", etag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("ETag", etag))
        .insert_header(("Cache-Control", "private, no-cache"))
        .body(bytes))
}
