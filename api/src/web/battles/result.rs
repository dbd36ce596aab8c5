//! A battle's result, its confirmation and the organiser's corrections: the panel the battle page
//! includes ([`panel`]), and `/battles/{id}/result`, which hosts the result form (and, once a
//! result is recorded, the result in full with the same panel) so it works on its own too.
//! Every action posts here and calls the same use case as the JSON API:
//! [`app::record_result`], [`app::confirm_result`], [`corrections::void_battle`] and
//! [`corrections::reopen_battle`].

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::lifecycle::{AftermathStage, BattleState};
use fad_domain::roster::UnitKind;
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battle_pages::{self, BattleRole, ResultView};
use crate::app::battles::BattleResponse;
use crate::app::battles::corrections::{self, CorrectionRequest, MAX_REASON_CHARS};
use crate::app::battles::result::{self as app, BattleOutcome, LossRequest, ResultRequest};
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::layout::{self, Errors, csrf_input, error_summary, field_id, textarea_field};
use crate::web::nested_form::{UnreadableForm, form_name, read_pairs};
use crate::web::{PageError, require_user, respond, see_other};

/// The submitted fields by name.
pub(in crate::web) type Fields = BTreeMap<String, String>;

/// The signed-in person as the use cases name a user caller.
pub(in crate::web) fn auth_user(user: &SessionUser) -> AuthUser {
    AuthUser {
        user_id: user.user_id.clone(),
    }
}

/// A page write's idempotency context: a form carries no `Idempotency-Key`, so each submission
/// runs once and nothing is replayed.
pub(in crate::web) fn page_write(user: &SessionUser, scope: String) -> Write {
    Write::new(&user.user_id, scope, None, b"")
}

/// Checks a form's CSRF token (403, nothing applied, when it fails).
pub(in crate::web) fn check_csrf(
    req: &HttpRequest,
    state: &AppState,
    user: &SessionUser,
    fields: &Fields,
) -> Result<(), PageError> {
    session::check_form(
        req,
        state,
        &FormKey::session(user),
        fields.get(CSRF_FIELD).map(String::as_str),
    )
    .map_err(|_| PageError::Refused)
}

/// Where to go after an action: the `back` field when it is a page of this battle, else the
/// battle's result page.
fn back_to(battle_id: &str, fields: &Fields) -> String {
    let own = format!("/battles/{battle_id}");
    match fields.get("back") {
        Some(back)
            if (*back == own || back.starts_with(&format!("{own}/")))
                && crate::web::is_same_site_path(back) =>
        {
            back.clone()
        }
        _ => format!("{own}/result"),
    }
}

/// The name a side shows: its force's name, or the non-player force's.
fn side_name(battle: &BattleResponse, role: &BattleRole, index: usize) -> String {
    match battle.sides.get(index) {
        Some(side) => match (&side.force_id, &side.non_player) {
            (Some(id), _) => role.force_name(id).to_owned(),
            (None, Some(np)) => np
                .name
                .clone()
                .unwrap_or_else(|| "the non-player force".to_owned()),
            (None, None) => "the non-player force".to_owned(),
        },
        None => "nobody".to_owned(),
    }
}

/// "Red Force against Blue Force".
pub(in crate::web) fn matchup(battle: &BattleResponse, role: &BattleRole) -> String {
    format!(
        "{} against {}",
        side_name(battle, role, 0),
        side_name(battle, role, 1)
    )
}

/// The non-player side's name, if the battle has one.
fn non_player_name(battle: &BattleResponse, role: &BattleRole) -> Option<String> {
    battle
        .sides
        .iter()
        .position(|s| s.force_id.is_none())
        .map(|i| side_name(battle, role, i))
}

/// The outcome in words: "Red Force won", "A draw".
fn outcome_words(battle: &BattleResponse, role: &BattleRole) -> Option<String> {
    let result = battle.result.as_ref()?;
    Some(match (result.outcome.as_str(), &result.winner_force_id) {
        ("draw", _) => "A draw".to_owned(),
        (_, Some(id)) => format!("{} won", role.force_name(id)),
        (_, None) => format!(
            "{} won",
            non_player_name(battle, role).unwrap_or_else(|| "The non-player force".to_owned())
        ),
    })
}

/// A post-battle stage in words.
pub(in crate::web) fn stage_words(stage: AftermathStage) -> &'static str {
    match stage {
        AftermathStage::Open => "not started",
        AftermathStage::Rolling => "rolling",
        AftermathStage::Rolled => "rolled; reinforcements and purchases open",
        AftermathStage::Finalized => "finalized",
    }
}

fn state_words(state: BattleState) -> &'static str {
    match state {
        BattleState::Scenario => "No result is recorded yet.",
        BattleState::Pending => "The result waits for confirmation.",
        BattleState::Aftermath => "The result stands; each side runs its post-battle sequence.",
        BattleState::Complete => "Complete: every post-battle sequence is finalized.",
        BattleState::Void => "Void: the organiser voided this battle; it counts for nothing.",
    }
}

/// The panel the battle page includes: the result (or a link to record it), the confirmation,
/// each force's post-battle sequence with its stage, and the organiser's corrections.
/// `csrf` is the page's hidden CSRF field.
pub fn panel(battle: &BattleResponse, role: &BattleRole, csrf: &Markup) -> Markup {
    panel_markup(
        battle,
        role,
        csrf,
        &format!("/battles/{}", battle.id),
        &Fields::new(),
        &Errors::default(),
    )
}

/// The panel's markup; `back` is where its forms return to, `fields` and `errors` those of a
/// failed correction.
fn panel_markup(
    battle: &BattleResponse,
    role: &BattleRole,
    csrf: &Markup,
    back: &str,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let id = &battle.id;
    let finalized = battle
        .aftermath
        .iter()
        .any(|a| a.stage == AftermathStage::Finalized);
    let may_reopen = role.is_organiser
        && matches!(battle.state, BattleState::Pending | BattleState::Aftermath)
        && !finalized;
    let may_void = role.is_organiser && battle.state != BattleState::Void;
    html! {
        section.panel aria-labelledby="result-panel-title" {
            h2 id="result-panel-title" { "Result" }
            p { (state_words(battle.state)) }
            @if let Some(words) = outcome_words(battle, role) {
                p { strong { (words) } "." }
            }
            @match battle.state {
                BattleState::Scenario => {
                    @if role.may_record() && !back.ends_with("/result") {
                        p { a.button href={ "/battles/" (id) "/result" } { "Record the result" } }
                    }
                }
                BattleState::Void => {}
                _ => {
                    @if !back.ends_with("/result") {
                        p { a href={ "/battles/" (id) "/result" } { "The result in full" } }
                    }
                }
            }
            @if battle.state == BattleState::Pending {
                @if battle.result_by.as_deref() == Some(role.user_id.as_str()) {
                    p.muted { "You recorded this result." }
                }
                @if role.may_confirm(battle) {
                    form method="post" action={ "/battles/" (id) "/confirm" } {
                        (csrf)
                        input type="hidden" name="back" value=(back);
                        div.actions { button type="submit" { "Confirm result" } }
                    }
                } @else {
                    p.muted { "The other side's owner or the organiser confirms it." }
                }
            }
            @if !battle.aftermath.is_empty() && battle.state != BattleState::Pending {
                h3 { "After the battle" }
                ul {
                    @for sequence in &battle.aftermath {
                        li {
                            a href={ "/battles/" (id) "/aftermath/" (sequence.force_id) } {
                                "Post-battle sequence of " (role.force_name(&sequence.force_id))
                            }
                            " · " (stage_words(sequence.stage))
                        }
                    }
                }
            }
            @if !battle.corrections.is_empty() {
                h3 { "Corrections" }
                ul {
                    @for correction in &battle.corrections {
                        li {
                            (if correction.action == "void" { "Voided" } else { "Reopened" })
                            " on " (correction.at.format("%Y-%m-%d %H:%M UTC"))
                            @if let Some(reason) = &correction.reason { ": " (reason) }
                        }
                    }
                }
            }
            @if may_reopen {
                form.stack method="post" action={ "/battles/" (id) "/reopen" } novalidate {
                    (csrf)
                    input type="hidden" name="back" value=(back);
                    (textarea_field("reopen_reason", "Reason for reopening", fields.get("reopen_reason").map_or("", String::as_str), errors,
                        Some("Takes the result back (and any post-battle rolls) so a different one can be recorded."), MAX_REASON_CHARS))
                    div.actions { button.secondary type="submit" { "Reopen result" } }
                }
            }
            @if may_void {
                form.stack method="post" action={ "/battles/" (id) "/void" } novalidate {
                    (csrf)
                    input type="hidden" name="back" value=(back);
                    (textarea_field("void_reason", "Reason for voiding", fields.get("void_reason").map_or("", String::as_str), errors,
                        Some("The battle counts for nothing; what it changed on the rosters and ledgers is undone."), MAX_REASON_CHARS))
                    div.actions { button.secondary type="submit" { "Void battle" } }
                }
            }
        }
    }
}

/// The field names of unit `i`'s inputs, nested for serde_qs: `losses[2][figures_lost]`.
fn loss_key(i: usize, field: &str) -> String {
    format!("losses[{i}][{field}]")
}

/// The result form's losses as serde_qs reads them from the bracketed names, by the unit's
/// index in the form (a unit not listed lost nothing).
#[derive(Debug, Default, Deserialize)]
struct LossesForm {
    #[serde(default)]
    losses: BTreeMap<usize, LossForm>,
}

/// One unit's line of the result form; a checkbox is present only when ticked.
#[derive(Debug, Default, Deserialize)]
struct LossForm {
    unit_id: Option<String>,
    #[serde(default)]
    figures_lost: String,
    eliminated: Option<String>,
    destroyed_on_recon: Option<String>,
    vehicle_damage: Option<String>,
}

/// The result form's units in order: (force id, unit), both sides.
fn form_units(view: &ResultView) -> Vec<(&str, &fad_domain::roster::Unit)> {
    view.sides
        .iter()
        .flat_map(|side| side.roster.units().map(|u| (side.force_id.as_str(), u)))
        .collect()
}

fn labels_for(view: &ResultView) -> Vec<(String, String)> {
    let mut labels = vec![
        ("outcome".to_owned(), "Outcome".to_owned()),
        ("winner_force_id".to_owned(), "Winner".to_owned()),
        (
            "reopen_reason".to_owned(),
            "Reason for reopening".to_owned(),
        ),
        ("void_reason".to_owned(), "Reason for voiding".to_owned()),
    ];
    for (i, (_, unit)) in form_units(view).iter().enumerate() {
        for (field, label) in [
            ("figures_lost", "Figures lost"),
            ("eliminated", "Eliminated"),
            ("vehicle_damage", "Vehicle damage"),
            ("destroyed_on_recon", "Destroyed on recon"),
            ("unit_id", "Unit"),
        ] {
            labels.push((loss_key(i, field), format!("{label}, {}", unit.name)));
        }
    }
    labels
}

/// A field's error line and the attributes that tie it to its control.
fn error_line(errors: &Errors, name: &str) -> Markup {
    html! {
        @if let Some(error) = errors.get(name) {
            span.error id={ (field_id(name)) "-error" } { (error) }
        }
    }
}

fn result_form(
    state: &AppState,
    user: &SessionUser,
    view: &ResultView,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let battle = &view.battle;
    let role = &view.role;
    let get = |k: &str| fields.get(k).map_or("", String::as_str);
    let outcome = get("outcome");
    let winner = get("winner_force_id");
    let np = non_player_name(battle, role);
    let units = form_units(view);
    html! {
        form.stack method="post" action={ "/battles/" (battle.id) "/result" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="back" value={ "/battles/" (battle.id) "/result" };
            div.field {
                label for=(field_id("outcome")) { "Outcome" }
                (error_line(errors, "outcome"))
                select id=(field_id("outcome")) name="outcome"
                    aria-invalid=[errors.get("outcome").map(|_| "true")]
                    aria-describedby=[errors.get("outcome").map(|_| format!("{}-error", field_id("outcome")))] {
                    option value="win" selected[outcome != "draw"] { "win" }
                    option value="draw" selected[outcome == "draw"] { "draw" }
                }
            }
            div.field {
                label for=(field_id("winner_force_id")) { "Winner" }
                span.hint id={ (field_id("winner_force_id")) "-hint" } { "Left out for a draw." }
                (error_line(errors, "winner_force_id"))
                select id=(field_id("winner_force_id")) name="winner_force_id"
                    aria-invalid=[errors.get("winner_force_id").map(|_| "true")]
                    aria-describedby={ (field_id("winner_force_id")) "-hint" @if errors.get("winner_force_id").is_some() { " " (field_id("winner_force_id")) "-error" } } {
                    option value="" selected[winner.is_empty()] { "Choose the winner" }
                    @for side in &view.sides {
                        option value=(side.force_id) selected[winner == side.force_id] { (role.force_name(&side.force_id)) }
                    }
                    @if let Some(np) = &np {
                        option value="non_player" selected[winner == "non_player"] { (np) }
                    }
                }
            }
            p.hint { "Per unit: figures lost (dead, captured or untreated wounded at the end of the battle); leave empty for none, or for all of a wiped-out squad's figures." }
            @for side in &view.sides {
                fieldset.panel {
                    legend { (role.force_name(&side.force_id)) }
                    @for (i, (force_id, unit)) in units.iter().enumerate() {
                        @if *force_id == side.force_id {
                            @let key = |f: &str| loss_key(i, f);
                            fieldset.group {
                                legend { (unit.name) }
                                input type="hidden" name=(key("unit_id")) value=(unit.id);
                                (error_line(errors, &key("unit_id")))
                                div.field {
                                    label for=(field_id(&key("figures_lost"))) { "Figures lost" }
                                    (error_line(errors, &key("figures_lost")))
                                    input type="number" inputmode="numeric" min="0" max=(unit.strength)
                                        id=(field_id(&key("figures_lost"))) name=(key("figures_lost"))
                                        value=(get(&key("figures_lost")))
                                        aria-invalid=[errors.get(&key("figures_lost")).map(|_| "true")]
                                        aria-describedby=[errors.get(&key("figures_lost")).map(|_| format!("{}-error", field_id(&key("figures_lost"))))];
                                    span.hint { "of " (unit.strength) }
                                }
                                div.check {
                                    input type="checkbox" id=(field_id(&key("eliminated"))) name=(key("eliminated")) value="on"
                                        checked[fields.contains_key(&key("eliminated"))]
                                        aria-invalid=[errors.get(&key("eliminated")).map(|_| "true")];
                                    label for=(field_id(&key("eliminated"))) { "Eliminated" }
                                    (error_line(errors, &key("eliminated")))
                                }
                                div.check {
                                    input type="checkbox" id=(field_id(&key("destroyed_on_recon"))) name=(key("destroyed_on_recon")) value="on"
                                        checked[fields.contains_key(&key("destroyed_on_recon"))];
                                    label for=(field_id(&key("destroyed_on_recon"))) { "Destroyed on recon" }
                                    (error_line(errors, &key("destroyed_on_recon")))
                                }
                                @if unit.kind == UnitKind::Vehicle {
                                    @let damage = get(&key("vehicle_damage"));
                                    div.field {
                                        label for=(field_id(&key("vehicle_damage"))) { "Vehicle damage" }
                                        (error_line(errors, &key("vehicle_damage")))
                                        select id=(field_id(&key("vehicle_damage"))) name=(key("vehicle_damage"))
                                            aria-invalid=[errors.get(&key("vehicle_damage")).map(|_| "true")] {
                                            option value="" selected[damage.is_empty()] { "none" }
                                            option value="damaged" selected[damage == "damaged"] { "damaged" }
                                            option value="destroyed" selected[damage == "destroyed"] { "destroyed" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            div.actions { button type="submit" { "Record result" } }
        }
    }
}

/// The recorded result, unit by unit.
fn result_tables(view: &ResultView) -> Markup {
    let Some(result) = &view.battle.result else {
        return html! {};
    };
    html! {
        @for side in &view.sides {
            @let lines: Vec<_> = result.losses.iter().filter(|l| l.force_id == side.force_id).collect();
            section aria-labelledby={ "losses-" (side.force_id) } {
                h2 id={ "losses-" (side.force_id) } { "Losses of " (view.role.force_name(&side.force_id)) }
                @if lines.is_empty() {
                    p.muted { "No losses." }
                } @else {
                    div.table-wrap {
                        table {
                            thead { tr { th scope="col" { "Unit" } th.num scope="col" { "Figures lost" } th scope="col" { "Fate" } } }
                            tbody {
                                @for line in lines {
                                    @let name = side.roster.unit(&line.unit_id).map_or(line.unit_id.as_str(), |u| u.name.as_str());
                                    tr {
                                        th scope="row" { (name) }
                                        td.num { (line.figures_lost) }
                                        td {
                                            @if line.destroyed_on_recon { "destroyed on recon" }
                                            @else if line.eliminated { "eliminated" }
                                            @else if let Some(damage) = &line.vehicle_damage { (damage) }
                                            @else { "—" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// What a failed action shows above the page: field errors, or a conflict's message.
#[derive(Debug, Default)]
struct Failure {
    errors: Errors,
    conflict: Option<String>,
}

fn result_page(
    state: &AppState,
    user: &SessionUser,
    view: &ResultView,
    fields: &Fields,
    failure: &Failure,
) -> Markup {
    let battle = &view.battle;
    let title = format!("Result: {}", matchup(battle, &view.role));
    let labels = labels_for(view);
    let label_refs: Vec<(&str, &str)> = labels
        .iter()
        .map(|(f, l)| (f.as_str(), l.as_str()))
        .collect();
    let csrf = csrf_input(state, &FormKey::session(user));
    let back = format!("/battles/{}/result", battle.id);
    let body = html! {
        h1 { (title) }
        @if let Some(message) = &failure.conflict {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                h2 { "That did not work" }
                p { (message) }
                p { "The page below shows the battle as it is now." }
            }
        } @else {
            (error_summary(&failure.errors, &label_refs))
        }
        p { a href={ "/battles/" (battle.id) } { "Back to the battle" } }
        @if battle.state == BattleState::Scenario {
            @if view.role.may_record() {
                (result_form(state, user, view, fields, &failure.errors))
            } @else {
                p { "No result is recorded yet. A side's owner or the organiser records it." }
            }
        } @else {
            (result_tables(view))
        }
        (panel_markup(battle, &view.role, &csrf, &back, fields, &failure.errors))
    };
    layout::page(state, Some(user), &title, body)
}

/// `GET /battles/{id}/result`: the result form, or the recorded result with the panel.
#[get("/battles/{id}/result")]
pub async fn result_form_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let view = battle_pages::result_view(&state, &user.user_id, &path).await?;
    Ok(respond(
        StatusCode::OK,
        result_page(&state, &user, &view, &Fields::new(), &Failure::default()),
    ))
}

/// The result the form describes; errors on fields the page parses itself. `lines` maps each
/// request line to its unit's index in the form.
fn parse_result(fields: &Fields, form: LossesForm) -> Result<(ResultRequest, Vec<usize>), Errors> {
    let mut errors = Vec::new();
    let outcome = match fields.get("outcome").map(String::as_str) {
        Some("win") => BattleOutcome::Win,
        Some("draw") => BattleOutcome::Draw,
        _ => {
            errors.push(FieldError::new("outcome", "choose win or draw"));
            BattleOutcome::Win
        }
    };
    // The winner matters for a win only; "non_player" names the non-player side.
    let winner_force_id = match (outcome, fields.get("winner_force_id").map(String::as_str)) {
        (BattleOutcome::Draw, _) | (_, None | Some("" | "non_player")) => None,
        (_, Some(id)) => Some(id.to_owned()),
    };
    if outcome == BattleOutcome::Win && fields.get("winner_force_id").is_none_or(String::is_empty) {
        errors.push(FieldError::new("winner_force_id", "choose the winner"));
    }
    let mut losses = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in form.losses {
        let Some(unit_id) = line.unit_id else {
            continue;
        };
        let text = line.figures_lost.trim();
        let figures_lost = if text.is_empty() {
            None
        } else if let Ok(n) = text.parse::<i64>() {
            Some(n)
        } else {
            errors.push(FieldError::new(
                loss_key(i, "figures_lost"),
                "enter a whole number of figures, or leave it empty",
            ));
            continue;
        };
        let eliminated = line.eliminated.is_some();
        let destroyed_on_recon = line.destroyed_on_recon.is_some();
        let vehicle_damage = line.vehicle_damage.filter(|v| !v.is_empty());
        // A unit with nothing to report is left out: units not listed lost nothing.
        if figures_lost.unwrap_or(0) == 0
            && !eliminated
            && !destroyed_on_recon
            && vehicle_damage.is_none()
        {
            continue;
        }
        losses.push(LossRequest {
            unit_id,
            figures_lost,
            eliminated,
            vehicle_damage,
            destroyed_on_recon,
        });
        lines.push(i);
    }
    if errors.is_empty() {
        Ok((
            ResultRequest {
                outcome,
                winner_force_id,
                losses,
            },
            lines,
        ))
    } else {
        Err(Errors(errors))
    }
}

/// The use case's errors named by the form's fields (`losses[k]` of the request is the form's
/// unit `lines[k]`).
fn form_errors(errors: Vec<FieldError>, lines: &[usize]) -> Errors {
    Errors(
        errors
            .into_iter()
            .map(|e| {
                let field = e
                    .field
                    .strip_prefix("losses[")
                    .and_then(|rest| rest.split_once(']'))
                    .and_then(|(n, rest)| {
                        let i = lines.get(n.parse::<usize>().ok()?)?;
                        Some(form_name(&format!("losses[{i}]{rest}")))
                    })
                    .unwrap_or(e.field);
                FieldError::new(field, e.message)
            })
            .collect(),
    )
}

/// A failed action's page: the result page with the error and the input kept.
async fn failed(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
    fields: &Fields,
    error: ApiError,
) -> Result<HttpResponse, PageError> {
    let (status, failure) = match error {
        ApiError::Validation(errors) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Failure {
                errors: Errors(errors),
                conflict: None,
            },
        ),
        ApiError::Conflict(message) => (
            StatusCode::CONFLICT,
            Failure {
                errors: Errors::default(),
                conflict: Some(message),
            },
        ),
        other => return Err(other.into()),
    };
    let view = battle_pages::result_view(state, &user.user_id, battle_id).await?;
    Ok(respond(
        status,
        result_page(state, user, &view, fields, &failure),
    ))
}

/// `POST /battles/{id}/result`: records the result.
#[post("/battles/{id}/result")]
pub async fn record_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let pairs = form.into_inner();
    let fields: Fields = pairs.iter().cloned().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let battle_id = path.into_inner();
    let parsed = read_pairs::<LossesForm>(&pairs)
        .map_err(|_| Errors(vec![FieldError::new("outcome", UnreadableForm::MESSAGE)]))
        .and_then(|form| parse_result(&fields, form));
    let (request, lines) = match parsed {
        Ok(parsed) => parsed,
        Err(errors) => {
            // Refused as the use case would refuse it before the form comes back.
            let view = battle_pages::result_view(&state, &user.user_id, &battle_id).await?;
            if !view.role.may_record() {
                return Err(ApiError::Forbidden(
                    "Only a side's owner or the organiser may record the result.".to_owned(),
                )
                .into());
            }
            let failure = Failure {
                errors,
                conflict: None,
            };
            return Ok(respond(
                StatusCode::UNPROCESSABLE_ENTITY,
                result_page(&state, &user, &view, &fields, &failure),
            ));
        }
    };
    let write = page_write(&user, format!("page POST /battles/{battle_id}/result"));
    match app::record_result(&state, &auth_user(&user), battle_id.clone(), request, write).await {
        Ok(_) => Ok(see_other(&back_to(&battle_id, &fields))),
        Err(ApiError::Validation(errors)) => {
            let errors = form_errors(errors, &lines);
            failed(
                &state,
                &user,
                &battle_id,
                &fields,
                ApiError::Validation(errors.0),
            )
            .await
        }
        Err(other) => failed(&state, &user, &battle_id, &fields, other).await,
    }
}

/// `POST /battles/{id}/confirm`: confirms the pending result.
#[post("/battles/{id}/confirm")]
pub async fn confirm_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let battle_id = path.into_inner();
    let write = page_write(&user, format!("page POST /battles/{battle_id}/confirm"));
    match app::confirm_result(&state, &auth_user(&user), battle_id.clone(), write).await {
        Ok(_) => Ok(see_other(&back_to(&battle_id, &fields))),
        Err(error) => failed(&state, &user, &battle_id, &fields, error).await,
    }
}

/// A correction's reason field, and its errors under that field's name.
fn correction(fields: &Fields, field: &str) -> CorrectionRequest {
    CorrectionRequest {
        reason: fields.get(field).cloned(),
    }
}

fn rename_reason(error: ApiError, field: &str) -> ApiError {
    match error {
        ApiError::Validation(errors) => ApiError::Validation(
            errors
                .into_iter()
                .map(|e| {
                    if e.field == "reason" {
                        FieldError::new(field, e.message)
                    } else {
                        e
                    }
                })
                .collect(),
        ),
        other => other,
    }
}

/// `POST /battles/{id}/void` (organiser): voids the battle.
#[post("/battles/{id}/void")]
pub async fn void_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let battle_id = path.into_inner();
    let write = page_write(&user, format!("page POST /battles/{battle_id}/void"));
    let request = correction(&fields, "void_reason");
    match corrections::void_battle(&state, &auth_user(&user), battle_id.clone(), request, write)
        .await
    {
        Ok(_) => Ok(see_other(&back_to(&battle_id, &fields))),
        Err(error) => {
            failed(
                &state,
                &user,
                &battle_id,
                &fields,
                rename_reason(error, "void_reason"),
            )
            .await
        }
    }
}

/// `POST /battles/{id}/reopen` (organiser): takes the result back.
#[post("/battles/{id}/reopen")]
pub async fn reopen_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let battle_id = path.into_inner();
    let write = page_write(&user, format!("page POST /battles/{battle_id}/reopen"));
    let request = correction(&fields, "reopen_reason");
    match corrections::reopen_battle(&state, &auth_user(&user), battle_id.clone(), request, write)
        .await
    {
        Ok(_) => Ok(see_other(&back_to(&battle_id, &fields))),
        Err(error) => {
            failed(
                &state,
                &user,
                &battle_id,
                &fields,
                rename_reason(error, "reopen_reason"),
            )
            .await
        }
    }
}
