//! The battle page's forms: each posts here, is turned into the JSON API's request and goes
//! through the same scenario use case ([`crate::app::battles::scenario`]); then back to the
//! page (303), or the page again with the input kept and the problems beside the fields (422),
//! or with what changed when the battle moved on meanwhile (409). Also the odds fragment the
//! stance and bonus selects fetch, and the printable sheet's share link.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::names::Named;
use fad_domain::odds::{MissionBonuses, OddsQuery};
use fad_domain::orders::{Attitude, Mission, Stance};
use fad_domain::traits::Trait;
use maud::html;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battles::scenario::assault::{AssaultTargetRequest, declare_assault_target};
use crate::app::battles::scenario::choice::{MissionChoiceRequest, submit_mission_choice};
use crate::app::battles::scenario::missions::{MissionBonusesRequest, submit_mission_bonuses};
use crate::app::battles::scenario::orders::{OrdersRequest, submit_orders};
use crate::app::battles::scenario::recon::{
    ReconActionName, ReconActionRequest, submit_recon_action,
};
use crate::app::battles::scenario::{RawDice, read::read_scenario};
use crate::app::idempotency::Write;
use crate::app::sharing;
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::battles::page::{Attempt, FormKind, caller, charts, key, odds_chart, page};
use crate::web::layout::Errors;
use crate::web::{PageError, require_user, respond, see_other};

/// The submitted fields by name.
type Fields = BTreeMap<String, String>;

/// A request built from a form, with how the use case's field paths map to the form's keys.
struct Built<T> {
    request: T,
    /// `(use case path prefix, form key)`: the first prefix that starts a problem's path names
    /// the field it is shown beside.
    paths: Vec<(String, String)>,
}

/// One die field: empty is none; else a face of the die.
fn die(fields: &Fields, name: &str, errors: &mut Vec<FieldError>, side: usize) -> Option<u8> {
    let text = fields.get(name).map_or("", |v| v.trim());
    if text.is_empty() {
        return None;
    }
    match text.parse::<u8>() {
        Ok(v) if (1..=6).contains(&v) => Some(v),
        _ => {
            errors.push(FieldError::new(
                key(side, name),
                "enter a face of the die, 1 to 6, or leave it empty",
            ));
            None
        }
    }
}

fn put_die(dice: &mut RawDice, step: &str, subject: &str, value: Option<u8>) {
    if let Some(v) = value {
        dice.entry(step.to_owned())
            .or_default()
            .insert(subject.to_owned(), vec![v]);
    }
}

fn required<T: Named>(
    fields: &Fields,
    name: &str,
    what: &str,
    side: usize,
    errors: &mut Vec<FieldError>,
) -> Option<T> {
    let text = fields.get(name).map_or("", |v| v.trim());
    match T::parse(text) {
        Ok(v) => Some(v),
        Err(_) => {
            errors.push(FieldError::new(key(side, name), format!("choose {what}")));
            None
        }
    }
}

fn orders(
    fields: &Fields,
    force_id: &str,
    side: usize,
    version: Option<i64>,
) -> Result<Built<OrdersRequest>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let stance = required::<Stance>(fields, "stance", "a stance", side, &mut errors);
    let attitude = required::<Attitude>(fields, "attitude", "an attitude", side, &mut errors);
    let recon_unit_ids: Vec<String> = fields
        .keys()
        .filter_map(|k| k.strip_prefix("recon."))
        .map(str::to_owned)
        .collect();
    let mut dice = RawDice::new();
    put_die(
        &mut dice,
        "table_edge",
        force_id,
        die(fields, "table_edge", &mut errors, side),
    );
    put_die(
        &mut dice,
        "night_fighting",
        force_id,
        die(fields, "night_fighting", &mut errors, side),
    );
    match (stance, attitude) {
        (Some(stance), Some(attitude)) if errors.is_empty() => Ok(Built {
            request: OrdersRequest {
                force_id: force_id.to_owned(),
                stance,
                attitude,
                recon_unit_ids,
                attached_unit_ids: Vec::new(),
                holo_projectors: 0,
                version,
                client_seed: None,
                dice,
                non_player_dice: RawDice::new(),
            },
            paths: vec![
                ("stance".into(), key(side, "stance")),
                ("attitude".into(), key(side, "attitude")),
                ("recon_unit_ids".into(), key(side, "recon")),
                ("dice.table_edge".into(), key(side, "table_edge")),
                ("dice.night_fighting".into(), key(side, "night_fighting")),
            ],
        }),
        _ => Err(errors),
    }
}

fn bonuses(
    fields: &Fields,
    side: usize,
    force_id: &str,
    version: Option<i64>,
) -> Result<Built<MissionBonusesRequest>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut missions = Vec::new();
    for name in ["first_bonus", "second_bonus"] {
        match fields.get(name).map_or("", |v| v.trim()) {
            "" => {}
            text => match Mission::parse(text) {
                Ok(m) if Mission::ROLLED.contains(&m) => missions.push(m),
                _ => errors.push(FieldError::new(
                    key(side, name),
                    "choose one of the missions",
                )),
            },
        }
    }
    match missions.as_slice() {
        [] => {}
        [_] => errors.push(FieldError::new(
            key(side, "second_bonus"),
            "choose two different missions, or none",
        )),
        [a, b] if a == b => errors.push(FieldError::new(
            key(side, "second_bonus"),
            "choose a mission other than the first",
        )),
        _ => {}
    }
    let mut dice = RawDice::new();
    let mut paths = vec![("missions".into(), key(side, "second_bonus"))];
    for m in Mission::ROLLED {
        let name = format!("mission-{}", m.name());
        put_die(
            &mut dice,
            "mission",
            m.name(),
            die(fields, &name, &mut errors, side),
        );
        paths.push((format!("dice.mission.{}", m.name()), key(side, &name)));
    }
    let mut bonus_units = std::collections::BTreeMap::new();
    for t in Trait::MISSION_BONUS_TRAITS {
        let name = format!("bonus-{}", t.name());
        if let Some(unit) = fields
            .get(&name)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
        {
            bonus_units.insert(t.name().to_owned(), unit.to_owned());
        }
        paths.push((format!("bonus_units.{}", t.name()), key(side, &name)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Built {
        request: MissionBonusesRequest {
            force_id: force_id.to_owned(),
            missions,
            bonus_units,
            version,
            client_seed: None,
            dice,
            non_player_dice: RawDice::new(),
        },
        paths,
    })
}

fn choice(
    fields: &Fields,
    side: usize,
    force_id: &str,
    version: Option<i64>,
) -> Result<Built<MissionChoiceRequest>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mission = required::<Mission>(
        fields,
        "mission",
        "one of the tied missions",
        side,
        &mut errors,
    );
    match mission {
        Some(mission) => Ok(Built {
            request: MissionChoiceRequest {
                force_id: force_id.to_owned(),
                mission,
                version,
                client_seed: None,
                dice: RawDice::new(),
                non_player_dice: RawDice::new(),
            },
            paths: vec![("mission".into(), key(side, "mission"))],
        }),
        None => Err(errors),
    }
}

fn recon(
    fields: &Fields,
    side: usize,
    force_id: &str,
    version: Option<i64>,
) -> Result<Built<ReconActionRequest>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let action = match fields.get("action").map(String::as_str) {
        Some("move") => ReconActionName::Move,
        Some("reveal") => ReconActionName::Reveal,
        Some("block") => ReconActionName::Block,
        Some("pass") => ReconActionName::Pass,
        _ => {
            errors.push(FieldError::new(
                key(side, "action"),
                "the form is incomplete; reload the page",
            ));
            ReconActionName::Pass
        }
    };
    let text = |name: &str| {
        fields
            .get(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let markers: Vec<String> = if action == ReconActionName::Move {
        ["marker_1", "marker_2"]
            .iter()
            .filter_map(|n| text(n))
            .collect()
    } else {
        Vec::new()
    };
    let marker = if action == ReconActionName::Reveal {
        text("marker")
    } else {
        None
    };
    let mut dice = RawDice::new();
    if action == ReconActionName::Block {
        put_die(
            &mut dice,
            "recon_block",
            force_id,
            die(fields, "recon_block", &mut errors, side),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Built {
        request: ReconActionRequest {
            force_id: force_id.to_owned(),
            action,
            markers,
            marker,
            version,
            client_seed: None,
            dice,
            non_player_dice: RawDice::new(),
        },
        paths: vec![
            ("markers[0]".into(), key(side, "marker_1")),
            ("markers[1]".into(), key(side, "marker_2")),
            ("markers".into(), key(side, "marker_1")),
            ("marker".into(), key(side, "marker")),
            ("dice.recon_block".into(), key(side, "recon_block")),
        ],
    })
}

fn assault(
    fields: &Fields,
    side: usize,
    force_id: &str,
    version: Option<i64>,
) -> Result<Built<AssaultTargetRequest>, Vec<FieldError>> {
    let objective = fields.get("objective_id").map_or("", |v| v.trim());
    if objective.is_empty() || objective.len() > 16 {
        return Err(vec![FieldError::new(
            key(side, "objective_id"),
            "choose one of your far objectives",
        )]);
    }
    Ok(Built {
        request: AssaultTargetRequest {
            force_id: force_id.to_owned(),
            objective_id: objective.to_owned(),
            version,
            client_seed: None,
        },
        paths: vec![("objective_id".into(), key(side, "objective_id"))],
    })
}

/// The use case's problems as the form's: each beside the field its path names.
fn map_errors(errors: Vec<FieldError>, paths: &[(String, String)], side: usize) -> Vec<FieldError> {
    errors
        .into_iter()
        .map(|e| {
            let field = paths
                .iter()
                .find(|(prefix, _)| {
                    e.field == *prefix
                        || e.field.starts_with(&format!("{prefix}."))
                        || e.field.starts_with(&format!("{prefix}["))
                })
                .map_or_else(|| key(side, "form"), |(_, k)| k.clone());
            FieldError::new(field, e.message)
        })
        .collect()
}

/// Handles one step's form: check, build, run, answer.
async fn step(
    req: HttpRequest,
    state: web::Data<AppState>,
    battle_id: String,
    form: Vec<(String, String)>,
    kind: FormKind,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_iter().collect();
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        fields.get(CSRF_FIELD).map(String::as_str),
    )
    .map_err(|_| PageError::Refused)?;
    // Which side: the form names its force; the scenario read says whether this person acts
    // for it (the use case checks again).
    let seen = read_scenario(&state, caller(&user), battle_id.clone(), None).await?;
    let force_id = fields.get("force_id").cloned().unwrap_or_default();
    let Some(side) = seen
        .scenario
        .sides
        .iter()
        .position(|s| s.force_id == force_id)
    else {
        return Err(ApiError::validation("force_id", "not a side of this battle").into());
    };
    let version = fields
        .get("version")
        .and_then(|v| v.trim().parse::<i64>().ok());
    let attempt = |errors: Vec<FieldError>, stale: Option<String>| Attempt {
        kind,
        side,
        fields: fields.clone(),
        errors: Errors(errors),
        stale,
    };
    if fields.get("show").map(String::as_str) == Some("odds") {
        // "Show odds" without scripts: the same page with the picks kept and their odds.
        return page(
            &state,
            &user,
            &battle_id,
            Some(&attempt(Vec::new(), None)),
            StatusCode::OK,
        )
        .await;
    }
    let author = AuthUser {
        user_id: user.user_id.clone(),
    };
    // No idempotency key: a page form answers with a redirect, and a second post of the same
    // step meets the version check or the machine's own state.
    let write = || Write::new(&user.user_id, format!("page {battle_id}"), None, b"");
    // The form's own problems are keyed by field already; the use case's are mapped.
    let result: Result<(), ApiError> = match kind {
        FormKind::Orders => match orders(&fields, &force_id, side, version) {
            Ok(b) => submit_orders(&state, &author, battle_id.clone(), b.request, write())
                .await
                .map(|_| ())
                .map_err(|e| remap(e, &b.paths, side)),
            Err(e) => Err(ApiError::Validation(e)),
        },
        FormKind::Bonuses => match bonuses(&fields, side, &force_id, version) {
            Ok(b) => submit_mission_bonuses(&state, &author, battle_id.clone(), b.request, write())
                .await
                .map(|_| ())
                .map_err(|e| remap(e, &b.paths, side)),
            Err(e) => Err(ApiError::Validation(e)),
        },
        FormKind::Choice => match choice(&fields, side, &force_id, version) {
            Ok(b) => submit_mission_choice(&state, &author, battle_id.clone(), b.request, write())
                .await
                .map(|_| ())
                .map_err(|e| remap(e, &b.paths, side)),
            Err(e) => Err(ApiError::Validation(e)),
        },
        FormKind::Recon => match recon(&fields, side, &force_id, version) {
            Ok(b) => submit_recon_action(&state, &author, battle_id.clone(), b.request, write())
                .await
                .map(|_| ())
                .map_err(|e| remap(e, &b.paths, side)),
            Err(e) => Err(ApiError::Validation(e)),
        },
        FormKind::Assault => match assault(&fields, side, &force_id, version) {
            Ok(b) => declare_assault_target(&state, &author, battle_id.clone(), b.request, write())
                .await
                .map(|_| ())
                .map_err(|e| remap(e, &b.paths, side)),
            Err(e) => Err(ApiError::Validation(e)),
        },
    };
    match result {
        Ok(()) => Ok(see_other(&format!("/battles/{battle_id}"))),
        Err(ApiError::Validation(errors)) => {
            let attempt = attempt(errors, None);
            page(
                &state,
                &user,
                &battle_id,
                Some(&attempt),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        // Changed meanwhile (a stale version, a step that closed): the page as it is now,
        // saying so, with the input kept where the form still applies.
        Err(ApiError::Conflict(message)) => {
            let attempt = attempt(Vec::new(), Some(message));
            page(
                &state,
                &user,
                &battle_id,
                Some(&attempt),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(other) => Err(other.into()),
    }
}

/// A validation error with its paths mapped to the form's keys; other errors as they are.
fn remap(error: ApiError, paths: &[(String, String)], side: usize) -> ApiError {
    match error {
        ApiError::Validation(errors) => ApiError::Validation(map_errors(errors, paths, side)),
        other => other,
    }
}

/// `POST /battles/{id}/orders`.
#[post("/battles/{id}/orders")]
pub async fn post_orders(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    step(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        FormKind::Orders,
    )
    .await
}

/// `POST /battles/{id}/mission-bonuses`.
#[post("/battles/{id}/mission-bonuses")]
pub async fn post_bonuses(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    step(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        FormKind::Bonuses,
    )
    .await
}

/// `POST /battles/{id}/mission-choice`.
#[post("/battles/{id}/mission-choice")]
pub async fn post_choice(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    step(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        FormKind::Choice,
    )
    .await
}

/// `POST /battles/{id}/recon`.
#[post("/battles/{id}/recon")]
pub async fn post_recon(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    step(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        FormKind::Recon,
    )
    .await
}

/// `POST /battles/{id}/assault-target`.
#[post("/battles/{id}/assault-target")]
pub async fn post_assault(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    step(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        FormKind::Assault,
    )
    .await
}

/// `POST /battles/{id}/sheet`: the side's share link (made once, then the same), opened.
#[post("/battles/{id}/sheet")]
pub async fn post_sheet(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user: SessionUser = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        fields.get(CSRF_FIELD).map(String::as_str),
    )
    .map_err(|_| PageError::Refused)?;
    let force_id = fields.get("force_id").cloned().unwrap_or_default();
    let link = sharing::share_battle_sheet(&state, &caller(&user), &path, &force_id).await?;
    Ok(see_other(&link.url))
}

/// `GET /odds?stance=…&attitude=…&first_bonus=…&second_bonus=…`: the odds chart alone, for
/// the selects to swap in (a pure function of the picks: no battle is read).
#[get("/odds")]
pub async fn odds_fragment(
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let get = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let stance = get("stance").and_then(|s| Stance::parse(s).ok());
    let attitude = get("attitude").and_then(|s| Attitude::parse(s).ok());
    let bonuses: Vec<Mission> = ["first_bonus", "second_bonus"]
        .iter()
        .filter_map(|n| get(n).and_then(|m| Mission::parse(m).ok()))
        .collect();
    let markup = match stance.zip(attitude) {
        Some((stance, attitude)) => {
            let query = OddsQuery {
                stance,
                attitude,
                bonuses: MissionBonuses::from_slice(&bonuses).ok().flatten(),
            };
            let charts = charts(vec![(0, query)]).await?;
            html! { @if let Some(odds) = charts.get(&0) { (odds_chart(odds)) } }
        }
        None => html! { p.muted { "Pick a stance and an attitude to see each mission's chance." } },
    };
    Ok(respond(StatusCode::OK, markup))
}
