//! `POST /api/v1/auth/register`: create an account.

use actix_web::{HttpResponse, post, web};

use crate::auth::AuthRateLimited;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::{AppState, app};

use super::{RegisterRequest, UserResponse};

/// Registers an account with a username and password.
///
/// The password is hashed with Argon2id. Usernames are unique without regard to case. A
/// password must have 10 to 256 characters and be hard to guess (a zxcvbn score of at least 3,
/// the username counting as known); a weak one is 422 with advice on field `password`.
#[utoipa::path(
    tag = "auth",
    operation_id = "register",
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "The account was created", body = UserResponse),
        (status = 409, description = "The username is taken", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid username or password", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many attempts from this address; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/auth/register")]
pub async fn register(
    _limit: AuthRateLimited,
    state: web::Data<AppState>,
    body: Json<RegisterRequest>,
) -> Result<HttpResponse, ApiError> {
    let RegisterRequest {
        username,
        password,
        display_name,
    } = body.into_inner();
    let user = app::accounts::register(&state, username, password, display_name).await?;
    Ok(HttpResponse::Created().json(UserResponse::from(user)))
}
