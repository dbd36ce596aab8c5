//! Step 4 – the table-edge roll: 1d6 + RP each, highest chooses, ties re-rolled (S6); a player
//! facing a non-player force that wins deploys on a random edge (S27) (docs/rules.md §3.4, §3.12;
//! S000 › SCENARIO GENERATION › Set up Terrain; UNCONTROLLED FORCES › SCENARIO GENERATION).

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollRequest, RollStep};
use crate::named_enum;

named_enum! {
    /// A table edge, for the random edge of S27 (the table is square).
    pub enum Edge("edge") {
        /// North.
        North = "north",
        /// East.
        East = "east",
        /// South.
        South = "south",
        /// West.
        West = "west",
    }
}

impl Edge {
    /// The edge of a 1d4 roll (1 north … 4 west).
    pub fn from_d4(roll: u8) -> Self {
        match roll {
            1 => Self::North,
            2 => Self::East,
            3 => Self::South,
            _ => Self::West,
        }
    }
    /// The opposite edge.
    pub fn opposite(self) -> Self {
        match self {
            Self::North => Self::South,
            Self::East => Self::West,
            Self::South => Self::North,
            Self::West => Self::East,
        }
    }
}

/// One side's deciding table-edge roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableEdgeRoll {
    /// The d6 of the deciding round.
    pub die: u8,
    /// The die plus the side's RP.
    pub total: u32,
    /// Rounds rolled (more than 1 after re-rolled ties).
    pub rounds: u32,
}

/// Which of two totals wins the edge roll: `Some(0)`, `Some(1)`, or `None` on a tie (re-roll, S6).
pub fn table_edge_winner(a: u32, b: u32) -> Option<usize> {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Rolls 1d6 + RP for both sides (force ids and RP given), re-rolling ties (S6). Returns the
/// winner's index and each side's deciding roll.
pub fn roll_table_edge(
    dice: &mut impl Dice,
    sides: [(&str, u32); 2],
) -> Result<(usize, [TableEdgeRoll; 2]), DiceError> {
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut rolls = [TableEdgeRoll {
            die: 0,
            total: 0,
            rounds,
        }; 2];
        for (i, (force, rp)) in sides.iter().enumerate() {
            let die = dice.d6(RollStep::TableEdge, force, Some(force))?;
            rolls[i] = TableEdgeRoll {
                die,
                total: u32::from(die) + rp,
                rounds,
            };
        }
        if let Some(w) = table_edge_winner(rolls[0].total, rolls[1].total) {
            return Ok((w, rolls));
        }
    }
}

/// S27: the edge a player facing a winning non-player force deploys on (1d4, logged as a
/// `table_edge` roll of the player's side with detail `random_edge`).
pub fn roll_random_edge(dice: &mut impl Dice, player_force: &str) -> Result<Edge, DiceError> {
    let values = dice.roll(
        RollRequest::d6(RollStep::TableEdge, player_force, 1)
            .for_force(player_force)
            .with_sides(4)
            .with_detail("random_edge"),
    )?;
    Ok(Edge::from_d4(values.first().copied().unwrap_or(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};

    fn entered(a: &[u8], b: &[u8]) -> TableDice {
        let mut e = EnteredDice::new();
        e.entry(RollStep::TableEdge)
            .or_default()
            .insert("a".into(), a.to_vec());
        e.entry(RollStep::TableEdge)
            .or_default()
            .insert("b".into(), b.to_vec());
        TableDice::new(&e, ServerDice::seeded(1)).unwrap()
    }

    #[test]
    fn highest_total_of_d6_plus_rp_chooses() {
        let mut dice = entered(&[2], &[5]);
        let (w, rolls) = roll_table_edge(&mut dice, [("a", 4), ("b", 0)]).unwrap();
        assert_eq!(w, 0);
        assert_eq!(rolls[0].total, 6);
        assert_eq!(rolls[1].total, 5);
    }

    #[test]
    fn s6_ties_are_re_rolled() {
        let mut dice = entered(&[3, 1], &[4, 6]);
        let (w, rolls) = roll_table_edge(&mut dice, [("a", 1), ("b", 0)]).unwrap();
        assert_eq!(w, 1);
        assert_eq!(rolls[1].die, 6);
        assert_eq!(rolls[0].rounds, 2);
        assert_eq!(dice.log().len(), 4);
    }

    #[test]
    fn s27_random_edge_is_a_d4_over_the_four_edges() {
        for (roll, edge) in [
            (1, Edge::North),
            (2, Edge::East),
            (3, Edge::South),
            (4, Edge::West),
        ] {
            assert_eq!(Edge::from_d4(roll), edge);
            assert_eq!(edge.opposite().opposite(), edge);
        }
        let mut dice = ServerDice::seeded(3);
        roll_random_edge(&mut dice, "p").unwrap();
        assert_eq!(dice.log()[0].dice, "1d4");
        assert_eq!(dice.log()[0].detail.as_deref(), Some("random_edge"));
    }
}
