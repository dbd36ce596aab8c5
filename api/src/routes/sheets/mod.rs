//! The printable scenario sheet (issue 7 item 6), outside `/api/v1`: `GET /scenarios/{id}` for
//! its creator (Bearer token) and `GET /scenarios/shared/{token}` for a share-link holder.
//! Server-rendered HTML (maud, escaped everywhere) with print CSS for A4 and Letter and an inline
//! SVG map ([`map`]); no JavaScript and no external assets, enforced by a restrictive
//! `Content-Security-Policy`.

pub mod map;
pub mod page;
pub mod read;
pub mod shared_battle;

use actix_web::HttpResponse;
use actix_web::http::header::ContentType;
use utoipa_actix_web::service_config::ServiceConfig;

/// The sheet's `Content-Security-Policy`: inline styles and data images only.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Registers the sheet routes at the root. The literal `shared` path comes first.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(read::get_shared_sheet)
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
