//! The application layer: one function per use case (authorize, validate, one transaction,
//! record the event), called by the JSON routes and the web pages.

pub mod webhooks;
