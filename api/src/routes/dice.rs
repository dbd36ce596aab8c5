//! Verifiable server dice, under `/api/v1/dice` (public): a commitment for a single later
//! request, and the check of revealed rolls (the derivation is `fad_domain::fair_dice`).

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;
use crate::app::dice::{self as app, DiceCommitment, VerifyRequest, VerifyResponse};
use crate::error::{ApiError, Problem};
use crate::extract::parse_json;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create_dice_commitment).service(verify_dice);
}

/// A commitment issued for one later request.
#[derive(Debug, Serialize, ToSchema)]
pub struct IssuedCommitment {
    /// The commitment: send `id` as the request's `dice_commitment_id`.
    #[serde(flatten)]
    pub commitment: DiceCommitment,
    /// Until when it can be used (UTC, RFC 3339).
    pub expires_at: String,
}

/// Issues a dice commitment for one later request (`dice_commitment_id` of a one-shot scenario
/// or a force generation): its SHA-256 now, its seed in that request's roll log.
#[utoipa::path(
    tag = "dice",
    operation_id = "create_dice_commitment",
    responses(
        (status = 201, description = "The commitment, usable once within the hour", body = IssuedCommitment),
        (status = 429, description = "This address asked for its most commitments in the last hour; `Retry-After` says when to try again", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/dice/commitments")]
pub async fn create_dice_commitment(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let address = req
        .peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_default();
    let client_hash =
        crate::auth::derived::client_address_hash(state.jwt_secret.expose(), &address)?;
    let (commitment, expires_at) = state
        .db
        .transaction(move |conn| app::issue_for_request(conn, &client_hash))
        .await?;
    Ok(HttpResponse::Created().json(IssuedCommitment {
        commitment,
        expires_at: expires_at.and_utc().to_rfc3339(),
    }))
}

/// Recomputes server rolls from their revealed seed and says whether the seed matches its
/// commitment and the values match the log. Anyone may call it; it reads nothing stored.
#[utoipa::path(
    tag = "dice",
    operation_id = "verify_dice",
    request_body = VerifyRequest,
    responses(
        (status = 200, description = "What the seed gives, and whether it matches", body = VerifyResponse),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A seed, commitment, dice text or value list that cannot be read (every problem, with its path)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/dice/verify")]
pub async fn verify_dice(body: web::Bytes) -> Result<HttpResponse, ApiError> {
    let request: VerifyRequest = parse_json(&body)?;
    Ok(HttpResponse::Ok().json(app::verify(&request)?))
}
