//! Force Priority points (docs/rules.md §4.2 and F9; S000 › ADVANCED FORCE GENERATION › PRIORITY
//! ASSIGNMENT): 9 points over six categories, each 0–3, giving the priority Low..Top and the
//! Quantity Test dice.

use serde::{Deserialize, Serialize};

use crate::named_enum;
use crate::names::Named;
use crate::roster::Problem;

/// Points a player allocates.
pub const PRIORITY_POINTS: u8 = 9;
/// The most points one category takes (F9).
pub const MAX_POINTS_PER_CATEGORY: u8 = 3;

named_enum! {
    /// A priority rating, from the points in its category.
    pub enum Priority("priority") {
        /// 0 points, 2D6 Quantity Test.
        Low = "low",
        /// 1 point, 3D6.
        Medium = "medium",
        /// 2 points, 4D6.
        High = "high",
        /// 3 points, 5D6.
        Top = "top",
    }
}

impl Priority {
    /// The priority of a category with `points` (clamped at Top).
    pub fn from_points(points: u8) -> Self {
        Self::ALL[usize::from(points.min(MAX_POINTS_PER_CATEGORY))]
    }
    /// Quantity Test dice: 2, 3, 4, 5.
    pub fn quantity_test_dice(self) -> usize {
        self.index() + 2
    }
    /// Position Low = 0 .. Top = 3, the column of the results tables.
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

named_enum! {
    /// A priority category.
    pub enum Category("category") {
        /// Squads per platoon and troopers per squad.
        Manpower = "manpower",
        /// Weapons.
        FirePower = "fire_power" ["firepower"],
        /// Armour and equipment.
        Gear = "gear",
        /// Heavy weapons and artillery.
        Support = "support",
        /// Quality, traits, personalities, leaders.
        Training = "training",
        /// Resolve and Hardened.
        Aggression = "aggression",
    }
}

/// A player's allocation of the Force Priority points (JSON: `{"manpower": 2, ...}`; absent
/// categories are 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Priorities {
    /// Manpower points.
    pub manpower: u8,
    /// Fire-power points.
    pub fire_power: u8,
    /// Gear points.
    pub gear: u8,
    /// Support points.
    pub support: u8,
    /// Training points.
    pub training: u8,
    /// Aggression points.
    pub aggression: u8,
}

impl Priorities {
    /// Points in `category`.
    pub fn points(&self, category: Category) -> u8 {
        match category {
            Category::Manpower => self.manpower,
            Category::FirePower => self.fire_power,
            Category::Gear => self.gear,
            Category::Support => self.support,
            Category::Training => self.training,
            Category::Aggression => self.aggression,
        }
    }
    /// Priority of `category`.
    pub fn priority(&self, category: Category) -> Priority {
        Priority::from_points(self.points(category))
    }
    /// Total points allocated.
    pub fn total(&self) -> u32 {
        Category::ALL
            .iter()
            .map(|c| u32::from(self.points(*c)))
            .sum()
    }
    /// F9: each category 0–3, total at most 9. Problems name `{path}.{category}` or `{path}`.
    pub fn validate(&self, path: &str) -> Vec<Problem> {
        let mut problems: Vec<Problem> = Category::ALL
            .iter()
            .filter(|c| self.points(**c) > MAX_POINTS_PER_CATEGORY)
            .map(|c| {
                Problem::new(
                    format!("{path}.{}", c.name()),
                    format!(
                        "a category takes 0 to {MAX_POINTS_PER_CATEGORY} priority points (F9), got {}",
                        self.points(*c)
                    ),
                )
            })
            .collect();
        if self.total() > u32::from(PRIORITY_POINTS) {
            problems.push(Problem::new(
                path,
                format!(
                    "{PRIORITY_POINTS} Force Priority points are allocated at most, got {}",
                    self.total()
                ),
            ));
        }
        problems
    }
}

/// Every valid allocation that spends exactly 9 points (F9 says there are 580).
pub fn exact_allocations() -> Vec<Priorities> {
    let mut out = Vec::new();
    let r = 0..=MAX_POINTS_PER_CATEGORY;
    for manpower in r.clone() {
        for fire_power in r.clone() {
            for gear in r.clone() {
                for support in r.clone() {
                    for training in r.clone() {
                        for aggression in r.clone() {
                            let p = Priorities {
                                manpower,
                                fire_power,
                                gear,
                                support,
                                training,
                                aggression,
                            };
                            if p.total() == u32::from(PRIORITY_POINTS) {
                                out.push(p);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f9_exactly_nine_allocations_number_580() {
        let all = exact_allocations();
        assert_eq!(all.len(), 580);
        assert!(all.iter().all(|p| p.validate("priorities").is_empty()));
    }

    #[test]
    fn priority_table_points_and_quantity_test_dice() {
        let got: Vec<_> = (0..=3)
            .map(|p| {
                let pr = Priority::from_points(p);
                (pr, pr.quantity_test_dice())
            })
            .collect();
        assert_eq!(
            got,
            [
                (Priority::Low, 2),
                (Priority::Medium, 3),
                (Priority::High, 4),
                (Priority::Top, 5)
            ]
        );
    }

    #[test]
    fn f9_ten_points_is_a_priorities_error() {
        let p = Priorities {
            manpower: 3,
            fire_power: 3,
            gear: 3,
            support: 1,
            ..Priorities::default()
        };
        let problems = p.validate("priorities");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "priorities");
    }

    #[test]
    fn f9_a_category_above_3_is_an_error_on_that_category() {
        let p = Priorities {
            training: 4,
            ..Priorities::default()
        };
        let problems = p.validate("priorities");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "priorities.training");
    }

    #[test]
    fn f9_fewer_than_nine_points_are_allowed() {
        let p = Priorities {
            gear: 2,
            ..Priorities::default()
        };
        assert!(p.validate("priorities").is_empty());
        let json: Priorities = serde_json::from_str(r#"{"fire_power": 3}"#).unwrap();
        assert_eq!(json.priority(Category::FirePower), Priority::Top);
        assert_eq!(json.priority(Category::Gear), Priority::Low);
    }
}
