//! `GET /rules`: the project's rules reference (`docs/rules.md`, compiled into the binary) as a
//! page, with an anchor per rule id so messages, sheets and the API can link to `/rules#C9`.

use std::sync::LazyLock;

use actix_web::{HttpRequest, HttpResponse, get};
use maud::{DOCTYPE, PreEscaped, html};
use pulldown_cmark::{Options, Parser};

/// The reference as written; its anchors are `<a id="…">` tags in the Markdown itself.
pub const RULES_MARKDOWN: &str = include_str!("../../../../docs/rules.md");

const CSS: &str = r#"
:root { color-scheme: light dark; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 0 1rem 3rem; }
nav { padding: .75rem 0; } nav a { display: inline-block; min-height: 44px; line-height: 44px; }
table { border-collapse: collapse; display: block; overflow-x: auto; font-size: .9rem; }
td, th { border: 1px solid #8886; padding: .2rem .45rem; text-align: left; vertical-align: top; }
code { font-size: .9em; } :target { background: #fd06; }
@media print { :root { color-scheme: light; } nav { display: none; } body { color: #000; background: #fff; } }
"#;

/// The whole page, rendered once per process (the text is fixed at build time).
static PAGE: LazyLock<String> = LazyLock::new(|| {
    let mut body = String::with_capacity(RULES_MARKDOWN.len() * 2);
    pulldown_cmark::html::push_html(
        &mut body,
        Parser::new_ext(RULES_MARKDOWN, Options::ENABLE_TABLES),
    );
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Rules reference · fad-campaign" }
                style { (PreEscaped(CSS)) }
            }
            body {
                nav { a href="/" { "Home" } }
                main { (PreEscaped(body)) }
            }
        }
    }
    .into_string()
});

/// A strong validator for the fixed text, so browsers and club sites can revalidate cheaply.
static ETAG: LazyLock<String> = LazyLock::new(|| {
    use sha2::{Digest, Sha256};
    format!(
        "\"{}\"",
        hex::encode(&Sha256::digest(PAGE.as_bytes())[..12])
    )
});

/// The rules reference page.
#[utoipa::path(
    tag = "rules",
    operation_id = "rules_page",
    responses(
        (status = 200, description = "The rules reference as an HTML page, with an anchor per rule id (`/rules#C9`)", content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    )
)]
#[get("/rules")]
pub async fn rules_page(req: HttpRequest) -> HttpResponse {
    let etag = ETAG.as_str();
    let matches = req
        .headers()
        .get("if-none-match")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    if matches {
        return HttpResponse::NotModified()
            .insert_header(("ETag", etag))
            .finish();
    }
    crate::web::html("public, max-age=3600")
        .insert_header(("ETag", etag))
        .body(PAGE.as_str())
}
