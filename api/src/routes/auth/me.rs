//! `GET /api/v1/me`: the current user; `PATCH /api/v1/me`: change the name others see.

use actix_web::{get, patch, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::store::users;

use super::{UserResponse, validate_display_name};

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

/// A change to the caller's account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"display_name": "Alice B."}))]
pub struct UpdateMeRequest {
    /// The name other players see, 1–50 characters; `null` or blank shows the username again.
    pub display_name: Option<String>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub id: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub username: Option<serde_json::Value>,
    /// Read-only (as `GET` answers it): ignored.
    #[serde(default)]
    #[schema(read_only, value_type = Option<String>)]
    pub created_at: Option<serde_json::Value>,
}

/// Changes the caller's display name.
#[utoipa::path(
    tag = "auth",
    operation_id = "update_me",
    security(("bearer" = [])),
    request_body = UpdateMeRequest,
    responses(
        (status = 200, description = "The account as changed", body = UserResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys have no account", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The display name is too long or holds control characters", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[patch("/me")]
pub async fn update_me(
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<UpdateMeRequest>,
) -> Result<web::Json<UserResponse>, ApiError> {
    let display_name = validate_display_name(body.into_inner().display_name.as_deref())
        .map_err(|message| ApiError::validation("display_name", message))?;
    let updated = state
        .db
        .write_one(move |conn| {
            Ok(users::set_display_name(
                conn,
                &user.user_id,
                display_name.as_deref(),
            )?)
        })
        .await?;
    let user = updated.ok_or_else(|| ApiError::Unauthorized("Unknown user.".to_owned()))?;
    Ok(web::Json(UserResponse::from(user)))
}
