//! Recording and confirming a result: the outcome and per-unit losses (docs/rules.md C2–C4,
//! C16). Either side's owner or the organiser records it.
//!
//! The losses are checked against each player force's roster as it stands now, which becomes
//! that force's "battle start" snapshot for its post-battle sequence. The result is `pending`
//! until the other side or the organiser confirms it; it confirms itself when the campaign's
//! `results_need_confirmation` is off, or when the organiser records it as a referee (playing
//! neither side: the neutral word the confirmation stands for) or with no opponent to confirm
//! it (against a non-player force, or owning both sides). An organiser who plays a side against
//! another player records like any player: the opponent confirms. Recording the same result
//! again is harmless; a different one is 409 until the organiser reopens the battle
//! ([`super::corrections::reopen_battle`]); a void battle takes no result.

use fad_domain::lifecycle::{AftermathStage, BattleState};
use std::collections::{BTreeMap, BTreeSet};

use actix_web::http::StatusCode;
use fad_domain::campaign::report::{check_ambushed, check_report};
use fad_domain::campaign::{BattleReport, UnitLosses, VehicleDamage};
use fad_domain::names::Named;
use fad_domain::roster::Force as Roster;
use fad_domain::roster::Problem;
use fad_domain::scenario::recon_duty::ReconOutcome;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::idempotency::{self, Answer, Write};
use crate::auth::{AuthUser, Need};
use crate::error::{ApiError, FieldError};
use crate::store::{self, aftermath as rows, battle_scenarios, campaigns};

use super::scenario::BattleScenarioDocument;
use super::{
    AftermathSummary, BattleResponse, BattleResult, RecordedLoss, lifecycle, lock_authorized,
    owned_forces, player_forces,
};

/// `win` or `draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BattleOutcome {
    /// One side won.
    Win,
    /// A draw.
    Draw,
}

/// One unit's losses.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LossRequest {
    /// A unit of either player force. The id must name exactly one unit of the battle's two
    /// forces, once per result; otherwise 422 naming `losses[i].unit_id`.
    pub unit_id: String,
    /// Figures lost (dead, captured or untreated wounded at battle end, C2), 0 or more and at
    /// most the unit's strength. Absent: every figure for a foot unit reported `eliminated` or
    /// `destroyed_on_recon`, otherwise 0. A wiped-out foot unit must lose all of its figures.
    #[serde(default)]
    #[schema(value_type = Option<u32>, minimum = 0)]
    pub figures_lost: Option<i64>,
    /// The unit was wiped out (C4); for a vehicle, destroyed.
    #[serde(default)]
    pub eliminated: bool,
    /// `null`, `damaged` or `destroyed` (vehicles only, C16; an eliminated vehicle is
    /// `destroyed` or `null`). A vehicle that sat the battle out (damaged and not repaired, or
    /// eliminated before it) takes neither damage nor crew losses: 422.
    #[serde(default)]
    #[schema(value_type = Option<fad_domain::campaign::VehicleDamage>)]
    pub vehicle_damage: Option<String>,
    /// A recon unit destroyed by ambush (all its figures are lost, C2). A unit the battle's
    /// scenario shows destroyed on its recon return must be reported wiped out (this flag,
    /// `eliminated` or all its figures); a result without it is 422 naming the unit.
    #[serde(default)]
    pub destroyed_on_recon: bool,
}

/// A battle result.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"outcome": "win", "winner_force_id": "{force_id}", "losses": [
    {"unit_id": "{unit_id}", "figures_lost": 5},
    {"unit_id": "{opponent_unit_id}", "figures_lost": 3}]}))]
pub struct ResultRequest {
    /// `win` or `draw`.
    pub outcome: BattleOutcome,
    /// The winner for `win`: a player force, or `null` when the non-player side won.
    #[serde(default)]
    pub winner_force_id: Option<String>,
    /// Per-unit losses; units not listed lost nothing.
    #[serde(default)]
    pub losses: Vec<LossRequest>,
}

/// Each player force's roster now, with its version: the battle-start snapshots.
type Snapshots = BTreeMap<String, (Roster, i64)>;

/// How many units of `force_id`'s snapshot have the id `unit_id`.
fn roster_count(snapshots: &Snapshots, force_id: &str, unit_id: &str) -> usize {
    snapshots.get(force_id).map_or(0, |(roster, _)| {
        roster.units().filter(|u| u.id == unit_id).count()
    })
}

/// Per force id, the units an ambush destroyed on their recon return in this battle's scenario
/// (docs/rules.md §3.6, C2); empty when the scenario has not reached step 6.
type Ambushed = BTreeMap<String, Vec<String>>;

/// The battle's ambushed recon units, from its stored scenario.
fn ambushed_units(conn: &mut crate::db::Db, battle_id: &str) -> Result<Ambushed, ApiError> {
    let Some(row) = battle_scenarios::find::<BattleScenarioDocument>(conn, battle_id)? else {
        return Ok(Ambushed::new());
    };
    Ok(row
        .document
        .scenario
        .sides
        .iter()
        .map(|side| {
            let ids = side
                .recon_duty
                .iter()
                .filter(|d| d.outcome == ReconOutcome::Destroyed)
                .map(|d| d.unit_id.clone())
                .collect();
            (side.force_id.clone(), ids)
        })
        .collect())
}

/// The domain numbers lines per force (`losses[n]...`); points a problem at the request's own
/// line through `indices` (request index of each per-force line).
fn request_error(p: Problem, indices: &[usize]) -> FieldError {
    let field = match p
        .field
        .strip_prefix("losses[")
        .and_then(|r| r.split_once(']'))
    {
        Some((n, rest)) => match n.parse::<usize>().ok().and_then(|n| indices.get(n)) {
            Some(i) => format!("losses[{i}]{rest}"),
            None => p.field.clone(),
        },
        None => p.field.clone(),
    };
    FieldError::new(field, p.message)
}

/// Checks the request against the sides and the snapshots; returns the stored result.
fn check_result(
    request: &ResultRequest,
    forces: &[String],
    has_non_player: bool,
    snapshots: &Snapshots,
    ambushed: &Ambushed,
) -> Result<BattleResult, ApiError> {
    let mut errors = Vec::new();
    match (request.outcome, &request.winner_force_id) {
        (BattleOutcome::Draw, Some(_)) => {
            errors.push(FieldError::new("winner_force_id", "a draw has no winner"))
        }
        (BattleOutcome::Win, Some(id)) if !forces.contains(id) => errors.push(FieldError::new(
            "winner_force_id",
            "not a player force of this battle",
        )),
        (BattleOutcome::Win, None) if !has_non_player => {
            errors.push(FieldError::new("winner_force_id", "name the winning force"))
        }
        _ => {}
    }
    let mut per_force: BTreeMap<&str, (BattleReport, Vec<usize>)> = BTreeMap::new();
    let mut recorded = Vec::new();
    let mut lines_seen: BTreeSet<&str> = BTreeSet::new();
    for (i, line) in request.losses.iter().enumerate() {
        // Checked here, in words: a negative count never reaches the rules.
        let given = match line.figures_lost {
            Some(n) if n < 0 => {
                errors.push(FieldError::new(
                    format!("losses[{i}].figures_lost"),
                    "figures lost cannot be negative; give 0 or more",
                ));
                continue;
            }
            Some(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
            None => None,
        };
        let vehicle_damage = match &line.vehicle_damage {
            None => None,
            Some(name) => match VehicleDamage::parse(name) {
                Ok(v) => Some(v),
                Err(_) => {
                    errors.push(FieldError::new(
                        format!("losses[{i}].vehicle_damage"),
                        "must be null, damaged or destroyed",
                    ));
                    continue;
                }
            },
        };
        // A line counts for exactly one unit of the battle's sides: never guess between two.
        let owners: Vec<&String> = snapshots
            .iter()
            .filter(|(_, (roster, _))| roster.units().any(|u| u.id == line.unit_id))
            .map(|(force_id, _)| force_id)
            .collect();
        let field = format!("losses[{i}].unit_id");
        let force_id = match owners.as_slice() {
            [one] if roster_count(snapshots, one, &line.unit_id) == 1 => *one,
            [] => {
                errors.push(FieldError::new(field, "not a unit of either player force"));
                continue;
            }
            _ => {
                errors.push(FieldError::new(
                    field,
                    "more than one unit of this battle's forces has this id; correct the rosters first",
                ));
                continue;
            }
        };
        if !lines_seen.insert(line.unit_id.as_str()) {
            errors.push(FieldError::new(
                field,
                "this unit already has a line; give each unit's losses once",
            ));
            continue;
        }
        let Some(unit) = snapshots
            .get(force_id.as_str())
            .and_then(|(roster, _)| roster.unit(&line.unit_id))
        else {
            continue;
        };
        // Left out for a wiped-out foot unit: all of its figures (C4). An explicit 0 says the
        // opposite (the rules read 0 as "left out").
        let wiped_out = line.eliminated || line.destroyed_on_recon;
        let foot = unit.kind != fad_domain::roster::UnitKind::Vehicle;
        if wiped_out && foot && given == Some(0) && unit.strength > 0 {
            errors.push(FieldError::new(
                format!("losses[{i}].figures_lost"),
                format!(
                    "the unit is reported wiped out, so it lost all {} figures it had at the start of the battle, not 0",
                    unit.strength
                ),
            ));
            continue;
        }
        let figures_lost = given.unwrap_or(if wiped_out && foot { unit.strength } else { 0 });
        let entry = per_force.entry(force_id.as_str()).or_default();
        entry.0.losses.push(UnitLosses {
            unit_id: line.unit_id.clone(),
            figures_lost,
            eliminated: line.eliminated,
            vehicle_damage,
            destroyed_on_recon: line.destroyed_on_recon,
        });
        entry.1.push(i);
        recorded.push(RecordedLoss {
            force_id: force_id.clone(),
            unit_id: line.unit_id.clone(),
            figures_lost,
            eliminated: line.eliminated,
            vehicle_damage: vehicle_damage.map(|v| v.name().to_owned()),
            destroyed_on_recon: line.destroyed_on_recon,
        });
    }
    for (force_id, (report, indices)) in &per_force {
        let Some((roster, _)) = snapshots.get(*force_id) else {
            continue;
        };
        if let Err(problems) = check_report(roster, report) {
            errors.extend(problems.into_iter().map(|p| request_error(p, indices)));
        }
    }
    // A unit destroyed on its recon return is lost whether or not the result has a line for it.
    let no_lines = (BattleReport::default(), Vec::new());
    for (force_id, ids) in ambushed {
        let Some((roster, _)) = snapshots.get(force_id) else {
            continue;
        };
        let (report, indices) = per_force.get(force_id.as_str()).unwrap_or(&no_lines);
        let problems = check_ambushed(roster, report, ids);
        errors.extend(problems.into_iter().map(|p| request_error(p, indices)));
    }
    if errors.is_empty() {
        Ok(BattleResult {
            outcome: match request.outcome {
                BattleOutcome::Win => "win",
                BattleOutcome::Draw => "draw",
            }
            .to_owned(),
            winner_force_id: request.winner_force_id.clone(),
            losses: recorded,
        })
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// Records a battle's result (see the module doc).
pub async fn record_result(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    request: ResultRequest,
    write: Write,
) -> Result<Answer<BattleResponse>, ApiError> {
    let caller = user.caller();
    let actor = user.user_id.clone();
    idempotency::run(state, write, move |conn| {
        let (battle, access) = lock_authorized(conn, &caller, &battle_id, Need::Write)?;
        let forces = player_forces(&battle)?;
        // Both player forces in one statement: for the ownership check and the snapshots.
        let stored = store::forces::find_many(conn, &forces)?;
        let owns = access
            .user_id
            .as_deref()
            .is_some_and(|user| stored.iter().any(|f| f.owner_id == user));
        if !access.is_organiser() && !owns {
            return Err(ApiError::Forbidden(
                "Only a side's owner or the organiser may record the result.".to_owned(),
            ));
        }
        let has_non_player = forces.len() < 2;
        if battle.state == BattleState::Void {
            return Err(ApiError::Conflict(
                "This battle is void; no result can be recorded for it.".to_owned(),
            ));
        }
        let ambushed = ambushed_units(conn, &battle_id)?;
        if battle.state != BattleState::Scenario {
            // The same result again is harmless; a different one conflicts.
            let existing = rows::list_for_battle(conn, &battle_id)?;
            let snapshots = existing
                .iter()
                .map(|r| (r.force_id.clone(), (r.battle_start.clone(), r.force_version)))
                .collect::<Snapshots>();
            let same = check_result(&request, &forces, has_non_player, &snapshots, &ambushed)
                .ok()
                .and_then(|r| serde_json::to_string(&r).ok());
            if same.is_some() && same == battle.result {
                return Ok((StatusCode::OK, BattleResponse::new(battle, AftermathSummary::of_rows(&existing))?.named(conn)?));
            }
            return Err(ApiError::Conflict(
                "A different result is already recorded for this battle; the organiser can reopen it (while no post-battle sequence is finalized) or void it."
                    .to_owned(),
            ));
        }
        let mut snapshots = Snapshots::new();
        for id in &forces {
            let force = stored
                .iter()
                .find(|f| f.id == *id)
                .ok_or_else(|| ApiError::Conflict(format!("Force {id} no longer exists.")))?;
            let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
            snapshots.insert(id.clone(), (roster, force.version));
        }
        let result = check_result(&request, &forces, has_non_player, &snapshots, &ambushed)?;
        let campaign = campaigns::find_by_id(conn, &battle.campaign_id)?
            .ok_or_else(super::battle_not_found)?;
        let settings = campaign
            .settings()
            .map_err(|e| ApiError::Internal(e.into()))?;
        // An organiser playing a side against another player's force is a player here.
        let opponent = stored
            .iter()
            .any(|f| access.user_id.as_deref() != Some(f.owner_id.as_str()));
        let confirmed =
            !settings.results_need_confirmation || (access.is_organiser() && !(owns && opponent));
        let now = store::now();
        let mut aftermaths = Vec::new();
        for (force_id, (roster, version)) in &snapshots {
            let row = rows::AftermathRow {
                battle_id: battle_id.clone(),
                force_id: force_id.clone(),
                battle_start: roster.clone(),
                force_version: *version,
                stage: AftermathStage::Open,
                state: None,
                outcome: None,
                version: 1,
                updated_at: now,
            };
            aftermaths.push(row);
        }
        // Each force's stored roster text is its snapshot's: kept as it is, not written again.
        let with_texts: Vec<(&rows::AftermathRow, &str)> = aftermaths
            .iter()
            .map(|row| {
                let text = stored
                    .iter()
                    .find(|f| f.id == row.force_id)
                    .map_or("", |f| f.roster.as_str());
                (row, text)
            })
            .collect();
        rows::insert_all(conn, &with_texts)?;
        // Each sequence's first roll is committed to before anyone rolls it.
        let scopes: Vec<String> = aftermaths
            .iter()
            .map(|a| crate::app::dice::aftermath_scope(&a.battle_id, &a.force_id))
            .collect();
        crate::app::dice::issue_first(conn, &scopes)?;
        let next = lifecycle::record_result(conn, battle, &result, &actor, confirmed)?;
        tracing::info!(battle.id = %next.id, state = %next.state, "Recorded result");
        Ok((StatusCode::OK, BattleResponse::new(next, AftermathSummary::of_rows(&aftermaths))?.named(conn)?))
    })
    .await
}

/// Whether someone may confirm a pending result: the organiser or a side's owner, but never
/// whoever recorded it while playing a side (a referee organiser may confirm their own).
pub fn may_confirm(is_organiser: bool, owns_a_side: bool, recorded_it: bool) -> bool {
    if owns_a_side {
        !recorded_it
    } else {
        is_organiser
    }
}

/// Confirms a pending result, opening the post-battle sequences: the other side's owner or the
/// organiser. Confirming twice is harmless. Whoever recorded the result never confirms it while
/// playing a side, organiser or not.
pub async fn confirm_result(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    write: Write,
) -> Result<Answer<BattleResponse>, ApiError> {
    let caller = user.caller();
    let actor = user.user_id.clone();
    idempotency::run(state, write, move |conn| {
        let (battle, access) = lock_authorized(conn, &caller, &battle_id, Need::Write)?;
        let owns = !owned_forces(conn, &access, &player_forces(&battle)?)?.is_empty();
        if !access.is_organiser() && !owns {
            return Err(ApiError::Forbidden(
                "Only the other side's owner or the organiser may confirm the result.".to_owned(),
            ));
        }
        match battle.state {
            BattleState::Pending => {}
            BattleState::Scenario => {
                return Err(ApiError::Conflict(
                    "No result is recorded for this battle yet.".to_owned(),
                ));
            }
            _ => {
                return Ok((
                    StatusCode::OK,
                    BattleResponse::load(conn, battle)?.named(conn)?,
                ));
            }
        }
        let recorder = battle.result_by.as_deref() == Some(actor.as_str());
        if !may_confirm(access.is_organiser(), owns, recorder) {
            return Err(ApiError::Forbidden(
                "You recorded this result; the other side's owner confirms it.".to_owned(),
            ));
        }
        let next = lifecycle::confirm(conn, battle, &actor)?;
        Ok((
            StatusCode::OK,
            BattleResponse::load(conn, next)?.named(conn)?,
        ))
    })
    .await
}
