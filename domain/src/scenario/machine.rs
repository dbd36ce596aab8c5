//! The scenario as a state machine (docs/rules.md §3.0–§3.12; S000 › SCENARIO GENERATION).
//!
//! The states are the steps that wait for a player: `orders` (steps 1–3), `mission_bonuses`
//! (step 5's +1s, S8), `mission_choice` (a tie, S9), `recon` (step 7) and `ready`. Everything
//! between is done by the machine itself, with `&mut impl Dice`, as soon as every side has given
//! what a step needs: step 3's RP, step 4 (edge roll, zones, field defences, objectives), the
//! mission rolls, step 6 (markers, recon return, placement order), step 8 and the pre-battle
//! events. The whole state is serde, so a service can store it between requests.
//!
//! Every public method is all-or-nothing: it works on a copy and keeps it only on success.
//! Input errors come back together as `Vec<Problem>` with dotted paths; an action that does not
//! fit the current state is a [`ScenarioError::Conflict`].
//!
//! Decisions the text leaves to a player but that need no input here are made by a fixed rule
//! and said so: every mission-bonus trait names its unit; those with a generation effect (S12)
//! go to the first unit they help (Infiltrate/Recon to the first recon-duty unit without a
//! recon trait, Elusive/Stealth to the first on-table unit with neither), the others to the
//! first fielded squad without the trait (`assign_bonus_traits`). A non-player side's tied missions are picked by a `mission_tie` die, as the
//! one-shot generator does for every side.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollRequest, RollStep};
use crate::house_rules::HouseRules;
use crate::orders::{Attitude, Mission, Stance};
use crate::roster::{Force, Problem, UnitKind};
use crate::scenario::ScenarioError;
use crate::scenario::contact_markers::{
    ContactMarkers, MAX_HOLO_PROJECTORS, PlacementBatch, dummy_markers, first_to_place,
    has_own_true_marker, placement_batches,
};
use crate::scenario::deployment::{
    ESCALATING_ENGAGEMENT_ZONE, FieldDefenceSource, FieldDefences, deployment_zone_inches,
};
use crate::scenario::missions::{
    MissionBonus, check_mission_bonuses, mission_bonus, mission_totals, resolve_missions,
    top_missions,
};
use crate::scenario::non_player::{
    Dispersion, NonPlayerSetup, NpfOrders, npf_dispersion, npf_orders, npf_recon,
};
use crate::scenario::objectives::{Objective, mark_needed, place_objectives};
use crate::scenario::pre_battle::{EventSubject, PreBattleEvent, roll_pre_battle_events};
use crate::scenario::recon_duty::{
    ReconDuty, ReconOutcome, check_recon_duty, has_recon_trait, recon_return,
};
use crate::scenario::recon_phase::{ReconAction, ReconPhase, ReconPrompt};
use crate::scenario::recon_points::recon_points;
use crate::scenario::table_edge::{Edge, TableEdgeRoll, roll_random_edge, roll_table_edge};
use crate::traits::Trait;

/// Subject ids of the battle-only units that roll for pre-battle events (S20, Strike).
pub const OFFENSIVE_ARTILLERY_ID: &str = "offensive_artillery";
/// The Interfere mission's one-call artillery unit (S20).
pub const INTERFERE_ARTILLERY_ID: &str = "interfere_artillery";
/// The Strike mission's Regular sniper.
pub const BONUS_SNIPER_ID: &str = "bonus_sniper";

/// The step the scenario waits at (`state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScenarioState {
    /// Steps 1–3: stance, attitude and recon duty from every player side.
    Orders,
    /// Step 5: each player's optional +1 to two missions (S8).
    MissionBonuses,
    /// Step 5: a player whose top totals tie picks one (S9).
    MissionChoice,
    /// Step 7: spending recon points.
    Recon,
    /// Done: the battle can start.
    Ready,
}

/// Options of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct ScenarioConfig {
    /// The campaign's house rules (S11 `missions_hidden`, S14 `strict_one_marker_per_unit`).
    pub house_rules: HouseRules,
    /// Roll PRE BATTLE EVENTS (optional in the rules; on by default).
    pub pre_battle_events: bool,
    /// One-shot generation: ties are picked by a `mission_tie` die and step 7 is not played (the
    /// RP are reported for the players to spend at the table).
    pub one_shot: bool,
    /// The battle is fought at night: each side adds 1d6 dummy markers (docs/rules.md §3.6; a
    /// `night_fighting` roll per side). Off by default.
    pub night_fighting: bool,
}

impl Default for ScenarioConfig {
    fn default() -> Self {
        Self {
            house_rules: HouseRules::default(),
            pre_battle_events: true,
            one_shot: false,
            night_fighting: false,
        }
    }
}

/// One side as it enters the scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideSetup {
    /// The force's id (used in rolls and views).
    pub force_id: String,
    /// The force; P is its platoon count (C12).
    pub force: Force,
    /// Present for a non-player force (§3.12), with any chosen stance or attitude.
    #[serde(default)]
    pub non_player: Option<NonPlayerSetup>,
}

/// A player's steps 1–3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Orders {
    /// Step 1.
    pub stance: Stance,
    /// Step 2.
    pub attitude: Attitude,
    /// Step 3: units on recon duty (S4).
    #[serde(default)]
    pub recon_unit_ids: Vec<String>,
    /// Units deploying attached to or embarked in another unit, sharing its True marker (S14).
    #[serde(default)]
    pub attached_unit_ids: Vec<String>,
    /// Holo Projectors in the force (+1 dummy marker each).
    #[serde(default)]
    pub holo_projectors: u32,
}

/// A mission-bonus trait and the unit it goes to (absent only when nothing is fielded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BonusTrait {
    /// The trait.
    #[serde(rename = "trait")]
    pub trait_: Trait,
    /// The unit's id (S12, §3.10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_id: Option<String>,
    /// The unit's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_name: Option<String>,
}

/// Escalating Engagement's own set-up (S19).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EscalatingSetup {
    /// The edge chooser places first; then the players alternate.
    pub first_to_place: usize,
    /// Per side: the recon-duty units placed as actual units; empty means "any one unit".
    pub placed_units: [Vec<String>; 2],
    /// Per side: units entering from the own edge each turn from turn 1 (P, S19).
    pub entering_per_turn: [u32; 2],
}

/// One side's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideState {
    /// Force id.
    pub force_id: String,
    /// The force.
    pub force: Force,
    /// Non-player set-up, if non-player.
    #[serde(default)]
    pub non_player: Option<NonPlayerSetup>,
    /// Steps 1–3 (for a non-player side, filled when orders close).
    #[serde(default)]
    pub orders: Option<Orders>,
    /// Step 3.
    #[serde(default)]
    pub recon_points: Option<u32>,
    /// Step 4.
    #[serde(default)]
    pub table_edge_roll: Option<TableEdgeRoll>,
    /// Step 4 (18" in an Escalating Engagement).
    #[serde(default)]
    pub deployment_zone_inches: Option<u32>,
    /// Step 4 and Hold's bonus.
    #[serde(default)]
    pub field_defences: Option<FieldDefences>,
    /// Step 5: the +1s (S8).
    #[serde(default)]
    pub mission_bonuses: Option<Vec<Mission>>,
    /// Step 5: the d6 per mission.
    #[serde(default)]
    pub mission_rolls: BTreeMap<Mission, u8>,
    /// Step 5: every mission's total.
    #[serde(default)]
    pub mission_totals: BTreeMap<Mission, i32>,
    /// Step 5: the missions sharing the top total.
    #[serde(default)]
    pub tied_missions: Vec<Mission>,
    /// Step 5: the mission the side's roll (and tie choice) gave.
    #[serde(default)]
    pub rolled_mission: Option<Mission>,
    /// Step 5: the assigned mission (Escalating Engagement when both rolled the same).
    #[serde(default)]
    pub mission: Option<Mission>,
    /// Step 5: the mission bonus (S12).
    #[serde(default)]
    pub bonus: Option<MissionBonus>,
    /// Step 5: where the bonus traits went.
    #[serde(default)]
    pub bonus_traits: Vec<BonusTrait>,
    /// Step 5: the units the player named for bonus traits ("traits to assign as you wish",
    /// §3.10), by trait; a trait not named goes by the fixed order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bonus_units: BTreeMap<Trait, String>,
    /// Assault: the declared far objective (S11: recorded, hidden like the mission).
    #[serde(default)]
    pub assault_target: Option<String>,
    /// Step 6.
    #[serde(default)]
    pub contact_markers: Option<ContactMarkers>,
    /// Step 6: the night-fighting d6 added to the dummy markers (night battles only).
    #[serde(default)]
    pub night_fighting_roll: Option<u8>,
    /// Step 6: fate of each recon-duty unit.
    #[serde(default)]
    pub recon_duty: Vec<ReconDuty>,
    /// Step 6, non-player only (S26).
    #[serde(default)]
    pub dispersion: Option<Dispersion>,
    /// After step 8.
    #[serde(default)]
    pub pre_battle_events: Vec<PreBattleEvent>,
}

impl SideState {
    fn new(setup: SideSetup) -> Self {
        Self {
            force_id: setup.force_id,
            force: setup.force,
            non_player: setup.non_player,
            orders: None,
            recon_points: None,
            table_edge_roll: None,
            deployment_zone_inches: None,
            field_defences: None,
            mission_bonuses: None,
            mission_rolls: BTreeMap::new(),
            mission_totals: BTreeMap::new(),
            tied_missions: Vec::new(),
            rolled_mission: None,
            mission: None,
            bonus: None,
            bonus_traits: Vec::new(),
            bonus_units: BTreeMap::new(),
            assault_target: None,
            contact_markers: None,
            night_fighting_roll: None,
            recon_duty: Vec::new(),
            dispersion: None,
            pre_battle_events: Vec::new(),
        }
    }
    /// Whether the side is a non-player force.
    pub fn is_non_player(&self) -> bool {
        self.non_player.is_some()
    }
    /// Stance, once known.
    pub fn stance(&self) -> Option<Stance> {
        self.orders.as_ref().map(|o| o.stance)
    }
    /// Attitude, once known.
    pub fn attitude(&self) -> Option<Attitude> {
        self.orders.as_ref().map(|o| o.attitude)
    }
    /// Units on recon duty, once ordered.
    pub fn recon_unit_ids(&self) -> &[String] {
        self.orders
            .as_ref()
            .map_or(&[], |o| o.recon_unit_ids.as_slice())
    }
}

/// Who the scenario waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StateInfo {
    /// The step.
    pub state: ScenarioState,
    /// Force ids of the sides that must act.
    pub waiting_for: Vec<String>,
    /// In `recon`: whether the side is asked for its turn or for a Block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recon_prompt: Option<ReconPrompt>,
}

/// A scenario under way or finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scenario {
    /// Options.
    pub config: ScenarioConfig,
    /// The step it waits at.
    pub state: ScenarioState,
    /// The two sides.
    pub sides: [SideState; 2],
    /// Step 4: the side that chooses its table edge.
    #[serde(default)]
    pub table_edge_chooser: Option<usize>,
    /// Step 4, S27: the player's random edge after a non-player force won the edge roll.
    #[serde(default)]
    pub random_player_edge: Option<Edge>,
    /// Step 4 (S7), with the needs of the missions after step 5.
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Step 5 (S10).
    #[serde(default)]
    pub escalating_engagement: bool,
    /// Step 6.
    #[serde(default)]
    pub first_to_place_markers: Option<usize>,
    /// Step 6 (S15).
    #[serde(default)]
    pub marker_placement: Vec<PlacementBatch>,
    /// Step 7 (absent in one-shot mode and in an Escalating Engagement).
    #[serde(default)]
    pub recon: Option<ReconPhase>,
    /// S19.
    #[serde(default)]
    pub escalating_setup: Option<EscalatingSetup>,
}

fn conflict(msg: &str) -> ScenarioError {
    ScenarioError::Conflict(msg.to_owned())
}

fn dice_err(e: crate::dice::DiceError) -> ScenarioError {
    ScenarioError::Dice(e)
}

impl Scenario {
    /// A new scenario waiting for orders. At most one side may be non-player; force ids must
    /// differ.
    pub fn new(sides: [SideSetup; 2], config: ScenarioConfig) -> Result<Self, Vec<Problem>> {
        let mut problems = Vec::new();
        if sides[0].force_id == sides[1].force_id {
            problems.push(Problem::new(
                "sides[1].force_id",
                "the two sides must be different forces",
            ));
        }
        if sides.iter().all(|s| s.non_player.is_some()) {
            problems.push(Problem::new(
                "sides",
                "at least one side must be a player force",
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let [a, b] = sides;
        Ok(Self {
            config,
            state: ScenarioState::Orders,
            sides: [SideState::new(a), SideState::new(b)],
            table_edge_chooser: None,
            random_player_edge: None,
            objectives: Vec::new(),
            escalating_engagement: false,
            first_to_place_markers: None,
            marker_placement: Vec::new(),
            recon: None,
            escalating_setup: None,
        })
    }

    /// The index of the side with `force_id`.
    pub fn side_index(&self, force_id: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.force_id == force_id)
    }

    /// What the scenario waits for and from whom.
    pub fn state(&self) -> StateInfo {
        let ids = |v: Vec<usize>| {
            v.into_iter()
                .map(|i| self.sides[i].force_id.clone())
                .collect()
        };
        let players = (0..2).filter(|i| !self.sides[*i].is_non_player());
        match self.state {
            ScenarioState::Orders => StateInfo {
                state: self.state,
                waiting_for: ids(players
                    .filter(|i| self.sides[*i].orders.is_none())
                    .collect()),
                recon_prompt: None,
            },
            ScenarioState::MissionBonuses => StateInfo {
                state: self.state,
                waiting_for: ids(players
                    .filter(|i| self.sides[*i].mission_bonuses.is_none())
                    .collect()),
                recon_prompt: None,
            },
            ScenarioState::MissionChoice => StateInfo {
                state: self.state,
                waiting_for: ids(players
                    .filter(|i| self.sides[*i].rolled_mission.is_none())
                    .collect()),
                recon_prompt: None,
            },
            ScenarioState::Recon => match self.recon.as_ref().and_then(|r| r.waiting_for()) {
                Some((side, prompt)) => StateInfo {
                    state: self.state,
                    waiting_for: ids(vec![side]),
                    recon_prompt: Some(prompt),
                },
                None => StateInfo {
                    state: self.state,
                    waiting_for: Vec::new(),
                    recon_prompt: None,
                },
            },
            ScenarioState::Ready => StateInfo {
                state: self.state,
                waiting_for: Vec::new(),
                recon_prompt: None,
            },
        }
    }

    /// Whether missions are shown to the opponent: the house rule (S11), or always in an
    /// Escalating Engagement.
    pub fn missions_public(&self) -> bool {
        !self.config.house_rules.missions_hidden || self.escalating_engagement
    }

    fn check_player(&self, side: usize) -> Result<(), ScenarioError> {
        match self.sides.get(side) {
            None => Err(ScenarioError::Invalid(vec![Problem::new(
                "force_id",
                "not a side of this scenario",
            )])),
            Some(s) if s.is_non_player() => Err(ScenarioError::Invalid(vec![Problem::new(
                "force_id",
                "the non-player side acts by the rules of §3.12 and takes no input",
            )])),
            Some(_) => Ok(()),
        }
    }

    /// Checks orders against the side's force (S4 recon duty, S14 attachments).
    pub fn check_orders(&self, side: usize, orders: &Orders) -> Vec<Problem> {
        let force = &self.sides[side].force;
        let mut problems = check_recon_duty(force, &orders.recon_unit_ids, "recon_unit_ids");
        if orders.holo_projectors > MAX_HOLO_PROJECTORS {
            problems.push(Problem::new(
                "holo_projectors",
                format!("at most {MAX_HOLO_PROJECTORS} Holo Projectors"),
            ));
        }
        let mut seen = BTreeSet::new();
        for (i, id) in orders.attached_unit_ids.iter().enumerate() {
            let path = format!("attached_unit_ids[{i}]");
            match force.unit(id) {
                None => problems.push(Problem::new(path, format!("no unit `{id}` in this force"))),
                Some(_) if !seen.insert(id) => {
                    problems.push(Problem::new(path, format!("unit `{id}` is listed twice")));
                }
                Some(u) if u.kind == UnitKind::OffBoardArtillery => problems.push(Problem::new(
                    path,
                    "an off-board unit has no marker to share",
                )),
                Some(u) if !u.is_fielded() => problems.push(Problem::new(
                    path,
                    "the unit is not fielded in this battle (eliminated, or a damaged or destroyed vehicle not repaired)",
                )),
                Some(_) => {}
            }
        }
        problems
    }

    /// Steps 1–3 for a player side. Replaces earlier orders until every side has given theirs.
    pub fn submit_orders(
        &mut self,
        side: usize,
        orders: Orders,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        if self.state != ScenarioState::Orders {
            return Err(conflict("orders are closed"));
        }
        self.check_player(side)?;
        let problems = self.check_orders(side, &orders);
        if !problems.is_empty() {
            return Err(ScenarioError::Invalid(problems));
        }
        self.transact(dice, |s, _| {
            s.sides[side].orders = Some(orders);
            Ok(())
        })
    }

    /// Step 5's optional +1 to up to two different missions (S8); `[]` for none.
    pub fn submit_mission_bonuses(
        &mut self,
        side: usize,
        missions: Vec<Mission>,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        self.submit_mission_bonuses_with_units(side, missions, &BTreeMap::new(), dice)
    }

    /// [`Self::submit_mission_bonuses`] with the units the player names for bonus traits
    /// (trait name → unit id, §3.10 "traits to assign as you wish"): each must be a
    /// mission-bonus trait and a unit of this force on the table in this battle. Problems point
    /// at `bonus_units.<trait>`.
    pub fn submit_mission_bonuses_with_units(
        &mut self,
        side: usize,
        missions: Vec<Mission>,
        bonus_units: &BTreeMap<String, String>,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        // While the other side picks among tied missions, a side that did not tie is still
        // shown the bonus step (see `tie_choice_masked`), so it may still change its bonuses,
        // as it could had the other side not sent its own yet.
        let rescore = self.bonuses_open_during_tie_choice(side);
        if self.state != ScenarioState::MissionBonuses && !rescore {
            return Err(conflict(if self.state < ScenarioState::MissionBonuses {
                "mission bonuses come after stances and attitudes are revealed"
            } else {
                "mission bonuses are closed"
            }));
        }
        self.check_player(side)?;
        let mut problems = check_mission_bonuses(&missions, "missions");
        let units = check_bonus_units(&self.sides[side].force, bonus_units, "bonus_units");
        let units = match units {
            Ok(units) => units,
            Err(more) => {
                problems.extend(more);
                BTreeMap::new()
            }
        };
        if !problems.is_empty() {
            return Err(ScenarioError::Invalid(problems));
        }
        self.transact(dice, |s, _| {
            s.sides[side].mission_bonuses = Some(missions);
            s.sides[side].bonus_units = units;
            if rescore {
                s.rescore_missions(side);
            }
            Ok(())
        })
    }

    /// Whether `side` may still change its bonuses during the tie choice: a player side whose
    /// own top totals did not tie (it has seen no roll of step 5 yet).
    fn bonuses_open_during_tie_choice(&self, side: usize) -> bool {
        self.state == ScenarioState::MissionChoice
            && self
                .sides
                .get(side)
                .is_some_and(|s| !s.is_non_player() && s.tied_missions.len() < 2)
    }

    /// Step 5 again for `side` with its new bonuses and the dice it already rolled (unseen by
    /// it): the totals, the top missions and, without a tie, its mission.
    fn rescore_missions(&mut self, side: usize) {
        let s = &mut self.sides[side];
        let (Some(stance), Some(attitude)) = (s.stance(), s.attitude()) else {
            return;
        };
        let bonuses = s.mission_bonuses.clone().unwrap_or_default();
        s.mission_totals = mission_totals(&s.mission_rolls, stance, attitude, &bonuses);
        s.tied_missions = top_missions(&s.mission_totals);
        s.rolled_mission = match s.tied_missions.as_slice() {
            [only] => Some(*only),
            _ => None,
        };
    }

    /// Step 5, S9: a side whose top totals tie picks one of them.
    pub fn submit_mission_choice(
        &mut self,
        side: usize,
        mission: Mission,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        self.check_player(side)?;
        let tied = &self.sides[side].tied_missions;
        // One answer whether no choice is open at all or only the other side's is: a side
        // that did not tie must not learn that the other side is choosing (see
        // `tie_choice_masked`).
        if self.state != ScenarioState::MissionChoice || tied.len() < 2 {
            return Err(conflict("no mission choice is open for this side"));
        }
        if !tied.contains(&mission) {
            let names: Vec<_> = tied.iter().map(ToString::to_string).collect();
            return Err(ScenarioError::Invalid(vec![Problem::new(
                "mission",
                format!(
                    "`{mission}` is not one of the tied missions: {}",
                    names.join(", ")
                ),
            )]));
        }
        self.transact(dice, |s, _| {
            s.sides[side].rolled_mission = Some(mission);
            Ok(())
        })
    }

    /// Step 7: one action of `side` (its turn, or a Block it is asked for).
    pub fn recon_action(
        &mut self,
        side: usize,
        action: ReconAction,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        if self.state != ScenarioState::Recon {
            return Err(conflict("the recon phase is not open"));
        }
        self.check_player(side)?;
        self.transact(dice, |s, dice| {
            let ids = [s.sides[0].force_id.clone(), s.sides[1].force_id.clone()];
            let Some(recon) = s.recon.as_mut() else {
                return Err(conflict("the recon phase is not open"));
            };
            recon.act(side, action, dice, [&ids[0], &ids[1]])
        })
    }

    /// Assault: declares which of the side's two far objectives is the target (once; any time
    /// after missions are assigned; it does not hold up the steps).
    pub fn declare_assault_target(
        &mut self,
        side: usize,
        objective_id: &str,
    ) -> Result<(), ScenarioError> {
        self.check_player(side)?;
        let s = &self.sides[side];
        if s.mission != Some(Mission::Assault) {
            return Err(conflict("only an Assault mission declares a target"));
        }
        if s.assault_target.is_some() {
            return Err(conflict("the Assault target is already declared"));
        }
        let force = s.force_id.clone();
        let far = self.objectives.iter().any(|o| {
            o.id == objective_id
                && o.sector.get(&force) == Some(&crate::scenario::objectives::Sector::Far)
        });
        if !far {
            return Err(ScenarioError::Invalid(vec![Problem::new(
                "objective_id",
                format!("`{objective_id}` is not one of this side's far objectives"),
            )]));
        }
        for o in &mut self.objectives {
            if o.id != objective_id {
                o.needed_by.retain(|f| *f != force);
            }
        }
        self.sides[side].assault_target = Some(objective_id.to_owned());
        Ok(())
    }

    /// Applies `change` and advances on a copy; keeps the copy only if both succeed.
    fn transact<D: Dice>(
        &mut self,
        dice: &mut D,
        change: impl FnOnce(&mut Self, &mut D) -> Result<(), ScenarioError>,
    ) -> Result<(), ScenarioError> {
        let mut next = self.clone();
        change(&mut next, dice)?;
        next.advance(dice)?;
        *self = next;
        Ok(())
    }

    /// Runs every step that needs no more input.
    pub fn advance(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        loop {
            let players: Vec<usize> = (0..2).filter(|i| !self.sides[*i].is_non_player()).collect();
            match self.state {
                ScenarioState::Orders => {
                    if players.iter().any(|i| self.sides[*i].orders.is_none()) {
                        return Ok(());
                    }
                    self.close_orders(dice)?;
                    self.state = ScenarioState::MissionBonuses;
                }
                ScenarioState::MissionBonuses => {
                    if players
                        .iter()
                        .any(|i| self.sides[*i].mission_bonuses.is_none())
                    {
                        return Ok(());
                    }
                    self.roll_missions(dice)?;
                    self.state = ScenarioState::MissionChoice;
                }
                ScenarioState::MissionChoice => {
                    for i in 0..2 {
                        let s = &self.sides[i];
                        if s.rolled_mission.is_none() && (s.is_non_player() || self.config.one_shot)
                        {
                            self.pick_tied_mission(i, dice)?;
                        }
                    }
                    if self.sides.iter().any(|s| s.rolled_mission.is_none()) {
                        return Ok(());
                    }
                    self.close_missions(dice)?;
                    self.state = ScenarioState::Recon;
                }
                ScenarioState::Recon => {
                    if self.recon.as_ref().is_some_and(|r| !r.finished) {
                        return Ok(());
                    }
                    self.finish(dice)?;
                    self.state = ScenarioState::Ready;
                }
                ScenarioState::Ready => return Ok(()),
            }
        }
    }

    /// Steps 1–4 once every player's orders are in.
    fn close_orders(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        // §3.12: the non-player side's stance, attitude and recon duty.
        let reading = self.config.house_rules.npf_recon_reading;
        for side in &mut self.sides {
            if let Some(setup) = side.non_player {
                let (stance, attitude) =
                    npf_orders(dice, &side.force_id, setup).map_err(dice_err)?;
                let orders = NpfOrders {
                    stance,
                    attitude,
                    reading,
                };
                let recon =
                    npf_recon(dice, &side.force_id, &side.force, orders).map_err(dice_err)?;
                side.orders = Some(Orders {
                    stance,
                    attitude,
                    recon_unit_ids: recon,
                    attached_unit_ids: Vec::new(),
                    holo_projectors: 0,
                });
            }
        }
        // Step 3.
        for side in &mut self.sides {
            if let Some(o) = &side.orders {
                side.recon_points = Some(recon_points(
                    o.stance,
                    o.attitude,
                    side.force.platoon_count(),
                    o.recon_unit_ids.len() as u32,
                ));
            }
        }
        // Step 4: edge roll (S6), random edge against a winning NP force (S27).
        let ids = [
            self.sides[0].force_id.clone(),
            self.sides[1].force_id.clone(),
        ];
        let rp = [0, 1].map(|i| self.sides[i].recon_points.unwrap_or(0));
        let (winner, rolls) =
            roll_table_edge(dice, [(&ids[0], rp[0]), (&ids[1], rp[1])]).map_err(dice_err)?;
        self.table_edge_chooser = Some(winner);
        if self.sides[winner].is_non_player() {
            let player = 1 - winner;
            self.random_player_edge = Some(roll_random_edge(dice, &ids[player]).map_err(dice_err)?);
        }
        for (i, side) in self.sides.iter_mut().enumerate() {
            side.table_edge_roll = Some(rolls[i]);
            if let Some(o) = &side.orders {
                side.deployment_zone_inches = Some(deployment_zone_inches(o.stance));
                side.field_defences = Some(FieldDefences::for_orders(o.stance, o.attitude));
            }
        }
        self.objectives = place_objectives(&ids[winner], &ids[1 - winner]);
        Ok(())
    }

    /// Step 5: one d6 per mission per side, in table order (the non-player side takes no
    /// bonuses, S8).
    fn roll_missions(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        for side in &mut self.sides {
            if side.is_non_player() {
                side.mission_bonuses = Some(Vec::new());
            }
            let (Some(stance), Some(attitude)) = (side.stance(), side.attitude()) else {
                continue;
            };
            let mut rolls = BTreeMap::new();
            for m in Mission::ROLLED {
                let d = dice
                    .d6(RollStep::Mission, m.name_str(), Some(&side.force_id))
                    .map_err(dice_err)?;
                rolls.insert(m, d);
            }
            let bonuses = side.mission_bonuses.clone().unwrap_or_default();
            side.mission_totals = mission_totals(&rolls, stance, attitude, &bonuses);
            side.mission_rolls = rolls;
            side.tied_missions = top_missions(&side.mission_totals);
            if side.tied_missions.len() == 1 {
                side.rolled_mission = side.tied_missions.first().copied();
            }
        }
        Ok(())
    }

    /// A uniform pick among tied missions: a `mission_tie` die with one side per tied mission.
    fn pick_tied_mission(
        &mut self,
        side: usize,
        dice: &mut impl Dice,
    ) -> Result<(), ScenarioError> {
        let s = &self.sides[side];
        let n = u8::try_from(s.tied_missions.len())
            .unwrap_or(u8::MAX)
            .max(1);
        let values = dice
            .roll(
                RollRequest::d6(RollStep::MissionTie, &s.force_id, 1)
                    .for_force(&s.force_id)
                    .with_sides(n),
            )
            .map_err(dice_err)?;
        let index = usize::from(values.first().copied().unwrap_or(1).max(1) - 1);
        self.sides[side].rolled_mission = s.tied_missions.get(index).copied();
        Ok(())
    }

    /// Step 5's end (S10, S12) and step 6.
    fn close_missions(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        let (Some(a), Some(b)) = (self.sides[0].rolled_mission, self.sides[1].rolled_mission)
        else {
            return Err(conflict("missions are not settled"));
        };
        let (ma, mb, escalating) = resolve_missions(a, b);
        self.escalating_engagement = escalating;
        for (side, mission) in self.sides.iter_mut().zip([ma, mb]) {
            side.mission = Some(mission);
            let bonus = mission_bonus(mission);
            if bonus.field_defences > 0 {
                if let Some(f) = side.field_defences.as_mut() {
                    f.add(FieldDefenceSource::HoldMission);
                }
            }
            side.bonus_traits = assign_bonus_traits(side, &bonus.traits);
            side.bonus = Some(bonus);
            mark_needed(&mut self.objectives, &side.force_id, mission);
        }
        if escalating {
            self.escalating_setup_s19();
            return Ok(());
        }
        self.deploy_contact_markers(dice)?;
        if self.config.one_shot {
            return Ok(());
        }
        let ids = [
            self.sides[0].force_id.clone(),
            self.sides[1].force_id.clone(),
        ];
        let points = [0, 1].map(|i| self.sides[i].recon_points.unwrap_or(0));
        let np = [0, 1].map(|i| self.sides[i].is_non_player());
        self.recon = Some(ReconPhase::start(
            points,
            self.first_to_place_markers.unwrap_or(0),
            np,
            dice,
            [&ids[0], &ids[1]],
        )?);
        Ok(())
    }

    /// S19: 18" zones, no markers, no return roll, recon units placed as units.
    fn escalating_setup_s19(&mut self) {
        let chooser = self.table_edge_chooser.unwrap_or(0);
        let mut placed: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (i, side) in self.sides.iter_mut().enumerate() {
            side.deployment_zone_inches = Some(ESCALATING_ENGAGEMENT_ZONE);
            side.contact_markers = Some(ContactMarkers::default());
            side.recon_duty = side
                .recon_unit_ids()
                .iter()
                .map(|id| ReconDuty {
                    unit_id: id.clone(),
                    outcome: ReconOutcome::Returned,
                    roll: None,
                    total: None,
                })
                .collect();
            placed[i] = side.recon_unit_ids().to_vec();
        }
        self.escalating_setup = Some(EscalatingSetup {
            first_to_place: chooser,
            placed_units: placed,
            entering_per_turn: [0, 1].map(|i| self.sides[i].force.platoon_count()),
        });
    }

    /// Step 6: dummy markers, return rolls, True markers, NP dispersion, placement order (S15).
    fn deploy_contact_markers(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        let strict = self.config.house_rules.strict_one_marker_per_unit;
        let night_fighting = self.config.night_fighting;
        for side in &mut self.sides {
            let Some(orders) = side.orders.clone() else {
                continue;
            };
            // Each unit's traits with the bonus traits given to it (S12).
            let unit_traits: Vec<Vec<Trait>> = side
                .force
                .units()
                .filter(|u| u.is_fielded())
                .map(|u| {
                    let mut t = u.effective_traits();
                    t.extend(
                        side.bonus_traits
                            .iter()
                            .filter(|b| b.unit_id.as_deref() == Some(u.id.as_str()))
                            .map(|b| b.trait_),
                    );
                    t
                })
                .collect();
            if night_fighting {
                side.night_fighting_roll = Some(
                    dice.d6(
                        RollStep::NightFighting,
                        &side.force_id,
                        Some(&side.force_id),
                    )
                    .map_err(dice_err)?,
                );
            }
            let dummy = dummy_markers(
                side.force.platoon_count(),
                orders.stance,
                &unit_traits,
                side.night_fighting_roll,
                orders.holo_projectors,
            );
            // Recon return (+1 with a recon trait, own or bonus).
            let mut duty = Vec::new();
            for id in &orders.recon_unit_ids {
                let own = side.force.unit(id).is_some_and(has_recon_trait);
                let bonus = side.bonus_traits.iter().any(|b| {
                    b.trait_.is_recon_trait() && b.unit_id.as_deref() == Some(id.as_str())
                });
                let roll = dice
                    .d6(RollStep::ReconReturn, id, Some(&side.force_id))
                    .map_err(dice_err)?;
                let with_trait = own || bonus;
                duty.push(ReconDuty {
                    unit_id: id.clone(),
                    outcome: recon_return(roll, with_trait),
                    roll: Some(roll),
                    total: Some(roll + u8::from(with_trait)),
                });
            }
            let shared: BTreeSet<String> = orders.attached_unit_ids.iter().cloned().collect();
            let base = side
                .force
                .units()
                .filter(|u| has_own_true_marker(u, shared.contains(&u.id), strict))
                .count() as u32;
            let removed = duty
                .iter()
                .filter(|d| d.outcome != ReconOutcome::Returned)
                .count() as u32;
            let sniper = u32::from(side.bonus.as_ref().is_some_and(|b| b.sniper));
            side.contact_markers = Some(ContactMarkers {
                true_markers: base.saturating_sub(removed) + sniper,
                dummy,
            });
            side.recon_duty = duty;
            if side.is_non_player() {
                let d = dice
                    .d6(
                        RollStep::NpfDispersion,
                        &side.force_id,
                        Some(&side.force_id),
                    )
                    .map_err(dice_err)?;
                side.dispersion = Some(npf_dispersion(d));
            }
        }
        let totals = [0, 1].map(|i| self.sides[i].contact_markers.unwrap_or_default().total());
        let ids = [
            self.sides[0].force_id.clone(),
            self.sides[1].force_id.clone(),
        ];
        let first =
            first_to_place(dice, [(&ids[0], totals[0]), (&ids[1], totals[1])]).map_err(dice_err)?;
        self.first_to_place_markers = Some(first);
        self.marker_placement = placement_batches(first, totals);
        Ok(())
    }

    /// Step 8 and PRE BATTLE EVENTS (S24), for every unit still in the battle and the
    /// battle-only units (S20 artillery, Strike's sniper).
    fn finish(&mut self, dice: &mut impl Dice) -> Result<(), ScenarioError> {
        if !self.config.pre_battle_events {
            return Ok(());
        }
        for i in 0..2 {
            let subjects = event_subjects(&self.sides[i]);
            let side = &mut self.sides[i];
            side.pre_battle_events =
                roll_pre_battle_events(dice, &side.force_id, &subjects).map_err(dice_err)?;
        }
        Ok(())
    }

    /// Whether `side` may enter dice for `step` and `subject` in this scenario (for refusing
    /// unknown subjects with 422).
    pub fn dice_subject_allowed(&self, side: usize, step: RollStep, subject: &str) -> bool {
        let Some(s) = self.sides.get(side) else {
            return false;
        };
        let unit = || s.force.unit(subject).is_some();
        match step {
            RollStep::NightFighting => self.config.night_fighting && subject == s.force_id,
            RollStep::TableEdge
            | RollStep::MissionTie
            | RollStep::PlacementOrder
            | RollStep::ReconBlock
            | RollStep::NpfStance
            | RollStep::NpfAttitude
            | RollStep::NpfDispersion
            | RollStep::NpfBlock => subject == s.force_id,
            RollStep::Mission => Mission::ROLLED.iter().any(|m| m.name_str() == subject),
            RollStep::ReconReturn => unit(),
            RollStep::NpfRecon => s.force.platoons.iter().any(|p| p.name == subject),
            RollStep::PreBattleEvent | RollStep::PreBattleEventTable => {
                unit()
                    || [
                        OFFENSIVE_ARTILLERY_ID,
                        INTERFERE_ARTILLERY_ID,
                        BONUS_SNIPER_ID,
                    ]
                    .contains(&subject)
            }
            _ => false,
        }
    }
}

/// The units of `side` that roll for a pre-battle event: every fielded unit not destroyed on
/// recon duty, and the battle-only units (S20 artillery, Strike's sniper).
pub fn event_subjects(side: &SideState) -> Vec<EventSubject> {
    let destroyed: BTreeSet<&str> = side
        .recon_duty
        .iter()
        .filter(|d| d.outcome == ReconOutcome::Destroyed)
        .map(|d| d.unit_id.as_str())
        .collect();
    let mut subjects: Vec<EventSubject> = side
        .force
        .units()
        .filter(|u| u.is_fielded() && !destroyed.contains(u.id.as_str()))
        .map(EventSubject::from)
        .collect();
    let extra = |id: &str, kind| EventSubject {
        unit_id: id.to_owned(),
        kind,
        resolve: None,
        leadership: None,
        resolve_fixed: kind == UnitKind::OffBoardArtillery,
    };
    if side.stance() == Some(Stance::Offensive) {
        subjects.push(extra(OFFENSIVE_ARTILLERY_ID, UnitKind::OffBoardArtillery));
    }
    if let Some(bonus) = &side.bonus {
        if bonus.artillery_calls > 0 {
            subjects.push(extra(INTERFERE_ARTILLERY_ID, UnitKind::OffBoardArtillery));
        }
        if bonus.sniper {
            subjects.push(extra(BONUS_SNIPER_ID, UnitKind::Sniper));
        }
    }
    subjects
}

/// Whether a unit can take a mission-bonus trait: a unit of the force on the table in this
/// battle (fielded, not off-board).
fn takes_bonus_trait(unit: &crate::roster::Unit) -> bool {
    unit.is_fielded() && unit.kind != UnitKind::OffBoardArtillery
}

/// Checks the units a player names for bonus traits (trait name → unit id): a mission-bonus
/// trait (§3.10) and a unit of `force` that takes one ([`takes_bonus_trait`]). Problems point
/// at `{field}.<trait>`.
pub fn check_bonus_units(
    force: &Force,
    named: &BTreeMap<String, String>,
    field: &str,
) -> Result<BTreeMap<Trait, String>, Vec<Problem>> {
    use crate::names::Named;
    let mut problems = Vec::new();
    let mut out = BTreeMap::new();
    for (name, unit_id) in named {
        let path = format!("{field}.{name}");
        let t = match Trait::parse(name) {
            Ok(t) if Trait::MISSION_BONUS_TRAITS.contains(&t) => t,
            _ => {
                let names: Vec<_> = Trait::MISSION_BONUS_TRAITS
                    .iter()
                    .map(|t| t.name())
                    .collect();
                problems.push(Problem::new(
                    path,
                    format!(
                        "`{name}` is not a trait a mission bonus grants; one of: {}",
                        names.join(", ")
                    ),
                ));
                continue;
            }
        };
        match force.unit(unit_id) {
            None => problems.push(Problem::new(
                path,
                format!("no unit `{unit_id}` in this force"),
            )),
            Some(u) if !takes_bonus_trait(u) => problems.push(Problem::new(
                path,
                format!(
                    "`{}` is not on the table in this battle (eliminated, off-board, or an unrepaired vehicle) and cannot take a bonus trait",
                    u.name
                ),
            )),
            Some(_) => {
                out.insert(t, unit_id.clone());
            }
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// S12 and §3.10 ("to assign as you wish"): every bonus trait names the unit it goes to: the one
/// the player named for that trait, if any ([`check_bonus_units`]). Otherwise traits
/// with a generation effect go where they help: Infiltrate/Recon to the first recon-duty unit
/// without a recon trait, Elusive/Stealth to the first on-table unit with neither. The others
/// (and those two when no unit fits) go to the first fielded squad without that trait, else the
/// first fielded on-table unit. Two traits of one bonus may land on the same unit, as the rules
/// allow. A force with nothing fielded leaves the trait without a unit.
fn assign_bonus_traits(side: &SideState, traits: &[Trait]) -> Vec<BonusTrait> {
    let recon_ids = side.recon_unit_ids();
    let on_table = || side.force.units().filter(|u| takes_bonus_trait(u));
    traits
        .iter()
        .map(|t| {
            let named = side
                .bonus_units
                .get(t)
                .and_then(|id| side.force.unit(id))
                .filter(|u| takes_bonus_trait(u));
            let helps = if named.is_some() {
                named
            } else if t.is_recon_trait() {
                recon_ids
                    .iter()
                    .filter_map(|id| side.force.unit(id))
                    .find(|u| !has_recon_trait(u))
            } else if matches!(t, Trait::Elusive | Trait::Stealth) {
                on_table().find(|u| !u.has_trait(Trait::Elusive) && !u.has_trait(Trait::Stealth))
            } else {
                None
            };
            let unit = helps
                .or_else(|| {
                    on_table().find(|u| {
                        matches!(u.kind, UnitKind::Squad | UnitKind::CommandSquad)
                            && !u.has_trait(*t)
                    })
                })
                .or_else(|| on_table().next());
            BonusTrait {
                trait_: *t,
                unit_id: unit.map(|u| u.id.clone()),
                unit_name: unit.map(|u| u.name.clone()),
            }
        })
        .collect()
}

/// The canonical name as `&'static str` (a helper so roll subjects read as mission names).
trait NameStr {
    fn name_str(self) -> &'static str;
}

impl NameStr for Mission {
    fn name_str(self) -> &'static str {
        crate::names::Named::name(self)
    }
}
