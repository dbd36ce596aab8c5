//! `POST /api/v1/campaigns/{campaign_id}/forces/generate`: basic or advanced force generation
//! (docs/rules.md §4.1, §4.2; S000 › BUILDING BASIC FORCES, ADVANCED FORCE GENERATION) with the
//! player's choices and server or entered dice; the result is stored as a force owned by the
//! caller, its roll log in the first history entry.
//!
//! `Idempotency-Key` is not honoured yet (no shared mechanism exists); a repeated request
//! generates a second force.

use std::collections::BTreeMap;

use std::sync::{Arc, Mutex};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::dice::{EnteredDice, RollLog, RollStep, ServerDice, TableDice, parse_steps};
use fad_domain::forcegen::{
    GenerationChoices, PendingAward, PlatoonEffect, generate, subject_allowed,
};
use fad_domain::validation::validate_force;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access, policy::campaign_not_found};
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::{Json, Strict, deserialize_strict};
use crate::routes::battles::{idempotency_key, idempotent, to_value};
use crate::store::{self, campaigns, forces, history::HistoryCause};

use super::ForceResponse;

/// The generated force and how it came about.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GenerateForceResponse {
    /// The stored force.
    pub force: ForceResponse,
    /// Every roll, in order (`step` `force_generation`, `detail` naming the table).
    pub rolls: RollLog,
    /// Platoon-wide effects with no unit field (Improved Intel, Longer Range, ...).
    pub effects: Vec<PlatoonEffect>,
    /// Awards left for the player to assign.
    pub pending: Vec<PendingAward>,
    /// Choices that could not be applied.
    pub notes: Vec<String>,
    /// Entered dice no roll used, by step and subject.
    #[schema(value_type = fad_domain::dice::EnteredDiceSchema)]
    pub unused_dice: EnteredDice,
}

/// The request as the server reads it: the choices of one method (`method` with that method's
/// fields, at the top level) and optional player-entered `dice`. Any other field is refused.
#[derive(Debug, ToSchema)]
#[schema(example = json!({"method": "basic", "platoons": 1, "name": "Red Company"}))]
pub struct GenerateForceRequest {
    /// `basic` (docs/rules.md §4.1) or `advanced` (§4.2), with that method's choices.
    #[serde(flatten)]
    pub choices: GenerationChoices,
    /// Player-entered dice: `{"force_generation": {"<subject>": [values]}}`; subjects are
    /// `force`, `force.artillery[k]`, `force.character[k]`, `platoon[i]`,
    /// `platoon[i].squad[j]`, `platoon[i].heavy_weapon[k]`.
    #[serde(default)]
    pub dice: Option<BTreeMap<String, BTreeMap<String, Vec<u8>>>>,
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
                "must be one of: basic, advanced",
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
            format!("must be one of: basic, advanced, not \"{method}\""),
        )),
    }
}

fn dice_errors(errors: Vec<fad_domain::dice::DiceError>) -> ApiError {
    errors.into()
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
    body: Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let campaign_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let body = body.into_inner();
    // serde_json's map is ordered, so this is a canonical form of the body for the key check.
    let canonical_body = serde_json::to_vec(&body).map_err(|e| ApiError::Internal(e.into()))?;
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
    let choices = parse_choices(map)?;
    let problems = fad_domain::forcegen::validate(&choices);
    if !problems.is_empty() {
        return Err(ApiError::Validation(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect(),
        ));
    }
    let entered = parse_steps(&raw_dice).map_err(crate::error::unknown_dice_steps)?;
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
    let mut dice = TableDice::new(&entered, ServerDice::from_seed(seed)).map_err(dice_errors)?;
    dice.check_subjects(|step, subject| {
        step == RollStep::ForceGeneration && subject_allowed(&choices, subject)
    })
    .map_err(dice_errors)?;

    // Authorize (and read the house rules) before rolling.
    let caller = user.caller();
    let id = campaign_id.clone();
    let settings = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &id, Need::Write)?;
            let campaign = campaigns::find_by_id(conn, &id)?.ok_or_else(campaign_not_found)?;
            campaign
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))
        })
        .await?;
    // Generation is pure CPU: it runs on the blocking pool, not on an async worker.
    let (generated, dice) = crate::db::in_request_span(move || {
        let generated = generate(&choices, &settings.house_rules, &mut dice);
        (generated, dice)
    })
    .await?;
    let generated = generated.map_err(ApiError::from)?;
    let mut roster = generated.force;
    for unit in roster.units_mut() {
        unit.id = crate::store::new_id();
    }
    validate_force(&roster).map_err(|problems| {
        ApiError::Internal(anyhow::anyhow!("generated roster is invalid: {problems:?}"))
    })?;
    let cause = HistoryCause::new("generation", Some(&user.user_id));
    let now = store::now();
    let force = forces::Force {
        id: store::new_id(),
        campaign_id: campaign_id.clone(),
        owner_id: user.user_id.clone(),
        name: roster.name.clone(),
        roster: serde_json::to_string(&roster).map_err(|e| ApiError::Internal(e.into()))?,
        version: 1,
        archived_at: None,
        created_at: now,
        updated_at: now,
    };
    let caller = user.caller();
    let unused_dice = dice.unused();
    let quotas = state.config.quotas;
    let scope = format!("POST /api/v1/campaigns/{campaign_id}/forces/generate");
    // Set when this request stored the force (not when it replays a stored response), so the
    // log line is written once, after the commit.
    let stored = Arc::new(Mutex::new(None::<String>));
    let stored_id = Arc::clone(&stored);
    // The force is stored in the same transaction as the Idempotency-Key's first response, so a
    // retried or concurrent request with the key never stores a second generated force.
    let response = idempotent(
        &state,
        &user.user_id,
        scope,
        key,
        &canonical_body,
        move |conn| {
            campaign_access(conn, &caller, &force.campaign_id, Need::Write)?;
            quotas.check_forces(conn, &force.campaign_id)?;
            forces::insert(conn, &force, &roster, &cause, &generated.rolls)?;
            crate::store::events::append(
                conn,
                &crate::store::events::Event::force_created(&force.campaign_id, &force.id),
            )?;
            *stored_id.lock().unwrap_or_else(|e| e.into_inner()) = Some(force.id.clone());
            let body = GenerateForceResponse {
                force: ForceResponse::new(force)?,
                rolls: generated.rolls,
                effects: generated.effects,
                pending: generated.pending,
                notes: generated.notes,
                unused_dice,
            };
            Ok((StatusCode::CREATED, to_value(&body)?))
        },
    )
    .await?;
    if let Some(id) = stored.lock().unwrap_or_else(|e| e.into_inner()).take() {
        tracing::info!(force.id = %id, "Generated force {id}");
    }
    Ok(response)
}
