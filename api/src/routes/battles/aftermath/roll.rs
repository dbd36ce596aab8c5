//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/roll`: the rolls of the post-battle
//! sequence (docs/rules.md §2.1: replacements, vehicle replacements, quality loss, unknown Resolve
//! (§4.1), resolve change, the 2d6 reinforcement pool; and 2 × P campaign points), with entered
//! or server dice, one step per request in the order of the table or all that remain at once.
//! Each step is rolled once.
//! See [`crate::app::battles::aftermath::roll`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::aftermath::roll as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, parse_body, render};
use super::{AftermathResponse, DiceRequest, scope};

/// Makes the post-battle rolls for one force: the step named by `step` (which must be the
/// next one), or every step that remains. A step already rolled is 409 (with the same
/// `Idempotency-Key` and body: the first response again, nothing rolled). Bad entered dice,
/// including more values than a roll takes: 422 and nothing changes.
#[utoipa::path(
    tag = "battles",
    operation_id = "roll_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body(content = DiceRequest, description = "Optional `step` (the next roll step; absent: all that remain) and entered dice: replacement, vehicle_replacement, quality_loss, unknown_resolve, resolve_change (by unit id), reinforcements (by force id); `next_dice` of the sequence lists what the next step rolls"),
    responses(
        (status = 200, description = "The sequence after the rolls, with this request's rolls and the next step's dice", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The step is already rolled or is not the next one, every roll is made, the result is not confirmed, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown step; entered dice out of range, of the wrong count, or for an unknown step or subject or another step than the one rolled; or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/aftermath/{force_id}/roll")]
pub async fn roll_aftermath(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: DiceRequest = parse_body(&body)?;
    let scope = scope(&battle_id, &force_id, "roll");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::roll_aftermath(&state, &user, battle_id, force_id, request, write).await?)
}
