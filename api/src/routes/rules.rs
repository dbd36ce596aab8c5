//! `GET /api/v1/rules`: the rules vocabulary ([`fad_domain::vocabulary`]) as JSON, public and
//! cacheable like `/rules`: every name a client may send, in table order, with its numbers, a
//! one-line description and the docs/rules.md anchor that defines it.

use std::sync::LazyLock;

use actix_web::{HttpRequest, HttpResponse, get};
use fad_domain::vocabulary::{Vocabulary, vocabulary};

/// The document, serialized once per process (the tables are fixed at build time).
static BODY: LazyLock<String> =
    LazyLock::new(|| serde_json::to_string(&vocabulary()).unwrap_or_default());

/// A strong validator of the body, so clients can revalidate cheaply.
static ETAG: LazyLock<String> = LazyLock::new(|| {
    use sha2::{Digest, Sha256};
    format!(
        "\"{}\"",
        hex::encode(&Sha256::digest(BODY.as_bytes())[..12])
    )
});

/// The rules vocabulary: ladders, unit kinds, kit, traits, personalities, the experience menu,
/// missions, stances, attitudes and house-rule switches, each with its rules id and link.
#[utoipa::path(
    tag = "rules",
    operation_id = "get_rules_vocabulary",
    responses(
        (status = 200, description = "The vocabulary (with `ETag`; cacheable for an hour)", body = Vocabulary),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    )
)]
#[get("/rules")]
pub async fn get_rules_vocabulary(req: HttpRequest) -> HttpResponse {
    let etag = ETAG.as_str();
    let matches = req
        .headers()
        .get("if-none-match")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        });
    let cache = ("Cache-Control", "public, max-age=3600");
    if matches {
        return HttpResponse::NotModified()
            .insert_header(("ETag", etag))
            .insert_header(cache)
            .finish();
    }
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("ETag", etag))
        .insert_header(cache)
        .body(BODY.as_str())
}
