//! Post-battle sequences (docs/rules.md §2; API.md › Battles): one row per (battle, player force)
//! holding the roster at battle start, the domain [`fad_domain::campaign::Aftermath`] as JSON
//! between steps, and a `version`. Every step is load → domain call →
//! `UPDATE … WHERE version = ?` in one transaction; 0 rows means a concurrent step won.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{battle_aftermaths, campaigns, force_ledger, forces};

pub use fad_domain::lifecycle::AftermathStage;

/// An aftermath row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = battle_aftermaths)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct AftermathRow {
    /// The battle.
    pub battle_id: String,
    /// The force.
    pub force_id: String,
    /// The roster at battle start, as JSON.
    pub battle_start: String,
    /// The force version the snapshot was taken at.
    pub force_version: i64,
    /// Where the sequence stands (stored as its word).
    #[diesel(deserialize_as = String, serialize_as = String)]
    pub stage: AftermathStage,
    /// The domain `Aftermath` as JSON, once rolled.
    pub state: Option<String>,
    /// The committed `Outcome` as JSON, once finalized.
    pub outcome: Option<String>,
    /// Optimistic-concurrency version, starting at 1.
    pub version: i64,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// Inserts an aftermath row.
pub fn insert(conn: &mut Db, row: &AftermathRow) -> QueryResult<()> {
    diesel::insert_into(battle_aftermaths::table)
        .values(row.clone())
        .execute(conn)
        .map(|_| ())
}

/// Inserts rows in one statement (a result opens both sides' sequences at once).
pub fn insert_all(conn: &mut Db, rows: &[AftermathRow]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    // The multi connection cannot express a multi-row INSERT; each backend can.
    let insert = diesel::insert_into(battle_aftermaths::table).values(rows.to_vec());
    match conn {
        Db::Pg(pg) => insert.execute(pg)?,
        Db::Sqlite(sqlite) => insert.execute(sqlite)?,
    };
    Ok(())
}

/// The rows of a battle.
pub fn list_for_battle(conn: &mut Db, battle_id: &str) -> QueryResult<Vec<AftermathRow>> {
    battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq(battle_id))
        .order(battle_aftermaths::force_id.asc())
        .select(AftermathRow::as_select())
        .load(conn)
}

/// The row of one force in one battle.
pub fn find(conn: &mut Db, battle_id: &str, force_id: &str) -> QueryResult<Option<AftermathRow>> {
    battle_aftermaths::table
        .find((battle_id, force_id))
        .select(AftermathRow::as_select())
        .first(conn)
        .optional()
}

/// What a post-battle step reads besides the locked battle, in one statement (issue 8: a step
/// is a handful of round trips, whatever the force's size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepRow {
    /// The aftermath row.
    pub row: AftermathRow,
    /// The force's owner.
    pub owner_id: String,
    /// The force's newest ledger entry as (seq, balance); `None` without entries.
    pub ledger: Option<(i64, i64)>,
    /// The campaign's settings (JSON), `None` if the campaign is gone.
    pub settings: Option<String>,
}

/// The row of one force in one battle with its owner, newest ledger entry and the campaign's
/// settings (see [`StepRow`]).
pub fn find_for_step(
    conn: &mut Db,
    battle_id: &str,
    force_id: &str,
    campaign_id: &str,
) -> QueryResult<Option<StepRow>> {
    let newest = || {
        force_ledger::table
            .filter(force_ledger::force_id.eq(force_id))
            .order(force_ledger::seq.desc())
            .limit(1)
    };
    let found = battle_aftermaths::table
        .inner_join(forces::table.on(forces::id.eq(battle_aftermaths::force_id)))
        .filter(battle_aftermaths::battle_id.eq(battle_id))
        .filter(battle_aftermaths::force_id.eq(force_id))
        .select((
            AftermathRow::as_select(),
            forces::owner_id,
            newest().select(force_ledger::seq).single_value(),
            newest().select(force_ledger::balance).single_value(),
            campaigns::table
                .filter(campaigns::id.eq(campaign_id))
                .select(campaigns::settings)
                .single_value(),
        ))
        .first::<(
            AftermathRow,
            String,
            Option<i64>,
            Option<i64>,
            Option<String>,
        )>(conn)
        .optional()?;
    Ok(
        found.map(|(row, owner_id, seq, balance, settings)| StepRow {
            row,
            owner_id,
            ledger: seq.zip(balance),
            settings,
        }),
    )
}

/// How many of a battle's rows are not finalized yet (a finalize completes the battle at 0).
pub fn count_unfinalized(conn: &mut Db, battle_id: &str) -> QueryResult<i64> {
    battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq(battle_id))
        .filter(battle_aftermaths::stage.ne(AftermathStage::Finalized.as_str()))
        .count()
        .get_result(conn)
}

/// Deletes the rows of a battle (a result reopened before any aftermath step).
pub fn delete_for_battle(conn: &mut Db, battle_id: &str) -> QueryResult<usize> {
    diesel::delete(battle_aftermaths::table.filter(battle_aftermaths::battle_id.eq(battle_id)))
        .execute(conn)
}

/// Writes `next` (stage, state, outcome) when the stored version is `next.version - 1`.
/// Returns whether a row changed (false: a concurrent step won).
pub fn update_if_version(conn: &mut Db, next: &AftermathRow) -> QueryResult<bool> {
    let changed = diesel::update(
        battle_aftermaths::table
            .filter(battle_aftermaths::battle_id.eq(&next.battle_id))
            .filter(battle_aftermaths::force_id.eq(&next.force_id))
            .filter(battle_aftermaths::version.eq(next.version - 1)),
    )
    .set((
        battle_aftermaths::stage.eq(next.stage.as_str()),
        battle_aftermaths::state.eq(&next.state),
        battle_aftermaths::outcome.eq(&next.outcome),
        battle_aftermaths::version.eq(next.version),
        battle_aftermaths::updated_at.eq(next.updated_at),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Every row of a force, across battles (a void looks for later battles built on this one).
pub fn list_for_force(conn: &mut Db, force_id: &str) -> QueryResult<Vec<AftermathRow>> {
    battle_aftermaths::table
        .filter(battle_aftermaths::force_id.eq(force_id))
        .order(battle_aftermaths::force_version.asc())
        .select(AftermathRow::as_select())
        .load(conn)
}

/// Whether the force has fought: a result naming it was recorded (its post-battle sequence
/// exists, in any stage).
pub fn has_fought(conn: &mut Db, force_id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        battle_aftermaths::table.filter(battle_aftermaths::force_id.eq(force_id)),
    ))
    .get_result(conn)
}
