//! Roster validation for the FMA family (docs/rules.md §11): the force's shape and names as for
//! FAD, teams as its groups, then each figure against its own model instead of FAD's (M1 figures
//! and teams, M2 Experience and armour, M3 Motivation and team roles). Every problem at once,
//! with the dotted path of the value.

use std::collections::BTreeMap;

use serde_json::Value;

use super::figure::{FmaArmour, TeamRole, Toughness};
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus};
use crate::validation::{MAX_LIST_ITEMS, MAX_PLATOONS, MAX_UNITS_PER_PLATOON, check_name};

/// The longest range band a weapon may have, in inches: the text's longest is 72"; this refuses
/// only absurd input.
pub const MAX_RANGE_INCHES: u32 = 240;

/// The largest impact multiplier (the text's heaviest is x2).
pub const MAX_IMPACT_MULTIPLIER: u8 = 5;

/// The FAD roster fields an FMA unit uses; every other field must stay at its default.
const OWN_FIELDS: [&str; 10] = [
    "id",
    "name",
    "kind",
    "quality",
    "resolve",
    "strength",
    "starting_strength",
    "status",
    "vehicle_state",
    "fma",
];

/// Checks an FMA roster; `Err` lists every problem, in roster order.
pub fn validate_fma(force: &Force) -> Result<(), Vec<Problem>> {
    let mut out = Vec::new();
    check_name(&force.name, "name", &mut out);
    if force.platoons.is_empty() {
        out.push(Problem::new(
            "platoons",
            "a force needs at least one team (M1)",
        ));
    }
    if force.platoons.len() > MAX_PLATOONS {
        out.push(Problem::new(
            "platoons",
            format!("at most {MAX_PLATOONS} teams, not {}", force.platoons.len()),
        ));
    }
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    let blank = serde_json::to_value(Unit::default()).unwrap_or(Value::Null);
    for (p, team) in force.platoons.iter().enumerate().take(MAX_PLATOONS) {
        let path = format!("platoons[{p}]");
        check_name(&team.name, &format!("{path}.name"), &mut out);
        if team.units.is_empty() {
            out.push(Problem::new(
                format!("{path}.units"),
                "a team needs at least one figure (M1)",
            ));
        }
        if team.units.len() > MAX_UNITS_PER_PLATOON {
            out.push(Problem::new(
                format!("{path}.units"),
                format!("at most {MAX_UNITS_PER_PLATOON} figures in a team"),
            ));
        }
        let mut roles: BTreeMap<TeamRole, String> = BTreeMap::new();
        for (u, unit) in team.units.iter().enumerate().take(MAX_UNITS_PER_PLATOON) {
            let at = format!("{path}.units[{u}]");
            unit_problems(unit, &at, &blank, &mut out);
            if let Some(role) = unit.fma.as_ref().and_then(|f| f.role) {
                match roles.get(&role) {
                    Some(first) => out.push(Problem::new(
                        format!("{at}.fma.role"),
                        format!("a team has one {role}; {first} already is (M3)"),
                    )),
                    None => {
                        roles.insert(role, at.clone());
                    }
                }
            }
            match seen.get(unit.id.as_str()) {
                Some(first) if !unit.id.is_empty() => out.push(Problem::new(
                    format!("{at}.id"),
                    format!("unit id `{}` is already used by {first}", unit.id),
                )),
                Some(_) => {}
                None => {
                    seen.insert(&unit.id, at);
                }
            }
        }
    }
    if out.is_empty() { Ok(()) } else { Err(out) }
}

fn unit_problems(unit: &Unit, at: &str, blank: &Value, out: &mut Vec<Problem>) {
    check_name(&unit.name, &format!("{at}.name"), out);
    let mut push = |field: &str, message: String| {
        out.push(Problem::new(format!("{at}.{field}"), message));
    };
    if unit.starting_strength != 1 {
        push(
            "starting_strength",
            format!(
                "each figure is a unit of one, not {} (M1)",
                unit.starting_strength
            ),
        );
    }
    if unit.strength > 1 {
        push(
            "strength",
            format!("a figure's strength is 1 or 0, not {} (M1)", unit.strength),
        );
    }
    let eliminated = unit.status == UnitStatus::Eliminated;
    if unit.strength == 0 && !eliminated {
        push(
            "status",
            "a figure with strength 0 is `eliminated` (C6)".to_owned(),
        );
    }
    if unit.strength > 0 && eliminated {
        push(
            "status",
            "an eliminated figure has strength 0 (C6)".to_owned(),
        );
    }
    match unit.kind {
        UnitKind::Character => figure_problems(unit, &mut push),
        UnitKind::Vehicle => {
            if unit.fma.is_some() {
                push(
                    "fma",
                    "a vehicle has no figure profile: its crew are figures of their own (M13)"
                        .to_owned(),
                );
            }
            if unit.vehicle_state.is_none() {
                push(
                    "vehicle_state",
                    "a vehicle needs its state: operational, damaged or destroyed (M13)".to_owned(),
                );
            }
        }
        other => push(
            "kind",
            format!("an FMA unit is a figure (`character`) or a vehicle, not {other} (M1, M13)"),
        ),
    }
    if unit.kind != UnitKind::Vehicle && unit.vehicle_state.is_some() {
        push(
            "vehicle_state",
            "only a vehicle has a vehicle state (M13)".to_owned(),
        );
    }
    // FAD's gear, weapons, traits and leaders are not part of this game: a value other than the
    // default would be stored and never applied.
    let value = serde_json::to_value(unit).unwrap_or(Value::Null);
    if let (Value::Object(fields), Value::Object(defaults)) = (&value, blank) {
        for (key, v) in fields {
            if OWN_FIELDS.contains(&key.as_str()) {
                continue;
            }
            if defaults.get(key) != Some(v) {
                push(
                    key,
                    "not part of an FMA figure: its grade, armour and weapons are under `fma` (M1)"
                        .to_owned(),
                );
            }
        }
    }
}

fn figure_problems(unit: &Unit, push: &mut impl FnMut(&str, String)) {
    let Some(profile) = &unit.fma else {
        push(
            "fma",
            "every figure of an FMA force has its profile: experience, motivation and armour (M1)"
                .to_owned(),
        );
        return;
    };
    if !(1..=3).contains(&profile.motivation) {
        push(
            "fma.motivation",
            format!(
                "Motivation is 1 (high), 2 (average) or 3 (low), not {} (M3)",
                profile.motivation
            ),
        );
    }
    if profile.dead && unit.status != UnitStatus::Eliminated {
        push(
            "fma.dead",
            "a dead figure stays eliminated: the casualty roll of 5–6 cannot be undone (M4)"
                .to_owned(),
        );
    }
    if profile.replaced && !profile.dead {
        push(
            "fma.replaced",
            "only a dead figure's place is taken by a new figure (M7)".to_owned(),
        );
    }
    if profile.armour == FmaArmour::NonCombatant && profile.toughness != Toughness::Normal {
        push(
            "fma.toughness",
            "toughness raises an armour die; a non-combatant's fixed armour 1 has none (M2)"
                .to_owned(),
        );
    }
    if profile.weapons.len() > MAX_LIST_ITEMS {
        push("fma.weapons", format!("at most {MAX_LIST_ITEMS} weapons"));
    }
    for (w, weapon) in profile.weapons.iter().enumerate().take(MAX_LIST_ITEMS) {
        let wat = format!("fma.weapons[{w}]");
        if weapon.name.trim().is_empty() {
            push(&format!("{wat}.name"), "a weapon needs a name".to_owned());
        }
        let reach: Vec<u32> = weapon.bands.iter().map(|b| b.inches).collect();
        if reach[0] == 0 || reach.windows(2).any(|p| p[1] <= p[0]) {
            push(
                &format!("{wat}.bands"),
                format!(
                    "the three range bands reach further each, from at least 1\": not {}/{}/{} (M2)",
                    reach[0], reach[1], reach[2]
                ),
            );
        }
        if reach.iter().any(|r| *r > MAX_RANGE_INCHES) {
            push(
                &format!("{wat}.bands"),
                format!("a range band reaches at most {MAX_RANGE_INCHES}\""),
            );
        }
        if !(1..=MAX_IMPACT_MULTIPLIER).contains(&weapon.impact_multiplier) {
            push(
                &format!("{wat}.impact_multiplier"),
                format!(
                    "the impact multiplier is 1 to {MAX_IMPACT_MULTIPLIER}, not {}",
                    weapon.impact_multiplier
                ),
            );
        }
    }
}
