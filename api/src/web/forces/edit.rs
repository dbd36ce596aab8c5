//! The roster editor, `/forces/{id}/edit` (owner or organiser): every unit field the roster has,
//! the rules' choices as selects, units and platoons added and removed with plain submit
//! buttons (the form comes back with the change, nothing saved until "Save roster"), points at
//! every level. Saving replaces the roster through the same use case as the JSON API, guarded
//! by the version the form was opened at.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use maud::{Markup, html};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages::{self, ForceView};
use crate::app::forces::roster::RosterRequest;
use crate::app::forces::{ForceEdit, replace_force};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::web::nested_form::UnreadableForm;

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::forces::editor::{editor, labels, map_errors};
use crate::web::forces::form::{
    Action, Fields, first, read_fields, roster_from_body, roster_request,
};
use crate::web::layout::{self, Errors, csrf_input, error_summary, textarea_field};
use crate::web::{PageError, require_user, respond, see_other};

/// What the form shows besides the roster.
struct Shown<'a> {
    roster: &'a RosterRequest,
    reason: &'a str,
    errors: &'a Errors,
    stale: bool,
}

fn edit_markup(
    state: &AppState,
    user: &SessionUser,
    force: &ForceView,
    shown: &Shown<'_>,
) -> Markup {
    let title = format!("Edit {}", force.roster.name);
    let labels = labels(shown.roster);
    let label_refs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(f, l)| (f.as_str(), l.as_str()))
        .collect();
    let body = html! {
        h1 { (title) }
        @if shown.stale {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                h2 { "Someone changed this force meanwhile" }
                p { "Your changes are kept below; saving again replaces the latest version with them. Check "
                    a href={ "/forces/" (force.id) "/history" } { "the history" }
                    " for what changed first." }
            }
        } @else {
            (error_summary(shown.errors, &label_refs))
        }
        p { a href={ "/forces/" (force.id) } { "Back to the roster" } }
        form.stack.editor method="post" action={ "/forces/" (force.id) "/edit" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="version" value=(force.version);
            (editor(shown.roster, shown.errors, &format!("/forces/{}/edit", force.id)))
            @if force.is_organiser {
                (textarea_field("reason", "Reason", shown.reason, shown.errors,
                    Some("As the organiser: why you change this force. Needed to raise a roster locked after play; kept in the force's history."), 500))
            }
            div.actions { button type="submit" name="action" value="save" { "Save roster" } }
        }
    };
    layout::page(state, Some(user), &title, body)
}

async fn editable(state: &AppState, user: &SessionUser, id: &str) -> Result<ForceView, PageError> {
    let force = force_pages::read_force(state, &user.user_id, id).await?;
    if !force.can_edit {
        return Err(ApiError::Forbidden(
            "Only the force's owner or the campaign's organiser may edit it.".to_owned(),
        )
        .into());
    }
    Ok(force)
}

fn stored_roster(force: &ForceView) -> fad_domain::roster::Force {
    fad_domain::roster::Force {
        name: force.roster.name.clone(),
        platoons: force
            .roster
            .platoons
            .iter()
            .map(|p| fad_domain::roster::Platoon {
                name: p.name.clone(),
                units: p.units.iter().map(|u| u.unit.clone()).collect(),
            })
            .collect(),
    }
}

/// `GET /forces/{id}/edit`.
#[get("/forces/{id}/edit")]
pub async fn edit_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = editable(&state, &user, &path).await?;
    let roster = roster_request(&stored_roster(&force));
    let shown = Shown {
        roster: &roster,
        reason: "",
        errors: &Errors::default(),
        stale: false,
    };
    Ok(respond(
        StatusCode::OK,
        edit_markup(&state, &user, &force, &shown),
    ))
}

/// `POST /forces/{id}/edit`: an editing button shows the form again with the change; "Save
/// roster" saves and goes back to the roster. The body is read whole (a large roster is more
/// than a default form's limit; the app's body limit still applies).
#[post("/forces/{id}/edit")]
pub async fn save(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Result<web::Bytes, actix_web::Error>,
) -> Result<HttpResponse, PageError> {
    let body = crate::web::form_body(body, state.config.body_limit)?;
    let user = require_user(&req, &state).await?;
    let fields: Fields = read_fields(&body);
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        first(&fields, CSRF_FIELD),
    )
    .map_err(|_| PageError::Refused)?;
    let force = editable(&state, &user, &path).await?;
    let stored = stored_roster(&force);
    let by_id = |id: &str| stored.unit(id).and_then(|u| serde_json::to_value(u).ok());
    let reason = first(&fields, "reason").unwrap_or_default().to_owned();
    let action = Action::read(&fields);
    let again = |status: StatusCode, roster: &RosterRequest, errors: Errors, stale: bool| {
        let shown = Shown {
            roster,
            reason: &reason,
            errors: &errors,
            stale,
        };
        Ok(respond(status, edit_markup(&state, &user, &force, &shown)))
    };
    let Ok(mut roster) = roster_from_body(&body, &by_id) else {
        let errors = Errors(vec![FieldError::new("name", UnreadableForm::MESSAGE)]);
        let stored = roster_request(&stored);
        return again(StatusCode::UNPROCESSABLE_ENTITY, &stored, errors, false);
    };
    if !action.saves() {
        action.apply(&mut roster);
        return again(StatusCode::OK, &roster, Errors::default(), false);
    }
    let Some(version) = first(&fields, "version").and_then(|v| v.parse::<i64>().ok()) else {
        let errors = Errors(vec![FieldError::new(
            "version",
            "The form is incomplete; reload the page and try again.",
        )]);
        return again(StatusCode::UNPROCESSABLE_ENTITY, &roster, errors, false);
    };
    let edit = ForceEdit {
        version: Some(version),
        if_match: None,
        roster: roster.clone(),
        reason: Some(reason.clone()),
    };
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    match replace_force(&state, &caller, &path, edit).await {
        Ok(_) => Ok(see_other(&format!("/forces/{}", force.id))),
        Err(ApiError::Validation(errors)) => {
            let errors = map_errors(&roster, errors);
            again(StatusCode::UNPROCESSABLE_ENTITY, &roster, errors, false)
        }
        // Changed meanwhile: the form again at the latest version, the input kept.
        Err(ApiError::Conflict(_)) if force.version != version => {
            again(StatusCode::CONFLICT, &roster, Errors::default(), true)
        }
        Err(other) => Err(other.into()),
    }
}
