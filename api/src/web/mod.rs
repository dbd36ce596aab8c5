//! Pages for people (server-rendered HTML), beside the JSON API in [`crate::routes`]. Each page
//! is thin: parse the request, call the application layer ([`crate::app`]), render with maud.
//! Every form works without scripts; the vendored htmx only smooths navigation.

pub mod accounts;
pub mod assets;
pub mod battles;
pub mod campaigns;
pub mod forces;
pub mod home;
pub mod layout;
pub mod nested_form;
pub mod problems;
pub mod rules;
pub mod scenarios;
pub mod sheets;

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, ResponseError};
use maud::{Markup, html};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::error::ApiError;

/// The rules page runs no script and loads nothing from elsewhere; its styles are inline.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The app pages: scripts and styles only from this server, no inline script or style.
pub const APP_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Registers the page routes at the root. Only `/rules` is part of the API document; the app
/// pages are for browsers and stay out of it.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(rules::reference::rules_page).map(|app| {
        // The most used pages first (see `routes::configure_api`); no other page's path can match
        // `/forces/{id}` or `/battles/{id}`.
        app.service(forces::roster::show)
            .service(battles::page::show)
            .service(assets::static_file)
            .service(assets::service_worker)
            .service(assets::manifest)
            .service(home::home)
            .service(battles::dice::verify_page)
            .service(accounts::register_form)
            .service(accounts::register_submit)
            .service(accounts::login_form)
            .service(accounts::login_submit)
            .service(accounts::logout)
            .service(accounts::account_page)
            .service(accounts::change_password)
            .service(campaigns::standings_embed::standings_embed)
            .service(problems::problems_index)
            .service(problems::problem_page)
            .service(accounts::tokens::tokens_page)
            .service(accounts::tokens::create_token)
            .service(accounts::tokens::revoke_token)
            .service(rules::rulesets::builtin_page)
            .service(rules::rulesets::house_page)
            .service(rules::rulesets::new_form)
            .service(rules::rulesets::create)
            .service(rules::rulesets::edit_form)
            .service(rules::rulesets::save)
            .service(campaigns::campaign::new_form)
            .service(campaigns::campaign::create)
            .service(campaigns::campaign::show)
            .service(campaigns::invites::create_invite)
            .service(campaigns::invites::revoke_invite)
            .service(campaigns::campaign::join_page)
            .service(campaigns::campaign::join_submit)
            .service(forces::new::new_form)
            .service(forces::new::create)
            .service(forces::roster::cards)
            .service(forces::archive::confirm_page)
            .service(forces::archive::archive)
            .service(forces::edit::edit_form)
            .service(forces::edit::save)
            .service(forces::history::history_page)
            .service(forces::history::history_entry_page)
            .service(forces::history::ledger_page)
            .service(forces::history::adjust)
            .service(battles::result::result_form_page)
            .service(battles::result::record_page)
            .service(battles::result::confirm_page)
            .service(battles::result::void_page)
            .service(battles::result::reopen_page)
            .service(battles::aftermath::show_page)
            .service(battles::aftermath_steps::roll_page)
            .service(battles::aftermath_steps::reinforcements_page)
            .service(battles::aftermath_steps::purchases_page)
            .service(battles::aftermath_steps::finalize_page)
            .service(battles::new::new_form)
            .service(battles::new::create)
            .service(battles::events::events)
            .service(battles::steps::odds_fragment)
            .service(battles::steps::post_orders)
            .service(battles::steps::post_bonuses)
            .service(battles::steps::post_choice)
            .service(battles::steps::post_recon)
            .service(battles::steps::post_assault)
            .service(battles::steps::post_sheet)
            .service(battles::solo::post_groups)
            .service(battles::solo::post_turn)
            .service(battles::solo::post_casualties)
            .service(battles::solo::post_scenario_groups)
            .service(battles::solo::post_scenario_turn)
            .service(battles::solo::post_scenario_casualties)
            .service(scenarios::generator::new_form)
            .service(scenarios::generator::generate)
            .service(scenarios::generator::keep)
            .service(campaigns::timeline::timeline)
            .service(campaigns::settings::settings_page)
            .service(campaigns::settings::save_settings)
            .service(campaigns::settings::create_key)
            .service(campaigns::settings::revoke_key)
            .service(campaigns::settings::create_hook)
            .service(campaigns::settings::test_hook)
            .service(campaigns::settings::disable_hook)
            .service(campaigns::settings::delete_hook)
            .service(campaigns::settings::deliveries_page)
            .service(campaigns::settings::retry_delivery)
            .service(campaigns::settings::skip_delivery)
    });
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

/// An app page with `status`: never cached (it shows one person's view), framed by nobody.
pub fn respond(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type(ContentType::html())
        .insert_header(("Content-Security-Policy", APP_CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "same-origin"))
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Vary", "Cookie"))
        .body(markup.into_string())
}

/// 303 See Other to `location` (after a successful POST, or to the login page).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("Location", location))
        .insert_header(("Cache-Control", "no-store"))
        .finish()
}

/// `next` when it is a path on this site (never another host), else `/`.
pub fn safe_next(next: Option<&str>) -> String {
    next.filter(|path| is_same_site_path(path))
        .unwrap_or("/")
        .to_owned()
}

/// Longest return path accepted; longer ones fall back to the home page.
const MAX_NEXT_LEN: usize = 512;

/// Whether `path` is a path on this site that is safe in a `Location` header: it starts with
/// one `/`, has only visible ASCII (no whitespace or control characters, which browsers strip
/// or turn into `/` and which a header refuses), and neither it nor its percent-decoded form
/// starts with `//` or `/\` (both read as another host) or holds a backslash, whitespace or a
/// control character.
pub fn is_same_site_path(path: &str) -> bool {
    let decoded = percent_decoded(path);
    path.len() <= MAX_NEXT_LEN
        && path.bytes().all(|b| b.is_ascii_graphic())
        && [path.as_bytes(), decoded.as_slice()]
            .iter()
            .all(|p| plain_site_path(p))
}

/// A leading `/` not followed by `/` or `\`, no backslash, no whitespace or control byte.
fn plain_site_path(path: &[u8]) -> bool {
    path.first() == Some(&b'/')
        && !matches!(path.get(1), Some(b'/' | b'\\'))
        && !path
            .iter()
            .any(|b| *b == b'\\' || b.is_ascii_whitespace() || b.is_ascii_control())
}

/// `text` with every `%XX` decoded (repeatedly, so `%2509` cannot hide a tab), as bytes.
fn percent_decoded(text: &str) -> Vec<u8> {
    let mut current = text.as_bytes().to_vec();
    // Each round shortens the text; a few rounds undo any nesting a path of 512 bytes holds.
    for _ in 0..4 {
        let next = percent_decode_once(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// `bytes` with each `%XX` (two hex digits) replaced by its byte; anything else kept.
fn percent_decode_once(bytes: &[u8]) -> Vec<u8> {
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let pair = (
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        );
        match (bytes[i], pair) {
            (b'%', (Some(high), Some(low))) => {
                out.push(u8::try_from(high * 16 + low).unwrap_or(b'%'));
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// How the pages read a posted form: up to the server's body limit (`FAD_BODY_LIMIT`, the one
/// limit of every request; actix's own 16 KiB default would refuse forms the pages allow).
/// A form the server cannot read is an HTML page in plain words, never problem+json: a body
/// over the limit is 413 and nothing is saved.
pub fn form_config(limit: usize) -> actix_web::web::FormConfig {
    actix_web::web::FormConfig::default()
        .limit(limit)
        .error_handler(move |err, _req| {
            let status = err.status_code();
            let too_large = matches!(err, actix_web::error::UrlencodedError::Overflow { .. });
            let detail = unreadable_detail(too_large, limit);
            PageError::Unreadable { status, detail }.into()
        })
}

/// A form read whole as bytes (the roster forms), or the page [`form_config`] answers when it
/// cannot be read.
pub fn form_body(
    body: Result<actix_web::web::Bytes, actix_web::Error>,
    limit: usize,
) -> Result<actix_web::web::Bytes, PageError> {
    body.map_err(|err| {
        let status = err.as_response_error().status_code();
        PageError::Unreadable {
            status,
            detail: unreadable_detail(status == StatusCode::PAYLOAD_TOO_LARGE, limit),
        }
    })
}

fn unreadable_detail(too_large: bool, limit: usize) -> String {
    if too_large {
        format!(
            "The form is larger than this server accepts ({} KiB). Nothing was saved. Go back, \
             shorten the longest text and send it again.",
            limit / 1024
        )
    } else {
        "The form could not be read. Nothing was saved. Go back, reload the page and try again."
            .to_owned()
    }
}

/// A failed page request, answered as an HTML page (never problem+json).
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The page needs a signed-in person: go to the login page and come back.
    #[error("sign in first")]
    SignIn(String),
    /// A form failed the CSRF checks: 403 and nothing applied.
    #[error("form refused")]
    Refused,
    /// A posted form the server could not read (over the body limit, malformed).
    #[error("{detail}")]
    Unreadable {
        /// 413 or 400.
        status: StatusCode,
        /// What happened and what to do, in plain words.
        detail: String,
    },
    /// An application error.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl PageError {
    fn title(&self) -> (&'static str, String) {
        match self {
            Self::SignIn(_) => ("Log in", String::new()),
            Self::Refused => (
                "This form has expired",
                "The form was not sent from this site, or it belongs to an earlier session. \
                 Nothing was changed. Go back, reload the page and try again."
                    .to_owned(),
            ),
            Self::Unreadable { status, detail } => (
                if *status == StatusCode::PAYLOAD_TOO_LARGE {
                    "This form is too large"
                } else {
                    "This form could not be read"
                },
                detail.clone(),
            ),
            Self::Api(error) => {
                let status = error.status_code();
                let detail = error.problem().detail;
                let title = match status.as_u16() {
                    404 => "Not found",
                    403 => "Not allowed",
                    409 => "Changed meanwhile",
                    429 => "Too many requests",
                    401 => "Log in",
                    s if s >= 500 => "Something went wrong",
                    _ => "That did not work",
                };
                (title, detail)
            }
        }
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignIn(_) => StatusCode::SEE_OTHER,
            Self::Refused => StatusCode::FORBIDDEN,
            Self::Unreadable { status, .. } => *status,
            Self::Api(error) => error.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::SignIn(next) = self {
            return see_other(&format!("/login?next={}", encode_query(next)));
        }
        if let Self::Api(error) = self {
            // Logged once with the request id, like the JSON answers.
            if error.status_code().is_server_error() {
                tracing::error!("page failed: {error:?}");
            }
        }
        let (title, detail) = self.title();
        let markup = html! {
            (maud::DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) " · fad-campaign" }
                    link rel="stylesheet" href=(assets::CSS_PATH.as_str());
                }
                body {
                    header.site { nav aria-label="Site" { a href="/" { "Home" } } }
                    main.wrap {
                        h1 { (title) }
                        p { (detail) }
                        p { a href="/" { "Back to the home page" } }
                    }
                }
            }
        };
        let mut response = respond(self.status_code(), markup);
        if let Self::Api(ApiError::TooManyRequests {
            retry_after_secs, ..
        }) = self
        {
            response.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                (*retry_after_secs).into(),
            );
        }
        response
    }
}

/// Percent-encodes a path for a query value.
pub fn encode_query(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The signed-in person, or [`PageError::SignIn`] back to this page.
pub async fn require_user(req: &HttpRequest, state: &AppState) -> Result<SessionUser, PageError> {
    match accounts::session::signed_in(req, state).await? {
        Some(user) => Ok(user),
        None => Err(PageError::SignIn(req.uri().path().to_owned())),
    }
}
