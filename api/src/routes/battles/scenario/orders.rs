//! `POST /api/v1/battles/{battle_id}/scenario/orders`: a side's secret steps 1–3 (stance,
//! attitude, recon duty; docs/rules.md §3.1–§3.3, S4). Resubmitting before every player side has
//! given orders replaces the earlier orders; afterwards 409. When the last orders arrive the
//! service runs steps 3–4 (RP, the table-edge roll with re-rolled ties, deployment zones, field
//! defences, objectives) and the non-player side's automatic choices (§3.12).
//! See [`crate::app::battles::scenario::orders`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::scenario::orders as app;
use crate::app::battles::scenario::orders::OrdersRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::BattleScenarioResponse;

/// Submits (or replaces) a side's secret orders. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_orders",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = OrdersRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Orders are closed, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid orders, recon duty or dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/orders")]
pub async fn submit_orders(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: OrdersRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/scenario/orders");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::submit_orders(&state, &user, battle_id, request, write).await?)
}
