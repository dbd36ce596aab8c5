//! The one-page skirmish unit model (`004_61880cd26310edbb.txt`, docs/rules.md §10): training on
//! four rungs, bases, armour that ignores hits, force projection in dice per base by range.
//!
//! A unit is stored as a FAD roster unit with a [`OnePageProfile`] (the projection, docs/rules.md
//! O1): `strength` and `starting_strength` count bases or vehicle models, `quality` holds the
//! training rung and `resolve` stays empty. So the campaign engine, roster history, results and
//! reverts run on it unchanged; the profile carries what FAD has no field for.

use serde::{Deserialize, Serialize};

use crate::ladder::{Ladder, Quality};
use crate::named_enum;

named_enum! {
    /// Training/Experience (004 l.17–21), lowest first.
    pub enum Training("training") {
        /// Rating 5.
        Green = "green",
        /// Rating 4.
        Seasoned = "seasoned",
        /// Rating 3.
        Veteran = "veteran",
        /// Rating 2.
        Elite = "elite",
    }
}
impl Ladder for Training {}

impl Training {
    /// The rating: activation and each firing die succeed at or above it (004 l.38, l.90).
    pub fn rating(self) -> u8 {
        match self {
            Self::Green => 5,
            Self::Seasoned => 4,
            Self::Veteran => 3,
            Self::Elite => 2,
        }
    }

    /// The FAD Quality rung the unit is stored on (O1: by rung, the same target numbers).
    pub fn quality(self) -> Quality {
        match self {
            Self::Green => Quality::Rabble,
            Self::Seasoned => Quality::Conscript,
            Self::Veteran => Quality::Regular,
            Self::Elite => Quality::Elite,
        }
    }

    /// The training a stored Quality rung stands for.
    pub fn of(quality: Quality) -> Self {
        match quality {
            Quality::Rabble => Self::Green,
            Quality::Conscript => Self::Seasoned,
            Quality::Regular => Self::Veteran,
            Quality::Elite => Self::Elite,
        }
    }
}

named_enum! {
    /// Armour: hits shrugged off per attack (004 l.106–112).
    pub enum OnePageArmour("one-page armour") {
        /// Ignores 0.
        None = "none",
        /// Ignores 1.
        Light = "light",
        /// Ignores 2.
        Medium = "medium",
        /// Ignores 3.
        Heavy = "heavy",
    }
}

impl OnePageArmour {
    /// Hits ignored per attack.
    pub fn ignores(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Light => 1,
            Self::Medium => 2,
            Self::Heavy => 3,
        }
    }
}

/// Dice per base (or vehicle model) at each range, and how many may fire at vehicles (004
/// l.59–86).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ForceProjection {
    /// Point Blank (close combat).
    pub point_blank: u8,
    /// Short, 0–10 cm.
    pub short: u8,
    /// Medium, 10.1–30 cm.
    pub medium: u8,
    /// Long, 30.1–50 cm.
    pub long: u8,
    /// Very Long, 50.1–75 cm.
    pub very_long: u8,
    /// Anti-tank dice: how many may be used against vehicles (`[AT1]`); 0 for none.
    #[serde(default)]
    pub at: u8,
}

impl ForceProjection {
    /// The five ranges, nearest first.
    pub fn dice(&self) -> [u8; 5] {
        [
            self.point_blank,
            self.short,
            self.medium,
            self.long,
            self.very_long,
        ]
    }

    /// As the text writes it: `1/3/2/2/0 [AT1]` (no brackets without anti-tank dice).
    pub fn summary(&self) -> String {
        let dice = self
            .dice()
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join("/");
        if self.at > 0 {
            format!("{dice} [AT{}]", self.at)
        } else {
            dice
        }
    }
}

/// What a one-page unit has beyond the FAD roster fields it is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct OnePageProfile {
    /// Armour (`none`, `light`, `medium`, `heavy`).
    pub armour: OnePageArmour,
    /// Dice per base by range.
    pub force_projection: ForceProjection,
    /// Infantry bases a vehicle unit carries (at most two per vehicle model, O9); 0 for
    /// infantry.
    #[serde(default)]
    pub carried_bases: u32,
}
