//! The roster editor, `/forces/{id}/edit` (owner or organiser): the force's name and each
//! unit's name, quality, resolve, strength, armour and basic weapon, the rules' choices as
//! selects. Saving replaces the roster through the same use case as the JSON API, guarded by
//! the version the form was opened at.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::kit::{Armour, BasicWeapon};
use fad_domain::ladder::{Quality, Resolve};
use fad_domain::names::Named;
use maud::{Markup, html};
use serde_json::Value;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages::{self, ForceView};
use crate::app::forces::roster::{PlatoonRequest, RosterRequest};
use crate::app::forces::{ForceEdit, replace_force};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};

use super::forces::words;
use super::layout::{self, Errors, Input, csrf_input, error_summary, select_field, text_field};
use super::session::{self, CSRF_FIELD, FormKey};
use super::{PageError, require_user, respond, see_other};

/// The submitted fields by name (`name`, `version`, `platoons[0].units[1].strength`, ...).
type Fields = BTreeMap<String, String>;

/// The unit fields the editor offers, with their labels.
const UNIT_FIELDS: &[(&str, &str)] = &[
    ("name", "Name"),
    ("quality", "Quality"),
    ("resolve", "Resolve"),
    ("strength", "Strength"),
    ("armour", "Armour"),
    ("basic_weapon", "Basic weapon"),
];

fn options<T: Named>(none: Option<&str>) -> Vec<(String, String)> {
    none.map(|text| (String::new(), text.to_owned()))
        .into_iter()
        .chain(
            T::ALL
                .iter()
                .map(|v| (v.name().to_owned(), words(v.name()))),
        )
        .collect()
}

/// The value a field shows: what was submitted, else the stored value.
fn shown(fields: &Fields, key: &str, stored: &Value) -> String {
    if let Some(value) = fields.get(key) {
        return value.clone();
    }
    match stored {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

fn unit_json(force: &ForceView, i: usize, j: usize) -> serde_json::Map<String, Value> {
    force
        .roster
        .platoons
        .get(i)
        .and_then(|p| p.units.get(j))
        .and_then(|u| serde_json::to_value(&u.unit).ok())
        .and_then(|v| match v {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default()
}

fn edit_markup(
    state: &AppState,
    user: &SessionUser,
    force: &ForceView,
    fields: &Fields,
    errors: &Errors,
    stale: bool,
) -> Markup {
    let title = format!("Edit {}", force.roster.name);
    let mut labels: Vec<(String, String)> = vec![("name".to_owned(), "Force name".to_owned())];
    for (i, platoon) in force.roster.platoons.iter().enumerate() {
        for (j, unit) in platoon.units.iter().enumerate() {
            for (field, label) in UNIT_FIELDS {
                labels.push((
                    format!("platoons[{i}].units[{j}].{field}"),
                    format!("{label} of {}", unit.unit.name),
                ));
            }
        }
    }
    let label_refs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(f, l)| (f.as_str(), l.as_str()))
        .collect();
    let (qualities, resolves, armours, weapons) = (
        options::<Quality>(None),
        options::<Resolve>(Some("none")),
        options::<Armour>(None),
        options::<BasicWeapon>(Some("none")),
    );
    let body = html! {
        h1 { (title) }
        @if stale {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                h2 { "Someone changed this force meanwhile" }
                p { "Your changes are kept below, on top of the latest version. Check "
                    a href={ "/forces/" (force.id) "/history" } { "the history" }
                    " for what changed, then save again." }
            }
        } @else {
            (error_summary(errors, &label_refs))
        }
        p { a href={ "/forces/" (force.id) } { "Back to the roster" } }
        form.stack method="post" action={ "/forces/" (force.id) "/edit" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="version" value=(force.version);
            (text_field("name", "Force name", &shown(fields, "name", &Value::String(force.roster.name.clone())), errors, Input {
                max_length: Some(100),
                required: true,
                ..Input::default()
            }))
            @for (i, platoon) in force.roster.platoons.iter().enumerate() {
                @for (j, unit) in platoon.units.iter().enumerate() {
                    @let stored = unit_json(force, i, j);
                    @let key = |f: &str| format!("platoons[{i}].units[{j}].{f}");
                    @let value = |f: &str| shown(fields, &key(f), stored.get(f).unwrap_or(&Value::Null));
                    fieldset.panel {
                        legend { (platoon.name) ": " (unit.unit.name) " (" (words(&value("kind"))) ")" }
                        (text_field(&key("name"), "Name", &value("name"), errors, Input { max_length: Some(100), required: true, ..Input::default() }))
                        (select_field(&key("quality"), "Quality", &qualities, &value("quality"), errors))
                        (select_field(&key("resolve"), "Resolve", &resolves, &value("resolve"), errors))
                        (text_field(&key("strength"), "Strength", &value("strength"), errors, Input { kind: "number", required: true, ..Input::default() }))
                        (select_field(&key("armour"), "Armour", &armours, &value("armour"), errors))
                        (select_field(&key("basic_weapon"), "Basic weapon", &weapons, &value("basic_weapon"), errors))
                    }
                }
            }
            div.actions { button type="submit" { "Save roster" } }
        }
        p.muted { "Support and heavy weapons, traits and personalities are edited through the JSON API for now." }
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

/// `GET /forces/{id}/edit`.
#[get("/forces/{id}/edit")]
pub async fn edit_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = editable(&state, &user, &path).await?;
    Ok(respond(
        StatusCode::OK,
        edit_markup(
            &state,
            &user,
            &force,
            &Fields::new(),
            &Errors::default(),
            false,
        ),
    ))
}

/// The roster the form describes: the stored roster with the submitted fields on top (units
/// keep their ids, so the history matches them).
fn submitted_roster(force: &ForceView, fields: &Fields) -> RosterRequest {
    let platoons = force
        .roster
        .platoons
        .iter()
        .enumerate()
        .map(|(i, platoon)| PlatoonRequest {
            name: platoon.name.clone(),
            points: None,
            units: (0..platoon.units.len())
                .map(|j| {
                    let mut unit = unit_json(force, i, j);
                    for (field, _) in UNIT_FIELDS {
                        let Some(text) = fields.get(&format!("platoons[{i}].units[{j}].{field}"))
                        else {
                            continue;
                        };
                        let text = text.trim();
                        let value = match *field {
                            // A number when it reads as one; else the text, which the roster
                            // check names as the field's problem.
                            "strength" => text
                                .parse::<u32>()
                                .map_or_else(|_| Value::String(text.to_owned()), Value::from),
                            "resolve" | "basic_weapon" if text.is_empty() => Value::Null,
                            _ => Value::String(text.to_owned()),
                        };
                        unit.insert((*field).to_owned(), value);
                    }
                    Value::Object(unit)
                })
                .collect(),
        })
        .collect();
    RosterRequest {
        name: fields
            .get("name")
            .map_or_else(|| force.roster.name.clone(), |n| n.trim().to_owned()),
        platoons,
    }
}

/// `POST /forces/{id}/edit`: saves the roster, then back to it.
#[post("/forces/{id}/edit")]
pub async fn save(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        fields.get(CSRF_FIELD).map(String::as_str),
    )
    .map_err(|_| PageError::Refused)?;
    let force = editable(&state, &user, &path).await?;
    let Some(version) = fields.get("version").and_then(|v| v.parse::<i64>().ok()) else {
        let errors = Errors(vec![FieldError::new(
            "version",
            "The form is incomplete; reload the page and try again.",
        )]);
        return Ok(respond(
            StatusCode::UNPROCESSABLE_ENTITY,
            edit_markup(&state, &user, &force, &fields, &errors, false),
        ));
    };
    let edit = ForceEdit {
        version: Some(version),
        if_match: None,
        roster: submitted_roster(&force, &fields),
        reason: None,
    };
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    match replace_force(&state, &caller, &path, edit).await {
        Ok(_) => Ok(see_other(&format!("/forces/{}", force.id))),
        Err(ApiError::Validation(errors)) => Ok(respond(
            StatusCode::UNPROCESSABLE_ENTITY,
            edit_markup(&state, &user, &force, &fields, &Errors(errors), false),
        )),
        // Changed meanwhile: the form again on the latest version, the input kept.
        Err(ApiError::Conflict(_)) if force.version != version => Ok(respond(
            StatusCode::CONFLICT,
            edit_markup(&state, &user, &force, &fields, &Errors::default(), true),
        )),
        Err(other) => Err(other.into()),
    }
}
