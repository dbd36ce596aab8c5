//! Solo play: one row per battle or one-shot scenario with the non-player side's groups and
//! turn log as a JSON document and an optimistic-concurrency `version`. Writes use
//! `UPDATE … WHERE owner_id = ? AND version = ?` in the caller's transaction, so of two turns
//! started at once only one is written.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use fad_domain::solo::SoloState;

use super::doc::{Json, StoredDoc};
use crate::db::Db;
use crate::schema::solo_states;

impl StoredDoc for SoloState {
    const KIND: &'static str = "solo play";
}

/// Whose solo state a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner<'a> {
    /// A campaign battle's non-player side.
    Battle(&'a str),
    /// A one-shot scenario's non-player side.
    Scenario(&'a str),
}

impl Owner<'_> {
    /// The battle's or scenario's id.
    pub fn id(&self) -> &str {
        match self {
            Self::Battle(id) | Self::Scenario(id) => id,
        }
    }
}

/// A solo row.
#[derive(Debug, Clone, PartialEq)]
pub struct SoloRow {
    /// The state.
    pub document: SoloState,
    /// Optimistic-concurrency version, from 1.
    pub version: i64,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// The solo row of a battle or scenario, if groups have been set up.
pub fn find(conn: &mut Db, owner: Owner<'_>) -> QueryResult<Option<SoloRow>> {
    let found = solo_states::table
        .find(owner.id())
        .select((
            solo_states::document,
            solo_states::version,
            solo_states::updated_at,
        ))
        .first::<(Json<SoloState>, i64, NaiveDateTime)>(conn)
        .optional()?;
    Ok(found.map(|(Json(document), version, updated_at)| SoloRow {
        document,
        version,
        updated_at,
    }))
}

/// Writes `document` as version `version`: inserts when `version` is 1, else updates the row
/// at `version - 1`. False when another write got there first.
pub fn save(
    conn: &mut Db,
    owner: Owner<'_>,
    document: &SoloState,
    version: i64,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    if version == 1 {
        let (battle, scenario) = match owner {
            Owner::Battle(id) => (Some(id), None),
            Owner::Scenario(id) => (None, Some(id)),
        };
        let inserted = diesel::insert_into(solo_states::table)
            .values((
                solo_states::owner_id.eq(owner.id()),
                solo_states::battle_id.eq(battle),
                solo_states::scenario_id.eq(scenario),
                solo_states::document.eq(Json(document.clone())),
                solo_states::version.eq(1_i64),
                solo_states::created_at.eq(now),
                solo_states::updated_at.eq(now),
            ))
            .execute(conn);
        // A row inserted meanwhile by another writer is a lost race like a stale version.
        return match inserted {
            Ok(n) => Ok(n == 1),
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => Ok(false),
            Err(e) => Err(e),
        };
    }
    let changed = diesel::update(
        solo_states::table
            .filter(solo_states::owner_id.eq(owner.id()))
            .filter(solo_states::version.eq(version - 1)),
    )
    .set((
        solo_states::document.eq(Json(document.clone())),
        solo_states::version.eq(version),
        solo_states::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
