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

const FOREVER: &str = "public, max-age=31536000, immutable";

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
