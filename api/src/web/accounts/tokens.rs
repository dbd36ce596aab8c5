//! `/account/tokens`: a person's personal access tokens for bots: make one (its token shown
//! this once, with `Copy`), see the live ones, revoke one. The same use cases as
//! `/api/v1/me/tokens` ([`crate::app::tokens`]).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::tokens::{self, CreatedToken, NewToken, TokenScope, TokenView};
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, FormKey};
use crate::web::assets;
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, select_field, text_field,
};
use crate::web::{PageError, require_user, respond, see_other};

const LABELS: &[(&str, &str)] = &[
    ("name", "Name"),
    ("scopes", "What it may do"),
    ("expires_in_days", "Works for"),
];

/// The new-token form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct TokenForm {
    name: String,
    scopes: String,
    expires_in_days: String,
    csrf_token: Option<String>,
}

/// The revoke form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct RevokeForm {
    csrf_token: Option<String>,
}

fn when(time: Option<chrono::DateTime<chrono::Utc>>, none: &str) -> String {
    time.map_or_else(
        || none.to_owned(),
        |t| t.format("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

fn scope_words(view: &TokenView) -> &'static str {
    if view.writes() {
        "Reads and acts for you"
    } else {
        "Reads only"
    }
}

fn markup(
    state: &AppState,
    user: &SessionUser,
    list: &[TokenView],
    created: Option<&CreatedToken>,
    form: &TokenForm,
    errors: &Errors,
) -> Markup {
    let scope_options = [
        ("read".to_owned(), "Read only".to_owned()),
        ("read write".to_owned(), "Read and act for me".to_owned()),
    ];
    let expiry_options = [
        ("30".to_owned(), "30 days".to_owned()),
        ("90".to_owned(), "90 days".to_owned()),
        ("365".to_owned(), "A year".to_owned()),
        (String::new(), "Until I revoke it".to_owned()),
    ];
    let body = html! {
        h1 { "Tokens for bots" }
        p { "A token lets a bot or a script act for you through the API, e.g. to post "
            "\u{201c}your turn\u{201d} in your club's chat. Anyone who has it can do what it "
            "allows; revoke it when the bot no longer needs it." }
        p { a href="/account" { "Back to your account" } }
        @if let Some(created) = created {
            section.panel data-invite data-copied="Token copied." aria-labelledby="new-token" {
                h2 id="new-token" tabindex="-1" { "New token: " (created.view.name) }
                p { "Copy it now: it is shown only this once." }
                label for="new-token-value" { "Token" }
                input.invite-url id="new-token-value" type="text" readonly value=(created.token);
                div.actions { button.copy-link type="button" hidden { "Copy token" } }
                p.copy-status role="status" aria-live="polite" {}
            }
            script src=(assets::INVITES_JS_PATH.as_str()) defer {}
        }
        h2 { "Your tokens" }
        @if list.is_empty() {
            p.muted { "You have no tokens." }
        } @else {
            ul.cards {
                @for token in list {
                    li {
                        strong { (token.name) }
                        p.muted {
                            (scope_words(token))
                            " · made " (when(Some(token.created_at), ""))
                            " · works until " (when(token.expires_at, "revoked"))
                            " · last used " (when(token.last_used_at, "never"))
                        }
                        form method="post" action={ "/account/tokens/" (token.id) "/revoke" } {
                            (csrf_input(state, &FormKey::session(user)))
                            button.secondary type="submit" { "Revoke " (token.name) }
                        }
                    }
                }
            }
        }
        h2 id="make" { "Make a token" }
        (error_summary(errors, LABELS))
        form.stack method="post" action="/account/tokens" novalidate {
            (csrf_input(state, &FormKey::session(user)))
            (text_field("name", "Name", &form.name, errors, Input {
                required: true, max_length: Some(100),
                hint: Some("What it is for, e.g. club chat bot."),
                ..Input::default()
            }))
            (select_field("scopes", "What it may do", &scope_options, &form.scopes, errors))
            (select_field("expires_in_days", "Works for", &expiry_options, &form.expires_in_days, errors))
            div.actions { button type="submit" { "Make token" } }
        }
    };
    layout::page(state, Some(user), "Tokens for bots", body)
}

async fn render(
    state: &AppState,
    user: &SessionUser,
    status: StatusCode,
    created: Option<&CreatedToken>,
    form: &TokenForm,
    errors: &Errors,
) -> Result<HttpResponse, PageError> {
    let list = tokens::list(state, &user.user_id).await?;
    let mut response = respond(status, markup(state, user, &list, created, form, errors));
    response.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

/// `GET /account/tokens`.
#[get("/account/tokens")]
pub async fn tokens_page(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let form = TokenForm {
        scopes: "read".to_owned(),
        expires_in_days: "90".to_owned(),
        ..TokenForm::default()
    };
    render(
        &state,
        &user,
        StatusCode::OK,
        None,
        &form,
        &Errors::default(),
    )
    .await
}

/// The form as the use case's input; a field the select cannot send is refused by name.
fn new_token(form: &TokenForm) -> Result<NewToken, ApiError> {
    let scopes = match form.scopes.as_str() {
        "read" => vec![TokenScope::Read],
        "read write" => vec![TokenScope::Read, TokenScope::Write],
        _ => return Err(ApiError::validation("scopes", "choose what it may do")),
    };
    let expires_in_days = match form.expires_in_days.trim() {
        "" => None,
        days => Some(
            days.parse()
                .map_err(|_| ApiError::validation("expires_in_days", "choose how long it works"))?,
        ),
    };
    Ok(NewToken {
        name: form.name.clone(),
        scopes,
        expires_in_days,
    })
}

/// `POST /account/tokens`: a new token, shown once.
#[post("/account/tokens")]
pub async fn create_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let form = form.into_inner();
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        form.csrf_token.as_deref(),
    )
    .map_err(|_| PageError::Refused)?;
    let made = match new_token(&form) {
        Ok(new) => tokens::create(&state, &user.user_id, new).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(created) => {
            let fresh = TokenForm {
                scopes: "read".to_owned(),
                expires_in_days: "90".to_owned(),
                ..TokenForm::default()
            };
            render(
                &state,
                &user,
                StatusCode::CREATED,
                Some(&created),
                &fresh,
                &Errors::default(),
            )
            .await
        }
        Err(ApiError::Validation(errors)) => {
            render(
                &state,
                &user,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                &form,
                &Errors(errors),
            )
            .await
        }
        Err(ApiError::Conflict(detail)) => {
            let errors = Errors(vec![FieldError::new("name", detail)]);
            render(&state, &user, StatusCode::CONFLICT, None, &form, &errors).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /account/tokens/{id}/revoke`.
#[post("/account/tokens/{id}/revoke")]
pub async fn revoke_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<RevokeForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        form.csrf_token.as_deref(),
    )
    .map_err(|_| PageError::Refused)?;
    tokens::revoke(&state, &user.user_id, &path.into_inner()).await?;
    Ok(see_other("/account/tokens"))
}
