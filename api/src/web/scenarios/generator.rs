//! The one-shot generator for game night, `/scenarios/new`: signed in or signed out, two forces
//! typed in quickly (a name and a unit list per side, [`crate::web::scenarios::unit_lines`]) or, signed in,
//! picked from the person's campaigns, or one side against a non-player force. It calls the
//! same use case as `POST /api/v1/scenarios` ([`crate::app::scenarios::create`]) and lands on
//! the printable sheet `/scenarios/{id}`, whose screen-only panel ([`sheet_panel`]) shows the
//! share link and, for a scenario generated signed out, when it expires and a `Keep` button.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};

use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::names::Named;
use fad_domain::orders::{Attitude, Stance};
use fad_domain::roster::UnitKind;
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::scenario_request::CreateScenarioRequest;
use crate::app::scenarios::create::{Generator, create_scenario};
use crate::app::scenarios::{self, PickableForce, ScenarioRecord};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};

use crate::web::accounts::TokenForm;
use crate::web::accounts::session::{self, FormKey};
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, text_field, textarea_field,
};
use crate::web::scenarios::unit_lines::{self, UnitLines};
use crate::web::{PageError, encode_query, respond, see_other};

/// Longest unit list accepted (about 200 lines): the page's `maxlength`, and what the server
/// checks. Both sides at this length fit the default body limit however the browser encodes
/// them (see the test `the_longest_generator_form_fits_the_default_body_limit`).
pub const MAX_UNITS_TEXT: usize = 12_000;

/// The generator form as posted (every field optional: the page says what is missing).
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(default)]
pub struct GeneratorForm {
    side1_force: String,
    side1_name: String,
    side1_units: String,
    side1_stance: String,
    side1_attitude: String,
    side2_force: String,
    side2_name: String,
    side2_units: String,
    side2_stance: String,
    side2_attitude: String,
    side2_non_player: Option<String>,
    narrative: Option<String>,
    night_fighting: Option<String>,
    csrf_token: Option<String>,
}

/// Whether a checkbox was ticked (browsers leave unticked ones out; an empty value is not a
/// tick either).
fn ticked(value: &Option<String>) -> bool {
    value.as_deref().is_some_and(|v| !v.is_empty())
}

impl GeneratorForm {
    fn side(&self, side: usize) -> [&str; 5] {
        if side == 1 {
            [
                &self.side1_force,
                &self.side1_name,
                &self.side1_units,
                &self.side1_stance,
                &self.side1_attitude,
            ]
        } else {
            [
                &self.side2_force,
                &self.side2_name,
                &self.side2_units,
                &self.side2_stance,
                &self.side2_attitude,
            ]
        }
    }
}

/// A new form: a neutral, cautious start for both sides.
fn blank() -> GeneratorForm {
    GeneratorForm {
        side1_stance: "neutral".to_owned(),
        side1_attitude: "cautious".to_owned(),
        side2_stance: "neutral".to_owned(),
        side2_attitude: "cautious".to_owned(),
        ..GeneratorForm::default()
    }
}

const LABELS: &[(&str, &str)] = &[
    ("side1_force", "Side 1 stored force"),
    ("side1_name", "Side 1 name"),
    ("side1_units", "Side 1 units"),
    ("side1_stance", "Side 1 stance"),
    ("side1_attitude", "Side 1 attitude"),
    ("side2_force", "Side 2 stored force"),
    ("side2_name", "Side 2 name"),
    ("side2_units", "Side 2 units"),
    ("side2_stance", "Side 2 stance"),
    ("side2_attitude", "Side 2 attitude"),
];

fn choices<T: Named>(rolled: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if rolled {
        out.push((String::new(), "Rolled (non-player force only)".to_owned()));
    }
    out.extend(
        T::ALL
            .iter()
            .map(|v| (v.name().to_owned(), v.name().replace('_', " "))),
    );
    out
}

fn force_picker(side: usize, selected: &str, forces: &[PickableForce], errors: &Errors) -> Markup {
    let name = format!("side{side}_force");
    let id = layout::field_id(&name);
    let error = errors.get(&name);
    let mut by_campaign: BTreeMap<&str, Vec<&PickableForce>> = BTreeMap::new();
    for force in forces {
        by_campaign.entry(&force.campaign).or_default().push(force);
    }
    html! {
        div.field {
            label for=(id) { "Side " (side) " stored force" }
            span.hint id={ (id) "-hint" } { "Or type the force in below (then leave this at None)." }
            @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
            select id=(id) name=(name) aria-describedby={ (id) "-hint" }
                aria-invalid=[error.map(|_| "true")] {
                option value="" selected[selected.is_empty()] { "None: typed in below" }
                @for (campaign, forces) in &by_campaign {
                    optgroup label=(campaign) {
                        @for force in forces {
                            option value=(force.id) selected[force.id == selected] { (force.name) }
                        }
                    }
                }
            }
        }
    }
}

fn side_fields(
    side: usize,
    form: &GeneratorForm,
    forces: &[PickableForce],
    errors: &Errors,
) -> Markup {
    let [force, name, units, stance, attitude] = form.side(side);
    let units_hint = format!(
        "One unit a line: name, kind, then any of quality, resolve, traits and figures. \
         Kinds: {}. For example: Alpha Squad, squad, regular, steady, 8",
        unit_lines::names::<UnitKind>()
    );
    let rolled = side == 2;
    html! {
        fieldset.panel {
            legend { "Side " (side) }
            @if !forces.is_empty() { (force_picker(side, force, forces, errors)) }
            (text_field(&format!("side{side}_name"), &format!("Side {side} name"), name, errors, Input {
                max_length: Some(100),
                hint: Some(if rolled { "e.g. Raiders" } else { "e.g. Red Company" }),
                ..Input::default()
            }))
            (textarea_field(&format!("side{side}_units"), &format!("Side {side} units"), units, errors,
                Some(&units_hint), MAX_UNITS_TEXT))
            @if rolled {
                div.check {
                    input type="checkbox" id="f-side2-non-player" name="side2_non_player" value="on"
                        checked[ticked(&form.side2_non_player)];
                    label for="f-side2-non-player" { "Side 2 is a non-player force" }
                }
            }
            (layout::select_field(&format!("side{side}_stance"), &format!("Side {side} stance"),
                &choices::<Stance>(rolled), stance, errors))
            (layout::select_field(&format!("side{side}_attitude"), &format!("Side {side} attitude"),
                &choices::<Attitude>(rolled), attitude, errors))
        }
    }
}

fn generator_markup(
    state: &AppState,
    user: Option<&SessionUser>,
    key: &FormKey,
    form: &GeneratorForm,
    forces: &[PickableForce],
    errors: &Errors,
) -> Markup {
    let ttl = state.config.oneshot_ttl_days;
    let body = html! {
        h1 { "Generate a scenario" }
        (error_summary(errors, LABELS))
        @if user.is_none() {
            p.lead { "For one game, no account needed. The scenario gets a link to share; it is deleted after "
                (ttl) " days unless someone with an account keeps it." }
        }
        form.stack method="post" action="/scenarios/new" novalidate {
            (csrf_input(state, key))
            (side_fields(1, form, forces, errors))
            (side_fields(2, form, forces, errors))
            div.check {
                input type="checkbox" id="f-narrative" name="narrative" value="on" checked[ticked(&form.narrative)];
                label for="f-narrative" { "Roll the circumstances of war" }
            }
            div.check {
                input type="checkbox" id="f-night-fighting" name="night_fighting" value="on" checked[ticked(&form.night_fighting)];
                label for="f-night-fighting" { "Night fighting" }
            }
            div.actions { button type="submit" { "Generate scenario" } }
        }
        p.muted { "Every die is rolled by the server and listed on the sheet. " a href="/rules" { "The rules reference" } }
    };
    layout::page(state, user, "Generate a scenario", body)
}

fn with_form_cookie(mut response: HttpResponse, key: &FormKey) -> HttpResponse {
    if let Some(value) = key.set_cookie().and_then(|c| c.parse().ok()) {
        response
            .headers_mut()
            .append(actix_web::http::header::SET_COOKIE, value);
    }
    response
}

fn peer(req: &HttpRequest) -> IpAddr {
    req.peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip())
}

/// The person (if signed in), their form key, and the forces they may pick.
async fn context(
    req: &HttpRequest,
    state: &AppState,
) -> Result<(Option<SessionUser>, FormKey, Vec<PickableForce>), PageError> {
    match session::signed_in(req, state).await? {
        Some(user) => {
            let caller = Caller::User {
                user_id: user.user_id.clone(),
            };
            let forces = scenarios::pickable_forces(state, &caller).await?;
            let key = FormKey::session(&user);
            Ok((Some(user), key, forces))
        }
        None => Ok((None, FormKey::anonymous(req, state)?, Vec::new())),
    }
}

/// `GET /scenarios/new`.
#[get("/scenarios/new")]
pub async fn new_form(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, PageError> {
    let (user, key, forces) = context(&req, &state).await?;
    let markup = generator_markup(
        &state,
        user.as_ref(),
        &key,
        &blank(),
        &forces,
        &Errors::default(),
    );
    Ok(with_form_cookie(respond(StatusCode::OK, markup), &key))
}

/// The request the form describes, or the form's own errors (before the use case runs), with
/// each side's unit lines to name lines in later errors.
fn request(
    form: &GeneratorForm,
) -> Result<(CreateScenarioRequest, [UnitLines; 2]), Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut sides = Vec::new();
    let mut lines: [UnitLines; 2] = Default::default();
    for side in [1, 2] {
        let [force, name, units, stance, attitude] = form.side(side);
        let non_player = side == 2 && ticked(&form.side2_non_player);
        let field = |f: &str| format!("side{side}_{f}");
        let mut body = serde_json::Map::new();
        if units.chars().count() > MAX_UNITS_TEXT {
            // The page's maxlength, checked here too: a form need not come from the page.
            errors.push(FieldError::new(
                field("units"),
                format!("at most {MAX_UNITS_TEXT} characters (about 200 lines)"),
            ));
        } else if force.is_empty() {
            match unit_lines::parse(units) {
                Ok(parsed) => {
                    let units: Vec<Value> = parsed
                        .units
                        .iter()
                        .map(|u| serde_json::to_value(u).unwrap_or(Value::Null))
                        .collect();
                    body.insert("units".into(), Value::Array(units));
                    lines[side - 1] = parsed;
                }
                Err(problems) => errors.extend(
                    problems
                        .into_iter()
                        .map(|p| FieldError::new(field("units"), p)),
                ),
            }
            let name = name.trim();
            let name = if name.is_empty() && non_player {
                "Non-player force"
            } else {
                name
            };
            body.insert("name".into(), json!(name));
        } else {
            body.insert("force_id".into(), json!(force));
        }
        body.insert("non_player".into(), json!(non_player));
        for (key, value, check) in [
            ("stance", stance, Stance::parse(stance).map(|_| ())),
            ("attitude", attitude, Attitude::parse(attitude).map(|_| ())),
        ] {
            match check {
                Ok(()) => {
                    body.insert(key.into(), json!(value));
                }
                Err(_) if value.is_empty() && non_player => {}
                Err(_) if value.is_empty() => errors.push(FieldError::new(
                    field(key),
                    format!("choose the {key} (only a non-player force's is rolled)"),
                )),
                Err(e) => errors.push(FieldError::new(field(key), e.to_string())),
            }
        }
        sides.push(Value::Object(body));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let body = json!({
        "sides": sides,
        "narrative": ticked(&form.narrative),
        "night_fighting": ticked(&form.night_fighting),
        "share": true,
    });
    serde_json::from_value(body)
        .map(|request| (request, lines))
        .map_err(|e| vec![FieldError::new("form", e.to_string())])
}

/// Puts a use-case error under the form field it concerns (`sides[0].units[2].strength` →
/// Side 1 units, naming the line).
fn page_error(error: FieldError, lines: &[UnitLines; 2]) -> FieldError {
    let Some(rest) = error.field.strip_prefix("sides[") else {
        return FieldError::new("form", error.message);
    };
    let Some((index, rest)) = rest.split_once(']') else {
        return FieldError::new("form", error.message);
    };
    let Ok(index) = index.parse::<usize>() else {
        return FieldError::new("form", error.message);
    };
    if index > 1 {
        return FieldError::new("form", error.message);
    }
    let rest = rest.trim_start_matches('.');
    let side = index + 1;
    let (field, message) = match rest.split(['.', '[']).next().unwrap_or_default() {
        "name" => ("name", error.message),
        "stance" => ("stance", error.message),
        "attitude" => ("attitude", error.message),
        "force_id" => ("force", error.message),
        "units" => {
            let unit = rest
                .strip_prefix("units[")
                .and_then(|r| r.split(']').next())
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| lines[index].lines.get(n));
            let what = rest.rsplit('.').next().filter(|w| !w.starts_with("units"));
            let message = match (unit, what) {
                (Some(line), Some(what)) => format!("line {line}: {what}: {}", error.message),
                (Some(line), None) => format!("line {line}: {}", error.message),
                _ => error.message,
            };
            ("units", message)
        }
        _ => ("units", error.message),
    };
    FieldError::new(format!("side{side}_{field}"), message)
}

/// The page for a refused generation: when to try again, with `Retry-After`.
fn too_many(
    state: &AppState,
    user: Option<&SessionUser>,
    detail: &str,
    retry_after_secs: u64,
) -> HttpResponse {
    let minutes = retry_after_secs.div_ceil(60);
    let at = chrono::Utc::now()
        + chrono::Duration::seconds(i64::try_from(retry_after_secs).unwrap_or(3600));
    let body = html! {
        h1 { "Too many scenarios for now" }
        p { (detail) }
        p { "Try again in " strong { (minutes) " minute" @if minutes != 1 { "s" } }
            " (after " (at.format("%H:%M UTC")) ")." }
        p { a href="/scenarios/new" { "Back to the generator" } }
    };
    let mut response = respond(
        StatusCode::TOO_MANY_REQUESTS,
        layout::page(state, user, "Too many scenarios for now", body),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, retry_after_secs.into());
    response
}

/// `POST /scenarios/new`: generates the scenario and opens its sheet.
#[post("/scenarios/new")]
pub async fn generate(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<GeneratorForm>,
) -> Result<HttpResponse, PageError> {
    let form = form.into_inner();
    let (user, key, forces) = context(&req, &state).await?;
    session::check_form(&req, &state, &key, form.csrf_token.as_deref())
        .map_err(|_| PageError::Refused)?;
    let again = |errors: Vec<FieldError>| {
        let markup = generator_markup(&state, user.as_ref(), &key, &form, &forces, &Errors(errors));
        Ok(with_form_cookie(
            respond(StatusCode::UNPROCESSABLE_ENTITY, markup),
            &key,
        ))
    };
    let (request, lines) = match request(&form) {
        Ok(parsed) => parsed,
        Err(errors) => return again(errors),
    };
    let generator = match &user {
        Some(user) => Generator::Person(Caller::User {
            user_id: user.user_id.clone(),
        }),
        None => Generator::Anonymous(peer(&req)),
    };
    let signed_out = user.is_none();
    match create_scenario(&state, generator, request, None).await {
        Ok(generated) => {
            let sheet = format!("/scenarios/{}", generated.id());
            let mut response = see_other(&sheet);
            if signed_out {
                // The claim that lets this browser, and only it, keep the scenario later.
                let cookie = claim_cookie(&state, &sheet, generated.id())?;
                if let Ok(value) = cookie.parse() {
                    response
                        .headers_mut()
                        .append(actix_web::http::header::SET_COOKIE, value);
                }
            }
            Ok(response)
        }
        Err(ApiError::Validation(errors)) => {
            again(errors.into_iter().map(|e| page_error(e, &lines)).collect())
        }
        Err(ApiError::TooManyRequests {
            detail,
            retry_after_secs,
        }) => Ok(with_form_cookie(
            too_many(&state, user.as_ref(), &detail, retry_after_secs),
            &key,
        )),
        Err(other) => Err(other.into()),
    }
}

/// Name of the cookie holding a signed-out scenario's claim token, scoped to that scenario's
/// pages (`Path=/scenarios/{id}`), so each scenario's claim goes only to its own pages.
pub const CLAIM_COOKIE: &str = "fad_claim";

/// The `Set-Cookie` value of scenario `id`'s claim, living as long as the scenario.
fn claim_cookie(state: &AppState, sheet: &str, id: &str) -> Result<String, ApiError> {
    let token = scenarios::claim_token(state, id)?;
    let max_age = i64::from(state.config.oneshot_ttl_days) * 24 * 3600;
    let cookie = session::set_cookie(state, CLAIM_COOKIE, &token, max_age);
    Ok(cookie.replacen("; Path=/;", &format!("; Path={sheet};"), 1))
}

/// The claim token this request carries for the scenario it is about (the cookie's path
/// scopes it to one scenario).
fn claim_of(req: &HttpRequest) -> Option<String> {
    session::cookie(req, CLAIM_COOKIE)
}

/// `POST /scenarios/{id}/keep`: the signed-in person keeps a scenario generated signed out in
/// this browser (it holds the scenario's claim cookie).
#[post("/scenarios/{id}/keep")]
pub async fn keep(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let sheet = format!("/scenarios/{}", encode_query(&path));
    let Some(user) = session::signed_in(&req, &state).await? else {
        return Ok(see_other(&format!("/login?next={}", encode_query(&sheet))));
    };
    session::check_form(&req, &state, &FormKey::session(&user), form.csrf_token())
        .map_err(|_| PageError::Refused)?;
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    scenarios::keep_scenario(&state, &caller, &path, claim_of(&req).as_deref()).await?;
    Ok(see_other(&sheet))
}

/// The absolute form of a link the service built (a path when no public address is set).
fn absolute(req: &HttpRequest, link: &str) -> String {
    if link.starts_with('/') {
        let info = req.connection_info();
        format!("{}://{}{link}", info.scheme(), info.host())
    } else {
        link.to_owned()
    }
}

/// The sheet's screen-only panel: navigation, the share link, and for a scenario generated
/// signed out its expiry with `Keep` (signed in) or a way to sign in and keep it.
pub fn sheet_panel(
    req: &HttpRequest,
    state: &AppState,
    record: &ScenarioRecord,
    session_user: Option<&SessionUser>,
) -> Markup {
    let row = &record.row;
    let here = format!("/scenarios/{}", row.id);
    let side_names: Vec<String> = crate::app::scenarios::document::ScenarioDocument::of_row(row)
        .map(|d| d.forces.into_iter().map(|f| f.name).collect())
        .unwrap_or_default();
    // A failed derivation shows no Keep button: keeping is then refused anyway.
    let claimed = scenarios::holds_claim(state, &row.id, claim_of(req).as_deref()).unwrap_or(false);
    html! {
        nav aria-label="Site" {
            a href="/" { "Home" } " · " a href="/scenarios/new" { "Generate another" }
        }
        @if !record.side_links.is_empty() {
            h2 { "A sheet for each side" }
            p { "Hand each player the link to their own sheet: it shows their side's mission and of the other side only what the rules reveal." }
            ul.side-links {
                @for (i, url) in record.side_links.iter().enumerate() {
                    @let link = absolute(req, url);
                    li { "Sheet for " strong { (side_names.get(i).cloned().unwrap_or_else(|| format!("side {}", i + 1))) } ": " a href=(link) { (link) } }
                }
            }
        }
        @if let Some(links) = &record.links {
            @let link = absolute(req, &links.sheet);
            p { "This sheet shows both sides' secrets. Share it only where both players agreed to see everything: " a href=(link) { (link) } }
        }
        @if let Some(expires) = row.expires_at {
            p { "Generated without an account: deleted on "
                strong { (expires.and_utc().format("%Y-%m-%d %H:%M UTC")) }
                " unless the browser that generated it keeps it in an account." }
            @if !claimed {
                p.muted { "Only the browser that generated this scenario can keep it." }
            } @else if let Some(user) = session_user {
                form method="post" action={ (here) "/keep" } {
                    (csrf_input(state, &FormKey::session(user)))
                    button type="submit" { "Keep" }
                }
            } @else {
                p { a href={ "/login?next=" (encode_query(&here)) } { "Log in to keep it" } }
            }
        } @else if session_user.is_some() {
            p { "Saved in your account: it does not expire." }
        }
    }
}
