//! The application layer: one function per use case (authorize, validate, call the domain, one
//! transaction), called by the JSON routes and the web pages alike.

pub mod sharing;
