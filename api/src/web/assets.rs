//! Static files compiled into the binary and served under versioned names with a long cache:
//! the stylesheet (its name carries a hash of its text) and htmx (its name carries its version).
//!
//! htmx is vendored from npm `htmx.org@2.0.11` (`dist/htmx.min.js`, BSD-2-Clause, licence in
//! `api/static/htmx-LICENSE`), SHA-256
//! `d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717` (checked by a test).

use std::sync::LazyLock;

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use sha2::{Digest, Sha256};

/// The stylesheet.
pub const CSS: &str = include_str!("../../static/app.css");
/// The vendored htmx.
pub const HTMX: &[u8] = include_bytes!("../../static/htmx-2.0.11.min.js");
/// The SHA-256 of the vendored htmx as published on npm.
pub const HTMX_SHA256: &str = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717";
/// Path of the vendored htmx.
pub const HTMX_PATH: &str = "/static/htmx-2.0.11.min.js";

/// Path of the stylesheet: `/static/app-<first 12 hex digits of its SHA-256>.css`, so a new
/// build never meets an old cached copy.
pub static CSS_PATH: LazyLock<String> = LazyLock::new(|| {
    let digest = hex::encode(Sha256::digest(CSS.as_bytes()));
    format!("/static/app-{}.css", &digest[..12])
});

/// The battle page's live-update script (ours).
pub const BATTLE_JS: &str = include_str!("../../static/battle.js");

/// Path of the battle page's script, named by its hash like the stylesheet.
pub static BATTLE_JS_PATH: LazyLock<String> = LazyLock::new(|| {
    let digest = hex::encode(Sha256::digest(BATTLE_JS.as_bytes()));
    format!("/static/battle-{}.js", &digest[..12])
});

/// The invitation list's Copy link and Share buttons (ours).
pub const INVITES_JS: &str = include_str!("../../static/invites.js");

/// Path of the invitation script, named by its hash like the stylesheet.
pub static INVITES_JS_PATH: LazyLock<String> = LazyLock::new(|| {
    let digest = hex::encode(Sha256::digest(INVITES_JS.as_bytes()));
    format!("/static/invites-{}.js", &digest[..12])
});

/// Every page's script: registers the service worker, guards forms sent offline (ours).
pub const APP_JS: &str = include_str!("../../static/app.js");

/// Path of every page's script, named by its hash like the stylesheet.
pub static APP_JS_PATH: LazyLock<String> = LazyLock::new(|| {
    let digest = hex::encode(Sha256::digest(APP_JS.as_bytes()));
    format!("/static/app-{}.js", &digest[..12])
});

/// The service worker (ours): served at the root so its scope is the whole site.
pub const SERVICE_WORKER: &str = include_str!("../../static/sw.js");

/// The app's icon.
pub const ICON_SVG: &str = include_str!("../../static/icon.svg");
/// Path of the icon.
pub const ICON_PATH: &str = "/static/icon.svg";

/// The web app manifest: installable from the browser's menu, opening at home.
pub const MANIFEST: &str = r##"{
  "name": "fad-campaign",
  "short_name": "FAD campaign",
  "description": "Campaigns for Fast And Dirty and other miniatures wargames: rosters, battles, post-battle sequences.",
  "start_url": "/",
  "scope": "/",
  "display": "standalone",
  "background_color": "#f4f1e8",
  "theme_color": "#1f3d2b",
  "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]
}
"##;

const FOREVER: &str = "public, max-age=31536000, immutable";

/// `GET /sw.js`: the service worker, always checked again so a new version takes over.
#[get("/sw.js")]
pub async fn service_worker() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Content-Type", "text/javascript; charset=utf-8"))
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        // A worker runs under its script's policy: it fetches this site's pages, nothing else.
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; connect-src 'self'",
        ))
        .body(SERVICE_WORKER)
}

/// `GET /manifest.webmanifest`: the web app manifest.
#[get("/manifest.webmanifest")]
pub async fn manifest() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Content-Type", "application/manifest+json"))
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .body(MANIFEST)
}

/// `GET /static/{name}`: the stylesheet and the scripts under their current names; anything else 404.
#[get("/static/{name}")]
pub async fn static_file(name: web::Path<String>) -> HttpResponse {
    let path = format!("/static/{name}");
    let (body, content_type): (&'static [u8], &'static str) = if path == *CSS_PATH {
        (CSS.as_bytes(), "text/css; charset=utf-8")
    } else if path == HTMX_PATH {
        (HTMX, "text/javascript; charset=utf-8")
    } else if path == *BATTLE_JS_PATH {
        (BATTLE_JS.as_bytes(), "text/javascript; charset=utf-8")
    } else if path == *INVITES_JS_PATH {
        (INVITES_JS.as_bytes(), "text/javascript; charset=utf-8")
    } else if path == *APP_JS_PATH {
        (APP_JS.as_bytes(), "text/javascript; charset=utf-8")
    } else if path == ICON_PATH {
        (ICON_SVG.as_bytes(), "image/svg+xml")
    } else {
        return HttpResponse::NotFound()
            .content_type(ContentType::plaintext())
            .body("Not found.");
    };
    HttpResponse::Ok()
        .insert_header(("Content-Type", content_type))
        .insert_header(("Cache-Control", FOREVER))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendored_htmx_is_the_published_file() {
        assert_eq!(hex::encode(Sha256::digest(HTMX)), HTMX_SHA256);
    }

    #[test]
    fn stylesheet_name_carries_its_hash() {
        assert!(CSS_PATH.starts_with("/static/app-") && CSS_PATH.ends_with(".css"));
        assert_eq!(CSS_PATH.len(), "/static/app-".len() + 12 + ".css".len());
    }
}
