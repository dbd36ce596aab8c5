//! Campaign pages: `/campaigns/new`, `/campaigns/{id}` (standings, battles, forces, members;
//! for the organiser: invitations (see [`crate::web::campaigns::invites`]), house rules, API keys) and
//! `/join/{code}`.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::campaign_setup;
use crate::app::campaigns::invites::OpenInvite;
use crate::app::overview::{self, CampaignOverview};
use crate::error::ApiError;

use crate::web::accounts::TokenForm;
use crate::web::accounts::session::{self, FormKey};
use crate::web::home::role_label;
use crate::web::layout::{
    self, Errors, Input, csrf_input, error_summary, select_field, text_field, textarea_field,
};
use crate::web::{PageError, require_user, respond, see_other};

/// The new-campaign form.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct CampaignForm {
    name: String,
    description: String,
    ruleset: String,
    csrf_token: Option<String>,
}

const CAMPAIGN_LABELS: &[(&str, &str)] = &[
    ("name", "Name"),
    ("description", "Description"),
    ("ruleset", "Rules"),
];

/// One line per ruleset the person may choose: its name, what it is and its source.
async fn ruleset_options(
    state: &AppState,
    user: &SessionUser,
) -> Result<Vec<(String, String)>, ApiError> {
    let caller = crate::auth::Caller::User {
        user_id: user.user_id.clone(),
    };
    let listed = crate::app::rulesets::list(state, Some(caller)).await?;
    Ok(listed
        .into_iter()
        .map(|l| {
            let r = l.ruleset;
            let source = if r.builtin {
                r.sources.join(", ")
            } else {
                format!("house rules, version {}", r.version)
            };
            (
                r.id.clone(),
                format!("{}: {} ({source})", r.name, r.summary),
            )
        })
        .collect())
}

fn new_markup(
    state: &AppState,
    user: &SessionUser,
    form: &CampaignForm,
    errors: &Errors,
    rulesets: &[(String, String)],
) -> Markup {
    let body = html! {
        h1 { "Create a campaign" }
        (error_summary(errors, CAMPAIGN_LABELS))
        form.stack method="post" action="/campaigns/new" novalidate {
            (csrf_input(state, &FormKey::session(user)))
            (text_field("name", "Name", &form.name, errors, Input {
                required: true, max_length: Some(100),
                hint: Some("Up to 100 characters, e.g. Operation Long Winter."),
                ..Input::default()
            }))
            (textarea_field("description", "Description", &form.description, errors,
                Some("Optional: the setting, the schedule, where you meet."), 2000))
            (select_field("ruleset", "Rules", rulesets, &form.ruleset, errors))
            p.muted { "The rules the campaign plays: they cannot change after its first battle. "
                a href="/rulesets/new" { "Write house rules" } }
            div.actions { button type="submit" { "Create campaign" } }
        }
        p.muted { "You become its organiser. House rules start at the chosen rules' defaults; change them on the campaign page." }
    };
    layout::page(state, Some(user), "Create a campaign", body)
}

/// `GET /campaigns/new`.
#[get("/campaigns/new")]
pub async fn new_form(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let rulesets = ruleset_options(&state, &user).await?;
    Ok(respond(
        StatusCode::OK,
        new_markup(
            &state,
            &user,
            &CampaignForm::default(),
            &Errors::default(),
            &rulesets,
        ),
    ))
}

/// `POST /campaigns/new`: creates the campaign and opens it.
#[post("/campaigns/new")]
pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CampaignForm>,
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
    let description = Some(form.description.clone());
    let created = campaign_setup::create_campaign(
        &state,
        &user.user_id,
        &form.name,
        description,
        &form.ruleset,
    )
    .await;
    match created {
        Ok(campaign) => Ok(see_other(&format!("/campaigns/{}", campaign.id))),
        Err(ApiError::Validation(errors)) => {
            let rulesets = ruleset_options(&state, &user).await?;
            Ok(respond(
                StatusCode::UNPROCESSABLE_ENTITY,
                new_markup(&state, &user, &form, &Errors(errors), &rulesets),
            ))
        }
        Err(other) => Err(other.into()),
    }
}

fn campaign_markup(
    state: &AppState,
    req: &HttpRequest,
    user: &SessionUser,
    data: &CampaignOverview,
    invites: &[OpenInvite],
) -> Markup {
    let organiser = data.my_role == "organiser";
    let body = html! {
        h1 { (data.name) }
        p { "You are " strong { (role_label(&data.my_role).to_lowercase()) } " of this campaign." }
        @if let Some(description) = &data.description { p { (description) } }
        p { "Rules: " a href=(data.ruleset.1) { (data.ruleset.0) }
            @if organiser { " · " a href="/rulesets/new" { "Write house rules" } } }
        p { a href={ "/campaigns/" (data.id) "/timeline" } { "The campaign's story" } " (everything that happened, newest first)" }
        h2 { "Standings" }
        @if data.standings.is_empty() {
            p.muted { "No forces yet." }
        } @else {
            div.table-wrap {
                table {
                    caption.muted { "Most wins first, then campaign points earned, then fewest losses. The balance is what is left to spend, as each roster shows it." }
                    thead { tr { th scope="col" { "Force" } th.num scope="col" { "Won" } th.num scope="col" { "Drawn" } th.num scope="col" { "Lost" } th.num scope="col" { "Campaign points earned" } th.num scope="col" { "Campaign points balance" } } }
                    tbody {
                        @for row in &data.standings {
                            tr {
                                th scope="row" { a href={ "/forces/" (row.force_id) } { (row.name) } }
                                td.num { (row.wins) } td.num { (row.draws) } td.num { (row.losses) } td.num { (row.campaign_points_earned) } td.num { (row.campaign_points_balance) }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Battles" }
        div.actions { a.button.secondary href={ "/campaigns/" (data.id) "/battles/new" } { "Start a battle" } }
        @if data.battles.is_empty() {
            p.muted { "No battles yet." }
        } @else {
            ul.cards {
                @for battle in &data.battles {
                    li {
                        a.title href={ "/battles/" (battle.id) } { (battle.sides.join(" vs ")) }
                        @if let Some(outcome) = &battle.outcome { p { strong { (outcome) } } }
                        p { (battle.waits_for) " · " span.muted { (battle.created_at.format("%Y-%m-%d")) } }
                    }
                }
            }
        }
        h2 { "Forces" }
        div.actions { a.button.secondary href={ "/campaigns/" (data.id) "/forces/new" } { "Add a force" } }
        @if data.forces.is_empty() {
            p.muted { "No forces yet." }
        } @else {
            ul {
                @for force in data.forces.iter().filter(|f| !f.archived) {
                    li { a href={ "/forces/" (force.id) } { (force.name) } " — " (force.owner) }
                }
            }
            // Archived forces leave the list; their rosters stay readable.
            @if data.forces.iter().any(|f| f.archived) {
                p.muted { "Archived: "
                    @for (k, force) in data.forces.iter().filter(|f| f.archived).enumerate() {
                        @if k > 0 { ", " }
                        a href={ "/forces/" (force.id) } { (force.name) }
                    }
                }
            }
        }
        h2 { "Members" }
        ul {
            @for member in &data.members {
                li { (member.username) " " span.badge { (role_label(&member.role)) } }
            }
        }
        @if organiser {
            (crate::web::campaigns::invites::section(state, req, user, &data.id, &data.name, invites))
            h2 { "Settings" }
            p { "House rules, API keys for club sites and webhooks: "
                a href={ "/campaigns/" (data.id) "/settings" } { "campaign settings" } "." }
            @if !data.api_keys.is_empty() {
                p.muted { (data.api_keys.len()) " API key(s) in use." }
            }
        }
    };
    layout::page(state, Some(user), &data.name, body)
}

/// `GET /campaigns/{id}`.
#[get("/campaigns/{id}")]
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let data = overview::campaign_overview(&state, &user.user_id, &path).await?;
    let invites = if data.my_role == "organiser" {
        campaign_setup::open_invites(&state, &user.user_id, &path).await?
    } else {
        Vec::new()
    };
    Ok(respond(
        StatusCode::OK,
        campaign_markup(&state, &req, &user, &data, &invites),
    ))
}

/// The TCP peer, as for sign-in: looking at and joining with a code spend the same
/// per-address quota.
fn peer(req: &HttpRequest) -> std::net::IpAddr {
    req.peer_addr()
        .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |a| {
            a.ip()
        })
}

/// `GET /join/{code}`: signed in, one button joins; signed out, log in or register and come
/// back here.
#[get("/join/{code}")]
pub async fn join_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let code = path.into_inner();
    let user = session::signed_in(&req, &state).await?;
    let preview = campaign_setup::preview_invite(
        &state,
        user.as_ref().map(|u| u.user_id.as_str()),
        peer(&req),
        &code,
    )
    .await?;
    let here = format!("/join/{}", crate::web::encode_query(&code));
    let title = format!("Join {}", preview.campaign_name);
    let body = html! {
        h1 { (title) }
        @match &user {
            Some(user) if preview.already_member => {
                p { "You already belong to this campaign." }
                p { a href={ "/campaigns/" (preview.campaign_id) } { "Open " (preview.campaign_name) } }
                @let _ = user;
            }
            Some(user) => {
                p { "You are invited to play in " strong { (preview.campaign_name) } "." }
                form method="post" action=(here) {
                    (csrf_input(&state, &FormKey::session(user)))
                    button type="submit" { "Join campaign" }
                }
            }
            None => {
                p { "You are invited to play in " strong { (preview.campaign_name) } ". Log in or create an account first; you come back here to join." }
                div.actions {
                    a.button href={ "/login?next=" (crate::web::encode_query(&here)) } { "Log in" }
                    a.button.secondary href={ "/register?next=" (crate::web::encode_query(&here)) } { "Create an account" }
                }
            }
        }
    };
    Ok(respond(
        StatusCode::OK,
        layout::page(&state, user.as_ref(), &title, body),
    ))
}

/// `POST /join/{code}`: joins as a player and opens the campaign.
#[post("/join/{code}")]
pub async fn join_submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    session::check_form(&req, &state, &FormKey::session(&user), form.csrf_token())
        .map_err(|_| PageError::Refused)?;
    match campaign_setup::join_with_code(&state, &user.user_id, peer(&req), &path).await {
        Ok(campaign_id) => Ok(see_other(&format!("/campaigns/{campaign_id}"))),
        // Joining twice (a double tap) lands on the campaign all the same.
        Err(ApiError::Conflict(_)) => {
            let preview =
                campaign_setup::preview_after_join_attempt(&state, Some(&user.user_id), &path)
                    .await?;
            Ok(see_other(&format!("/campaigns/{}", preview.campaign_id)))
        }
        Err(other) => Err(other.into()),
    }
}
