//! `POST /api/v1/auth/register`: create an account.

use actix_web::{HttpResponse, post, web};

use crate::AppState;
use crate::auth::AuthRateLimited;
use crate::auth::password::{hash_password, validate_password, validate_username};
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::Json;
use crate::store::{self, users};

use super::{RegisterRequest, UserResponse, validate_display_name};

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
    let mut errors = Vec::new();
    let display_name = validate_display_name(display_name.as_deref())
        .map_err(|message| errors.push(FieldError::new("display_name", message)))
        .ok()
        .flatten();
    let username_lower = validate_username(&username)
        .map_err(|message| errors.push(FieldError::new("username", message)))
        .ok();
    // zxcvbn takes milliseconds on a long password: off the async workers, like hashing.
    let user_input = username.clone();
    let (checked, password) =
        web::block(move || (validate_password(&password, &[&user_input]), password)).await?;
    if let Err(message) = checked {
        errors.push(FieldError::new("password", message));
    }
    let Some(username_lower) = username_lower.filter(|_| errors.is_empty()) else {
        return Err(ApiError::Validation(errors));
    };

    let password_hash = web::block(move || hash_password(&password))
        .await?
        .map_err(|e| ApiError::Internal(e.into()))?;

    let user = users::User {
        id: store::new_id(),
        username,
        username_lower,
        password_hash,
        created_at: store::now(),
        display_name,
    };
    let user = state
        .db
        .transaction(move |conn| {
            users::insert(conn, &user).map_err(|e| match e {
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => ApiError::Conflict("This username is taken.".to_owned()),
                other => other.into(),
            })
        })
        .await?;
    tracing::info!(user.id = %user.id, "Registered user {}", user.id);
    Ok(HttpResponse::Created().json(UserResponse::from(user)))
}
