//! The dice a scenario's next step may take from the table, announced the way the post-battle
//! sequence announces its own (`next_dice`): once the input the machine waits for arrives, it
//! runs every step that needs none, and these are the rolls it may make on the way, each with
//! its subject, die and why (docs/rules.md §3). "May": a tie is re-rolled, a pre-battle table
//! roll follows only a 6, a non-player force's recon roll depends on its rolled orders.

use serde::{Deserialize, Serialize};

use crate::dice::RollStep;
use crate::names::Named;
use crate::orders::{Attitude, Mission, Stance};
use crate::scenario::machine::{Scenario, ScenarioState, SideState, event_subjects};
use crate::scenario::non_player::NpfOrders;
use crate::scenario::view::Viewer;

/// One roll the next step may make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScenarioDueRoll {
    /// The step, as in the roll log and the `dice` object.
    pub step: RollStep,
    /// The subject: a unit id, the side's force id, a mission or a platoon name.
    pub subject: String,
    /// The side it is rolled for (enter it in that side's `dice`, or in `non_player_dice`).
    pub force_id: String,
    /// The unit's name, when the subject is a unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_name: Option<String>,
    /// The dice, `1d6`: enter one value per die.
    pub dice: String,
    /// Why the rules call for the roll, and what the faces do.
    pub why: String,
}

/// Why each scenario roll is made (the announcement's `why`), as data.
const WHY: [(RollStep, &str); 12] = [
    (
        RollStep::NpfStance,
        "the non-player stance: 1–2 Offensive, 3–4 Neutral, 5–6 Defensive (§3.12)",
    ),
    (
        RollStep::NpfAttitude,
        "the non-player attitude: 1–2 Aggressive, 3–4 Cautious, 5–6 Passive (§3.12)",
    ),
    (
        RollStep::NpfRecon,
        "per platoon of a non-player force that rolls for recon: on 5+ one squad of the platoon goes on recon duty too (S25)",
    ),
    (
        RollStep::TableEdge,
        "1d6 + recon points: the highest total chooses its table edge; a tie is re-rolled (§3.4, S6)",
    ),
    (
        RollStep::Mission,
        "1d6 for this mission, plus the stance, attitude and +1 modifiers; the highest total is the side's mission (§3.5)",
    ),
    (
        RollStep::MissionTie,
        "a uniform pick among the non-player side's tied top missions (§3.5, S9)",
    ),
    (
        RollStep::NightFighting,
        "night fighting: 1d6 more dummy markers (§3.6)",
    ),
    (
        RollStep::ReconReturn,
        "recon-duty return: 1 destroyed by an ambush, 2–5 delayed to turn 2, 6+ on time; +1 with the Infiltrate or Recon trait (§3.6)",
    ),
    (
        RollStep::PlacementOrder,
        "only if both sides have as many markers: the lowest places first; a tie is re-rolled (§3.6)",
    ),
    (
        RollStep::NpfDispersion,
        "non-player marker placement: 1–2 dispersed, 3–4 no restriction, 5–6 concentrated (S26)",
    ),
    (
        RollStep::PreBattleEvent,
        "pre-battle event: on a 6 the unit rolls on its type's table (§3.11)",
    ),
    (
        RollStep::PreBattleEventTable,
        "only after a 6: the row of the unit type's pre-battle table (§3.11, S24)",
    ),
];

/// Recon-phase rolls: they come with the action that calls for them.
const BLOCK_WHY: [(RollStep, &str); 2] = [
    (
        RollStep::ReconBlock,
        "a Block: on 4+ the expenditure it answers is blocked (§3.7)",
    ),
    (
        RollStep::NpfBlock,
        "each recon point the player spends: on 4+ the non-player force tries to Block it (S28)",
    ),
];

fn why(step: RollStep) -> String {
    WHY.iter()
        .chain(BLOCK_WHY.iter())
        .find(|(s, _)| *s == step)
        .map_or("", |(_, w)| *w)
        .to_owned()
}

fn due(step: RollStep, subject: &str, side: &SideState) -> ScenarioDueRoll {
    ScenarioDueRoll {
        step,
        subject: subject.to_owned(),
        force_id: side.force_id.clone(),
        unit_name: side.force.unit(subject).map(|u| u.name.clone()),
        dice: "1d6".to_owned(),
        why: why(step),
    }
}

impl Scenario {
    /// The rolls the step after the current wait may make, side by side in the order the
    /// machine makes them; empty once the scenario is ready.
    pub fn next_dice(&self) -> Vec<ScenarioDueRoll> {
        self.dice_of_step(self.state)
    }

    /// [`Self::next_dice`] as `viewer` is shown the scenario: a side masked from the other's
    /// tie choice is announced the bonus step's dice, as if the missions were not rolled yet
    /// (see `tie_choice_masked`).
    pub fn next_dice_for(&self, viewer: Viewer) -> Vec<ScenarioDueRoll> {
        self.dice_of_step(self.shown_state(viewer))
    }

    fn dice_of_step(&self, state: ScenarioState) -> Vec<ScenarioDueRoll> {
        match state {
            ScenarioState::Orders => self.orders_dice(),
            ScenarioState::MissionBonuses => {
                let mut out = self.mission_dice();
                out.extend(self.contact_marker_dice());
                out
            }
            ScenarioState::MissionChoice => self.contact_marker_dice(),
            ScenarioState::Recon => {
                let mut out = self.block_dice();
                out.extend(self.pre_battle_dice());
                out
            }
            ScenarioState::Ready => Vec::new(),
        }
    }

    /// Orders close: the non-player orders and recon (§3.12), then the table-edge roll (§3.4).
    fn orders_dice(&self) -> Vec<ScenarioDueRoll> {
        let mut out = Vec::new();
        let reading = self.config.house_rules.npf_recon_reading;
        for side in &self.sides {
            let Some(setup) = side.non_player else {
                continue;
            };
            if setup.stance.is_none() {
                out.push(due(RollStep::NpfStance, &side.force_id, side));
            }
            if setup.attitude.is_none() {
                out.push(due(RollStep::NpfAttitude, &side.force_id, side));
            }
            // Rolled orders may be any: announce the recon roll unless chosen orders rule it out.
            let may_roll = |stance: Stance, attitude: Attitude| {
                NpfOrders {
                    stance,
                    attitude,
                    reading,
                }
                .rolls_for_recon_squads()
            };
            let stances = setup.stance.map_or(Stance::ALL.to_vec(), |s| vec![s]);
            let attitudes = setup.attitude.map_or(Attitude::ALL.to_vec(), |a| vec![a]);
            if stances
                .iter()
                .any(|s| attitudes.iter().any(|a| may_roll(*s, *a)))
            {
                for platoon in &side.force.platoons {
                    out.push(due(RollStep::NpfRecon, &platoon.name, side));
                }
            }
        }
        for side in &self.sides {
            out.push(due(RollStep::TableEdge, &side.force_id, side));
        }
        out
    }

    /// Step 5: a d6 per mission per side, and a non-player side's tie pick.
    fn mission_dice(&self) -> Vec<ScenarioDueRoll> {
        let mut out = Vec::new();
        for side in &self.sides {
            for m in Mission::ROLLED {
                out.push(due(RollStep::Mission, m.name(), side));
            }
            if side.is_non_player() {
                out.push(due(RollStep::MissionTie, &side.force_id, side));
            }
        }
        out
    }

    /// Step 6 once missions are settled: night fighting, recon returns, non-player dispersion,
    /// placement order (none of them in an Escalating Engagement, whose missions are not known
    /// yet when these are announced).
    fn contact_marker_dice(&self) -> Vec<ScenarioDueRoll> {
        let mut out = Vec::new();
        for side in &self.sides {
            if self.config.night_fighting {
                out.push(due(RollStep::NightFighting, &side.force_id, side));
            }
            for id in side.recon_unit_ids() {
                out.push(due(RollStep::ReconReturn, id, side));
            }
            if side.is_non_player() {
                out.push(due(RollStep::NpfDispersion, &side.force_id, side));
            }
        }
        for side in &self.sides {
            out.push(due(RollStep::PlacementOrder, &side.force_id, side));
        }
        out
    }

    /// Step 7: the Block dice of the side acting now, and the non-player decision to block.
    fn block_dice(&self) -> Vec<ScenarioDueRoll> {
        let Some(recon) = self.recon.as_ref().filter(|r| !r.finished) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, side) in self.sides.iter().enumerate() {
            if recon.non_player[i] {
                out.push(due(RollStep::NpfBlock, &side.force_id, side));
            } else {
                out.push(due(RollStep::ReconBlock, &side.force_id, side));
            }
        }
        out
    }

    /// Pre-battle events (§3.11) once the recon phase ends: a d6 per unit, and on a 6 its
    /// table's d6.
    fn pre_battle_dice(&self) -> Vec<ScenarioDueRoll> {
        if !self.config.pre_battle_events {
            return Vec::new();
        }
        let mut out = Vec::new();
        for side in &self.sides {
            for subject in event_subjects(side) {
                out.push(due(RollStep::PreBattleEvent, &subject.unit_id, side));
                out.push(due(RollStep::PreBattleEventTable, &subject.unit_id, side));
            }
        }
        out
    }
}
