//! `POST /api/v1/auth/login`: exchange a username and password for an access token.

use actix_web::{post, web};
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthRateLimited;
use crate::auth::password::{dummy_hash, verify_password};
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store::users;

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
    let found = state
        .db
        .run(move |conn| Ok(users::find_by_username(conn, &username)?))
        .await?;
    let user_id = web::block(move || match found {
        Some(user) => verify_password(&password, &user.password_hash).then_some(user.id),
        None => {
            // Same work as a wrong password, so timing does not reveal which names exist.
            let _ = verify_password(&password, dummy_hash());
            None
        }
    })
    .await?
    .ok_or_else(|| ApiError::Unauthorized("Invalid username or password.".to_owned()))?;

    let access_token = state
        .auth
        .jwt
        .issue(&user_id, Utc::now())
        .map_err(|e| ApiError::Internal(e.into()))?;
    tracing::info!(user.id = %user_id, "User {user_id} logged in");
    Ok(web::Json(TokenResponse {
        access_token,
        token_type: "Bearer",
        expires_in: state.auth.jwt.lifetime_seconds(),
    }))
}
