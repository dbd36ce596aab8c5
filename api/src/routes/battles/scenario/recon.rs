//! `POST /api/v1/battles/{battle_id}/scenario/recon-actions`: step 7, spending recon points
//! (docs/rules.md §3.7, S16–S18, S28). On its turn a side plays `move` (up to two friendly markers,
//! 6" each) or `reveal` (one enemy marker), or `pass`es; when the opponent spends an RP the
//! service asks the other side (`recon_prompt: "block"`) to `block` (1d6, 4+; a successful
//! Block can itself be blocked) or `pass`. A non-player side blocks automatically (S28). The
//! step ends when both pass in a row or have no RP left; then the service reveals the forces
//! and rolls the pre-battle events (§3.8, §3.11), and the scenario is `ready`.
//! See [`crate::app::battles::scenario::recon`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::scenario::recon as app;
use crate::app::battles::scenario::recon::ReconActionRequest;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::BattleScenarioResponse;

/// Plays one recon action (a turn, or the answer to a Block prompt). Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "submit_scenario_recon_action",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = ReconActionRequest,
    responses(
        (status = 200, description = "The scenario as the side sees it, with this request's rolls", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller may not act for that force", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not the recon step, not this side's turn or prompt, the battle has a result, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid action or dice, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/recon-actions")]
pub async fn submit_recon_action(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: ReconActionRequest = crate::extract::parse_json(&body)?;
    let scope = format!("POST /api/v1/battles/{battle_id}/scenario/recon-actions");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::submit_recon_action(&state, &user, battle_id, request, write).await?)
}
