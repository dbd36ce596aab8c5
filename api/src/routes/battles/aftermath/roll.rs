//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/roll`: steps 1–6 of the post-battle
//! sequence (RULES.md §2.1: replacements, vehicle replacements, quality loss, resolve change,
//! the 2d6 reinforcement pool, 2 × P campaign points), with entered or server dice. Runs once.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::campaign::VehicleDamage;
use fad_domain::campaign::{Aftermath, BattleReport, UnitLosses, roll_subject_allowed};
use fad_domain::names::Named;
use fad_domain::roster::Force as Roster;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::store::{aftermath as rows, battles};

use super::super::{BattleResult, idempotency_key, idempotent, parse_body, problems, to_value};
use super::{
    AftermathResponse, DiceRequest, begin, dice_errors, response_with, save, scope, table_dice,
};

/// This force's lines of the recorded result.
fn report_for(battle: &battles::Battle, force_id: &str) -> Result<BattleReport, ApiError> {
    let result: BattleResult = battle
        .result
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| ApiError::Internal(e.into()))?
        .ok_or_else(|| ApiError::Conflict("No result is recorded.".to_owned()))?;
    Ok(BattleReport {
        losses: result
            .losses
            .into_iter()
            .filter(|l| l.force_id == force_id)
            .map(|l| UnitLosses {
                unit_id: l.unit_id,
                figures_lost: l.figures_lost,
                eliminated: l.eliminated,
                vehicle_damage: l.vehicle_damage.and_then(|v| VehicleDamage::parse(&v).ok()),
                destroyed_on_recon: l.destroyed_on_recon,
            })
            .collect(),
    })
}

/// Makes the post-battle rolls for one force. A second `roll` is 409 (with the same
/// `Idempotency-Key` and body: the first response again, nothing rolled). Bad entered dice:
/// 422 and nothing changes.
#[utoipa::path(
    tag = "battles",
    operation_id = "roll_aftermath",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("force_id" = String, Path, description = "The force"),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first response for the same key and body"),
    ),
    request_body(content = DiceRequest, description = "Optional entered dice: replacement, vehicle_replacement, quality_loss, resolve_change (by unit id), reinforcements (by force id)"),
    responses(
        (status = 200, description = "The sequence after the rolls, with this request's rolls", body = AftermathResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the force's owner nor the organiser", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, the caller may not see it, or the force is not a player side", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already rolled, the result is not confirmed, or a concurrent step won", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Entered dice out of range, of the wrong count, or for an unknown step or subject; or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
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
    let mut dice = table_dice(request.dice.as_ref())?;
    let caller = user.caller();
    let scope = scope(&battle_id, &force_id, "roll");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let step = begin(conn, &caller, &battle_id, &force_id)?;
        if step.row.stage != rows::OPEN {
            return Err(ApiError::Conflict(
                "The post-battle rolls for this force are already made; dice are never rolled twice."
                    .to_owned(),
            ));
        }
        let start: Roster = serde_json::from_str(&step.row.battle_start)
            .map_err(|e| ApiError::Internal(e.into()))?;
        dice.check_subjects(|s, subject| roll_subject_allowed(&force_id, &start, s, subject))
            .map_err(dice_errors)?;
        let report = report_for(&step.battle, &force_id)?;
        let banked = step.balance();
        let aftermath = Aftermath::roll(&force_id, &start, &report, banked, &mut dice, &step.rules)
            .map_err(problems)?;
        let row = save(conn, &step.row, rows::ROLLED, &aftermath, None)?;
        let rolls = dice.take_log();
        let answer = response_with(&row, Some(&aftermath), None, rolls, dice.unused())?;
        Ok((StatusCode::OK, to_value(&answer)?))
    })
    .await
}
