//! The FMA family's words in its vocabulary (`GET /api/v1/rulesets/gzg-fma-1999`): FAD 5e's
//! words narrowed to what a figure uses, plus its own Experience, Motivation, armour, toughness,
//! team roles and dice. Names and numbers only (M12).

use serde::Serialize;

use super::figure::{Die, Experience, FmaArmour, MOTIVATION_LEVELS, TeamRole, Toughness};
use crate::names::Named;
use crate::roster::UnitKind;
use crate::vocabulary::Vocabulary;

/// An Experience grade with its quality die and marker colour (M2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExperienceWord {
    /// The word (`fma.experience`).
    pub name: &'static str,
    /// Its quality die.
    pub quality_die: &'static str,
    /// Its marker colour.
    pub marker: &'static str,
}

/// A Motivation level (M3).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MotivationWord {
    /// The number requests send (`fma.motivation`).
    pub level: u8,
    /// Its name.
    pub name: &'static str,
}

/// An armour with its die (`null`: the fixed value 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FmaArmourWord {
    /// The word (`fma.armour`).
    pub name: &'static str,
    /// Its armour die; absent for the fixed 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die: Option<&'static str>,
}

/// The family's own words.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FmaWords {
    /// Experience grades, lowest first (`novice` is read as `untrained`).
    pub experience: Vec<ExperienceWord>,
    /// Motivation levels, best (1) first.
    pub motivation: Vec<MotivationWord>,
    /// Armour, lowest first.
    pub armour: Vec<FmaArmourWord>,
    /// Toughness, each a die type more than the one before (never past d12).
    pub toughness: Vec<&'static str>,
    /// Team roles.
    pub roles: Vec<&'static str>,
    /// Dice of weapon bands and impact, smallest first.
    pub dice: Vec<&'static str>,
}

/// Drops FAD 5e's words a figure never uses and returns the family's own.
pub fn narrow(words: &mut Vocabulary) -> FmaWords {
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
        .retain(|k| [UnitKind::Character.name(), UnitKind::Vehicle.name()].contains(&k.name));
    FmaWords {
        experience: Experience::ALL
            .iter()
            .map(|e| ExperienceWord {
                name: e.name(),
                quality_die: e.quality_die().name(),
                marker: e.marker_colour(),
            })
            .collect(),
        motivation: MOTIVATION_LEVELS
            .iter()
            .rev()
            .map(|(m, level)| MotivationWord {
                level: *level,
                name: m.name(),
            })
            .collect(),
        armour: FmaArmour::ALL
            .iter()
            .map(|a| FmaArmourWord {
                name: a.name(),
                die: a.die().map(Named::name),
            })
            .collect(),
        toughness: Toughness::ALL.iter().map(|t| t.name()).collect(),
        roles: TeamRole::ALL.iter().map(|r| r.name()).collect(),
        dice: Die::ALL.iter().map(|d| d.name()).collect(),
    }
}
