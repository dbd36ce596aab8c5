//! Routes for scenario generation, per battle and one-shot (API.md › Scenario generation), under `/api/v1`.
//! Handlers live one per file in this directory and are registered in [`configure`].

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(_cfg: &mut ServiceConfig) {}
