//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/finalize`: commits one force's
//! post-battle sequence (docs/rules.md §2; C12 ledger), in one transaction: the new roster through
//! the forces store (version-checked, one history entry with cause `battle` and the whole roll
//! log), the ledger entries (earned 2 × P, spent per purchase, forfeited when banking is off),
//! and the finalized stage. The battle is `complete` once every player side has finalized.
//! See [`crate::app::battles::aftermath::finalize`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::aftermath::finalize as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use super::{AftermathResponse, scope};

/// Finalizes one force's post-battle sequence. Two concurrent finalizes: exactly one succeeds,
/// the other gets 409.
#[utoipa::path(
    tag = "battles",
    operation_id = "finalize_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body(content = Option<app::FinalizeRequest>, description = "Empty, `{}`, or `{\"forgo_reinforcements\": true}` to give up unassigned reinforcement troopers", example = json!({"forgo_reinforcements": true})),
    responses(
        (status = 200, description = "The committed sequence", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not rolled yet, already finalized, the force changed since the result was recorded, not enough campaign points, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Reinforcement troopers are not assigned and `forgo_reinforcements` is not true (the problem names them), or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/aftermath/{force_id}/finalize")]
pub async fn finalize_aftermath(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    let key = idempotency_key(&req)?;
    // An empty body stays valid: it finalizes when nothing is left unassigned.
    let request: app::FinalizeRequest = if body.iter().all(u8::is_ascii_whitespace) {
        app::FinalizeRequest::default()
    } else {
        crate::extract::parse_json(&body)?
    };
    let scope = scope(&battle_id, &force_id, "finalize");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::finalize_aftermath(&state, &user, battle_id, force_id, request, write).await?)
}
