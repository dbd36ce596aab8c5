//! The application layer: one function per use case, called by both skins (the JSON handlers in
//! [`crate::routes`] and the pages in [`crate::web`]). Each authorizes, validates, calls the
//! domain, runs one transaction and returns a typed value.

pub mod accounts;
pub mod campaign_setup;
pub mod force_pages;
pub mod overview;
