//! A battle's non-player side (docs/rules.md §3.12) as the
//! scenario needs it: an optional `name`, `stance` and `attitude` (rolled when absent) and an
//! optional inline force (`platoons` and `units`, as in the one-shot generator). Without units
//! the force is P empty platoons (P = `platoons` as a number, default 1): its markers are then
//! the dummy markers alone. It is stored as typed here: an unknown field is refused.

use fad_domain::orders::{Attitude, Stance};
use fad_domain::roster::{Force, Platoon};
use fad_domain::scenario::non_player::NonPlayerSetup;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::scenario_request::{InlineUnit, MAX_PLATOONS, PlatoonsBody, SideBody};
use crate::error::FieldError;

/// The id the scenario gives a battle's non-player side (it has no stored force).
pub const NON_PLAYER_ID: &str = "non_player";

/// Default name of a non-player force.
const DEFAULT_NAME: &str = "Non-player force";

/// A battle's non-player side: optional `name`, `stance` and `attitude` (rolled when absent,
/// docs/rules.md §3.12) and an optional inline force (`platoons`, `units`) as in `POST /scenarios`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NonPlayerBody {
    /// Its name (default "Non-player force").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its stance; rolled when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "neutral")]
    pub stance: Option<Stance>,
    /// Its attitude; rolled when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "cautious")]
    pub attitude: Option<Attitude>,
    /// Platoons with their units, or how many platoons it has (P, default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platoons: Option<PlatoonsBody>,
    /// Units (one platoon unless `platoons` is a number).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<InlineUnit>,
}

/// A parsed non-player side.
#[derive(Debug, Clone)]
pub struct NonPlayerSide {
    /// Its force (units get ids `s<side>-u<n>`).
    pub force: Force,
    /// Chosen stance and attitude, if any.
    pub setup: NonPlayerSetup,
}

fn empty_force(name: String, platoons: u32) -> Force {
    Force {
        name,
        platoons: (1..=platoons.max(1))
            .map(|k| Platoon {
                name: format!("Platoon {k}"),
                units: Vec::new(),
            })
            .collect(),
    }
}

/// Checks side `i`'s `non_player` description and builds its force; problems carry
/// `sides[i].non_player.…` paths.
pub fn parse(i: usize, body: &NonPlayerBody) -> Result<NonPlayerSide, Vec<FieldError>> {
    let at = |f: &str| format!("sides[{i}].non_player{f}");
    let body = body.clone();
    let name = body.name.unwrap_or_else(|| DEFAULT_NAME.to_owned());
    let has_units = !body.units.is_empty()
        || matches!(&body.platoons, Some(PlatoonsBody::List(list)) if list.iter().any(|p| !p.units.is_empty()));
    let setup = NonPlayerSetup {
        stance: body.stance,
        attitude: body.attitude,
    };
    if !has_units {
        let count = match &body.platoons {
            None => 1,
            Some(PlatoonsBody::Count(p)) => *p,
            Some(PlatoonsBody::List(list)) => u32::try_from(list.len()).unwrap_or(u32::MAX),
        };
        if count == 0 || count > MAX_PLATOONS {
            return Err(vec![FieldError::new(
                at(".platoons"),
                format!("between 1 and {MAX_PLATOONS}"),
            )]);
        }
        if name.trim().is_empty() || name.chars().count() > 100 {
            return Err(vec![FieldError::new(at(".name"), "1–100 characters")]);
        }
        return Ok(NonPlayerSide {
            force: empty_force(name, count),
            setup,
        });
    }
    let mut side = SideBody {
        force_id: None,
        name: Some(name),
        platoons: body.platoons,
        units: body.units,
        non_player: true,
        stance: None,
        attitude: None,
        mission_bonuses: Vec::new(),
        recon_unit_ids: Vec::new(),
        attached_unit_ids: Vec::new(),
        holo_projectors: 0,
        dice: Default::default(),
    };
    let mut errors = Vec::new();
    let force = crate::app::scenario_request::inline_force(i, &mut side, &mut errors);
    let prefix = format!("sides[{i}].");
    let errors: Vec<FieldError> = errors
        .into_iter()
        .map(|e| {
            let rest = e.field.strip_prefix(&prefix).unwrap_or(&e.field).to_owned();
            FieldError::new(at(&format!(".{rest}")), e.message)
        })
        .collect();
    match force {
        Some(force) if errors.is_empty() => Ok(NonPlayerSide { force, setup }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body(value: serde_json::Value) -> NonPlayerBody {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn an_empty_description_is_one_empty_platoon_and_units_get_inline_ids() {
        let empty = parse(1, &body(json!({}))).unwrap();
        assert_eq!(empty.force.platoon_count(), 1);
        assert_eq!(empty.force.units().count(), 0);
        assert_eq!(empty.setup.stance, None);
        let full = parse(
            1,
            &body(json!({"name": "Militia", "stance": "defensive", "units": [
                {"name": "Scouts", "kind": "squad", "traits": ["recon"]}
            ]})),
        )
        .unwrap();
        assert_eq!(full.force.name, "Militia");
        assert_eq!(full.setup.stance, Some(Stance::Defensive));
        assert_eq!(full.force.units().next().unwrap().id, "s2-u1");
    }

    #[test]
    fn bad_fields_are_named_under_non_player() {
        let err = parse(0, &body(json!({"platoons": 0}))).unwrap_err();
        assert_eq!(err[0].field, "sides[0].non_player.platoons");
    }
}
