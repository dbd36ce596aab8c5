//! Force generation (docs/rules.md §4.1, §4.2): the player's choices with server or entered
//! dice; the result is stored as a force owned by the caller, its roll log in the first history
//! entry, in one transaction with the `Idempotency-Key`'s first answer (a retry never stores a
//! second generated force).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use actix_web::http::StatusCode;
use fad_domain::dice::{EnteredDice, RollLog, RollStep, TableDice, parse_steps};
use fad_domain::forcegen::{
    GenerationChoices, PendingAward, PlatoonEffect, generate, subject_allowed,
};
use fad_domain::rulesets::ForceGeneration;
use fad_domain::validation::validate_force;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::authorization::{Need, campaign_access, person};
use crate::app::forces::response::ForceResponse;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::Caller;
use crate::auth::policy::campaign_not_found;
use crate::error::{ApiError, FieldError};
use crate::store::events::{self, Event};
use crate::store::{self, campaigns, forces, history::HistoryCause};
use fad_domain::dice::DiceError;

/// The generated force and how it came about.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GenerateForceResponse {
    /// The stored force.
    pub force: ForceResponse,
    /// Every roll, in order (`step` `force_generation`, `detail` naming the table).
    pub rolls: RollLog,
    /// Platoon-wide effects with no unit field (Improved Intel, Longer Range, ...).
    pub effects: Vec<PlatoonEffect>,
    /// Awards left for the player to assign.
    pub pending: Vec<PendingAward>,
    /// Choices that could not be applied.
    pub notes: Vec<String>,
    /// Entered dice no roll used, by step and subject.
    #[schema(value_type = fad_domain::dice::EnteredDiceSchema)]
    pub unused_dice: EnteredDice,
}

/// A commitment issued for this request (`POST /api/v1/dice/commitments`) and the text mixed
/// into its seed.
#[derive(Debug, Clone, Default)]
pub struct RequestCommitment {
    /// The commitment; absent: an unannounced seed.
    pub dice_commitment_id: Option<String>,
    /// Text mixed into the committed seed.
    pub client_seed: Option<String>,
}

/// Player-entered dice for generation: step → subject → values.
pub type GenerationDice = BTreeMap<String, BTreeMap<String, Vec<u8>>>;

fn dice_errors(errors: Vec<fad_domain::dice::DiceError>) -> ApiError {
    errors.into()
}

/// Generates a force from the player's choices and stores it. Invalid choices (an enhancement
/// its limitation cancels, priority points over the allowance, ...) and bad entered dice get
/// 422 and nothing is rolled or stored.
pub async fn generate_force(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    choices: GenerationChoices,
    raw_dice: GenerationDice,
    commitment: RequestCommitment,
    write: Write,
) -> Result<Answer<GenerateForceResponse>, ApiError> {
    let user_id = person(caller)?.to_owned();
    let problems = fad_domain::forcegen::validate(&choices);
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
    let mut dice = TableDice::new(&entered, server).map_err(dice_errors)?;
    dice.check_subjects(|step, subject| {
        step == RollStep::ForceGeneration && subject_allowed(&choices, subject)
    })
    .map_err(dice_errors)?;

    // Authorize (and read the house rules) before rolling.
    let (reader, id) = (caller.clone(), campaign_id.to_owned());
    let (settings, rules) = state
        .db
        .read(move |conn| {
            campaign_access(conn, &reader, &id, Need::Write)?;
            let campaign = campaigns::find_by_id(conn, &id)?.ok_or_else(campaign_not_found)?;
            let settings = campaign
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))?;
            Ok((settings, super::ruled::ForceRules::of_campaign(conn, &id)?))
        })
        .await?;
    if rules.ruleset.decisions.force_generation == ForceGeneration::FmaMarkers {
        return Err(ApiError::Conflict(format!(
            "The campaign plays {}, whose forces are drawn by markers (docs/rules.md M10): send method markers with the teams.",
            rules.ruleset.name
        )));
    }
    if rules.ruleset.decisions.force_generation != ForceGeneration::Fad5e {
        return Err(ApiError::Conflict(format!(
            "The campaign plays {}, which has no force generation (docs/rules.md B9): build the force unit by unit.",
            rules.ruleset.name
        )));
    }
    // Generation is pure CPU: it runs on the blocking pool, not on an async worker.
    let (generated, dice) = crate::db::in_request_span(move || {
        let generated = generate(&choices, &settings.house_rules, &mut dice);
        (generated, dice)
    })
    .await?;
    let generated = generated.map_err(ApiError::from)?;
    crate::app::dice::refuse_surplus(dice.surplus(), DiceError::field)?;
    let mut roster = generated.force;
    for unit in roster.units_mut() {
        unit.id = store::new_id();
    }
    validate_force(&roster).map_err(|problems| {
        ApiError::Internal(anyhow::anyhow!("generated roster is invalid: {problems:?}"))
    })?;
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
    let unused_dice = dice.unused();
    let quotas = state.config.quotas;
    // Set when this request stored the force (not when it replays a stored answer), so the log
    // line is written once, after the commit.
    let stored = Arc::new(Mutex::new(None::<String>));
    let stored_id = Arc::clone(&stored);
    let answer = idempotency::run(state, write, move |conn| {
        campaign_access(conn, &caller, &force.campaign_id, Need::Write)?;
        quotas.check_forces(conn, &force.campaign_id)?;
        crate::app::dice::spend(conn, commitment_id.as_deref())?;
        forces::insert(conn, &force, &roster, &cause, &generated.rolls)?;
        events::append(conn, &Event::force_created(&force.campaign_id, &force.id))?;
        *stored_id.lock().unwrap_or_else(|e| e.into_inner()) = Some(force.id.clone());
        Ok((
            StatusCode::CREATED,
            GenerateForceResponse {
                force: ForceResponse::under(force, &rules)?,
                rolls: generated.rolls,
                effects: generated.effects,
                pending: generated.pending,
                notes: generated.notes,
                unused_dice,
            },
        ))
    })
    .await?;
    if let Some(id) = stored.lock().unwrap_or_else(|e| e.into_inner()).take() {
        tracing::info!(force.id = %id, "Generated force {id}");
    }
    Ok(answer)
}
