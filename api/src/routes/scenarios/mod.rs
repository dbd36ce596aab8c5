//! Routes for scenario generation, under `/api/v1`: the one-shot generator — `POST /scenarios`, `GET /scenarios/{id}` (its creator) and
//! `GET /scenarios/shared/{token}` (anyone with the share link). The printable sheet lives in
//! [`crate::web::sheets`]. Handlers live one per file and are registered in [`configure`].
//!
//! The stored document and the response are the application layer's
//! ([`crate::app::scenarios::document`]).

pub mod create;
pub use crate::app::scenarios::generate;
pub mod list;
pub mod read;
pub mod solo;
pub use crate::app::scenario_request as request;

use utoipa_actix_web::service_config::ServiceConfig;

pub use crate::app::scenarios::document::{ScenarioDocument, ScenarioResponse};
pub use request::ForceRef;

/// Registers this resource's handlers (paths are relative to `/api/v1`). The literal `shared`
/// path comes before `{scenario_id}`.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create::create_scenario)
        .service(list::list_scenarios)
        .service(read::get_shared_scenario)
        .service(read::get_scenario)
        .service(solo::get_scenario_solo)
        .service(solo::put_scenario_groups)
        .service(solo::post_scenario_turn)
        .service(solo::post_scenario_casualties);
}
