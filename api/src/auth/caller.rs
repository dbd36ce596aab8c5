//! Who is calling: [`resolve`] reads the credentials of a request, once, in one place; the
//! [`super::gate`] middleware calls it before any extractor runs (so a bad credential is 401
//! whatever the body), and the [`Caller`] and [`AuthUser`] extractors hand its answer on.
//!
//! - `Authorization: Bearer <jwt>` → [`Caller::User`] (signature, algorithm, expiry, issuer and
//!   audience checked by [`super::jwt`]; the account must exist and the token must carry its
//!   current credentials generation, so a password change refuses every older token).
//! - `Authorization: Bearer fad_…` or `X-Api-Key: fad_…` → [`Caller::ApiKey`], looked up by its
//!   SHA-256 among the keys that are not revoked; its `last_used_at` is refreshed at most once a
//!   minute.
//! - `Authorization: Bearer fadp_…` → [`Caller::User`] through a personal access token, looked
//!   up by its SHA-256 among the live ones (not revoked, not expired); [`ViaToken`] tells the
//!   gate its scope, so a `read` token gets 403 on every write.
//! - No credentials, a malformed header, both headers at once, a bad token or an unknown or
//!   revoked key → 401. Tokens in query strings are never read.
//!
//! [`AuthUser`] is the extractor for handlers that need a person (every write): an integration
//! key gets 403, because keys are read-only.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header::{AUTHORIZATION, HeaderMap};
use actix_web::{FromRequest, HttpMessage, HttpRequest};

use crate::AppState;
use crate::error::ApiError;
use crate::store::{self, api_keys, personal_tokens};

use super::secret::{API_KEY_PREFIX, PERSONAL_TOKEN_PREFIX, hash_secret};

/// The header integration keys may come in, instead of `Authorization: Bearer`.
pub const API_KEY_HEADER: &str = "x-api-key";

/// An authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// A person, from a valid access token.
    User {
        /// The user's id (the token's `sub`).
        user_id: String,
    },
    /// A read-only integration key of one campaign.
    ApiKey {
        /// The key's id.
        key_id: String,
        /// The one campaign the key may read.
        campaign_id: String,
    },
}

impl Caller {
    /// The user id when the caller is a person.
    pub fn user_id(&self) -> Option<&str> {
        match self {
            Self::User { user_id } => Some(user_id),
            Self::ApiKey { .. } => None,
        }
    }
}

/// A person who called with a personal access token rather than a sign-in: stored in the
/// request's extensions beside the [`Caller`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViaToken {
    /// The token's id.
    pub token_id: String,
    /// Whether its scopes include `write`.
    pub writes: bool,
}

/// A caller that must be a person: integration keys are refused with 403 (keys never write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthUser {
    /// The user's id.
    pub user_id: String,
}

impl AuthUser {
    /// The same caller as a [`Caller`], for [`super::campaign_access`].
    pub fn caller(&self) -> Caller {
        Caller::User {
            user_id: self.user_id.clone(),
        }
    }
}

/// The credential a request presents, before it is checked.
#[derive(PartialEq, Eq)]
enum Credential {
    Jwt(String),
    ApiKey(String),
    PersonalToken(String),
}

fn unauthorized(detail: &str) -> ApiError {
    ApiError::Unauthorized(detail.to_owned())
}

/// Reads the one credential of a request from its headers.
fn read_credential(headers: &HeaderMap) -> Result<Credential, ApiError> {
    let bearer = match headers.get(AUTHORIZATION) {
        None => None,
        Some(value) => {
            let value = value
                .to_str()
                .map_err(|_| unauthorized("The Authorization header is not valid text."))?;
            let (scheme, token) = value
                .split_once(' ')
                .ok_or_else(|| unauthorized("The Authorization header must read `Bearer <token>`, with the access token from login or an integration key."))?;
            if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
                return Err(unauthorized(
                    "The Authorization header must read `Bearer <token>`, with the access token from login or an integration key.",
                ));
            }
            Some(token.trim().to_owned())
        }
    };
    let api_key = match headers.get(API_KEY_HEADER) {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .map_err(|_| unauthorized("The X-Api-Key header is not valid text."))?
                .trim()
                .to_owned(),
        ),
    };
    match (bearer, api_key) {
        (Some(_), Some(_)) => Err(unauthorized(
            "Send either Authorization or X-Api-Key, not both.",
        )),
        (Some(token), None) if token.starts_with(API_KEY_PREFIX) => Ok(Credential::ApiKey(token)),
        (Some(token), None) if token.starts_with(PERSONAL_TOKEN_PREFIX) => {
            Ok(Credential::PersonalToken(token))
        }
        (Some(token), None) => Ok(Credential::Jwt(token)),
        (None, Some(key)) => Ok(Credential::ApiKey(key)),
        (None, None) => Err(unauthorized(
            "Authentication required: send `Authorization: Bearer <token>` with the access token from login.",
        )),
    }
}

/// Resolves the credential of a request into a [`Caller`]: a token's signature and claims and
/// its account's existence (a token signed with the same secret may name an account a restored
/// database does not have), or an integration key's hash among the live keys.
pub async fn resolve(state: &AppState, headers: &HeaderMap) -> Result<Caller, ApiError> {
    resolve_with_token(state, headers)
        .await
        .map(|(caller, _)| caller)
}

/// [`resolve`], telling also whether the person came with a personal access token.
pub async fn resolve_with_token(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(Caller, Option<ViaToken>), ApiError> {
    let caller = match read_credential(headers)? {
        Credential::PersonalToken(token) => {
            let hash = hash_secret(&token);
            let found = state
                .db
                .run(move |conn| {
                    let now = store::now();
                    let found = personal_tokens::find_live_by_hash(conn, &hash, now)?;
                    if let Some(token) = &found {
                        personal_tokens::touch_last_used(conn, token, now)?;
                    }
                    Ok(found)
                })
                .await?;
            let token = found.ok_or_else(|| {
                unauthorized("The personal access token is unknown, expired or revoked; make a new one under Account.")
            })?;
            let via = ViaToken {
                writes: crate::app::tokens::row_writes(&token),
                token_id: token.id,
            };
            return Ok((
                Caller::User {
                    user_id: token.user_id,
                },
                Some(via),
            ));
        }
        Credential::Jwt(token) => {
            let claims = state.auth.jwt.verify(&token).map_err(|e| {
                tracing::debug!(error = %e, "refused an access token");
                unauthorized(
                    "The access token is invalid or has expired; log in again for a new one.",
                )
            })?;
            let user_id = claims.sub;
            let version = match state.auth.accounts.version(&user_id) {
                Some(version) => version,
                None => {
                    let id = user_id.clone();
                    let found = state
                        .db
                        .run(move |conn| Ok(store::users::credentials_version(conn, &id)?))
                        .await?;
                    let Some(version) = found else {
                        tracing::debug!(user.id = %user_id, "refused a token of an unknown account");
                        return Err(unauthorized(
                            "The account of this access token does not exist.",
                        ));
                    };
                    state.auth.accounts.insert(&user_id, version);
                    version
                }
            };
            if claims.cv != version {
                tracing::debug!(user.id = %user_id, "refused a token issued before a password change");
                return Err(unauthorized(
                    "This access token was issued before the password was changed; log in again for a new one.",
                ));
            }
            Caller::User { user_id }
        }
        Credential::ApiKey(key) => {
            let hash = hash_secret(&key);
            let found = state
                .db
                .run(move |conn| {
                    let found = api_keys::find_active_by_hash(conn, &hash)?;
                    let now = store::now();
                    // Skip the write (a round trip) while the stored use is recent.
                    if let Some(key) = found.as_ref().filter(|k| api_keys::use_is_stale(k, now)) {
                        api_keys::touch_last_used(conn, &key.id, now)?;
                    }
                    Ok(found)
                })
                .await?;
            let key = found.ok_or_else(|| unauthorized("The integration key is unknown or was revoked; ask the organiser for a new one."))?;
            Caller::ApiKey {
                key_id: key.id,
                campaign_id: key.campaign_id,
            }
        }
    };
    Ok((caller, None))
}

/// The 403 for an integration key on an operation only a person may use.
pub fn key_refused() -> ApiError {
    ApiError::Forbidden("Integration keys are read-only.".to_owned())
}

/// The caller [`super::gate::authenticate`] resolved before any other extractor ran. A handler
/// whose operation declares no `security` gets none: a programming error, answered 500.
impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(req.extensions().get::<Caller>().cloned().ok_or_else(|| {
            ApiError::Internal(anyhow::anyhow!(
                "{} {} takes a caller but its operation declares no `security`",
                req.method(),
                req.match_pattern().unwrap_or_default()
            ))
        }))
    }
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let caller = Caller::from_request(req, payload).into_inner();
        ready(caller.and_then(|caller| match caller {
            Caller::User { user_id } => Ok(AuthUser { user_id }),
            Caller::ApiKey { .. } => Err(key_refused()),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn bearer_jwt_and_bearer_key_and_x_api_key_are_told_apart() {
        assert!(
            read_credential(&headers(&[("authorization", "Bearer eyJ.a.b")])).unwrap()
                == Credential::Jwt("eyJ.a.b".into())
        );
        assert!(
            read_credential(&headers(&[("authorization", "bearer fad_abc")])).unwrap()
                == Credential::ApiKey("fad_abc".into())
        );
        assert!(
            read_credential(&headers(&[("x-api-key", "fad_abc")])).unwrap()
                == Credential::ApiKey("fad_abc".into())
        );
    }

    #[test]
    fn missing_malformed_or_doubled_credentials_are_refused() {
        for case in [
            headers(&[]),
            headers(&[("authorization", "Basic dXNlcjpwYXNz")]),
            headers(&[("authorization", "Bearer")]),
            headers(&[("authorization", "Bearer ")]),
            headers(&[("authorization", "token")]),
            headers(&[("authorization", "Bearer x"), ("x-api-key", "fad_y")]),
        ] {
            assert!(read_credential(&case).is_err());
        }
    }
}
