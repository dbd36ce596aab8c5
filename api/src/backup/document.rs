//! The export document (format version 1): one JSON object holding one campaign and every row
//! that belongs to it, table by table. Each record mirrors its table's columns one to one (the
//! same names, JSON columns kept as the exact stored text), so a round trip through any backend
//! is byte-for-byte lossless; the only table exported in part is `users` (no password hash).
//!
//! Every struct refuses unknown fields: a document written by a newer version with data this
//! version does not know is refused rather than imported with that data silently dropped.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use crate::schema::{
    battle_aftermaths, battle_scenarios, battles, campaigns, force_history, force_ledger, forces,
    invites, memberships, scenarios, solo_states, users,
};

/// The value of [`Document::format`].
pub const FORMAT: &str = "fad-campaign/campaign-export";

/// The format version this build writes and the only one it reads.
pub const FORMAT_VERSION: u32 = 1;

/// One exported campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`] when written by this build.
    pub format_version: u32,
    /// The campaign row (settings and house rules inside, as stored).
    pub campaign: CampaignRecord,
    /// Every account the campaign's rows name (members, former members, actors), without
    /// credentials; import matches them by name.
    pub users: Vec<UserRecord>,
    /// Memberships and roles.
    pub memberships: Vec<MembershipRecord>,
    /// Invitation codes (hashed), so outstanding codes keep working after a move.
    pub invites: Vec<InviteRecord>,
    /// Forces, archived ones included.
    pub forces: Vec<ForceRecord>,
    /// Every force's history.
    pub force_history: Vec<HistoryRecord>,
    /// Every force's campaign-point ledger.
    pub force_ledger: Vec<LedgerRecord>,
    /// Battles with sides and results.
    pub battles: Vec<BattleRecord>,
    /// Post-battle sequences.
    pub battle_aftermaths: Vec<AftermathRecord>,
    /// Battles' scenario workflows (absent in documents written before they existed).
    #[serde(default)]
    pub battle_scenarios: Vec<BattleScenarioRecord>,
    /// One-shot scenarios generated from the campaign's stored forces.
    pub scenarios: Vec<ScenarioRecord>,
    /// The house ruleset the campaign pins (in `campaign.settings`), whole, with its hash;
    /// absent for a built-in ruleset, which every server carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<RulesetRecord>,
    /// Battles' solo play: the non-player side's groups and turn log with its rolls (absent in
    /// documents written before it existed).
    #[serde(default)]
    pub solo_states: Vec<SoloStateRecord>,
}

/// The pinned version of a house ruleset: its document as written and its hash, which import
/// checks before it recreates the ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRecord {
    /// `club/<slug>`.
    pub id: String,
    /// The pinned version.
    pub version: i64,
    /// The family, as stored.
    pub family: String,
    /// The house document.
    pub document: fad_domain::rulesets::HouseDocument,
    /// SHA-256 of the canonical document.
    pub hash: String,
    /// When the version was written.
    pub created_at: NaiveDateTime,
}

/// `campaigns` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = campaigns, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct CampaignRecord {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub settings: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Absent in documents written before settings had their own version.
    #[serde(default = "first_version")]
    pub settings_version: i64,
}

fn first_version() -> i64 {
    1
}

/// `users` row without `password_hash` (never exported) and `username_lower` (derived).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable)]
#[diesel(table_name = users, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct UserRecord {
    pub id: String,
    pub username: String,
    pub created_at: NaiveDateTime,
    /// `null` when the account shows its username; documents written before display names
    /// existed leave it out.
    #[serde(default)]
    pub display_name: Option<String>,
}

/// `memberships` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = memberships, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct MembershipRecord {
    pub campaign_id: String,
    pub user_id: String,
    pub role: String,
    pub joined_at: NaiveDateTime,
}

/// `invites` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = invites, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct InviteRecord {
    pub id: String,
    pub campaign_id: String,
    pub code_hash: String,
    pub created_by: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub max_uses: Option<i32>,
    pub uses: i32,
    pub revoked_at: Option<NaiveDateTime>,
}

/// `forces` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = forces, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct ForceRecord {
    pub id: String,
    pub campaign_id: String,
    pub owner_id: String,
    pub name: String,
    pub roster: String,
    pub version: i64,
    pub archived_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// `force_history` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = force_history, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct HistoryRecord {
    pub id: String,
    pub force_id: String,
    pub version: i64,
    pub at: NaiveDateTime,
    pub actor_id: Option<String>,
    pub cause_kind: String,
    pub cause_id: Option<String>,
    pub diff: String,
    pub rolls: String,
    pub snapshot: String,
}

/// `force_ledger` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = force_ledger, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct LedgerRecord {
    pub id: String,
    pub force_id: String,
    pub seq: i64,
    pub at: NaiveDateTime,
    pub kind: String,
    pub amount: i64,
    pub balance: i64,
    pub actor_id: Option<String>,
    pub cause_kind: String,
    pub cause_id: Option<String>,
    pub note: Option<String>,
}

/// `battles` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = battles, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct BattleRecord {
    pub id: String,
    pub campaign_id: String,
    pub state: String,
    pub sides: String,
    pub result: Option<String>,
    pub result_by: Option<String>,
    pub confirmed_by: Option<String>,
    pub version: i64,
    pub created_by: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Voids and reopenings (JSON array); absent in documents written before the column
    /// existed, which read as none.
    #[serde(default = "no_corrections")]
    pub corrections: String,
    /// Options chosen at set-up (JSON object, e.g. night fighting); absent in documents written
    /// before the column existed, which read as none.
    #[serde(default = "no_options")]
    pub options: String,
}

fn no_options() -> String {
    "{}".to_owned()
}

fn no_corrections() -> String {
    "[]".to_owned()
}

/// `battle_aftermaths` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = battle_aftermaths, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct AftermathRecord {
    pub battle_id: String,
    pub force_id: String,
    pub battle_start: String,
    pub force_version: i64,
    pub stage: String,
    pub state: Option<String>,
    pub outcome: Option<String>,
    pub version: i64,
    pub updated_at: NaiveDateTime,
    /// Absent from exports written before the column existed (their state holds the roster).
    #[serde(default)]
    pub after_rolls: Option<String>,
}

/// `battle_scenarios` row (one field per column; see schema.rs).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = battle_scenarios, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct BattleScenarioRecord {
    pub battle_id: String,
    pub document: String,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// `solo_states` row of a battle (one field per column; see schema.rs). A one-shot
/// scenario's solo play stays with that scenario's account and is not in a campaign's backup.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = solo_states, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct SoloStateRecord {
    pub owner_id: String,
    pub battle_id: Option<String>,
    pub scenario_id: Option<String>,
    pub document: String,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// `scenarios` row (see schema.rs). A campaign's backup holds only scenarios with a creator
/// (an account of the campaign), so `expires_at` (always empty for them) and `client_hash`
/// (signed-out generation's address limit, not campaign data) are left out; `created_by` is
/// always present in a document.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Queryable, Selectable, Insertable,
)]
#[diesel(table_name = scenarios, check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
#[serde(deny_unknown_fields)]
pub struct ScenarioRecord {
    pub id: String,
    pub created_by: Option<String>,
    pub share_token_hash: Option<String>,
    pub document: String,
    pub created_at: NaiveDateTime,
    /// The sides' sheet token hashes (null for scenarios generated before sheets per side;
    /// documents written before them have none).
    #[serde(default)]
    pub side1_token_hash: Option<String>,
    #[serde(default)]
    pub side2_token_hash: Option<String>,
}
