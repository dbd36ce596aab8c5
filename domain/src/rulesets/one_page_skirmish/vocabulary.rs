//! The one-page skirmish family's words in its vocabulary (`GET /api/v1/rulesets/one-page-skirmish`):
//! FAD 5e's words narrowed to what a one-page unit uses, plus its own armour and ranges.

use serde::Serialize;

use super::unit::{OnePageArmour, Training};
use crate::names::Named;
use crate::roster::UnitKind;
use crate::vocabulary::Vocabulary;

/// An armour with the hits it ignores.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArmourWord {
    /// The word (`one_page.armour`).
    pub name: &'static str,
    /// Hits ignored per attack.
    pub ignores: u8,
}

/// A force-projection range with its band in cm.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RangeWord {
    /// The field of `one_page.force_projection`.
    pub name: &'static str,
    /// Where it starts, in cm (Point Blank: contact).
    pub from_cm: f64,
    /// Where it ends, in cm.
    pub to_cm: f64,
}

/// A training rung with the Quality rung requests store it on (O1).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrainingWord {
    /// The training.
    pub name: &'static str,
    /// Its rating.
    pub rating: u8,
    /// The unit's `quality` value for it.
    pub quality: &'static str,
}

/// The family's own words.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnePageWords {
    /// Training, lowest first, with the `quality` value each is stored as.
    pub training: Vec<TrainingWord>,
    /// Armour, lowest first.
    pub armour: Vec<ArmourWord>,
    /// Force-projection ranges, nearest first.
    pub ranges: Vec<RangeWord>,
    /// Most bases (or vehicle models) in a unit.
    pub max_bases: u32,
    /// Infantry bases one vehicle model carries.
    pub bases_per_vehicle: u32,
}

/// Drops FAD 5e's words a one-page unit never uses and returns the family's own.
pub fn narrow(words: &mut Vocabulary) -> OnePageWords {
    words.resolve.clear();
    words.leadership.clear();
    words.leader_experience.clear();
    words.aptitude.clear();
    words.armour.clear();
    words.basic_weapons.clear();
    words.support_weapons.clear();
    words.heavy_weapons.clear();
    words.mobility.clear();
    words.traits.clear();
    words.personalities.clear();
    words
        .unit_kinds
        .retain(|k| [UnitKind::Squad.name(), UnitKind::Vehicle.name()].contains(&k.name));
    OnePageWords {
        training: Training::ALL
            .iter()
            .map(|t| TrainingWord {
                name: t.name(),
                rating: t.rating(),
                quality: t.quality().name(),
            })
            .collect(),
        armour: OnePageArmour::ALL
            .iter()
            .map(|a| ArmourWord {
                name: a.name(),
                ignores: a.ignores(),
            })
            .collect(),
        ranges: vec![
            RangeWord {
                name: "point_blank",
                from_cm: 0.0,
                to_cm: 0.0,
            },
            RangeWord {
                name: "short",
                from_cm: 0.0,
                to_cm: 10.0,
            },
            RangeWord {
                name: "medium",
                from_cm: 10.1,
                to_cm: 30.0,
            },
            RangeWord {
                name: "long",
                from_cm: 30.1,
                to_cm: 50.0,
            },
            RangeWord {
                name: "very_long",
                from_cm: 50.1,
                to_cm: 75.0,
            },
        ],
        max_bases: super::MAX_BASES,
        bases_per_vehicle: super::BASES_PER_VEHICLE,
    }
}
