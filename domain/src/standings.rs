//! The campaign standings (docs/rules.md C20: a battle's outcome is recorded, with no mechanical
//! effect): each force's record of complete battles, and the order of the table.

use std::cmp::Reverse;

/// How one complete battle ended for one force that fought in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The force won.
    Win,
    /// The battle was drawn.
    Draw,
    /// Anyone else won (another force or the non-player side).
    Loss,
}

impl Outcome {
    /// The outcome for `force_id` of a battle that was `drawn` or won by `winner_force_id`.
    pub fn for_force(force_id: &str, drawn: bool, winner_force_id: Option<&str>) -> Self {
        if drawn {
            Self::Draw
        } else if winner_force_id == Some(force_id) {
            Self::Win
        } else {
            Self::Loss
        }
    }
}

/// A force's battles, wins, draws and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    /// Battles fought.
    pub battles: i64,
    /// Battles won.
    pub wins: i64,
    /// Battles drawn.
    pub draws: i64,
    /// Battles lost.
    pub losses: i64,
}

impl Record {
    /// Counts one more battle.
    pub fn add(&mut self, outcome: Outcome) {
        self.battles += 1;
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }
}

/// What places a force in the table: wins, campaign points, losses, name, force id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing<'a> {
    /// Battles won.
    pub wins: i64,
    /// Campaign points earned.
    pub campaign_points: i64,
    /// Battles lost.
    pub losses: i64,
    /// The force's name.
    pub name: &'a str,
    /// The force id (last, so that no two forces tie and a page boundary is exact).
    pub force_id: &'a str,
}

/// The sort key of the table: most wins, then most campaign points, then fewest losses, then
/// name, then force id. Smaller keys come first.
pub type Place<'a> = (Reverse<i64>, Reverse<i64>, i64, &'a str, &'a str);

impl<'a> Standing<'a> {
    /// This force's place key.
    pub fn place(&self) -> Place<'a> {
        (
            Reverse(self.wins),
            Reverse(self.campaign_points),
            self.losses,
            self.name,
            self.force_id,
        )
    }
}

/// The rank shown beside each line of a table already in order: forces level on wins, campaign
/// points and losses share a rank, and the next line skips the shared places ("1, 2, 2, 4"):
/// name and id only order the lines, they do not rank them.
pub fn positions<T>(sorted: &[T], standing: impl Fn(&T) -> Standing<'_>) -> Vec<i64> {
    let mut ranks: Vec<i64> = Vec::with_capacity(sorted.len());
    for (i, item) in sorted.iter().enumerate() {
        let here = standing(item);
        let level = |prev: &T| {
            let p = standing(prev);
            (p.wins, p.campaign_points, p.losses) == (here.wins, here.campaign_points, here.losses)
        };
        let rank = match (i.checked_sub(1), ranks.last()) {
            (Some(prev), Some(&prev_rank)) if level(&sorted[prev]) => prev_rank,
            _ => i64::try_from(i).unwrap_or(i64::MAX).saturating_add(1),
        };
        ranks.push(rank);
    }
    ranks
}

/// Sorts `items` into the table's order, reading each one's [`Standing`] with `standing`.
pub fn rank<T>(items: &mut [T], standing: impl Fn(&T) -> Standing<'_>) {
    items.sort_by(|a, b| standing(a).place().cmp(&standing(b).place()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, wins: i64, campaign_points: i64, losses: i64) -> (String, i64, i64, i64) {
        (name.to_owned(), wins, campaign_points, losses)
    }

    fn standing(l: &(String, i64, i64, i64)) -> Standing<'_> {
        Standing {
            wins: l.1,
            campaign_points: l.2,
            losses: l.3,
            name: &l.0,
            force_id: &l.0,
        }
    }

    #[test]
    fn the_table_ranks_by_wins_then_points_then_losses_then_name() {
        let mut lines = vec![
            line("d", 1, 5, 0),
            line("c", 1, 5, 2),
            line("b", 1, 9, 0),
            line("a", 2, 0, 3),
            line("e", 1, 5, 0),
        ];
        rank(&mut lines, standing);
        let names: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(names, ["a", "b", "d", "e", "c"]);
    }

    #[test]
    fn level_forces_share_a_rank_and_the_next_skips_the_shared_places() {
        let mut lines = vec![
            line("d", 1, 5, 0),
            line("c", 1, 5, 2),
            line("b", 1, 9, 0),
            line("a", 2, 0, 3),
            line("e", 1, 5, 0),
        ];
        rank(&mut lines, standing);
        // a (2 wins), b (9 points), d and e level, c (more losses).
        assert_eq!(positions(&lines, standing), [1, 2, 3, 3, 5]);
        assert!(positions(&Vec::<(String, i64, i64, i64)>::new(), standing).is_empty());
    }

    #[test]
    fn a_draw_is_a_draw_whoever_is_named_and_anyone_else_winning_is_a_loss() {
        assert_eq!(Outcome::for_force("f", true, Some("f")), Outcome::Draw);
        assert_eq!(Outcome::for_force("f", false, Some("f")), Outcome::Win);
        assert_eq!(Outcome::for_force("f", false, Some("g")), Outcome::Loss);
        assert_eq!(Outcome::for_force("f", false, None), Outcome::Loss);
        let mut record = Record::default();
        for outcome in [Outcome::Win, Outcome::Draw, Outcome::Loss, Outcome::Win] {
            record.add(outcome);
        }
        assert_eq!(
            record,
            Record {
                battles: 4,
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
    }
}
