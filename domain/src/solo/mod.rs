//! Uncontrolled forces during the battle (docs/rules.md `solo`): a non-player force split into
//! groups of at most a platoon, each with an Approach, an objective, a rallying point and a
//! Discipline; at the start of every turn each group tests its Discipline on 3d6 and the result
//! says what it does; casualties of half the group worsen its Discipline one step.
//!
//! Pure: the state ([`SoloState`]) is a value the service stores, dice come in through
//! [`Dice`] and every roll is logged (step `discipline`, subject the group's name).

pub mod approach;
pub mod discipline;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollLog};
use crate::roster::{Force, Problem};

pub use approach::{Approach, ApproachRow, approach_row};
pub use discipline::{TestResult, default_discipline, discipline_test, half_lost, worsened};

/// Most groups in one force (a group is at least one unit; this only refuses absurd input).
pub const MAX_GROUPS: usize = 50;
/// Longest group name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// Longest objective or rallying point, in characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// A group as the player describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// The group's name (it names the group's Discipline roll too).
    pub name: String,
    /// Its units (ids of the non-player force's units), all from one platoon.
    pub units: Vec<String>,
    /// Its Approach.
    pub approach: Approach,
    /// What it targets or holds, in the player's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    /// Where it rallies, in the player's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rallying_point: Option<String>,
    /// Its Discipline (2 for 2+ … 5 for 5+); default: the worst Quality target of its units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discipline: Option<u8>,
}

/// A group and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Group {
    /// Its name.
    pub name: String,
    /// Its units' ids.
    pub units: Vec<String>,
    /// Its Approach.
    pub approach: Approach,
    /// What it targets or holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    /// Where it rallies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rallying_point: Option<String>,
    /// Its Discipline now (2–5: a die at or above it passes).
    pub discipline: u8,
    /// Its Discipline when the groups were set up.
    pub starting_discipline: u8,
    /// Its figures when the groups were set up.
    pub figures: u32,
    /// Figures it has lost.
    pub casualties: u32,
    /// Whether half the group are casualties (its Discipline has worsened for it).
    pub aborted: bool,
    /// Whether it is on its way to the nearest defensible position (no tests until it arrives).
    pub falling_back: bool,
}

/// What one group did in one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupTurn {
    /// The group.
    pub name: String,
    /// Its Discipline for this turn's test.
    pub discipline: u8,
    /// Dice that passed (absent: no test, the group is falling back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u8>,
    /// The test's dice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u8>,
    /// What it does.
    pub result: TestResult,
    /// What it does, in the rules' words.
    pub orders: String,
    /// The rule's anchor in docs/rules.md.
    pub anchor: String,
    /// Figures it had lost when the turn started.
    pub casualties: u32,
}

/// One turn of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Turn {
    /// Turn number, from 1.
    pub turn: u32,
    /// Groups the player said had reached their defensible position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrived: Vec<String>,
    /// Each group, in group order.
    pub groups: Vec<GroupTurn>,
    /// The turn's rolls, in order.
    pub rolls: RollLog,
}

/// Casualties recorded for a group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CasualtyEntry {
    /// The turn they were recorded in (0: before the first).
    pub turn: u32,
    /// The group.
    pub group: String,
    /// Figures lost.
    pub lost: u32,
    /// The group's losses after them.
    pub casualties: u32,
    /// Whether these made the group abort (Discipline one step worse).
    pub aborted: bool,
    /// Its Discipline after them.
    pub discipline: u8,
}

/// A non-player side's groups and turn log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SoloState {
    /// The groups, in the order they were given.
    pub groups: Vec<Group>,
    /// Every turn played, oldest first.
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// Every casualty entry, oldest first.
    #[serde(default)]
    pub casualty_log: Vec<CasualtyEntry>,
}

/// Why a turn cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnError {
    /// No groups have been set up.
    NoGroups,
    /// Problems with the request, by field.
    Invalid(Vec<Problem>),
    /// Entered dice that do not fit.
    Dice(DiceError),
}

impl From<DiceError> for TurnError {
    fn from(e: DiceError) -> Self {
        Self::Dice(e)
    }
}

fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Checks the player's groups against the non-player force and builds them (each problem names
/// its field: `groups[i].name`, `groups[i].units[j]`, ...). A group is at most a platoon (all its
/// units from one platoon), a unit belongs to one group, and names are unique.
pub fn form_groups(force: &Force, specs: &[GroupSpec]) -> Result<Vec<Group>, Vec<Problem>> {
    let mut problems = Vec::new();
    if specs.is_empty() {
        problems.push(Problem::new(
            "groups",
            "Give at least one group of the non-player force's units.",
        ));
    }
    if specs.len() > MAX_GROUPS {
        problems.push(Problem::new(
            "groups",
            format!("At most {MAX_GROUPS} groups."),
        ));
        return Err(problems);
    }
    let platoon_of: BTreeMap<&str, (usize, &str)> = force
        .platoons
        .iter()
        .enumerate()
        .flat_map(|(p, platoon)| {
            platoon
                .units
                .iter()
                .map(move |u| (u.id.as_str(), (p, platoon.name.as_str())))
        })
        .collect();
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    let mut groups = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let at = |f: &str| format!("groups[{i}].{f}");
        let name = spec.name.trim();
        if name.is_empty() {
            problems.push(Problem::new(at("name"), "Give the group a name."));
        } else if name.chars().count() > MAX_NAME_CHARS {
            problems.push(Problem::new(
                at("name"),
                format!("A group name has at most {MAX_NAME_CHARS} characters."),
            ));
        } else if names.insert(key(name), i).is_some() {
            problems.push(Problem::new(
                at("name"),
                format!("Another group is already called \u{201c}{name}\u{201d}; give each group its own name."),
            ));
        }
        if spec.units.is_empty() {
            problems.push(Problem::new(
                at("units"),
                "A group needs at least one unit.",
            ));
        }
        let mut platoons = BTreeSet::new();
        for (j, id) in spec.units.iter().enumerate() {
            let field = format!("groups[{i}].units[{j}]");
            let Some((p, platoon)) = platoon_of.get(id.as_str()) else {
                problems.push(Problem::new(field, "Not a unit of the non-player force."));
                continue;
            };
            platoons.insert((*p, *platoon));
            let unit_name = force.unit(id).map_or(id.as_str(), |u| u.name.as_str());
            match owner.get(id.as_str()) {
                Some(other) => problems.push(Problem::new(
                    field,
                    if *other == name {
                        format!("{unit_name} is listed twice in this group.")
                    } else {
                        format!("{unit_name} is already in group \u{201c}{other}\u{201d}: a unit belongs to one group.")
                    },
                )),
                None => {
                    owner.insert(id.as_str(), name);
                }
            }
        }
        if platoons.len() > 1 {
            let list: Vec<&str> = platoons.iter().map(|(_, n)| *n).collect();
            problems.push(Problem::new(
                at("units"),
                format!(
                    "A group is at most a platoon, but these units come from {}. Split them into one group per platoon.",
                    list.join(" and ")
                ),
            ));
        }
        if let Some(d) = spec.discipline
            && !(discipline::BEST..=discipline::WORST).contains(&d)
        {
            problems.push(Problem::new(
                at("discipline"),
                "Discipline is 2 to 5 (2+ to 5+); leave it empty to take the units' Quality.",
            ));
        }
        for (f, text) in [
            ("objective", &spec.objective),
            ("rallying_point", &spec.rallying_point),
        ] {
            if text
                .as_deref()
                .is_some_and(|t| t.chars().count() > MAX_TEXT_CHARS)
            {
                problems.push(Problem::new(
                    at(f),
                    format!("At most {MAX_TEXT_CHARS} characters."),
                ));
            }
        }
        let units: Vec<_> = spec.units.iter().filter_map(|id| force.unit(id)).collect();
        let discipline = spec
            .discipline
            .unwrap_or_else(|| default_discipline(units.iter().map(|u| u.quality)));
        let clean = |t: &Option<String>| {
            t.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
        };
        groups.push(Group {
            name: name.to_owned(),
            units: spec.units.clone(),
            approach: spec.approach,
            objective: clean(&spec.objective),
            rallying_point: clean(&spec.rallying_point),
            discipline,
            starting_discipline: discipline,
            figures: units.iter().map(|u| u.strength).sum(),
            casualties: 0,
            aborted: false,
            falling_back: false,
        });
    }
    if problems.is_empty() {
        Ok(groups)
    } else {
        Err(problems)
    }
}

/// What a group does for `result`, in the rules' words, and the rule's anchor.
pub fn orders(group: &Group, result: TestResult) -> (String, &'static str) {
    match result {
        TestResult::CarryOut => {
            let row = approach_row(group.approach);
            let mut text = format!("{}: {}", row.label, row.orders);
            let place = match group.approach {
                Approach::FallBack => group
                    .rallying_point
                    .as_deref()
                    .map(|p| format!(" Rallying point: {p}.")),
                _ => group
                    .objective
                    .as_deref()
                    .map(|o| format!(" Objective: {o}.")),
            };
            text.push_str(&place.unwrap_or_default());
            (text, row.anchor)
        }
        TestResult::Hold => (
            approach::HOLD_POSITION_ORDERS.to_owned(),
            approach::HOLD_POSITION_ANCHOR,
        ),
        TestResult::FallBack => (
            approach::FALL_BACK_ORDERS.to_owned(),
            approach::FALL_BACK_ANCHOR,
        ),
        TestResult::FallingBack => (
            approach::FALLING_BACK_ORDERS.to_owned(),
            approach::FALL_BACK_ANCHOR,
        ),
    }
}

/// Plays the next turn: the groups in `arrived` (falling back) have reached their defensible
/// position and test again; every group that tests rolls its Discipline Test; a group with no
/// pass starts falling back and tests no more until it arrives.
pub fn play_turn(
    state: &mut SoloState,
    arrived: &[String],
    dice: &mut dyn Dice,
    force_id: Option<&str>,
) -> Result<Turn, TurnError> {
    if state.groups.is_empty() {
        return Err(TurnError::NoGroups);
    }
    let mut problems = Vec::new();
    let mut arriving = BTreeSet::new();
    for (i, name) in arrived.iter().enumerate() {
        match state.groups.iter().position(|g| key(&g.name) == key(name)) {
            None => problems.push(Problem::new(
                format!("arrived[{i}]"),
                format!("No group is called \u{201c}{}\u{201d}.", name.trim()),
            )),
            Some(g) if !state.groups[g].falling_back => problems.push(Problem::new(
                format!("arrived[{i}]"),
                format!(
                    "{} is not falling back, so it has nowhere to arrive.",
                    state.groups[g].name
                ),
            )),
            Some(g) => {
                arriving.insert(g);
            }
        }
    }
    if !problems.is_empty() {
        return Err(TurnError::Invalid(problems));
    }
    let number = u32::try_from(state.turns.len()).unwrap_or(u32::MAX - 1) + 1;
    let log_start = dice.log().len();
    let mut groups = Vec::new();
    let mut next = state.groups.clone();
    for (g, group) in next.iter_mut().enumerate() {
        if arriving.contains(&g) {
            group.falling_back = false;
        }
        let (passes, values, result) = if group.falling_back {
            (None, Vec::new(), TestResult::FallingBack)
        } else {
            let (values, passed) = discipline_test(dice, &group.name, force_id, group.discipline)?;
            (Some(passed), values, discipline::test_row(passed).result)
        };
        if result == TestResult::FallBack {
            group.falling_back = true;
        }
        let (text, anchor) = orders(group, result);
        groups.push(GroupTurn {
            name: group.name.clone(),
            discipline: group.discipline,
            passes,
            values,
            result,
            orders: text,
            anchor: anchor.to_owned(),
            casualties: group.casualties,
        });
    }
    let turn = Turn {
        turn: number,
        arrived: arriving
            .iter()
            .map(|g| state.groups[*g].name.clone())
            .collect(),
        groups,
        rolls: dice.log()[log_start..].to_vec(),
    };
    state.groups = next;
    state.turns.push(turn.clone());
    Ok(turn)
}

/// Adds `lost` figures to group `name`'s casualties; once half the group are casualties its
/// Discipline worsens one step (never past 5+), once. Problems name `lost`.
pub fn add_casualties(
    state: &mut SoloState,
    name: &str,
    lost: u32,
) -> Result<CasualtyEntry, Problem> {
    let turn = u32::try_from(state.turns.len()).unwrap_or(u32::MAX);
    let group = state
        .groups
        .iter_mut()
        .find(|g| key(&g.name) == key(name))
        .ok_or_else(|| Problem::new("name", "No group has this name."))?;
    if lost == 0 {
        return Err(Problem::new("lost", "Enter the figures lost, at least 1."));
    }
    let left = group.figures.saturating_sub(group.casualties);
    if lost > left {
        return Err(Problem::new(
            "lost",
            format!(
                "{} has only {left} figure(s) left; enter at most {left}.",
                group.name
            ),
        ));
    }
    group.casualties += lost;
    let aborts = !group.aborted && half_lost(group.casualties, group.figures);
    if aborts {
        group.aborted = true;
        group.discipline = worsened(group.discipline);
    }
    let entry = CasualtyEntry {
        turn,
        group: group.name.clone(),
        lost,
        casualties: group.casualties,
        aborted: aborts,
        discipline: group.discipline,
    };
    state.casualty_log.push(entry.clone());
    Ok(entry)
}

/// The group called `name` (names compare trimmed and case-blind).
pub fn group<'a>(state: &'a SoloState, name: &str) -> Option<&'a Group> {
    state.groups.iter().find(|g| key(&g.name) == key(name))
}

#[cfg(test)]
mod tests;
