//! Personal access tokens (`fadp_…`): a person makes one for a bot that acts for them, with
//! the `read` scope alone or `read` and `write`, optionally expiring; lists and revokes them.
//! The token is shown once; the database keeps its SHA-256 (see [`crate::auth::secret`]).

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::secret::{API_KEY_DISPLAY_PREFIX_CHARS, PlainSecret};
use crate::error::{ApiError, FieldError};
use crate::store::personal_tokens::{self, MAX_PER_USER, NewPersonalToken, PersonalToken};
use crate::store::{self};

/// Longest lifetime a token may be given, in days.
pub const MAX_EXPIRES_IN_DAYS: i64 = 366;

/// What a token may do.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TokenScope {
    /// Every read the person may make (`GET`, the live battle stream).
    Read,
    /// Every write the person may make, too (with `read`).
    Write,
}

/// A new token's settings.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "discord bot", "scopes": ["read"], "expires_in_days": 90}))]
pub struct NewToken {
    /// What it is for, 1–100 characters.
    pub name: String,
    /// `["read"]` or `["read", "write"]`.
    pub scopes: Vec<TokenScope>,
    /// Days until it stops working (1–366); absent: it works until revoked.
    #[serde(default)]
    pub expires_in_days: Option<i64>,
}

/// A token as listed (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TokenView {
    /// The token id (to revoke it).
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it may do.
    pub scopes: Vec<TokenScope>,
    /// The first characters of the token, to tell tokens apart.
    pub token_prefix: String,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// When it stops working, if ever.
    pub expires_at: Option<DateTime<Utc>>,
    /// Last use, to the minute, if ever used.
    pub last_used_at: Option<DateTime<Utc>>,
}

/// A new token with its secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CreatedToken {
    /// The token as listed.
    #[serde(flatten)]
    pub view: TokenView,
    /// The token: `fadp_` + 64 hex digits, sent as `Authorization: Bearer <token>`. It cannot
    /// be shown again.
    pub token: String,
}

impl TokenView {
    fn of(row: PersonalToken) -> Self {
        Self {
            scopes: serde_json::from_str(&row.scopes).unwrap_or_else(|_| vec![TokenScope::Read]),
            id: row.id,
            name: row.name,
            token_prefix: row.token_prefix,
            created_at: row.created_at.and_utc(),
            expires_at: row.expires_at.map(|t| t.and_utc()),
            last_used_at: row.last_used_at.map(|t| t.and_utc()),
        }
    }

    /// Whether the token may write.
    pub fn writes(&self) -> bool {
        self.scopes.contains(&TokenScope::Write)
    }
}

/// The scopes of a stored token row: whether it may write.
pub fn row_writes(row: &PersonalToken) -> bool {
    serde_json::from_str::<Vec<TokenScope>>(&row.scopes)
        .is_ok_and(|scopes| scopes.contains(&TokenScope::Write))
}

fn check(new: &NewToken) -> Result<(String, Vec<TokenScope>), ApiError> {
    let mut errors = Vec::new();
    let name = new.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        errors.push(FieldError::new(
            "name",
            "must have 1 to 100 characters and no control characters",
        ));
    }
    let mut scopes = new.scopes.clone();
    scopes.sort();
    scopes.dedup();
    if !scopes.contains(&TokenScope::Read) {
        errors.push(FieldError::new(
            "scopes",
            "must be [\"read\"] or [\"read\", \"write\"]: every token reads",
        ));
    }
    if new
        .expires_in_days
        .is_some_and(|d| !(1..=MAX_EXPIRES_IN_DAYS).contains(&d))
    {
        errors.push(FieldError::new(
            "expires_in_days",
            format!("must be between 1 and {MAX_EXPIRES_IN_DAYS}"),
        ));
    }
    if errors.is_empty() {
        Ok((name, scopes))
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// Makes a token for `user_id`.
pub async fn create(
    state: &AppState,
    user_id: &str,
    new: NewToken,
) -> Result<CreatedToken, ApiError> {
    let (name, scopes) = check(&new)?;
    let secret = PlainSecret::personal_token().map_err(|e| ApiError::Internal(e.into()))?;
    let now = store::now();
    let row = PersonalToken {
        id: store::new_id(),
        user_id: user_id.to_owned(),
        name,
        token_prefix: secret
            .expose()
            .chars()
            .take(API_KEY_DISPLAY_PREFIX_CHARS + 1)
            .collect(),
        scopes: serde_json::to_string(&scopes).map_err(|e| ApiError::Internal(e.into()))?,
        created_at: now,
        expires_at: new.expires_in_days.map(|d| now + TimeDelta::days(d)),
        last_used_at: None,
        revoked_at: None,
    };
    let (hash, stored) = (secret.hash(), row.clone());
    state
        .db
        .transaction(move |conn| {
            if personal_tokens::list_live(conn, &stored.user_id, now)?.len() as i64 >= MAX_PER_USER
            {
                return Err(ApiError::Conflict(format!(
                    "You have {MAX_PER_USER} tokens; revoke one you no longer use first."
                )));
            }
            Ok(personal_tokens::insert(
                conn,
                &NewPersonalToken {
                    id: &stored.id,
                    user_id: &stored.user_id,
                    name: &stored.name,
                    token_hash: &hash,
                    token_prefix: &stored.token_prefix,
                    scopes: &stored.scopes,
                    created_at: stored.created_at,
                    expires_at: stored.expires_at,
                },
            )?)
        })
        .await?;
    tracing::info!(user.id = %row.user_id, token.id = %row.id, "Created personal access token {}", row.id);
    Ok(CreatedToken {
        view: TokenView::of(row),
        token: secret.expose().to_owned(),
    })
}

/// `user_id`'s live tokens, newest first.
pub async fn list(state: &AppState, user_id: &str) -> Result<Vec<TokenView>, ApiError> {
    let user_id = user_id.to_owned();
    let rows = state
        .db
        .run(move |conn| Ok(personal_tokens::list_live(conn, &user_id, store::now())?))
        .await?;
    Ok(rows.into_iter().map(TokenView::of).collect())
}

/// Revokes `user_id`'s token `id` (404 when unknown or another person's; again: nothing).
pub async fn revoke(state: &AppState, user_id: &str, id: &str) -> Result<(), ApiError> {
    let (user_id, id) = (user_id.to_owned(), id.to_owned());
    state
        .db
        .transaction(move |conn| {
            if personal_tokens::revoke(conn, &user_id, &id, store::now())? > 0 {
                tracing::info!(user.id = %user_id, token.id = %id, "Revoked personal access token {id}");
                return Ok(());
            }
            // Revoking twice is harmless; another person's token is as unknown as none.
            match personal_tokens::exists(conn, &user_id, &id)? {
                true => Ok(()),
                false => Err(ApiError::not_found("token")),
            }
        })
        .await
}
