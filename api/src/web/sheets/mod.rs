//! The printable scenario sheet, outside `/api/v1`: `GET /scenarios/{id}` for its creator
//! (Bearer token or browser session) or anyone for a scenario generated signed out, and
//! `GET /scenarios/shared/{token}` for a share-link holder.
//! Server-rendered HTML (maud, escaped everywhere) with print CSS for A4 and Letter and an inline
//! SVG map ([`map`]); no JavaScript and no external assets, enforced by a restrictive
//! `Content-Security-Policy`.

pub mod battle_sheet;
pub mod map;
pub mod page;
pub mod read;
pub mod shared_battle;

use actix_web::HttpResponse;
use actix_web::http::header::ContentType;
use utoipa_actix_web::service_config::ServiceConfig;

/// The sheet's `Content-Security-Policy`: inline styles and data images only.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The CSP of a one-shot sheet with its screen-only panel, whose `Keep` form posts here.
pub const FORM_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Registers the sheet routes at the root. The literal `shared` path comes first.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(read::get_shared_sheet)
        .service(read::get_side_sheet)
        .service(read::get_sheet)
        .service(shared_battle::get_shared_battle_sheet);
}

/// An HTML response with the sheet's security headers.
pub fn html(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .insert_header(("Content-Security-Policy", CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .insert_header(("Cache-Control", "private, no-store"))
        .body(body)
}

/// An HTML sheet response whose forms may post to this site (otherwise as [`html`]). Its
/// referrer policy is `same-origin`: under `no-referrer` a browser sends `Origin: null` with a
/// form post, which the CSRF check refuses.
pub fn html_with_forms(body: String) -> HttpResponse {
    use actix_web::http::header::{CONTENT_SECURITY_POLICY, HeaderValue, REFERRER_POLICY};
    let mut response = html(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(FORM_CSP));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert(
        actix_web::http::header::VARY,
        HeaderValue::from_static("Cookie"),
    );
    response
}
