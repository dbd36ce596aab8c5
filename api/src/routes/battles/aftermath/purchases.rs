//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/purchases`: the experience menu
//! (docs/rules.md §2.2, C11–C14). Redoable until `finalize`; each call replaces the list. Extra
//! reinforcement dice join the pool; dice already rolled are kept, only new ones are rolled.
//! See [`crate::app::battles::aftermath::purchases`].

use actix_web::{HttpRequest, HttpResponse, post, web};

use crate::AppState;
use crate::app::battles::aftermath::purchases as app;
use crate::app::idempotency::Write;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::{idempotency_key, render};
use crate::app::battles::aftermath::purchases::{Parsed, PurchasesRequest};

use super::{AftermathResponse, scope};

/// Sets the purchases.
#[utoipa::path(
    tag = "battles",
    operation_id = "purchase_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body = PurchasesRequest,
    responses(
        (status = 200, description = "The sequence with the new purchases and any new rolls", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not rolled yet, finalized, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Over the campaign points, a limit, an item the unit cannot take, bad entered dice; or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/aftermath/{force_id}/purchases")]
pub async fn purchase_aftermath(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    let key = idempotency_key(&req)?;
    let request: Parsed = crate::extract::parse_json(&body)?;
    let scope = scope(&battle_id, &force_id, "purchases");
    let write = Write::new(&user.user_id, scope, key, &body);
    render(&app::purchase_aftermath(&state, &user, battle_id, force_id, request, write).await?)
}
