//! The experience menu (docs/rules.md §2.2, C11–C14). Redoable until `finalize`; each call replaces
//! the list. Extra reinforcement dice join the pool; dice already rolled are kept, only new ones
//! are rolled.

use crate::app::idempotency::{self, Answer, Write};
use actix_web::http::StatusCode;
use fad_domain::campaign::Purchase;
use fad_domain::dice::RollStep;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::dice::{History, after_roll, aftermath_scope, check_client_seed, seed_for_roll};
use crate::auth::AuthUser;
use crate::error::ApiError;

use super::super::problems;
use super::{
    AftermathResponse, RawDice, begin, dice_errors, merge_unused, refuse_surplus, response_with,
    save_choice, saved_state, table_dice,
};

/// The purchases.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"purchases": [{"item": "improve_resolve", "unit_id": "{unit_id}"}]}))]
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
    /// Text mixed into the committed seed of the server dice (1–128 characters).
    #[serde(default)]
    pub client_seed: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parsed {
    pub purchases: Vec<Purchase>,
    #[serde(default)]
    pub dice: Option<RawDice>,
    #[serde(default)]
    pub client_seed: Option<String>,
}

/// Sets the purchases.
pub async fn purchase_aftermath(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    force_id: String,
    request: Parsed,
    write: Write,
) -> Result<Answer<AftermathResponse>, ApiError> {
    let mut dice = table_dice(request.dice.as_ref())?;
    check_client_seed(request.client_seed.as_deref())?;
    let caller = user.caller();
    idempotency::run(state, write, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let mut aftermath = step.rolled()?;
        let scope = aftermath_scope(&battle_id, &force_id);
        let seed = seed_for_roll(conn, &scope, request.client_seed.as_deref())?;
        dice.use_committed(seed.clone());
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
        save_choice(conn, &mut step, aftermath)?;
        let commitment = after_roll(conn, &scope, &seed, dice.used_commitment(), History::Drop)?;
        let rolls = dice.take_log();
        let mut answer = response_with(
            &step.row,
            Some(saved_state(&step.row)?),
            None,
            rolls,
            unused,
        )?
        .under(&step.ruleset);
        answer.dice_commitment = Some(commitment);
        Ok((StatusCode::OK, answer))
    })
    .await
}
