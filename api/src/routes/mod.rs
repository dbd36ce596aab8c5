//! The JSON skin: HTTP handlers, one module per resource and one handler per file. Each
//! resource module has a `configure` that registers its handlers; [`configure`] wires the
//! probes at the root and [`configure_api`] the API's handlers, which [`crate::openapi`]
//! mounts under `/api/v1` beside the pages.

pub mod auth;
pub mod battles;
pub mod campaigns;
pub mod dice;
pub mod forces;
pub mod odds;
pub mod probes;
pub mod rules;
pub mod rulesets;
pub mod scenarios;
pub mod webhooks;

use utoipa_actix_web::service_config::ServiceConfig;

/// Base path of the versioned API.
pub const API_BASE: &str = "/api/v1";

/// Registers the probes at the root (called by [`crate::openapi::configure`]).
pub fn configure(cfg: &mut ServiceConfig) {
    probes::configure(cfg);
}

/// Registers the API's handlers, inside the `/api/v1` scope [`crate::openapi::configure`] makes.
pub fn configure_api(cfg: &mut ServiceConfig) {
    // actix tries each route in turn with its pattern's regex, so the most used come first
    // (a request to the API scope used to try every page's pattern before it). Only the API
    // lives under its prefix, and the forces and battles routes share no path with the
    // others, so the order changes nothing else.
    cfg.configure(forces::configure)
        .configure(battles::configure)
        .configure(campaigns::configure)
        .configure(auth::configure)
        .configure(scenarios::configure)
        .configure(odds::configure)
        .configure(dice::configure)
        .configure(webhooks::configure)
        .configure(rulesets::configure)
        .service(rules::get_rules_vocabulary);
}
