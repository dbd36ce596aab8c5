//! The application layer: one function per use case. Each authorizes, validates, calls the
//! domain, runs one transaction (recording the event in it) and returns a typed value; the
//! JSON routes and the web pages only parse, call and render.

pub mod battles;
pub mod idempotency;
pub mod webhooks;
