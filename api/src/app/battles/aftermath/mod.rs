//! One player force's post-battle sequence (docs/rules.md §2.1–§2.3, C1–C24): `roll`,
//! `reinforcements`, `purchases`, `finalize` and the read.
//!
//! The domain [`Aftermath`] is stored as JSON per (battle, force) with a `version`. Each step
//! is one transaction: lock the battle row, load, call the domain, and
//! `UPDATE … WHERE version = ?` (0 rows: 409). Dice already rolled live in the stored state
//! and are never rolled again; `roll` makes each roll step once, one step per request or all
//! that remain (a step already rolled is 409).

pub mod finalize;
pub mod purchases;
pub mod read;
pub mod reinforcements;
pub mod roll;

use fad_domain::lifecycle::{AftermathStage, BattleState};
use std::collections::BTreeMap;

use fad_domain::campaign::reinforcements::{can_take_troopers, establishment_room, unit_allowance};
use fad_domain::campaign::{Aftermath, DueRoll, Outcome};
use fad_domain::dice::{
    DiceError, EnteredDice, RollLog, RollStep, ServerDice, TableDice, parse_steps,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::auth::{Caller, CampaignAccess, Need};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::{self, aftermath as rows, battles, campaigns};

use super::{battle_not_found, lock_authorized, problems};

/// Player-entered dice, keyed by step and then subject.
pub type RawDice = BTreeMap<String, BTreeMap<String, Vec<u8>>>;

/// What a unit may still receive from the pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UnitRoom {
    /// The unit.
    pub unit_id: String,
    /// Its name.
    pub name: String,
    /// Troopers it may still receive (up to its establishment, C9).
    pub may_receive: u32,
    /// Troopers the `reinforcements` step accepts for it now, the rest of the current
    /// allocation kept: `may_receive`, capped by the pool less what the other units and the new
    /// squad take.
    pub may_assign: u32,
}

/// The choices still open before `finalize`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Pending {
    /// Campaign points available: the banked balance plus this battle's 2 × P (C12).
    pub cp_available: u32,
    /// Spent by the current purchases.
    pub cp_spent: u32,
    /// The pool's size: the 2d6 plus the extra dice bought (C11).
    pub pool_total: u32,
    /// Troopers allocated by the current choice (existing units and new squad).
    pub pool_allocated: u32,
    /// Per multi-figure infantry unit, the troopers it may still receive.
    pub units: Vec<UnitRoom>,
}

/// One roll the next step makes, for a form to ask for exactly those dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct NextRoll {
    /// The step, as in the roll log and the `dice` object.
    #[schema(example = "replacement")]
    pub step: RollStep,
    /// The unit id, or the force id for the reinforcement pool.
    pub subject: String,
    /// The unit's name (absent for the pool).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_name: Option<String>,
    /// The dice, for example `1d6` or `2d6`: enter one value per die.
    pub dice: String,
    /// Why the rules call for the roll, and what the faces do.
    pub why: String,
    /// The step's name under the campaign's ruleset where it differs from the step's own
    /// ("Motivation change" for `resolve_change` under `gzg-fma-1999`, M6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl From<DueRoll> for NextRoll {
    fn from(d: DueRoll) -> Self {
        Self {
            step: d.step,
            subject: d.subject,
            unit_name: d.unit_name,
            dice: d.dice,
            why: d.why,
            label: d.label,
        }
    }
}

/// One force's post-battle sequence.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AftermathResponse {
    /// The battle.
    pub battle_id: String,
    /// The force.
    pub force_id: String,
    /// `open` (nothing rolled yet), `rolling` (some roll steps made), `rolled` (every roll
    /// made: purchases and reinforcements are open) or `finalized`.
    pub stage: AftermathStage,
    /// The step version.
    pub version: i64,
    /// The next roll step (`replacement`, `vehicle_replacement`, `quality_loss`,
    /// `unknown_resolve`, `resolve_change`, `reinforcements`); `null` once every roll is made.
    /// Steps that need no dice are passed.
    #[schema(example = "replacement")]
    pub next_step: Option<RollStep>,
    /// The rolls the next step makes; empty once every roll is made.
    pub next_dice: Vec<NextRoll>,
    /// The sequence so far (roster, per-unit changes, campaign points, purchases, pool, and the
    /// whole roll log); `null` before the first roll.
    #[schema(value_type = Option<fad_domain::campaign::Outcome>)]
    pub outcome: Option<Box<RawValue>>,
    /// The rolls this request made (empty for a read).
    pub rolls: RollLog,
    /// Entered values no rule called for, by step and subject: in a step's answer, that
    /// request's; in `GET`, every request's so far.
    #[schema(value_type = fad_domain::dice::EnteredDiceSchema)]
    pub unused_dice: EnteredDice,
    /// The choices still open (absent once finalized or before every roll is made).
    pub pending: Option<Pending>,
    /// The commitment to the seed of this sequence's next server roll (absent once finalized):
    /// its seed appears in that roll's `proof` once used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice_commitment: Option<crate::app::dice::DiceCommitment>,
    /// The ruleset the campaign plays: its tables, costs and campaign points apply here.
    pub ruleset: fad_domain::rulesets::RulesetPin,
}

/// The body of `roll`: which step to roll (all that remain when absent) and entered dice.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"dice": {"replacement": {"{unit_id}": [4]}, "resolve_change": {"{unit_id}": [3]}, "reinforcements": {"{force_id}": [3, 4]}}}))]
pub struct DiceRequest {
    /// The roll step to make now, which must be the next one (`next_step`); absent: every
    /// step that remains.
    #[serde(default)]
    #[schema(value_type = Option<RollStep>, example = "replacement")]
    pub step: Option<String>,
    /// Player-entered dice, keyed by step and then unit id (force id for `reinforcements`),
    /// one value per die.
    #[serde(default)]
    pub dice: Option<RawDice>,
    /// Text of the player's choosing mixed into the committed seed of the server dice, so that
    /// not even the service could have chosen the outcome (1–128 characters).
    #[serde(default)]
    pub client_seed: Option<String>,
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// Converts dice problems into a 422.
pub fn dice_errors(errors: Vec<DiceError>) -> ApiError {
    errors.into()
}

/// Refuses entered values that some roll drew from without using them all up (two values for
/// a one-die roll): the roll would be committed with a typo in it. The shared check of every
/// rolling path ([`crate::app::dice::refuse_surplus`]).
pub fn refuse_surplus(dice: &TableDice) -> Result<(), ApiError> {
    crate::app::dice::refuse_surplus(dice.surplus(), DiceError::field)
}

/// Adds `more` unused values to `into`, by step and subject.
pub fn merge_unused(into: &mut EnteredDice, more: EnteredDice) {
    for (step, subjects) in more {
        for (subject, values) in subjects {
            into.entry(step)
                .or_default()
                .entry(subject)
                .or_default()
                .extend(values);
        }
    }
}

/// Builds the dice source: entered values (checked for range and step names) with server
/// fallback from a seed drawn from the OS.
pub fn table_dice(raw: Option<&RawDice>) -> Result<TableDice, ApiError> {
    let empty = RawDice::new();
    let entered = parse_steps(raw.unwrap_or(&empty)).map_err(crate::error::unknown_dice_steps)?;
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(internal)?;
    TableDice::new(&entered, ServerDice::from_seed(seed)).map_err(dice_errors)
}

/// A step's context, loaded under the battle's row lock.
pub struct Step {
    /// The battle, as locked.
    pub battle: battles::Battle,
    /// The aftermath row.
    pub row: rows::AftermathRow,
    /// The caller's access.
    pub access: CampaignAccess,
    /// The campaign's house rules.
    pub rules: fad_domain::house_rules::HouseRules,
    /// The campaign's ruleset (its tables, costs and campaign points).
    pub ruleset: std::sync::Arc<fad_domain::rulesets::Ruleset>,
    /// The force's newest ledger entry as (seq, balance), read under the lock.
    pub ledger: Option<(i64, i64)>,
    /// The rolled state with the current bank (see [`with_current_bank`]); `None` unless the
    /// stage is `rolled`.
    state: Option<Aftermath>,
    /// Whether the row keeps its after-rolls roster apart from its state (see
    /// [`rows::StepRow::after_rolls_apart`]).
    after_rolls_apart: bool,
}

impl Step {
    /// The force's campaign-point balance now.
    pub fn balance(&self) -> u32 {
        let balance = self.ledger.map_or(0, |(_, balance)| balance);
        u32::try_from(balance).unwrap_or(u32::MAX)
    }

    /// The stored domain state; 409 until every roll is made and after `finalize`.
    pub fn rolled(&mut self) -> Result<Aftermath, ApiError> {
        match self.row.stage {
            AftermathStage::Open => Err(not_rolled(None)),
            AftermathStage::Finalized => Err(finalized()),
            AftermathStage::Rolling => Err(not_rolled(
                self.state.as_ref().and_then(Aftermath::next_step),
            )),
            _ => self.take_state(),
        }
    }

    /// The stored domain state of a `rolling` or `rolled` sequence.
    pub fn take_state(&mut self) -> Result<Aftermath, ApiError> {
        self.state
            .take()
            .ok_or_else(|| internal("rolled aftermath without state"))
    }
}

/// Authorizes a step (the force's owner or the organiser), locks the battle, and loads the row.
/// 409 unless the battle is in `aftermath`. Three statements: the lock, the caller's
/// membership, and the row with the force's owner, ledger balance and campaign settings.
pub fn begin(
    conn: &mut Db,
    caller: &Caller,
    battle_id: &str,
    force_id: &str,
) -> Result<Step, ApiError> {
    let (battle, access) = lock_authorized(conn, caller, battle_id, Need::Write)?;
    let loaded =
        rows::find_for_step(conn, battle_id, force_id, &battle.campaign_id)?.ok_or_else(|| {
            ApiError::NotFound("That force has no post-battle sequence in this battle.".to_owned())
        })?;
    if !access.is_user_or_organiser(&loaded.owner_id) {
        return Err(ApiError::Forbidden(
            "Only the force's owner or the organiser may run its post-battle sequence.".to_owned(),
        ));
    }
    match battle.state {
        BattleState::Aftermath | BattleState::Complete => {}
        BattleState::Pending => {
            return Err(ApiError::Conflict(
                "The result awaits confirmation by the other side or the organiser.".to_owned(),
            ));
        }
        BattleState::Void => {
            return Err(ApiError::Conflict(
                "This battle is void; its post-battle sequences are closed.".to_owned(),
            ));
        }
        _ => {
            return Err(ApiError::Conflict(
                "No result is recorded for this battle yet.".to_owned(),
            ));
        }
    }
    let settings = loaded.settings.ok_or_else(battle_not_found)?;
    let settings =
        serde_json::from_str::<campaigns::CampaignSettings>(&settings).map_err(internal)?;
    let rules = settings.house_rules;
    let ruleset = crate::app::rulesets::load(conn, &settings.ruleset)?;
    let mut row = loaded.row;
    let ledger = loaded.ledger;
    let after_rolls_apart = loaded.after_rolls_apart;
    // The step owns the state from here; `save` writes the next one into the row.
    let state = match row.stage {
        AftermathStage::Rolled | AftermathStage::Rolling => {
            row.state.take().map(|mut aftermath| {
                // As in `with_current_bank`: the balance as it is now.
                aftermath.cp_banked =
                    u32::try_from(ledger.map_or(0, |(_, b)| b)).unwrap_or(u32::MAX);
                aftermath
            })
        }
        _ => None,
    };
    Ok(Step {
        battle,
        row,
        access,
        rules,
        ruleset,
        ledger,
        state,
        after_rolls_apart,
    })
}

/// The row with its rolled state's banked campaign points set to the force's ledger balance
/// as it is now (C12: available = banked + 2 × P). The roll stored the balance of its time; an
/// organiser's ledger adjustment before `finalize` must count in the purchases' budget and in
/// the committed outcome, or the outcome's balance would disagree with the ledger it writes.
pub fn with_current_bank(
    conn: &mut Db,
    mut row: rows::AftermathRow,
) -> Result<rows::AftermathRow, ApiError> {
    if !row.stage.has_rolled() {
        return Ok(row);
    }
    if row.state.is_none() {
        return Ok(row);
    }
    let banked = store::ledger::balance(conn, &row.force_id)?;
    let banked = u32::try_from(banked).unwrap_or(u32::MAX);
    if let Some(aftermath) = &mut row.state {
        aftermath.cp_banked = banked;
    }
    Ok(row)
}

/// Troopers the current allocation gives each unit.
fn given_by_unit(aftermath: &Aftermath) -> BTreeMap<&str, u32> {
    let mut given = BTreeMap::new();
    for a in aftermath
        .reinforcements
        .iter()
        .flat_map(|choice| &choice.allocations)
    {
        *given.entry(a.unit_id.as_str()).or_insert(0) += a.troopers;
    }
    given
}

fn not_rolled(next: Option<RollStep>) -> ApiError {
    match next {
        Some(step) => ApiError::Conflict(format!(
            "Roll first: the post-battle rolls are not all made; the next step to roll is {step}."
        )),
        None => {
            ApiError::Conflict("Roll first: the post-battle rolls have not been made.".to_owned())
        }
    }
}

fn finalized() -> ApiError {
    ApiError::Conflict("This post-battle sequence is finalized.".to_owned())
}

/// Makes the step's row the next one (stage, state, outcome, version) and saves it when
/// nobody else changed the row meanwhile (else 409, and the transaction is not committed).
/// The row takes the state rather than a copy: a state holds whole rosters. `after_rolls`
/// says whether the step changed the after-rolls roster (only rolling does), which is then
/// written again; `outcome_roster` is the outcome's roster as stored, when the step wrote it
/// out already (finalize).
pub fn save(
    conn: &mut Db,
    step: &mut Step,
    stage: AftermathStage,
    state: Aftermath,
    outcome: Option<Outcome>,
    after_rolls: rows::AfterRolls,
    outcome_roster: Option<&str>,
) -> Result<(), ApiError> {
    let row = &mut step.row;
    row.stage = stage;
    row.state = Some(state);
    row.outcome = outcome;
    row.version += 1;
    row.updated_at = store::now();
    if !rows::update_if_version(
        conn,
        row,
        after_rolls,
        step.after_rolls_apart,
        outcome_roster,
    )? {
        return Err(ApiError::Conflict(
            "A concurrent step changed this post-battle sequence; reload and retry.".to_owned(),
        ));
    }
    step.after_rolls_apart = true;
    Ok(())
}

/// [`save`] for a choice made once every roll is made (purchases, reinforcements): the
/// sequence stays `rolled`, and its rolled roster is as it was.
pub fn save_choice(conn: &mut Db, step: &mut Step, state: Aftermath) -> Result<(), ApiError> {
    save(
        conn,
        step,
        AftermathStage::Rolled,
        state,
        None,
        rows::AfterRolls::Unchanged,
        None,
    )
}

/// The state a step just saved with [`save`].
pub fn saved_state(row: &rows::AftermathRow) -> Result<&Aftermath, ApiError> {
    row.state
        .as_ref()
        .ok_or_else(|| internal("a saved aftermath without state"))
}

/// `value` as JSON text inside an answer: written once, not built as a tree first.
pub fn raw_json<T: Serialize>(value: &T) -> Result<Box<RawValue>, ApiError> {
    serde_json::value::to_raw_value(value).map_err(internal)
}

/// The response for a read of a row: no rolls, every unused value so far. `preview` is the
/// state an `open` sequence would start from, for the first step's dice.
pub fn response(
    row: &rows::AftermathRow,
    preview: Option<&Aftermath>,
) -> Result<AftermathResponse, ApiError> {
    let state = row.state.as_ref();
    let unused = state.map(|s| s.unused_dice.clone()).unwrap_or_default();
    response_with(row, state.or(preview), None, Vec::new(), unused)
}

/// [`response`] from the state and outcome the step already holds, instead of parsing back
/// the JSON it just stored: `state` is the row's state, `done` its finalized outcome (read
/// from the row when `None`).
pub fn response_with(
    row: &rows::AftermathRow,
    state: Option<&Aftermath>,
    done: Option<Box<RawValue>>,
    rolls: RollLog,
    unused_dice: EnteredDice,
) -> Result<AftermathResponse, ApiError> {
    let next_dice = state
        .filter(|_| row.outcome.is_none())
        .map(|s| s.next_dice().into_iter().map(NextRoll::from).collect())
        .unwrap_or_default();
    let next_step = state
        .filter(|_| row.outcome.is_none())
        .and_then(Aftermath::next_step);
    let (outcome, pending) = match (&row.outcome, state) {
        (Some(_), _) if done.is_some() => (done, None),
        (Some(done), _) => (Some(raw_json(done)?), None),
        // An open sequence's state is only a preview of the first step.
        (None, _) if row.stage == AftermathStage::Open => (None, None),
        (None, Some(aftermath)) if !aftermath.fully_rolled() => (
            Some(raw_json(&aftermath.outcome().map_err(problems)?)?),
            None,
        ),
        (None, Some(aftermath)) => {
            let (outcome, bought) = aftermath.outcome_and_bought().map_err(problems)?;
            let pool = &outcome.reinforcements;
            let pool_allocated = pool.allocated + pool.new_squad;
            let given = given_by_unit(aftermath);
            let pending = Pending {
                cp_available: aftermath.cp_available(),
                cp_spent: outcome.campaign_points.spent,
                pool_total: pool.total,
                pool_allocated,
                units: bought
                    .units()
                    .filter(|u| can_take_troopers(u))
                    .map(|u| {
                        let room = establishment_room(u);
                        let mine = given.get(u.id.as_str()).copied().unwrap_or(0);
                        UnitRoom {
                            unit_id: u.id.clone(),
                            name: u.name.clone(),
                            may_receive: room,
                            may_assign: unit_allowance(
                                room,
                                pool.total,
                                pool_allocated.saturating_sub(mine),
                            ),
                        }
                    })
                    .collect(),
            };
            (Some(raw_json(&outcome)?), Some(pending))
        }
        (None, None) => (None, None),
    };
    Ok(AftermathResponse {
        battle_id: row.battle_id.clone(),
        force_id: row.force_id.clone(),
        stage: row.stage,
        version: row.version,
        next_step,
        next_dice,
        outcome,
        rolls,
        unused_dice,
        pending,
        dice_commitment: None,
        ruleset: fad_domain::rulesets::RulesetPin::default(),
    })
}

impl AftermathResponse {
    /// The answer naming the campaign's ruleset.
    pub fn under(mut self, ruleset: &fad_domain::rulesets::Ruleset) -> Self {
        self.ruleset = ruleset.pin();
        self
    }
}
