//! The rolls of the post-battle sequence (docs/rules.md §2.1: replacements, vehicle replacements,
//! quality loss, unknown Resolve (§4.1), resolve change, the 2d6 reinforcement pool; and 2 × P
//! campaign points), with entered or server dice, one step per request in the order of the table or
//! all that remain at once. Each step is rolled once.

use crate::app::idempotency::{self, Answer, Write};
use actix_web::http::StatusCode;
use fad_domain::campaign::VehicleDamage;
use fad_domain::campaign::{Aftermath, BattleReport, ROLL_STEPS, UnitLosses, roll_subject_allowed};
use fad_domain::dice::RollStep;
use fad_domain::lifecycle::AftermathStage;
use fad_domain::names::Named;
use fad_domain::roster::Force as Roster;

use crate::AppState;
use crate::app::dice::{History, after_roll, aftermath_scope, check_client_seed, seed_for_roll};
use crate::auth::AuthUser;
use crate::error::{ApiError, FieldError};
use crate::store::aftermath::AfterRolls;
use crate::store::events::Event;
use crate::store::{self, battles};

use super::super::{BattleResult, problems};
use super::{
    AftermathResponse, DiceRequest, RawDice, begin, dice_errors, merge_unused, refuse_surplus,
    response_with, save, saved_state, table_dice,
};

/// This force's lines of the recorded result.
pub fn report_for(battle: &battles::Battle, force_id: &str) -> Result<BattleReport, ApiError> {
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

/// Which roll step a request names, checked against the sequence's steps.
fn requested_step(step: Option<&str>) -> Result<Option<RollStep>, ApiError> {
    let Some(name) = step else { return Ok(None) };
    let accepted = || {
        ROLL_STEPS
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match RollStep::parse(name) {
        Ok(step) if ROLL_STEPS.contains(&step) => Ok(Some(step)),
        _ => Err(ApiError::Validation(vec![FieldError::new(
            "step",
            format!(
                "not a roll step of the post-battle sequence; the steps, in order: {}",
                accepted()
            ),
        )])),
    }
}

/// Refuses entered dice for steps this request does not roll: another step than the one named,
/// a step already rolled, or a step that is not a post-battle roll.
fn check_entered_steps(
    raw: Option<&RawDice>,
    requested: Option<RollStep>,
    aftermath: &Aftermath,
) -> Result<(), ApiError> {
    let mut errors = Vec::new();
    for name in raw.into_iter().flat_map(|d| d.keys()) {
        let Ok(step) = RollStep::parse(name) else {
            continue; // `table_dice` already refused unknown step names.
        };
        let message = if !ROLL_STEPS.contains(&step) {
            "Not a roll of the post-battle sequence".to_owned()
        } else if requested.is_some_and(|r| r != step) {
            format!(
                "This request rolls the {} step only; enter these dice when that step is rolled",
                requested.map(|r| r.words()).unwrap_or_default()
            )
        } else if aftermath.step_done(step) {
            format!(
                "{} is already rolled (or needed no dice); dice are never rolled twice",
                step.title()
            )
        } else {
            continue;
        };
        errors.push(FieldError::new(format!("dice.{name}"), message));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// Makes the post-battle rolls for one force: the step named by `step` (which must be the
/// next one), or every step that remains. A step already rolled is 409 (with the same
/// `Idempotency-Key` and body: the first response again, nothing rolled). Bad entered dice,
/// including more values than a roll takes: 422 and nothing changes.
pub async fn roll_aftermath(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    force_id: String,
    request: DiceRequest,
    write: Write,
) -> Result<Answer<AftermathResponse>, ApiError> {
    let requested = requested_step(request.step.as_deref())?;
    let mut dice = table_dice(request.dice.as_ref())?;
    check_client_seed(request.client_seed.as_deref())?;
    let caller = user.caller();
    idempotency::run(state, write, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let scope = aftermath_scope(&battle_id, &force_id);
        let start: Roster = step.row.battle_start.clone();
        let mut aftermath = match step.row.stage {
            AftermathStage::Open => {
                let report = report_for(&step.battle, &force_id)?;
                Aftermath::start(&force_id, &start, &report, step.balance(), &step.rules, &step.ruleset)
                    .map_err(problems)?
            }
            AftermathStage::Rolling => step.take_state()?,
            _ => {
                return Err(ApiError::Conflict(
                    "The post-battle rolls for this force are already made; dice are never rolled twice."
                        .to_owned(),
                ));
            }
        };
        if let Some(wanted) = requested {
            match aftermath.next_step() {
                _ if aftermath.step_done(wanted) => {
                    return Err(ApiError::Conflict(format!(
                        "{} is already rolled (or needed no dice); dice are never rolled twice.",
                        wanted.title()
                    )));
                }
                Some(next) if next != wanted => {
                    return Err(ApiError::Conflict(format!(
                        "Roll {} first: the post-battle rolls go in the order of the table.",
                        next.words()
                    )));
                }
                _ => {}
            }
        }
        check_entered_steps(request.dice.as_ref(), requested, &aftermath)?;
        dice.check_subjects(|s, subject| roll_subject_allowed(&force_id, &start, s, subject))
            .map_err(dice_errors)?;
        let seed = seed_for_roll(conn, &scope, request.client_seed.as_deref())?;
        dice.use_committed(seed.clone());
        let done_before: Vec<bool> = ROLL_STEPS.iter().map(|s| aftermath.step_done(*s)).collect();
        match requested {
            Some(wanted) => aftermath.roll_step(wanted, &mut dice),
            None => aftermath.roll_remaining(&mut dice),
        }
        .map_err(problems)?;
        refuse_surplus(&dice)?;
        let unused = dice.unused();
        merge_unused(&mut aftermath.unused_dice, unused.clone());
        let stage = if aftermath.fully_rolled() {
            AftermathStage::Rolled
        } else {
            AftermathStage::Rolling
        };
        save(conn, &mut step, stage, aftermath, None, AfterRolls::Changed, None)?;
        let aftermath = saved_state(&step.row)?;
        let last_rolled = ROLL_STEPS
            .iter()
            .zip(&done_before)
            .filter(|(s, before)| !**before && aftermath.step_done(**s))
            .map(|(s, _)| *s)
            .next_back();
        // The step asked for, or the last of all that remained.
        if let Some(rolled) = last_rolled.map(|last| requested.unwrap_or(last)) {
            let event = Event::aftermath_step_rolled(
                &step.battle.campaign_id,
                &battle_id,
                &force_id,
                rolled,
            );
            store::events::append(conn, &event)?;
        }
        let commitment = after_roll(conn, &scope, &seed, dice.used_commitment(), History::Drop)?;
        let rolls = dice.take_log();
        let mut answer =
            response_with(&step.row, Some(aftermath), None, rolls, unused)?.under(&step.ruleset);
        answer.dice_commitment = Some(commitment);
        Ok((StatusCode::OK, answer))
    })
    .await
}
