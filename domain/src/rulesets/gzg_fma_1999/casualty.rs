//! The casualty examination that replaces FAD's replacement roll (M4; 003 l.1006–1016): one d6
//! for every figure that was down when the battle ended.

use serde::{Deserialize, Serialize};

use crate::campaign::tables::d6_row;
use crate::named_enum;

named_enum! {
    /// What the examination finds.
    pub enum Casualty("casualty") {
        /// Lightly hurt: back on the roster.
        Returns = "returns",
        /// Seriously wounded: out, and may be bought back for 1 CP (`return_lone_figure`).
        SeriouslyWounded = "seriously_wounded",
        /// Dead: gone for good, never bought back.
        Dead = "dead",
    }
}

/// The casualty table by d6 − 1 (M4: 1–2 returns, 3–4 seriously wounded, 5–6 dead).
pub const CASUALTY: [Casualty; 6] = [
    Casualty::Returns,
    Casualty::Returns,
    Casualty::SeriouslyWounded,
    Casualty::SeriouslyWounded,
    Casualty::Dead,
    Casualty::Dead,
];

/// The row a down figure's d6 lands on.
pub fn casualty(table: &[Casualty; 6], d6: u8) -> Casualty {
    d6_row(table, d6)
}

/// A down figure's fate after the examination, as the roster keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FigureFate {
    /// Active again.
    Active,
    /// Eliminated, may be returned for 1 CP.
    Returnable,
    /// Eliminated for good.
    Dead,
}

impl Casualty {
    /// What the roster does with the figure.
    pub fn fate(self) -> FigureFate {
        match self {
            Self::Returns => FigureFate::Active,
            Self::SeriouslyWounded => FigureFate::Returnable,
            Self::Dead => FigureFate::Dead,
        }
    }

    /// Whether `return_lone_figure` may bring the figure back (M4).
    pub fn may_be_returned(self) -> bool {
        self == Self::SeriouslyWounded
    }
}
