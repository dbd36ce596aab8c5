//! `POST /api/v1/battles/{battle_id}/scenario/assault-target`: a side whose mission is Assault
//! declares which of its two far objectives is the target (docs/rules.md §3.10 Assault, S11). Once,
//! any time after missions are assigned while the battle has no result; it does not hold up the
//! steps. The target is as secret as the mission: the opponent, integration keys and the
//! battle's public views see neither until the rules reveal the mission.
//! See [`crate::app::battles::scenario::assault`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::scenario::assault as app;
use crate::app::battles::scenario::assault::AssaultTargetRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::BattleScenarioResponse;

/// Declares an Assault side's target objective (secret like the mission). Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "declare_scenario_assault_target",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = AssaultTargetRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with `assault_target` set and only the target among its objectives' `needed_by`", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The side's mission is not (yet) Assault, the target is already declared, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not one of the side's far objectives, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/assault-target")]
pub async fn declare_assault_target(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: AssaultTargetRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/scenario/assault-target");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::declare_assault_target(&state, &user, battle_id, request, write).await?)
}
