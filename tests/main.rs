//! Black-box tests: the real `fad-campaign` binary on a free port against real databases
//! (SQLite and PostgreSQL, each test on its own fresh database). One test binary; add an area
//! as `tests/<area>.rs` and a `mod <area>;` line here. See `common.rs` for the harness.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "test code")]

#[macro_use]
mod common;

mod aftermath_steps;
mod auth;
mod auth_gate;
mod authorization;
mod backup;
mod battle_scenarios;
mod battles;
mod bots;
mod campaign_play;
mod campaign_rules;
mod campaigns;
mod corrections;
mod crash_safety;
mod db_faults;
mod db_transactions;
mod docker;
mod errors;
mod finalize_guard;
mod fleet;
mod forces;
mod health;
mod hostile_input;
mod import_references;
mod invariants;
mod licence;
mod limits;
mod live_updates;
mod log_secrets;
mod migrations;
mod odds;
mod openapi_drift;
mod openapi_examples;
mod paging;
mod passwords;
mod plain_messages;
mod protocol_errors;
mod quota_races;
mod races;
mod request_span;
mod roster_lock;
mod round_trips;
mod rules_audit;
mod rules_reference;
mod ruleset_fad_basic_advanced;
mod ruleset_gzg_fma_1999;
mod ruleset_one_page_skirmish;
mod rulesets;
mod scenario_rules;
mod scenarios;
mod secret_choices;
mod security_headers;
mod sharing;
mod sheet;
mod soak;
mod solo;
mod startup;
mod store_campaigns;
mod store_users;
mod stored_documents;
mod story;
mod table_pages;
mod token_revocation;
mod unit_ids;
mod verifiable_dice;
mod vocabulary;
mod web_aftermath;
mod web_battles;
mod web_editor;
mod web_hardening;
mod web_pages;
mod web_scenarios;
mod webhook_addresses;
mod webhooks;
mod writes;
