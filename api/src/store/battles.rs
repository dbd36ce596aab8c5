//! Battles: one row per battle with its sides and result as JSON and
//! an optimistic-concurrency `version`.
//!
//! State changes are `UPDATE … WHERE id = ? AND version = ?` in the caller's transaction, never
//! an in-memory lock, so several server processes may share one database.

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use fad_domain::dice::RollLog;
use fad_domain::lifecycle::BattleState;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::Db;
use crate::schema::battles;
use crate::store::CreatedKey;

/// A battle row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = battles)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Battle {
    /// The battle id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// Where the battle stands (stored as its word).
    #[diesel(deserialize_as = String, serialize_as = String)]
    pub state: BattleState,
    /// The sides as JSON.
    pub sides: String,
    /// The recorded result as JSON.
    pub result: Option<String>,
    /// Who recorded the result.
    pub result_by: Option<String>,
    /// Who confirmed it (the recorder's own id when confirmation is off).
    pub confirmed_by: Option<String>,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
    /// The organiser's corrections ([`Correction`]s) as a JSON array, oldest first.
    pub corrections: String,
    /// Options chosen at set-up ([`BattleOptions`]) as a JSON object.
    pub options: String,
}

/// Options chosen when a battle is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BattleOptions {
    /// The battle is fought at night: each side adds 1d6 dummy markers (docs/rules.md §3.6).
    pub night_fighting: bool,
}

/// One organiser correction of a battle: a void or a reopening. A reopening keeps the result it
/// discarded and every roll of the discarded post-battle sequences, so the roll log stays whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Correction {
    /// `void` or `reopen`.
    pub action: String,
    /// The organiser who made it.
    pub by: String,
    /// When (RFC 3339 UTC).
    pub at: DateTime<Utc>,
    /// The organiser's reason, if given.
    #[serde(default)]
    pub reason: Option<String>,
    /// The battle's state before the correction.
    #[schema(value_type = String)]
    pub previous_state: BattleState,
    /// The result a reopening discarded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::app::battles::BattleResult>)]
    pub discarded_result: Option<serde_json::Value>,
    /// Every roll of the post-battle sequences a reopening discarded, in order per force; each
    /// names its `force_id`. These rolls changed nothing that stands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded_rolls: RollLog,
}

impl Battle {
    /// The parsed set-up options.
    pub fn options(&self) -> Result<BattleOptions, serde_json::Error> {
        serde_json::from_str(&self.options)
    }

    /// The corrections, oldest first.
    pub fn corrections(&self) -> Result<Vec<Correction>, serde_json::Error> {
        serde_json::from_str(&self.corrections)
    }
}

/// Inserts a battle.
pub fn insert(conn: &mut Db, battle: &Battle) -> QueryResult<()> {
    crate::on_backend!(conn, |conn| diesel::insert_into(battles::table)
        .values(battle.clone())
        .execute(conn)
        .map(|_| ()))
}

/// The battle with this id.
pub fn find_by_id(conn: &mut Db, id: &str) -> QueryResult<Option<Battle>> {
    crate::on_backend!(conn, |conn| battles::table
        .find(id)
        .select(Battle::as_select())
        .first(conn)
        .optional())
}

/// Up to `limit` of a campaign's battles, oldest first (ties by id), after the battle whose key
/// is `after`.
pub fn list_for_campaign(
    conn: &mut Db,
    campaign_id: &str,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<Battle>> {
    let mut query = battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .order((battles::created_at.asc(), battles::id.asc()))
        .select(Battle::as_select())
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            battles::created_at
                .gt(at)
                .or(battles::created_at.eq(at).and(battles::id.gt(id))),
        );
    }
    query.load(conn)
}

/// Writes `next` (state, result, confirmation, corrections) when the stored version is `next.version - 1`.
/// Returns whether a row changed (false: stale).
pub fn update_if_version(conn: &mut Db, next: &Battle) -> QueryResult<bool> {
    let changed = crate::on_backend!(conn, |conn| diesel::update(
        battles::table
            .filter(battles::id.eq(&next.id))
            .filter(battles::version.eq(next.version - 1)),
    )
    .set((
        battles::state.eq(next.state.as_str()),
        battles::result.eq(&next.result),
        battles::result_by.eq(&next.result_by),
        battles::confirmed_by.eq(&next.confirmed_by),
        battles::version.eq(next.version),
        battles::updated_at.eq(next.updated_at),
        battles::corrections.eq(&next.corrections),
    ))
    .execute(conn))?;
    // The live streams of the battle look again once this commits (crate::live).
    crate::live::marks::battle(&next.id);
    Ok(changed == 1)
}

/// Takes the battle's row lock for the rest of the transaction and bumps its version: battle
/// writes of one battle then run one after the other, across server processes too, and each
/// sees what the previous one committed. One statement (`UPDATE … RETURNING`); `None` when no
/// such battle.
pub fn lock(conn: &mut Db, battle_id: &str) -> QueryResult<Option<Battle>> {
    crate::live::marks::battle(battle_id);
    crate::on_backend!(conn, |conn| diesel::update(
        battles::table.filter(battles::id.eq(battle_id))
    )
    .set((
        battles::version.eq(battles::version + 1),
        battles::updated_at.eq(crate::store::now()),
    ))
    // `RETURNING` every column, in the table's order (as `Battle` is declared).
    .get_result::<Battle>(conn)
    .optional())
}

/// [`lock`] without changing the row: for a write that may be a side's secret (a scenario
/// step), whose battle `version` and `updated_at` must not move unless what everyone sees
/// changed ([`touch`]).
pub fn lock_quietly(conn: &mut Db, battle_id: &str) -> QueryResult<Option<Battle>> {
    crate::on_backend!(conn, |conn| diesel::update(
        battles::table.filter(battles::id.eq(battle_id))
    )
    .set(battles::version.eq(battles::version))
    .get_result::<Battle>(conn)
    .optional())
}

/// Bumps a battle's version and `updated_at` (after [`lock_quietly`]).
pub fn touch(conn: &mut Db, battle_id: &str) -> QueryResult<()> {
    crate::live::marks::battle(battle_id);
    diesel::update(battles::table.filter(battles::id.eq(battle_id)))
        .set((
            battles::version.eq(battles::version + 1),
            battles::updated_at.eq(crate::store::now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Which of `force_ids` `user_id` owns, in `force_ids` order. One statement whatever the
/// number of forces.
pub fn owned_by(conn: &mut Db, user_id: &str, force_ids: &[String]) -> QueryResult<Vec<String>> {
    use crate::schema::forces as f;
    if force_ids.is_empty() {
        return Ok(Vec::new());
    }
    let owned: Vec<String> = crate::on_backend!(conn, |conn| f::table
        .filter(f::id.eq_any(force_ids))
        .filter(f::owner_id.eq(user_id))
        .select(f::id)
        .load(conn))?;
    Ok(force_ids
        .iter()
        .filter(|id| owned.contains(id))
        .cloned()
        .collect())
}
