//! The post-battle steps of a ruleset whose units are single figures in teams (the FMA family,
//! docs/rules.md §11): the casualty roll in place of replacements (M4), Motivation change in
//! place of resolve change (M6), and new figures joining teams in place of troopers joining
//! squads (M7). The engine runs these where the sequence's tables carry a casualty table; each
//! rule is one function here, its table data in `rulesets::gzg_fma_1999`.

use std::collections::{BTreeMap, BTreeSet};

use super::report::AppliedLoss;
use super::resolve_change::ResolveChange;
use super::tables::NewSquadRule;
use crate::ladder::Ladder;
use crate::roster::{Force, Platoon, Unit, UnitKind, UnitStatus};
use crate::rulesets::gzg_fma_1999::{
    Casualty, Experience, FmaProfile, NEVER_ELITE_RULE, motivation_change,
};

/// The label of the resolve-change step on figures (M6).
pub use crate::rulesets::gzg_fma_1999::MOTIVATION_CHANGE;

/// The label of the casualty step (M4).
pub const CASUALTY_LABEL: &str = "Casualty";

/// M4: a figure rolls the casualty d6 when it was down at the end of the battle.
pub fn casualty_due(unit: &Unit, loss: AppliedLoss) -> bool {
    unit.fma.is_some() && loss.figures > 0
}

/// M4 applied: 1–2 back on the roster, 3–4 out (returnable for 1 CP), 5–6 dead for good.
pub fn apply_casualty(unit: &mut Unit, row: Casualty) {
    match row {
        Casualty::Returns => {
            unit.strength = unit.starting_strength.max(1);
            unit.status = UnitStatus::Active;
        }
        Casualty::SeriouslyWounded => {}
        Casualty::Dead => {
            if let Some(profile) = unit.fma.as_mut() {
                profile.dead = true;
            }
        }
    }
}

/// M6: the teams (platoon indices) in which a figure was down in the battle.
pub fn teams_with_losses(force: &Force, losses: &BTreeMap<String, AppliedLoss>) -> BTreeSet<usize> {
    force
        .platoons
        .iter()
        .enumerate()
        .filter(|(_, team)| {
            team.units
                .iter()
                .any(|u| u.fma.is_some() && losses.get(&u.id).is_some_and(|l| l.figures > 0))
        })
        .map(|(i, _)| i)
        .collect()
}

/// M6: whether a figure rolls Motivation change: still on the roster (active) in a team that
/// lost figures.
pub fn motivation_change_due(unit: &Unit, team_lost: bool) -> bool {
    team_lost && unit.fma.is_some() && unit.status == UnitStatus::Active && unit.strength > 0
}

/// M6 applied on FAD's resolve-change row: the Motivation level before and after.
pub fn apply_motivation_change(
    unit: &mut Unit,
    table: &[ResolveChange; 6],
    roll: u8,
) -> Option<(u8, u8)> {
    let profile = unit.fma.as_mut()?;
    let from = profile.motivation()?;
    let to = motivation_change(table, roll, from);
    profile.motivation = to.level();
    let profile = profile.clone();
    profile.sync_fad_fields(unit);
    Some((from.level(), to.level()))
}

/// M8: Experience one grade up, never to Elite; the error is the sentence for the player.
pub fn improve_experience(unit: &mut Unit) -> Result<(), String> {
    let Some(profile) = unit.fma.as_mut() else {
        return Err("not a figure".to_owned());
    };
    if profile.experience.up() == Experience::Elite || profile.experience == Experience::Elite {
        return Err(format!(
            "no figure may be raised to Elite: Elite is never bought ({NEVER_ELITE_RULE})"
        ));
    }
    profile.experience = profile.experience.up();
    let profile = profile.clone();
    profile.sync_fad_fields(unit);
    Ok(())
}

/// M8: Motivation one level better (toward 1).
pub fn improve_motivation(unit: &mut Unit) -> Result<(), String> {
    let Some(profile) = unit.fma.as_mut() else {
        return Err("not a figure".to_owned());
    };
    let Some(m) = profile.motivation() else {
        return Err("the figure's Motivation is not 1, 2 or 3 (M3)".to_owned());
    };
    if m.is_top() {
        return Err("Motivation is already 1 (high), the best level (M8)".to_owned());
    }
    profile.motivation = m.up().level();
    let profile = profile.clone();
    profile.sync_fad_fields(unit);
    Ok(())
}

/// M4, M8: a figure the casualty roll found dead (5–6) is never bought back.
pub fn check_return(unit: &Unit) -> Result<(), String> {
    match &unit.fma {
        Some(profile) if profile.dead => Err(
            "the figure is dead (casualty roll 5–6) and cannot be returned; only a seriously wounded figure (3–4) can (M4)"
                .to_owned(),
        ),
        _ => Ok(()),
    }
}

/// M7: a team's starting size, and the figures it has now (active or out, not dead). A dead
/// figure's place stays counted until a new figure takes it.
pub fn team_size(team: &Platoon) -> (u32, u32) {
    let figures = || team.units.iter().filter_map(|u| u.fma.as_ref());
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let starting = count(figures().filter(|p| !p.replaced).count());
    let present = count(figures().filter(|p| !p.dead).count());
    (starting, present)
}

/// M7: room for new figures in a team: its starting size less the figures it has.
pub fn team_room(team: &Platoon) -> u32 {
    let (starting, present) = team_size(team);
    starting.saturating_sub(present)
}

/// Whether a roster is made of figures (the FMA family's unit model).
pub fn is_figure_roster(force: &Force) -> bool {
    force.units().any(|u| u.fma.is_some())
}

fn free_figure_id(force: &Force, extra: &[Unit], force_id: &str) -> String {
    (1..)
        .map(|n| format!("{force_id}-figure-{n}"))
        .find(|id| force.unit(id).is_none() && extra.iter().all(|u| &u.id != id))
        .unwrap_or_else(|| format!("{force_id}-figure"))
}

/// A new figure (M7): Green, Motivation 3, no team role, the kit (armour, toughness none,
/// weapons) of `model`, the figure whose place or team it takes.
pub fn new_figure(id: String, name: String, model: &FmaProfile, rule: &NewSquadRule) -> Unit {
    let profile = FmaProfile {
        experience: crate::rulesets::gzg_fma_1999::NEW_FIGURE_EXPERIENCE,
        motivation: crate::rulesets::gzg_fma_1999::NEW_FIGURE_MOTIVATION.level(),
        role: None,
        armour: model.armour,
        toughness: crate::rulesets::gzg_fma_1999::Toughness::Normal,
        weapons: model.weapons.clone(),
        dead: false,
        replaced: false,
    };
    let mut unit = Unit {
        id,
        name,
        kind: UnitKind::Character,
        quality: rule.quality,
        resolve: Some(rule.resolve),
        strength: 1,
        starting_strength: 1,
        status: UnitStatus::Active,
        ..Unit::default()
    };
    profile.sync_fad_fields(&mut unit);
    unit.fma = Some(profile);
    unit
}

/// M7: `figures` new figures join team `index`, each taking a dead figure's place (marked
/// `replaced`) and his kit; the caller has checked the room. Returns the new figures' ids.
pub fn join_team(
    force: &mut Force,
    index: usize,
    figures: u32,
    force_id: &str,
    rule: &NewSquadRule,
) -> Vec<String> {
    let mut added: Vec<Unit> = Vec::new();
    for _ in 0..figures {
        let id = free_figure_id(force, &added, force_id);
        let team = &mut force.platoons[index];
        let name = format!("{} recruit {}", team.name, added.len() + 1);
        let fallback = team.units.iter().find_map(|u| u.fma.clone());
        let model = team
            .units
            .iter_mut()
            .find(|u| u.fma.as_ref().is_some_and(|p| p.dead && !p.replaced))
            .and_then(|u| u.fma.as_mut())
            .map(|p| {
                p.replaced = true;
                p.clone()
            })
            .or(fallback);
        let Some(model) = model else { break };
        added.push(new_figure(id, name, &model, rule));
    }
    let ids = added.iter().map(|u| u.id.clone()).collect();
    force.platoons[index].units.extend(added);
    ids
}

/// M7: a new team of `figures` new figures named `name`, with the kit of `model`. Returns the
/// new figures' ids.
pub fn form_team(
    force: &mut Force,
    name: &str,
    figures: u32,
    model: &FmaProfile,
    force_id: &str,
    rule: &NewSquadRule,
) -> Vec<String> {
    let mut added: Vec<Unit> = Vec::new();
    for n in 1..=figures {
        let id = free_figure_id(force, &added, force_id);
        added.push(new_figure(id, format!("{name} {n}"), model, rule));
    }
    let ids = added.iter().map(|u| u.id.clone()).collect();
    force.platoons.push(Platoon {
        name: name.to_owned(),
        units: added,
    });
    ids
}

#[cfg(test)]
mod tests;
