//! Forces for the pages: read one force with its points and campaign points, and generate a
//! basic force with server dice.
//!
//! Interim, like [`super::campaign_setup`]: `generate_basic_force` takes the same steps as the
//! JSON generation handler (domain validation, server dice, `forcegen::generate`, one
//! transaction storing the force and its roll log); when the force use cases move into this
//! layer, the pages call those instead.

use fad_domain::dice::{EnteredDice, ServerDice, TableDice};
use fad_domain::forcegen::{GenerationChoices, GenerationError, generate};
use fad_domain::validation::validate_force;

use crate::AppState;
use crate::auth::policy::campaign_not_found;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, FieldError};
use crate::routes::forces::{RosterResponse, force_not_found};
use crate::store::{self, campaigns, forces, history::HistoryCause, ledger, users};

/// One force as a member sees it.
#[derive(Debug, Clone)]
pub struct ForceView {
    /// Force id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// The owner's username.
    pub owner: String,
    /// The roster with points at every level.
    pub roster: RosterResponse,
    /// Campaign points balance (the ledger's sum).
    pub campaign_points: i64,
    /// Whether it is archived.
    pub archived: bool,
    /// Whether the caller may edit it (owner or organiser).
    pub can_edit: bool,
}

/// Reads a force (members of its campaign; others 404).
pub async fn read_force(
    state: &AppState,
    user_id: &str,
    force_id: &str,
) -> Result<ForceView, ApiError> {
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let force_id = force_id.to_owned();
    state
        .db
        .read(move |conn| {
            let force = forces::find_by_id(conn, &force_id)?.ok_or_else(force_not_found)?;
            let access = campaign_access(conn, &caller, &force.campaign_id, Need::Read).map_err(
                |e| match e {
                    ApiError::NotFound(_) => force_not_found(),
                    other => other,
                },
            )?;
            let owner = users::find_by_id(conn, &force.owner_id)?
                .map_or_else(|| "a former member".to_owned(), |u| u.username);
            let campaign_points = ledger::balance(conn, &force.id)?;
            let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
            Ok(ForceView {
                can_edit: access.is_user_or_organiser(&force.owner_id),
                id: force.id,
                campaign_id: force.campaign_id,
                owner,
                roster: RosterResponse::new(roster),
                campaign_points,
                archived: force.archived_at.is_some(),
            })
        })
        .await
}

/// Generates a basic force (docs/rules.md §4.1) with server dice, owned by the caller; answers
/// its id. Field errors name `name` and `platoons`.
pub async fn generate_basic_force(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
    name: Option<String>,
    platoons: u32,
    attacker: bool,
) -> Result<String, ApiError> {
    let name = name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
    if name.as_ref().is_some_and(|n| n.chars().count() > 100) {
        return Err(ApiError::validation(
            "name",
            "must have at most 100 characters",
        ));
    }
    let choices: GenerationChoices = GenerationChoices::Basic(
        serde_json::from_value(serde_json::json!({
            "name": name, "platoons": platoons, "attacker": attacker
        }))
        .map_err(|e| ApiError::Internal(e.into()))?,
    );
    let problems = fad_domain::forcegen::validate(&choices);
    if !problems.is_empty() {
        return Err(ApiError::Validation(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect(),
        ));
    }
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let id = campaign_id.to_owned();
    let settings = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &id, Need::Write)?;
            let campaign = campaigns::find_by_id(conn, &id)?.ok_or_else(campaign_not_found)?;
            campaign
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))
        })
        .await?;
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
    let generated = actix_web::web::block(move || {
        let mut dice = TableDice::new(&EnteredDice::new(), ServerDice::from_seed(seed))
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("{e:?}")))?;
        generate(&choices, &settings.house_rules, &mut dice).map_err(|e| match e {
            GenerationError::Invalid(problems) => ApiError::Validation(
                problems
                    .into_iter()
                    .map(|p| FieldError::new(p.field, p.message))
                    .collect(),
            ),
            GenerationError::Dice(e) => ApiError::Internal(anyhow::anyhow!("{e}")),
        })
    })
    .await??;
    let mut roster = generated.force;
    for unit in roster.units_mut() {
        unit.id = store::new_id();
    }
    validate_force(&roster).map_err(|problems| {
        ApiError::Internal(anyhow::anyhow!("generated roster is invalid: {problems:?}"))
    })?;
    let now = store::now();
    let force = forces::Force {
        id: store::new_id(),
        campaign_id: campaign_id.to_owned(),
        owner_id: user_id.to_owned(),
        name: roster.name.clone(),
        roster: serde_json::to_string(&roster).map_err(|e| ApiError::Internal(e.into()))?,
        version: 1,
        archived_at: None,
        created_at: now,
        updated_at: now,
    };
    let cause = HistoryCause::new("generation", Some(user_id));
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let quotas = state.config.quotas;
    let force_id = force.id.clone();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &force.campaign_id, Need::Write)?;
            quotas.check_forces(conn, &force.campaign_id)?;
            forces::insert(conn, &force, &roster, &cause, &generated.rolls)?;
            // event: force.created
            tracing::info!(force.id = %force.id, "Generated force {}", force.id);
            Ok(())
        })
        .await?;
    Ok(force_id)
}
