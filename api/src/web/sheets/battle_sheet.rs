//! `GET /api/v1/battles/{battle_id}/scenario/sheet`: a battle's scenario as a printable sheet
//! for one side: the same page as the one-shot sheet
//! ([`super::page`]), showing only what the caller may see, exactly as
//! `GET .../scenario` (its own side in full, the other as far as the rules have revealed).

use actix_web::{HttpResponse, get, web};

use super::{html, page};
use crate::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};
use fad_domain::scenario::Viewer;

use crate::app::battles::scenario::read::{ScenarioQuery, Seen, scenario_seen};

/// The printable sheet of a battle's scenario, as the caller may see it.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_battle_scenario_sheet",
    security(("bearer" = []), ("api_key" = [])),
    params(("battle_id" = String, Path, description = "The battle id"), ScenarioQuery),
    responses(
        (status = 200, description = "The printable sheet", body = String, content_type = "text/html"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`force_id` names a side the caller does not act for", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`force_id` is not a side of this battle", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/battles/{battle_id}/scenario/sheet")]
pub async fn get_scenario_sheet(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<ScenarioQuery>,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let force_id = query.into_inner().force_id;
    let seen = scenario_seen(&state, caller, battle_id, force_id).await?;
    Ok(html(render(&seen)))
}

/// The sheet's HTML for what `seen` shows (also the page a side's share link opens).
pub fn render(seen: &Seen) -> String {
    let seen_by_name = match seen.viewer {
        Viewer::Side(i) => seen.doc.forces.get(i).map(|f| f.name.clone()),
        Viewer::Everything => Some("both sides".to_owned()),
        Viewer::Outsider => Some("an onlooker".to_owned()),
    };
    let created = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string();
    page::render_sheet(&page::Sheet {
        label: format!("scenario version {}", seen.version),
        created: &created,
        scenario: &seen.doc.scenario,
        viewer: seen.viewer,
        forces: &seen.doc.forces,
        narrative: None,
        rolls: &seen.doc.rolls,
        seen_by: seen_by_name,
    })
}
