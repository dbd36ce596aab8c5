//! Adding a force, `/campaigns/{id}/forces/new`, three ways (`?how=`): `basic` generation
//! (the default), `advanced` generation with the player's choices (the JSON generate
//! endpoint's), or `build` from scratch in the roster editor. Generation and creation go
//! through the same use cases as the JSON API; the server rolls every die.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::forcegen::advanced::AdditionalChange;
use fad_domain::forcegen::basic::{Enhancement, Limitation, Variation};
use fad_domain::forcegen::{Category, GenerationChoices};
use fad_domain::kit::Personality;
use fad_domain::names::Named;
use fad_domain::traits::Trait;
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages;
use crate::app::forces::create_force;
use crate::app::forces::roster::RosterRequest;
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::web::nested_form::UnreadableForm;

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::forces::editor::{editor, labels, map_errors};
use crate::web::forces::form::{Action, Fields, first, new_platoon, read_fields, roster_from_body};
use crate::web::forces::roster::words;
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, select_field, text_field,
};
use crate::web::{PageError, require_user, respond, see_other};

/// Which way of adding a force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    Basic,
    Advanced,
    Build,
}

impl How {
    fn read(text: Option<&str>) -> Self {
        match text {
            Some("advanced") => Self::Advanced,
            Some("build") => Self::Build,
            _ => Self::Basic,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Basic => "basic",
            Self::Advanced => "advanced",
            Self::Build => "build",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Self::Basic => "Generate a basic force",
            Self::Advanced => "Generate with advanced choices",
            Self::Build => "Build a force unit by unit",
        }
    }
}

/// `?how=`.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct HowQuery {
    how: Option<String>,
}

/// Basic generation's options (checkbox name, label).
const BASIC_OPTIONS: &[(&str, &str)] = &[
    (
        "unknown_resolve",
        "Unknown Resolve (rolled the first time a unit takes casualties)",
    ),
    ("squad_leaders", "Squad leaders (a roll for each)"),
    ("heavy_weapons", "Heavy weapons (one team per platoon)"),
    ("artillery_support", "Artillery support"),
    ("heroic_characters", "Heroic characters"),
    ("psionics", "Psionics"),
    ("not_like_us", "Not Like Us (alien traits)"),
];

/// Advanced generation's options (the basic-only ones are refused by its rules).
const ADVANCED_OPTIONS: &[(&str, &str)] = &[
    ("heroic_characters", "Heroic characters"),
    ("psionics", "Psionics"),
    ("not_like_us", "Not Like Us (alien traits)"),
];

/// Advanced generation's declarations (checkbox name, label).
const DECLARATIONS: &[(&str, &str)] = &[
    ("squad_strength_per_squad", "Roll squad strength per squad"),
    ("resolve_per_squad", "Roll Resolve per squad"),
    (
        "heavy_weapon_type_per_weapon",
        "Roll the heavy weapon type per weapon",
    ),
];

/// The most platoons basic generation makes (2, and the attacker's extra one).
const BASIC_PLATOONS: usize = 3;

fn options_of<T: Named>(none: Option<&str>) -> Vec<(String, String)> {
    none.map(|n| (String::new(), n.to_owned()))
        .into_iter()
        .chain(
            T::ALL
                .iter()
                .map(|v| (v.name().to_owned(), words(v.name()))),
        )
        .collect()
}

fn checkbox(name: &str, label: &str, fields: &Fields) -> Markup {
    let id = layout::field_id(name);
    html! {
        div.check {
            input type="checkbox" id=(id) name=(name) value="on" checked[first(fields, name).is_some()];
            label for=(id) { (label) }
        }
    }
}

fn multi_select(
    name: &str,
    label: &str,
    hint: &str,
    options: &[(String, String)],
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let id = layout::field_id(name);
    let chosen = fields.get(name).cloned().unwrap_or_default();
    let error = errors.get(name);
    html! {
        div.field {
            label for=(id) { (label) }
            span.hint { (hint) }
            @if let Some(e) = error { span.error id={ (id) "-error" } { (e) } }
            select id=(id) name=(name) multiple size="6" aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))] {
                @for (v, text) in options {
                    option value=(v) selected[chosen.contains(v)] { (text) }
                }
            }
        }
    }
}

fn one(fields: &Fields, name: &str) -> String {
    first(fields, name).unwrap_or_default().to_owned()
}

fn basic_form(fields: &Fields, errors: &Errors) -> Markup {
    let platoons = [
        ("1".to_owned(), "1 platoon (new players)".to_owned()),
        (
            "2".to_owned(),
            "2 platoons (experienced players)".to_owned(),
        ),
    ];
    let selected = first(fields, "platoons").unwrap_or("1");
    html! {
        p { "The server rolls every die (" a href="/rules#4.1" { "rules §4.1" } ") and keeps the rolls in the force's history." }
        (text_field("name", "Force name", &one(fields, "name"), errors, Input {
            max_length: Some(100),
            hint: Some("Optional; a name is chosen for you when empty."),
            ..Input::default()
        }))
        (select_field("platoons", "Platoons", &platoons, selected, errors))
        (checkbox("attacker", "Attacker (one more platoon and an artillery unit)", fields))
        (select_field("variation", "Variation", &options_of::<Variation>(Some("none")), &one(fields, "variation"), errors))
        @for i in 0..BASIC_PLATOONS {
            @let e = format!("enhancements[{i}]");
            @let l = format!("limitations[{i}]");
            (select_field(&e, &format!("Enhancement of platoon {}", i + 1), &options_of::<Enhancement>(Some("none")), &one(fields, &e), errors))
            (select_field(&l, &format!("Limitation of platoon {}", i + 1), &options_of::<Limitation>(Some("none")), &one(fields, &l), errors))
        }
        fieldset {
            legend { "Options" }
            @for (name, label) in BASIC_OPTIONS {
                (checkbox(&format!("options.{name}"), label, fields))
            }
        }
        div.actions { button type="submit" { "Generate force" } }
    }
}

fn advanced_form(fields: &Fields, errors: &Errors) -> Markup {
    let platoons: Vec<(String, String)> = (1..=8).map(|n| (n.to_string(), n.to_string())).collect();
    let points: Vec<(String, String)> = (0..=3).map(|n| (n.to_string(), n.to_string())).collect();
    let traits: Vec<(String, String)> = Trait::ALL
        .iter()
        .filter(|t| t.multiplier().is_some_and(|m| m > 1.0) && !t.single_figure_only())
        .map(|t| (t.name().to_owned(), words(t.name())))
        .collect();
    html! {
        p { "Spread 9 Force Priority points over six categories, 0 to 3 each (" a href="/rules#4.2" { "rules §4.2" } "); the server rolls on the tables." }
        (text_field("name", "Force name", &one(fields, "name"), errors, Input {
            max_length: Some(100),
            hint: Some("Optional; a name is chosen for you when empty."),
            ..Input::default()
        }))
        (select_field("platoons", "Platoons", &platoons, first(fields, "platoons").unwrap_or("1"), errors))
        fieldset id=(layout::field_id("priorities")) {
            legend { "Force Priority points" }
            @if let Some(e) = errors.get("priorities") { p.error { (e) } }
            @for c in Category::ALL {
                @let name = format!("priorities.{}", c.name());
                (select_field(&name, &format!("{} points", capitalised(&words(c.name()))), &points, first(fields, &name).unwrap_or("0"), errors))
            }
        }
        (checkbox("individual_platoons", "Roll every platoon on its own", fields))
        fieldset {
            legend { "Declared before rolling" }
            @for (name, label) in DECLARATIONS {
                (checkbox(&format!("declared.{name}"), label, fields))
            }
        }
        @for i in 0..8 {
            @let name = format!("additional_changes[{i}]");
            (multi_select(&name, &format!("Additional changes of platoon {}", i + 1), "Only for the platoons you generate; each needs a point in its category.", &options_of::<AdditionalChange>(None), fields, errors))
        }
        (multi_select("exceptional_traits", "Exceptional traits", "Preferred traits for the Training trait successes, in table order.", &traits, fields, errors))
        (multi_select("personalities", "Personalities", "Preferred personalities for the Training personality successes.", &options_of::<Personality>(None), fields, errors))
        fieldset {
            legend { "Options" }
            @for (name, label) in ADVANCED_OPTIONS {
                (checkbox(&format!("options.{name}"), label, fields))
            }
        }
        div.actions { button type="submit" { "Generate force" } }
    }
}

/// The generation forms' fields with the labels the error summary names them by.
fn generation_labels() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = [
        ("name", "Force name"),
        ("platoons", "Platoons"),
        ("variation", "Variation"),
        ("enhancements", "Enhancements"),
        ("limitations", "Limitations"),
        ("priorities", "Force Priority points"),
        ("exceptional_traits", "Exceptional traits"),
        ("personalities", "Personalities"),
    ]
    .iter()
    .map(|(k, l)| ((*k).to_owned(), (*l).to_owned()))
    .collect();
    for i in 0..8 {
        let n = i + 1;
        out.push((
            format!("enhancements[{i}]"),
            format!("Enhancement of platoon {n}"),
        ));
        out.push((
            format!("limitations[{i}]"),
            format!("Limitation of platoon {n}"),
        ));
        out.push((
            format!("additional_changes[{i}]"),
            format!("Additional changes of platoon {n}"),
        ));
    }
    for c in Category::ALL {
        out.push((
            format!("priorities.{}", c.name()),
            format!("{} points", capitalised(&words(c.name()))),
        ));
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn new_markup(
    state: &AppState,
    user: &SessionUser,
    campaign_id: &str,
    how: How,
    fields: &Fields,
    roster: &RosterRequest,
    errors: &Errors,
) -> Markup {
    let labels: Vec<(String, String)> = match how {
        How::Build => labels(roster),
        _ => generation_labels(),
    };
    let label_refs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(f, l)| (f.as_str(), l.as_str()))
        .collect();
    let here = format!("/campaigns/{campaign_id}/forces/new");
    let body = html! {
        h1 { "Add a force" }
        (error_summary(errors, &label_refs))
        @if how == How::Build && crate::web::forces::figure_form::any_figure(roster.platoons.iter().flat_map(|p| p.units.iter())) {
            p { "Build the force figure by figure: each figure's Experience, Motivation, armour and weapon. "
                "Figures are unpriced." }
        } @else {
        nav.tabs aria-label="Ways to add a force" {
            ul {
                @for other in [How::Basic, How::Advanced, How::Build] {
                    li {
                        @if other == how {
                            strong aria-current="page" { (other.title()) }
                        } @else {
                            a href={ (here) "?how=" (other.name()) } { (other.title()) }
                        }
                    }
                }
            }
        }
        }
        h2 { (how.title()) }
        form.stack method="post" action=(here) novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="how" value=(how.name());
            @match how {
                How::Basic => (basic_form(fields, errors)),
                How::Advanced => (advanced_form(fields, errors)),
                How::Build => {
                    (editor(roster, errors, &here))
                    div.actions { button type="submit" name="action" value="save" { "Create force" } }
                }
            }
        }
        p { a href={ "/campaigns/" (campaign_id) } { "Back to the campaign" } }
    };
    layout::page(state, Some(user), "Add a force", body)
}

fn starting_roster() -> RosterRequest {
    starting_roster_of(false)
}

/// The build form's first roster: one platoon with one unit, or for a campaign of FMA figures
/// one team with one figure (docs/rules.md §11).
fn starting_roster_of(figures: bool) -> RosterRequest {
    let mut platoon = new_platoon(1);
    platoon.name = "1st Platoon".to_owned();
    if figures {
        platoon.name = "First team".to_owned();
        platoon.units = vec![crate::web::forces::figure_form::new_figure("New figure 1")];
    }
    RosterRequest {
        name: String::new(),
        platoons: vec![platoon],
    }
}

/// `GET /campaigns/{id}/forces/new`.
#[get("/campaigns/{id}/forces/new")]
pub async fn new_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<HowQuery>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    // Members only: the campaign read answers 404 to anyone else (one query, not the whole
    // campaign page's read).
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    let campaign = crate::app::campaigns::read_campaign(&state, &caller, &path).await?;
    // FMA forces are built figure by figure here (the marker draw is the API's, M10); FAD's
    // generation forms do not apply to them.
    let figures = campaign.settings.ruleset.id == fad_domain::rulesets::gzg_fma_1999::ID;
    let how = if figures {
        How::Build
    } else {
        How::read(query.how.as_deref())
    };
    Ok(respond(
        StatusCode::OK,
        new_markup(
            &state,
            &user,
            &path,
            how,
            &Fields::new(),
            &starting_roster_of(figures),
            &Errors::default(),
        ),
    ))
}

fn flag(fields: &Fields, name: &str) -> bool {
    first(fields, name).is_some()
}

fn choice(fields: &Fields, name: &str) -> Value {
    match first(fields, name).map(str::trim) {
        None | Some("") => Value::Null,
        Some(v) => Value::String(v.to_owned()),
    }
}

fn small_number(fields: &Fields, name: &str, errors: &mut Vec<FieldError>) -> u32 {
    match first(fields, name).unwrap_or("0").trim().parse::<u32>() {
        Ok(n) if n <= 99 => n,
        _ => {
            errors.push(FieldError::new(name, "choose one of the listed numbers"));
            0
        }
    }
}

fn options_json(fields: &Fields, names: &[(&str, &str)]) -> Value {
    Value::Object(
        names
            .iter()
            .map(|(n, _)| {
                (
                    (*n).to_owned(),
                    Value::Bool(flag(fields, &format!("options.{n}"))),
                )
            })
            .collect(),
    )
}

/// The generation choices the form describes, as the JSON generate endpoint takes them.
fn choices(fields: &Fields, how: How) -> Result<GenerationChoices, ApiError> {
    let mut errors = Vec::new();
    let name = force_pages::generation_name(first(fields, "name"))?;
    let platoons = small_number(fields, "platoons", &mut errors);
    let body = match how {
        How::Advanced => {
            let priorities: serde_json::Map<String, Value> = Category::ALL
                .iter()
                .map(|c| {
                    let key = format!("priorities.{}", c.name());
                    (
                        c.name().to_owned(),
                        Value::from(small_number(fields, &key, &mut errors)),
                    )
                })
                .collect();
            let changes: Vec<Value> = (0..platoons as usize)
                .map(|i| {
                    let kinds = fields
                        .get(&format!("additional_changes[{i}]"))
                        .cloned()
                        .unwrap_or_default();
                    Value::Array(kinds.into_iter().map(|k| json!({ "kind": k })).collect())
                })
                .collect();
            json!({
                "method": "advanced",
                "name": name,
                "platoons": platoons,
                "priorities": priorities,
                "individual_platoons": flag(fields, "individual_platoons"),
                "declared": {
                    "squad_strength_per_squad": flag(fields, "declared.squad_strength_per_squad"),
                    "resolve_per_squad": flag(fields, "declared.resolve_per_squad"),
                    "heavy_weapon_type_per_weapon": flag(fields, "declared.heavy_weapon_type_per_weapon"),
                },
                "additional_changes": changes,
                "exceptional_traits": fields.get("exceptional_traits").cloned().unwrap_or_default(),
                "personalities": fields.get("personalities").cloned().unwrap_or_default(),
                "options": options_json(fields, ADVANCED_OPTIONS),
            })
        }
        _ => {
            // One entry per platoon generated, the attacker's extra one included.
            let total =
                (platoons as usize + usize::from(flag(fields, "attacker"))).min(BASIC_PLATOONS);
            let per_platoon = |list: &str| -> Vec<Value> {
                (0..total)
                    .map(|i| match choice(fields, &format!("{list}[{i}]")) {
                        Value::Null => Value::Null,
                        kind => json!({ "kind": kind }),
                    })
                    .collect()
            };
            let variation = match choice(fields, "variation") {
                Value::Null => Value::Null,
                kind => json!({ "kind": kind }),
            };
            json!({
                "method": "basic",
                "name": name,
                "platoons": platoons,
                "attacker": flag(fields, "attacker"),
                "variation": variation,
                "enhancements": per_platoon("enhancements"),
                "limitations": per_platoon("limitations"),
                "options": options_json(fields, BASIC_OPTIONS),
            })
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    // Only a crafted form gets here with a word the selects do not offer.
    serde_json::from_value(body).map_err(|e| ApiError::validation("form", format!("{e}")))
}

/// Problems of the choices, moved to the controls that show them: `additional_changes[0][1]`
/// → `additional_changes[0]`, `enhancements[1].kind` → `enhancements[1]`.
fn place(errors: Vec<FieldError>) -> Errors {
    Errors(
        errors
            .into_iter()
            .map(|e| {
                let field = match e.field.split_once("][") {
                    Some((head, _)) => format!("{head}]"),
                    None => e.field.split('.').take(2).collect::<Vec<_>>().join("."),
                };
                let field = field
                    .strip_suffix(".kind")
                    .map_or(field.clone(), str::to_owned);
                let field = if field.starts_with("enhancements[")
                    || field.starts_with("limitations[")
                    || field.starts_with("variation")
                {
                    field.split('.').next().unwrap_or_default().to_owned()
                } else {
                    field
                };
                FieldError::new(field, e.message)
            })
            .collect(),
    )
}

/// `POST /campaigns/{id}/forces/new`: generates or creates the force and opens it; an editing
/// button of the build form shows it again with the change.
#[post("/campaigns/{id}/forces/new")]
pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Result<web::Bytes, actix_web::Error>,
) -> Result<HttpResponse, PageError> {
    let body = crate::web::form_body(body, state.config.body_limit)?;
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        first(&fields, CSRF_FIELD),
    )
    .map_err(|_| PageError::Refused)?;
    let how = How::read(first(&fields, "how"));
    let again = |status: StatusCode, roster: &RosterRequest, errors: Errors| {
        Ok(respond(
            status,
            new_markup(&state, &user, &path, how, &fields, roster, &errors),
        ))
    };
    let mut roster = match how {
        How::Build => match roster_from_body(&body, &|_| None) {
            Ok(roster) => roster,
            Err(UnreadableForm) => {
                let errors = Errors(vec![FieldError::new("name", UnreadableForm::MESSAGE)]);
                return again(StatusCode::UNPROCESSABLE_ENTITY, &starting_roster(), errors);
            }
        },
        _ => starting_roster(),
    };
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    let result = match how {
        How::Build => {
            let action = Action::read(&fields);
            if !action.saves() {
                action.apply(&mut roster);
                return again(StatusCode::OK, &roster, Errors::default());
            }
            create_force(&state, &caller, &path, roster.clone())
                .await
                .map(|force| force.id)
        }
        _ => match choices(&fields, how) {
            Ok(choices) => {
                force_pages::generate_with_choices(&state, &user.user_id, &path, choices).await
            }
            Err(error) => Err(error),
        },
    };
    match result {
        Ok(force_id) => Ok(see_other(&format!("/forces/{force_id}"))),
        Err(ApiError::Validation(errors)) => {
            let errors = match how {
                How::Build => map_errors(&roster, errors),
                _ => place(errors),
            };
            again(StatusCode::UNPROCESSABLE_ENTITY, &roster, errors)
        }
        Err(other) => Err(other.into()),
    }
}
