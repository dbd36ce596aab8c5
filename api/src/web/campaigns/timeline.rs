//! `/campaigns/{id}/timeline`: the campaign's story for its members, newest first, each entry a
//! line in words with links to its battle, force or member, a page at a time (`?before=`).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::story::{self, Named, Story, StoryEntry};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::store::events::EventType;

use crate::web::home::role_label;
use crate::web::{PageError, layout, require_user, respond};

/// `?before=`: the cursor of an older page.
#[derive(Debug, Deserialize)]
pub struct StoryQuery {
    before: Option<String>,
}

fn battle_link(battle: Option<&Named>) -> Markup {
    match battle {
        Some(b) => html! { a href={ "/battles/" (b.id) } { (b.name) } },
        None => html! { "a battle" },
    }
}

fn force_link(force: Option<&Named>) -> Markup {
    match force {
        Some(f) => html! { a href={ "/forces/" (f.id) } { (f.name) } },
        None => html! { "A force" },
    }
}

/// Who won, as a sentence after the entry's own ("Alpha Company (Ann) won.").
fn won(entry: &StoryEntry) -> Markup {
    html! { @if let Some(outcome) = &entry.outcome { " " strong { (outcome) "." } } }
}

/// The organiser's reason, when given.
fn because(entry: &StoryEntry) -> Markup {
    html! { @if let Some(reason) = &entry.reason { " Reason: " q { (reason) } } }
}

/// The entry in words.
fn line(entry: &StoryEntry) -> Markup {
    let battle = battle_link(entry.battle.as_ref());
    let force = force_link(entry.force.as_ref());
    match entry.event_type {
        EventType::BattleCreated => html! { "Battle set up: " (battle) "." },
        EventType::BattleScenarioReady => {
            html! { (battle) ": the scenario is ready, the battle can be fought." }
        }
        EventType::BattleResultRecorded => {
            html! { (battle) ": the result was recorded and waits for confirmation." (won(entry)) }
        }
        EventType::BattleResultConfirmed => {
            html! { (battle) ": the result was confirmed." (won(entry)) }
        }
        EventType::BattleCompleted => {
            html! { (battle) ": every post-battle sequence is done." (won(entry)) }
        }
        EventType::BattleVoided => html! { (battle) " was voided." (because(entry)) },
        EventType::BattleResultReopened => html! {
            (battle) ": the organiser reopened the result"
            @if let Some(outcome) = &entry.outcome { " (" (outcome) ")" }
            "; a new result will be recorded." (because(entry))
        },
        EventType::BattleSoloTurn => html! {
            (battle) ": a turn of solo play; the non-player force's groups took their "
            a href="/rules#solo-discipline" { "Discipline Tests" } "."
        },
        EventType::ForceCreated => html! { (force) " was added to the campaign." },
        EventType::AftermathFinalized => {
            html! { (force) " finished its post-battle sequence after " (battle) "." }
        }
        EventType::MemberJoined => {
            let name = entry.member.as_ref().map_or("Someone", |m| m.name.as_str());
            let role = entry.detail.as_deref().map(role_label);
            html! {
                strong { (name) } " joined the campaign"
                @if let Some(role) = role { " as " (role.to_lowercase()) }
                "."
            }
        }
        EventType::ForceRosterChanged => html! { (force) "'s roster was edited." },
        EventType::ForceLedgerAdjusted => {
            html! { "The organiser adjusted the campaign points of " (force) "." }
        }
        EventType::MemberLeft => {
            let name = entry.member.as_ref().map_or("Someone", |m| m.name.as_str());
            html! {
                strong { (name) }
                @if entry.detail.as_deref() == Some("removed") {
                    " was removed from the campaign."
                } @else {
                    " left the campaign."
                }
            }
        }
        // Turn-by-turn nudges for bots; the story leaves them out (see `store::story`).
        EventType::ScenarioStepChanged => html! { (battle) ": the scenario moved on." },
        EventType::AftermathStepRolled => {
            html! { (force) " rolled a post-battle step after " (battle) "." }
        }
        EventType::Ping => html! { "A webhook test was sent." },
    }
}

fn story_markup(
    state: &AppState,
    user: &crate::app::accounts::SessionUser,
    data: &Story,
) -> Markup {
    let title = format!("Story of {}", data.campaign_name);
    let body = html! {
        h1 { (title) }
        p { a href={ "/campaigns/" (data.campaign_id) } { "Back to the campaign" } }
        @if data.entries.is_empty() {
            p.muted { "Nothing has happened yet." }
        } @else {
            ol.entries {
                @for entry in &data.entries {
                    li.panel {
                        p { (line(entry)) }
                        @let at = entry.occurred_at.and_utc();
                        p.muted { time datetime=(at.to_rfc3339()) { (at.format("%Y-%m-%d %H:%M UTC")) } }
                    }
                }
            }
        }
        @if let Some(before) = data.before {
            p.actions { a.button.secondary href={ "/campaigns/" (data.campaign_id) "/timeline?before=" (before) } { "Older entries" } }
        }
    };
    layout::page(state, Some(user), &title, body)
}

/// `GET /campaigns/{id}/timeline`.
#[get("/campaigns/{id}/timeline")]
pub async fn timeline(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<StoryQuery>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let before = match query.before.as_deref().filter(|b| !b.is_empty()) {
        None => None,
        Some(text) => Some(text.parse::<i64>().map_err(|_| {
            ApiError::bad_request("`before` must be a number from an older-entries link.")
        })?),
    };
    let caller = Caller::User {
        user_id: user.user_id.clone(),
    };
    let data = story::read_story(&state, caller, path.into_inner(), before).await?;
    Ok(respond(StatusCode::OK, story_markup(&state, &user, &data)))
}
