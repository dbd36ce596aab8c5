//! Accounts (API.md "Accounts"), under `/api/v1`: registration and login (both rate-limited per
//! client address by [`crate::auth::AuthRateLimited`]) and the current user.

pub mod login;
pub mod me;
pub mod register;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::store::users::User;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(register::register)
        .service(login::login)
        .service(me::get_me);
}

/// Credentials for registration and login.
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

/// An account as others may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserResponse {
    /// The user id.
    pub id: String,
    /// The username as registered.
    pub username: String,
    /// When the account was created (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
}

impl From<User> for UserResponse {
    fn from(user: User) -> Self {
        Self {
            id: user.id,
            username: user.username,
            created_at: user.created_at.and_utc(),
        }
    }
}
