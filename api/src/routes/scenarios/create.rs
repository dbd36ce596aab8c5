//! `POST /api/v1/scenarios`: the one-shot generator. Parses the
//! body and the `Idempotency-Key`, then calls [`crate::app::scenarios::create::create_scenario`]
//! (shared with the `/scenarios/new` page).

use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::scenarios::create::{Generated, Generator, Repeat, create_scenario as generate};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::parse_json;
use crate::store::idempotency;

use super::ScenarioResponse;
use super::request::CreateScenarioRequest;

/// Generates and stores a scenario; 201 with the whole scenario and its `rolls`.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "create_scenario",
    security(("bearer" = [])),
    request_body = CreateScenarioRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Repeat-safe key: the same key and body answer the first response again")),
    responses(
        (status = 201, description = "The scenario, with every roll; a repeat with the same Idempotency-Key and body answers the first response again", body = ScenarioResponse),
        (status = 400, description = "Malformed JSON or Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The Idempotency-Key was used with another body; invalid sides, choices or entered dice, an unknown field or a count beyond the rules (every problem, with its path)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The account generated its most scenarios in the last hour (`FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR`); `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/scenarios")]
pub async fn create_scenario(
    user: AuthUser,
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = crate::extract::idempotency_key(&req)?;
    let request: CreateScenarioRequest = parse_json(&body)?;
    let repeat = key.map(|key| Repeat {
        key,
        request_hash: idempotency::hash_body(&body),
    });
    let generated = generate(&state, Generator::Person(user.caller()), request, repeat).await?;
    let id = generated.id().to_owned();
    // A replay answers the first answer again, byte for byte: a retry cannot tell them apart.
    let body = match generated {
        Generated::Fresh(response) => {
            serde_json::to_string(&response).map_err(|e| ApiError::Internal(e.into()))?
        }
        Generated::Replayed { body, .. } => body,
    };
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/api/v1/scenarios/{id}")))
        .content_type(ContentType::json())
        .body(body))
}
