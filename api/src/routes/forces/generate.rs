//! `POST /api/v1/campaigns/{campaign_id}/forces/generate`: basic or advanced force generation
//! (docs/rules.md §4.1, §4.2; S000 › BUILDING BASIC FORCES, ADVANCED FORCE GENERATION) with the
//! player's choices and server or entered dice; the result is stored as a force owned by the
//! caller, its roll log in the first history entry.
//! Honours `Idempotency-Key`. The use case is [`crate::app::forces::generate`].

use std::collections::BTreeMap;

use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::forcegen::{AdvancedChoices, BasicChoices, GenerationChoices};
use serde_json::Value;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::forces::generate as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::{Strict, deserialize_strict};
use crate::routes::battles::idempotency_key;

pub use crate::app::forces::generate::GenerateForceResponse;

/// The request as the server reads it: the choices of one method (`method` with that method's
/// fields, at the top level) and optional player-entered `dice`. Any other field is refused.
/// Documented as one whole object per method, which code generators read (an `allOf` over a
/// `oneOf` is dropped by some); the handler parses the body itself.
#[derive(Debug, ToSchema)]
#[serde(untagged)]
#[schema(example = json!({"method": "basic", "platoons": 1, "name": "Red Company"}))]
pub enum GenerateForceRequest {
    /// Basic generation (docs/rules.md §4.1).
    Basic(BasicGenerateForceRequest),
    /// Advanced generation (docs/rules.md §4.2).
    Advanced(AdvancedGenerateForceRequest),
    /// The marker draw of a `gzg-fma-1999` campaign (docs/rules.md M10).
    Markers(MarkersGenerateForceRequest),
}

/// `method: "markers"`.
#[derive(Debug, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkersMethod {
    /// The marker draw.
    Markers,
}

/// A marker-draw request: `method: "markers"`, the teams, the pool if not the default, and
/// optional dice (`{"marker_draw": {"<team name>": [values]}}`).
#[derive(Debug, ToSchema)]
pub struct MarkersGenerateForceRequest {
    /// `markers`.
    pub method: MarkersMethod,
    /// The teams and the pool (docs/rules.md M10).
    #[serde(flatten)]
    pub choices: fad_domain::rulesets::gzg_fma_1999::generation::MarkerChoices,
    /// Entered dice and the dice commitment.
    #[serde(flatten)]
    pub dice: GenerationDice,
}

/// `method: "basic"`.
#[derive(Debug, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BasicMethod {
    /// Basic force generation.
    Basic,
}

/// `method: "advanced"`.
#[derive(Debug, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdvancedMethod {
    /// Advanced force generation.
    Advanced,
}

/// A basic generation request: `method: "basic"`, the basic choices and optional dice.
#[derive(Debug, ToSchema)]
pub struct BasicGenerateForceRequest {
    /// `basic`.
    pub method: BasicMethod,
    /// The choices of basic generation (docs/rules.md §4.1).
    #[serde(flatten)]
    pub choices: BasicChoices,
    /// Entered dice and the dice commitment.
    #[serde(flatten)]
    pub dice: GenerationDice,
}

/// An advanced generation request: `method: "advanced"`, the advanced choices and optional
/// dice.
#[derive(Debug, ToSchema)]
pub struct AdvancedGenerateForceRequest {
    /// `advanced`.
    pub method: AdvancedMethod,
    /// The choices of advanced generation (docs/rules.md §4.2).
    #[serde(flatten)]
    pub choices: AdvancedChoices,
    /// Entered dice and the dice commitment.
    #[serde(flatten)]
    pub dice: GenerationDice,
}

/// The dice of a generation request, whichever the method.
#[derive(Debug, ToSchema)]
pub struct GenerationDice {
    /// Player-entered dice: `{"force_generation": {"<subject>": [values]}}`; subjects are
    /// `force`, `force.artillery[k]`, `force.character[k]`, `platoon[i]`,
    /// `platoon[i].squad[j]`, `platoon[i].heavy_weapon[k]`. For the marker draw
    /// `{"marker_draw": {"<team name>": [values]}}`, one value per figure, each at most the
    /// markers then left.
    #[serde(default)]
    pub dice: Option<BTreeMap<String, BTreeMap<String, Vec<u8>>>>,
    /// A commitment from `POST /api/v1/dice/commitments`: the server dice come from its seed,
    /// which the roll log reveals (each roll's `proof`).
    #[serde(default)]
    pub dice_commitment_id: Option<String>,
    /// Text mixed into the committed seed (1–128 characters; needs `dice_commitment_id`).
    #[serde(default)]
    pub client_seed: Option<String>,
}

/// The choices of `method`. The method is read first and the rest into that method's type
/// directly (not through the tagged enum, which would buffer it out of sight of the
/// unknown-field check).
fn parse_choices(mut map: serde_json::Map<String, Value>) -> Result<GenerationChoices, ApiError> {
    let method = match map.remove("method") {
        Some(Value::String(m)) => m,
        None => {
            return Err(ApiError::validation(
                "method",
                crate::error::plain::REQUIRED,
            ));
        }
        Some(_) => {
            return Err(ApiError::validation(
                "method",
                "must be one of: basic, advanced, markers",
            ));
        }
    };
    let strict = |e: Strict<serde_json::Error>| ApiError::Validation(e.into_field_errors(""));
    match method.as_str() {
        "basic" => deserialize_strict(Value::Object(map))
            .map(GenerationChoices::Basic)
            .map_err(strict),
        "advanced" => deserialize_strict(Value::Object(map))
            .map(GenerationChoices::Advanced)
            .map_err(strict),
        _ => Err(ApiError::validation(
            "method",
            format!("must be one of: basic, advanced, markers, not \"{method}\""),
        )),
    }
}

/// Generates a force from the player's choices and stores it. Invalid choices (an
/// enhancement its limitation cancels, priority points over the allowance, ...) and bad
/// entered dice get 422 and nothing is rolled or stored. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "forces",
    operation_id = "generate_force",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Repeat-safe key: the same key and body answer the first response again and roll nothing"),
    ),
    request_body = GenerateForceRequest,
    responses(
        (status = 201, description = "The generated force (its id and version are in the body) with its rolls", body = GenerateForceResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid choices or entered dice, an unknown field, the campaign holds its most forces (`FAD_MAX_FORCES_PER_CAMPAIGN`), or an Idempotency-Key used with another body", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/forces/generate")]
pub async fn generate_force(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    raw: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let key = idempotency_key(&req)?;
    // The key check hashes the bytes sent, as the Idempotency-Key middleware does, so both
    // recognise the same body.
    let body: Value = crate::extract::parse_json(&raw)?;
    let Value::Object(mut map) = body else {
        return Err(ApiError::validation(
            ".",
            "the request body must be a JSON object: {\"method\": ..., \"platoons\": ...}",
        ));
    };
    let raw_dice = match map.remove("dice") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(value) => deserialize_strict::<_, BTreeMap<String, BTreeMap<String, Vec<u8>>>>(value)
            .map_err(|e| ApiError::Validation(e.into_field_errors("dice")))?,
    };
    let mut text = |name: &str| match map.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(ApiError::validation(name, "must be a string")),
    };
    let commitment = app::RequestCommitment {
        dice_commitment_id: text("dice_commitment_id")?,
        client_seed: text("client_seed")?,
    };
    let scope = format!("POST /api/v1/campaigns/{campaign_id}/forces/generate");
    let write = Write::new(&user.user_id, scope, key, &raw);
    if map.get("method") == Some(&Value::String("markers".to_owned())) {
        map.remove("method");
        let choices =
            deserialize_strict(Value::Object(map)).map_err(|e: Strict<serde_json::Error>| {
                ApiError::Validation(e.into_field_errors(""))
            })?;
        let answer = crate::app::forces::markers::generate_by_marker_draw(
            &state,
            &user.caller(),
            &campaign_id,
            choices,
            raw_dice,
            commitment,
            write,
        )
        .await?;
        let value = answer.to_json()?;
        return Ok(HttpResponse::build(answer.status).json(value));
    }
    let choices = parse_choices(map)?;
    let answer = app::generate_force(
        &state,
        &user.caller(),
        &campaign_id,
        choices,
        raw_dice,
        commitment,
        write,
    )
    .await?;
    let value = answer.to_json()?;
    Ok(HttpResponse::build(answer.status).json(value))
}
