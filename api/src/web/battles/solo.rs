//! The battle page's Solo panel (docs/rules.md `solo`): for a battle against a non-player
//! force, its groups (set up with `Save groups`), `Start turn N` with optional dice, the
//! casualties per group, and per group what it does this turn in the rules' words with a link
//! to the rule. The forms post here and go through the same use cases as the JSON API
//! ([`crate::app::battles::solo`]); then back to the page (303), or the page again with the
//! input kept and the problems beside the fields (422), or saying what changed (409).

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::names::Named;
use fad_domain::solo::{Approach, GroupSpec, TestResult, approach_row};
use maud::{Markup, html};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battles::solo::{
    self as app, CasualtiesRequest, GroupsRequest, SoloResponse, Target, TurnRequest,
};
use crate::app::idempotency::Write;
use crate::auth::{AuthUser, Caller};
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::layout::{Errors, csrf_input, field_id};
use crate::web::{PageError, require_user, see_other};

/// The submitted fields by name.
type Fields = BTreeMap<String, String>;

/// Which solo form a submission came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoloForm {
    /// The groups.
    Groups,
    /// A turn.
    Turn,
    /// One group's casualties.
    Casualties,
}

/// A solo submission shown again with its input and problems.
#[derive(Debug, Clone)]
pub struct SoloAttempt {
    /// The form.
    pub form: SoloForm,
    /// The submitted fields.
    pub fields: Fields,
    /// Problems by form key.
    pub errors: Errors,
    /// Refused because solo play changed or closed meanwhile.
    pub stale: Option<String>,
}

/// The Solo panel of battle `battle_id` for `user`, or `None` when the battle has no
/// non-player side.
pub async fn battle_panel(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
    attempt: Option<&SoloAttempt>,
) -> Result<Option<Markup>, PageError> {
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    let target = Target::Battle(battle_id.to_owned());
    match app::read_solo(state, caller, target).await {
        Ok(solo) => Ok(Some(battle_markup(state, user, battle_id, &solo, attempt))),
        Err(ApiError::Conflict(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The Solo panel of battle `battle_id` from its solo play `solo`, read with the page.
pub fn battle_markup(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
    solo: &SoloResponse,
    attempt: Option<&SoloAttempt>,
) -> Markup {
    let csrf = csrf_input(state, &FormKey::session(user));
    panel(&format!("/battles/{battle_id}/solo"), solo, &csrf, attempt)
}

/// The Solo panel of one-shot scenario `scenario_id` for its creator `user`, or `None` when it
/// has no non-player side (or `user` did not create it).
pub async fn scenario_panel(
    state: &AppState,
    user: &SessionUser,
    scenario_id: &str,
    attempt: Option<&SoloAttempt>,
) -> Result<Option<Markup>, PageError> {
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    let target = Target::Scenario(scenario_id.to_owned());
    match app::read_solo(state, caller, target).await {
        Ok(solo) => {
            let csrf = csrf_input(state, &FormKey::session(user));
            Ok(Some(panel(
                &format!("/scenarios/{scenario_id}/solo"),
                &solo,
                &csrf,
                attempt,
            )))
        }
        Err(ApiError::Conflict(_) | ApiError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn discipline_text(d: u8) -> String {
    format!("{d}+")
}

fn result_text(result: TestResult) -> &'static str {
    match result {
        TestResult::CarryOut => "Carries out its orders",
        TestResult::Hold => "Holds and improves its position",
        TestResult::FallBack => "Falls back",
        TestResult::FallingBack => "Still falling back",
    }
}

fn value<'a>(attempt: Option<&'a SoloAttempt>, form: SoloForm, name: &str) -> Option<&'a str> {
    attempt
        .filter(|a| a.form == form)
        .and_then(|a| a.fields.get(name))
        .map(String::as_str)
}

fn error<'a>(attempt: Option<&'a SoloAttempt>, form: SoloForm, key: &str) -> Option<&'a str> {
    attempt
        .filter(|a| a.form == form)
        .and_then(|a| a.errors.get(key))
}

fn text_field(label: &str, name: &str, value: &str, error: Option<&str>) -> Markup {
    let id = field_id(name);
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(e) = error { span.error id={ (id) "-error" } { (e) } }
            input type="text" id=(id) name=(name) value=(value) maxlength="200"
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))];
        }
    }
}

fn select_field(
    label: &str,
    name: &str,
    options: &[(String, String)],
    selected: &str,
    error: Option<&str>,
) -> Markup {
    let id = field_id(name);
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(e) = error { span.error id={ (id) "-error" } { (e) } }
            select id=(id) name=(name)
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))] {
                @for (v, text) in options {
                    option value=(v) selected[v == selected] { (text) }
                }
            }
        }
    }
}

/// The panel itself; `base` is where its forms post (`…/solo/groups`, `/turn`, `/casualties`).
pub fn panel(
    base: &str,
    solo: &SoloResponse,
    csrf: &Markup,
    attempt: Option<&SoloAttempt>,
) -> Markup {
    let summary: Vec<&FieldError> = attempt
        .map(|a| a.errors.0.iter().collect())
        .unwrap_or_default();
    let last = solo.turns.last();
    html! {
        section.panel id="solo" aria-labelledby="solo-title" {
            h2 id="solo-title" { "Solo" }
            p.muted {
                "The non-player force, " strong { (solo.force_name) } ", runs itself by the rules for "
                a href="/rules#solo" { "uncontrolled forces" } ": each group tests its Discipline at the start of every turn."
            }
            @if let Some(a) = attempt {
                @if let Some(stale) = &a.stale {
                    div.errors id="solo-summary" role="alert" tabindex="-1" autofocus {
                        h3 { "Solo play changed meanwhile" }
                        p { (stale) }
                        p { "Nothing was saved." }
                    }
                } @else if !summary.is_empty() {
                    div.errors id="solo-summary" role="alert" tabindex="-1" autofocus {
                        h3 { "There is a problem" }
                        ul { @for e in &summary { li { a href={ "#" (field_id(&e.field)) } { (e.message) } } } }
                    }
                }
            }
            @if let Some(why) = &solo.closed_because { p.muted { (why) } }
            @if let Some(turn) = last {
                h3 { "Turn " (turn.turn) ": what each group does" }
                ol.entries {
                    @for g in &turn.groups {
                        li.panel {
                            p { strong { (g.name) } " · " (result_text(g.result))
                                @if let Some(p) = g.passes { " (" (p) " of 3 dice passed at " (discipline_text(g.discipline)) ": " (values_text(&g.values)) ")" } }
                            p { (g.orders) " " a href=(g.rules_url) { "Rule for " (g.name) } }
                        }
                    }
                }
            }
            @if !solo.groups.is_empty() {
                h3 { "Groups" }
                ol.entries {
                    @for g in &solo.groups {
                        li.panel {
                            p { strong { (g.name) } " · " (approach_row(g.approach).label)
                                " · Discipline " (discipline_text(g.discipline))
                                @if g.aborted { " (worse by one: half the group are casualties)" }
                                @if g.falling_back { " · " strong { "falling back" } } }
                            p.muted { (g.unit_names.join(", ")) " · casualties " (g.casualties) " of " (g.figures) " figures"
                                @if let Some(o) = &g.objective { " · objective: " (o) }
                                @if let Some(r) = &g.rallying_point { " · rallying point: " (r) } }
                            @if solo.can_act && solo.open {
                                (casualties_form(base, csrf, &g.name, attempt))
                            }
                        }
                    }
                }
            }
            @if solo.can_act && solo.open && !solo.groups.is_empty() {
                (turn_form(base, solo, csrf, attempt))
            }
            @if solo.can_act && solo.open && solo.turns.is_empty() {
                (groups_form(base, solo, csrf, attempt))
            }
            @if solo.turns.len() > 1 {
                details.log {
                    summary { "Earlier turns" }
                    @for turn in solo.turns.iter().rev().skip(1) {
                        h4 { "Turn " (turn.turn) }
                        ul { @for g in &turn.groups {
                            li { (g.name) ": " (result_text(g.result))
                                @if let Some(p) = g.passes { " (" (p) " passed: " (values_text(&g.values)) ")" } }
                        } }
                    }
                }
            }
        }
    }
}

fn values_text(values: &[u8]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn casualties_form(
    base: &str,
    csrf: &Markup,
    group: &str,
    attempt: Option<&SoloAttempt>,
) -> Markup {
    let mine = attempt.filter(|a| {
        a.form == SoloForm::Casualties && a.fields.get("group").map(String::as_str) == Some(group)
    });
    let name = format!("lost-{group}");
    let id = field_id(&name);
    let err = mine.and_then(|a| a.errors.get(&name));
    let kept = mine
        .and_then(|a| a.fields.get("lost"))
        .map_or("", String::as_str);
    html! {
        form method="post" action={ (base) "/casualties" } {
            (csrf)
            input type="hidden" name="group" value=(group);
            div.field.die {
                label for=(id) { "Casualties for " (group) }
                @if let Some(e) = err { span.error id={ (id) "-error" } { (e) } }
                input type="number" id=(id) name="lost" min="1" max="500" inputmode="numeric" value=(kept)
                    aria-invalid=[err.map(|_| "true")]
                    aria-describedby=[err.map(|_| format!("{id}-error"))];
            }
            div.actions { button.secondary type="submit" { "Record casualties" } }
        }
    }
}

fn turn_form(
    base: &str,
    solo: &SoloResponse,
    csrf: &Markup,
    attempt: Option<&SoloAttempt>,
) -> Markup {
    let falling: Vec<_> = solo.groups.iter().filter(|g| g.falling_back).collect();
    let dice_error = attempt
        .filter(|a| a.form == SoloForm::Turn)
        .is_some_and(|a| a.errors.0.iter().any(|e| e.field.starts_with("die-")));
    html! {
        form method="post" action={ (base) "/turn" } {
            (csrf)
            input type="hidden" name="version" value=(solo.version);
            @if !falling.is_empty() {
                fieldset {
                    legend { "Groups falling back" }
                    p.hint { "Tick a group that has reached the nearest defensible position: it tests again this turn." }
                    @if let Some(e) = error(attempt, SoloForm::Turn, "arrived") { span.error { (e) } }
                    @for g in &falling {
                        @let control = field_id(&format!("arrived-{}", g.name));
                        div.check {
                            input type="checkbox" id=(control) name={ "arrived-" (g.name) } value="on"
                                checked[value(attempt, SoloForm::Turn, &format!("arrived-{}", g.name)).is_some()];
                            label for=(control) { "Arrived: " (g.name) }
                        }
                    }
                }
            }
            details.dice open[dice_error] {
                summary { "Dice rolled at the table (optional)" }
                p.hint { "Three dice per group for its Discipline Test; leave them empty and the server rolls." }
                @for g in solo.groups.iter().filter(|g| !g.falling_back) {
                    fieldset {
                        legend { "Discipline Test for " (g.name) " (" (discipline_text(g.discipline)) ")" }
                        @for n in 1..=3 {
                            @let name = format!("die-{}-{n}", g.name);
                            @let id = field_id(&name);
                            @let err = error(attempt, SoloForm::Turn, &name);
                            div.field.die {
                                label for=(id) { "Die " (n) " for " (g.name) }
                                @if let Some(e) = err { span.error id={ (id) "-error" } { (e) } }
                                input type="number" id=(id) name=(name) min="1" max="6" inputmode="numeric"
                                    value=(value(attempt, SoloForm::Turn, &name).unwrap_or(""))
                                    aria-invalid=[err.map(|_| "true")]
                                    aria-describedby=[err.map(|_| format!("{id}-error"))];
                            }
                        }
                    }
                }
            }
            div.actions { button type="submit" { "Start turn " (solo.next_turn) } }
        }
    }
}

fn groups_form(
    base: &str,
    solo: &SoloResponse,
    csrf: &Markup,
    attempt: Option<&SoloAttempt>,
) -> Markup {
    let platoons = solo
        .units
        .iter()
        .map(|u| u.platoon.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let rows = solo.groups.len().max(platoons).max(1) + 1;
    let approaches: Vec<(String, String)> = Approach::ALL
        .iter()
        .map(|a| (a.name().to_owned(), approach_row(*a).label.to_owned()))
        .collect();
    let disciplines: Vec<(String, String)> =
        std::iter::once((String::new(), "From the units' Quality".to_owned()))
            .chain((2..=5).map(|d| (d.to_string(), discipline_text(d))))
            .collect();
    let kept = |name: &str, saved: String| -> String {
        match attempt.filter(|a| a.form == SoloForm::Groups) {
            Some(a) => a.fields.get(name).cloned().unwrap_or_default(),
            None => saved,
        }
    };
    html! {
        form method="post" action={ (base) "/groups" } {
            (csrf)
            input type="hidden" name="version" value=(solo.version);
            h3 { "Set up the groups" }
            p.hint { "A group is at most a platoon; each unit in one group. Leave a row empty to skip it." }
            @if let Some(e) = error(attempt, SoloForm::Groups, "groups") { p.error { (e) } }
            @for i in 0..rows {
                @let saved = solo.groups.get(i);
                fieldset {
                    legend { "Group " (i + 1) }
                    (text_field("Group name", &format!("g{i}-name"), &kept(&format!("g{i}-name"), saved.map(|g| g.name.clone()).unwrap_or_default()), error(attempt, SoloForm::Groups, &format!("g{i}-name"))))
                    (select_field("Approach", &format!("g{i}-approach"), &approaches, &kept(&format!("g{i}-approach"), saved.map_or_else(|| "engage".to_owned(), |g| g.approach.name().to_owned())), error(attempt, SoloForm::Groups, &format!("g{i}-approach"))))
                    (select_field("Discipline", &format!("g{i}-discipline"), &disciplines, &kept(&format!("g{i}-discipline"), saved.map(|g| g.discipline.to_string()).unwrap_or_default()), error(attempt, SoloForm::Groups, &format!("g{i}-discipline"))))
                    (text_field("Objective", &format!("g{i}-objective"), &kept(&format!("g{i}-objective"), saved.and_then(|g| g.objective.clone()).unwrap_or_default()), error(attempt, SoloForm::Groups, &format!("g{i}-objective"))))
                    (text_field("Rallying point", &format!("g{i}-rally"), &kept(&format!("g{i}-rally"), saved.and_then(|g| g.rallying_point.clone()).unwrap_or_default()), error(attempt, SoloForm::Groups, &format!("g{i}-rally"))))
                    fieldset {
                        legend { "Units" }
                        @if let Some(e) = error(attempt, SoloForm::Groups, &format!("g{i}-units")) { span.error id=(field_id(&format!("g{i}-units"))) { (e) } }
                        @for (j, u) in solo.units.iter().enumerate() {
                            @let name = format!("g{i}-unit-{j}");
                            @let control = field_id(&name);
                            @let checked = match attempt.filter(|a| a.form == SoloForm::Groups) {
                                Some(a) => a.fields.contains_key(&name),
                                None => saved.is_some_and(|g| g.units.contains(&u.id)),
                            };
                            div.check {
                                input type="checkbox" id=(control) name=(name) value="on" checked[checked];
                                label for=(control) { (u.name) " (" (u.platoon) ", " (u.strength) " figures)" }
                            }
                        }
                    }
                }
            }
            div.actions { button type="submit" { "Save groups" } }
        }
    }
}

/// The groups form as the use case's request; `rows[k]` is the form row of group `k`.
fn groups_request(
    fields: &Fields,
    solo: &SoloResponse,
) -> (GroupsRequest, Vec<usize>, Vec<FieldError>) {
    let mut groups = Vec::new();
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for i in 0..solo.units.len().max(solo.groups.len()).max(20) + 1 {
        let get = |f: &str| fields.get(&format!("g{i}-{f}")).map_or("", |v| v.trim());
        let units: Vec<String> = solo
            .units
            .iter()
            .enumerate()
            .filter(|(j, _)| fields.contains_key(&format!("g{i}-unit-{j}")))
            .map(|(_, u)| u.id.clone())
            .collect();
        if get("name").is_empty() && units.is_empty() {
            continue;
        }
        let approach = Approach::parse(get("approach")).unwrap_or_else(|_| {
            errors.push(FieldError::new(
                format!("g{i}-approach"),
                "Choose an approach.",
            ));
            Approach::Engage
        });
        let discipline = match get("discipline") {
            "" => None,
            d => match d.parse::<u8>() {
                Ok(v) => Some(v),
                Err(_) => {
                    errors.push(FieldError::new(
                        format!("g{i}-discipline"),
                        "Choose a Discipline from 2+ to 5+.",
                    ));
                    None
                }
            },
        };
        let text = |f: &str| Some(get(f).to_owned()).filter(|t| !t.is_empty());
        groups.push(GroupSpec {
            name: get("name").to_owned(),
            units,
            approach,
            objective: text("objective"),
            rallying_point: text("rally"),
            discipline,
        });
        rows.push(i);
    }
    let version = fields.get("version").and_then(|v| v.trim().parse().ok());
    (GroupsRequest { groups, version }, rows, errors)
}

/// Maps the use case's `groups[k].field` paths to the form's keys.
fn map_group_errors(errors: Vec<FieldError>, rows: &[usize]) -> Vec<FieldError> {
    errors
        .into_iter()
        .map(|e| {
            let Some(rest) = e.field.strip_prefix("groups[") else {
                return e;
            };
            let Some((k, field)) = rest.split_once("].") else {
                return e;
            };
            let Some(i) = k.parse::<usize>().ok().and_then(|k| rows.get(k)) else {
                return e;
            };
            let field = field.split('[').next().unwrap_or(field);
            let key = match field {
                "rallying_point" => "rally",
                other => other,
            };
            FieldError::new(format!("g{i}-{key}"), e.message)
        })
        .collect()
}

/// Handles one solo form for `target`; `back` is the page to return to and `show` renders it
/// again with the attempt.
pub async fn submit<F, Fut>(
    req: &HttpRequest,
    state: &AppState,
    target: Target,
    back: String,
    fields: Fields,
    form: SoloForm,
    show: F,
) -> Result<HttpResponse, PageError>
where
    F: FnOnce(SessionUser, SoloAttempt, StatusCode) -> Fut,
    Fut: std::future::Future<Output = Result<HttpResponse, PageError>>,
{
    let user: SessionUser = require_user(req, state).await?;
    session::check_form(
        req,
        state,
        &FormKey::session(&user),
        fields.get(CSRF_FIELD).map(String::as_str),
    )
    .map_err(|_| PageError::Refused)?;
    let author = AuthUser {
        user_id: user.user_id.clone(),
    };
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    // No idempotency key: a page form answers with a redirect, and a second post meets the
    // version check.
    let write = Write::new(&user.user_id, format!("page solo {back}"), None, b"");
    let result: Result<(), ApiError> = match form {
        SoloForm::Groups => {
            let solo = app::read_solo(state, caller, target.clone()).await?;
            let (request, rows, errors) = groups_request(&fields, &solo);
            if errors.is_empty() {
                app::set_groups(state, &author, target, request, write)
                    .await
                    .map(|_| ())
                    .map_err(|e| match e {
                        ApiError::Validation(list) => {
                            ApiError::Validation(map_group_errors(list, &rows))
                        }
                        other => other,
                    })
            } else {
                Err(ApiError::Validation(errors))
            }
        }
        SoloForm::Turn => {
            let solo = app::read_solo(state, caller, target.clone()).await?;
            let mut dice: BTreeMap<String, Vec<u8>> = BTreeMap::new();
            let mut errors = Vec::new();
            for g in &solo.groups {
                let mut values = Vec::new();
                for n in 1..=3 {
                    let name = format!("die-{}-{n}", g.name);
                    let text = fields.get(&name).map_or("", |v| v.trim());
                    if text.is_empty() {
                        continue;
                    }
                    match text.parse::<u8>() {
                        Ok(v) if (1..=6).contains(&v) => values.push(v),
                        _ => errors.push(FieldError::new(
                            name,
                            "Enter a face of the die, 1 to 6, or leave it empty.",
                        )),
                    }
                }
                if !values.is_empty() && values.len() < 3 {
                    errors.push(FieldError::new(
                        format!("die-{}-1", g.name),
                        format!(
                            "Enter all three dice for {}, or none for the server to roll.",
                            g.name
                        ),
                    ));
                } else if !values.is_empty() {
                    dice.insert(g.name.clone(), values);
                }
            }
            let arrived: Vec<String> = solo
                .groups
                .iter()
                .filter(|g| fields.contains_key(&format!("arrived-{}", g.name)))
                .map(|g| g.name.clone())
                .collect();
            if errors.is_empty() {
                let request = TurnRequest {
                    dice: if dice.is_empty() {
                        BTreeMap::new()
                    } else {
                        BTreeMap::from([("discipline".to_owned(), dice)])
                    },
                    arrived,
                    version: fields.get("version").and_then(|v| v.trim().parse().ok()),
                    client_seed: None,
                };
                app::play_turn(state, &author, target, request, write)
                    .await
                    .map(|_| ())
                    .map_err(|e| match e {
                        ApiError::Validation(list) => ApiError::Validation(
                            list.into_iter()
                                .map(|e| match e.field.strip_prefix("dice.discipline.") {
                                    Some(group) => {
                                        FieldError::new(format!("die-{group}-1"), e.message)
                                    }
                                    None if e.field.starts_with("arrived") => {
                                        FieldError::new("arrived", e.message)
                                    }
                                    None => e,
                                })
                                .collect(),
                        ),
                        other => other,
                    })
            } else {
                Err(ApiError::Validation(errors))
            }
        }
        SoloForm::Casualties => {
            let group = fields.get("group").cloned().unwrap_or_default();
            let key = format!("lost-{group}");
            match fields.get("lost").map_or("", |v| v.trim()).parse::<u32>() {
                Ok(lost) if lost > 0 => app::add_casualties(
                    state,
                    &author,
                    target,
                    group.clone(),
                    CasualtiesRequest { lost },
                    write,
                )
                .await
                .map(|_| ())
                .map_err(|e| match e {
                    ApiError::Validation(list) => ApiError::Validation(
                        list.into_iter()
                            .map(|e| FieldError::new(key.clone(), e.message))
                            .collect(),
                    ),
                    other => other,
                }),
                _ => Err(ApiError::Validation(vec![FieldError::new(
                    key,
                    "Enter the figures the group lost, a whole number from 1.",
                )])),
            }
        }
    };
    let attempt = |errors: Vec<FieldError>, stale: Option<String>| SoloAttempt {
        form,
        fields: fields.clone(),
        errors: Errors(errors),
        stale,
    };
    match result {
        Ok(()) => Ok(see_other(&format!("{back}#solo"))),
        Err(ApiError::Validation(errors)) => {
            show(
                user,
                attempt(errors, None),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(ApiError::Conflict(message)) => {
            show(
                user,
                attempt(Vec::new(), Some(message)),
                StatusCode::CONFLICT,
            )
            .await
        }
        Err(other) => Err(other.into()),
    }
}

async fn battle_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    battle_id: String,
    form: Vec<(String, String)>,
    kind: SoloForm,
) -> Result<HttpResponse, PageError> {
    let fields: Fields = form.into_iter().collect();
    let back = format!("/battles/{battle_id}");
    let st = state.clone();
    submit(
        &req,
        &state,
        Target::Battle(battle_id.clone()),
        back,
        fields,
        kind,
        move |user, attempt, status| async move {
            let mut view = crate::web::battles::page::load(&st, &user, &battle_id).await?;
            view.solo_panel = battle_panel(&st, &user, &battle_id, Some(&attempt)).await?;
            let charts = crate::web::battles::page::charts(
                crate::web::battles::page::chart_queries(&view, None),
            )
            .await?;
            Ok(crate::web::respond(
                status,
                crate::web::battles::page::render(&st, &user, &view, None, &charts),
            ))
        },
    )
    .await
}

/// A one-shot scenario's solo form: back to its sheet, or its Solo panel again on a page of its
/// own with the input kept and the problems beside the fields.
async fn scenario_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    scenario_id: String,
    form: Vec<(String, String)>,
    kind: SoloForm,
) -> Result<HttpResponse, PageError> {
    let fields: Fields = form.into_iter().collect();
    let back = format!("/scenarios/{scenario_id}");
    let st = state.clone();
    let sheet = back.clone();
    submit(
        &req,
        &state,
        Target::Scenario(scenario_id.clone()),
        back,
        fields,
        kind,
        move |user, attempt, status| async move {
            let panel = scenario_panel(&st, &user, &scenario_id, Some(&attempt)).await?;
            let body = html! {
                h1 { "Solo play" }
                p { a href=(sheet) { "Back to the scenario sheet" } }
                @if let Some(panel) = panel { (panel) }
            };
            Ok(crate::web::respond(
                status,
                crate::web::layout::page(&st, Some(&user), "Solo play", body),
            ))
        },
    )
    .await
}

/// `POST /scenarios/{id}/solo/groups`.
#[post("/scenarios/{id}/solo/groups")]
pub async fn post_scenario_groups(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    scenario_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Groups,
    )
    .await
}

/// `POST /scenarios/{id}/solo/turn`.
#[post("/scenarios/{id}/solo/turn")]
pub async fn post_scenario_turn(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    scenario_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Turn,
    )
    .await
}

/// `POST /scenarios/{id}/solo/casualties`.
#[post("/scenarios/{id}/solo/casualties")]
pub async fn post_scenario_casualties(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    scenario_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Casualties,
    )
    .await
}

/// `POST /battles/{id}/solo/groups`.
#[post("/battles/{id}/solo/groups")]
pub async fn post_groups(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    battle_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Groups,
    )
    .await
}

/// `POST /battles/{id}/solo/turn`.
#[post("/battles/{id}/solo/turn")]
pub async fn post_turn(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    battle_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Turn,
    )
    .await
}

/// `POST /battles/{id}/solo/casualties`.
#[post("/battles/{id}/solo/casualties")]
pub async fn post_casualties(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    battle_form(
        req,
        state,
        path.into_inner(),
        form.into_inner(),
        SoloForm::Casualties,
    )
    .await
}
