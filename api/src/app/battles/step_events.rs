//! `scenario.step_changed`: told whenever what everyone may see of the scenario's step moves
//! on (a new step, or the recon turn passing to the other side), with whose turn it is. It is
//! computed from the outsider's view, so a side's secret choice (even that it made one) never
//! shows: in a secret step both player sides stay listed until the step closes.

use fad_domain::scenario::recon_phase::ReconPrompt;
use fad_domain::scenario::{Scenario, ScenarioState, Viewer};

use crate::store::events::{Event, EventForce, EventStep, EventType};

/// The step as anyone may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicStep {
    state: ScenarioState,
    waiting_for: Vec<String>,
    recon_prompt: Option<ReconPrompt>,
}

impl PublicStep {
    /// The step of `scenario` as an outsider sees it.
    pub fn of(scenario: &Scenario) -> Self {
        let view = scenario.view_for(Viewer::Outsider);
        Self {
            state: view.state,
            waiting_for: view.waiting_for,
            recon_prompt: view.recon_prompt,
        }
    }

    /// The first step of a new battle's scenario: every player side's orders.
    pub fn first(player_forces: Vec<String>) -> Self {
        Self {
            state: ScenarioState::Orders,
            waiting_for: player_forces,
            recon_prompt: None,
        }
    }

    /// The event telling this step (names and links are filled when it is appended).
    pub fn event(&self, campaign_id: &str, battle_id: &str, battle_state: &str) -> Event {
        let mut event = Event::battle(
            EventType::ScenarioStepChanged,
            campaign_id,
            battle_id,
            battle_state,
        );
        event.data.step = Some(step_of(self.state));
        event.data.waiting_for = Some(
            self.waiting_for
                .iter()
                .map(|id| EventForce {
                    force_id: Some(id.clone()),
                    ..EventForce::default()
                })
                .collect(),
        );
        event.data.recon_prompt = self.recon_prompt;
        event
    }
}

/// The event for a move from `before` to `after`, if anyone can see it moved. Reaching `ready`
/// is told by `battle.scenario_ready` instead (no one is waited for).
pub fn changed(
    before: &PublicStep,
    after: &PublicStep,
    campaign_id: &str,
    battle_id: &str,
    battle_state: &str,
) -> Option<Event> {
    (before != after && after.state != ScenarioState::Ready)
        .then(|| after.event(campaign_id, battle_id, battle_state))
}

fn step_of(state: ScenarioState) -> EventStep {
    match state {
        ScenarioState::Orders => EventStep::Orders,
        ScenarioState::MissionBonuses => EventStep::MissionBonuses,
        ScenarioState::MissionChoice => EventStep::MissionChoice,
        ScenarioState::Recon => EventStep::Recon,
        ScenarioState::Ready => EventStep::Ready,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(state: ScenarioState, waiting: &[&str], prompt: Option<ReconPrompt>) -> PublicStep {
        PublicStep {
            state,
            waiting_for: waiting.iter().map(|s| (*s).to_owned()).collect(),
            recon_prompt: prompt,
        }
    }

    #[test]
    fn an_unchanged_public_step_tells_nothing() {
        let orders = step(ScenarioState::Orders, &["a", "b"], None);
        assert!(changed(&orders, &orders.clone(), "c", "b1", "scenario").is_none());
    }

    #[test]
    fn a_recon_turn_passing_is_told_with_whose_turn_it_is() {
        let a = step(ScenarioState::Recon, &["a"], Some(ReconPrompt::Turn));
        let b = step(ScenarioState::Recon, &["b"], Some(ReconPrompt::Block));
        let event = changed(&a, &b, "c", "b1", "scenario").expect("an event");
        assert_eq!(event.event_type, EventType::ScenarioStepChanged);
        assert_eq!(event.data.step, Some(EventStep::Recon));
        assert_eq!(event.data.recon_prompt, Some(ReconPrompt::Block));
        let waiting = event.data.waiting_for.unwrap_or_default();
        assert_eq!(waiting.len(), 1);
        assert_eq!(waiting[0].force_id.as_deref(), Some("b"));
    }

    #[test]
    fn reaching_ready_is_left_to_scenario_ready() {
        let a = step(ScenarioState::Recon, &["a"], Some(ReconPrompt::Turn));
        let ready = step(ScenarioState::Ready, &[], None);
        assert!(changed(&a, &ready, "c", "b1", "scenario").is_none());
    }
}
