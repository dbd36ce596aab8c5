//! `Idempotency-Key` for writes: the same key with the same body answers the stored first
//! answer (nothing runs again, no die is rolled twice); with another body 422. The first answer
//! is stored in the write's own transaction, so two concurrent first uses of one key cannot both
//! commit (the primary key decides); the loser then answers the winner's stored answer.

use actix_web::http::StatusCode;
use actix_web::http::header::HeaderMap;
use serde::Serialize;
use serde_json::Value;

use crate::AppState;
use crate::db::Db;
use crate::error::ApiError;
use crate::store::{self, idempotency as rows};

/// A write's idempotency context: who, which endpoint and object, the key (if sent) and the
/// body's hash.
#[derive(Debug, Clone)]
pub struct Write {
    user_id: String,
    scope: String,
    key: Option<String>,
    hash: String,
}

impl Write {
    /// The context of a write by `user_id` to `scope` (method and path) with this body.
    pub fn new(user_id: &str, scope: String, key: Option<String>, body: &[u8]) -> Self {
        Self {
            user_id: user_id.to_owned(),
            scope,
            key,
            hash: rows::hash_body(body),
        }
    }
}

/// What a write answers: its status and its value, made now or replayed from storage.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<T> {
    /// The status of the first answer.
    pub status: StatusCode,
    /// The value.
    pub body: Body<T>,
    /// The JSON text this request stored under its key in its own transaction (`None` without
    /// a key, and for a replay). It is what the answer sends, so the middleware need not store
    /// the sent bytes again ([`crate::idempotent::AnswerKept`]).
    pub kept: Option<String>,
}

/// A write's value: typed when made now; the stored serialized answer when replayed.
#[derive(Debug, Clone, PartialEq)]
pub enum Body<T> {
    /// Made by this request.
    Fresh(T),
    /// The first answer for this key: its JSON text as stored.
    Replayed(String),
}

impl<T: Serialize> Answer<T> {
    /// The value as JSON text: what a first answer sends and stores, and what a replay sends
    /// back unchanged.
    pub fn to_text(&self) -> Result<String, ApiError> {
        if let Some(text) = &self.kept {
            return Ok(text.clone());
        }
        match &self.body {
            Body::Fresh(value) => serde_json::to_string(value).map_err(internal),
            Body::Replayed(text) => Ok(text.clone()),
        }
    }

    /// The value as a JSON tree, for a caller that edits it before sending.
    pub fn to_json(&self) -> Result<Value, ApiError> {
        match &self.body {
            Body::Fresh(value) => serde_json::to_value(value).map_err(internal),
            Body::Replayed(text) => serde_json::from_str(text).map_err(internal),
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// Reads the `Idempotency-Key` header (1 to 200 visible ASCII characters).
pub fn key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    crate::extract::idempotency_key_in(headers)
}

/// Runs `work` in one transaction, honouring the write's key (see the module doc).
pub async fn run<T, F>(state: &AppState, write: Write, work: F) -> Result<Answer<T>, ApiError>
where
    T: Serialize + Send + 'static,
    F: FnOnce(&mut Db) -> Result<(StatusCode, T), ApiError> + Send + 'static,
{
    let Write {
        user_id,
        scope,
        key,
        hash,
    } = write;
    let (user, k, s, h) = (user_id.clone(), key.clone(), scope.clone(), hash.clone());
    let outcome = state
        .db
        .transaction(move |conn| {
            if let Some(key) = &k {
                if let Some(stored) = rows::find(conn, &user, &s, key)? {
                    return replay(&stored, &h);
                }
            }
            let (status, value) = work(conn)?;
            let kept = match k {
                Some(key) => {
                    let row = rows::IdempotentResponse {
                        user_id: user,
                        scope: s,
                        idempotency_key: key,
                        request_hash: h,
                        status: i32::from(status.as_u16()),
                        response: serde_json::to_string(&value).map_err(internal)?,
                        created_at: store::now(),
                    };
                    rows::insert(conn, &row)?;
                    Some(row.response)
                }
                None => None,
            };
            Ok(Answer {
                status,
                body: Body::Fresh(value),
                kept,
            })
        })
        .await;
    match (outcome, key) {
        (Ok(done), _) => Ok(done),
        (Err(err), Some(key)) => {
            // A concurrent first use of the same key may have won; answer as it did.
            let stored = state
                .db
                .run(move |conn| Ok(rows::find_any(conn, &user_id, &scope, &key)?))
                .await?;
            match stored {
                // Another body holds the key (answered, or still running): this one is refused.
                Some(stored) if stored.request_hash != hash => {
                    Err(crate::extract::idempotency_key_reused())
                }
                Some(stored) if stored.status != rows::PENDING => replay(&stored, &hash),
                _ => Err(err),
            }
        }
        (Err(err), None) => Err(err),
    }
}

fn replay<T>(stored: &rows::IdempotentResponse, hash: &str) -> Result<Answer<T>, ApiError> {
    if stored.request_hash != hash {
        return Err(crate::extract::idempotency_key_reused());
    }
    let status = u16::try_from(stored.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .ok_or_else(|| internal("stored status"))?;
    // Stored as the first answer's text (older rows hold the same JSON with sorted keys):
    // sent back as it is, never parsed.
    Ok(Answer {
        status,
        body: Body::Replayed(stored.response.clone()),
        kept: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Made {
        zeta: u32,
        alpha: &'static str,
    }

    fn stored(response: &str) -> rows::IdempotentResponse {
        rows::IdempotentResponse {
            user_id: "u".into(),
            scope: "POST /x".into(),
            idempotency_key: "k".into(),
            request_hash: rows::hash_body(b"{}"),
            status: 201,
            response: response.into(),
            created_at: store::now(),
        }
    }

    #[test]
    fn a_first_answer_is_stored_as_sent_and_older_sorted_rows_replay_the_same_json() {
        let fresh = Answer {
            status: StatusCode::CREATED,
            body: Body::Fresh(Made {
                zeta: 1,
                alpha: "a",
            }),
            kept: None,
        };
        let sent = fresh.to_text().unwrap();
        assert_eq!(
            sent, r#"{"zeta":1,"alpha":"a"}"#,
            "the struct's order, not re-sorted"
        );
        let hash = rows::hash_body(b"{}");
        let replayed = replay::<Made>(&stored(&sent), &hash).unwrap();
        assert_eq!(replayed.status, StatusCode::CREATED);
        assert_eq!(replayed.to_text().unwrap(), sent, "replayed byte for byte");
        // Rows stored before went through a JSON tree (keys sorted): the same JSON.
        let older = replay::<Made>(&stored(r#"{"alpha":"a","zeta":1}"#), &hash).unwrap();
        assert_eq!(older.to_json().unwrap(), fresh.to_json().unwrap());
    }
}
