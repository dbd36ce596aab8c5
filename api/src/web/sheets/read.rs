//! `GET /scenarios/{scenario_id}` (its creator, with a Bearer token or a browser session; or
//! anyone for a scenario generated signed out, until it expires) and
//! `GET /scenarios/shared/{token}` (a share-link holder): the printable sheet.

use actix_web::http::header::{self, HeaderMap};
use actix_web::{HttpRequest, HttpResponse, ResponseError, get, web};

use crate::AppState;
use crate::app::scenarios::{self as app, ScenarioRecord};
use crate::auth::Caller;
use crate::auth::caller::{key_refused, resolve};
use crate::auth::secret::hash_secret;
use crate::error::{ApiError, Problem};
use crate::routes::scenarios::ScenarioDocument;
use crate::store::scenarios::{self, ScenarioRow};
use crate::web::{PageError, accounts::session, scenarios::generator::sheet_panel};

use super::{html, page};

fn document(row: &ScenarioRow) -> Result<(ScenarioDocument, String), ApiError> {
    let doc = ScenarioDocument::of_row(row)?;
    let created = row
        .created_at
        .and_utc()
        .format("%Y-%m-%d %H:%M UTC")
        .to_string();
    Ok((doc, created))
}

/// The sheet a share link opens. It names no id: a scenario generated signed out is also
/// reachable by its id, and its link is handed to people who are not its creator.
fn render(row: &ScenarioRow) -> Result<HttpResponse, ApiError> {
    let (doc, created) = document(row)?;
    Ok(html(page::render_shared(&created, &doc)))
}

/// Whether the request carries API credentials (then it is answered as the API answers).
fn has_credentials(headers: &HeaderMap) -> bool {
    headers.contains_key(header::AUTHORIZATION) || headers.contains_key("x-api-key")
}

/// Who reads the sheet: a person's id from the credentials or the browser session, or nobody.
async fn viewer(req: &HttpRequest, state: &AppState) -> Result<Option<Viewer>, ApiError> {
    if has_credentials(req.headers()) {
        return match resolve(state, req.headers()).await? {
            Caller::User { user_id } => Ok(Some(Viewer::Bearer(user_id))),
            Caller::ApiKey { .. } => Err(key_refused()),
        };
    }
    Ok(session::signed_in(req, state).await?.map(Viewer::Session))
}

enum Viewer {
    Bearer(String),
    Session(crate::app::accounts::SessionUser),
}

async fn sheet(req: &HttpRequest, state: &AppState, id: &str) -> Result<HttpResponse, ApiError> {
    let viewer = viewer(req, state).await?;
    let user_id = viewer.as_ref().map(|v| match v {
        Viewer::Bearer(id) => id.as_str(),
        Viewer::Session(user) => user.user_id.as_str(),
    });
    let record: ScenarioRecord = app::read_sheet(state, user_id, id).await?;
    let (doc, created) = document(&record.row)?;
    let session = match &viewer {
        Some(Viewer::Session(user)) => Some(user),
        _ => None,
    };
    let panel = sheet_panel(req, state, &record, session);
    // Its creator also runs a non-player side here (solo play).
    let solo = match session {
        Some(user) if record.row.created_by.as_deref() == Some(user.user_id.as_str()) => {
            crate::web::battles::solo::scenario_panel(state, user, id, None)
                .await
                .map_err(|e| match e {
                    PageError::Api(e) => e,
                    other => ApiError::Internal(anyhow::anyhow!("{other:?}")),
                })?
        }
        _ => None,
    };
    let panel = maud::html! { (panel) @if let Some(solo) = solo { (solo) } };
    Ok(super::html_with_forms(page::render_with_panel(
        &record.row.id,
        &created,
        &doc,
        Some(panel),
    )))
}

/// The printable sheet of a scenario the caller generated, or of one generated signed out.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_scenario_sheet",
    security((), ("bearer" = [])),
    params(("scenario_id" = String, Path, description = "The scenario id")),
    responses(
        (status = 200, description = "The printable sheet, with its share link (and, for a scenario generated signed out, when it expires)", body = String, content_type = "text/html"),
        (status = 401, description = "Invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read one-shot scenarios", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, another user's, or one generated signed out that has expired (an HTML page for browsers, which send no credentials)", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/{scenario_id}")]
pub async fn get_sheet(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> HttpResponse {
    match sheet(&req, &state, &path).await {
        Ok(response) => response,
        // A program (with credentials) gets problem+json; a browser a page.
        Err(error) if has_credentials(req.headers()) => error.error_response(),
        Err(error) => PageError::Api(error).error_response(),
    }
}

/// The printable sheet through a share link (no credentials needed).
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_shared_scenario_sheet",
    params(("token" = String, Path, description = "The share token from `share_url`")),
    responses(
        (status = 200, description = "The printable sheet", body = String, content_type = "text/html"),
        (status = 404, description = "No scenario is shared with this token", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/shared/{token}")]
pub async fn get_shared_sheet(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let hash = hash_secret(&path.into_inner());
    let row = state
        .db
        .run(move |conn| {
            scenarios::find_by_share_hash(conn, &hash)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await?;
    render(&row)
}

/// One side's printable sheet of a one-shot scenario: that side's secrets, and of the other
/// side only what the rules reveal (no credentials needed; the token is the link).
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_scenario_side_sheet",
    params(("token" = String, Path, description = "The token at the end of a `side_sheet_urls` link")),
    responses(
        (status = 200, description = "The printable sheet as that side sees it", body = String, content_type = "text/html"),
        (status = 404, description = "No scenario has a side sheet with this token (or it has expired)", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/side/{token}")]
pub async fn get_side_sheet(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (row, side) = app::read_side_sheet(&state, &path.into_inner()).await?;
    let (doc, created) = document(&row)?;
    Ok(html(page::render_side(&created, &doc, side)))
}
