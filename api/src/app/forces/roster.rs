//! Rosters as clients send them, read into the domain roster and validated (every problem in
//! one 422, nothing stored). Unit ids are stable: the server assigns them on create and keeps
//! them on every edit.

use std::collections::HashSet;

use fad_domain::roster::{Force as Roster, Platoon, Unit};
use fad_domain::validation::validate_force;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, FieldError};
use crate::extract::deserialize_strict;
use crate::store;

/// A unit as clients send and receive it (API.md `Unit`). Documentation only: requests are
/// read into [`fad_domain::roster::Unit`], which also accepts the point-value gear fields
/// (`abilities`, `munitions`, `grenades`, `gadgets`, `bots`, `armour_addons`, …).
#[derive(Debug, ToSchema)]
#[expect(dead_code, reason = "schema only")]
pub struct UnitSchema {
    /// Stable id across edits and battles, assigned by the server. Creating, importing or
    /// generating a force gives every unit a fresh id (any id sent is ignored). Replacing a
    /// force (`PUT /forces/{id}`) keeps the ids of that force's own units; omit `id` for a new
    /// unit; an id that is not one of that force's units, or that two units share, is refused
    /// with 422 naming `platoons[i].units[j].id`.
    id: Option<String>,
    /// Name.
    name: String,
    /// `squad`, `command_squad`, `weapons_team`, `vehicle`, `character`, `sniper`, `psionic`,
    /// `off_board_artillery`.
    kind: String,
    /// `untrained`, `conscript`, `regular`, `veteran`, `elite`, `legendary` (docs/rules.md §1).
    quality: String,
    /// Resolve, or `null` when unknown (Unknown Resolve option).
    resolve: Option<String>,
    /// Current figures.
    strength: u32,
    /// Establishment strength (E): replacements never exceed it.
    starting_strength: u32,
    /// Armour type (`light`, `medium`, `heavy`, `powered`, …).
    armour: String,
    /// Basic weapon, if any.
    basic_weapon: Option<String>,
    /// Support weapons.
    support_weapons: Vec<String>,
    /// Heavy weapons (weapons teams, vehicles).
    heavy_weapons: Vec<String>,
    /// Traits (`snake_case` names).
    traits: Vec<String>,
    /// Personalities (characters).
    personalities: Vec<String>,
    /// Leadership (characters and command squads).
    leadership: Option<String>,
    /// Branch of a character.
    branch: Option<String>,
    /// Leader experience.
    leader_experience: Option<String>,
    /// Aptitude (psionics).
    aptitude: Option<String>,
    /// Psionic strength (psionics).
    psionic_strength: Option<u32>,
    /// Vehicle profile (vehicles only): `{mobility, armour: {front, side, rear}, crew,
    /// multi_role_crew, passengers, passenger_fired_weapons}`.
    #[schema(value_type = Option<Object>)]
    vehicle: Option<Value>,
    /// `operational`, `damaged` or `destroyed` (vehicles only).
    vehicle_state: Option<String>,
    /// `active` or `eliminated`.
    status: String,
    /// Output only: the unit's points (docs/rules.md §4.3), computed by the server; ignored on
    /// input.
    points: Option<f64>,
}

/// A platoon in a request.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlatoonRequest {
    /// Name.
    pub name: String,
    /// Units. `points` is ignored; `id` is optional (see the endpoint).
    #[schema(value_type = Vec<UnitSchema>)]
    pub units: Vec<Value>,
    /// Output only (ignored): the platoon's points.
    #[serde(default)]
    pub points: Option<f64>,
}

/// A roster as clients send it: `{name, platoons: [{name, units: [Unit]}]}`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct RosterRequest {
    /// The force's name.
    pub name: String,
    /// Its platoons.
    pub platoons: Vec<PlatoonRequest>,
}

/// How request unit ids are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdMode {
    /// Replacement: ids must be the force's own, each once; missing ids are new units.
    Replace,
    /// Create or import: every id is the server's. A client-chosen id could copy another
    /// force's unit and draw that unit's battle losses onto this one.
    Renew,
}

/// Reads a roster request into the domain roster and validates it: every problem (bad types,
/// unknown enum values with the accepted ones, rule violations) in one 422.
pub fn parse_roster(
    request: RosterRequest,
    mode: IdMode,
    existing: Option<&Roster>,
) -> Result<Roster, ApiError> {
    let mut errors = Vec::new();
    let known: HashSet<&str> = existing
        .map(|r| r.units().map(|u| u.id.as_str()).collect())
        .unwrap_or_default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut platoons = Vec::new();
    for (i, platoon) in request.platoons.into_iter().enumerate() {
        let mut units = Vec::new();
        for (j, raw) in platoon.units.into_iter().enumerate() {
            let path = format!("platoons[{i}].units[{j}]");
            let Value::Object(mut map) = raw else {
                errors.push(FieldError::new(path, "must be an object"));
                continue;
            };
            map.remove("points");
            let given = match map.get("id") {
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(Value::String(_)) => None,
                Some(_) => {
                    errors.push(FieldError::new(format!("{path}.id"), "must be a string"));
                    continue;
                }
            };
            let id = match (mode, given) {
                (IdMode::Renew, _) | (_, None) => store::new_id(),
                (IdMode::Replace, Some(id)) if !known.contains(id.as_str()) => {
                    errors.push(FieldError::new(
                        format!("{path}.id"),
                        "no unit of this force has this id; omit `id` for a new unit",
                    ));
                    continue;
                }
                (IdMode::Replace, Some(id)) if seen.contains(&id) => {
                    errors.push(FieldError::new(
                        format!("{path}.id"),
                        "another unit of this roster has the same id; each unit appears once",
                    ));
                    continue;
                }
                (IdMode::Replace, Some(id)) => id,
            };
            seen.insert(id.clone());
            map.insert("id".to_owned(), Value::String(id));
            match deserialize_strict::<_, Unit>(Value::Object(map)) {
                Ok(unit) => units.push(unit),
                Err(err) => errors.extend(err.into_field_errors(&path)),
            }
        }
        platoons.push(Platoon {
            name: platoon.name,
            units,
        });
    }
    let roster = Roster {
        name: request.name,
        platoons,
    };
    // Rule problems are only meaningful once every unit could be read.
    if errors.is_empty()
        && let Err(problems) = validate_force(&roster)
    {
        errors.extend(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message)),
        );
    }
    if errors.is_empty() {
        Ok(roster)
    } else {
        Err(ApiError::Validation(errors))
    }
}
