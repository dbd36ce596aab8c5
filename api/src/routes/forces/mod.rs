//! Forces (rosters, docs/rules.md §1 and §4), under `/api/v1`: create, read, list,
//! replace, archive, history, ledger, generation, export and import.
//!
//! A roster is validated by [`fad_domain::validation::validate_force`] (every problem in one
//! 422, nothing stored), its points come from [`fad_domain::points`] (docs/rules.md §4.3) and are
//! computed on every read, never stored or accepted. Unit ids are stable: the server assigns
//! them on create and keeps them on every edit.
//!
//! Access: members of the campaign read; the force's owner or the organiser write; integration
//! keys read; outsiders get 404.

pub mod archive;
pub mod create;
pub mod export;
pub mod generate;
pub mod history;
pub mod import;
pub mod ledger;
pub mod list;
pub mod read;
pub mod render;
pub mod update;

use actix_web::http::header::{ETag, EntityTag};
use utoipa_actix_web::service_config::ServiceConfig;

pub use crate::app::authorization::{authorize_force, force_not_found};
pub use crate::app::forces::response::{
    ForceResponse, PlatoonResponse, RosterResponse, UnitResponse,
};
pub use crate::app::forces::roster::{IdMode, PlatoonRequest, RosterRequest, parse_roster};
pub use crate::app::forces::{Precondition, archived, stale};

/// Registers this resource's handlers (paths are relative to `/api/v1`). `generate` and
/// `import` come before any `{force_id}`-style route so the literal paths win.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(generate::generate_force)
        .service(import::import_force)
        .service(create::create_force)
        .service(list::list_forces)
        .service(read::get_force)
        .service(update::replace_force)
        .service(archive::archive_force)
        .service(history::list_force_history)
        .service(history::get_force_history_entry)
        .service(ledger::get_force_ledger)
        .service(ledger::add_ledger_entry)
        .service(export::export_force);
}

/// The `ETag` of a force version: `"<version>"`.
pub fn etag(version: i64) -> ETag {
    ETag(EntityTag::new_strong(version.to_string()))
}
