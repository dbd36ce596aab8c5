//! `GET /api/v1/battles/{battle_id}/scenario`: the scenario as the caller may see it (docs/rules.md §3.0 "Secret?", S11): the sides it acts for in full, the rest as far as the rules
//! have revealed, with the roll log filtered the same way.
//! See [`crate::app::battles::scenario::read`].

use actix_web::{get, web};

use crate::AppState;
use crate::app::battles::scenario::read as app;
use crate::auth::Caller;
use crate::error::{ApiError, Problem};

pub use crate::app::battles::scenario::read::ScenarioQuery;

use super::BattleScenarioResponse;

/// Reads a battle's scenario. Members and the campaign's integration keys may read it; each
/// sees only what the rules have revealed to it.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_battle_scenario",
    security(("bearer" = []), ("api_key" = [])),
    params(("battle_id" = String, Path, description = "The battle id"), ScenarioQuery),
    responses(
        (status = 200, description = "The scenario as the caller may see it", body = BattleScenarioResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`force_id` names a side the caller does not act for", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`force_id` is not a side of this battle", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/battles/{battle_id}/scenario")]
pub async fn get_scenario(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<ScenarioQuery>,
) -> Result<web::Json<BattleScenarioResponse>, ApiError> {
    let force_id = query.into_inner().force_id;
    let response = app::read_scenario(&state, caller, path.into_inner(), force_id).await?;
    Ok(web::Json(response))
}
