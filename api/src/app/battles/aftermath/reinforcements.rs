//! How the pool is spent (docs/rules.md C9, C10: up to each unit's establishment; an optional new
//! squad of 5–8). Redoable until `finalize`; each call replaces the allocation.

use crate::app::idempotency::{self, Answer, Write};
use actix_web::http::StatusCode;
use fad_domain::campaign::ReinforcementChoice;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::ApiError;

use super::super::problems;
use super::{AftermathResponse, begin, response_with, save_choice, saved_state};

/// Sets the reinforcement allocation.
pub async fn reinforce_aftermath(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    force_id: String,
    choice: ReinforcementChoice,
    write: Write,
) -> Result<Answer<AftermathResponse>, ApiError> {
    let caller = user.caller();
    idempotency::run(state, write, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let mut aftermath = step.rolled()?;
        aftermath.reinforce(choice).map_err(problems)?;
        save_choice(conn, &mut step, aftermath)?;
        let answer = response_with(
            &step.row,
            Some(saved_state(&step.row)?),
            None,
            Vec::new(),
            Default::default(),
        )?
        .under(&step.ruleset);
        Ok((StatusCode::OK, answer))
    })
    .await
}
