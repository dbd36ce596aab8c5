//! The FMA figure (`003_1ae2e150fc991b15.txt`, docs/rules.md §11): one character with an
//! Experience grade whose quality die follows it, a Motivation level, an optional team role, an
//! armour value and weapons with three range bands.
//!
//! A figure is stored as a FAD roster unit of one (`character`, E = 1) carrying an
//! [`FmaProfile`] (M1). The profile is the figure's truth; [`FmaProfile::sync_fad_fields`] copies
//! its grade and Motivation onto the FAD `quality` and `resolve` fields so generic code (history,
//! roster lock, standings) reads a sensible rung.

use serde::{Deserialize, Serialize};

use crate::ladder::{Ladder, Quality, Resolve};
use crate::named_enum;
use crate::roster::Unit;

named_enum! {
    /// A die size, smallest first (the text's dice run d4 to d12).
    pub enum Die("die") {
        /// Four sides.
        D4 = "d4",
        /// Six sides.
        D6 = "d6",
        /// Eight sides.
        D8 = "d8",
        /// Ten sides.
        D10 = "d10",
        /// Twelve sides.
        D12 = "d12",
    }
}
impl Ladder for Die {}

impl Die {
    /// Its number of sides.
    pub fn sides(self) -> u8 {
        match self {
            Self::D4 => 4,
            Self::D6 => 6,
            Self::D8 => 8,
            Self::D10 => 10,
            Self::D12 => 12,
        }
    }

    /// `steps` sizes larger, never past d12.
    #[must_use]
    pub fn raised(self, steps: usize) -> Self {
        Self::at(self.index() + steps)
    }
}

named_enum! {
    /// Experience, lowest first (M2; 003 l.251–254, l.587).
    pub enum Experience("experience") {
        /// Quality die d4, yellow marker.
        Untrained = "untrained" ["novice"],
        /// Quality die d6, green marker.
        Green = "green",
        /// Quality die d8, blue marker.
        Regular = "regular",
        /// Quality die d10, orange marker.
        Veteran = "veteran",
        /// Quality die d12, red marker; never bought (M8).
        Elite = "elite",
    }
}
impl Ladder for Experience {}

/// Each grade's quality die and marker colour, lowest first (003 l.277–338, l.587–593).
pub const EXPERIENCE_TABLE: [(Experience, Die, &str); 5] = [
    (Experience::Untrained, Die::D4, "yellow"),
    (Experience::Green, Die::D6, "green"),
    (Experience::Regular, Die::D8, "blue"),
    (Experience::Veteran, Die::D10, "orange"),
    (Experience::Elite, Die::D12, "red"),
];

impl Experience {
    /// The quality die: it follows the grade and is never stored apart (M2).
    pub fn quality_die(self) -> Die {
        EXPERIENCE_TABLE[self.index()].1
    }

    /// The colour of the grade's activation marker.
    pub fn marker_colour(self) -> &'static str {
        EXPERIENCE_TABLE[self.index()].2
    }

    /// The FAD Quality rung the figure's FAD fields carry: by name at both ends, Regular and
    /// Veteran both on Regular (docs/rules.md §11; the grade itself is in the profile).
    pub fn fad_quality(self) -> Quality {
        match self {
            Self::Untrained => Quality::Rabble,
            Self::Green => Quality::Conscript,
            Self::Regular | Self::Veteran => Quality::Regular,
            Self::Elite => Quality::Elite,
        }
    }
}

named_enum! {
    /// Motivation, worst first (M3; the marker's number, lower is better, 003 l.595–599).
    pub enum Motivation("motivation") {
        /// Level 3.
        Low = "low",
        /// Level 2.
        Average = "average",
        /// Level 1.
        High = "high",
    }
}
impl Ladder for Motivation {}

/// Each Motivation's level (the marker's number), worst first.
pub const MOTIVATION_LEVELS: [(Motivation, u8); 3] = [
    (Motivation::Low, 3),
    (Motivation::Average, 2),
    (Motivation::High, 1),
];

impl Motivation {
    /// The marker's number: 1 high, 2 average, 3 low.
    pub fn level(self) -> u8 {
        MOTIVATION_LEVELS[self.index()].1
    }

    /// The Motivation of a marker number, if it is one (M3: 1 to 3).
    pub fn of_level(level: u8) -> Option<Self> {
        MOTIVATION_LEVELS
            .iter()
            .find(|(_, l)| *l == level)
            .map(|(m, _)| *m)
    }

    /// The FAD Resolve rung the figure's FAD fields carry (docs/rules.md §11: 3 Uncertain, 2 Steady,
    /// 1 Determined; FAD's Reluctant has no FMA level).
    pub fn fad_resolve(self) -> Resolve {
        match self {
            Self::Low => Resolve::Uncertain,
            Self::Average => Resolve::Steady,
            Self::High => Resolve::Determined,
        }
    }
}

named_enum! {
    /// A figure's place in its team (003 l.362–368).
    pub enum TeamRole("team role") {
        /// The team leader: its Motivation is the team's Leadership (M3).
        Leader = "leader",
        /// The second-in-command.
        Second = "second",
    }
}

named_enum! {
    /// Armour: a fixed 1 for non-combatants or an armour die by protection (003 l.850–869).
    pub enum FmaArmour("fma armour") {
        /// Fixed value 1.
        NonCombatant = "non_combatant",
        /// d4.
        None = "none",
        /// d6.
        Light = "light",
        /// d8.
        Medium = "medium",
        /// d10.
        Heavy = "heavy",
        /// d12.
        VeryHeavy = "very_heavy",
    }
}

impl FmaArmour {
    /// The armour die, `None` for the fixed value 1.
    pub fn die(self) -> Option<Die> {
        match self {
            Self::NonCombatant => Option::None,
            Self::None => Some(Die::D4),
            Self::Light => Some(Die::D6),
            Self::Medium => Some(Die::D8),
            Self::Heavy => Some(Die::D10),
            Self::VeryHeavy => Some(Die::D12),
        }
    }
}

named_enum! {
    /// Heroic toughness: armour die types added, never past d12 (003 l.871–886, M8 `heroic`).
    pub enum Toughness("toughness") {
        /// No increase.
        Normal = "normal",
        /// One die type.
        Tough = "tough",
        /// Two die types.
        VeryTough = "very_tough",
        /// Three die types.
        IncrediblyTough = "incredibly_tough",
    }
}
impl Ladder for Toughness {}

/// A figure's armour as it plays: the fixed 1 or a die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmourValue {
    /// Fixed 1 (non-combatants).
    Fixed,
    /// An armour die.
    Die(Die),
}

impl std::fmt::Display for ArmourValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Fixed => f.write_str("1"),
            Self::Die(d) => write!(f, "{d}"),
        }
    }
}

/// The armour a figure plays with: its armour die raised by its toughness, never above d12; a
/// non-combatant's fixed 1 is not a die and stays 1 (toughness is refused there, M2).
pub fn armour_value(armour: FmaArmour, toughness: Toughness) -> ArmourValue {
    match armour.die() {
        Some(die) => ArmourValue::Die(die.raised(toughness.index())),
        Option::None => ArmourValue::Fixed,
    }
}

/// One range band: its reach in inches and its firepower die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    /// Reach in inches.
    pub inches: u32,
    /// Firepower die.
    pub firepower: Die,
}

/// A weapon: three range bands and an impact die, times a multiplier (003 l.425–429, l.826–848).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FmaWeapon {
    /// Its name, as the club calls it.
    pub name: String,
    /// Close, medium and long, nearest first.
    pub bands: [RangeBand; 3],
    /// Impact die.
    pub impact: Die,
    /// Impact multiplier (`x2` on the heaviest weapons); 1 for none.
    #[serde(default = "one")]
    pub impact_multiplier: u8,
}

fn one() -> u8 {
    1
}

fn normal() -> Toughness {
    Toughness::Normal
}

impl FmaWeapon {
    /// As a card prints it: `Assault rifle 12/24/36 d10/d8/d6, impact d10`.
    pub fn summary(&self) -> String {
        let reach: Vec<String> = self.bands.iter().map(|b| b.inches.to_string()).collect();
        let dice: Vec<String> = self.bands.iter().map(|b| b.firepower.to_string()).collect();
        let times = if self.impact_multiplier > 1 {
            format!("x{}", self.impact_multiplier)
        } else {
            String::new()
        };
        format!(
            "{} {} {}, impact {}{times}",
            self.name,
            reach.join("/"),
            dice.join("/"),
            self.impact
        )
    }
}

/// What an FMA figure has beyond the FAD roster fields it is stored in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FmaProfile {
    /// Experience (`untrained`, alias `novice`, to `elite`).
    pub experience: Experience,
    /// Motivation level: 1 high, 2 average, 3 low (M3 refuses anything else).
    pub motivation: u8,
    /// Leader or second-in-command of its team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<TeamRole>,
    /// Armour.
    pub armour: FmaArmour,
    /// Heroic toughness (default `normal`).
    #[serde(default = "normal")]
    pub toughness: Toughness,
    /// Weapons carried.
    #[serde(default)]
    pub weapons: Vec<FmaWeapon>,
    /// The casualty roll found him dead (5–6, M4): never bought back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dead: bool,
    /// A new figure has taken this dead figure's place in his team (M7), so the team's
    /// starting size no longer counts him as missing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replaced: bool,
}

impl FmaProfile {
    /// The quality die its grade gives (M2).
    pub fn quality_die(&self) -> Die {
        self.experience.quality_die()
    }

    /// Its Motivation, if the level is one (M3).
    pub fn motivation(&self) -> Option<Motivation> {
        Motivation::of_level(self.motivation)
    }

    /// The armour it plays with.
    pub fn armour_value(&self) -> ArmourValue {
        armour_value(self.armour, self.toughness)
    }

    /// The marker as the text writes it: `VET 2`, `GRN 1`.
    pub fn marker(&self) -> String {
        let short = match self.experience {
            Experience::Untrained => "UNT",
            Experience::Green => "GRN",
            Experience::Regular => "REG",
            Experience::Veteran => "VET",
            Experience::Elite => "ELI",
        };
        format!("{short} {}", self.motivation)
    }

    /// Copies the grade and Motivation onto `unit`'s FAD `quality` and `resolve` (the profile
    /// stays the truth; an invalid Motivation leaves `resolve` as it is).
    pub fn sync_fad_fields(&self, unit: &mut Unit) {
        unit.quality = self.experience.fad_quality();
        if let Some(m) = self.motivation() {
            unit.resolve = Some(m.fad_resolve());
        }
    }
}
