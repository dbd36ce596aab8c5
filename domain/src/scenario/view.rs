//! What each viewer may see of a scenario (docs/rules.md §3.0 "Secret?" column, S8, S11, S19).
//!
//! A side sees itself in full. Of the other side it sees: stance, attitude and RP once orders
//! close (steps 4 and 5 reveal them, and the machine runs step 4 as soon as both orders are in);
//! the mission bonuses, totals, ties, mission, bonus, Hold's field defences and the battle-only
//! mission units only when missions are public (S11 house rule off, or an Escalating Engagement)
//! and decided; the contact-marker total but never the True/Dummy split; recon-duty outcomes
//! (without the rolls, whose +1 could betray a bonus) once the scenario is ready. An outsider
//! (an integration key) sees what is public to both sides. [`Scenario::roll_visible_to`] applies the same
//! rules to the roll log.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dice::{Roll, RollStep};
use crate::orders::{Attitude, Mission, Stance};
use crate::scenario::contact_markers::ContactMarkers;
use crate::scenario::deployment::{FieldDefenceSource, FieldDefences};
use crate::scenario::machine::{
    BONUS_SNIPER_ID, BonusTrait, INTERFERE_ARTILLERY_ID, Scenario, ScenarioState, SideState,
};
use crate::scenario::missions::MissionBonus;
use crate::scenario::non_player::Dispersion;
use crate::scenario::objectives::Objective;
use crate::scenario::pre_battle::PreBattleEvent;
use crate::scenario::recon_duty::ReconDuty;
use crate::scenario::recon_phase::{ReconActionKind, ReconPrompt, ReconResult};
use crate::scenario::stance_effects::{stance_artillery_calls, under_fire_ignores};
use crate::scenario::table_edge::{Edge, TableEdgeRoll};
use crate::traits::Trait;

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// One side (index).
    Side(usize),
    /// Someone who is neither side: sees only what is public.
    Outsider,
    /// Everything (the one-shot generator's caller, an audit).
    Everything,
}

/// One side as a viewer sees it; absent fields are unknown to the viewer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideView {
    /// Force id.
    pub force_id: String,
    /// A non-player force.
    pub non_player: bool,
    /// Orders are in: shown to others only once the step closes (until then, that a side has
    /// submitted is its own secret, and `waiting_for` lists it).
    pub orders_submitted: bool,
    /// Mission bonuses are in: shown to others only once the step closes.
    pub mission_bonuses_submitted: bool,
    /// Step 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stance: Option<Stance>,
    /// Step 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attitude: Option<Attitude>,
    /// Step 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recon_points: Option<u32>,
    /// Step 3 (own side only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recon_unit_ids: Option<Vec<String>>,
    /// S14 (own side only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attached_unit_ids: Option<Vec<String>>,
    /// Step 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_edge_roll: Option<TableEdgeRoll>,
    /// Step 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deployment_zone_inches: Option<u32>,
    /// Step 4 (and Hold's bonus where missions are visible).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_defences: Option<FieldDefences>,
    /// Step 5, S8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mission_bonuses: Option<Vec<Mission>>,
    /// Step 5, §3.10: the units the side named for bonus traits (trait → unit id), as its
    /// mission bonuses are seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus_units: Option<BTreeMap<Trait, String>>,
    /// Step 5: the d6 per mission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mission_rolls: Option<BTreeMap<Mission, u8>>,
    /// Step 5: every mission's total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mission_totals: Option<BTreeMap<Mission, i32>>,
    /// Step 5: the tied top missions (S9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tied_missions: Option<Vec<Mission>>,
    /// Step 5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mission: Option<Mission>,
    /// Step 5, S12.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<MissionBonus>,
    /// S12: where the bonus traits went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus_traits: Option<Vec<BonusTrait>>,
    /// Assault's declared far objective (S11).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assault_target: Option<String>,
    /// Off-board artillery calls: Offensive stance 2 (S20), plus Interfere's 1 where the
    /// mission is visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artillery_calls: Option<u32>,
    /// Under Fire conditions the Aggressive attitude ignores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under_fire_ignores: Option<u32>,
    /// Step 6: True and Dummy (own side only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_markers: Option<ContactMarkers>,
    /// Step 6: night fighting's d6 of extra dummy markers (own side only: it is part of the
    /// True/Dummy split).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub night_fighting_roll: Option<u8>,
    /// Step 6: how many markers the side places (public).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_marker_total: Option<u32>,
    /// Step 6.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recon_duty: Option<Vec<ReconDuty>>,
    /// Step 6, non-player (S26).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispersion: Option<Dispersion>,
    /// After step 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pre_battle_events: Option<Vec<PreBattleEvent>>,
}

/// One line of the step-7 log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconLogView {
    /// Who.
    pub force_id: String,
    /// What.
    pub action: ReconActionKind,
    /// Marker labels given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// A Block's d6.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// How it ended.
    pub result: ReconResult,
    /// Made by the service.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
}

/// Step 7 as everyone sees it (it is played in the open).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconView {
    /// RP left per force.
    pub recon_points_left: BTreeMap<String, u32>,
    /// Everything done.
    pub log: Vec<ReconLogView>,
    /// The step is over.
    pub finished: bool,
    /// RP lost at the end (S16).
    pub recon_points_lost: BTreeMap<String, u32>,
}

/// S19 as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EscalatingSetupView {
    /// Places the first unit.
    pub first_to_place: String,
    /// Units placed as actual units, per force (empty: any one unit).
    pub placed_units: BTreeMap<String, Vec<String>>,
    /// Units entering per turn from turn 1, per force.
    pub entering_per_turn: BTreeMap<String, u32>,
}

/// One marker-placement batch (S15).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlacementView {
    /// Who places.
    pub force_id: String,
    /// How many.
    pub count: u32,
}

/// A bonus trait with its unit's name (documents stored before names were kept have none).
fn named(b: &BonusTrait, side: &SideState) -> BonusTrait {
    let mut b = b.clone();
    if b.unit_name.is_none() {
        b.unit_name = b
            .unit_id
            .as_deref()
            .and_then(|id| side.force.unit(id))
            .map(|u| u.name.clone());
    }
    b
}

fn keep<T>(cond: bool, v: Option<T>) -> Option<T> {
    v.filter(|_| cond)
}

/// The scenario as one viewer may see it (`GET .../scenario`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScenarioView {
    /// The step it waits at.
    pub state: ScenarioState,
    /// Force ids it waits for; in the secret steps (orders, mission bonuses, mission choice) a
    /// side the viewer does not see in full is always listed until the step closes.
    pub waiting_for: Vec<String>,
    /// In `recon`: turn or block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recon_prompt: Option<ReconPrompt>,
    /// The battle is fought at night (docs/rules.md §3.6: +1d6 dummy markers per side).
    #[serde(default)]
    pub night_fighting: bool,
    /// Both sides play Escalating Engagement (S10).
    pub escalating_engagement: bool,
    /// Chooses the table edge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_edge_chooser: Option<String>,
    /// S27.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_player_edge: Option<Edge>,
    /// Places markers first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_to_place_markers: Option<String>,
    /// S15 batches.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub marker_placement: Vec<PlacementView>,
    /// The six objectives (S7), with the visible missions' needs.
    pub objectives: Vec<Objective>,
    /// Step 7.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recon: Option<ReconView>,
    /// S19.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escalating_setup: Option<EscalatingSetupView>,
    /// Both sides, in order.
    pub sides: Vec<SideView>,
}

impl Scenario {
    fn sees_all_of(&self, viewer: Viewer, side: usize) -> bool {
        match viewer {
            Viewer::Everything => true,
            Viewer::Side(i) => i == side,
            Viewer::Outsider => false,
        }
    }

    fn mission_visible(&self, viewer: Viewer, side: usize) -> bool {
        self.sees_all_of(viewer, side)
            || (self.missions_public() && self.state >= ScenarioState::Recon)
    }

    /// Whether `viewer` is shown the tie choice (S9) as the mission-bonus step still open.
    ///
    /// A tie choice is open only because some side's top totals tied. A viewer whose own side
    /// did not tie (or an outsider) would learn from the state alone that the other side tied
    /// and is choosing; so it sees what it saw before the missions were rolled: the
    /// mission-bonus step, waiting for the other side, its own missions not rolled yet.
    /// That is also what it sees while the other side has not sent its bonuses, so the two
    /// cannot be told apart; the missions appear when the step closes, as without a tie. A
    /// side that tied itself sees the choice (it makes one), and so does whoever sees both
    /// sides.
    pub fn tie_choice_masked(&self, viewer: Viewer) -> bool {
        self.state == ScenarioState::MissionChoice
            && match viewer {
                Viewer::Everything => false,
                Viewer::Outsider => true,
                Viewer::Side(i) => self.sides.get(i).is_none_or(|s| s.tied_missions.len() < 2),
            }
    }

    /// The step `viewer` is shown (see [`Self::tie_choice_masked`]).
    pub(super) fn shown_state(&self, viewer: Viewer) -> ScenarioState {
        if self.tie_choice_masked(viewer) {
            ScenarioState::MissionBonuses
        } else {
            self.state
        }
    }

    /// The scenario as `viewer` may see it.
    pub fn view_for(&self, viewer: Viewer) -> ScenarioView {
        let mut info = self.state();
        info.state = self.shown_state(viewer);
        let id = |i: usize| self.sides[i].force_id.clone();
        let sides = (0..2).map(|i| self.side_view(viewer, i)).collect();
        let objectives = self
            .objectives
            .iter()
            .map(|o| {
                let mut o = o.clone();
                o.needed_by.retain(|f| {
                    self.side_index(f)
                        .is_some_and(|i| self.mission_visible(viewer, i))
                });
                o
            })
            .collect();
        let recon = self.recon.as_ref().map(|r| ReconView {
            recon_points_left: (0..2).map(|i| (id(i), r.points[i])).collect(),
            log: r
                .log
                .iter()
                .map(|e| ReconLogView {
                    force_id: id(e.side.min(1)),
                    action: e.action,
                    markers: e.markers.clone(),
                    roll: e.roll,
                    result: e.result,
                    automatic: e.automatic,
                })
                .collect(),
            finished: r.finished,
            recon_points_lost: (0..2).map(|i| (id(i), r.lost[i])).collect(),
        });
        // Whether a side has submitted a secret step is itself that side's secret until the
        // step closes: a side the viewer does not see in full is listed as still waiting.
        let waiting_for = match info.state {
            ScenarioState::Orders
            | ScenarioState::MissionBonuses
            | ScenarioState::MissionChoice => (0..2)
                .filter(|i| !self.sides[*i].is_non_player())
                .filter(|i| !self.sees_all_of(viewer, *i) || info.waiting_for.contains(&id(*i)))
                .map(id)
                .collect(),
            ScenarioState::Recon | ScenarioState::Ready => info.waiting_for,
        };
        ScenarioView {
            state: info.state,
            waiting_for,
            recon_prompt: info.recon_prompt,
            night_fighting: self.config.night_fighting,
            escalating_engagement: self.escalating_engagement,
            table_edge_chooser: self.table_edge_chooser.map(id),
            random_player_edge: self.random_player_edge,
            first_to_place_markers: self.first_to_place_markers.map(id),
            marker_placement: self
                .marker_placement
                .iter()
                .map(|b| PlacementView {
                    force_id: id(b.side.min(1)),
                    count: b.count,
                })
                .collect(),
            objectives,
            recon,
            escalating_setup: self.escalating_setup.as_ref().map(|e| EscalatingSetupView {
                first_to_place: id(e.first_to_place.min(1)),
                placed_units: (0..2).map(|i| (id(i), e.placed_units[i].clone())).collect(),
                entering_per_turn: (0..2).map(|i| (id(i), e.entering_per_turn[i])).collect(),
            }),
            sides,
        }
    }

    fn side_view(&self, viewer: Viewer, i: usize) -> SideView {
        let s: &SideState = &self.sides[i];
        let full = self.sees_all_of(viewer, i);
        let revealed = full || self.state > ScenarioState::Orders;
        let shown_state = self.shown_state(viewer);
        // Not even one's own missions while the tie choice is shown as the bonus step.
        let missions = self.mission_visible(viewer, i) && !self.tie_choice_masked(viewer);
        let ready = full || self.state == ScenarioState::Ready;
        let field_defences = s.field_defences.clone().filter(|_| revealed).map(|mut f| {
            if !missions {
                f.remove(FieldDefenceSource::HoldMission);
            }
            f
        });
        let recon_duty = if full {
            Some(s.recon_duty.clone())
        } else if ready && !s.recon_duty.is_empty() {
            Some(
                s.recon_duty
                    .iter()
                    .map(|d| ReconDuty {
                        roll: None,
                        total: None,
                        ..d.clone()
                    })
                    .collect(),
            )
        } else {
            None
        };
        let pre_battle_events = ready.then(|| {
            s.pre_battle_events
                .iter()
                .filter(|e| {
                    missions
                        || (e.unit_id != BONUS_SNIPER_ID && e.unit_id != INTERFERE_ARTILLERY_ID)
                })
                .cloned()
                .collect()
        });
        SideView {
            force_id: s.force_id.clone(),
            non_player: s.is_non_player(),
            orders_submitted: s.orders.is_some() && revealed,
            mission_bonuses_submitted: s.mission_bonuses.is_some()
                && (full || shown_state > ScenarioState::MissionBonuses),
            stance: keep(revealed, s.stance()),
            attitude: keep(revealed, s.attitude()),
            recon_points: keep(revealed, s.recon_points),
            recon_unit_ids: s
                .orders
                .as_ref()
                .filter(|_| full)
                .map(|o| o.recon_unit_ids.clone()),
            attached_unit_ids: s
                .orders
                .as_ref()
                .filter(|_| full)
                .map(|o| o.attached_unit_ids.clone()),
            table_edge_roll: s.table_edge_roll,
            deployment_zone_inches: s.deployment_zone_inches,
            field_defences,
            mission_bonuses: keep(missions || full, s.mission_bonuses.clone()),
            bonus_units: keep(
                (missions || full) && !s.bonus_units.is_empty(),
                Some(s.bonus_units.clone()),
            ),
            mission_rolls: keep(
                missions && !s.mission_rolls.is_empty(),
                Some(s.mission_rolls.clone()),
            ),
            mission_totals: keep(
                missions && !s.mission_totals.is_empty(),
                Some(s.mission_totals.clone()),
            ),
            tied_missions: keep(
                missions && s.tied_missions.len() > 1,
                Some(s.tied_missions.clone()),
            ),
            mission: keep(missions, s.mission),
            bonus: keep(missions, s.bonus.clone()),
            bonus_traits: keep(
                missions && s.bonus.is_some(),
                Some(s.bonus_traits.iter().map(|b| named(b, s)).collect()),
            ),
            assault_target: keep(missions, s.assault_target.clone()),
            artillery_calls: keep(
                revealed,
                s.stance().map(|st| {
                    stance_artillery_calls(st)
                        + if missions {
                            s.bonus.as_ref().map_or(0, |b| b.artillery_calls)
                        } else {
                            0
                        }
                }),
            ),
            under_fire_ignores: keep(revealed, s.attitude().map(under_fire_ignores)),
            contact_markers: keep(full, s.contact_markers),
            night_fighting_roll: keep(full, s.night_fighting_roll),
            contact_marker_total: s.contact_markers.map(ContactMarkers::total),
            recon_duty,
            dispersion: s.dispersion,
            pre_battle_events,
        }
    }

    /// Whether `viewer` may see `roll` of this scenario's log.
    pub fn roll_visible_to(&self, roll: &Roll, viewer: Viewer) -> bool {
        let Some(side) = roll.force_id.as_deref().and_then(|f| self.side_index(f)) else {
            return true;
        };
        if self.tie_choice_masked(viewer)
            && matches!(roll.step, RollStep::Mission | RollStep::MissionTie)
        {
            return false;
        }
        if self.sees_all_of(viewer, side) {
            return true;
        }
        let missions = self.mission_visible(viewer, side);
        let ready = self.state == ScenarioState::Ready;
        match roll.step {
            RollStep::Mission | RollStep::MissionTie => missions,
            RollStep::ReconReturn => missions && ready,
            RollStep::NpfRecon => ready,
            // Part of the side's True/Dummy split, which only the side itself knows.
            RollStep::NightFighting => false,
            RollStep::NpfStance | RollStep::NpfAttitude => self.state > ScenarioState::Orders,
            RollStep::PreBattleEvent | RollStep::PreBattleEventTable => {
                ready
                    && (missions
                        || (roll.subject != BONUS_SNIPER_ID
                            && roll.subject != INTERFERE_ARTILLERY_ID))
            }
            _ => true,
        }
    }

    /// The rolls of `log` that `viewer` may see, in order.
    pub fn visible_rolls(&self, log: &[Roll], viewer: Viewer) -> Vec<Roll> {
        log.iter()
            .filter(|r| self.roll_visible_to(r, viewer))
            .cloned()
            .collect()
    }
}
