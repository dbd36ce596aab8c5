//! Step 5 – Determine Missions: the MISSION TABLE, the "+1 to any two missions" bonuses (S8),
//! mission totals, ties (S9), Escalating Engagement (S10) and the MISSION DETAILS bonuses granted
//! at step 5 (S12) (docs/rules.md §3.5, §3.10; S000 › SCENARIO GENERATION › Determine Missions;
//! S000 › MISSION DETAILS).
//!
//! [`mission_modifier`] and [`MISSION_TABLE`] are public so that exact odds can be computed from
//! the same data the generator rolls against.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ladder::Leadership;
use crate::orders::{Attitude, Mission, Stance};
use crate::roster::Problem;
use crate::traits::Trait;

/// One row of the MISSION TABLE: the stance and attitude that modify the roll, and by how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissionRow {
    /// The mission.
    pub mission: Mission,
    /// The stance that adds to it, if any.
    pub stance: Option<(Stance, i32)>,
    /// The attitude that adds to it, if any.
    pub attitude: Option<(Attitude, i32)>,
}

/// The MISSION TABLE (docs/rules.md §3.5), in table order.
pub const MISSION_TABLE: [MissionRow; 8] = [
    MissionRow {
        mission: Mission::Assault,
        stance: Some((Stance::Offensive, 2)),
        attitude: Some((Attitude::Aggressive, 1)),
    },
    MissionRow {
        mission: Mission::Expand,
        stance: None,
        attitude: Some((Attitude::Cautious, 1)),
    },
    MissionRow {
        mission: Mission::Hold,
        stance: Some((Stance::Defensive, 2)),
        attitude: Some((Attitude::Passive, 2)),
    },
    MissionRow {
        mission: Mission::Infiltrate,
        stance: Some((Stance::Offensive, 1)),
        attitude: Some((Attitude::Cautious, 1)),
    },
    MissionRow {
        mission: Mission::Interfere,
        stance: Some((Stance::Defensive, 1)),
        attitude: Some((Attitude::Cautious, 1)),
    },
    MissionRow {
        mission: Mission::Patrol,
        stance: Some((Stance::Neutral, 2)),
        attitude: None,
    },
    MissionRow {
        mission: Mission::Strike,
        stance: None,
        attitude: Some((Attitude::Aggressive, 1)),
    },
    MissionRow {
        mission: Mission::Sweep,
        stance: Some((Stance::Offensive, 1)),
        attitude: Some((Attitude::Aggressive, 2)),
    },
];

/// The stance plus attitude modifier of `mission` (0 for Escalating Engagement, which is never
/// rolled).
pub fn mission_modifier(mission: Mission, stance: Stance, attitude: Attitude) -> i32 {
    MISSION_TABLE
        .iter()
        .find(|row| row.mission == mission)
        .map_or(0, |row| {
            let s = row
                .stance
                .filter(|(st, _)| *st == stance)
                .map_or(0, |x| x.1);
            let a = row
                .attitude
                .filter(|(at, _)| *at == attitude)
                .map_or(0, |x| x.1);
            s + a
        })
}

/// The player's optional "+1 to any two missions" (S8): at most two different rolled missions.
/// Returns the problems under `field` (e.g. `missions`).
pub fn check_mission_bonuses(missions: &[Mission], field: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    if missions.len() > 2 {
        problems.push(Problem::new(
            field,
            "at most two missions may get the +1 bonus (S8)",
        ));
    }
    for (i, m) in missions.iter().enumerate() {
        if !Mission::ROLLED.contains(m) {
            problems.push(Problem::new(
                format!("{field}[{i}]"),
                format!("`{m}` is not on the mission table"),
            ));
        }
        if missions[..i].contains(m) {
            problems.push(Problem::new(
                format!("{field}[{i}]"),
                format!("`{m}` is given twice; the two bonuses go to two different missions (S8)"),
            ));
        }
    }
    problems
}

/// Every mission's total: the d6 roll plus the table modifier plus 1 for each bonus (S8).
/// `rolls` holds one d6 per rolled mission; missing missions are left out.
pub fn mission_totals(
    rolls: &BTreeMap<Mission, u8>,
    stance: Stance,
    attitude: Attitude,
    bonuses: &[Mission],
) -> BTreeMap<Mission, i32> {
    rolls
        .iter()
        .map(|(m, roll)| {
            let bonus = i32::from(bonuses.contains(m));
            (
                *m,
                i32::from(*roll) + mission_modifier(*m, stance, attitude) + bonus,
            )
        })
        .collect()
}

/// The missions sharing the highest total, in table order. More than one means the player
/// chooses (S9).
pub fn top_missions(totals: &BTreeMap<Mission, i32>) -> Vec<Mission> {
    let Some(best) = totals.values().max().copied() else {
        return Vec::new();
    };
    Mission::ROLLED
        .iter()
        .copied()
        .filter(|m| totals.get(m) == Some(&best))
        .collect()
}

/// S10: the two assigned missions (after each player's tie choice). The same mission, Interfere
/// included, cancels both orders: both play Escalating Engagement.
pub fn resolve_missions(a: Mission, b: Mission) -> (Mission, Mission, bool) {
    if a == b {
        (
            Mission::EscalatingEngagement,
            Mission::EscalatingEngagement,
            true,
        )
    } else {
        (a, b, false)
    }
}

/// What a mission's bonus gives the force for this battle only (docs/rules.md §3.10, C21).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MissionBonus {
    /// Traits to give to one unit or split between two.
    pub traits: Vec<Trait>,
    /// Extra field defences in the deployment zone (Hold: 3, or one Light Bunker instead).
    pub field_defences: u32,
    /// Off-board medium cannon calls (Interfere: 1, S20).
    pub artillery_calls: u32,
    /// An extra sniper of Regular quality (Strike).
    pub sniper: bool,
}

/// One row of MISSION DETAILS (docs/rules.md §3.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissionDetail {
    /// The mission.
    pub mission: Mission,
    /// The objective, in short.
    pub objective: &'static str,
    /// The victory condition.
    pub victory: &'static str,
    /// Bonus traits.
    pub traits: &'static [Trait],
    /// Bonus field defences.
    pub field_defences: u32,
    /// Bonus artillery calls.
    pub artillery_calls: u32,
    /// Bonus Regular sniper.
    pub sniper: bool,
}

/// MISSION DETAILS (docs/rules.md §3.10), Escalating Engagement last.
pub const MISSION_DETAILS: [MissionDetail; 9] = [
    MissionDetail {
        mission: Mission::Assault,
        objective: "Storm an important enemy position and hold it; declare one far objective as the target.",
        victory: "Occupy the target and keep enemy forces from coming closer than 8\" for 2 consecutive turns.",
        traits: &[Trait::AssaultTroops, Trait::Hardened],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Expand,
        objective: "Take and hold both middle objectives.",
        victory: "Occupy the middle objectives and keep the enemy from coming closer than 8\" for 2 consecutive turns.",
        traits: &[Trait::Grizzled, Trait::Tough],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Hold,
        objective: "Protect the current position.",
        victory: "Keep the enemy from coming closer than 15\" to either near objective for 3 consecutive turns (S30).",
        traits: &[],
        field_defences: 3,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Infiltrate,
        objective: "Penetrate the enemy's defences.",
        victory: "Move one unbroken infantry squad per platoon off the enemy board edge.",
        traits: &[Trait::Infiltration, Trait::Stealth],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Interfere,
        objective: "Find out what the enemy is up to and spoil it.",
        victory: "Deny the enemy their victory.",
        traits: &[Trait::Recon],
        field_defences: 0,
        artillery_calls: 1,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Patrol,
        objective: "Gather intelligence.",
        victory: "Infantry contacts both middle objectives and either far objective.",
        traits: &[Trait::Agile, Trait::Elusive],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::Strike,
        objective: "Eliminate the enemy's top local command element.",
        victory: "Kill the opposing commander, the highest-ranking figure on the table (S23).",
        traits: &[],
        field_defences: 0,
        artillery_calls: 0,
        sniper: true,
    },
    MissionDetail {
        mission: Mission::Sweep,
        objective: "Sweep the area and engage any enemy.",
        victory: "Eliminate or rout half of the opposing units, rounded up.",
        traits: &[Trait::Brave, Trait::ShockTroops],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
    MissionDetail {
        mission: Mission::EscalatingEngagement,
        objective: "Recon forces have collided; commit the rest.",
        victory: "As for Sweep: eliminate or rout half of the opposing units, rounded up.",
        traits: &[Trait::Brave, Trait::ShockTroops],
        field_defences: 0,
        artillery_calls: 0,
        sniper: false,
    },
];

/// The MISSION DETAILS row of `mission`.
pub fn mission_detail(mission: Mission) -> &'static MissionDetail {
    MISSION_DETAILS
        .iter()
        .find(|d| d.mission == mission)
        .unwrap_or(&MISSION_DETAILS[8])
}

/// The bonus of `mission`, granted at step 5 (S12).
pub fn mission_bonus(mission: Mission) -> MissionBonus {
    let d = mission_detail(mission);
    MissionBonus {
        traits: d.traits.to_vec(),
        field_defences: d.field_defences,
        artillery_calls: d.artillery_calls,
        sniper: d.sniper,
    }
}

crate::named_enum! {
    /// S23: rank for Strike's "highest ranking figure", lowest first.
    pub enum CommandRank("command_rank") {
        /// A squad leader.
        SquadLeader = "squad_leader",
        /// Any other character.
        OtherCharacter = "other_character",
        /// A platoon leader.
        PlatoonLeader = "platoon_leader",
        /// The company commander.
        CompanyCommander = "company_commander",
    }
}

/// A figure the Strike mission could target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommandCandidate {
    /// Unit or figure id.
    pub id: String,
    /// Its rank.
    pub rank: CommandRank,
    /// Its Leadership, if a character.
    #[serde(default)]
    pub leadership: Option<Leadership>,
}

/// S23: the Strike target: highest rank, ties to the higher Leadership; a full tie goes to the
/// first listed (the owner designates at reveal).
pub fn strike_target(candidates: &[CommandCandidate]) -> Option<&CommandCandidate> {
    candidates.iter().reduce(|best, c| {
        if (c.rank, c.leadership) > (best.rank, best.leadership) {
            c
        } else {
            best
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;
    use Attitude::*;
    use Mission::*;
    use Stance::*;

    #[test]
    fn mission_table_rows_have_the_printed_modifiers() {
        // Every row, every stance and attitude: (mission, stance, attitude, modifier).
        let expected: [(Mission, [i32; 3], [i32; 3]); 8] = [
            (Assault, [2, 0, 0], [1, 0, 0]),
            (Expand, [0, 0, 0], [0, 1, 0]),
            (Hold, [0, 0, 2], [0, 0, 2]),
            (Infiltrate, [1, 0, 0], [0, 1, 0]),
            (Interfere, [0, 0, 1], [0, 1, 0]),
            (Patrol, [0, 2, 0], [0, 0, 0]),
            (Strike, [0, 0, 0], [1, 0, 0]),
            (Sweep, [1, 0, 0], [2, 0, 0]),
        ];
        for (m, s_mods, a_mods) in expected {
            for (si, s) in Stance::ALL.iter().enumerate() {
                for (ai, a) in Attitude::ALL.iter().enumerate() {
                    assert_eq!(
                        mission_modifier(m, *s, *a),
                        s_mods[si] + a_mods[ai],
                        "{m} {s} {a}"
                    );
                }
            }
        }
        assert_eq!(
            mission_modifier(EscalatingEngagement, Offensive, Aggressive),
            0
        );
    }

    #[test]
    fn s23_strike_targets_the_highest_rank_then_the_higher_leadership() {
        let c = |id: &str, rank, leadership| CommandCandidate {
            id: id.into(),
            rank,
            leadership,
        };
        let list = [
            c("sgt", CommandRank::SquadLeader, None),
            c("lt1", CommandRank::PlatoonLeader, Some(Leadership::Novice)),
            c(
                "lt2",
                CommandRank::PlatoonLeader,
                Some(Leadership::Inspiring),
            ),
            c(
                "hero",
                CommandRank::OtherCharacter,
                Some(Leadership::Heroic),
            ),
        ];
        assert_eq!(strike_target(&list).map(|c| c.id.as_str()), Some("lt2"));
        let mut with_captain = list.to_vec();
        with_captain.push(c(
            "cpt",
            CommandRank::CompanyCommander,
            Some(Leadership::Novice),
        ));
        assert_eq!(
            strike_target(&with_captain).map(|c| c.id.as_str()),
            Some("cpt")
        );
        assert_eq!(
            strike_target(&list[..1]).map(|c| c.id.as_str()),
            Some("sgt")
        );
        assert!(strike_target(&[]).is_none());
    }

    #[test]
    fn hold_gets_four_from_defensive_and_passive() {
        assert_eq!(mission_modifier(Hold, Defensive, Passive), 4);
        assert_eq!(mission_modifier(Sweep, Offensive, Aggressive), 3);
    }

    #[test]
    fn s8_two_different_rolled_missions_at_most() {
        assert!(check_mission_bonuses(&[], "missions").is_empty());
        assert!(check_mission_bonuses(&[Hold, Patrol], "missions").is_empty());
        let p = check_mission_bonuses(&[Hold, Hold], "missions");
        assert_eq!(p[0].field, "missions[1]");
        let p = check_mission_bonuses(&[Hold, EscalatingEngagement, Sweep], "missions");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].field, "missions");
        assert_eq!(p[1].field, "missions[1]");
    }

    #[test]
    fn s8_totals_add_roll_modifiers_and_bonuses() {
        let rolls: BTreeMap<_, _> = Mission::ROLLED.iter().map(|m| (*m, 3u8)).collect();
        let totals = mission_totals(&rolls, Defensive, Passive, &[Hold, Strike]);
        assert_eq!(totals[&Hold], 3 + 4 + 1);
        assert_eq!(totals[&Strike], 3 + 1);
        assert_eq!(totals[&Interfere], 3 + 1);
        assert_eq!(totals[&Sweep], 3);
        assert_eq!(top_missions(&totals), [Hold]);
    }

    #[test]
    fn s9_ties_list_every_top_mission_in_table_order() {
        let mut totals = BTreeMap::new();
        totals.insert(Sweep, 7);
        totals.insert(Assault, 7);
        totals.insert(Hold, 5);
        assert_eq!(top_missions(&totals), [Assault, Sweep]);
    }

    #[test]
    fn s10_the_same_mission_is_escalating_engagement_for_both() {
        assert_eq!(
            resolve_missions(Interfere, Interfere),
            (EscalatingEngagement, EscalatingEngagement, true)
        );
        assert_eq!(resolve_missions(Hold, Sweep), (Hold, Sweep, false));
    }

    #[test]
    fn mission_details_bonuses_match_every_row() {
        let b = |m| mission_bonus(m);
        assert_eq!(b(Assault).traits, [Trait::AssaultTroops, Trait::Hardened]);
        assert_eq!(b(Expand).traits, [Trait::Grizzled, Trait::Tough]);
        assert_eq!(b(Hold).field_defences, 3);
        assert!(b(Hold).traits.is_empty());
        assert_eq!(b(Infiltrate).traits, [Trait::Infiltration, Trait::Stealth]);
        assert_eq!(b(Interfere).traits, [Trait::Recon]);
        assert_eq!(b(Interfere).artillery_calls, 1);
        assert_eq!(b(Patrol).traits, [Trait::Agile, Trait::Elusive]);
        assert!(b(Strike).sniper);
        assert_eq!(b(Sweep).traits, [Trait::Brave, Trait::ShockTroops]);
        assert_eq!(b(EscalatingEngagement), b(Sweep));
        for d in MISSION_DETAILS {
            assert!(!d.objective.is_empty() && !d.victory.is_empty());
        }
    }
}
