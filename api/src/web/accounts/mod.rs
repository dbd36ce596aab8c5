//! Account pages: `/register`, `/login`, `POST /logout`, `/account` (change password). They
//! call [`crate::app::accounts`], the same use cases as the JSON handlers, and share the JSON
//! login's per-address rate limit.

pub mod session;
pub mod tokens;

use std::net::{IpAddr, Ipv4Addr};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::{self, SessionUser};
use crate::error::{ApiError, FieldError};

use self::session::{FormKey, SESSION_COOKIE};
use crate::web::layout::{self, Errors, Input, csrf_input, error_summary, text_field};
use crate::web::{PageError, encode_query, require_user, respond, safe_next, see_other};

/// `?next=` of the login and register pages.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: Option<String>,
}

/// The login and register forms.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct CredentialsForm {
    username: String,
    password: String,
    /// Register only: the name others see (blank: the username).
    display_name: String,
    csrf_token: Option<String>,
    next: Option<String>,
}

const CREDENTIAL_LABELS: &[(&str, &str)] = &[
    ("username", "Username"),
    ("display_name", "Display name"),
    ("password", "Password"),
];

/// Which account form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Register,
    Login,
}

fn credentials_page(
    state: &AppState,
    key: &FormKey,
    which: Which,
    form: &CredentialsForm,
    next: &str,
    errors: &Errors,
) -> Markup {
    let (title, action, button, password_autocomplete) = match which {
        Which::Register => (
            "Create an account",
            "/register",
            "Create account",
            "new-password",
        ),
        Which::Login => ("Log in", "/login", "Log in", "current-password"),
    };
    let next_query = if next == "/" {
        String::new()
    } else {
        format!("?next={}", encode_query(next))
    };
    let body = html! {
        h1 { (title) }
        (error_summary(errors, CREDENTIAL_LABELS))
        form.stack method="post" action=(action) novalidate {
            (csrf_input(state, key))
            input type="hidden" name="next" value=(next);
            (text_field("username", "Username", &form.username, errors, Input {
                autocomplete: Some("username"),
                hint: (which == Which::Register).then_some("3 to 32 letters, digits, dots, dashes or underscores."),
                required: true,
                max_length: Some(32),
                ..Input::default()
            }))
            @if which == Which::Register {
                (text_field("display_name", "Display name", &form.display_name, errors, Input {
                    autocomplete: Some("nickname"),
                    hint: Some("Optional: the name other players see (up to 50 characters). Your username when empty."),
                    max_length: Some(50),
                    ..Input::default()
                }))
            }
            (text_field("password", "Password", "", errors, Input {
                kind: "password",
                autocomplete: Some(password_autocomplete),
                hint: (which == Which::Register).then_some("At least 10 characters and hard to guess: a few unrelated words work well."),
                required: true,
                max_length: Some(256),
            }))
            div.actions { button type="submit" { (button) } }
        }
        @match which {
            Which::Register => p { "Already have an account? " a href={ "/login" (next_query) } { "Log in" } },
            Which::Login => p { "New here? " a href={ "/register" (next_query) } { "Create an account" } },
        }
    };
    layout::page(state, None, title, body)
}

fn with_form_cookie(mut response: HttpResponse, key: &FormKey) -> HttpResponse {
    if let Some(cookie) = key.set_cookie()
        && let Ok(value) = cookie.parse()
    {
        response
            .headers_mut()
            .append(actix_web::http::header::SET_COOKIE, value);
    }
    response
}

async fn show_form(
    req: &HttpRequest,
    state: &AppState,
    which: Which,
    next: Option<&str>,
) -> Result<HttpResponse, PageError> {
    let next = safe_next(next);
    if session::signed_in(req, state).await?.is_some() {
        return Ok(see_other(&next));
    }
    let key = FormKey::anonymous(req, state)?;
    let markup = credentials_page(
        state,
        &key,
        which,
        &CredentialsForm::default(),
        &next,
        &Errors::default(),
    );
    Ok(with_form_cookie(respond(StatusCode::OK, markup), &key))
}

/// `GET /register`.
#[get("/register")]
pub async fn register_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, PageError> {
    show_form(&req, &state, Which::Register, query.next.as_deref()).await
}

/// `GET /login`.
#[get("/login")]
pub async fn login_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, PageError> {
    show_form(&req, &state, Which::Login, query.next.as_deref()).await
}

fn peer(req: &HttpRequest) -> IpAddr {
    req.peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip())
}

fn signed_in_response(state: &AppState, new: &accounts::NewSession, next: &str) -> HttpResponse {
    let mut response = see_other(next);
    if let Ok(value) = session::session_cookie(state, new).parse() {
        response
            .headers_mut()
            .append(actix_web::http::header::SET_COOKIE, value);
    }
    response
}

async fn submit(
    req: &HttpRequest,
    state: &AppState,
    which: Which,
    form: CredentialsForm,
) -> Result<HttpResponse, PageError> {
    let key = FormKey::anonymous(req, state)?;
    session::check_form(req, state, &key, form.csrf_token.as_deref())
        .map_err(|_| PageError::Refused)?;
    let next = safe_next(form.next.as_deref());
    let again = |status: StatusCode, errors: Errors| {
        let markup = credentials_page(state, &key, which, &form, &next, &errors);
        Ok(with_form_cookie(respond(status, markup), &key))
    };
    if let Err(wait) = state.auth.rate_limiter.check(peer(req)) {
        let errors = Errors(vec![FieldError::new(
            "form",
            format!("Too many attempts from this address; try again in {wait} seconds."),
        )]);
        return again(StatusCode::TOO_MANY_REQUESTS, errors);
    }
    let result = match which {
        Which::Register => {
            let display_name = Some(form.display_name.clone());
            match accounts::register(
                state,
                form.username.clone(),
                form.password.clone(),
                display_name,
            )
            .await
            {
                Ok(user) => accounts::start_session(state, user.id).await,
                Err(error) => Err(error),
            }
        }
        Which::Login => {
            accounts::login_for_session(state, form.username.clone(), form.password.clone()).await
        }
    };
    match result {
        Ok(new) => Ok(signed_in_response(state, &new, &next)),
        Err(ApiError::Validation(errors)) => {
            again(StatusCode::UNPROCESSABLE_ENTITY, Errors(errors))
        }
        Err(ApiError::Conflict(message)) => again(
            StatusCode::CONFLICT,
            Errors(vec![FieldError::new("username", message)]),
        ),
        Err(ApiError::Unauthorized(message)) => again(
            StatusCode::UNAUTHORIZED,
            Errors(vec![FieldError::new("password", message)]),
        ),
        Err(other) => Err(other.into()),
    }
}

/// `POST /register`: creates the account and signs in.
#[post("/register")]
pub async fn register_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CredentialsForm>,
) -> Result<HttpResponse, PageError> {
    submit(&req, &state, Which::Register, form.into_inner()).await
}

/// `POST /login`: signs in.
#[post("/login")]
pub async fn login_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CredentialsForm>,
) -> Result<HttpResponse, PageError> {
    submit(&req, &state, Which::Login, form.into_inner()).await
}

/// A form that only carries its CSRF token.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct TokenForm {
    csrf_token: Option<String>,
}

impl TokenForm {
    /// The submitted token, if any.
    pub fn csrf_token(&self) -> Option<&str> {
        self.csrf_token.as_deref()
    }
}

/// `POST /logout`: ends the session on the server and clears the cookie.
#[post("/logout")]
pub async fn logout(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let Some(user) = session::signed_in(&req, &state).await? else {
        return Ok(see_other("/"));
    };
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        form.csrf_token.as_deref(),
    )
    .map_err(|_| PageError::Refused)?;
    accounts::logout(&state, &user).await?;
    let mut response = see_other("/");
    // The pages kept for offline reading are this person's: a shared phone forgets them.
    response.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static("clear-site-data"),
        actix_web::http::header::HeaderValue::from_static("\"cache\", \"storage\""),
    );
    if let Ok(value) = session::set_cookie(&state, SESSION_COOKIE, "", 0).parse() {
        response
            .headers_mut()
            .append(actix_web::http::header::SET_COOKIE, value);
    }
    Ok(response)
}

/// The change-password form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    current_password: String,
    new_password: String,
    csrf_token: Option<String>,
}

const PASSWORD_LABELS: &[(&str, &str)] = &[
    ("current_password", "Current password"),
    ("new_password", "New password"),
];

fn account_markup(state: &AppState, user: &SessionUser, errors: &Errors) -> Markup {
    let body = html! {
        h1 { "Your account" }
        p { "You are signed in as " strong { (user.username) } "." }
        p { a href="/account/tokens" { "Tokens for bots" } ": let a chat bot or a script act for you." }
        h2 { "Change password" }
        p.muted { "Changing it signs you out everywhere, this browser included." }
        (error_summary(errors, PASSWORD_LABELS))
        form.stack method="post" action="/account/password" novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="text" name="username" value=(user.username) autocomplete="username" hidden;
            (text_field("current_password", "Current password", "", errors, Input {
                kind: "password", autocomplete: Some("current-password"), required: true,
                max_length: Some(256), ..Input::default()
            }))
            (text_field("new_password", "New password", "", errors, Input {
                kind: "password", autocomplete: Some("new-password"), required: true,
                max_length: Some(256),
                hint: Some("At least 10 characters and hard to guess."),
            }))
            div.actions { button type="submit" { "Change password" } }
        }
    };
    layout::page(state, Some(user), "Your account", body)
}

/// `GET /account`.
#[get("/account")]
pub async fn account_page(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    Ok(respond(
        StatusCode::OK,
        account_markup(&state, &user, &Errors::default()),
    ))
}

/// `POST /account/password`: changes the password; every session ends.
#[post("/account/password")]
pub async fn change_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<PasswordForm>,
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
    match accounts::change_password(
        &state,
        &user.user_id,
        peer(&req),
        form.current_password,
        form.new_password,
    )
    .await
    {
        Ok(()) => {
            let mut response = see_other("/login");
            if let Ok(value) = session::set_cookie(&state, SESSION_COOKIE, "", 0).parse() {
                response
                    .headers_mut()
                    .append(actix_web::http::header::SET_COOKIE, value);
            }
            Ok(response)
        }
        Err(ApiError::Validation(errors)) => Ok(respond(
            StatusCode::UNPROCESSABLE_ENTITY,
            account_markup(&state, &user, &Errors(errors)),
        )),
        Err(ApiError::TooManyRequests {
            detail,
            retry_after_secs,
        }) => {
            let errors = Errors(vec![FieldError::new("form", detail)]);
            let mut response = respond(
                StatusCode::TOO_MANY_REQUESTS,
                account_markup(&state, &user, &errors),
            );
            response.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                retry_after_secs.into(),
            );
            Ok(response)
        }
        Err(other) => Err(other.into()),
    }
}
