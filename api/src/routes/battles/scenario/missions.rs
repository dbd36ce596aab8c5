//! `POST /api/v1/battles/{battle_id}/scenario/mission-bonuses`: a side's optional +1 to two
//! different missions (docs/rules.md §3.5, S8), secret, after stances and attitudes are revealed.
//! When every player side has given its bonuses (`[]` for none) the service rolls 1d6 per
//! mission per side; a side whose top totals tie is then asked for a `mission-choice` (S9).
//! See [`crate::app::battles::scenario::missions`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::scenario::missions as app;
use crate::app::battles::scenario::missions::MissionBonusesRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::BattleScenarioResponse;

/// Submits (or replaces) a side's secret mission bonuses. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_mission_bonuses",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = MissionBonusesRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not the mission-bonus step, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid missions or dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/mission-bonuses")]
pub async fn submit_mission_bonuses(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: MissionBonusesRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/scenario/mission-bonuses");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::submit_mission_bonuses(&state, &user, battle_id, request, write).await?)
}
