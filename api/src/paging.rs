//! Paging of every list endpoint: an answer holds at most `limit` items (1–100, default 50) and
//! `next`, which the client sends back as `after` to read the following page (`null` on the
//! last page).
//!
//! A cursor is the position of a page's last item in the list's order: that item's sort key,
//! e.g. `(created_at, id)`. The store reads the following page with `WHERE key > cursor ORDER
//! BY key LIMIT limit + 1` (the extra row tells whether another page follows), so there are no
//! offsets: an item inserted or removed between two pages never makes another repeat or go
//! missing. The key travels as JSON behind an HMAC bound to the list and its scope (the
//! campaign, force or user whose list it is), base64url-encoded: clients cannot edit or forge
//! one, and a cursor of another list is refused rather than read as a wrong position.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use utoipa::IntoParams;

use crate::AppState;
use crate::error::{ApiError, FieldError};

/// Items per page when the request names no `limit`.
pub const DEFAULT_LIMIT: i64 = 50;
/// The largest `limit` accepted.
pub const MAX_LIMIT: i64 = 100;

/// Bytes of the HMAC kept in a cursor: enough against forgery, short enough for a URL.
const TAG_BYTES: usize = 16;
/// Separates the purposes of the service secret (the same secret signs access tokens).
const KEY_CONTEXT: &[u8] = b"fad-campaign list cursor v1";

const LIMIT_MESSAGE: &str = "must be a whole number from 1 to 100";
const AFTER_MESSAGE: &str = "must be the `next` value of an earlier page of this same list";

/// The paging parameters every list takes, for the OpenAPI document; [`Page`] reads them.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    /// How many items to return, 1–100 (default 50).
    #[param(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<i64>,
    /// Where to continue: the `next` of the previous page, as it was sent (opaque). Leave it
    /// out for the first page.
    pub after: Option<String>,
}

/// The query string as text, so a bad value gets our message rather than a parser's.
#[derive(Deserialize)]
struct RawParams {
    limit: Option<String>,
    after: Option<String>,
}

fn bad(field: &str, message: &str) -> ApiError {
    ApiError::BadRequest {
        detail: format!("{field} {message}."),
        errors: vec![FieldError::new(field, message)],
    }
}

/// The requested page of a list: the extractor checks `limit` and keeps `after` until the
/// handler names its list with [`Page::keyset`]. Other query parameters are left to the
/// handler's own query type.
#[derive(Debug, Clone)]
pub struct Page {
    limit: i64,
    after: Option<String>,
    signer: Signer,
}

impl Page {
    /// Parses `limit` and `after` from a query string.
    fn parse(query: &str, signer: Signer) -> Result<Self, ApiError> {
        let raw = web::Query::<RawParams>::from_query(query)
            .map_err(|_| {
                ApiError::bad_request(
                    "The query string cannot be read; give limit and after at most once each.",
                )
            })?
            .into_inner();
        let limit = match raw.limit {
            None => DEFAULT_LIMIT,
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=MAX_LIMIT).contains(n))
                .ok_or_else(|| bad("limit", LIMIT_MESSAGE))?,
        };
        // An empty `after` reads as the first page, the way a client's empty variable would.
        let after = raw.after.filter(|a| !a.is_empty());
        Ok(Self {
            limit,
            after,
            signer,
        })
    }

    /// The page as a keyset over `K` of the list `list` of `scope` (the campaign, force or
    /// user the list belongs to). 400 naming `after` when the cursor is not one this list gave.
    pub fn keyset<K: DeserializeOwned>(
        self,
        list: &'static str,
        scope: &str,
    ) -> Result<Keyset<K>, ApiError> {
        let after = self
            .after
            .as_deref()
            .map(|cursor| self.signer.open(list, scope, cursor))
            .transpose()?;
        Ok(Keyset {
            after,
            limit: self.limit,
            list,
            scope: scope.to_owned(),
            signer: self.signer,
        })
    }
}

impl FromRequest for Page {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let page = req
            .app_data::<web::Data<AppState>>()
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("no application state")))
            .and_then(|state| Signer::new(state.jwt_secret.expose()))
            .and_then(|signer| Self::parse(req.query_string(), signer));
        ready(page)
    }
}

/// One list's page: where it starts and how long it is.
#[derive(Debug, Clone)]
pub struct Keyset<K> {
    /// The sort key of the last item of the previous page; `None` for the first page.
    pub after: Option<K>,
    /// Items per page.
    pub limit: i64,
    list: &'static str,
    scope: String,
    signer: Signer,
}

impl<K: Serialize> Keyset<K> {
    /// Rows to ask the store for: one more than a page, to learn whether another follows.
    pub fn fetch(&self) -> i64 {
        self.limit + 1
    }

    /// Cuts rows fetched with [`Keyset::fetch`] to the page and builds `next` from the key of
    /// its last item (`None` when no row was left over).
    pub fn finish<T>(
        &self,
        mut rows: Vec<T>,
        key: impl FnOnce(&T) -> K,
    ) -> Result<(Vec<T>, Option<String>), ApiError> {
        let limit = usize::try_from(self.limit).unwrap_or(usize::MAX);
        if rows.len() <= limit {
            return Ok((rows, None));
        }
        rows.truncate(limit);
        let next = match rows.last() {
            Some(last) => Some(self.signer.seal(self.list, &self.scope, &key(last))?),
            None => None,
        };
        Ok((rows, next))
    }
}

/// Signs and opens cursors.
#[derive(Clone)]
struct Signer(Hmac<Sha256>);

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer(<redacted>)")
    }
}

impl Signer {
    /// A signer keyed by a key derived from the service secret.
    fn new(secret: &[u8]) -> Result<Self, ApiError> {
        let internal = |e: hmac::digest::InvalidLength| ApiError::Internal(e.into());
        let mut derive = Hmac::<Sha256>::new_from_slice(secret).map_err(internal)?;
        derive.update(KEY_CONTEXT);
        let key = derive.finalize().into_bytes();
        Ok(Self(Hmac::new_from_slice(&key).map_err(internal)?))
    }

    /// The MAC of `payload` as a cursor of `list` of `scope`.
    fn mac(&self, list: &str, scope: &str, payload: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.0.clone();
        for part in [list.as_bytes(), b"\0", scope.as_bytes(), b"\0", payload] {
            mac.update(part);
        }
        mac
    }

    fn seal(&self, list: &str, scope: &str, key: &impl Serialize) -> Result<String, ApiError> {
        let payload = serde_json::to_vec(key).map_err(|e| ApiError::Internal(e.into()))?;
        let tag = self.mac(list, scope, &payload).finalize().into_bytes();
        let mut bytes = tag[..TAG_BYTES].to_vec();
        bytes.extend_from_slice(&payload);
        Ok(URL_SAFE_NO_PAD.encode(bytes))
    }

    fn open<K: DeserializeOwned>(
        &self,
        list: &str,
        scope: &str,
        cursor: &str,
    ) -> Result<K, ApiError> {
        let invalid = || bad("after", AFTER_MESSAGE);
        let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| invalid())?;
        if bytes.len() <= TAG_BYTES {
            return Err(invalid());
        }
        let (tag, payload) = bytes.split_at(TAG_BYTES);
        self.mac(list, scope, payload)
            .verify_truncated_left(tag)
            .map_err(|_| invalid())?;
        serde_json::from_slice(payload).map_err(|_| invalid())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Key = (chrono::NaiveDateTime, String);

    fn signer() -> Signer {
        Signer::new(b"0123456789abcdef0123456789abcdef").unwrap()
    }

    fn page(query: &str) -> Result<Page, ApiError> {
        Page::parse(query, signer())
    }

    fn field_of(err: ApiError) -> String {
        match err {
            ApiError::BadRequest { errors, .. } => errors[0].field.clone(),
            other => panic!("expected 400, got {other:?}"),
        }
    }

    fn key() -> Key {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
            .unwrap()
            .and_hms_micro_opt(1, 2, 3, 456_789)
            .unwrap();
        (at, "b7a1".to_owned())
    }

    fn cursor() -> String {
        let keyset = page("limit=1")
            .unwrap()
            .keyset::<Key>("battles", "c1")
            .unwrap();
        let (_, next) = keyset.finish(vec![key(), key()], Clone::clone).unwrap();
        next.unwrap()
    }

    #[test]
    fn limit_defaults_to_50_and_accepts_1_to_100() {
        assert_eq!(page("").unwrap().limit, DEFAULT_LIMIT);
        assert_eq!(page("include_archived=true").unwrap().limit, 50);
        assert_eq!(page("limit=1").unwrap().limit, 1);
        assert_eq!(page("limit=100").unwrap().limit, 100);
        for bad in ["0", "101", "-1", "abc", "1.5", "", "99999999999999999999"] {
            let err = page(&format!("limit={bad}")).unwrap_err();
            assert_eq!(field_of(err), "limit", "{bad}");
        }
        let err = page("limit=abc").unwrap_err();
        assert_eq!(
            err.problem().detail,
            "limit must be a whole number from 1 to 100."
        );
    }

    #[test]
    fn a_cursor_opens_only_for_its_own_list_and_scope() {
        let next = cursor();
        let open = |list, scope, cursor: &str| {
            page(&format!("after={cursor}"))
                .unwrap()
                .keyset::<Key>(list, scope)
                .map(|k| k.after)
        };
        assert_eq!(open("battles", "c1", &next).unwrap(), Some(key()));
        assert_eq!(
            field_of(open("timeline", "c1", &next).unwrap_err()),
            "after"
        );
        assert_eq!(field_of(open("battles", "c2", &next).unwrap_err()), "after");
        let mut tampered = next.clone().into_bytes();
        let last = tampered.len() - 1;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        for garbage in ["x", "!!!", "AAAA", tampered.as_str()] {
            assert_eq!(
                field_of(open("battles", "c1", garbage).unwrap_err()),
                "after"
            );
        }
        assert_eq!(
            open("battles", "c1", "").unwrap(),
            None,
            "empty is the first page"
        );
    }

    #[test]
    fn next_is_none_when_nothing_is_left_over() {
        let keyset = page("limit=2")
            .unwrap()
            .keyset::<Key>("battles", "c1")
            .unwrap();
        assert_eq!(keyset.fetch(), 3);
        let (rows, next) = keyset.finish(vec![key(), key()], Clone::clone).unwrap();
        assert_eq!((rows.len(), next), (2, None));
        let (rows, next) = keyset.finish(vec![key(); 3], Clone::clone).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(next.is_some());
    }
}
