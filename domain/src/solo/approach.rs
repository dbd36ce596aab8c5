//! What a group of an uncontrolled force does (docs/rules.md, anchors `solo-…`): its Approach
//! when it carries out its orders, and the two things a failed Discipline Test makes it do
//! instead, each as the rules text's words a player follows at the table.

use crate::named_enum;

named_enum! {
    /// A group's Approach, chosen before the game.
    pub enum Approach("approach") {
        /// Destroy or occupy a named objective.
        Target = "target",
        /// Find, engage and destroy enemy forces.
        Engage = "engage",
        /// Defend a named area.
        Hold = "hold",
        /// Retreat to the rallying point.
        FallBack = "fall_back" ["fall-back", "fallback"],
    }
}

/// One row of the Approach table: what a group carrying out its orders does, and where in the
/// rules reference that is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApproachRow {
    /// The Approach.
    pub approach: Approach,
    /// Its name as a person reads it.
    pub label: &'static str,
    /// What the group does, in the rules' words.
    pub orders: &'static str,
    /// The anchor in docs/rules.md.
    pub anchor: &'static str,
}

/// The Approach table.
pub const APPROACHES: [ApproachRow; 4] = [
    ApproachRow {
        approach: Approach::Target,
        label: "Target",
        orders: "Moves at combat speed toward its objective, attacking enemies between it and the objective or occupying it; others only if they fire at the group. With no such enemies it moves as fast as it can, keeping its units within 8\" of each other. It close assaults units on its objective, and enemies in between when its assault factor is at least equal.",
        anchor: "solo-target",
    },
    ApproachRow {
        approach: Approach::Engage,
        label: "Engage",
        orders: "Moves at combat speed, attacking enemies as they show themselves. With enemies in sight it moves only to improve its defensive position; with none, it advances at combat speed toward the centre of the enemy table edge or the nearest terrain feature to its front. It assaults only units whose assault factor is no higher than its own.",
        anchor: "solo-engage",
    },
    ApproachRow {
        approach: Approach::Hold,
        label: "Hold",
        orders: "Occupies its designated position and moves only to keep or retake it. It fires at enemies moving toward or attacking the position, and assaults only to retake the position if it is lost.",
        anchor: "solo-hold",
    },
    ApproachRow {
        approach: Approach::FallBack,
        label: "Fall Back",
        orders: "Moves at full speed toward its rallying point, as defensively as it can. Units fired upon slow to combat speed to return fire while moving. It does not assault unless its escape is cut off.",
        anchor: "solo-fall-back",
    },
];

/// The row of `approach`.
pub fn approach_row(approach: Approach) -> ApproachRow {
    APPROACHES
        .iter()
        .copied()
        .find(|r| r.approach == approach)
        .unwrap_or(APPROACHES[0])
}

/// What a group does when its test gives 1 pass.
pub const HOLD_POSITION_ORDERS: &str = "Its commander is unsure of the situation: the group holds its current position this turn. Units that can improve their defensive position in one move do so, seeking cover or moving out of line of sight.";
/// Anchor of [`HOLD_POSITION_ORDERS`].
pub const HOLD_POSITION_ANCHOR: &str = "solo-one-pass";

/// What a group does when its test gives 0 passes.
pub const FALL_BACK_ORDERS: &str = "Its commander judges the objective unsustainable: the group goes at full speed to the nearest defensible position and takes no further tests until it gets there.";
/// What a group still on its way does.
pub const FALLING_BACK_ORDERS: &str = "Still going at full speed to the nearest defensible position; no test this turn. Mark it as arrived when it gets there, and it tests again from that turn on.";
/// Anchor of [`FALL_BACK_ORDERS`] and [`FALLING_BACK_ORDERS`].
pub const FALL_BACK_ANCHOR: &str = "solo-no-pass";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;

    #[test]
    fn every_approach_has_one_row_with_its_own_words_and_anchor() {
        for approach in Approach::ALL {
            let rows: Vec<_> = APPROACHES
                .iter()
                .filter(|r| r.approach == *approach)
                .collect();
            assert_eq!(rows.len(), 1, "{approach}");
            assert_eq!(approach_row(*approach).approach, *approach);
        }
        assert!(approach_row(Approach::Target).orders.contains("objective"));
        assert!(
            approach_row(Approach::Engage)
                .orders
                .contains("enemy table edge")
        );
        assert!(
            approach_row(Approach::Hold)
                .orders
                .contains("retake the position")
        );
        assert!(
            approach_row(Approach::FallBack)
                .orders
                .contains("rallying point")
        );
        assert_eq!(approach_row(Approach::FallBack).anchor, "solo-fall-back");
        assert_eq!(approach_row(Approach::Target).label, "Target");
    }

    #[test]
    fn approaches_parse_by_their_names() {
        assert_eq!(Approach::parse("fall_back").unwrap(), Approach::FallBack);
        assert_eq!(Approach::parse("engage").unwrap(), Approach::Engage);
        assert!(Approach::parse("charge").is_err());
    }
}
