//! `POST /api/v1/rulesets`, `PUT` and `DELETE /api/v1/rulesets/club/{slug}`: house rulesets,
//! written by their owner. Every edit is a new version; campaigns stay on the one they chose.

use actix_web::{HttpRequest, HttpResponse, delete, post, put, web};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

use fad_domain::rulesets::{HouseDocument, Reading, RulesetPin};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::rulesets as app;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::routes::campaigns::if_match;
use crate::store::rulesets::StoredRuleset;

/// A house ruleset's document: the built-in ruleset it extends and the keys it changes.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"id": "club/stockholm-fad", "name": "Stockholm club FAD",
    "extends": {"id": "fad5e", "version": 1},
    "set": {"campaign.cp_per_platoon": 3,
        "campaign.tables.quality_loss": ["drops", "stays", "stays", "stays", "stays", "stays"],
        "campaign.menu.assign_trait.cost": 3},
    "readings": [{"id": "H1", "text": "Quality drops only on a 1."}]}))]
pub struct HouseDocumentBody {
    /// `club/` and 3–40 lowercase letters, digits and dashes.
    pub id: String,
    /// 1–80 characters.
    pub name: String,
    /// The built-in ruleset it extends.
    pub extends: RulesetPin,
    /// The keys it changes, from the closed list (`campaign.cp_per_platoon`,
    /// `campaign.pool_dice`, `campaign.tables.<step>`, `campaign.menu.<item>.cost`,
    /// `campaign.menu.<item>.enabled`, `options.<switch>.default`, `ladders.<ladder>.names`,
    /// `lists.<list>.add`); an unknown key or a bad value is 422 at `set.<key>`.
    #[serde(default)]
    pub set: BTreeMap<String, serde_json::Value>,
    /// The club's own readings, each `{"id", "text"}` (at most 40).
    #[serde(default)]
    pub readings: Vec<Reading>,
}

impl From<HouseDocumentBody> for HouseDocument {
    fn from(body: HouseDocumentBody) -> Self {
        let HouseDocumentBody {
            id,
            name,
            extends,
            set,
            readings,
        } = body;
        Self {
            id,
            name,
            extends,
            set,
            readings,
        }
    }
}

/// A stored version of a house ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HouseRulesetResponse {
    /// `club/<slug>`.
    pub id: String,
    /// Its version: 1, then one more for every `PUT`.
    pub version: u32,
    /// Its name.
    pub name: String,
    /// Its family (that of the ruleset it extends).
    pub family: String,
    /// SHA-256 of the canonical document, lowercase hex.
    pub hash: String,
    /// Its page.
    pub rules_url: String,
    /// When this version was written (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
}

impl From<StoredRuleset> for HouseRulesetResponse {
    fn from(row: StoredRuleset) -> Self {
        Self {
            rules_url: format!("/rules/{}", row.id),
            version: u32::try_from(row.version).unwrap_or(u32::MAX),
            id: row.id,
            name: row.name,
            family: row.family,
            hash: row.hash,
            created_at: row.created_at.and_utc(),
        }
    }
}

fn location(row: &StoredRuleset) -> String {
    format!("/api/v1/rulesets/{}", row.id)
}

/// Creates a house ruleset at version 1; the caller owns it.
#[utoipa::path(
    tag = "rules",
    operation_id = "create_ruleset",
    security(("bearer" = [])),
    request_body = HouseDocumentBody,
    responses(
        (status = 201, description = "The house ruleset, version 1, with its hash", body = HouseRulesetResponse,
            headers(("ETag" = String, description = "The version, for `If-Match` on `PUT`"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A ruleset with this id exists", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad id or name, an unknown parent, a key not on the list or a value it does not take (each at `set.<key>`), a document over `FAD_MAX_RULESET_BYTES`, or the account holds its most house rulesets (`FAD_MAX_RULESETS_PER_ACCOUNT`)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/rulesets")]
pub async fn create_ruleset(
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<HouseDocumentBody>,
) -> Result<HttpResponse, ApiError> {
    let document = HouseDocument::from(body.into_inner());
    let row = app::create(&state, &user.caller(), document).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", location(&row)))
        .insert_header(("ETag", format!("\"{}\"", row.version)))
        .json(HouseRulesetResponse::from(row)))
}

/// Writes the next version of a house ruleset (its owner). With `If-Match` (the `ETag` of
/// `GET ...?format=document`), only if no other version was written since; without it, the
/// next version whatever the newest is (versions are never overwritten). Campaigns stay on
/// theirs.
#[utoipa::path(
    tag = "rules",
    operation_id = "update_ruleset",
    security(("bearer" = [])),
    params(
        ("slug" = String, Path, description = "The part after `club/`"),
        ("If-Match" = Option<String>, Header, description = "The version the edit is based on"),
    ),
    request_body = HouseDocumentBody,
    responses(
        (status = 200, description = "The new version", body = HouseRulesetResponse,
            headers(("ETag" = String, description = "The new version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the owner may change it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ruleset, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Another version was written meanwhile", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` is stale", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad document (each problem at its path)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/rulesets/club/{slug}")]
pub async fn update_ruleset(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<HouseDocumentBody>,
) -> Result<HttpResponse, ApiError> {
    let document = HouseDocument::from(body.into_inner());
    let row = app::update(
        &state,
        &user.caller(),
        &path,
        if_match(req.headers()),
        document,
    )
    .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", format!("\"{}\"", row.version)))
        .json(HouseRulesetResponse::from(row)))
}

/// Deletes a house ruleset (its owner): it is archived, no longer listed or chosen. Refused
/// while any campaign plays any of its versions.
#[utoipa::path(
    tag = "rules",
    operation_id = "delete_ruleset",
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "The part after `club/`")),
    responses(
        (status = 204, description = "Archived"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the owner may delete it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ruleset, or the caller may not see it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A campaign plays under it", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/rulesets/club/{slug}")]
pub async fn delete_ruleset(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    app::delete(&state, &user.caller(), &path).await?;
    Ok(HttpResponse::NoContent().finish())
}
