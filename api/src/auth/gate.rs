//! Authentication before anything else: the [`authenticate`] middleware resolves the caller of
//! every operation that declares `security` in the OpenAPI document, before routing hands the
//! request to the handler's extractors. A missing or bad credential is therefore 401 (and an
//! integration key on a person-only operation 403) whatever the body, the path parameters or
//! the query say, and the body is never read. Operations without `security` (health,
//! registration, login, odds) never read credentials.
//!
//! The handler's [`super::Caller`] or [`super::AuthUser`] extractor only hands on what the
//! middleware resolved.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ResourceDef, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, web};

use crate::AppState;
use crate::error::ApiError;

use super::Caller;
use super::caller::{ViaToken, key_refused, resolve_with_token};

/// The name of the integration-key security scheme in the OpenAPI document.
const API_KEY_SCHEME: &str = "api_key";

/// Who an operation admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admits {
    /// People only (`security(("bearer" = []))`): integration keys get 403.
    People,
    /// People and integration keys (`("api_key" = [])` among the requirements).
    PeopleAndKeys,
}

/// Route pattern → method → who may call, for every operation that declares `security`.
#[derive(Debug, Default, Clone)]
pub struct SecurityTable(Arc<Table>);

#[derive(Debug, Default)]
struct Table {
    by_pattern: HashMap<String, Vec<(Method, Admits)>>,
    /// The same operations as matchers, in document order, for paths whose first matching
    /// pattern has no operation for the method (`POST /campaigns/join` also matches
    /// `/campaigns/{campaign_id}`, which has no `POST`).
    matchers: Vec<(Method, ResourceDef, Admits)>,
}

impl SecurityTable {
    /// Reads the `security` of every operation of the document. An operation whose
    /// requirements include an empty one (authentication optional) is left out.
    pub fn from_openapi(api: &utoipa::openapi::OpenApi) -> Self {
        let mut table = Table::default();
        for (path, item) in &api.paths.paths {
            let operations = [
                (Method::GET, &item.get),
                (Method::HEAD, &item.head),
                (Method::POST, &item.post),
                (Method::PUT, &item.put),
                (Method::PATCH, &item.patch),
                (Method::DELETE, &item.delete),
                (Method::OPTIONS, &item.options),
            ];
            for (method, operation) in operations {
                let Some(requirements) = operation.as_ref().and_then(|o| o.security.as_ref())
                else {
                    continue;
                };
                // A requirement serializes as an object of scheme names.
                let schemes: Vec<Vec<String>> = requirements
                    .iter()
                    .map(|r| match serde_json::to_value(r) {
                        Ok(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
                        _ => Vec::new(),
                    })
                    .collect();
                if schemes.is_empty() || schemes.iter().any(Vec::is_empty) {
                    continue;
                }
                let admits = if schemes.iter().flatten().any(|s| s == API_KEY_SCHEME) {
                    Admits::PeopleAndKeys
                } else {
                    Admits::People
                };
                table
                    .matchers
                    .push((method.clone(), ResourceDef::new(path.as_str()), admits));
                table
                    .by_pattern
                    .entry(path.clone())
                    .or_default()
                    .push((method, admits));
            }
        }
        Self(Arc::new(table))
    }

    /// Who the operation for `method` on `path` admits; `None` when it is public (or no such
    /// operation exists: routing answers 404 or 405). `pattern` is the first route pattern
    /// matching the path, which usually names the operation: one hash look-up.
    pub fn admits(&self, pattern: Option<&str>, path: &str, method: &Method) -> Option<Admits> {
        let found = pattern
            .and_then(|p| self.0.by_pattern.get(p))
            .and_then(|ops| ops.iter().find(|(m, _)| m == method))
            .map(|(_, admits)| *admits);
        found.or_else(|| {
            self.0
                .matchers
                .iter()
                .find(|(m, def, _)| m == method && def.is_match(path))
                .map(|(_, _, admits)| *admits)
        })
    }
}

/// The middleware: resolves the caller of a secured operation and stores it in the request's
/// extensions, or answers 401/403 at once.
pub async fn authenticate(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let admits = req
        .app_data::<web::Data<SecurityTable>>()
        .and_then(|table| table.admits(req.match_pattern().as_deref(), req.path(), req.method()));
    let (Some(admits), Some(state)) = (admits, req.app_data::<web::Data<AppState>>().cloned())
    else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    let caller = resolve_with_token(&state, req.headers())
        .await
        .and_then(|(caller, via)| {
            scope_allows(via.as_ref(), req.method())?;
            Ok((admit(caller, admits)?, via))
        });
    match caller {
        Ok((caller, via)) => {
            req.extensions_mut().insert(caller);
            if let Some(via) = via {
                req.extensions_mut().insert(via);
            }
            next.call(req)
                .await
                .map(ServiceResponse::map_into_boxed_body)
        }
        Err(err) => Ok(req.error_response(err)),
    }
}

/// A `read` personal access token makes reads only: every other method is a write.
fn scope_allows(via: Option<&ViaToken>, method: &Method) -> Result<(), ApiError> {
    match via {
        Some(token) if !token.writes && !matches!(*method, Method::GET | Method::HEAD) => {
            Err(ApiError::Forbidden(
                "This personal access token may only read; make one with the `write` scope to \
                 change anything."
                    .to_owned(),
            ))
        }
        _ => Ok(()),
    }
}

fn admit(caller: Caller, admits: Admits) -> Result<Caller, ApiError> {
    match (&caller, admits) {
        (Caller::ApiKey { .. }, Admits::People) => Err(key_refused()),
        _ => Ok(caller),
    }
}
