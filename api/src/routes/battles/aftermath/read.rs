//! `GET /api/v1/battles/{battle_id}/aftermath/{force_id}`: one force's post-battle sequence;
//! see [`crate::app::battles::aftermath::read`].

use actix_web::{get, web};

use crate::AppState;
use crate::app::battles::aftermath::read as app;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

use super::AftermathResponse;

/// Reads one force's post-battle sequence, with the dice its next roll step needs (before the
/// first roll too). Members and the campaign's integration keys may
/// read it.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_aftermath",
    security(("bearer" = []), ("api_key" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
    ),
    responses(
        (status = 200, description = "The sequence", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force has no sequence in it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/battles/{battle_id}/aftermath/{force_id}")]
pub async fn get_aftermath(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<web::Json<AftermathResponse>, ApiError> {
    let (battle_id, force_id) = path.into_inner();
    Ok(web::Json(
        app::read_aftermath(&state, caller, battle_id, force_id).await?,
    ))
}
