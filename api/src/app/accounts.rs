//! Accounts: register, log in (a bearer token for programs, a session for browsers), log out,
//! change password. The JSON handlers and the pages call these same functions.

use std::net::IpAddr;

use actix_web::web;
use chrono::{Duration, NaiveDateTime};

use crate::AppState;
use crate::auth::password::{
    dummy_hash, hash_password, validate_password, validate_username, verify_password,
};
use crate::auth::secret::{PlainSecret, hash_secret};
use crate::error::{ApiError, FieldError};
use crate::store::{self, sessions, users};

/// How long a browser session lasts after login.
pub const SESSION_LIFETIME_DAYS: i64 = 30;

/// The fixed answer for an unknown name or a wrong password (the same for both).
pub const BAD_CREDENTIALS: &str = "Invalid username or password.";

/// Longest display name, in characters.
pub const MAX_DISPLAY_NAME_CHARS: usize = 50;

/// Checks a display name: trimmed, at most [`MAX_DISPLAY_NAME_CHARS`] characters, no control
/// characters. Blank means "show the username" (`None`).
pub fn validate_display_name(name: Option<&str>) -> Result<Option<String>, String> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > MAX_DISPLAY_NAME_CHARS {
        return Err(format!(
            "must have at most {MAX_DISPLAY_NAME_CHARS} characters"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("must not contain control characters such as line breaks".to_owned());
    }
    Ok(Some(name.to_owned()))
}

/// Creates an account. Field errors name `username`, `password` and `display_name`; a taken
/// name is 409.
pub async fn register(
    state: &AppState,
    username: String,
    password: String,
    display_name: Option<String>,
) -> Result<users::User, ApiError> {
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
    Ok(user)
}

/// Checks a username and password; answers the account id, or 401 with [`BAD_CREDENTIALS`]
/// after the same work whether the name exists or not.
pub async fn check_credentials(
    state: &AppState,
    username: String,
    password: String,
) -> Result<String, ApiError> {
    Ok(check_credentials_versioned(state, username, password)
        .await?
        .0)
}

/// [`check_credentials`], also returning the account's credentials generation, read in the
/// same snapshot as the password hash: a token issued with it is refused once the password
/// it was checked against is replaced.
async fn check_credentials_versioned(
    state: &AppState,
    username: String,
    password: String,
) -> Result<(String, i64), ApiError> {
    let found = state
        .db
        .read(move |conn| {
            let Some(user) = users::find_by_username(conn, &username)? else {
                return Ok(None);
            };
            let version = users::credentials_version(conn, &user.id)?.unwrap_or_default();
            Ok(Some((user, version)))
        })
        .await?;
    web::block(move || match found {
        Some((user, version)) => {
            verify_password(&password, &user.password_hash).then_some((user.id, version))
        }
        None => {
            // Same work as a wrong password, so timing does not reveal which names exist.
            let _ = verify_password(&password, dummy_hash());
            None
        }
    })
    .await?
    .ok_or_else(|| ApiError::Unauthorized(BAD_CREDENTIALS.to_owned()))
}

/// A bearer token for programs.
#[derive(Debug)]
pub struct IssuedToken {
    /// The JWT.
    pub access_token: String,
    /// Seconds until it expires.
    pub expires_in: i64,
}

/// Logs in for programs: a bearer token.
pub async fn login_for_token(
    state: &AppState,
    username: String,
    password: String,
) -> Result<IssuedToken, ApiError> {
    let (user_id, version) = check_credentials_versioned(state, username, password).await?;
    let access_token = state
        .auth
        .jwt
        .issue(&user_id, version, chrono::Utc::now())
        .map_err(|e| ApiError::Internal(e.into()))?;
    tracing::info!(user.id = %user_id, "User {user_id} logged in");
    Ok(IssuedToken {
        access_token,
        expires_in: state.auth.jwt.lifetime_seconds(),
    })
}

/// A new browser session: the cookie value (shown once, never stored) and its expiry.
pub struct NewSession {
    /// The value to put in the session cookie.
    pub cookie_value: PlainSecret,
    /// When it stops being accepted.
    pub expires_at: NaiveDateTime,
}

/// Logs in for browsers: a server-side session (only the SHA-256 of its value is stored).
pub async fn login_for_session(
    state: &AppState,
    username: String,
    password: String,
) -> Result<NewSession, ApiError> {
    let user_id = check_credentials(state, username, password).await?;
    start_session(state, user_id).await
}

/// Starts a session for `user_id` (after login or registration).
pub async fn start_session(state: &AppState, user_id: String) -> Result<NewSession, ApiError> {
    let cookie_value = PlainSecret::session().map_err(|e| ApiError::Internal(e.into()))?;
    let now = store::now();
    let expires_at = now + Duration::days(SESSION_LIFETIME_DAYS);
    let row = sessions::Session {
        id_hash: cookie_value.hash(),
        user_id,
        created_at: now,
        expires_at,
    };
    state
        .db
        .transaction(move |conn| {
            sessions::delete_expired_for_user(conn, &row.user_id, now)?;
            sessions::insert(conn, &row)?;
            tracing::info!(user.id = %row.user_id, "User {} started a web session", row.user_id);
            Ok(())
        })
        .await?;
    Ok(NewSession {
        cookie_value,
        expires_at,
    })
}

/// The person behind a session cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionUser {
    /// Account id.
    pub user_id: String,
    /// Username as registered.
    pub username: String,
    /// SHA-256 of the cookie value (identifies the session without the secret).
    pub session_hash: String,
}

/// The live session a cookie value names, if any (one query).
pub async fn resolve_session(
    state: &AppState,
    cookie_value: &str,
) -> Result<Option<SessionUser>, ApiError> {
    let session_hash = hash_secret(cookie_value);
    let key = session_hash.clone();
    let found = state
        .db
        .run(move |conn| Ok(sessions::find_live(conn, &key, store::now())?))
        .await?;
    Ok(found.map(|(user_id, username)| SessionUser {
        user_id,
        username,
        session_hash,
    }))
}

/// Whether the session with this hash is still live (not logged out, not ended by a password
/// change, not expired): a long-lived response such as the battle page's live stream asks
/// again as it runs, so it ends with its session.
pub async fn session_is_live(state: &AppState, session_hash: &str) -> Result<bool, ApiError> {
    let key = session_hash.to_owned();
    Ok(state
        .db
        .run(move |conn| Ok(sessions::find_live(conn, &key, store::now())?))
        .await?
        .is_some())
}

/// Logs out: the session ends on the server.
pub async fn logout(state: &AppState, session: &SessionUser) -> Result<(), ApiError> {
    let (user_id, key) = (session.user_id.clone(), session.session_hash.clone());
    state
        .db
        .write_one(move |conn| Ok(sessions::delete(conn, &user_id, &key)?))
        .await?;
    Ok(())
}

/// Spends one unit of `client`'s sign-in budget (`FAD_AUTH_RATE_PER_MINUTE`, the one login
/// and registration spend) for a password guess elsewhere; 429 with `Retry-After` beyond it.
pub fn spend_sign_in_attempt(state: &AppState, client: IpAddr) -> Result<(), ApiError> {
    state
        .auth
        .rate_limiter
        .check(client)
        .map_err(|retry_after_secs| ApiError::TooManyRequests {
            detail: format!(
                "Too many attempts from this address; try again in {retry_after_secs} seconds."
            ),
            retry_after_secs,
        })
}

/// Changes the caller's password after checking the current one; every session of the account
/// ends (the caller logs in again) and every access token issued before is refused. Each try
/// spends the sign-in budget of `client` first: a stolen session must not guess the current
/// password faster than the login form allows. Field errors name `current_password` and
/// `new_password`; 429 when the budget is spent.
pub async fn change_password(
    state: &AppState,
    user_id: &str,
    client: IpAddr,
    current_password: String,
    new_password: String,
) -> Result<(), ApiError> {
    spend_sign_in_attempt(state, client)?;
    let id = user_id.to_owned();
    let user = state
        .db
        .run(move |conn| Ok(users::find_by_id(conn, &id)?))
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Unknown user.".to_owned()))?;
    let stored_hash = user.password_hash.clone();
    let username = user.username.clone();
    let (current_ok, checked, new_password) = web::block(move || {
        let current_ok = verify_password(&current_password, &stored_hash);
        let checked = validate_password(&new_password, &[&username]);
        (current_ok, checked, new_password)
    })
    .await?;
    let mut errors = Vec::new();
    if !current_ok {
        errors.push(FieldError::new(
            "current_password",
            "This is not your current password.",
        ));
    }
    if let Err(message) = checked {
        errors.push(FieldError::new("new_password", message));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let hash = web::block(move || hash_password(&new_password))
        .await?
        .map_err(|e| ApiError::Internal(e.into()))?;
    let user_id = user.id;
    let version = state
        .db
        .transaction(move |conn| {
            users::set_password_hash(conn, &user.username, &hash)?;
            sessions::delete_for_user(conn, &user_id)?;
            let version = users::credentials_version(conn, &user_id)?.unwrap_or_default();
            tracing::info!(user.id = %user_id, "User {user_id} changed their password");
            Ok((user_id, version))
        })
        .await?;
    // This process refuses the old tokens at once; others within `accounts::RECHECK`.
    state.auth.accounts.insert(&version.0, version.1);
    Ok(())
}
