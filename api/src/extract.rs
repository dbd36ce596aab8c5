//! Request extractors whose failures are problem+json: [`Json`] (a drop-in for `web::Json`
//! that names the failing field), and the `JsonConfig`/`PathConfig`/`QueryConfig`/
//! `PayloadConfig` installed on the app so actix's own extractors answer the same way.

use crate::error::{ApiError, FieldError, plain};
use actix_web::dev::Payload;
use actix_web::error::JsonPayloadError;
use actix_web::mime;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

/// A JSON request body. Like `web::Json`, but a body that does not fit the type is a 422 whose
/// `errors[0].field` is the path to the bad value (`platoons[0].units[1].kind`); malformed JSON
/// is a 400, a non-JSON content type a 415 and a body over the limit a 413.
///
/// In `#[utoipa::path]`, state the body explicitly: `request_body = CreateForceRequest`.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The deserialized body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let content_type_ok = is_json(req);
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !content_type_ok {
                return Err(unsupported_media_type());
            }
            let bytes = body.await.map_err(payload_error)?;
            parse_json(&bytes).map(Json)
        })
    }
}

/// `application/json` or any `+json` type.
fn is_json(req: &HttpRequest) -> bool {
    match req.mime_type() {
        Ok(Some(mime)) => mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON),
        _ => false,
    }
}

fn unsupported_media_type() -> ApiError {
    ApiError::UnsupportedMediaType(
        "The request body must be JSON (Content-Type: application/json).".into(),
    )
}

fn payload_error(err: actix_web::Error) -> ApiError {
    if err.as_response_error().status_code() == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge("The request body is larger than the configured limit.".into())
    } else {
        ApiError::bad_request(
            "The request body could not be read (the connection broke or the encoding is unknown); send it again.",
        )
    }
}

/// Deserializes a JSON body, naming the path of the first bad value. Text holding U+0000 is
/// refused (422): PostgreSQL cannot store it and SQLite would, so both backends answer alike.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if let Some(field) = nul_field(bytes) {
        return Err(ApiError::validation(
            field,
            "text must not contain the NUL character (U+0000)",
        ));
    }
    // Valid input, the usual case, is read once without tracking paths; only a failure is read
    // again with them, to name the bad value.
    let mut quick = serde_json::Deserializer::from_slice(bytes);
    if let Some(read) = deserialize_strict_quick(&mut quick)
        && quick.end().is_ok()
    {
        return read.map_err(|e| match e {
            Strict::Unknown(field) => field.into(),
            Strict::Invalid(err) => path_error(err),
        });
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = deserialize_strict(&mut deserializer).map_err(|e| match e {
        Strict::Unknown(field) => field.into(),
        Strict::Invalid(err) => path_error(err),
    })?;
    deserializer
        .end()
        .map_err(|e| ApiError::bad_request(plain::syntax_message(&e)))?;
    Ok(value)
}

/// Why [`deserialize_strict`] refused its input.
#[derive(Debug)]
pub enum Strict<E> {
    /// A field the type does not have (the first one met).
    Unknown(FieldError),
    /// A bad value, with its path.
    Invalid(serde_path_to_error::Error<E>),
}

impl Strict<serde_json::Error> {
    /// The problem as field errors; `prefix` is prepended to every path (`sides[1].non_player`).
    pub fn into_field_errors(self, prefix: &str) -> Vec<FieldError> {
        let join = |path: &str| match (prefix, path) {
            (p, ".") => p.to_owned(),
            ("", p) => p.to_owned(),
            (p, rest) if rest.starts_with('[') => format!("{p}{rest}"),
            (p, rest) => format!("{p}.{rest}"),
        };
        match self {
            Self::Unknown(e) => vec![FieldError::new(join(&e.field), e.message)],
            Self::Invalid(err) => {
                let path = err.path().to_string();
                let raw = err.into_inner().to_string();
                vec![FieldError::new(
                    join(&field_of(&path, &raw)),
                    plain::data_message(&raw),
                )]
            }
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        ApiError::Validation(vec![error])
    }
}

/// Deserializes `T` from any serde input, refusing fields `T` does not have, at any depth:
/// every request body goes through this, so no request type needs its own setting and nothing
/// a client adds is silently dropped (or, in a free-form value, stored). Unknown fields are
/// seen where serde would skip them; inside a buffered (`untagged` or internally tagged) enum
/// serde skips them out of sight, so such enums' variants deny unknown fields themselves.
pub fn deserialize_strict<'de, D, T>(deserializer: D) -> Result<T, Strict<D::Error>>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    let mut unknown: Option<String> = None;
    let value = {
        let mut note = |path: serde_ignored::Path<'_>| {
            if unknown.is_none() {
                unknown = Some(ignored_path(&path));
            }
        };
        let ignoring = serde_ignored::Deserializer::new(deserializer, &mut note);
        serde_path_to_error::deserialize(ignoring)
    };
    match (value, unknown) {
        (Err(e), _) => Err(Strict::Invalid(e)),
        (Ok(_), Some(path)) => Err(unknown_field(path)),
        (Ok(value), None) => Ok(value),
    }
}

/// The quick pass of [`deserialize_strict`]: the same unknown-field check without tracking
/// the path of every value, so `None` when a value is bad (read the input again with
/// [`deserialize_strict`] to name its path). The error, when there is one, is always
/// [`Strict::Unknown`].
pub fn deserialize_strict_quick<'de, D, T>(deserializer: D) -> Option<Result<T, Strict<D::Error>>>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    let mut unknown: Option<String> = None;
    let value = serde_ignored::deserialize(deserializer, |path| {
        if unknown.is_none() {
            unknown = Some(ignored_path(&path));
        }
    });
    match (value, unknown) {
        (Err(_), _) => None,
        (Ok(_), Some(path)) => Some(Err(unknown_field(path))),
        (Ok(value), None) => Some(Ok(value)),
    }
}

/// The refusal of the unknown field at `path`.
fn unknown_field<E>(path: String) -> Strict<E> {
    let name = path.rsplit(['.', '[']).next().unwrap_or(&path).to_owned();
    Strict::Unknown(FieldError::new(path, plain::unknown_field(&name)))
}

/// `a.b[0].c` for serde_ignored's path (whose own form is `a.b.0.c`).
fn ignored_path(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}[{index}]", ignored_path(parent)),
        Path::Map { parent, key } => match ignored_path(parent) {
            p if p.is_empty() => key.clone(),
            p => format!("{p}.{key}"),
        },
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => ignored_path(parent),
    }
}

/// The path (`a.b[0]`, `.` for the body itself) of the first string or key holding U+0000, if
/// any. Only bodies that spell `\u0000` are parsed a second time.
fn nul_field(bytes: &[u8]) -> Option<String> {
    let spelled = bytes
        .windows(6)
        .any(|w| w[0] == b'\\' && w[1] == b'u' && &w[2..] == b"0000");
    if !spelled {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    fn walk(value: &serde_json::Value, path: String) -> Option<String> {
        let join = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match value {
            serde_json::Value::String(text) if text.contains('\0') => Some(path),
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| walk(item, format!("{path}[{i}]"))),
            serde_json::Value::Object(fields) => fields.iter().find_map(|(key, item)| {
                if key.contains('\0') {
                    Some(join(key))
                } else {
                    walk(item, join(key))
                }
            }),
            _ => None,
        }
    }
    walk(&value, String::new()).map(|path| {
        if path.is_empty() {
            ".".to_owned()
        } else {
            path
        }
    })
}

fn path_error(err: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let path = err.path().to_string();
    let inner = err.into_inner();
    match inner.classify() {
        serde_json::error::Category::Data => {
            let raw = inner.to_string();
            let field = field_of(&path, plain::strip_position(&raw));
            ApiError::Validation(vec![FieldError::new(field, plain::data_message(&raw))])
        }
        _ => ApiError::bad_request(plain::syntax_message(&inner)),
    }
}

/// `missing field `name`` is reported at the parent; point at the field itself.
fn field_of(path: &str, message: &str) -> String {
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match (path, missing) {
        (".", Some(name)) => name.to_owned(),
        (parent, Some(name)) => format!("{parent}.{name}"),
        (path, None) => path.to_owned(),
    }
}

/// Error handler for actix's `web::Json` (if a handler uses it instead of [`Json`]).
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(|err, _req| {
            match err {
                JsonPayloadError::ContentType => unsupported_media_type(),
                JsonPayloadError::Overflow { .. }
                | JsonPayloadError::OverflowKnownLength { .. } => ApiError::PayloadTooLarge(
                    "The request body is larger than the configured limit.".into(),
                ),
                JsonPayloadError::Deserialize(e) if e.is_data() => {
                    let raw = e.to_string();
                    ApiError::validation(field_of(".", &raw), plain::data_message(&raw))
                }
                JsonPayloadError::Deserialize(e) => {
                    ApiError::bad_request(plain::syntax_message(&e))
                }
                _ => ApiError::bad_request(
                    "The request body could not be read (the connection broke or the encoding is unknown); send it again.",
                ),
            }
            .into()
        })
}

/// The optional `Idempotency-Key` header, trimmed: 400 naming the header unless it is 1 to
/// [`MAX_KEY_LEN`](crate::store::idempotency::MAX_KEY_LEN) visible ASCII characters.
pub fn idempotency_key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    idempotency_key_in(req.headers())
}

/// [`idempotency_key`] from the headers alone.
pub fn idempotency_key_in(
    headers: &actix_web::http::header::HeaderMap,
) -> Result<Option<String>, ApiError> {
    use crate::store::idempotency::MAX_KEY_LEN;
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    match value.to_str().map(str::trim) {
        Ok(key) if !key.is_empty() && key.len() <= MAX_KEY_LEN => Ok(Some(key.to_owned())),
        _ => {
            let message = format!(
                "must be 1 to {MAX_KEY_LEN} visible ASCII characters (letters, digits, dashes); send a new random value per change"
            );
            Err(ApiError::BadRequest {
                detail: format!("The Idempotency-Key header {message}."),
                errors: vec![FieldError::new("Idempotency-Key", message)],
            })
        }
    }
}

/// 422 for an `Idempotency-Key` already used with another body.
pub fn idempotency_key_reused() -> ApiError {
    ApiError::validation(
        "Idempotency-Key",
        "this key was used with a different request body; use a new key for a new request",
    )
}

/// Payload limit for [`Json`] and raw body extractors.
pub fn payload_config(limit: usize) -> web::PayloadConfig {
    web::PayloadConfig::new(limit)
}

/// A path segment that does not parse (e.g. a malformed id) means no such resource: 404.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|_err, req| {
        ApiError::NotFound(format!("No such resource: {}.", req.path())).into()
    })
}

/// A query string that does not fit the parameters: 400 naming the parameter where serde says
/// which one it is.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| query_error(&err.to_string()).into())
}

/// A query string's problem in plain words; `raw` is the parser's text.
pub fn query_error(raw: &str) -> ApiError {
    let raw = raw.strip_prefix("Query deserialize error: ").unwrap_or(raw);
    let message = plain::data_message(raw);
    let field = field_of(".", raw);
    if field == "." {
        ApiError::BadRequest {
            detail: format!("A query parameter {message}; fix it and send the request again."),
            errors: vec![FieldError::new("query string", message)],
        }
    } else {
        ApiError::BadRequest {
            detail: format!("The query parameter {field} {}.", plain::REQUIRED),
            errors: vec![FieldError::new(field, plain::REQUIRED)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[expect(dead_code, reason = "fields exist to be deserialized")]
    struct Body {
        name: String,
        units: Vec<Unit>,
    }

    #[derive(Debug, Deserialize)]
    #[expect(dead_code, reason = "fields exist to be deserialized")]
    struct Unit {
        strength: u8,
    }

    fn errors_of(err: ApiError) -> Vec<FieldError> {
        match err {
            ApiError::Validation(errors) => errors,
            other => panic!("expected 422, got {other:?}"),
        }
    }

    #[test]
    fn nul_characters_in_text_are_refused_with_their_path() {
        let err = parse_json::<Body>(br#"{"name":"a","units":[{"strength":1}],"x":["b\u0000"]}"#)
            .unwrap_err();
        assert_eq!(
            errors_of(err),
            [FieldError::new(
                "x[0]",
                "text must not contain the NUL character (U+0000)"
            )]
        );
        // An escaped backslash followed by `u0000` is plain text, not NUL.
        assert!(parse_json::<Body>(br#"{"name":"\\u0000","units":[]}"#).is_ok());
    }

    #[test]
    fn wrong_type_names_the_nested_field() {
        let err = parse_json::<Body>(br#"{"name":"a","units":[{"strength":1},{"strength":"x"}]}"#)
            .unwrap_err();
        assert_eq!(
            errors_of(err),
            [FieldError::new(
                "units[1].strength",
                "must be a whole number from 0 to 255, not the text \"x\""
            )]
        );
    }

    #[test]
    fn out_of_range_number_is_422() {
        let err = parse_json::<Body>(br#"{"name":"a","units":[{"strength":300}]}"#).unwrap_err();
        assert_eq!(errors_of(err)[0].field, "units[0].strength");
    }

    #[test]
    fn missing_field_points_at_the_field() {
        let err = parse_json::<Body>(br#"{"units":[]}"#).unwrap_err();
        assert_eq!(
            errors_of(err),
            [FieldError::new("name", "is required; add it")]
        );
        let err = parse_json::<Body>(br#"{"name":"a","units":[{}]}"#).unwrap_err();
        assert_eq!(errors_of(err)[0].field, "units[0].strength");
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "fields exist to be deserialized")]
    struct Denying {
        name: String,
    }

    #[test]
    fn unknown_fields_are_refused_at_any_depth_with_their_path() {
        let err = parse_json::<Body>(br#"{"name":"a","units":[],"colour":"red"}"#).unwrap_err();
        assert_eq!(
            errors_of(err),
            [FieldError::new(
                "colour",
                "unknown field `colour`: this request does not take it; remove it"
            )]
        );
        let err = parse_json::<Body>(
            br#"{"name":"a","units":[{"strength":1},{"strength":2,"x":{"y":1}}]}"#,
        )
        .unwrap_err();
        assert_eq!(errors_of(err)[0].field, "units[1].x");
        // A type that denies unknown fields itself answers the same way, at the field.
        let err = parse_json::<Denying>(br#"{"name":"a","colour":1}"#).unwrap_err();
        assert_eq!(errors_of(err)[0].field, "colour");
    }

    #[test]
    fn malformed_json_and_trailing_garbage_are_400() {
        for body in [&br#"{"name":"a","#[..], br#"{"name":"a","units":[]} x"#] {
            let err = parse_json::<Body>(body).unwrap_err();
            assert!(matches!(err, ApiError::BadRequest { .. }), "{err:?}");
        }
    }
}
