//! `GET /api/v1/battles/{battle_id}`: state, sides, the scenario as the caller may see it,
//! result and each side's aftermath stage.

use actix_web::{get, web};

use crate::AppState;
use crate::auth::{Caller, Need};
use crate::error::{ApiError, Problem};
use crate::store::{aftermath as rows, battle_scenarios};
use fad_domain::scenario::Viewer;

use super::{BattleResponse, authorize_battle, scenario};

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
    let battle_id = path.into_inner();
    let battle = state
        .db
        .read(move |conn| {
            let (battle, _) = authorize_battle(conn, &caller, &battle_id, Need::Read)?;
            let aftermaths = rows::list_for_battle(conn, &battle.id)?;
            let mut response = BattleResponse::new(battle, &aftermaths)?;
            let mut everything = false;
            if battle_scenarios::find(conn, &battle_id)?.is_some() {
                let seen = scenario::read::seen_by(conn, &caller, &battle_id, None)?;
                // Shown once something this caller sees has happened (a stored row alone
                // would betray the other side's first secret choice).
                if seen.version > 0 {
                    response.scenario = Some(seen.doc.scenario.view_for(seen.viewer));
                }
                everything = seen.viewer == Viewer::Everything;
            }
            if !everything {
                response.hide_non_player_choices();
            }
            super::names::name_sides(conn, std::slice::from_mut(&mut response))?;
            Ok(response)
        })
        .await?;
    Ok(web::Json(battle))
}
