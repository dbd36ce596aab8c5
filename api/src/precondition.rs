//! Optimistic concurrency for edits of a versioned resource (a campaign, its settings, a
//! force): the version the edit is based on, from the body's `version` and/or `If-Match`.

use actix_web::http::header::{HeaderMap, IF_MATCH};

use crate::error::{ApiError, FieldError};

/// The version an edit is based on: the body's `version` and/or `If-Match: "<n>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precondition {
    /// `version` from the body.
    pub version: Option<i64>,
    /// The version named by `If-Match`.
    pub if_match: Option<i64>,
    /// What is edited, in words (`campaign`, `force`), for the messages.
    what: &'static str,
}

impl Precondition {
    /// Reads `If-Match` next to the body's `version` for an edit of a `what`. 422 when neither
    /// is given; 412 when `If-Match` names no version of ours (it can never match).
    pub fn read(
        headers: &HeaderMap,
        version: Option<i64>,
        what: &'static str,
    ) -> Result<Self, ApiError> {
        let if_match = match headers.get(IF_MATCH) {
            None => None,
            Some(value) => Some(
                value
                    .to_str()
                    .ok()
                    .map(|v| v.trim().trim_start_matches("W/").trim_matches('"'))
                    .and_then(|v| v.parse::<i64>().ok())
                    .ok_or_else(|| if_match_failed(what))?,
            ),
        };
        if version.is_none() && if_match.is_none() {
            return Err(ApiError::Validation(vec![FieldError::new(
                "version",
                "send the version the change is based on (or an If-Match header)",
            )]));
        }
        Ok(Self {
            version,
            if_match,
            what,
        })
    }

    /// The version to update from, after checking it against `current`: 409 for a stale
    /// `version`, 412 for a stale `If-Match`.
    pub fn check(self, current: i64) -> Result<i64, ApiError> {
        if self.version.is_some_and(|v| v != current) {
            return Err(stale(self.what, current));
        }
        if self.if_match.is_some_and(|v| v != current) {
            return Err(if_match_failed(self.what));
        }
        Ok(current)
    }
}

/// 409 for a `what` that changed meanwhile.
pub fn stale(what: &str, current: i64) -> ApiError {
    ApiError::Conflict(format!("The {what} changed: its version is now {current}."))
}

fn if_match_failed(what: &str) -> ApiError {
    ApiError::PreconditionFailed(format!(
        "If-Match does not match the {what}'s current version."
    ))
}
