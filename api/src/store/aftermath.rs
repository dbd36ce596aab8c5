//! Post-battle sequences (docs/rules.md §2): one row per (battle, player force)
//! holding the roster at battle start, the domain [`fad_domain::campaign::Aftermath`] between
//! steps and the outcome once finalized (stored documents, see [`super::doc`]), and a `version`. Every step is load → domain call →
//! `UPDATE … WHERE version = ?` in one transaction; 0 rows means a concurrent step won.
//!
//! The state's two rosters live in columns of their own: the battle-start roster is the row's
//! `battle_start` (written once), and the roster after the rolls is `after_rolls`, written by
//! the steps that roll ([`AfterRolls::Changed`]). The steps after them rewrite only the rest
//! of the state, a fraction of its size.

use chrono::NaiveDateTime;
use diesel::backend::Backend;
use diesel::deserialize;
use diesel::prelude::*;
use fad_domain::campaign::Aftermath;
use fad_domain::campaign::sequence::Outcome;
use fad_domain::roster::Force as Roster;

use super::doc::{self, DocError, StoredDoc};
use crate::db::Db;
use crate::schema::{battle_aftermaths, campaigns, force_ledger, forces};

pub use fad_domain::lifecycle::AftermathStage;

/// An aftermath row, its documents decoded (see [`super::doc`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AftermathRow {
    /// The battle.
    pub battle_id: String,
    /// The force.
    pub force_id: String,
    /// The roster at battle start.
    pub battle_start: Roster,
    /// The force version the snapshot was taken at.
    pub force_version: i64,
    /// Where the sequence stands.
    pub stage: AftermathStage,
    /// The domain state, once rolled.
    pub state: Option<Aftermath>,
    /// The committed outcome, once finalized.
    pub outcome: Option<Outcome>,
    /// Optimistic-concurrency version, starting at 1.
    pub version: i64,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
}

/// The row as stored: documents as text. The state leaves out its battle-start roster when it
/// is the row's own (it always is), so a row holds that roster once, and its after-rolls
/// roster, kept in `after_rolls`. Format 1 states hold both rosters, and rows written before
/// `after_rolls` existed hold that roster in the state; both load as they are.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = battle_aftermaths)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct StoredAftermath {
    /// The battle.
    pub battle_id: String,
    /// The force.
    pub force_id: String,
    /// The roster at battle start (a roster document).
    pub battle_start: String,
    /// The force version the snapshot was taken at.
    pub force_version: i64,
    /// The stage's word.
    pub stage: String,
    /// The state document, once rolled.
    pub state: Option<String>,
    /// The outcome document, once finalized.
    pub outcome: Option<String>,
    /// Optimistic-concurrency version.
    pub version: i64,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
    /// The state's after-rolls roster (a roster document); `None` in rows written before it
    /// had a column, whose state holds it.
    pub after_rolls: Option<String>,
}

const BATTLE_START: &str = "battle_start";
const AFTER_ROLLS: &str = "after_rolls";

/// Whether a step changed the state's after-rolls roster. Only the roll steps do: purchases,
/// reinforcements and finalize work out their effects from it without changing it, so the row
/// keeps the roster as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterRolls {
    /// A roll step ran: the roster is written.
    Changed,
    /// The roster is as loaded: it is not written again (unless the row predates its column).
    Unchanged,
}

/// A state as stored beside `battle_start` and `after_rolls`: without its after-rolls
/// roster, and without its battle-start roster when that is the row's.
pub fn state_text(state: &Aftermath, battle_start: &Roster) -> Result<String, DocError> {
    let omitted: &[&str] = if &state.battle_start == battle_start {
        &[BATTLE_START, AFTER_ROLLS]
    } else {
        &[AFTER_ROLLS]
    };
    doc::encode_without(state, omitted)
}

/// A stored state, its battle-start roster taken from the row's (stored as
/// `battle_start_text`) and its after-rolls roster from `after_rolls_text` when it leaves
/// them out.
pub fn state_from(
    text: &str,
    battle_start_text: &str,
    after_rolls_text: Option<&str>,
) -> Result<Aftermath, DocError> {
    if let Some(state) = spliced_state(text, battle_start_text, after_rolls_text) {
        return Ok(state);
    }
    let as_value = |text: &str| -> Result<serde_json::Value, DocError> {
        let roster: Roster = doc::decode(text)?;
        serde_json::to_value(roster).map_err(|e| DocError::Encode {
            kind: <Roster as StoredDoc>::KIND,
            message: e.to_string(),
        })
    };
    let start = as_value(battle_start_text)?;
    let after = after_rolls_text.map(as_value).transpose()?;
    doc::decode_with(text, |map| {
        map.entry(BATTLE_START).or_insert(start);
        if let Some(after) = after {
            map.entry(AFTER_ROLLS).or_insert(after);
        }
    })
}

/// A state in today's format, which leaves out its rosters, read in one pass with the row's
/// rosters spliced in as text. `None` for a state that holds a roster of its own (it fails
/// here on the duplicate field) or when a document is in another format.
fn spliced_state(
    text: &str,
    battle_start_text: &str,
    after_rolls_text: Option<&str>,
) -> Option<Aftermath> {
    let today = |text: &str| doc::in_format(text, <Roster as StoredDoc>::VERSION);
    if !doc::in_format(text, <Aftermath as StoredDoc>::VERSION)
        || !today(battle_start_text)
        || !after_rolls_text.is_none_or(today)
    {
        return None;
    }
    let after_len = after_rolls_text.map_or(0, str::len);
    let mut whole = String::with_capacity(text.len() + battle_start_text.len() + after_len + 40);
    let field = |whole: &mut String, name: &str, value: &str| {
        whole.push('"');
        whole.push_str(name);
        whole.push_str(r#"":"#);
        whole.push_str(value);
        whole.push(',');
    };
    whole.push('{');
    field(&mut whole, BATTLE_START, battle_start_text);
    if let Some(after) = after_rolls_text {
        field(&mut whole, AFTER_ROLLS, after);
    }
    whole.push_str(&text[1..]);
    serde_json::from_str(&whole).ok()
}

impl StoredAftermath {
    /// The row with its documents decoded.
    pub fn decode(self) -> Result<AftermathRow, DocError> {
        // A state read with the row's rosters spliced in already holds the battle-start roster
        // decoded: a copy costs less than reading the text again (a roster in an older format
        // is read on its own, through its upgrades).
        let after_rolls = self.after_rolls.as_deref();
        let spliced = self
            .state
            .as_deref()
            .and_then(|text| spliced_state(text, &self.battle_start, after_rolls));
        let battle_start: Roster = match &spliced {
            Some(state) => state.battle_start.clone(),
            None => doc::decode(&self.battle_start)?,
        };
        let state = match spliced {
            Some(state) => Some(state),
            None => self
                .state
                .as_deref()
                .map(|text| state_from(text, &self.battle_start, after_rolls))
                .transpose()?,
        };
        Ok(AftermathRow {
            stage: AftermathStage::try_from(self.stage).map_err(|e| DocError::Decode {
                kind: "aftermath stage",
                version: 1,
                message: e.to_string(),
            })?,
            outcome: self.outcome.as_deref().map(doc::decode).transpose()?,
            state,
            battle_start,
            battle_id: self.battle_id,
            force_id: self.force_id,
            force_version: self.force_version,
            version: self.version,
            updated_at: self.updated_at,
        })
    }
}

impl AftermathRow {
    /// The row as stored, in today's formats.
    pub fn encode(&self) -> Result<StoredAftermath, DocError> {
        self.encode_parts(true)
    }

    /// [`Self::encode`], the battle-start roster left empty unless `with_start`.
    fn encode_parts(&self, with_start: bool) -> Result<StoredAftermath, DocError> {
        Ok(StoredAftermath {
            battle_id: self.battle_id.clone(),
            force_id: self.force_id.clone(),
            battle_start: if with_start {
                doc::encode(&self.battle_start)?
            } else {
                String::new()
            },
            force_version: self.force_version,
            stage: self.stage.as_str().to_owned(),
            state: self
                .state
                .as_ref()
                .map(|s| state_text(s, &self.battle_start))
                .transpose()?,
            outcome: self.outcome.as_ref().map(doc::encode).transpose()?,
            version: self.version,
            updated_at: self.updated_at,
            after_rolls: self
                .state
                .as_ref()
                .map(|s| doc::encode(&s.after_rolls))
                .transpose()?,
        })
    }
}

impl<DB: Backend> Selectable<DB> for AftermathRow
where
    StoredAftermath: Selectable<DB>,
{
    type SelectExpression = <StoredAftermath as Selectable<DB>>::SelectExpression;

    fn construct_selection() -> Self::SelectExpression {
        StoredAftermath::construct_selection()
    }
}

impl<ST, DB: Backend> Queryable<ST, DB> for AftermathRow
where
    StoredAftermath: Queryable<ST, DB>,
{
    type Row = <StoredAftermath as Queryable<ST, DB>>::Row;

    fn build(row: Self::Row) -> deserialize::Result<Self> {
        Ok(StoredAftermath::build(row)?.decode()?)
    }
}

/// Inserts an aftermath row.
pub fn insert(conn: &mut Db, row: &AftermathRow) -> QueryResult<()> {
    // The live streams of the battle look again once this commits (crate::live).
    crate::live::marks::battle(&row.battle_id);
    let stored = row
        .encode()
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    diesel::insert_into(battle_aftermaths::table)
        .values(stored)
        .execute(conn)
        .map(|_| ())
}

/// Inserts rows in one statement (a result opens both sides' sequences at once). Each comes
/// with its force's roster as the forces table stores it, the text of its `battle_start`: in
/// today's format it is stored as it is rather than written out again.
pub fn insert_all(conn: &mut Db, rows: &[(&AftermathRow, &str)]) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut stored = Vec::with_capacity(rows.len());
    for (row, start_text) in rows {
        crate::live::marks::battle(&row.battle_id);
        let today = doc::in_format(start_text, <Roster as StoredDoc>::VERSION);
        let mut one = row
            .encode_parts(!today)
            .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
        if today {
            one.battle_start = (*start_text).to_owned();
        }
        stored.push(one);
    }
    // The multi connection cannot express a multi-row INSERT; each backend can.
    let insert = diesel::insert_into(battle_aftermaths::table).values(stored);
    match conn {
        Db::Pg(pg) => insert.execute(pg)?,
        Db::Sqlite(sqlite) => insert.execute(sqlite)?,
    };
    Ok(())
}

/// Where one side's sequence of a battle stands, without its documents.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = battle_aftermaths)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct SequenceStage {
    /// The force.
    pub force_id: String,
    /// Where the sequence stands.
    #[diesel(deserialize_as = String)]
    pub stage: AftermathStage,
    /// The row's version.
    pub version: i64,
}

/// Where each sequence of a battle stands (what a battle's answer shows), by force id.
pub fn stages_for_battle(conn: &mut Db, battle_id: &str) -> QueryResult<Vec<SequenceStage>> {
    crate::on_backend!(conn, |conn| battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq(battle_id))
        .order(battle_aftermaths::force_id.asc())
        .select(SequenceStage::as_select())
        .load(conn))
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
    crate::on_backend!(conn, |conn| battle_aftermaths::table
        .find((battle_id, force_id))
        .select(AftermathRow::as_select())
        .first(conn)
        .optional())
}

/// What a post-battle step reads besides the locked battle, in one statement (a step
/// is a handful of round trips, whatever the force's size).
#[derive(Debug, Clone, PartialEq)]
pub struct StepRow {
    /// The aftermath row.
    pub row: AftermathRow,
    /// The force's owner.
    pub owner_id: String,
    /// The force's newest ledger entry as (seq, balance); `None` without entries.
    pub ledger: Option<(i64, i64)>,
    /// The campaign's settings (JSON), `None` if the campaign is gone.
    pub settings: Option<String>,
    /// Whether the row keeps its after-rolls roster in its own column (rows written before
    /// that column existed hold it in the state, and the next step moves it there).
    pub after_rolls_apart: bool,
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
    let found = crate::on_backend!(conn, |conn| battle_aftermaths::table
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
            battle_aftermaths::after_rolls.is_not_null(),
        ))
        .first::<(
            AftermathRow,
            String,
            Option<i64>,
            Option<i64>,
            Option<String>,
            bool,
        )>(conn)
        .optional())?;
    Ok(found.map(
        |(row, owner_id, seq, balance, settings, after_rolls_apart)| StepRow {
            row,
            owner_id,
            ledger: seq.zip(balance),
            settings,
            after_rolls_apart,
        },
    ))
}

/// How many of a battle's rows are not finalized yet (a finalize completes the battle at 0).
pub fn count_unfinalized(conn: &mut Db, battle_id: &str) -> QueryResult<i64> {
    crate::on_backend!(conn, |conn| battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq(battle_id))
        .filter(battle_aftermaths::stage.ne(AftermathStage::Finalized.as_str()))
        .count()
        .get_result(conn))
}

/// Deletes the rows of a battle (a result reopened before any aftermath step).
pub fn delete_for_battle(conn: &mut Db, battle_id: &str) -> QueryResult<usize> {
    crate::live::marks::battle(battle_id);
    diesel::delete(battle_aftermaths::table.filter(battle_aftermaths::battle_id.eq(battle_id)))
        .execute(conn)
}

/// Writes `next` (stage, state, outcome) when the stored version is `next.version - 1`; its
/// after-rolls roster only when `after_rolls` says it changed or the row does not keep it
/// apart yet (`apart`, see [`StepRow::after_rolls_apart`]). `outcome_roster` is the outcome's
/// roster as stored when the caller wrote it out already (see [`outcome_text`]). Returns
/// whether a row changed (false: a concurrent step won).
pub fn update_if_version(
    conn: &mut Db,
    next: &AftermathRow,
    after_rolls: AfterRolls,
    apart: bool,
    outcome_roster: Option<&str>,
) -> QueryResult<bool> {
    // Only the documents a step changes are written (the battle-start roster never is).
    let write_roster = after_rolls == AfterRolls::Changed || !apart;
    let encoded = || -> Result<_, DocError> {
        let state = next
            .state
            .as_ref()
            .map(|s| state_text(s, &next.battle_start))
            .transpose()?;
        let roster = match &next.state {
            Some(state) if write_roster => Some(doc::encode(&state.after_rolls)?),
            _ => None,
        };
        let outcome = next
            .outcome
            .as_ref()
            .map(|o| outcome_text(o, outcome_roster))
            .transpose()?;
        Ok((state, roster, outcome))
    };
    let (state, roster, outcome) =
        encoded().map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    crate::live::marks::battle(&next.battle_id);
    let target = battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq(&next.battle_id))
        .filter(battle_aftermaths::force_id.eq(&next.force_id))
        .filter(battle_aftermaths::version.eq(next.version - 1));
    let documents = (
        battle_aftermaths::stage.eq(next.stage.as_str()),
        battle_aftermaths::state.eq(&state),
        battle_aftermaths::outcome.eq(&outcome),
        battle_aftermaths::version.eq(next.version),
        battle_aftermaths::updated_at.eq(next.updated_at),
    );
    let changed = match roster {
        Some(roster) => crate::on_backend!(conn, |conn| diesel::update(target)
            .set((documents, battle_aftermaths::after_rolls.eq(Some(roster))))
            .execute(conn))?,
        None => crate::on_backend!(conn, |conn| diesel::update(target)
            .set(documents)
            .execute(conn))?,
    };
    Ok(changed == 1)
}

/// `outcome` as stored, its roster given as stored already (`roster_text`: finalize writes the
/// same roster to the force) and put in as text rather than written out a second time. The
/// document is the one [`doc::encode`] gives, its roster's fields first.
pub fn outcome_text(outcome: &Outcome, roster_text: Option<&str>) -> Result<String, DocError> {
    let Some(roster) = roster_text.filter(|t| doc::in_format(t, <Roster as StoredDoc>::VERSION))
    else {
        return doc::encode(outcome);
    };
    let rest = doc::encode_without(outcome, &["roster"])?;
    // Both start `{"v":2,`: the roster goes in after the outcome's version, without its own.
    let (Some(at), Some(from)) = (rest.find(','), roster.find(',')) else {
        return doc::encode(outcome);
    };
    let mut whole = String::with_capacity(rest.len() + roster.len() + 12);
    whole.push_str(&rest[..=at]);
    whole.push_str(r#""roster":{"#);
    whole.push_str(&roster[from + 1..]);
    whole.push(',');
    whole.push_str(&rest[at + 1..]);
    Ok(whole)
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
