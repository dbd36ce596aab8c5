//! Errors: [`ApiError`], the one error type handlers return, rendered as RFC 9457
//! `application/problem+json` ([`Problem`]). Library errors (diesel, r2d2, actix blocking) are
//! mapped here and only here, so handlers use `?` and nothing else. Server-side failures (5xx)
//! send a fixed `detail` and log the cause once, inside the request's span (which carries the
//! request id).

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use fad_domain::dice::DiceError;
use fad_domain::forcegen::GenerationError;
use fad_domain::names::UnknownName;
use fad_domain::roster::Problem as RuleProblem;
use fad_domain::scenario::ScenarioError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::store::doc::DocError;

pub mod constraints;
pub mod plain;

/// Media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Fixed `detail` of a 503: the database (or the pool in front of it) is unavailable.
pub const UNAVAILABLE_DETAIL: &str = "The database is unavailable; try again shortly.";

/// Fixed `detail` of a 500.
pub const INTERNAL_DETAIL: &str =
    "An internal error occurred; it has been logged with the request id.";

/// `detail` of a 422 that names no field.
pub const VALIDATION_DETAIL: &str = "The request is invalid; see errors for each field.";

/// One invalid field in a 400/422 answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FieldError {
    /// Where the problem is: a dotted path into the request body (`platoons[0].units[2].kind`),
    /// or a query/path parameter name.
    pub field: String,
    /// What is wrong, for a human.
    pub message: String,
}

impl FieldError {
    /// A field error.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// An RFC 9457 problem document: the body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// Problem type: a stable URI per kind of problem (`/problems/validation`,
    /// `/problems/not-found`, ...), relative to the service, each explained at its address.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Short summary: the HTTP status phrase.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request.
    pub detail: String,
    /// Per-field problems (validation failures and malformed fields only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

impl Problem {
    /// A problem for `status` with `detail` and no field errors.
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        Self {
            problem_type: problem_type(status),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail: detail.into(),
            errors: Vec::new(),
        }
    }

    /// The problem as JSON text.
    pub fn to_json(&self) -> String {
        // Serialising plain strings and numbers cannot fail; keep a valid body regardless.
        serde_json::to_string(self).unwrap_or_else(|_| {
            format!(
                r#"{{"type":"{}","title":"Error","status":{}}}"#,
                problem_type(
                    StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
                ),
                self.status
            )
        })
    }

    /// An HTTP response carrying this problem.
    pub fn response(&self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        HttpResponse::build(status)
            .content_type(PROBLEM_JSON)
            .body(self.to_json())
    }
}

/// One kind of problem: its `type` is `/problems/{slug}`, a page explaining it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProblemKind {
    /// The last part of its URI.
    pub slug: &'static str,
    /// The HTTP status it comes with.
    pub status: u16,
    /// Its title.
    pub title: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// What a client should do.
    pub what_to_do: &'static str,
}

/// Every kind of problem the service answers, one per status.
pub const PROBLEM_KINDS: [ProblemKind; 13] = [
    ProblemKind {
        slug: "bad-request",
        status: 400,
        title: "Bad request",
        meaning: "The request could not be read: malformed JSON, a bad query parameter or header.",
        what_to_do: "Fix the request as `detail` and `errors` say; sending it again unchanged fails again.",
    },
    ProblemKind {
        slug: "unauthorized",
        status: 401,
        title: "Unauthorized",
        meaning: "No credential, or one that is malformed, expired, revoked or unknown.",
        what_to_do: "Log in again for a new access token, or use a live integration key or personal access token.",
    },
    ProblemKind {
        slug: "forbidden",
        status: 403,
        title: "Forbidden",
        meaning: "The credential is good, but its owner may not do this: the wrong role, a read-only key or a read-only personal access token.",
        what_to_do: "Ask the campaign's organiser, or use a credential allowed to do it.",
    },
    ProblemKind {
        slug: "not-found",
        status: 404,
        title: "Not found",
        meaning: "No such resource, or one the caller may not see (the two answers are the same on purpose).",
        what_to_do: "Check the id, and that the caller belongs to the campaign.",
    },
    ProblemKind {
        slug: "method-not-allowed",
        status: 405,
        title: "Method not allowed",
        meaning: "The path exists, but not with this method.",
        what_to_do: "Use one of the methods the `Allow` header lists.",
    },
    ProblemKind {
        slug: "conflict",
        status: 409,
        title: "Conflict",
        meaning: "The request conflicts with the current state: a stale `version`, a step already taken, a name in use.",
        what_to_do: "Read the resource again, redo the change on what it is now, and send it with the current version.",
    },
    ProblemKind {
        slug: "version-conflict",
        status: 412,
        title: "Version conflict",
        meaning: "`If-Match` names a version that is no longer the current one.",
        what_to_do: "Read the resource again and send its new `ETag` with the change.",
    },
    ProblemKind {
        slug: "too-large",
        status: 413,
        title: "Too large",
        meaning: "The body is over the server's limit.",
        what_to_do: "Send a smaller body.",
    },
    ProblemKind {
        slug: "unsupported-media-type",
        status: 415,
        title: "Unsupported media type",
        meaning: "The body is not JSON.",
        what_to_do: "Send `Content-Type: application/json`.",
    },
    ProblemKind {
        slug: "validation",
        status: 422,
        title: "Validation failed",
        meaning: "The request is well formed but some fields are not acceptable; `errors` names each field and what is wrong. Nothing was changed.",
        what_to_do: "Correct the fields listed in `errors` and send it again.",
    },
    ProblemKind {
        slug: "quota",
        status: 429,
        title: "Quota used up",
        meaning: "A limit over a time window is reached (sign-in attempts, new resources, open live pages).",
        what_to_do: "Wait for the seconds `Retry-After` gives, then try again.",
    },
    ProblemKind {
        slug: "internal",
        status: 500,
        title: "Internal error",
        meaning: "Something failed on the server; it is logged with the request id (`x-request-id`).",
        what_to_do: "Try again later; report the request id if it keeps happening.",
    },
    ProblemKind {
        slug: "unavailable",
        status: 503,
        title: "Unavailable",
        meaning: "The database is unavailable for a moment.",
        what_to_do: "Try again after the seconds `Retry-After` gives.",
    },
];

/// The `type` of a problem with `status`: its kind's URI, or `about:blank` for a status no
/// kind covers.
pub fn problem_type(status: StatusCode) -> String {
    PROBLEM_KINDS
        .iter()
        .find(|k| k.status == status.as_u16())
        .map_or_else(
            || "about:blank".to_owned(),
            |k| format!("/problems/{}", k.slug),
        )
}

/// Everything a handler can fail with. Each variant fixes the status code; see
/// [`ApiError::status_code`](ResponseError::status_code).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request cannot be read (malformed JSON, bad query string).
    #[error("{detail}")]
    BadRequest {
        /// What is wrong.
        detail: String,
        /// Where, if known.
        errors: Vec<FieldError>,
    },
    /// 401: no or bad credentials.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: authenticated but not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such resource (also for resources the caller may not see).
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists with other methods.
    #[error("{method} is not allowed here; allowed: {}", allow.join(", "))]
    MethodNotAllowed {
        /// The method that was used.
        method: String,
        /// The methods the path supports (sent in `Allow`).
        allow: Vec<String>,
    },
    /// 409: conflicts with the current state (unique value taken, stale version).
    #[error("{0}")]
    Conflict(String),
    /// 412: a failed `If-Match`.
    #[error("{0}")]
    PreconditionFailed(String),
    /// 413: the body is over the configured limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: the body is not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: well-formed but invalid; one entry per invalid field.
    #[error("validation failed: {0:?}")]
    Validation(Vec<FieldError>),
    /// 429: a quota over a time window is used up; `Retry-After` says when it frees up.
    #[error("{detail}")]
    TooManyRequests {
        /// What limit was reached, with its value.
        detail: String,
        /// Seconds until the next request can succeed.
        retry_after_secs: u64,
    },
    /// 503: the database or the pool is unavailable. The cause is logged, not sent.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// 500: an unexpected database error. The cause is logged, not sent.
    #[error("database error: {0}")]
    Database(DieselError),
    /// 500: a blocking task panicked or was cancelled.
    #[error("blocking task failed: {0}")]
    Blocking(actix_web::error::BlockingError),
    /// 500: anything else. The cause is logged, not sent.
    #[error("internal error: {0:#}")]
    Internal(anyhow::Error),
}

impl ApiError {
    /// 400 with a message.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::BadRequest {
            detail: detail.into(),
            errors: Vec::new(),
        }
    }

    /// 422 for a single field.
    pub fn validation(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Validation(vec![FieldError::new(field, message)])
    }

    /// 404 naming what was not found (`"force"` → "No such force.").
    pub fn not_found(what: &str) -> Self {
        Self::NotFound(format!("No such {what}."))
    }

    /// The problem document for this error (5xx details are fixed).
    pub fn problem(&self) -> Problem {
        let status = self.status_code();
        match self {
            Self::BadRequest { detail, errors } => Problem {
                errors: errors.clone(),
                ..Problem::new(status, detail.clone())
            },
            Self::Validation(errors) => Problem {
                errors: errors.clone(),
                ..Problem::new(status, validation_detail(errors))
            },
            Self::Unavailable(_) => Problem::new(status, UNAVAILABLE_DETAIL),
            Self::Database(_) | Self::Blocking(_) | Self::Internal(_) => {
                Problem::new(status, INTERNAL_DETAIL)
            }
            other => Problem::new(status, other.to_string()),
        }
    }
}

/// A 422's `detail`: the first problem, and how many more `errors` lists.
fn validation_detail(errors: &[FieldError]) -> String {
    match errors {
        [] => VALIDATION_DETAIL.to_owned(),
        [one] => format!("{}: {}.", one.field, one.message.trim_end_matches('.')),
        [first, rest @ ..] => format!(
            "{}: {}; and {} more problem(s), listed in errors.",
            first.field,
            first.message.trim_end_matches('.'),
            rest.len()
        ),
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Database(_) | Self::Blocking(_) | Self::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            // The one place a server-side failure is logged; the request span adds the id.
            tracing::error!(status = status.as_u16(), "request failed: {self}");
        }
        let mut response = self.problem().response();
        let headers = response.headers_mut();
        match self {
            Self::MethodNotAllowed { allow, .. } => {
                if let Ok(value) = HeaderValue::from_str(&allow.join(", ")) {
                    headers.insert(header::ALLOW, value);
                }
            }
            Self::Unauthorized(_) => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            Self::Unavailable(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            Self::TooManyRequests {
                retry_after_secs, ..
            } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            _ => {}
        }
        response
    }
}

impl From<DieselError> for ApiError {
    fn from(err: DieselError) -> Self {
        match err {
            DieselError::NotFound => {
                Self::NotFound("The requested resource does not exist.".into())
            }
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                Self::Conflict(constraints::message(info.as_ref()).to_owned())
            }
            DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => Self::Conflict(
                "A concurrent change conflicted with this request; read the data again and retry."
                    .into(),
            ),
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                info,
            ) => Self::Unavailable(info.message().to_owned()),
            // SQLite under write contention beyond busy_timeout: transient, not a bug.
            DieselError::DatabaseError(_, ref info)
                if info.message().contains("database is locked") =>
            {
                Self::Unavailable(info.message().to_owned())
            }
            // A stored value that does not load (a document names its kind, format and the
            // path of the bad value): the whole chain goes to the log, once.
            DieselError::DeserializationError(cause) => {
                let mut text = cause.to_string();
                let mut source = cause.source();
                while let Some(inner) = source {
                    text = format!("{text}: {inner}");
                    source = inner.source();
                }
                Self::Internal(anyhow::anyhow!("stored data does not load: {text}"))
            }
            other => Self::Database(other),
        }
    }
}

/// A stored document that does not load or write is the server's fault: 500, with the kind,
/// format and path in the log (see [`crate::store::doc`]).
impl From<DocError> for ApiError {
    fn from(err: DocError) -> Self {
        Self::Internal(anyhow::Error::new(err))
    }
}

/// Roster and step problems (docs/rules.md ids in their messages): one 422 listing them all.
impl From<Vec<RuleProblem>> for ApiError {
    fn from(problems: Vec<RuleProblem>) -> Self {
        Self::Validation(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect(),
        )
    }
}

/// Entered dice that do not fit a roll: 422 at the entry (`dice.<step>.<subject>`).
impl From<DiceError> for ApiError {
    fn from(err: DiceError) -> Self {
        Self::Validation(vec![FieldError::new(err.field(), err.message())])
    }
}

/// Several dice problems at once.
impl From<Vec<DiceError>> for ApiError {
    fn from(errors: Vec<DiceError>) -> Self {
        Self::Validation(
            errors
                .iter()
                .map(|e| FieldError::new(e.field(), e.message()))
                .collect(),
        )
    }
}

/// A scenario step refused: 409 when the step does not fit the moment, 422 for bad input.
impl From<ScenarioError> for ApiError {
    fn from(err: ScenarioError) -> Self {
        match err {
            ScenarioError::Conflict(message) => Self::Conflict(sentence(&message)),
            ScenarioError::Invalid(problems) => problems.into(),
            ScenarioError::Dice(err) => err.into(),
        }
    }
}

/// Force generation refused: every invalid choice, or the entered dice.
impl From<GenerationError> for ApiError {
    fn from(err: GenerationError) -> Self {
        match err {
            GenerationError::Invalid(problems) => problems.into(),
            GenerationError::Dice(err) => err.into(),
        }
    }
}

/// Entered dice under step names that do not exist: 422 at each `dice.<name>`.
pub fn unknown_dice_steps(unknown: Vec<UnknownName>) -> ApiError {
    ApiError::Validation(
        unknown
            .into_iter()
            .map(|u| {
                FieldError::new(
                    format!("dice.{}", u.value),
                    format!("is not a dice step; use one of: {}", u.accepted.join(", ")),
                )
            })
            .collect(),
    )
}

/// A domain message as a sentence: capital first letter, final full stop.
fn sentence(message: &str) -> String {
    let mut chars = message.trim().chars();
    let mut out: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !out.ends_with(['.', '?', '!', ')']) {
        out.push('.');
    }
    out
}

impl From<r2d2::Error> for ApiError {
    fn from(err: r2d2::Error) -> Self {
        Self::Unavailable(format!("no database connection: {err}"))
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(err: actix_web::error::BlockingError) -> Self {
        Self::Blocking(err)
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> Self {
        Self::Internal(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;

    fn body_of(err: &ApiError) -> (u16, String, String) {
        let response = err.error_response();
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = response.into_body().try_into_bytes().unwrap();
        (
            status,
            content_type,
            String::from_utf8(bytes.to_vec()).unwrap(),
        )
    }

    #[test]
    fn validation_error_is_422_problem_json_with_errors() {
        let err = ApiError::Validation(vec![FieldError::new("name", "must not be empty")]);
        assert_eq!(
            body_of(&err),
            (
                422,
                PROBLEM_JSON.to_owned(),
                r#"{"type":"/problems/validation","title":"Unprocessable Entity","status":422,"detail":"name: must not be empty.","errors":[{"field":"name","message":"must not be empty"}]}"#
                    .to_owned()
            )
        );
    }

    #[test]
    fn not_found_is_404_without_errors_member() {
        assert_eq!(
            body_of(&ApiError::not_found("force")).2,
            r#"{"type":"/problems/not-found","title":"Not Found","status":404,"detail":"No such force."}"#
        );
    }

    #[test]
    fn diesel_not_found_maps_to_404() {
        assert_eq!(
            ApiError::from(DieselError::NotFound).status_code(),
            StatusCode::NOT_FOUND
        );
    }

    #[test]
    fn unique_violation_maps_to_409() {
        let err = DieselError::DatabaseError(
            DatabaseErrorKind::UniqueViolation,
            Box::new("UNIQUE constraint failed: users.username_lower".to_owned()),
        );
        assert_eq!(ApiError::from(err).status_code(), StatusCode::CONFLICT);
    }

    #[test]
    fn closed_connection_and_locked_sqlite_map_to_503_with_fixed_detail() {
        let closed = DieselError::DatabaseError(
            DatabaseErrorKind::ClosedConnection,
            Box::new("server closed the connection unexpectedly".to_owned()),
        );
        let locked = DieselError::DatabaseError(
            DatabaseErrorKind::Unknown,
            Box::new("database is locked".to_owned()),
        );
        for err in [closed, locked] {
            let (status, _, body) = body_of(&ApiError::from(err));
            assert_eq!(status, 503);
            assert_eq!(
                body,
                r#"{"type":"/problems/unavailable","title":"Service Unavailable","status":503,"detail":"The database is unavailable; try again shortly."}"#
            );
        }
    }

    #[test]
    fn other_database_errors_are_500_and_do_not_leak_the_cause() {
        let err = DieselError::DatabaseError(
            DatabaseErrorKind::Unknown,
            Box::new("relation \"secret_table\" does not exist".to_owned()),
        );
        let (status, _, body) = body_of(&ApiError::from(err));
        assert_eq!(status, 500);
        assert!(!body.contains("secret_table"), "{body}");
        assert!(body.contains(INTERNAL_DETAIL));
    }

    #[test]
    fn method_not_allowed_sends_allow_header() {
        let err = ApiError::MethodNotAllowed {
            method: "DELETE".into(),
            allow: vec!["GET".into()],
        };
        let response = err.error_response();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers().get(header::ALLOW).unwrap(), "GET");
    }
}
