//! Request middleware: a request id on every response (`x-request-id`), one span per request
//! (so every log line of a request carries its id), one log line per request (method, path,
//! status, latency, request id), the safety net that turns any error response that is not
//! yet problem+json (actix's own errors, other middleware) into one, the security headers
//! (`X-Content-Type-Options: nosniff` everywhere, a `Content-Security-Policy` on every response),
//! `Cache-Control` (`no-store` but for the public API documentation),
//! and `Connection: close` on error answers to requests whose body may be left unread.

use crate::AppState;
use crate::error::{ApiError, INTERNAL_DETAIL, PROBLEM_JSON, Problem};
use crate::probe;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, web};
use std::collections::BTreeMap;
use std::future::{Ready, ready};
use std::sync::Arc;
use std::time::Instant;
use tracing::Instrument;

/// Response header carrying the request id.
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Content-Security-Policy of HTML pages (Swagger UI at `/docs/`): its vendored scripts, styles
/// and the OpenAPI document come from this origin; Swagger UI sets inline styles and uses
/// `data:` images for its icons. Nothing may frame the page.
pub const CSP_HTML: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// Content-Security-Policy of every other response (JSON, SVG, …): nothing may load or frame.
pub const CSP_API: &str = "default-src 'none'; frame-ancestors 'none'";

/// The id of the current request (a UUID), also in the `x-request-id` response header and in
/// every log line of the request. Handlers can take it as an extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestId(uuid::Uuid);

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl FromRequest for RequestId {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let id = req.extensions().get::<RequestId>().copied();
        ready(Ok(id.unwrap_or_else(RequestId::new)))
    }
}

impl RequestId {
    /// A random (version 4) UUID from the thread's CSPRNG: `Uuid::new_v4` would ask the
    /// kernel for its 16 bytes, one system call per request.
    fn new() -> Self {
        Self(uuid::Builder::from_random_bytes(rand::random()).into_uuid())
    }
}

/// The outermost middleware: request id, span, problem+json safety net, access log line.
pub async fn request_context(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let started = Instant::now();
    let id = RequestId::new();
    req.extensions_mut().insert(id);
    let method = req.method().clone();
    let path = req.path().to_owned();
    let has_body = request_has_body(&req);
    let span = tracing::info_span!("request", request_id = %id);
    let tally = req
        .app_data::<web::Data<AppState>>()
        .filter(|state| state.config.count_db_statements)
        .map(|_| Arc::new(probe::Tally::default()));

    // Handlers, extractors and actix-cors answer errors as responses; only a failing
    // middleware yields `Err`, which actix renders itself (ApiError stays problem+json).
    let result = if path_has_nul(&path) {
        // No id or name holds U+0000 (PostgreSQL cannot even compare it): no such resource.
        let error = ApiError::NotFound(format!("No route for {method} {path}."));
        Ok(req.error_response(error))
    } else {
        let call = next.call(req).instrument(span.clone());
        match &tally {
            Some(tally) => probe::counting(Arc::clone(tally), call).await,
            None => call.await,
        }
        .map(ServiceResponse::map_into_boxed_body)
    };
    let logged_path = loggable_path(&path);
    let access_log = |status: u16| {
        let path = &logged_path;
        let elapsed = started.elapsed();
        let latency_ms = elapsed.as_secs_f64() * 1000.0;
        // Tenths of a millisecond as integers: formatting the float cost more than the rest
        // of the line.
        let tenths = elapsed.as_micros().saturating_add(50) / 100;
        let latency = format_args!("{}.{}", tenths / 10, tenths % 10);
        if crate::telemetry::structured() {
            tracing::info!(
                target: "fad_api::access",
                method = %method,
                path = %path,
                status,
                latency_ms,
                request_id = %id,
                "{method} {path} {status} {latency}ms"
            );
        } else {
            tracing::info!(
                target: "fad_api::access",
                request_id = %id,
                "{method} {path} {status} {latency}ms"
            );
        }
    };
    let response = match result {
        Ok(response) => response,
        Err(err) => {
            access_log(err.as_response_error().status_code().as_u16());
            return Err(err);
        }
    };
    let mut response = span.in_scope(|| ensure_problem_json(response));
    let mut text = uuid::Uuid::encode_buffer();
    if let Ok(value) = HeaderValue::from_str(id.0.hyphenated().encode_lower(&mut text)) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    add_security_headers(&mut response);
    add_cache_control(&path, &mut response);
    if let Some(tally) = &tally {
        let counts = tally.totals();
        let headers = response.headers_mut();
        for (name, value) in [
            (probe::STATEMENTS_HEADER, counts.statements),
            (probe::TRANSACTIONS_HEADER, counts.transactions),
        ] {
            headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
        }
    }
    if has_body && (response.status().is_client_error() || response.status().is_server_error()) {
        // An extractor or guard may have answered before reading the body (401, 413, …). actix
        // then drops the connection after the response without saying so, and a keep-alive
        // client that reuses it fails. Saying `Connection: close` makes it open a new one.
        response
            .response_mut()
            .head_mut()
            .set_connection_type(ConnectionType::Close);
    }
    access_log(response.status().as_u16());
    Ok(response)
}

/// The path as the access log shows it: the secret at the end of a share link
/// (`/…/shared/{token}`) or an invitation page (`/join/{code}`) is replaced by a placeholder,
/// since whoever reads the logs must not be able to open the link or join.
fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    match path.rsplit_once('/') {
        Some((head, last))
            if !last.is_empty() && (head.ends_with("/shared") || head.ends_with("/join")) =>
        {
            format!("{head}/[redacted]").into()
        }
        _ => path.into(),
    }
}

/// Whether the (percent-encoded) path spells a NUL character.
fn path_has_nul(path: &str) -> bool {
    path.contains("%00")
}

/// Whether the request announces a body (`Content-Length` > 0 or any `Transfer-Encoding`).
fn request_has_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return true;
    }
    headers.get(header::CONTENT_LENGTH).is_some_and(|v| {
        // An unparsable length counts as a body: the connection state is unknown.
        v.to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_none_or(|n| n > 0)
    })
}

/// `X-Content-Type-Options: nosniff` on every response; a `Content-Security-Policy` unless a
/// handler set one: [`CSP_HTML`] for HTML pages, [`CSP_API`] otherwise.
fn add_security_headers(response: &mut ServiceResponse<BoxBody>) {
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    // Checked once, at compile time, rather than byte by byte on every response.
    const NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");
    const POLICY_HTML: HeaderValue = HeaderValue::from_static(CSP_HTML);
    const POLICY_API: HeaderValue = HeaderValue::from_static(CSP_API);
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, NOSNIFF);
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        let policy = if is_html { POLICY_HTML } else { POLICY_API };
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
}

/// `Cache-Control` of the API documentation (Swagger UI and the OpenAPI document): the same
/// for everyone and changed only by an upgrade, so shared caches may keep it a few minutes.
pub const CACHE_PUBLIC_DOCS: &str = "public, max-age=300";

/// `Cache-Control` of everything else: private data, tokens, live health, errors.
pub const CACHE_NO_STORE: &str = "no-store";

/// `Cache-Control` unless a handler set one: [`CACHE_PUBLIC_DOCS`] for a successful answer
/// under `/docs` or `/api-docs/`, [`CACHE_NO_STORE`] for every other answer, errors included.
/// Per response rather than per handler, so no new private endpoint can forget it.
fn add_cache_control(path: &str, response: &mut ServiceResponse<BoxBody>) {
    if response.headers().contains_key(header::CACHE_CONTROL) {
        return;
    }
    let is_docs = path == "/docs" || path.starts_with("/docs/") || path.starts_with("/api-docs/");
    let policy = if is_docs && response.status().is_success() {
        CACHE_PUBLIC_DOCS
    } else {
        CACHE_NO_STORE
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
}

/// Rewrites an error response that is not problem+json into one with the same status. The
/// pages' own HTML answers (a form shown again with its errors, a refused form) stay as they
/// are: people read them, programs get problem+json from the API.
fn ensure_problem_json(response: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON) || v.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let cause = response.response().error().map(ToString::to_string);
    let detail = if status.is_server_error() {
        tracing::error!(
            status = status.as_u16(),
            "request failed: {}",
            cause.as_deref().unwrap_or("-")
        );
        INTERNAL_DETAIL.to_owned()
    } else {
        cause.unwrap_or_else(|| status.canonical_reason().unwrap_or("Error").to_owned())
    };
    let mut replacement = Problem::new(status, detail).response();
    // Keep headers such as `Allow` or CORS headers; the body headers are the new ones.
    for (name, value) in response.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replacement
                .headers_mut()
                .append(name.clone(), value.clone());
        }
    }
    response.into_response(replacement)
}

/// Path pattern → methods, from the OpenAPI document: lets the fallback tell "no such path"
/// (404) from "path exists, other method" (405 with `Allow`).
#[derive(Debug, Default, Clone)]
pub struct RouteTable(Arc<BTreeMap<String, Vec<String>>>);

impl RouteTable {
    /// Collects the methods of every documented path.
    pub fn from_openapi(api: &utoipa::openapi::OpenApi) -> Self {
        let table = api
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods = [
                    ("GET", item.get.is_some()),
                    ("HEAD", item.head.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("OPTIONS", item.options.is_some()),
                ]
                .into_iter()
                .filter(|(_, present)| *present)
                .map(|(name, _)| name.to_owned())
                .collect();
                (path.clone(), methods)
            })
            .collect();
        Self(Arc::new(table))
    }

    /// The methods of `pattern`, if it is a documented path.
    pub fn methods(&self, pattern: &str) -> Option<&[String]> {
        self.0.get(pattern).map(Vec::as_slice)
    }
}

/// The app's default service: 405 when the path exists with other methods, else 404.
pub async fn fallback(req: HttpRequest, routes: RouteTable) -> Result<HttpResponse, ApiError> {
    let allowed = req
        .match_pattern()
        .and_then(|p| routes.methods(&p).map(<[String]>::to_vec));
    match allowed {
        Some(allow) if !allow.is_empty() => Err(ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            allow,
        }),
        _ => Err(ApiError::NotFound(format!(
            "No route for {} {}.",
            req.method(),
            req.path()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{RequestId, loggable_path};

    #[test]
    fn request_ids_are_distinct_random_uuids() {
        let (a, b) = (RequestId::new(), RequestId::new());
        assert_ne!(a, b);
        assert_eq!(a.0.get_version(), Some(uuid::Version::Random));
        assert_eq!(a.0.get_variant(), uuid::Variant::RFC4122);
    }

    #[test]
    fn share_tokens_and_invite_codes_stay_out_of_the_access_log() {
        assert_eq!(
            loggable_path("/sheets/shared/abc"),
            "/sheets/shared/[redacted]"
        );
        assert_eq!(
            loggable_path("/api/v1/scenarios/shared/abc"),
            "/api/v1/scenarios/shared/[redacted]"
        );
        assert_eq!(loggable_path("/join/K7M2-QX9P"), "/join/[redacted]");
        assert_eq!(loggable_path("/api/v1/battles/b1"), "/api/v1/battles/b1");
        assert_eq!(loggable_path("/sheets/shared/"), "/sheets/shared/");
    }
}
