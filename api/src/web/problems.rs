//! `/problems` and `/problems/{kind}`: what each `type` of an error answer means (every
//! problem+json body names one of these pages), for the programmers of clients, public.

use actix_web::{HttpRequest, HttpResponse, get, web};
use maud::{Markup, html};

use crate::AppState;
use crate::error::{ApiError, PROBLEM_KINDS, ProblemKind};

use crate::web::accounts::session;
use crate::web::layout;

fn kind_markup(kind: &ProblemKind) -> Markup {
    html! {
        p { "HTTP status " strong { (kind.status) } "." }
        p { (kind.meaning) }
        p { strong { "What to do: " } (kind.what_to_do) }
    }
}

/// `GET /problems`: every kind.
#[get("/problems")]
pub async fn problems_index(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, crate::web::PageError> {
    let user = session::signed_in(&req, &state).await?;
    let body = html! {
        h1 { "Error answers" }
        p { "Every error of the API is a problem document (RFC 9457) whose " code { "type" }
            " names one of these pages; " code { "detail" } " says what went wrong with that request." }
        ul.cards {
            @for kind in &PROBLEM_KINDS {
                li {
                    h2 { a href={ "/problems/" (kind.slug) } { (kind.title) } }
                    (kind_markup(kind))
                }
            }
        }
    };
    Ok(crate::web::respond(
        actix_web::http::StatusCode::OK,
        layout::page(&state, user.as_ref(), "Error answers", body),
    ))
}

/// `GET /problems/{kind}`: one kind.
#[get("/problems/{kind}")]
pub async fn problem_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, crate::web::PageError> {
    let slug = path.into_inner();
    let kind = PROBLEM_KINDS
        .iter()
        .find(|k| k.slug == slug)
        .ok_or_else(|| ApiError::NotFound("No such kind of problem.".to_owned()))?;
    let user = session::signed_in(&req, &state).await?;
    let body = html! {
        h1 { (kind.title) }
        (kind_markup(kind))
        p { a href="/problems" { "Every kind of error answer" } }
    };
    Ok(crate::web::respond(
        actix_web::http::StatusCode::OK,
        layout::page(&state, user.as_ref(), kind.title, body),
    ))
}
