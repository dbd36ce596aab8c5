//! Force generation by the marker draw for a campaign that plays `gzg-fma-1999` (docs/rules.md
//! §11, M10): each figure of each team draws its grade and Motivation from the pool, one logged
//! `marker_draw` roll each, server or entered dice; the force is stored like a generated FAD
//! force (its rolls in the first history entry, one transaction with the `Idempotency-Key`).

use std::sync::{Arc, Mutex};

use actix_web::http::StatusCode;
use fad_domain::dice::{Dice, DiceError, RollStep, TableDice, parse_steps};
use fad_domain::rulesets::ForceGeneration;
use fad_domain::rulesets::gzg_fma_1999::generation::{
    MarkerChoices, generate_by_markers, subject_allowed, validate_choices,
};
use fad_domain::rulesets::gzg_fma_1999::validate_fma;

use super::generate::{GenerateForceResponse, GenerationDice, RequestCommitment};
use crate::AppState;
use crate::app::authorization::{Need, campaign_access, person};
use crate::app::forces::response::ForceResponse;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::store::events::{self, Event};
use crate::store::{self, forces, history::HistoryCause};

/// Draws a force by markers and stores it. Bad choices or entered dice get 422 and nothing is
/// rolled or stored; a campaign whose ruleset does not draw markers gets 409.
pub async fn generate_by_marker_draw(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    choices: MarkerChoices,
    raw_dice: GenerationDice,
    commitment: RequestCommitment,
    write: Write,
) -> Result<Answer<GenerateForceResponse>, ApiError> {
    let user_id = person(caller)?.to_owned();
    let problems = validate_choices(&choices);
    if !problems.is_empty() {
        return Err(ApiError::Validation(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect(),
        ));
    }
    let entered = parse_steps(&raw_dice).map_err(crate::error::unknown_dice_steps)?;
    let commitment_id = commitment.dice_commitment_id.clone();
    let server = crate::app::dice::committed_dice(
        state,
        commitment.dice_commitment_id,
        commitment.client_seed,
    )
    .await?;
    let mut dice = TableDice::new(&entered, server).map_err(ApiError::from)?;
    dice.check_subjects(|step, subject| {
        step == RollStep::MarkerDraw && subject_allowed(&choices, subject)
    })
    .map_err(ApiError::from)?;

    // Authorize (and read the ruleset) before rolling.
    let (reader, id) = (caller.clone(), campaign_id.to_owned());
    let rules = state
        .db
        .read(move |conn| {
            campaign_access(conn, &reader, &id, Need::Write)?;
            super::ruled::ForceRules::of_campaign(conn, &id)
        })
        .await?;
    if rules.ruleset.decisions.force_generation != ForceGeneration::FmaMarkers {
        return Err(ApiError::Conflict(format!(
            "The campaign plays {}, which draws no markers: use method basic or advanced, or build the force unit by unit.",
            rules.ruleset.name
        )));
    }
    let (generated, dice) = crate::db::in_request_span(move || {
        let generated = generate_by_markers(&choices, &mut dice);
        (generated, dice)
    })
    .await?;
    let mut roster = generated.map_err(ApiError::from)?;
    crate::app::dice::refuse_surplus(dice.surplus(), DiceError::field)?;
    for unit in roster.units_mut() {
        unit.id = store::new_id();
    }
    validate_fma(&roster).map_err(|problems| {
        ApiError::Internal(anyhow::anyhow!("drawn roster is invalid: {problems:?}"))
    })?;
    let rolls = dice.log().to_vec();
    let unused_dice = dice.unused();
    let cause = HistoryCause::new("generation", Some(&user_id));
    let now = store::now();
    let force = forces::Force {
        id: store::new_id(),
        campaign_id: campaign_id.to_owned(),
        owner_id: user_id,
        name: roster.name.clone(),
        roster: store::forces::roster_text(&roster)?,
        version: 1,
        archived_at: None,
        created_at: now,
        updated_at: now,
    };
    let caller = caller.clone();
    let quotas = state.config.quotas;
    let stored = Arc::new(Mutex::new(None::<String>));
    let stored_id = Arc::clone(&stored);
    let answer = idempotency::run(state, write, move |conn| {
        campaign_access(conn, &caller, &force.campaign_id, Need::Write)?;
        quotas.check_forces(conn, &force.campaign_id)?;
        crate::app::dice::spend(conn, commitment_id.as_deref())?;
        forces::insert(conn, &force, &roster, &cause, &rolls)?;
        events::append(conn, &Event::force_created(&force.campaign_id, &force.id))?;
        *stored_id.lock().unwrap_or_else(|e| e.into_inner()) = Some(force.id.clone());
        Ok((
            StatusCode::CREATED,
            GenerateForceResponse {
                force: ForceResponse::under(force, &rules)?,
                rolls,
                effects: Vec::new(),
                pending: Vec::new(),
                notes: Vec::new(),
                unused_dice,
            },
        ))
    })
    .await?;
    if let Some(id) = stored.lock().unwrap_or_else(|e| e.into_inner()).take() {
        tracing::info!(force.id = %id, "Drew force {id} by markers");
    }
    Ok(answer)
}
