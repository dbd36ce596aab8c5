//! Backup and restore of one campaign: `fad-campaign export` writes a campaign
//! and everything that belongs to it as one versioned JSON [`Document`]; `fad-campaign import`
//! writes such a document into any database (SQLite or PostgreSQL) in one transaction.
//!
//! Decisions:
//! - **Ids are preserved** (they are UUID text), except accounts, which are matched **by
//!   username** (case-insensitive): a campaign moved into a database where `alice` already
//!   exists is attached to that `alice`. An account that does not exist in the target is
//!   created with the exported id and name and a password nobody knows (the Argon2 hash of a
//!   random secret), so it cannot log in until an administrator sets a password with
//!   `fad-campaign set-password`. Password hashes are never exported.
//! - **Not exported**: integration keys (`api_keys`, credentials: the organiser issues new ones)
//!   and the `Idempotency-Key` replay cache (per user, short-lived, not campaign data). Every
//!   table of `schema.rs` must be listed in [`EXPORTED_TABLES`] or [`NOT_EXPORTED_TABLES`]; a
//!   unit test fails otherwise, so a new table cannot be forgotten silently.
//! - One-shot scenarios belong to a user, not a campaign; those generated from a stored force of
//!   the campaign are exported with it.

pub mod document;
pub mod export;
pub mod import;

pub use document::{Document, FORMAT, FORMAT_VERSION};
pub use export::export_campaign;
pub use import::{ImportOptions, ImportSummary, import_document, parse_document};

/// Tables whose rows of the campaign are in the document, in the order import writes them.
pub const EXPORTED_TABLES: &[&str] = &[
    "users",
    "campaigns",
    "memberships",
    "invites",
    "forces",
    "force_history",
    "force_ledger",
    "battles",
    "battle_aftermaths",
    "battle_scenarios",
    "scenarios",
    "solo_states",
];

/// Tables deliberately left out of the document, with the reason.
pub const NOT_EXPORTED_TABLES: &[(&str, &str)] = &[
    (
        "dice_commitments",
        "committed dice seeds: an unused seed must never leave the server (it would tell the next server rolls), a used one is already in its roll's proof; the copy offers new ones",
    ),
    (
        "rulesets",
        "an account's house rulesets: only the version the campaign pins travels, as `ruleset` (its document and hash), and import recreates it under the campaign's organiser",
    ),
    (
        "api_keys",
        "integration keys are credentials; the organiser issues new ones after a move",
    ),
    (
        "battle_share_links",
        "share links are credentials derived from this server's secret; players share again after a move",
    ),
    (
        "idempotency_keys",
        "a short-lived per-user replay cache of responses, not campaign data",
    ),
    (
        "events",
        "the outbox of changes already made: the document holds their results",
    ),
    (
        "webhooks",
        "their signing secrets are credentials and their URLs may not be reachable from the \
         new server; the organiser creates them again after a move",
    ),
    (
        "webhook_deliveries",
        "the delivery queue and log of the webhooks, which are not exported",
    ),
    (
        "web_sessions",
        "browser sessions are credentials of one server; people log in again after a move",
    ),
    (
        "personal_tokens",
        "personal access tokens are a person's credentials, not campaign data; people make new ones after a move",
    ),
];

/// Columns of exported tables that are deliberately not in the document.
pub const NOT_EXPORTED_COLUMNS: &[(&str, &str, &str)] = &[
    (
        "users",
        "password_hash",
        "credentials never leave the database",
    ),
    (
        "users",
        "credentials_version",
        "which access tokens are still valid: tokens of another server never are",
    ),
    (
        "users",
        "username_lower",
        "derived from `username` on import",
    ),
    (
        "scenarios",
        "expires_at",
        "only signed-out scenarios expire, and those have no owner and are never exported",
    ),
    (
        "scenarios",
        "client_hash",
        "the keyed hash of a signed-out creator's address, kept only for the per-address limit",
    ),
];

#[cfg(test)]
mod tests {
    //! The coverage guard: every table and column in `schema.rs` is exported or listed as not
    //! exported, and the document's records mirror the tables exactly.

    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// `table -> columns`, read from the text of `schema.rs` (the `diesel::table!` blocks).
    fn schema_tables() -> BTreeMap<String, BTreeSet<String>> {
        let text = include_str!("../schema.rs");
        let mut tables = BTreeMap::new();
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if line != "diesel::table! {" {
                continue;
            }
            let mut name = None;
            let mut columns = BTreeSet::new();
            for line in lines.by_ref() {
                if line.starts_with("///") || line.starts_with("#[") || line.is_empty() {
                    continue;
                }
                if line == "}" {
                    if name.is_some() {
                        break;
                    }
                    continue;
                }
                match &name {
                    None => {
                        name = line.split_whitespace().next().map(str::to_owned);
                    }
                    Some(_) => {
                        if let Some((column, _)) = line.split_once("->") {
                            columns.insert(column.trim().to_owned());
                        }
                    }
                }
            }
            let name = name.unwrap_or_else(|| panic!("a table! block without a name"));
            tables.insert(name, columns);
        }
        tables
    }

    /// The field names of each record, as the document writes them.
    fn document_columns() -> BTreeMap<String, BTreeSet<String>> {
        let doc = Document {
            users: vec![Default::default()],
            memberships: vec![Default::default()],
            invites: vec![Default::default()],
            forces: vec![Default::default()],
            force_history: vec![Default::default()],
            force_ledger: vec![Default::default()],
            battles: vec![Default::default()],
            battle_aftermaths: vec![Default::default()],
            battle_scenarios: vec![Default::default()],
            scenarios: vec![Default::default()],
            solo_states: vec![Default::default()],
            ..Default::default()
        };
        let value = serde_json::to_value(&doc).unwrap();
        let object = value.as_object().unwrap();
        let mut out = BTreeMap::new();
        for (key, member) in object {
            let record = match key.as_str() {
                "format" | "format_version" | "ruleset" => continue,
                "campaign" => ("campaigns", member),
                table => (table, &member[0]),
            };
            let fields = record.1.as_object().unwrap().keys().cloned().collect();
            out.insert(record.0.to_owned(), fields);
        }
        out
    }

    #[test]
    fn every_table_is_exported_or_listed_as_not_campaign_data() {
        let tables: BTreeSet<String> = schema_tables().into_keys().collect();
        assert!(tables.len() >= 12, "schema.rs parsed: {tables:?}");
        let mut listed: BTreeSet<String> = EXPORTED_TABLES.iter().map(|t| t.to_string()).collect();
        for (table, _) in NOT_EXPORTED_TABLES {
            assert!(listed.insert(table.to_string()), "{table} listed twice");
        }
        assert_eq!(
            tables, listed,
            "a table in schema.rs is neither exported (backup::EXPORTED_TABLES) nor listed in \
             backup::NOT_EXPORTED_TABLES with a reason (or a listed table is gone)"
        );
    }

    #[test]
    fn every_exported_record_mirrors_its_table() {
        let schema = schema_tables();
        let document = document_columns();
        let exported: BTreeSet<String> = EXPORTED_TABLES.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            document.keys().cloned().collect::<BTreeSet<_>>(),
            exported,
            "the document's members are the exported tables"
        );
        for (table, fields) in &document {
            let mut expected = schema[table].clone();
            for (t, column, _) in NOT_EXPORTED_COLUMNS {
                if t == table {
                    assert!(expected.remove(*column), "{t}.{column} is not in schema.rs");
                }
            }
            assert_eq!(
                fields, &expected,
                "record of `{table}` must carry every column of schema.rs (or list it in \
                 backup::NOT_EXPORTED_COLUMNS)"
            );
        }
    }
}
