//! `GET /`: signed out, what this is and how to start; signed in, my campaigns with my role and
//! the battles that wait for me.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use maud::html;

use crate::AppState;
use crate::app::overview;

use crate::web::layout;
use crate::web::{PageError, accounts::session, respond};

/// The landing page.
#[get("/")]
pub async fn home(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, PageError> {
    let Some(user) = session::signed_in(&req, &state).await? else {
        let body = html! {
            h1 { "Fast And Dirty campaigns" }
            p.lead { "Run a club campaign of the Fast And Dirty wargame from your phone: rosters, invitations, battles and their aftermath, with the dice rolled and the rules applied for you." }
            div.actions {
                a.button href="/register" { "Create an account" }
                a.button.secondary href="/login" { "Log in" }
            }
            h2 { "What you can do here" }
            ul {
                li { "Start a campaign and invite players with a link or a QR code." }
                li { "Build or generate forces, see every stat and points, print unit cards." }
                li { "Just one game tonight? " a href="/scenarios/new" { "Generate a scenario" } ", no account needed." }
                li { "Look up every table the service applies in the " a href="/rules" { "rules reference" } "." }
            }
        };
        return Ok(respond(
            StatusCode::OK,
            layout::page(&state, None, "Fast And Dirty campaigns", body),
        ));
    };
    let data = overview::home(&state, &user.user_id).await?;
    let body = html! {
        h1 { "Your campaigns" }
        div.actions {
            a.button href="/campaigns/new" { "Create a campaign" }
            a.button.secondary href="/scenarios/new" { "Generate a one-shot scenario" }
        }
        @if data.campaigns.is_empty() {
            p { "You are in no campaign yet. Create one, or open the invitation link an organiser sent you." }
        } @else {
            ul.cards {
                @for campaign in &data.campaigns {
                    li {
                        a.title href={ "/campaigns/" (campaign.id) } { (campaign.name) }
                        " " span.badge { (role_label(&campaign.role)) }
                    }
                }
            }
        }
        h2 { "Battles waiting for you" }
        @if data.waiting.is_empty() {
            p.muted { "None right now." }
        } @else {
            ul.cards {
                @for battle in &data.waiting {
                    li {
                        @if let Some(action) = &battle.your_turn {
                            a.title href={ "/battles/" (battle.id) } { (action) }
                        } @else {
                            a.title href={ "/battles/" (battle.id) } { (battle.sides.join(" vs ")) }
                            p { (battle.waits_for) }
                        }
                    }
                }
            }
        }
    };
    Ok(respond(
        StatusCode::OK,
        layout::page(&state, Some(&user), "Your campaigns", body),
    ))
}

/// A role in words.
pub fn role_label(role: &str) -> &'static str {
    match role {
        "organiser" => "Organiser",
        _ => "Player",
    }
}
