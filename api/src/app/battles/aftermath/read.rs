//! Reading one force's post-battle sequence with the choices still open (pool size, points
//! available, what each unit may receive) and the whole roll log.

use fad_domain::lifecycle::AftermathStage;

use crate::AppState;
use crate::auth::{Caller, Need};
use crate::error::ApiError;
use crate::store::{aftermath as rows, battles};
use fad_domain::campaign::Aftermath;
use fad_domain::house_rules::HouseRules;
use fad_domain::rulesets::Ruleset;

use super::super::{authorize_battle, problems};
use super::roll::report_for;
use super::{AftermathResponse, response};

/// The state an open sequence starts from, for its first step's dice. The house rules and the
/// bank do not change which rolls are due, so the defaults serve; the ruleset's tables explain
/// the faces.
fn preview(
    row: &rows::AftermathRow,
    battle: &battles::Battle,
    ruleset: &Ruleset,
) -> Result<Aftermath, ApiError> {
    let report = report_for(battle, &row.force_id)?;
    Aftermath::start(
        &row.force_id,
        &row.battle_start,
        &report,
        0,
        &HouseRules::default(),
        ruleset,
    )
    .map_err(problems)
}

/// One force's post-battle sequence, with the dice its next roll step needs (before the first
/// roll too). Members and the campaign's integration keys may read it.
pub async fn read_aftermath(
    state: &AppState,
    caller: Caller,
    battle_id: String,
    force_id: String,
) -> Result<AftermathResponse, ApiError> {
    let scope = crate::app::dice::aftermath_scope(&battle_id, &force_id);
    let read_scope = scope.clone();
    let mut answer = state
        .db
        .read(move |conn| {
            let (battle, _) = authorize_battle(conn, &caller, &battle_id, Need::Read)?;
            let row = rows::find(conn, &battle_id, &force_id)?.ok_or_else(|| {
                ApiError::NotFound(
                    "That force has no post-battle sequence in this battle.".to_owned(),
                )
            })?;
            let settings = crate::store::campaigns::find_by_id(conn, &battle.campaign_id)?
                .ok_or_else(|| ApiError::not_found("battle"))?
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))?;
            let ruleset = crate::app::rulesets::load(conn, &settings.ruleset)?;
            let preview = match row.stage {
                AftermathStage::Open => Some(preview(&row, &battle, &ruleset)?),
                _ => None,
            };
            let mut answer =
                response(&super::with_current_bank(conn, row)?, preview.as_ref())?.under(&ruleset);
            if answer.stage != AftermathStage::Finalized {
                answer.dice_commitment = crate::app::dice::open_commitment(conn, &read_scope)?;
            }
            Ok(answer)
        })
        .await?;
    if answer.stage != AftermathStage::Finalized && answer.dice_commitment.is_none() {
        // The first read of a sequence offers its first commitment (once: later rolls offer
        // the next one in their own transaction).
        let row = state
            .db
            .write_one(move |conn| crate::app::dice::open_or_issue(conn, &scope))
            .await?;
        answer.dice_commitment = Some((&row).into());
    }
    Ok(answer)
}
