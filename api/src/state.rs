//! The state every handler reaches: the database, the configuration and the shared caches.

use std::sync::Arc;

use crate::config::{Config, JwtSecret};
use crate::db::Database;
use crate::{app, auth, routes, web};

/// What every handler can reach through `web::Data<AppState>`.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The database pool and its transaction helpers.
    pub db: Database,
    /// Validated configuration.
    pub config: Arc<Config>,
    /// Token signing secret (also in `config`; here for short access).
    pub jwt_secret: JwtSecret,
    /// Token keys and the login rate limiter, built once and shared by every worker.
    pub auth: auth::AuthState,
    /// Rendered force rosters, reused while a force's stored roster is unchanged.
    pub rosters: routes::forces::render::RenderedRosters,
    /// The roster part of the force page, likewise.
    pub roster_pages: routes::forces::render::ByStoredRoster<web::forces::roster::RosterPage>,
    /// Open live streams of battle pages, capped per process, account and address.
    pub streams: app::battles::watch::StreamSlots,
}

impl AppState {
    /// The state for a validated configuration and a connected pool.
    pub fn new(db: Database, config: Arc<Config>) -> Self {
        let auth = auth::AuthState::new(
            config.jwt_secret.expose(),
            config.jwt_lifetime_secs,
            config.auth_rate_per_minute,
            config.auth_rate_burst,
        );
        let streams = app::battles::watch::StreamSlots::new(config.streams);
        Self {
            db,
            jwt_secret: config.jwt_secret.clone(),
            config,
            auth,
            rosters: Default::default(),
            roster_pages: Default::default(),
            streams,
        }
    }
}
