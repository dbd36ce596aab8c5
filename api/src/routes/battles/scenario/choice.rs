//! `POST /api/v1/battles/{battle_id}/scenario/mission-choice`: a side whose highest mission
//! totals tie picks one of the tied missions (docs/rules.md §3.5, S9; no re-roll). Once every side's
//! mission is settled the service assigns missions (Escalating Engagement when both are the
//! same, S10), grants the bonuses (S12) and runs step 6.
//! See [`crate::app::battles::scenario::choice`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::scenario::choice as app;
use crate::app::battles::scenario::choice::MissionChoiceRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::BattleScenarioResponse;

/// Picks one of a side's tied missions. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_mission_choice",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = MissionChoiceRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No mission choice is open for this side, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not one of the tied missions, invalid dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/mission-choice")]
pub async fn submit_mission_choice(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: MissionChoiceRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/scenario/mission-choice");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::submit_mission_choice(&state, &user, battle_id, request, write).await?)
}
