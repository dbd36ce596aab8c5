//! Step 4 – the six objective markers: one per player in each third of the table, the edge
//! winner placing first and the players alternating (S7); after step 5 each objective says which
//! mission needs it (docs/rules.md §3.4, §3.10, S7, S30; S000 › SCENARIO GENERATION › Set up Terrain;
//! MISSION DETAILS).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::named_enum;
use crate::orders::Mission;

named_enum! {
    /// A third of the table depth, seen from one player's edge (S7: equal thirds).
    pub enum Sector("sector") {
        /// The third at the player's own edge.
        Near = "near",
        /// The middle third.
        Middle = "middle",
        /// The third at the opponent's edge.
        Far = "far",
    }
}

impl Sector {
    /// The same third seen from the opposite edge.
    pub fn mirrored(self) -> Self {
        match self {
            Self::Near => Self::Far,
            Self::Middle => Self::Middle,
            Self::Far => Self::Near,
        }
    }
}

/// One objective marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Objective {
    /// `o1` … `o6`, in placement order.
    pub id: String,
    /// The force that places it.
    pub placed_by: String,
    /// Its third as each force sees it (force id → sector).
    pub sector: BTreeMap<String, Sector>,
    /// The forces whose (visible) mission needs it; filled after step 5.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needed_by: Vec<String>,
}

/// The sectors of its own objectives a mission needs, seen from the mission's owner (§3.10):
/// Assault one far (declared), Expand both middle, Hold both near (S30), Patrol both middle and
/// either far; the rest none.
pub fn sectors_needed(mission: Mission) -> &'static [Sector] {
    match mission {
        Mission::Assault => &[Sector::Far],
        Mission::Expand => &[Sector::Middle],
        Mission::Hold => &[Sector::Near],
        Mission::Patrol => &[Sector::Middle, Sector::Far],
        _ => &[],
    }
}

/// The six objectives: the edge chooser places first in each round, near, middle, then far
/// (each player places one anywhere in each third, S7).
pub fn place_objectives(chooser: &str, other: &str) -> Vec<Objective> {
    let mut out = Vec::with_capacity(6);
    for sector in [Sector::Near, Sector::Middle, Sector::Far] {
        for (placer, opponent) in [(chooser, other), (other, chooser)] {
            let mut map = BTreeMap::new();
            map.insert(placer.to_owned(), sector);
            map.insert(opponent.to_owned(), sector.mirrored());
            out.push(Objective {
                id: format!("o{}", out.len() + 1),
                placed_by: placer.to_owned(),
                sector: map,
                needed_by: Vec::new(),
            });
        }
    }
    out
}

/// Marks which objectives `force`'s `mission` needs.
pub fn mark_needed(objectives: &mut [Objective], force: &str, mission: Mission) {
    let wanted = sectors_needed(mission);
    for o in objectives.iter_mut() {
        if o.sector.get(force).is_some_and(|s| wanted.contains(s))
            && !o.needed_by.iter().any(|f| f == force)
        {
            o.needed_by.push(force.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s7_each_player_sees_two_near_two_middle_two_far() {
        let objs = place_objectives("a", "b");
        assert_eq!(objs.len(), 6);
        for force in ["a", "b"] {
            for sector in [Sector::Near, Sector::Middle, Sector::Far] {
                let n = objs.iter().filter(|o| o.sector[force] == sector).count();
                assert_eq!(n, 2, "{force} {sector}");
            }
        }
        // The edge winner places first and the players alternate.
        let placers: Vec<_> = objs.iter().map(|o| o.placed_by.as_str()).collect();
        assert_eq!(placers, ["a", "b", "a", "b", "a", "b"]);
    }

    #[test]
    fn s30_hold_needs_both_own_near_objectives() {
        let mut objs = place_objectives("a", "b");
        mark_needed(&mut objs, "a", Mission::Hold);
        let needed: Vec<_> = objs.iter().filter(|o| !o.needed_by.is_empty()).collect();
        assert_eq!(needed.len(), 2);
        assert!(needed.iter().all(|o| o.sector["a"] == Sector::Near));
    }

    #[test]
    fn mission_objective_needs() {
        assert_eq!(sectors_needed(Mission::Expand), [Sector::Middle]);
        assert_eq!(
            sectors_needed(Mission::Patrol),
            [Sector::Middle, Sector::Far]
        );
        assert_eq!(sectors_needed(Mission::Assault), [Sector::Far]);
        for m in [
            Mission::Infiltrate,
            Mission::Interfere,
            Mission::Strike,
            Mission::Sweep,
            Mission::EscalatingEngagement,
        ] {
            assert!(sectors_needed(m).is_empty());
        }
    }
}
