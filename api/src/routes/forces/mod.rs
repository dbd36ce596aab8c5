//! Routes for forces (rosters), history, ledger, generation (API.md › Forces), under `/api/v1`.
//! Handlers live one per file in this directory and are registered in [`configure`].

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(_cfg: &mut ServiceConfig) {}
