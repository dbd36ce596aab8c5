//! Accounts, under `/api/v1`: registration and login (both rate-limited per
//! client address by [`crate::auth::AuthRateLimited`]) and the current user.

pub mod login;
pub mod me;
pub mod register;
pub mod tokens;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::store::users::User;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(register::register)
        .service(login::login)
        .service(me::get_me)
        .service(me::update_me)
        .service(tokens::create_token)
        .service(tokens::list_tokens)
        .service(tokens::revoke_token);
}

/// Credentials for login.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "alice", "password": "correct horse battery staple"}))]
pub struct CredentialsRequest {
    /// 3–32 characters: ASCII letters, digits, `_`, `-`, `.`; starts with a letter or digit.
    /// Unique without regard to case.
    #[schema(example = "alice")]
    pub username: String,
    /// At least 10 characters (at most 256).
    #[schema(example = "correct horse battery staple")]
    pub password: String,
}

/// A new account: credentials and, optionally, the name other players see.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "alice", "password": "correct horse battery staple", "display_name": "Alice B."}))]
pub struct RegisterRequest {
    /// 3–32 characters: ASCII letters, digits, `_`, `-`, `.`; starts with a letter or digit.
    /// Unique without regard to case.
    #[schema(example = "alice")]
    pub username: String,
    /// At least 10 characters (at most 256).
    #[schema(example = "correct horse battery staple")]
    pub password: String,
    /// The name other players (and club sites) see, 1–50 characters; absent or blank: the
    /// username.
    #[schema(example = "Alice B.")]
    pub display_name: Option<String>,
}

pub use crate::app::accounts::{MAX_DISPLAY_NAME_CHARS, validate_display_name};

/// An account as others may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserResponse {
    /// The user id.
    #[schema(read_only)]
    pub id: String,
    /// The username as registered.
    #[schema(read_only)]
    pub username: String,
    /// The name other players see: the display name given, or else the username.
    pub display_name: String,
    /// When the account was created (RFC 3339 UTC).
    #[schema(read_only)]
    pub created_at: DateTime<Utc>,
}

impl From<User> for UserResponse {
    fn from(user: User) -> Self {
        Self {
            display_name: user.shown_name().to_owned(),
            id: user.id,
            username: user.username,
            created_at: user.created_at.and_utc(),
        }
    }
}
