//! The battle page's first block, "At the table now": what this person must do next (or whom
//! the game waits for, by name), then their side's mission, deployment, objectives and contact
//! markers, numbered as the recon form and the sheet number them. Built only from what the
//! page's scenario view already shows this person, so it reveals nothing new.

use fad_domain::lifecycle::BattleState;
use fad_domain::names::Named;
use fad_domain::scenario::recon_phase::ReconPrompt;
use fad_domain::scenario::view::SideView;
use fad_domain::scenario::{ScenarioState, ScenarioView};
use maud::{Markup, html};

use crate::web::battles::page::{BattleView, label, name_of_force, side_name};

/// What this person does next, in one sentence, with the rules it follows.
struct NextStep {
    text: String,
    rule: Option<(&'static str, &'static str)>,
}

fn step(text: impl Into<String>, anchor: &'static str, rule: &'static str) -> NextStep {
    NextStep {
        text: text.into(),
        rule: Some((anchor, rule)),
    }
}

fn plain(text: impl Into<String>) -> NextStep {
    NextStep {
        text: text.into(),
        rule: None,
    }
}

/// The sides this person acts for.
fn my_sides(view: &BattleView) -> Vec<usize> {
    let sc = &view.scenario.scenario;
    (0..sc.sides.len())
        .filter(|i| view.scenario.acting_for.contains(&sc.sides[*i].force_id))
        .collect()
}

/// Who won, in a sentence ("Blue won.", "A draw."); empty before a result.
fn outcome(view: &BattleView) -> String {
    let Some(result) = &view.battle.result else {
        return String::new();
    };
    if result.outcome != "win" {
        return "A draw.".to_owned();
    }
    let winner = match &result.winner_force_id {
        Some(winner) => Some(name_of_force(view, winner)),
        // A win with no winning force is the non-player side's.
        None => {
            let sc = &view.scenario.scenario;
            (0..sc.sides.len())
                .find(|i| sc.sides[*i].non_player)
                .map(|i| side_name(view, i))
        }
    };
    winner.map_or_else(String::new, |w| format!("{w} won."))
}

fn next_step(view: &BattleView, mine: &[usize]) -> NextStep {
    let sc: &ScenarioView = &view.scenario.scenario;
    let waiting: Vec<String> = sc
        .waiting_for
        .iter()
        .map(|f| name_of_force(view, f))
        .collect();
    let my_turn = mine
        .iter()
        .any(|i| sc.waiting_for.contains(&sc.sides[*i].force_id));
    match view.battle.state {
        BattleState::Scenario if sc.state == ScenarioState::Ready => step(
            "The scenario is ready: set up the table, deploy and play. Record the result here afterwards.",
            "3.8",
            "Step 8: reveal forces",
        ),
        BattleState::Scenario if my_turn => match sc.state {
            ScenarioState::Orders => step(
                "Your turn: give your orders below (stance, attitude and recon duty).",
                "3.1",
                "Steps 1–3: orders",
            ),
            ScenarioState::MissionBonuses => step(
                "Your turn: add your two mission bonuses below.",
                "3.5",
                "Step 5: missions",
            ),
            ScenarioState::MissionChoice => step(
                "Your turn: pick your mission among the tied ones below.",
                "S9",
                "Tied mission totals",
            ),
            ScenarioState::Recon => match sc.recon_prompt {
                Some(ReconPrompt::Block) => step(
                    "Your turn: block the recon point the other side just spent, or let it pass.",
                    "3.7",
                    "Step 7: spending recon points",
                ),
                _ => step(
                    "Your recon turn: move two of your markers, reveal one of theirs, or pass.",
                    "3.7",
                    "Step 7: spending recon points",
                ),
            },
            ScenarioState::Ready => plain("The scenario is ready."),
        },
        BattleState::Scenario if !waiting.is_empty() => {
            plain(format!("Waiting for {}.", waiting.join(" and ")))
        }
        BattleState::Scenario => plain("Setting up the scenario."),
        BattleState::Pending => plain(format!(
            "Recorded: {} The result waits for confirmation: see below.",
            outcome(view)
        )),
        BattleState::Aftermath => step(
            format!(
                "{} Each force now runs its post-battle sequence: see below.",
                outcome(view)
            ),
            "2.1",
            "The post-battle steps",
        ),
        BattleState::Complete => plain(format!("Finished: {}", outcome(view))),
        BattleState::Void => plain("The organiser voided this battle: it counts for nothing."),
    }
}

/// An objective as the map numbers it: `o3` → `3`.
pub fn objective_number(id: &str) -> &str {
    id.strip_prefix('o')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or(id)
}

/// "1–7", "1" or none.
fn numbered(count: u32) -> Option<String> {
    match count {
        0 => None,
        1 => Some("1".to_owned()),
        n => Some(format!("1–{n}")),
    }
}

/// One side's facts for the table, as this person sees them.
fn side_facts(view: &BattleView, i: usize, me: &SideView) -> Markup {
    let sc = &view.scenario.scenario;
    let needed: Vec<String> = sc
        .objectives
        .iter()
        .filter(|o| o.needed_by.contains(&me.force_id))
        .map(|o| {
            let sector = o
                .sector
                .get(&me.force_id)
                .and_then(|s| serde_json::to_value(s).ok())
                .and_then(|v| v.as_str().map(label))
                .unwrap_or_default();
            let number = objective_number(&o.id);
            if sector.is_empty() {
                number.to_owned()
            } else {
                format!("{number} ({})", sector.to_lowercase())
            }
        })
        .collect();
    let theirs = sc.sides.iter().enumerate().find(|(j, _)| *j != i);
    html! {
        dl.facts.at-table {
            @if let Some(mission) = me.mission {
                dt { "Mission" }
                dd { (label(mission.name())) " · " a href="/rules#3.10" { "what it needs" } }
            }
            @if let Some(target) = &me.assault_target {
                dt { "Assault target" } dd { "Objective " (objective_number(target)) }
            }
            @if !needed.is_empty() {
                dt { "Objectives to take" } dd { (needed.join(", ")) }
            }
            @if let Some(zone) = me.deployment_zone_inches {
                dt { "Deployment zone" } dd { (zone) " inches from your table edge" }
            }
            @if let Some(markers) = me.contact_markers {
                dt { "Your contact markers" }
                dd {
                    (markers.total()) " (" (markers.true_markers) " true, " (markers.dummy) " dummy)"
                    @if let Some(range) = numbered(markers.total()) { ": number them " (range) }
                }
            } @else if let Some(total) = me.contact_marker_total {
                dt { "Your contact markers" }
                dd { (total) @if let Some(range) = numbered(total) { ": number them " (range) } }
            }
            @if let Some((j, other)) = theirs {
                @if let Some(total) = other.contact_marker_total {
                    dt { (side_name(view, j)) "'s contact markers" }
                    dd { (total) @if let Some(range) = numbered(total) { ", numbered " (range) } }
                }
            }
        }
    }
}

/// The block itself.
pub fn at_the_table(view: &BattleView) -> Markup {
    let mine = my_sides(view);
    let next = next_step(view, &mine);
    let sc = &view.scenario.scenario;
    html! {
        section.panel.at-table aria-labelledby="at-table-title" {
            h2 id="at-table-title" { "At the table now" }
            p.next-step {
                strong { (next.text) }
                @if let Some((anchor, rule)) = next.rule {
                    " " a href={ "/rules#" (anchor) } { "Rules: " (rule) }
                }
            }
            @if view.battle.state != BattleState::Void {
                @for i in &mine {
                    @if mine.len() > 1 { h3 { (side_name(view, *i)) } }
                    (side_facts(view, *i, &sc.sides[*i]))
                }
            }
        }
    }
}

/// The marker choices of a recon form: `Your marker 1` … or `<side>'s marker 1` …, valued by
/// the same words the log records.
pub fn marker_choices(view: &BattleView, side: usize, own: bool) -> Vec<(String, String)> {
    let sc = &view.scenario.scenario;
    let (owner, count) = if own {
        let me = &sc.sides[side];
        let count = me
            .contact_markers
            .map(|m| m.total())
            .or(me.contact_marker_total)
            .unwrap_or(0);
        (side, count)
    } else {
        let j = usize::from(side == 0);
        (
            j,
            sc.sides
                .get(j)
                .and_then(|s| s.contact_marker_total)
                .unwrap_or(0),
        )
    };
    let name = side_name(view, owner);
    (1..=count)
        .map(|n| {
            let text = format!("{name}'s marker {n}");
            (text.clone(), text)
        })
        .collect()
}
