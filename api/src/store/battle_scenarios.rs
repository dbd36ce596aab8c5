//! A battle's scenario workflow (issue 7 item 1): one row per battle with the scenario document
//! as JSON and an optimistic-concurrency `version`. Steps write with
//! `UPDATE … WHERE battle_id = ? AND version = ?` in the caller's transaction, so two concurrent
//! submissions cannot both win, across server processes too.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::battle_scenarios;

/// A battle-scenario row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = battle_scenarios)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct BattleScenarioRow {
    /// The battle.
    pub battle_id: String,
    /// The document as JSON (machine state, roll log, pending entered dice).
    pub document: String,
    /// Optimistic-concurrency version, starting at 1.
    pub version: i64,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// The scenario row of a battle, if the workflow has started.
pub fn find(conn: &mut Db, battle_id: &str) -> QueryResult<Option<BattleScenarioRow>> {
    battle_scenarios::table
        .find(battle_id)
        .select(BattleScenarioRow::as_select())
        .first(conn)
        .optional()
}

/// Inserts the first row (version 1).
pub fn insert(conn: &mut Db, row: &BattleScenarioRow) -> QueryResult<()> {
    diesel::insert_into(battle_scenarios::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// Writes `next` when the stored version is `next.version - 1`; false when it is stale.
pub fn update_if_version(conn: &mut Db, next: &BattleScenarioRow) -> QueryResult<bool> {
    let changed = diesel::update(
        battle_scenarios::table
            .filter(battle_scenarios::battle_id.eq(&next.battle_id))
            .filter(battle_scenarios::version.eq(next.version - 1)),
    )
    .set((
        battle_scenarios::document.eq(&next.document),
        battle_scenarios::version.eq(next.version),
        battle_scenarios::updated_at.eq(next.updated_at),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
