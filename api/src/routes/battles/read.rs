//! `GET /api/v1/battles/{battle_id}`: state, sides, the scenario as the caller may see it,
//! result and each side's aftermath stage.

use actix_web::{get, web};

use crate::AppState;
use crate::app::battles::reads as app;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

use super::BattleResponse;

/// Reads a battle. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_battle",
    security(("bearer" = []), ("api_key" = [])),
    params(("battle_id" = String, Path, description = "The battle id")),
    responses(
        (status = 200, description = "The battle", body = BattleResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/battles/{battle_id}")]
pub async fn get_battle(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<BattleResponse>, ApiError> {
    let battle = app::read_battle(&state, caller, path.into_inner()).await?;
    Ok(web::Json(battle))
}
