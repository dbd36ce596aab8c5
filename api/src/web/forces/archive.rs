//! `Archive force` (`/forces/{id}/archive`): a confirm step, then the force leaves the standings
//! and the campaign's lists and stays readable. Its owner may archive it before its first
//! battle, the organiser any time; a refusal comes back on the same page in plain words.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages::{self, ForceView};
use crate::app::forces::archive_force;
use crate::auth::Caller;
use crate::error::ApiError;

use crate::web::accounts::session::{self, FormKey};
use crate::web::layout::{self, csrf_input};
use crate::web::{PageError, require_user, respond, see_other};

/// The confirm form: the version the person saw.
#[derive(Debug, Deserialize)]
pub struct ArchiveForm {
    csrf_token: Option<String>,
    version: i64,
}

fn confirm_markup(
    state: &AppState,
    user: &SessionUser,
    force: &ForceView,
    problem: Option<&str>,
) -> Markup {
    let title = format!("Archive {}?", force.roster.name);
    let body = html! {
        h1 { (title) }
        @if let Some(problem) = problem {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title" {
                h2 id="error-summary-title" { "The force was not archived" }
                p { (problem) }
            }
        }
        @if force.archived {
            p { "This force is already archived." }
        } @else {
            p { "An archived force leaves the standings and the campaign's lists, and can no longer be edited or sent to battle. Its roster, history and ledger stay readable here." }
            p.muted { "Its owner may archive it before its first battle; after that only the campaign's organiser may." }
            form.stack method="post" action={ "/forces/" (force.id) "/archive" } {
                (csrf_input(state, &FormKey::session(user)))
                input type="hidden" name="version" value=(force.version);
                div.actions {
                    button type="submit" { "Archive force" }
                    a href={ "/forces/" (force.id) } { "Keep it" }
                }
            }
        }
        p { a href={ "/forces/" (force.id) } { "Back to the roster" } }
    };
    layout::page(state, Some(user), &title, body)
}

/// `GET /forces/{id}/archive`: what archiving does, and the button.
#[get("/forces/{id}/archive")]
pub async fn confirm_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = force_pages::read_force(&state, &user.user_id, &path).await?;
    if !force.can_edit {
        return Err(ApiError::Forbidden(
            "Only the force's owner or the campaign's organiser may archive it.".to_owned(),
        )
        .into());
    }
    Ok(respond(
        StatusCode::OK,
        confirm_markup(&state, &user, &force, None),
    ))
}

/// `POST /forces/{id}/archive`: archives, then opens the campaign page.
#[post("/forces/{id}/archive")]
pub async fn archive(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<ArchiveForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        form.csrf_token.as_deref(),
    )
    .map_err(|_| PageError::Refused)?;
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    match archive_force(&state, &caller, &path, Some(form.version), None).await {
        Ok(force) => Ok(see_other(&format!("/campaigns/{}", force.campaign_id))),
        Err(ApiError::Conflict(problem)) => {
            let force = force_pages::read_force(&state, &user.user_id, &path).await?;
            Ok(respond(
                StatusCode::CONFLICT,
                confirm_markup(&state, &user, &force, Some(&problem)),
            ))
        }
        Err(other) => Err(other.into()),
    }
}
