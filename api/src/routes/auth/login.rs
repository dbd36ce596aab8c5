//! `POST /api/v1/auth/login`: exchange a username and password for an access token.

use actix_web::{post, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::AuthRateLimited;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::{AppState, app};

use super::CredentialsRequest;

/// An access token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    /// The JWT to send as `Authorization: Bearer <access_token>`.
    pub access_token: String,
    /// Always `Bearer`.
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    /// Seconds until the token expires.
    pub expires_in: i64,
}

/// Logs in: returns an access token for a username and password.
///
/// An unknown username and a wrong password get the same 401, after the same amount of work.
#[utoipa::path(
    tag = "auth",
    operation_id = "login",
    request_body = CredentialsRequest,
    responses(
        (status = 200, description = "Logged in", body = TokenResponse),
        (status = 401, description = "Unknown username or wrong password", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many attempts from this address; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/login")]
pub async fn login(
    _limit: AuthRateLimited,
    state: web::Data<AppState>,
    body: Json<CredentialsRequest>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let CredentialsRequest { username, password } = body.into_inner();
    let issued = app::accounts::login_for_token(&state, username, password).await?;
    Ok(web::Json(TokenResponse {
        access_token: issued.access_token,
        token_type: "Bearer",
        expires_in: issued.expires_in,
    }))
}
