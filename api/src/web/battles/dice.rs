//! `GET /dice/verify`: recomputes server dice from the seed their roll log reveals, for the
//! `Verify` link beside every server roll (the derivation is `fad_domain::fair_dice`).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use fad_domain::dice::Roll;
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::app::dice::{VerifyRequest, verify};
use crate::error::ApiError;

use crate::web::layout;
use crate::web::{PageError, accounts::session, respond};

/// The link's query: one roll.
#[derive(Debug, Default, Deserialize)]
pub struct VerifyQuery {
    seed: Option<String>,
    client_seed: Option<String>,
    first_die: Option<u64>,
    dice: Option<String>,
    values: Option<String>,
}

/// The `Verify` link of a server roll with a proof, if it has one.
pub fn verify_link(roll: &Roll) -> Option<Markup> {
    let href = crate::app::dice::verify_path(roll)?;
    Some(html! { a.verify href=(href) { "Verify" } })
}

/// The check of one roll, in words.
#[get("/dice/verify")]
pub async fn verify_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<VerifyQuery>,
) -> Result<HttpResponse, PageError> {
    let user = session::signed_in(&req, &state).await?;
    let q = query.into_inner();
    let values: Option<Vec<u8>> = q
        .values
        .as_deref()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    let (status, result) = match (&q.seed, &q.dice, &values) {
        (Some(seed), Some(dice), Some(values)) => {
            let seed_bytes = fad_domain::fair_dice::parse_seed(seed).ok();
            let sha256 = seed_bytes
                .as_ref()
                .map(fad_domain::fair_dice::commitment_of)
                .unwrap_or_default();
            let request = VerifyRequest {
                seed: seed.clone(),
                client_seed: q.client_seed.clone(),
                sha256: if sha256.is_empty() {
                    "0".repeat(64)
                } else {
                    sha256.clone()
                },
                dice: vec![dice.clone()],
                values: vec![values.clone()],
                first_die: q.first_die.unwrap_or(0),
            };
            match verify(&request) {
                Ok(answer) => (StatusCode::OK, Ok((sha256, answer))),
                Err(ApiError::Validation(errors)) => (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Err(errors.into_iter().map(|e| e.message).collect::<Vec<_>>()),
                ),
                Err(other) => return Err(other.into()),
            }
        }
        _ => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Err(vec![
                "Open this page from a Verify link beside a roll the server made.".to_owned(),
            ]),
        ),
    };
    let body = html! {
        h1 { "Verify a roll" }
        @match &result {
            Ok((sha256, answer)) => {
                @if answer.values_match {
                    p.ok { "The seed gives exactly the logged dice: "
                        strong { (join(&answer.values[0])) } "." }
                } @else {
                    p.error { "The seed does not give the logged dice: it gives "
                        strong { (join(&answer.values[0])) } ", the log shows "
                        strong { (values.as_deref().map(join).unwrap_or_default()) } "." }
                }
                p { "The seed's SHA-256 is " code.seed { (sha256) } ". Compare it with the "
                    "commitment the service showed before the roll: if they are the same, the "
                    "service chose the seed before it knew what would be rolled." }
                dl {
                    dt { "Seed" } dd { code.seed { (q.seed.as_deref().unwrap_or_default()) } }
                    @if let Some(c) = &q.client_seed { dt { "Your words mixed in" } dd { (c) } }
                    dt { "Dice" } dd { (q.dice.as_deref().unwrap_or_default()) ", starting at die " (q.first_die.unwrap_or(0)) " of the seed" }
                }
                p { "How to check it without this service: " a href="/rules#dice" { "the rules reference" } "." }
            }
            Err(messages) => {
                @for m in messages { p.error { (m) } }
                p { a href="/rules#dice" { "How server dice are made verifiable" } }
            }
        }
    };
    Ok(respond(
        status,
        layout::page(&state, user.as_ref(), "Verify a roll", body),
    ))
}

fn join(values: &[u8]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
