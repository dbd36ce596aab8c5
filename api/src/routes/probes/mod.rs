//! Probes outside `/api/v1`: `GET /health` (the process is up) and `GET /ready` (the database
//! answers a round trip).

pub mod health;
pub mod ready;

pub use health::HealthResponse;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers `/health` and `/ready`.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(health::health).service(ready::ready);
}
