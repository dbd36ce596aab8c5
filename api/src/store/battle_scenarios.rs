//! A battle's scenario workflow: one row per battle with the scenario document
//! as JSON and an optimistic-concurrency `version`. Steps write with
//! `UPDATE … WHERE battle_id = ? AND version = ?` in the caller's transaction, so two concurrent
//! submissions cannot both win, across server processes too.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::doc::{Json, StoredDoc};
use crate::db::Db;
use crate::schema::battle_scenarios;

/// A battle-scenario row with its document `D` (the application's scenario document; the store
/// only reads and writes it, see [`super::doc`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BattleScenarioRow<D> {
    /// The battle.
    pub battle_id: String,
    /// The document (machine state, roll log, pending entered dice).
    pub document: D,
    /// Optimistic-concurrency version, starting at 1.
    pub version: i64,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// The scenario row of a battle, if the workflow has started.
pub fn find<D: StoredDoc + std::fmt::Debug + Send + Sync + 'static>(
    conn: &mut Db,
    battle_id: &str,
) -> QueryResult<Option<BattleScenarioRow<D>>> {
    let found = crate::on_backend!(conn, |conn| battle_scenarios::table
        .find(battle_id)
        .select((
            battle_scenarios::battle_id,
            battle_scenarios::document,
            battle_scenarios::version,
            battle_scenarios::created_at,
            battle_scenarios::updated_at,
        ))
        .first::<(String, Json<D>, i64, NaiveDateTime, NaiveDateTime)>(conn)
        .optional())?;
    Ok(found.map(
        |(battle_id, Json(document), version, created_at, updated_at)| BattleScenarioRow {
            battle_id,
            document,
            version,
            created_at,
            updated_at,
        },
    ))
}

/// Inserts the first row (version 1).
pub fn insert<D: StoredDoc + std::fmt::Debug + Send + Sync + 'static>(
    conn: &mut Db,
    row: BattleScenarioRow<D>,
) -> QueryResult<()> {
    crate::live::marks::battle(&row.battle_id);
    diesel::insert_into(battle_scenarios::table)
        .values((
            battle_scenarios::battle_id.eq(&row.battle_id),
            battle_scenarios::document.eq(Json(row.document)),
            battle_scenarios::version.eq(row.version),
            battle_scenarios::created_at.eq(row.created_at),
            battle_scenarios::updated_at.eq(row.updated_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Writes `next` when the stored version is `next.version - 1`; false when it is stale.
pub fn update_if_version<D: StoredDoc + std::fmt::Debug + Send + Sync + 'static>(
    conn: &mut Db,
    next: BattleScenarioRow<D>,
) -> QueryResult<bool> {
    // The live streams of the battle look again once this commits (crate::live).
    crate::live::marks::battle(&next.battle_id);
    let changed = diesel::update(
        battle_scenarios::table
            .filter(battle_scenarios::battle_id.eq(&next.battle_id))
            .filter(battle_scenarios::version.eq(next.version - 1)),
    )
    .set((
        battle_scenarios::document.eq(Json(next.document)),
        battle_scenarios::version.eq(next.version),
        battle_scenarios::updated_at.eq(next.updated_at),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
