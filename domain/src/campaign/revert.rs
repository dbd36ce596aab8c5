//! Undoing one committed post-battle sequence on a roster that may have changed since (the
//! organiser voids a battle): a three-way revert. `before` and `after` are the roster on either
//! side of the battle's history entry, `current` the roster now.
//!
//! Each unit field the battle changed goes back to its `before` value when it still holds the
//! battle's `after` value; a field edited since is a conflict (reverting it would throw the
//! edit away, keeping it would leave the battle half undone), so the void is refused and
//! nothing changes. A unit the battle added (a new squad, C10) is removed; a unit it removed
//! comes back. Changes made since to anything the battle did not touch are kept.

use std::collections::{BTreeMap, BTreeSet};

use crate::roster::{Force as Roster, Unit};
use serde_json::Value;

/// One place where the roster changed since the battle in a way the revert cannot undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevertConflict {
    /// The unit's name (empty for the force itself).
    pub unit: String,
    /// The field.
    pub field: String,
}

impl std::fmt::Display for RevertConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unit.is_empty() {
            write!(f, "the force's {}", self.field)
        } else {
            write!(f, "{}'s {}", self.unit, self.field)
        }
    }
}

fn fields(unit: &Unit) -> BTreeMap<String, Value> {
    match serde_json::to_value(unit) {
        Ok(Value::Object(map)) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    }
}

fn platoon_of<'a>(roster: &'a Roster, unit_id: &str) -> Option<&'a str> {
    roster
        .platoons
        .iter()
        .find(|p| p.units.iter().any(|u| u.id == unit_id))
        .map(|p| p.name.as_str())
}

fn platoon_names(roster: &Roster) -> Vec<&str> {
    roster.platoons.iter().map(|p| p.name.as_str()).collect()
}

/// The roster `current` with the change `before` → `after` undone, or every conflict.
pub fn revert(
    before: &Roster,
    after: &Roster,
    current: &Roster,
) -> Result<Roster, Vec<RevertConflict>> {
    if current == after {
        return Ok(before.clone());
    }
    let mut conflicts = Vec::new();
    let mut out = current.clone();
    let force_conflict = |field: &str| RevertConflict {
        unit: String::new(),
        field: field.to_owned(),
    };
    if before.name != after.name {
        if current.name == after.name {
            out.name.clone_from(&before.name);
        } else {
            conflicts.push(force_conflict("name"));
        }
    }
    if platoon_names(before) != platoon_names(after) {
        // A post-battle sequence never adds or renames platoons; refuse rather than guess.
        conflicts.push(force_conflict("platoons"));
    }
    for unit in after.units() {
        let Some(old) = before.unit(&unit.id) else {
            // Added by the battle (a new squad): it goes.
            for platoon in &mut out.platoons {
                platoon.units.retain(|u| u.id != unit.id);
            }
            continue;
        };
        if platoon_of(before, &unit.id) != platoon_of(after, &unit.id) {
            conflicts.push(RevertConflict {
                unit: unit.name.clone(),
                field: "platoon".to_owned(),
            });
            continue;
        }
        let (was, became) = (fields(old), fields(unit));
        let changed: BTreeSet<&String> = was
            .keys()
            .chain(became.keys())
            .filter(|k| was.get(*k) != became.get(*k))
            .collect();
        if changed.is_empty() {
            continue;
        }
        let Some(now) = out.unit_mut(&unit.id) else {
            conflicts.push(RevertConflict {
                unit: unit.name.clone(),
                field: "unit (removed since)".to_owned(),
            });
            continue;
        };
        let mut patched = fields(now);
        for key in changed {
            if patched.get(key) == became.get(key) {
                match was.get(key) {
                    Some(v) => patched.insert(key.clone(), v.clone()),
                    None => patched.remove(key),
                };
            } else {
                conflicts.push(RevertConflict {
                    unit: unit.name.clone(),
                    field: key.clone(),
                });
            }
        }
        match serde_json::from_value::<Unit>(Value::Object(patched.into_iter().collect())) {
            Ok(unit) => *now = unit,
            Err(_) => conflicts.push(RevertConflict {
                unit: unit.name.clone(),
                field: "unit".to_owned(),
            }),
        }
    }
    for old in before.units() {
        if after.unit(&old.id).is_some() || out.unit(&old.id).is_some() {
            continue;
        }
        // Removed by the battle: it comes back to its platoon.
        let home = platoon_of(before, &old.id).unwrap_or_default();
        match out.platoons.iter_mut().find(|p| p.name == home) {
            Some(platoon) => platoon.units.push(old.clone()),
            None => conflicts.push(RevertConflict {
                unit: old.name.clone(),
                field: "platoon".to_owned(),
            }),
        }
    }
    if conflicts.is_empty() {
        Ok(out)
    } else {
        Err(conflicts)
    }
}

#[cfg(test)]
mod tests {
    use crate::ladder::{Quality, Resolve};
    use crate::roster::{Force as Roster, Platoon, Unit};

    use super::revert;

    fn squad(id: &str, strength: u32) -> Unit {
        Unit {
            id: id.to_owned(),
            name: id.to_uppercase(),
            strength,
            starting_strength: 8,
            ..Default::default()
        }
    }

    fn roster(units: Vec<Unit>) -> Roster {
        Roster {
            name: "Blue".to_owned(),
            platoons: vec![Platoon {
                name: "1st".to_owned(),
                units,
            }],
        }
    }

    #[test]
    fn an_untouched_roster_goes_back_to_its_state_before_the_battle() {
        // Arrange
        let before = roster(vec![squad("a", 8)]);
        let mut after = roster(vec![squad("a", 6), squad("n", 5)]);
        after.platoons[0].units[0].resolve = Some(Resolve::Determined);

        // Act
        let reverted = revert(&before, &after, &after);

        // Assert
        assert_eq!(reverted, Ok(before));
    }

    #[test]
    fn later_edits_of_other_fields_and_units_are_kept_and_the_new_squad_goes() {
        // Arrange
        let before = roster(vec![squad("a", 3), squad("b", 8)]);
        let after = roster(vec![squad("a", 8), squad("b", 8), squad("n", 5)]);
        let mut current = after.clone();
        current.platoons[0].units[0].quality = Quality::Regular;
        current.platoons[0].units[1].name = "Renamed".to_owned();

        // Act
        let reverted = revert(&before, &after, &current).unwrap();

        // Assert
        let mut expected = before.clone();
        expected.platoons[0].units[0].quality = Quality::Regular;
        expected.platoons[0].units[1].name = "Renamed".to_owned();
        assert_eq!(reverted, expected);
    }

    #[test]
    fn a_field_the_battle_changed_and_an_edit_changed_again_is_a_conflict() {
        // Arrange
        let before = roster(vec![squad("a", 3)]);
        let after = roster(vec![squad("a", 8)]);
        let mut current = after.clone();
        current.platoons[0].units[0].strength = 7;

        // Act
        let conflicts = revert(&before, &after, &current).unwrap_err();

        // Assert
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].to_string(), "A's strength");
    }
}
