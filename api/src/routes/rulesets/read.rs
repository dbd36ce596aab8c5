//! `GET /api/v1/rulesets/{id}` (and `.../club/{slug}` for house rulesets): one ruleset's
//! vocabulary, or with `?format=document` a house ruleset's editable document;
//! `GET /api/v1/campaigns/{campaign_id}/rules`: the campaign's pinned ruleset with its house
//! rules applied.

use actix_web::{HttpRequest, HttpResponse, get, web};
use fad_domain::rulesets::{self, RulesetVocabulary};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::app::rulesets::{self as app, HOUSE_PREFIX, Read};
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

use super::{PinBody, body_etag, not_modified, optional_caller, rules_url};

/// What to read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReadQuery {
    /// The version; omitted, the newest.
    pub version: Option<u32>,
    /// `document`: a house ruleset's editable document (what `PUT` takes) instead of its
    /// vocabulary; its `ETag` is the version, for `If-Match`.
    pub format: Option<String>,
}

/// One ruleset: its identity and its whole vocabulary.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RulesetDetail {
    /// The rules texts it applies.
    pub sources: Vec<String>,
    /// Built into the service.
    pub builtin: bool,
    /// The ruleset a house ruleset extends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<PinBody>,
    /// SHA-256 of its canonical document, lowercase hex.
    pub hash: String,
    /// Its page.
    pub rules_url: String,
    /// Its id, version, family, name and summary; every word of `GET /rules`; ladders, steps
    /// with their tables, the menu, options and readings.
    #[serde(flatten)]
    pub vocabulary: RulesetVocabulary,
}

impl RulesetDetail {
    fn of(read: &Read) -> Self {
        let ruleset = &read.ruleset;
        Self {
            sources: ruleset.sources.clone(),
            builtin: ruleset.builtin,
            extends: ruleset.extends.as_ref().map(PinBody::from),
            hash: read.hash.clone(),
            rules_url: rules_url(ruleset),
            vocabulary: rulesets::ruleset_vocabulary(ruleset, &ruleset.options),
        }
    }
}

async fn answer(
    req: &HttpRequest,
    state: &AppState,
    id: String,
    query: ReadQuery,
) -> Result<HttpResponse, ApiError> {
    let document = match query.format.as_deref() {
        None | Some("vocabulary") => false,
        Some("document") => true,
        Some(_) => {
            return Err(ApiError::validation(
                "format",
                "format is document (the editable house document) or vocabulary (the default)",
            ));
        }
    };
    let caller = optional_caller(state, req.headers()).await?;
    let read = app::read(state, caller, id, query.version).await?;
    let (bytes, etag) = if document {
        let Some(doc) = &read.document else {
            return Err(ApiError::validation(
                "format",
                "a built-in ruleset has no house document; a house ruleset extends it with \
                 {\"extends\": {\"id\", \"version\"}, \"set\": {...}}",
            ));
        };
        let bytes = serde_json::to_vec(doc).map_err(|e| ApiError::Internal(e.into()))?;
        (bytes, format!("\"{}\"", read.ruleset.version))
    } else {
        let bytes = serde_json::to_vec(&RulesetDetail::of(&read))
            .map_err(|e| ApiError::Internal(e.into()))?;
        let etag = body_etag(&bytes);
        (bytes, etag)
    };
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

/// A built-in ruleset (`fad5e`): its vocabulary in the shape of `GET /rules` plus ladders,
/// steps with their d6 tables, the menu, options and readings.
#[utoipa::path(
    tag = "rules",
    operation_id = "get_ruleset",
    security((), ("bearer" = [])),
    params(("ruleset_id" = String, Path, description = "The ruleset id (`fad5e`)"), ReadQuery),
    responses(
        (status = 200, description = "The ruleset (with `ETag`)", body = RulesetDetail),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 401, description = "Invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ruleset (or version)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`format=document` of a built-in ruleset, or an unknown format", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rulesets/{ruleset_id}")]
pub async fn get_ruleset(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<ReadQuery>,
) -> Result<HttpResponse, ApiError> {
    answer(&req, &state, path.into_inner(), query.into_inner()).await
}

/// A house ruleset (its owner, and members of a campaign that plays it): its vocabulary, or
/// with `format=document` the document its owner edits (the `ETag` is then its version, for
/// `If-Match` on `PUT`).
#[utoipa::path(
    tag = "rules",
    operation_id = "get_house_ruleset",
    security((), ("bearer" = [])),
    params(("slug" = String, Path, description = "The part after `club/`"), ReadQuery),
    responses(
        (status = 200, description = "The ruleset's vocabulary, or its house document (`format=document`)", body = RulesetDetail),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 401, description = "Invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ruleset or version, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown format", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/rulesets/club/{slug}")]
pub async fn get_house_ruleset(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<ReadQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = format!("{HOUSE_PREFIX}{}", path.into_inner());
    answer(&req, &state, id, query.into_inner()).await
}

/// A campaign's rules: its pinned ruleset's vocabulary with the campaign's house rules.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct CampaignRules {
    /// The ruleset the campaign plays.
    pub ruleset: PinBody,
    /// The vocabulary, the campaign's options applied: what a client builds forms from.
    #[serde(flatten)]
    pub vocabulary: RulesetVocabulary,
}

/// The pinned ruleset's vocabulary with the campaign's house-rule options applied (members
/// and the campaign's integration keys).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_campaign_rules",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The campaign's rules (with `ETag`)", body = CampaignRules),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/rules")]
pub async fn get_campaign_rules(
    req: HttpRequest,
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (pin, vocabulary) = app::campaign_rules(&state, &caller, &path).await?;
    let body = CampaignRules {
        ruleset: PinBody::from(pin),
        vocabulary,
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
