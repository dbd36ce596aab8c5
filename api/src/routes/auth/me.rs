//! `GET /api/v1/me`: the current user.

use actix_web::{get, web};

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::store::users;

use super::UserResponse;

/// The account of the caller (a user token; integration keys get 403).
#[utoipa::path(
    tag = "auth",
    operation_id = "get_me",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The current user", body = UserResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys have no account", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me")]
pub async fn get_me(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<UserResponse>, ApiError> {
    let found = state
        .db
        .run(move |conn| Ok(users::find_by_id(conn, &user.user_id)?))
        .await?;
    // A valid token for an account that no longer exists is a bad credential.
    let user = found.ok_or_else(|| ApiError::Unauthorized("Unknown user.".to_owned()))?;
    Ok(web::Json(UserResponse::from(user)))
}
