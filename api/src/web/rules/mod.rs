//! The rules reference and the ruleset pages.

pub mod reference;
pub mod rulesets;
