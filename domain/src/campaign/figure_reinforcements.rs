//! Reinforcements for a force of figures in teams (the FMA family, docs/rules.md §11, M7): the
//! pool counts new figures; they join teams below their starting size (C9 read per team), or
//! five to eight of them form one new team. New figures are Green with Motivation 3 and take the
//! kit of the dead figure whose place they fill. Unassigned figures are lost.

use std::collections::BTreeSet;

use super::changes::{UnitEvent, UnitEventRecord};
use super::figures::{form_team, join_team, team_room, team_size};
use super::reinforcements::{FormedSquad, PlatoonRef, ReinforcementChoice, ReinforcementEffects};
use super::tables::NewSquadRule;
use crate::roster::{Force, Problem};

fn team_index(force: &Force, team: &PlatoonRef) -> Option<usize> {
    match team {
        PlatoonRef::Index(i) => (*i < force.platoons.len()).then_some(*i),
        PlatoonRef::Name(name) => force.platoons.iter().position(|p| &p.name == name),
    }
}

/// Applies `choice` to a roster of figures with a pool of `pool` figures (M7).
pub fn apply(
    roster: &Force,
    force_id: &str,
    pool: u32,
    choice: &ReinforcementChoice,
    rule: &NewSquadRule,
) -> Result<ReinforcementEffects, Vec<Problem>> {
    let mut out = roster.clone();
    let mut problems = Vec::new();
    let mut events = Vec::new();
    if !choice.allocations.is_empty() {
        problems.push(Problem::new(
            "allocations",
            "a figure is a unit of one: new figures join a team (`teams`), not a unit (M7)",
        ));
    }
    let mut seen = BTreeSet::new();
    let mut allocated = 0u32;
    for (i, a) in choice.teams.iter().enumerate() {
        let at = |f: &str| format!("teams[{i}].{f}");
        let Some(index) = team_index(&out, &a.team) else {
            problems.push(Problem::new(at("team"), "no such team in this force"));
            continue;
        };
        if !seen.insert(index) {
            problems.push(Problem::new(at("team"), "team listed twice"));
            continue;
        }
        if a.figures == 0 {
            problems.push(Problem::new(at("figures"), "must be at least 1"));
            continue;
        }
        let team = &out.platoons[index];
        let room = team_room(team);
        if a.figures > room {
            let (starting, present) = team_size(team);
            problems.push(Problem::new(
                at("figures"),
                format!(
                    "{} has {present} of its starting {starting} figures: at most {room} can join (M7, C9 read per team)",
                    team.name
                ),
            ));
            continue;
        }
        for id in join_team(&mut out, index, a.figures, force_id, rule) {
            allocated += 1;
            events.push(UnitEventRecord::new(&id, UnitEvent::Formed { troopers: 1 }));
        }
    }
    let mut formed = 0;
    let mut formed_squad = None;
    if let Some(n) = &choice.new_squad {
        let before = problems.len();
        if !(rule.min..=rule.max).contains(&n.troopers) {
            problems.push(Problem::new(
                "new_squad.troopers",
                format!("a new team has {} to {} figures (M7)", rule.min, rule.max),
            ));
        }
        if n.name.trim().is_empty() {
            problems.push(Problem::new("new_squad.name", "must not be empty"));
        } else if out.platoons.iter().any(|p| p.name == n.name) {
            problems.push(Problem::new(
                "new_squad.name",
                "a team with this name exists",
            ));
        }
        let model = match &n.modelled_on {
            Some(id) => match out
                .unit(id)
                .and_then(|u| u.fma.clone().map(|p| (u.clone(), p)))
            {
                Some(found) => Some(found),
                None => {
                    problems.push(Problem::new(
                        "new_squad.modelled_on",
                        "must name a figure of this force: the new team copies its armour and weapons",
                    ));
                    None
                }
            },
            None => out
                .units()
                .find_map(|u| u.fma.clone().map(|p| (u.clone(), p))),
        };
        if let (Some((model_unit, profile)), true) = (model, problems.len() == before) {
            let ids = form_team(&mut out, &n.name, n.troopers, &profile, force_id, rule);
            formed = n.troopers;
            if let Some(first) = ids.first() {
                formed_squad = Some(FormedSquad {
                    unit_id: first.clone(),
                    name: n.name.clone(),
                    troopers: n.troopers,
                    platoon: n.name.clone(),
                    modelled_on: model_unit.id.clone(),
                    modelled_on_name: model_unit.name.clone(),
                    quality: rule.quality,
                    resolve: rule.resolve,
                    armour: model_unit.armour,
                    basic_weapon: None,
                    support_weapons: Vec::new(),
                });
            }
            for id in ids {
                events.push(UnitEventRecord::new(&id, UnitEvent::Formed { troopers: 1 }));
            }
        }
    }
    let requested = choice
        .teams
        .iter()
        .map(|a| a.figures)
        .fold(0u32, u32::saturating_add)
        .saturating_add(choice.new_squad.as_ref().map_or(0, |n| n.troopers));
    if requested > pool {
        problems.push(Problem::new(
            "teams",
            format!("{requested} new figures allocated, but the pool has {pool}"),
        ));
    }
    if problems.is_empty() {
        Ok(ReinforcementEffects {
            roster: out,
            allocated,
            new_squad: formed,
            lost: pool - allocated - formed,
            events,
            formed: formed_squad,
        })
    } else {
        Err(problems)
    }
}
