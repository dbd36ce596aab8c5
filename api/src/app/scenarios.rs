//! One-shot scenarios (outside any campaign): reading one as its creator, or through a share
//! link. Creating one is still the route's own work (its Idempotency-Key replay answers the
//! stored bytes).

use crate::AppState;
use crate::app::authorization::person;
use crate::auth::Caller;
use crate::auth::secret::hash_secret;
use crate::error::ApiError;
use crate::store::scenarios::{self, ScenarioRow};

/// Reads a scenario the caller created (anyone else gets 404).
pub async fn read_scenario(
    state: &AppState,
    caller: &Caller,
    scenario_id: &str,
) -> Result<ScenarioRow, ApiError> {
    let user_id = person(caller)?.to_owned();
    let id = scenario_id.to_owned();
    state
        .db
        .run(move |conn| {
            scenarios::find_by_id_and_creator(conn, &id, &user_id)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await
}

/// Reads a scenario through its share token (no account needed).
pub async fn read_shared_scenario(state: &AppState, token: &str) -> Result<ScenarioRow, ApiError> {
    let hash = hash_secret(token);
    state
        .db
        .run(move |conn| {
            scenarios::find_by_share_hash(conn, &hash)?
                .ok_or_else(|| ApiError::not_found("scenario"))
        })
        .await
}
