//! Rosters as clients send them, read into the domain roster and validated (every problem in
//! one 422, nothing stored). Unit ids are stable: the server assigns them on create and keeps
//! them on every edit.

use std::collections::HashSet;

use fad_domain::roster::{Force as Roster, Platoon, Unit};
use fad_domain::rulesets::gzg_fma_1999::validate_fma;
use fad_domain::rulesets::one_page_skirmish::validate_one_page;
use fad_domain::rulesets::{Family, Ruleset};
use fad_domain::validation::{RulesetLimits, validate_force_under};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, FieldError};
use crate::extract::{deserialize_strict, deserialize_strict_quick};
use crate::store;

/// A platoon in a request.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlatoonRequest {
    /// Name.
    pub name: String,
    /// Units. `points`, `quality_die` and `effective_quality` are ignored; `id` is optional:
    /// the server assigns ids (see the endpoint).
    #[schema(value_type = Vec<Unit>)]
    pub units: Vec<Value>,
    /// Output only (ignored): the platoon's points.
    #[serde(default)]
    pub points: Option<f64>,
}

/// A roster as clients send it: `{name, platoons: [{name, units: [Unit]}]}`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"name": "Red Company", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha Squad", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved",
         "basic_weapon": "assault_rifles", "traits": ["grizzled"]},
        {"name": "Lt. Varga", "kind": "character", "quality": "regular", "resolve": "determined",
         "strength": 1, "starting_strength": 1, "armour": "improved",
         "basic_weapon": "assault_rifles", "leadership": "experienced", "branch": "infantry",
         "personalities": ["lucky"]}
    ]}]}))]
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
    limits: &RulesetLimits,
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
            // Outputs of a read, ignored so a read roster can be sent back as it came.
            for output in ["points", "quality_die", "effective_quality"] {
                map.remove(output);
            }
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
            // A figure's FAD Quality follows its Experience (synced below): it may be left out.
            if map.contains_key("fma") && !map.contains_key("quality") {
                map.insert("quality".to_owned(), Value::String("regular".to_owned()));
            }
            let unit = Value::Object(map);
            let read = deserialize_strict_quick::<_, Unit>(&unit)
                .map(|read| read.map_err(|e| e.into_field_errors(&path)))
                .unwrap_or_else(|| {
                    deserialize_strict::<_, Unit>(unit).map_err(|e| e.into_field_errors(&path))
                });
            match read {
                Ok(unit) => units.push(unit),
                Err(unit_errors) => errors.extend(unit_errors),
            }
        }
        platoons.push(Platoon {
            name: platoon.name,
            units,
        });
    }
    let mut roster = Roster {
        name: request.name,
        platoons,
    };
    // An FMA figure's profile is its truth; its FAD `quality` and `resolve` follow it, so the
    // roster lock and the history read the same rungs (M2, M3).
    for unit in roster.units_mut() {
        if let Some(profile) = unit.fma.clone() {
            profile.sync_fad_fields(unit);
        }
    }
    // Rule problems are only meaningful once every unit could be read. A roster of one-page
    // units is checked by its own family's rules; `check_family` then holds it to the
    // campaign's ruleset.
    if errors.is_empty()
        && let Err(problems) = if is_one_page(&roster) {
            validate_one_page(&roster)
        } else if fad_domain::campaign::figures::is_figure_roster(&roster) {
            validate_fma(&roster)
        } else {
            validate_force_under(&roster, limits)
        }
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

/// Whether a roster is written in the one-page skirmish family's unit model (any unit with its
/// profile; [`validate_one_page`] then requires it of every unit).
pub fn is_one_page(roster: &Roster) -> bool {
    roster.units().any(|u| u.one_page.is_some())
}

/// Holds a roster to the family of the campaign's ruleset: a FAD campaign's units carry no
/// one-page profile, and a one-page campaign's units all do (O2). 422 at the first unit that
/// does not fit.
pub fn check_family(roster: &Roster, ruleset: &Ruleset) -> Result<(), ApiError> {
    match ruleset.family {
        Family::Fad => {
            for (p, platoon) in roster.platoons.iter().enumerate() {
                if let Some(u) = platoon.units.iter().position(|u| u.one_page.is_some()) {
                    return Err(ApiError::validation(
                        format!("platoons[{p}].units[{u}].one_page"),
                        format!(
                            "this campaign plays {}: its units have no one-page profile",
                            ruleset.name
                        ),
                    ));
                }
                if let Some(u) = platoon.units.iter().position(|u| u.fma.is_some()) {
                    return Err(ApiError::validation(
                        format!("platoons[{p}].units[{u}].fma"),
                        format!(
                            "this campaign plays {}: its units have no FMA figure profile",
                            ruleset.name
                        ),
                    ));
                }
            }
            Ok(())
        }
        Family::Fma => validate_fma(roster).map_err(|problems| {
            ApiError::Validation(
                problems
                    .into_iter()
                    .map(|p| FieldError::new(p.field, p.message))
                    .collect(),
            )
        }),
        Family::OnePage => validate_one_page(roster).map_err(|problems| {
            ApiError::Validation(
                problems
                    .into_iter()
                    .map(|p| FieldError::new(p.field, p.message))
                    .collect(),
            )
        }),
    }
}

/// The points of a roster being edited, before it is saved: every unit that reads is priced as
/// the saved roster would be; a unit that does not read yet has no points (`None`) and counts
/// for nothing in its platoon and the force.
#[derive(Debug, Clone, PartialEq)]
pub struct PointsPreview {
    /// The force's points.
    pub force: f64,
    /// Each platoon's points.
    pub platoons: Vec<f64>,
    /// Each unit's points, by platoon.
    pub units: Vec<Vec<Option<f64>>>,
}

/// Prices `request` unit by unit with the same rounding as a stored force's answer.
pub fn preview_points(request: &RosterRequest) -> PointsPreview {
    use fad_domain::points::{round_points, unit_points};
    let units: Vec<Vec<Option<f64>>> = request
        .platoons
        .iter()
        .map(|platoon| {
            platoon
                .units
                .iter()
                .map(|raw| {
                    let mut raw = raw.clone();
                    if let Value::Object(map) = &mut raw {
                        map.remove("points");
                        map.insert("id".to_owned(), Value::String(String::new()));
                    }
                    serde_json::from_value::<Unit>(raw)
                        .ok()
                        .map(|u| unit_points(&u))
                })
                .collect()
        })
        .collect();
    // Sums at full precision, rounded once, as `force_points` and `platoon_points` do.
    let platoons: Vec<f64> = units
        .iter()
        .map(|p| p.iter().flatten().sum::<f64>())
        .collect();
    PointsPreview {
        force: round_points(platoons.iter().sum()),
        platoons: platoons.into_iter().map(round_points).collect(),
        units: units
            .into_iter()
            .map(|p| p.into_iter().map(|u| u.map(round_points)).collect())
            .collect(),
    }
}
