//! The ladders: Quality, Resolve, Leadership, squad-leader experience and aptitude (docs/rules.md
//! §1.1–§1.5; S000 › UNIT PROFILE, CHARACTERS, BUILDING BASIC FORCES › Option – Squad Leaders,
//! PSIONICS). A ladder is an ordered list; one level up or down is clamped at its ends.

use crate::named_enum;
use crate::names::Named;

/// An ordered, clamped ladder.
pub trait Ladder: Named + PartialEq {
    /// Position on the ladder, from 0 at the bottom.
    fn index(self) -> usize {
        Self::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }
    /// The value at `index`, clamped to the ladder.
    fn at(index: usize) -> Self {
        Self::ALL[index.min(Self::ALL.len() - 1)]
    }
    /// One level up, clamped at the top.
    #[must_use]
    fn up(self) -> Self {
        Self::at(self.index() + 1)
    }
    /// One level down, clamped at the bottom.
    #[must_use]
    fn down(self) -> Self {
        Self::at(self.index().saturating_sub(1))
    }
    /// Whether this is the top of the ladder.
    fn is_top(self) -> bool {
        self.index() + 1 == Self::ALL.len()
    }
    /// Whether this is the bottom of the ladder.
    fn is_bottom(self) -> bool {
        self.index() == 0
    }
}

named_enum! {
    /// Troop Quality (docs/rules.md §1.1).
    pub enum Quality("quality") {
        /// Little training, lacks experience.
        Rabble = "rabble",
        /// The "default" rating.
        Conscript = "conscript",
        /// Skilled and seasoned.
        Regular = "regular",
        /// Best of the best.
        Elite = "elite",
    }
}
impl Ladder for Quality {}

/// One row of the Quality table (docs/rules.md §1.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QualityRow {
    /// Quality Test target number (a die at or above it is a success).
    pub test_target: u8,
    /// Coherency distance in inches.
    pub coherency_inches: u8,
    /// Fire priority: choose among this many closest targets.
    pub fire_priority: u8,
    /// Base range in inches.
    pub base_range_inches: u8,
    /// Pinned if the Fire Effect exceeds this.
    pub pin_tolerance: u8,
    /// Shooter Fire Effect modifier.
    pub shooter_fire_effect: u8,
    /// Points factor (docs/rules.md §4.3).
    pub points_factor: f64,
}

/// The Quality table, indexed by [`Ladder::index`].
pub const QUALITY_TABLE: [QualityRow; 4] = [
    QualityRow {
        test_target: 5,
        coherency_inches: 2,
        fire_priority: 1,
        base_range_inches: 2,
        pin_tolerance: 10,
        shooter_fire_effect: 0,
        points_factor: 0.7,
    },
    QualityRow {
        test_target: 4,
        coherency_inches: 3,
        fire_priority: 2,
        base_range_inches: 3,
        pin_tolerance: 12,
        shooter_fire_effect: 0,
        points_factor: 1.0,
    },
    QualityRow {
        test_target: 3,
        coherency_inches: 4,
        fire_priority: 3,
        base_range_inches: 4,
        pin_tolerance: 14,
        shooter_fire_effect: 1,
        points_factor: 1.3,
    },
    QualityRow {
        test_target: 2,
        coherency_inches: 5,
        fire_priority: 4,
        base_range_inches: 5,
        pin_tolerance: 16,
        shooter_fire_effect: 2,
        points_factor: 1.6,
    },
];

impl Quality {
    /// This Quality's row of the table.
    pub fn row(self) -> QualityRow {
        QUALITY_TABLE[self.index()]
    }
}

named_enum! {
    /// Resolve (docs/rules.md §1.2).
    pub enum Resolve("resolve") {
        /// Likely to flee at the first opportunity.
        Reluctant = "reluctant",
        /// Hesitant, unlikely to fight to the end.
        Uncertain = "uncertain",
        /// A job to do, and we'll do it.
        Steady = "steady",
        /// Success of the mission is paramount.
        Determined = "determined",
    }
}
impl Ladder for Resolve {}

/// When a unit breaks (docs/rules.md §1.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BreakPoint {
    /// Broken at this many casualties.
    Casualties(u32),
    /// Broken when casualties reach this percentage of strength at battle start.
    Percent(u32),
}

/// One row of the Resolve table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResolveRow {
    /// When the unit is broken.
    pub break_point: BreakPoint,
    /// Added to the Quality points factor (docs/rules.md F11).
    pub points_adjustment: f64,
}

/// The Resolve table, indexed by [`Ladder::index`].
pub const RESOLVE_TABLE: [ResolveRow; 4] = [
    ResolveRow {
        break_point: BreakPoint::Casualties(1),
        points_adjustment: -0.5,
    },
    ResolveRow {
        break_point: BreakPoint::Percent(25),
        points_adjustment: -0.3,
    },
    ResolveRow {
        break_point: BreakPoint::Percent(50),
        points_adjustment: 0.0,
    },
    ResolveRow {
        break_point: BreakPoint::Percent(75),
        points_adjustment: 0.3,
    },
];

impl Resolve {
    /// This Resolve's row of the table.
    pub fn row(self) -> ResolveRow {
        RESOLVE_TABLE[self.index()]
    }
}

named_enum! {
    /// A character's Leadership (docs/rules.md §1.3).
    pub enum Leadership("leadership") {
        /// The default.
        Novice = "novice",
        /// +1.
        Experienced = "experienced",
        /// +2.
        Inspiring = "inspiring",
        /// +3.
        Heroic = "heroic",
    }
}
impl Ladder for Leadership {}

impl Leadership {
    /// The leadership value (re-rolls and same-branch modifier).
    pub fn value(self) -> u8 {
        [0, 1, 2, 3][self.index()]
    }
    /// Points added to the character's figure cost (docs/rules.md §1.3).
    pub fn points(self) -> f64 {
        [0.0, 5.0, 9.0, 15.0][self.index()]
    }
}

named_enum! {
    /// Squad-leader experience (docs/rules.md §1.4).
    pub enum LeaderExperience("leader_experience") {
        /// −1 to the squad's Morale Tests (docs/rules.md F3); the advanced-generation default.
        Inexperienced = "inexperienced",
        /// No effect.
        Experienced = "experienced",
        /// +1 to the squad's Morale Tests. A "good" squad leader is read as Veteran (F20).
        Veteran = "veteran" ["good"],
        /// The F.A.D. basic and advanced rules' lowest squad leader (their Table 20): no shift.
        /// Last in the list so FAD 5e's rungs keep their places; [`LeaderExperience::rank`]
        /// orders it below Experienced.
        Regular = "regular",
    }
}
impl Ladder for LeaderExperience {}

impl LeaderExperience {
    /// Basic force generation (1d6): 1–2 Inexperienced, 3–4 Experienced, 5–6 Veteran.
    pub fn from_basic_roll(d6: u8) -> Self {
        match d6 {
            0..=2 => Self::Inexperienced,
            3..=4 => Self::Experienced,
            _ => Self::Veteran,
        }
    }
    /// Morale-test modifier applied to each die (docs/rules.md F3); Regular, not a FAD 5e
    /// rung, has none.
    pub fn morale_modifier(self) -> i8 {
        [-1, 0, 1, 0][self.index()]
    }

    /// FAD 5e's rungs, lowest first (docs/rules.md §1.4).
    pub const FAD5E: [Self; 3] = [Self::Inexperienced, Self::Experienced, Self::Veteran];

    /// Position among the squad-leader rungs of any FAD ruleset: Inexperienced and Regular are
    /// each the bottom of their own ruleset's three.
    pub fn rank(self) -> usize {
        match self {
            Self::Inexperienced | Self::Regular => 0,
            Self::Experienced => 1,
            Self::Veteran => 2,
        }
    }

    /// One rung up (C19's purchase), `None` at Veteran, the top of every ruleset's ladder.
    pub fn raised(self) -> Option<Self> {
        match self {
            Self::Inexperienced | Self::Regular => Some(Self::Experienced),
            Self::Experienced => Some(Self::Veteran),
            Self::Veteran => None,
        }
    }
}

named_enum! {
    /// Skill and psionic aptitude (docs/rules.md §1.5).
    pub enum Aptitude("aptitude") {
        /// 5+.
        Marginal = "marginal",
        /// 4+.
        Competent = "competent",
        /// 3+.
        Expert = "expert",
        /// 2+.
        Master = "master",
    }
}
impl Ladder for Aptitude {}

impl Aptitude {
    /// Task target number.
    pub fn target(self) -> u8 {
        [5, 4, 3, 2][self.index()]
    }
    /// Psionic points (docs/rules.md §1.5).
    pub fn psionic_points(self) -> f64 {
        [0.0, 5.0, 10.0, 15.0][self.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn quality_table_rows_match_rules_1_1() {
        let targets: Vec<u8> = Quality::ALL.iter().map(|q| q.row().test_target).collect();
        assert_eq!(targets, [5, 4, 3, 2]);
        let factors: Vec<f64> = Quality::ALL.iter().map(|q| q.row().points_factor).collect();
        assert_eq!(factors, [0.7, 1.0, 1.3, 1.6]);
        assert_eq!(Quality::Rabble.row().coherency_inches, 2);
        assert_eq!(Quality::Elite.row().pin_tolerance, 16);
        assert_eq!(Quality::Regular.row().shooter_fire_effect, 1);
    }

    #[test]
    fn resolve_table_rows_match_rules_1_2() {
        assert_eq!(
            Resolve::Reluctant.row().break_point,
            BreakPoint::Casualties(1)
        );
        assert_eq!(
            Resolve::Uncertain.row().break_point,
            BreakPoint::Percent(25)
        );
        assert_eq!(Resolve::Steady.row().break_point, BreakPoint::Percent(50));
        assert_eq!(
            Resolve::Determined.row().break_point,
            BreakPoint::Percent(75)
        );
        let adj: Vec<f64> = Resolve::ALL
            .iter()
            .map(|r| r.row().points_adjustment)
            .collect();
        assert_eq!(adj, [-0.5, -0.3, 0.0, 0.3]);
    }

    #[test]
    fn leadership_and_aptitude_rows_match_rules_1_3_and_1_5() {
        assert_eq!(
            Leadership::ALL
                .iter()
                .map(|l| l.points())
                .collect::<Vec<_>>(),
            [0.0, 5.0, 9.0, 15.0]
        );
        assert_eq!(Leadership::Heroic.value(), 3);
        assert_eq!(
            Aptitude::ALL.iter().map(|a| a.target()).collect::<Vec<_>>(),
            [5, 4, 3, 2]
        );
        assert_eq!(Aptitude::Expert.psionic_points(), 10.0);
    }

    #[test]
    fn squad_leader_basic_roll_matches_rules_1_4_and_f3_f20() {
        let got: Vec<_> = (1..=6).map(LeaderExperience::from_basic_roll).collect();
        use LeaderExperience::*;
        assert_eq!(
            got,
            [
                Inexperienced,
                Inexperienced,
                Experienced,
                Experienced,
                Veteran,
                Veteran
            ]
        );
        assert_eq!(Inexperienced.morale_modifier(), -1);
        assert_eq!(Veteran.morale_modifier(), 1);
        assert_eq!(LeaderExperience::parse("good"), Ok(Veteran));
    }

    #[test]
    fn ladders_clamp_at_both_ends() {
        assert_eq!(Quality::Elite.up(), Quality::Elite);
        assert_eq!(Quality::Rabble.down(), Quality::Rabble);
        assert_eq!(Resolve::Determined.up(), Resolve::Determined);
        assert_eq!(Resolve::Reluctant.down(), Resolve::Reluctant);
        assert_eq!(Leadership::Heroic.up(), Leadership::Heroic);
        assert_eq!(Resolve::Steady.up(), Resolve::Determined);
    }

    proptest! {
        #[test]
        fn ladders_stay_in_range(start in 0usize..4, moves in prop::collection::vec(any::<bool>(), 0..20)) {
            let mut q = Quality::at(start);
            let mut r = Resolve::at(start);
            for up in moves {
                q = if up { q.up() } else { q.down() };
                r = if up { r.up() } else { r.down() };
                prop_assert!(q.index() < 4 && r.index() < 4);
            }
        }
    }
}
