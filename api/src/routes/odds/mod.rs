//! Exact mission odds, under `/api/v1`: what a stance, an attitude and a pair of
//! +1 bonuses mean for step 5 before a player commits to them (docs/rules.md §3.5, S8, S9; the
//! enumeration is [`fad_domain::odds`]).
//!
//! The endpoint is public: the odds are a pure function of the MISSION TABLE and reveal nothing
//! about any campaign, so club websites can show them without a key. Results are cached per
//! query (at most 3 × 3 × 29 = 261 entries), computed on first use.

pub mod missions;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(missions::get_mission_odds);
}
