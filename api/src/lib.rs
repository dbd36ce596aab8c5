//! The fad-campaign service: HTTP API (actix-web), storage (diesel over SQLite or PostgreSQL)
//! and the OpenAPI document (utoipa), on top of the pure rules in `fad-domain`.
//!
//! [`run`] dispatches the command line ([`cli`]); [`build_app`] assembles the actix application
//! (routes, extractor configs, middleware) for `serve` and for tests ([`startup`]); [`AppState`]
//! is what every handler reaches ([`state`]).

pub mod app;
pub mod auth;
pub mod backup;
pub mod check_order;
pub mod cli;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod idempotent;
pub mod live;
pub mod middleware;
pub mod openapi;
pub mod paging;
pub mod precondition;
pub mod probe;
pub mod quota;
pub mod routes;
pub mod schema;
pub mod startup;
pub mod state;
pub mod store;
pub mod telemetry;
pub mod web;
pub mod webhooks;

pub use cli::{export, import, migrate, run, set_password};
pub use startup::{build_app, serve};
pub use state::AppState;
