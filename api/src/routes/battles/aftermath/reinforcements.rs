//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/reinforcements`: how the pool is
//! spent (docs/rules.md C9, C10: up to each unit's establishment; an optional new squad of 5–8).
//! Redoable until `finalize`; each call replaces the allocation.
//! See [`crate::app::battles::aftermath::reinforcements`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::aftermath::reinforcements as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use fad_domain::campaign::ReinforcementChoice;

use super::{AftermathResponse, scope};

/// Sets the reinforcement allocation.
#[utoipa::path(
    tag = "battles",
    operation_id = "reinforce_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body = ReinforcementChoice,
    responses(
        (status = 200, description = "The sequence with the new allocation", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not rolled yet, finalized, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Over the pool or an establishment, a unit that cannot take troopers, a new squad outside 5–8; or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/aftermath/{force_id}/reinforcements")]
pub async fn reinforce_aftermath(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    let key = idempotency_key(&req)?;
    let choice: ReinforcementChoice = crate::extract::parse_json(&body)?;
    let scope = scope(&battle_id, &force_id, "reinforcements");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::reinforce_aftermath(&state, &user, battle_id, force_id, choice, write).await?)
}
