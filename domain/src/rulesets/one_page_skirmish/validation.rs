//! Roster validation for the one-page skirmish family (docs/rules.md §10): the force's shape and
//! names as for FAD, then each unit against its own model instead of FAD's (O2, O3, O9). Every
//! problem at once, with the dotted path of the value.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{BASES_PER_VEHICLE, MAX_BASES};
use crate::kit::VehicleState;
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus};
use crate::validation::{MAX_PLATOONS, MAX_UNITS_PER_PLATOON, check_name};

/// Most dice per base at one range: the text's largest is 6; this refuses only absurd input.
pub const MAX_DICE: u8 = 20;

/// The FAD roster fields a one-page unit uses; every other field must stay at its default.
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
    "one_page",
];

/// Checks a one-page skirmish roster; `Err` lists every problem, in roster order.
pub fn validate_one_page(force: &Force) -> Result<(), Vec<Problem>> {
    let mut out = Vec::new();
    check_name(&force.name, "name", &mut out);
    if force.platoons.is_empty() {
        out.push(Problem::new("platoons", "a force needs at least one group"));
    }
    if force.platoons.len() > MAX_PLATOONS {
        out.push(Problem::new(
            "platoons",
            format!(
                "at most {MAX_PLATOONS} groups, not {}",
                force.platoons.len()
            ),
        ));
    }
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    let blank = serde_json::to_value(Unit::default()).unwrap_or(Value::Null);
    for (p, platoon) in force.platoons.iter().enumerate().take(MAX_PLATOONS) {
        let path = format!("platoons[{p}]");
        check_name(&platoon.name, &format!("{path}.name"), &mut out);
        if platoon.units.is_empty() {
            out.push(Problem::new(
                format!("{path}.units"),
                "a group needs at least one unit",
            ));
        }
        if platoon.units.len() > MAX_UNITS_PER_PLATOON {
            out.push(Problem::new(
                format!("{path}.units"),
                format!("at most {MAX_UNITS_PER_PLATOON} units in a group"),
            ));
        }
        for (u, unit) in platoon.units.iter().enumerate().take(MAX_UNITS_PER_PLATOON) {
            let at = format!("{path}.units[{u}]");
            unit_problems(unit, &at, &blank, &mut out);
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
    let Some(profile) = &unit.one_page else {
        push(
            "one_page",
            "every unit of a one-page skirmish force has its profile: armour and force projection (O2)".to_owned(),
        );
        return;
    };
    let vehicle = match unit.kind {
        UnitKind::Squad => false,
        UnitKind::Vehicle => true,
        other => {
            push(
                "kind",
                format!("a one-page unit is infantry (`squad`) or a vehicle, not {other} (O2)"),
            );
            return;
        }
    };
    if !(1..=MAX_BASES).contains(&unit.starting_strength) {
        push(
            "starting_strength",
            format!(
                "a unit has one to four bases or vehicle models, not {} (O2)",
                unit.starting_strength
            ),
        );
    }
    if unit.strength > unit.starting_strength {
        push(
            "strength",
            format!(
                "{} bases, more than its starting {} (O2, C9)",
                unit.strength, unit.starting_strength
            ),
        );
    }
    if unit.resolve.is_some() {
        push(
            "resolve",
            "one-page units have no Resolve; leave it out (O3)".to_owned(),
        );
    }
    let eliminated = unit.status == UnitStatus::Eliminated;
    if unit.strength == 0 && !eliminated {
        push(
            "status",
            "a unit with no bases left is `eliminated` (C6)".to_owned(),
        );
    }
    if unit.strength > 0 && eliminated {
        push(
            "status",
            format!(
                "an eliminated unit has no bases, not {} (C6)",
                unit.strength
            ),
        );
    }
    if unit
        .vehicle_state
        .is_some_and(|s| s != VehicleState::Operational || !vehicle)
    {
        push(
            "vehicle_state",
            "a one-page vehicle stays operational: an immobilised one is fine by the next turn and a destroyed model leaves the unit (O4)".to_owned(),
        );
    }
    let dice = profile.force_projection.dice();
    if dice
        .iter()
        .chain([&profile.force_projection.at])
        .any(|d| *d > MAX_DICE)
    {
        push(
            "one_page.force_projection",
            format!("at most {MAX_DICE} dice per base at a range"),
        );
    }
    let most = if vehicle {
        BASES_PER_VEHICLE * unit.starting_strength.max(1)
    } else {
        0
    };
    if profile.carried_bases > most {
        push(
            "one_page.carried_bases",
            if vehicle {
                format!(
                    "a vehicle carries at most {BASES_PER_VEHICLE} infantry bases per model, so at most {most}, not {} (O9)",
                    profile.carried_bases
                )
            } else {
                "only a vehicle carries infantry bases (O9)".to_owned()
            },
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
                    "not part of a one-page unit: its armour and weapons are `one_page.armour` and `one_page.force_projection` (O2)".to_owned(),
                );
            }
        }
    }
}
