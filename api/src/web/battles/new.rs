//! `/campaigns/{id}/battles/new`: start a battle between two forces of the campaign, or one
//! force and a non-player force, through the same use case as the JSON API
//! ([`crate::app::battles::create::create_battle`]).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::names::Named;
use fad_domain::orders::{Attitude, Stance};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battles::Side;
use crate::app::battles::create::{CreateBattleRequest, create_battle};
use crate::app::battles::scenario::non_player::NonPlayerBody;
use crate::app::idempotency::Write;
use crate::app::overview::{self, CampaignOverview};
use crate::app::scenario_request::PlatoonsBody;
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, FormKey};
use crate::web::forces::roster::words;
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, select_field, text_field,
};
use crate::web::{PageError, require_user, respond, see_other};

/// The value of the second side's select that stands for a non-player force.
const NON_PLAYER: &str = "non_player";

/// The new-battle form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct BattleForm {
    first: String,
    second: String,
    npf_name: String,
    npf_stance: String,
    npf_attitude: String,
    npf_platoons: String,
    night_fighting: Option<String>,
    csrf_token: Option<String>,
}

const LABELS: &[(&str, &str)] = &[
    ("first", "First side"),
    ("second", "Second side"),
    ("npf_name", "Non-player force name"),
    ("npf_stance", "Non-player stance"),
    ("npf_attitude", "Non-player attitude"),
    ("npf_platoons", "Non-player platoons"),
    ("night_fighting", "Night fighting"),
];

/// The form field a problem of the use case is about (its paths are the JSON body's).
fn field_of(path: &str) -> &'static str {
    let np = "sides[1].non_player";
    if let Some(rest) = path.strip_prefix(np) {
        return match rest.trim_start_matches('.') {
            r if r.starts_with("name") => "npf_name",
            r if r.starts_with("stance") => "npf_stance",
            r if r.starts_with("attitude") => "npf_attitude",
            _ => "npf_platoons",
        };
    }
    if path.starts_with("sides[0]") {
        "first"
    } else if path == "night_fighting" {
        "night_fighting"
    } else {
        "second"
    }
}

fn choice_options<T: Named>(none: &str) -> Vec<(String, String)> {
    std::iter::once((String::new(), none.to_owned()))
        .chain(
            T::ALL
                .iter()
                .map(|v| (v.name().to_owned(), capitalised(&words(v.name())))),
        )
        .collect()
}

/// `offensive` → `Offensive`.
pub(in crate::web) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

fn new_markup(
    state: &AppState,
    user: &SessionUser,
    campaign: &CampaignOverview,
    form: &BattleForm,
    errors: &Errors,
) -> Markup {
    let forces: Vec<(String, String)> = campaign
        .forces
        .iter()
        .filter(|f| !f.archived)
        .map(|f| (f.id.clone(), format!("{} ({})", f.name, f.owner)))
        .collect();
    let pick = |text: &str| (String::new(), text.to_owned());
    let first_options: Vec<(String, String)> = std::iter::once(pick("Choose a force"))
        .chain(forces.iter().cloned())
        .collect();
    let second_options: Vec<(String, String)> = std::iter::once(pick("Choose a force"))
        .chain(forces.iter().cloned())
        .chain(std::iter::once((
            NON_PLAYER.to_owned(),
            "A non-player force (the service plays it)".to_owned(),
        )))
        .collect();
    let title = "Start a battle";
    let body = html! {
        h1 { (title) }
        (error_summary(errors, LABELS))
        p { a href={ "/campaigns/" (campaign.id) } { "Back to " (campaign.name) } }
        @if forces.is_empty() {
            p { "This campaign has no forces yet. "
                a href={ "/campaigns/" (campaign.id) "/forces/new" } { "Add a force" } " first." }
        }
        form.stack method="post" action={ "/campaigns/" (campaign.id) "/battles/new" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            (select_field("first", "First side", &first_options, &form.first, errors))
            (select_field("second", "Second side", &second_options, &form.second, errors))
            fieldset.panel {
                legend { "If the second side is a non-player force" }
                p.hint { "Leave stance and attitude on \u{201c}rolled\u{201d} for the service to roll them when orders close (they stay secret until then)." }
                (text_field("npf_name", "Non-player force name", &form.npf_name, errors, Input {
                    max_length: Some(100),
                    hint: Some("Optional; default \u{201c}Non-player force\u{201d}."),
                    ..Input::default()
                }))
                (select_field("npf_stance", "Non-player stance", &choice_options::<Stance>("Rolled"), &form.npf_stance, errors))
                (select_field("npf_attitude", "Non-player attitude", &choice_options::<Attitude>("Rolled"), &form.npf_attitude, errors))
                (text_field("npf_platoons", "Non-player platoons", &form.npf_platoons, errors, Input {
                    kind: "number",
                    hint: Some("How many platoons it fields (1 to 20; default 1)."),
                    ..Input::default()
                }))
            }
            div.check {
                input type="checkbox" id="f-night_fighting" name="night_fighting" value="on" checked[form.night_fighting.is_some()];
                label for="f-night_fighting" { "Night fighting (each side adds 1d6 dummy markers)" }
            }
            div.actions { button type="submit" { "Start battle" } }
        }
    };
    layout::page(state, Some(user), title, body)
}

/// An optional select's value: empty is none; anything but one of the options is a problem.
fn choice<T: Named>(text: &str, field: &str, errors: &mut Vec<FieldError>) -> Option<T> {
    match text.trim() {
        "" => None,
        value => T::parse(value)
            .map_err(|_| errors.push(FieldError::new(field, "choose one of the options")))
            .ok(),
    }
}

/// The request the form describes, or the form's own problems.
fn request_of(form: &BattleForm) -> Result<CreateBattleRequest, Vec<FieldError>> {
    let mut errors = Vec::new();
    if form.first.trim().is_empty() {
        errors.push(FieldError::new("first", "choose a force"));
    }
    let second = form.second.trim();
    if second.is_empty() {
        errors.push(FieldError::new(
            "second",
            "choose a force or a non-player force",
        ));
    }
    let stance = choice::<Stance>(&form.npf_stance, "npf_stance", &mut errors);
    let attitude = choice::<Attitude>(&form.npf_attitude, "npf_attitude", &mut errors);
    let platoons = match form.npf_platoons.trim() {
        "" => None,
        text => match text.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => {
                errors.push(FieldError::new("npf_platoons", "enter a whole number"));
                None
            }
        },
    };
    let non_player = second == NON_PLAYER;
    if !errors.is_empty() {
        return Err(errors);
    }
    let second_side = if non_player {
        let name = form.npf_name.trim();
        Side {
            force_id: None,
            non_player: Some(NonPlayerBody {
                name: (!name.is_empty()).then(|| name.to_owned()),
                stance,
                attitude,
                platoons: platoons.map(PlatoonsBody::Count),
                units: Vec::new(),
            }),
            owner_name: None,
        }
    } else {
        Side {
            force_id: Some(second.to_owned()),
            non_player: None,
            owner_name: None,
        }
    };
    Ok(CreateBattleRequest {
        sides: vec![
            Side {
                force_id: Some(form.first.trim().to_owned()),
                non_player: None,
                owner_name: None,
            },
            second_side,
        ],
        night_fighting: form.night_fighting.is_some(),
    })
}

/// `GET /campaigns/{id}/battles/new` (members; others 404).
#[get("/campaigns/{id}/battles/new")]
pub async fn new_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let campaign = overview::campaign_overview(&state, &user.user_id, &path).await?;
    let form = BattleForm {
        // The first force of one's own is the likely first side.
        first: campaign
            .forces
            .iter()
            .find(|f| !f.archived && f.owner == user.username)
            .map(|f| f.id.clone())
            .unwrap_or_default(),
        ..BattleForm::default()
    };
    Ok(respond(
        StatusCode::OK,
        new_markup(&state, &user, &campaign, &form, &Errors::default()),
    ))
}

/// `POST /campaigns/{id}/battles/new`: starts the battle and opens its page.
#[post("/campaigns/{id}/battles/new")]
pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<BattleForm>,
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
    let campaign = overview::campaign_overview(&state, &user.user_id, &path).await?;
    let again = |errors: Vec<FieldError>| {
        Ok(respond(
            StatusCode::UNPROCESSABLE_ENTITY,
            new_markup(&state, &user, &campaign, &form, &Errors(errors)),
        ))
    };
    let request = match request_of(&form) {
        Ok(request) => request,
        Err(errors) => return again(errors),
    };
    let author = AuthUser {
        user_id: user.user_id.clone(),
    };
    // No idempotency key: a page form posts once and answers with a redirect.
    let write = Write::new(
        &user.user_id,
        format!("page new battle {}", campaign.id),
        None,
        b"",
    );
    match create_battle(&state, &author, campaign.id.clone(), request, write).await {
        Ok(answer) => {
            let id = answer
                .to_json()?
                .get("id")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
                .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a created battle has an id")))?;
            Ok(see_other(&format!("/battles/{id}")))
        }
        Err(ApiError::Validation(errors)) => again(
            errors
                .into_iter()
                .map(|e| FieldError::new(field_of(&e.field), e.message))
                .collect(),
        ),
        Err(ApiError::Forbidden(message)) => again(vec![FieldError::new("first", message)]),
        Err(other) => Err(other.into()),
    }
}
