//! The one-shot scenario generator and its quick unit list.

pub mod generator;
pub mod unit_lines;
