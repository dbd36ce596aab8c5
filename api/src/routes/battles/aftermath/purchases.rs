//! `POST /api/v1/battles/{battle_id}/aftermath/{force_id}/purchases`: the experience menu
//! (docs/rules.md §2.2, C11–C14). Redoable until `finalize`; each call replaces the list. Extra
//! reinforcement dice join the pool; dice already rolled are kept, only new ones are rolled.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::campaign::Purchase;
use fad_domain::dice::RollStep;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::store::aftermath as rows;

use super::super::{idempotency_key, idempotent, problems, to_value};
use super::{
    AftermathResponse, RawDice, begin, dice_errors, merge_unused, refuse_surplus, response_with,
    save, scope, table_dice,
};

/// The purchases (API.md).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PurchasesRequest {
    /// `[{item, unit_id?, personality?, trait?}]`, `item` one of `improve_quality`,
    /// `improve_resolve`, `extra_reinforcement_die`, `return_lone_figure`,
    /// `repair_vehicle`, `grant_personality`, `improve_leadership`, `replace_vehicle`,
    /// `assign_trait`.
    #[schema(value_type = Vec<Purchase>)]
    pub purchases: Vec<Value>,
    /// Entered dice: `reinforcements_extra` (by force id), `quality_loss` for a replaced
    /// vehicle (by unit id).
    #[serde(default)]
    pub dice: Option<RawDice>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Parsed {
    purchases: Vec<Purchase>,
    #[serde(default)]
    dice: Option<RawDice>,
}

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
    let mut dice = table_dice(request.dice.as_ref())?;
    let caller = user.caller();
    let scope = scope(&battle_id, &force_id, "purchases");
    idempotent(&state, &user.user_id, scope, key, &body, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let mut aftermath = step.rolled()?;
        let roster = aftermath.after_rolls.clone();
        dice.check_subjects(|s, subject| match s {
            RollStep::ReinforcementsExtra => subject == force_id,
            RollStep::QualityLoss => roster.unit(subject).is_some(),
            _ => false,
        })
        .map_err(dice_errors)?;
        aftermath
            .purchase(request.purchases, &mut dice)
            .map_err(problems)?;
        refuse_surplus(&dice)?;
        let unused = dice.unused();
        merge_unused(&mut aftermath.unused_dice, unused.clone());
        let row = save(conn, &step.row, rows::ROLLED, &aftermath, None)?;
        let rolls = dice.take_log();
        let answer = response_with(&row, Some(&aftermath), None, rolls, unused)?;
        Ok((StatusCode::OK, to_value(&answer)?))
    })
    .await
}
