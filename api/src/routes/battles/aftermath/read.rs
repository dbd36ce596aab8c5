//! `GET /api/v1/battles/{battle_id}/aftermath/{force_id}`: one force's post-battle sequence
//! with the choices still open (pool size, points available, what each unit may receive) and
//! the whole roll log.

use actix_web::{get, web};

use crate::AppState;
use crate::auth::{Caller, Need};
use crate::error::{ApiError, Problem};
use crate::store::{aftermath as rows, battles};
use fad_domain::campaign::Aftermath;
use fad_domain::house_rules::HouseRules;
use fad_domain::roster::Force as Roster;

use super::super::authorize_battle;
use super::roll::report_for;
use super::{AftermathResponse, response};

/// The state an open sequence starts from, for its first step's dice. The house rules and the
/// bank do not change which rolls are due, so the defaults serve.
fn preview(row: &rows::AftermathRow, battle: &battles::Battle) -> Result<Aftermath, ApiError> {
    let start: Roster =
        serde_json::from_str(&row.battle_start).map_err(|e| ApiError::Internal(e.into()))?;
    let report = report_for(battle, &row.force_id)?;
    Aftermath::start(&row.force_id, &start, &report, 0, &HouseRules::default())
        .map_err(super::super::problems)
}

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
    let out = state
        .db
        .read(move |conn| {
            let (battle, _) = authorize_battle(conn, &caller, &battle_id, Need::Read)?;
            let row = rows::find(conn, &battle_id, &force_id)?.ok_or_else(|| {
                ApiError::NotFound(
                    "That force has no post-battle sequence in this battle.".to_owned(),
                )
            })?;
            let preview = match row.stage.as_str() {
                rows::OPEN => Some(preview(&row, &battle)?),
                _ => None,
            };
            response(&super::with_current_bank(conn, row)?, preview.as_ref())
        })
        .await?;
    Ok(web::Json(out))
}
