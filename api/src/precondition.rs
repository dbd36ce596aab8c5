//! Optimistic concurrency for edits of a versioned resource (a campaign, its settings, a
//! force): the version the edit is based on, from a request's `version` and/or `If-Match`, or
//! from the hidden field of a page's form.

use crate::error::{ApiError, FieldError};

/// The version an edit is based on: the body's `version` and/or `If-Match: "<n>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precondition {
    /// `version` from the body (or a form).
    pub version: Option<i64>,
    /// The version named by `If-Match`.
    pub if_match: Option<i64>,
    /// What is edited, in words (`campaign`, `campaign's settings`, `force`), for the messages.
    what: &'static str,
}

impl Precondition {
    /// The precondition of a form: the version it was rendered with.
    pub fn version(version: i64, what: &'static str) -> Self {
        Self {
            version: Some(version),
            if_match: None,
            what,
        }
    }

    /// The precondition of a request: the body's `version` next to the text of its `If-Match`
    /// header. 422 when neither is given; 412 when `If-Match` names no version of ours (it can
    /// never match).
    pub fn new(
        version: Option<i64>,
        if_match: Option<&str>,
        what: &'static str,
    ) -> Result<Self, ApiError> {
        let if_match = match if_match {
            None => None,
            Some(value) => Some(
                value
                    .trim()
                    .trim_start_matches("W/")
                    .trim_matches('"')
                    .parse::<i64>()
                    .map_err(|_| if_match_failed(what))?,
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
    ApiError::Conflict(format!(
        "The {what} changed meanwhile: the current version is {current}. Read it again, redo your change and send version {current}."
    ))
}

fn if_match_failed(what: &str) -> ApiError {
    ApiError::PreconditionFailed(format!(
        "If-Match does not match the {what}'s current version; read it again and send its ETag."
    ))
}
