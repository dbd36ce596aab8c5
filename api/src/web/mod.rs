//! Pages for people (server-rendered HTML), beside the JSON API in [`crate::routes`]. Each page
//! is thin: parse the request, call the application code, render with maud.

pub mod rules;

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, HttpResponseBuilder};
use utoipa_actix_web::service_config::ServiceConfig;

/// Pages run no script and load nothing from elsewhere; styles are inline.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Registers the page routes at the root.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(rules::rules_page);
}

/// A 200 HTML response builder with the pages' security headers and the given `Cache-Control`.
pub fn html(cache_control: &'static str) -> HttpResponseBuilder {
    let mut builder = HttpResponse::Ok();
    builder
        .content_type(ContentType::html())
        .insert_header(("Content-Security-Policy", CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("Cache-Control", cache_control));
    builder
}
