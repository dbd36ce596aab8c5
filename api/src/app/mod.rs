//! The application layer: one function per use case. Each authorizes the caller, validates
//! its typed input, calls the rules, runs one transaction (recording the event in it) and
//! returns a typed value. The JSON routes and the HTML pages are skins over these functions:
//! they parse, call, and render.

pub mod accounts;
pub mod authorization;
pub mod battle_pages;
pub mod battles;
pub mod campaign_setup;
pub mod campaigns;
pub mod dice;
pub mod force_pages;
pub mod forces;
pub mod idempotency;
pub mod odds;
pub mod overview;
pub mod rulesets;
pub mod scenario_request;
pub mod scenarios;
pub mod sharing;
pub mod story;
pub mod tokens;
pub mod webhooks;

/// One page of a list, as the use case returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    /// The page's items, in the list's order.
    pub items: Vec<T>,
    /// The cursor of the next page; `None` on the last page.
    pub next: Option<String>,
}
