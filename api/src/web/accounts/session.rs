//! Browser sessions and CSRF protection for the pages.
//!
//! - The session cookie `fad_session` holds a random value; the server keeps only its SHA-256
//!   ([`crate::app::accounts`]). It is `HttpOnly; SameSite=Lax; Path=/`, and `Secure` when the
//!   public URL is `https://`. The JSON API never reads it (it takes bearer tokens only).
//! - Every state-changing form carries a synchronizer token tied to the session: an HMAC of the
//!   session's hash under the server secret, so it changes with every login and dies with the
//!   session. Forms shown before login (login, register) are tied the same way to a random
//!   `fad_form` cookie.
//! - Second layer: a POST whose `Sec-Fetch-Site` says cross-site, or whose `Origin` is not this
//!   site, is refused before its token is even looked at.

use actix_web::HttpRequest;
use actix_web::http::header;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::AppState;
use crate::app::accounts::{self, SessionUser};
use crate::auth::secret::{PlainSecret, hash_secret};
use crate::error::ApiError;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "fad_session";
/// Name of the cookie that ties signed-out forms to one browser.
pub const FORM_COOKIE: &str = "fad_form";
/// Name of the hidden form field carrying the token.
pub const CSRF_FIELD: &str = "csrf_token";

/// The value of cookie `name` in the request's `Cookie` headers, if any.
pub fn cookie(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// A `Set-Cookie` value with the pages' flags; `max_age` 0 deletes the cookie.
pub fn set_cookie(state: &AppState, name: &str, value: &str, max_age: i64) -> String {
    let secure = if state.config.serves_https() {
        "; Secure"
    } else {
        ""
    };
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}")
}

/// The `Set-Cookie` value of a new session.
pub fn session_cookie(state: &AppState, session: &accounts::NewSession) -> String {
    set_cookie(
        state,
        SESSION_COOKIE,
        session.cookie_value.expose(),
        accounts::SESSION_LIFETIME_DAYS * 24 * 3600,
    )
}

/// The signed-in person, if the request carries a live session cookie.
pub async fn signed_in(
    req: &HttpRequest,
    state: &AppState,
) -> Result<Option<SessionUser>, ApiError> {
    match cookie(req, SESSION_COOKIE) {
        Some(value) => accounts::resolve_session(state, &value).await,
        None => Ok(None),
    }
}

/// What ties a form to this browser: the session, or before login the form cookie.
#[derive(Debug, Clone)]
pub enum FormKey {
    /// A signed-in session (its hash).
    Session(String),
    /// A signed-out browser: the hash of its `fad_form` cookie, and the cookie to set when the
    /// browser has none yet.
    Anonymous {
        /// SHA-256 of the cookie value.
        hash: String,
        /// `Set-Cookie` to send with the page, when the cookie is new.
        set_cookie: Option<String>,
    },
}

impl FormKey {
    /// The key of a signed-in page.
    pub fn session(user: &SessionUser) -> Self {
        Self::Session(user.session_hash.clone())
    }

    /// The key of a signed-out page: the browser's form cookie, or a new one.
    pub fn anonymous(req: &HttpRequest, state: &AppState) -> Result<Self, ApiError> {
        if let Some(value) = cookie(req, FORM_COOKIE) {
            return Ok(Self::Anonymous {
                hash: hash_secret(&value),
                set_cookie: None,
            });
        }
        let value = PlainSecret::session().map_err(|e| ApiError::Internal(e.into()))?;
        Ok(Self::Anonymous {
            hash: value.hash(),
            // A day is plenty to fill in a login form.
            set_cookie: Some(set_cookie(state, FORM_COOKIE, value.expose(), 24 * 3600)),
        })
    }

    /// The token to put in the form.
    pub fn token(&self, state: &AppState) -> String {
        let (purpose, hash) = match self {
            Self::Session(hash) => ("session", hash),
            Self::Anonymous { hash, .. } => ("form", hash),
        };
        let mut mac = Hmac::<Sha256>::new_from_slice(state.jwt_secret.expose())
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(b"fad-csrf\0");
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac.update(hash.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// The `Set-Cookie` to send with the page, if any.
    pub fn set_cookie(&self) -> Option<&str> {
        match self {
            Self::Anonymous { set_cookie, .. } => set_cookie.as_deref(),
            Self::Session(_) => None,
        }
    }
}

/// Why a state-changing request was refused (always 403, nothing applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The request came from another site.
    CrossSite,
    /// The token is missing or does not belong to this session.
    BadToken,
}

/// Checks a form submission: same-site, and a token for `key` (compared in constant time).
pub fn check_form(
    req: &HttpRequest,
    state: &AppState,
    key: &FormKey,
    token: Option<&str>,
) -> Result<(), Refusal> {
    if !same_site(req, state) {
        return Err(Refusal::CrossSite);
    }
    let expected = key.token(state);
    let given = token.unwrap_or_default();
    let equal = given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if equal {
        Ok(())
    } else {
        Err(Refusal::BadToken)
    }
}

/// The Fetch Metadata and Origin checks. Clients that send neither header (not browsers) pass
/// on to the token check.
fn same_site(req: &HttpRequest, state: &AppState) -> bool {
    if let Some(site) = req.headers().get("sec-fetch-site") {
        if !matches!(site.to_str(), Ok("same-origin" | "none")) {
            return false;
        }
    }
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if !state.config.public_url.is_empty() && state.config.public_url == origin {
        return true;
    }
    let host = req.connection_info().host().to_owned();
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|rest| rest.eq_ignore_ascii_case(&host))
}
