//! A force's history and ledger pages: `/forces/{id}/history` (every change, newest first,
//! paged), `/forces/{id}/history/{entry}` (the roster as of one change) and
//! `/forces/{id}/ledger` (every campaign point with the running balance; the organiser adjusts).

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use chrono::NaiveDateTime;
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages::{self, ForceView};
use crate::app::forces::history::{self, LedgerAdjustment, LedgerPage};
use crate::app::forces::response::RosterResponse;
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::paging::Page;
use crate::store::history::{FieldChange, HistoryEntry, RosterDiff, UnitChangeKind};
use crate::store::ledger::LedgerKind;

use crate::web::accounts::session::{self, FormKey};
use crate::web::forces::roster::{points, roster_sections, value_text, words};
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, notice, select_field, text_field,
};
use crate::web::{PageError, encode_query, require_user, respond, see_other};

/// The signed-in person as the application layer names callers.
fn caller(user: &SessionUser) -> Caller {
    Caller::User {
        user_id: user.user_id.clone(),
    }
}

/// The page of a list this request asks for (`?after=` from a "More" link).
async fn page_of(req: &HttpRequest) -> Result<Page, PageError> {
    Ok(Page::extract(req).await?)
}

fn when(at: &NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

fn who(names: &BTreeMap<String, String>, actor: Option<&String>) -> String {
    match actor {
        None => "the service".to_owned(),
        Some(id) => names
            .get(id)
            .cloned()
            .unwrap_or_else(|| "a former member".to_owned()),
    }
}

fn internal(error: serde_json::Error) -> PageError {
    PageError::Api(ApiError::Internal(error.into()))
}

fn change_text(name: &str, change: &FieldChange) -> String {
    let before = value_text(&change.before);
    let after = value_text(&change.after);
    let show = |s: String| if s.is_empty() { "none".to_owned() } else { s };
    format!("{}: {} → {}", words(name), show(before), show(after))
}

/// What one change did, in words.
fn diff_markup(diff: &RosterDiff) -> Markup {
    html! {
        @if let Some(reason) = &diff.reason { p { "Reason: " (reason) } }
        @if diff.is_empty() {
            p.muted { "No roster fields changed." }
        } @else {
            ul {
                @for (name, change) in &diff.force {
                    li { "Force " (change_text(name, change)) }
                }
                @for unit in &diff.units {
                    li {
                        @match unit.change {
                            UnitChangeKind::Added => { "Added " strong { (unit.name) } }
                            UnitChangeKind::Removed => { "Removed " strong { (unit.name) } }
                            UnitChangeKind::Changed => {
                                strong { (unit.name) } ": "
                                @let parts: Vec<String> = unit.fields.iter().map(|(n, c)| change_text(n, c)).collect();
                                (parts.join("; "))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn history_markup(
    state: &AppState,
    user: &SessionUser,
    force: &ForceView,
    entries: &[(HistoryEntry, RosterDiff)],
    names: &BTreeMap<String, String>,
    next: Option<&str>,
) -> Markup {
    let title = format!("{} · history", force.roster.name);
    let body = html! {
        h1 { (title) }
        p { "Every change to this roster, newest first. " a href={ "/forces/" (force.id) } { "Back to the roster" } }
        @if entries.is_empty() { p { "No changes on this page." } }
        ol.entries {
            @for (entry, diff) in entries {
                li {
                    article.panel aria-labelledby={ "h-" (entry.id) } {
                        h2 id={ "h-" (entry.id) } { "Version " (entry.version) " · " (words(&entry.cause_kind)) }
                        p {
                            time datetime=(entry.at.and_utc().to_rfc3339()) { (when(&entry.at)) }
                            " · by " (who(names, entry.actor_id.as_ref()))
                        }
                        (diff_markup(diff))
                        p { a href={ "/forces/" (force.id) "/history/" (entry.id) } { "The roster as of version " (entry.version) } }
                    }
                }
            }
        }
        @if let Some(next) = next {
            p { a.button href={ "/forces/" (force.id) "/history?after=" (encode_query(next)) } { "More" } }
        }
    };
    layout::page(state, Some(user), &title, body)
}

/// `GET /forces/{id}/history`.
#[get("/forces/{id}/history")]
pub async fn history_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = force_pages::read_force(&state, &user.user_id, &path).await?;
    let page = page_of(&req).await?;
    let listed = history::list_history(&state, &caller(&user), &path, page).await?;
    let ids = listed
        .items
        .iter()
        .filter_map(|e| e.actor_id.clone())
        .collect();
    let names = force_pages::usernames(&state, ids).await?;
    let entries = listed
        .items
        .into_iter()
        .map(|e| {
            let diff: RosterDiff = serde_json::from_str(&e.diff).map_err(internal)?;
            Ok((e, diff))
        })
        .collect::<Result<Vec<_>, PageError>>()?;
    Ok(respond(
        StatusCode::OK,
        history_markup(
            &state,
            &user,
            &force,
            &entries,
            &names,
            listed.next.as_deref(),
        ),
    ))
}

/// `GET /forces/{id}/history/{entry}`: the roster right after that change, with points.
#[get("/forces/{id}/history/{entry}")]
pub async fn history_entry_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, PageError> {
    let (force_id, entry_id) = path.into_inner();
    let user = require_user(&req, &state).await?;
    let force = force_pages::read_force(&state, &user.user_id, &force_id).await?;
    let entry = history::read_history_entry(&state, &caller(&user), &force_id, &entry_id).await?;
    let roster = RosterResponse::new(entry.roster().map_err(|e| PageError::Api(e.into()))?);
    let diff: RosterDiff = serde_json::from_str(&entry.diff).map_err(internal)?;
    let names = force_pages::usernames(&state, entry.actor_id.iter().cloned().collect()).await?;
    let title = format!("{} as of version {}", roster.name, entry.version);
    let body = html! {
        h1 { (title) }
        p {
            (words(&entry.cause_kind)) " · "
            time datetime=(entry.at.and_utc().to_rfc3339()) { (when(&entry.at)) }
            " · by " (who(&names, entry.actor_id.as_ref()))
        }
        p {
            a href={ "/forces/" (force.id) "/history" } { "Back to the history" }
            " · " a href={ "/forces/" (force.id) } { "The roster now" }
        }
        dl.stats { dt { "Points" } dd { (roster.points.map_or_else(|| "Unpriced".to_owned(), points)) } }
        section aria-labelledby="what-changed" {
            h2 id="what-changed" { "What changed" }
            (diff_markup(&diff))
        }
        (roster_sections(&roster))
    };
    Ok(respond(
        StatusCode::OK,
        layout::page(&state, Some(&user), &title, body),
    ))
}

/// The organiser's adjustment form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct AdjustForm {
    kind: String,
    amount: String,
    note: String,
    csrf_token: Option<String>,
}

const ADJUST_LABELS: &[(&str, &str)] = &[
    ("kind", "Earned or spent"),
    ("amount", "Amount"),
    ("note", "Reason"),
];

#[expect(
    clippy::too_many_arguments,
    reason = "one page, each part of it given once"
)]
fn ledger_markup(
    state: &AppState,
    user: &SessionUser,
    force: &ForceView,
    ledger: &LedgerPage,
    names: &BTreeMap<String, String>,
    form: &AdjustForm,
    errors: &Errors,
    done: bool,
) -> Markup {
    let title = format!("{} · campaign points", force.roster.name);
    let kinds = [
        ("earned".to_owned(), "Earned (add points)".to_owned()),
        ("spent".to_owned(), "Spent (take points off)".to_owned()),
    ];
    let kind = if form.kind.is_empty() {
        "earned"
    } else {
        form.kind.as_str()
    };
    let body = html! {
        h1 { (title) }
        @if done { (notice("The adjustment is in the ledger.")) }
        @if force.is_organiser { (error_summary(errors, ADJUST_LABELS)) }
        p { a href={ "/forces/" (force.id) } { "Back to the roster" } }
        dl.stats {
            dt { "Balance" } dd { (ledger.balance) }
            dt { "Earned" } dd { (ledger.earned) }
            dt { "Spent" } dd { (ledger.spent) }
        }
        @if ledger.entries.is_empty() {
            p { "No campaign points on this page yet." }
        } @else {
            div.table-wrap tabindex="0" role="region" aria-label="Ledger entries" {
                table {
                    caption { "Every entry, oldest first, with the balance after it" }
                    thead { tr { th scope="col" { "When" } th scope="col" { "Change" } th scope="col" { "Balance" } th scope="col" { "Why" } th scope="col" { "Who" } } }
                    tbody {
                        @for e in &ledger.entries {
                            tr {
                                td { time datetime=(e.at.and_utc().to_rfc3339()) { (when(&e.at)) } }
                                td.num { @if e.kind == "spent" { "−" } @else { "+" } (e.amount) }
                                td.num { (e.balance) }
                                td { (words(&e.cause_kind)) @if let Some(note) = &e.note { ": " (note) } }
                                td { (who(names, e.actor_id.as_ref())) }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(next) = &ledger.next {
            p { a.button href={ "/forces/" (force.id) "/ledger?after=" (encode_query(next)) } { "More" } }
        }
        @if force.is_organiser {
            section aria-labelledby="adjust" {
                h2 id="adjust" { "Adjust campaign points" }
                p.muted { "As the organiser you can add or take off points outside a battle or purchase; the reason shows in the ledger." }
                form.stack method="post" action={ "/forces/" (force.id) "/ledger" } novalidate {
                    (csrf_input(state, &FormKey::session(user)))
                    (select_field("kind", "Earned or spent", &kinds, kind, errors))
                    (text_field("amount", "Amount", &form.amount, errors, Input {
                        kind: "number",
                        hint: Some("1 to 1000 campaign points."),
                        required: true,
                        ..Input::default()
                    }))
                    (text_field("note", "Reason", &form.note, errors, Input {
                        max_length: Some(200),
                        hint: Some("Optional, up to 200 characters."),
                        ..Input::default()
                    }))
                    div.actions { button type="submit" { "Adjust points" } }
                }
            }
        }
    };
    layout::page(state, Some(user), &title, body)
}

async fn ledger_names(
    state: &AppState,
    ledger: &LedgerPage,
) -> Result<BTreeMap<String, String>, PageError> {
    let ids = ledger
        .entries
        .iter()
        .filter_map(|e| e.actor_id.clone())
        .collect();
    Ok(force_pages::usernames(state, ids).await?)
}

/// `GET /forces/{id}/ledger`.
#[get("/forces/{id}/ledger")]
pub async fn ledger_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = force_pages::read_force(&state, &user.user_id, &path).await?;
    let page = page_of(&req).await?;
    let ledger = history::read_ledger(&state, &caller(&user), &path, page).await?;
    let names = ledger_names(&state, &ledger).await?;
    let done = req.query_string().contains("adjusted=1");
    Ok(respond(
        StatusCode::OK,
        ledger_markup(
            &state,
            &user,
            &force,
            &ledger,
            &names,
            &AdjustForm::default(),
            &Errors::default(),
            done,
        ),
    ))
}

/// `POST /forces/{id}/ledger`: the organiser's adjustment, then back to the ledger.
#[post("/forces/{id}/ledger")]
pub async fn adjust(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<AdjustForm>,
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
    let force = force_pages::read_force(&state, &user.user_id, &path).await?;
    let mut errors = Vec::new();
    let kind = match form.kind.as_str() {
        "earned" => Some(LedgerKind::Earned),
        "spent" => Some(LedgerKind::Spent),
        _ => {
            errors.push(FieldError::new("kind", "Choose earned or spent."));
            None
        }
    };
    let amount = form.amount.trim().parse::<i64>().ok();
    if amount.is_none() {
        errors.push(FieldError::new(
            "amount",
            "Enter a whole number from 1 to 1000.",
        ));
    }
    let result = match (kind, amount) {
        (Some(kind), Some(amount)) if errors.is_empty() => {
            let adjustment = LedgerAdjustment {
                kind,
                amount,
                note: Some(form.note.clone()),
            };
            let page = page_of(&req).await?;
            history::adjust_ledger(&state, &caller(&user), &path, page, adjustment).await
        }
        _ => Err(ApiError::Validation(errors)),
    };
    let errors = match result {
        Ok(_) => {
            return Ok(see_other(&format!(
                "/forces/{}/ledger?adjusted=1",
                force.id
            )));
        }
        Err(ApiError::Validation(errors)) => errors,
        // Taking off more than the balance: say so beside the amount.
        Err(ApiError::Conflict(detail)) => vec![FieldError::new("amount", &detail)],
        Err(other) => return Err(other.into()),
    };
    let ledger = history::read_ledger(&state, &caller(&user), &path, page_of(&req).await?).await?;
    let names = ledger_names(&state, &ledger).await?;
    Ok(respond(
        StatusCode::UNPROCESSABLE_ENTITY,
        ledger_markup(
            &state,
            &user,
            &force,
            &ledger,
            &names,
            &form,
            &Errors(errors),
            false,
        ),
    ))
}
