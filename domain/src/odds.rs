//! Exact mission odds: for one side's stance, attitude and mission bonuses, the probability that
//! each of the eight missions is assigned at step 5, and that the side's top total is tied.
//!
//! Implements docs/rules.md §3.5 (MISSION TABLE), S8 (two different +1 bonuses, none for a non-player
//! force) and S9 (the player chooses among tied missions; for probability we model the choice as
//! uniform, so a k-way tie gives each tied mission 1/k of that outcome). Seed: `S000 › SCENARIO
//! GENERATION › Determine Missions`.
//!
//! Every one of the 6^8 dice outcomes is enumerated, so the answer is exact: each probability is
//! a numerator over the common denominator 6^8 × 840 (840 = lcm(1..=8) makes every tie share an
//! integer). The enumeration carries the running top total and the set of missions at it down
//! the dice and allocates nothing; the last die's six faces are counted in one step. The
//! modifiers come from the scenario generator's own MISSION TABLE
//! ([`crate::scenario::missions::mission_modifier`]), so the odds and the rolls share one table.

use serde::{Deserialize, Serialize};

use crate::names::Named;
use crate::orders::{Attitude, Mission, Stance};
use crate::scenario::missions::mission_modifier;

/// Dice outcomes for one side: 6^8, one d6 per rolled mission.
pub const DICE_OUTCOMES: u64 = 1_679_616;

/// Shares each outcome is split into: lcm(1..=8), so a k-way tie gives each mission 840/k.
pub const TIE_SHARES: u64 = 840;

/// The common denominator of every numerator in [`MissionOdds`]: 6^8 × 840.
pub const DENOMINATOR: u64 = DICE_OUTCOMES * TIE_SHARES;

/// Why a pair of mission bonuses is refused (S8).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BonusError {
    /// Both bonuses on one mission.
    #[error("the two +1 bonuses must go to two different missions, not {0} twice (S8)")]
    SameMission(Mission),
    /// A mission that is never rolled.
    #[error("{0} is not on the mission table and cannot take a bonus; pick a rolled mission (S8)")]
    NotRolled(Mission),
    /// Not exactly two missions.
    #[error("name exactly two missions for the +1 bonuses, not {0} (S8)")]
    WrongCount(usize),
}

/// The optional "+1 to any two missions" (S8): two different rolled missions, +1 each.
///
/// In JSON it is an array of two mission names, `["assault", "sweep"]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(try_from = "Vec<Mission>", into = "Vec<Mission>")]
pub struct MissionBonuses([Mission; 2]);

impl MissionBonuses {
    /// Checks the pair: two different missions from the mission table. Stored in table order.
    pub fn new(a: Mission, b: Mission) -> Result<Self, BonusError> {
        for m in [a, b] {
            if !Mission::ROLLED.contains(&m) {
                return Err(BonusError::NotRolled(m));
            }
        }
        if a == b {
            return Err(BonusError::SameMission(a));
        }
        Ok(Self(if a < b { [a, b] } else { [b, a] }))
    }
    /// From a side's bonus list as the scenario requests carry it: none, or two different
    /// missions (S8).
    pub fn from_slice(missions: &[Mission]) -> Result<Option<Self>, BonusError> {
        match missions {
            [] => Ok(None),
            [a, b] => Self::new(*a, *b).map(Some),
            other => Err(BonusError::WrongCount(other.len())),
        }
    }
    /// The two missions, in table order.
    pub fn missions(self) -> [Mission; 2] {
        self.0
    }
    /// Whether `mission` takes a +1.
    pub fn contains(self, mission: Mission) -> bool {
        self.0.contains(&mission)
    }
    /// Every allowed pair, C(8,2) = 28, in table order.
    pub fn all() -> impl Iterator<Item = Self> {
        Mission::ROLLED
            .iter()
            .enumerate()
            .flat_map(|(i, a)| Mission::ROLLED[i + 1..].iter().map(move |b| Self([*a, *b])))
    }
}

impl TryFrom<Vec<Mission>> for MissionBonuses {
    type Error = BonusError;
    fn try_from(value: Vec<Mission>) -> Result<Self, Self::Error> {
        // In JSON "no bonuses" is `null` or absent, so an empty list is refused here.
        Self::from_slice(&value)?.ok_or(BonusError::WrongCount(0))
    }
}

impl From<MissionBonuses> for Vec<Mission> {
    fn from(value: MissionBonuses) -> Self {
        value.0.to_vec()
    }
}

/// One side's inputs to step 5: stance, attitude and the optional bonuses (none for an NP force).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OddsQuery {
    /// The side's stance.
    pub stance: Stance,
    /// The side's attitude.
    pub attitude: Attitude,
    /// The two +1 bonuses, or `None` (always `None` for a non-player force, docs/rules.md §3.12).
    /// JSON: absent, `null` or `[]` for none.
    #[serde(default, deserialize_with = "bonuses_or_none")]
    pub bonuses: Option<MissionBonuses>,
}

/// Reads `null`, `[]` or two different missions.
fn bonuses_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<MissionBonuses>, D::Error> {
    let list = Option::<Vec<Mission>>::deserialize(d)?.unwrap_or_default();
    MissionBonuses::from_slice(&list).map_err(serde::de::Error::custom)
}

impl OddsQuery {
    /// Every distinct query: 3 stances × 3 attitudes × (no bonus + 28 pairs) = 261, for caching.
    pub fn all() -> impl Iterator<Item = Self> {
        Stance::ALL.iter().flat_map(|stance| {
            Attitude::ALL.iter().flat_map(move |attitude| {
                std::iter::once(None)
                    .chain(MissionBonuses::all().map(Some))
                    .map(move |bonuses| Self {
                        stance: *stance,
                        attitude: *attitude,
                        bonuses,
                    })
            })
        })
    }

    /// The modifier each rolled mission adds to its d6, in table order: the MISSION TABLE's
    /// stance and attitude modifiers (the scenario generator's own table) plus the bonuses.
    pub fn modifiers(&self) -> [i32; 8] {
        Mission::ROLLED.map(|mission| {
            let bonus = self.bonuses.is_some_and(|b| b.contains(mission));
            mission_modifier(mission, self.stance, self.attitude) + i32::from(bonus)
        })
    }
}

/// An exact probability: `numerator / DENOMINATOR`, and the same as a float.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Chance {
    /// Over [`DENOMINATOR`].
    pub numerator: u64,
    /// `numerator / DENOMINATOR`.
    pub probability: f64,
}

impl Chance {
    fn of(numerator: u64) -> Self {
        Self {
            numerator,
            probability: numerator as f64 / DENOMINATOR as f64,
        }
    }
}

/// The chance that one mission is assigned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MissionChance {
    /// The mission.
    pub mission: Mission,
    /// The chance it is assigned (ties split evenly).
    #[serde(flatten)]
    pub chance: Chance,
}

/// The exact odds of step 5 for one side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MissionOdds {
    /// The side's inputs.
    #[serde(flatten)]
    pub query: OddsQuery,
    /// The common denominator, 6^8 × 840.
    pub denominator: u64,
    /// Each rolled mission's chance of being assigned, in table order; numerators sum to
    /// `denominator`.
    pub missions: [MissionChance; 8],
    /// The chance that two or more missions share the top total (the player then chooses, S9).
    pub tie: Chance,
}

impl MissionOdds {
    /// The chance that `mission` is assigned (zero for Escalating Engagement, never rolled).
    pub fn chance(&self, mission: Mission) -> Chance {
        self.missions
            .iter()
            .find(|c| c.mission == mission)
            .map_or(Chance::of(0), |c| c.chance)
    }
}

/// How the 6^8 outcomes end, counted by the set of missions at the top total.
///
/// `by_top_set[mask]` counts the outcomes whose top total is reached by exactly the missions in
/// `mask` (bit i = the i-th mission of the table).
pub(crate) struct Tally {
    pub(crate) by_top_set: [u64; 256],
}

impl Tally {
    /// Splits each outcome's 840 shares evenly among the missions at its top (S9): each
    /// mission's numerator, and the tie numerator (outcomes with two or more at the top), both
    /// over [`DENOMINATOR`].
    pub(crate) fn shares(&self) -> ([u64; 8], u64) {
        let mut numerators = [0u64; 8];
        let mut tied = 0u64;
        for (mask, count) in self.by_top_set.iter().enumerate() {
            let k = u64::from(mask.count_ones());
            if *count == 0 || k == 0 {
                continue;
            }
            for (i, n) in numerators.iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *n += count * (TIE_SHARES / k);
                }
            }
            if k > 1 {
                tied += count * TIE_SHARES;
            }
        }
        (numerators, tied)
    }
}

/// Enumerates every d6 outcome for the eight missions with the given modifiers.
pub(crate) fn tally(modifiers: [i32; 8]) -> Tally {
    let mut by_top_set = [0u64; 256];
    walk(&modifiers, 0, i32::MIN, 0, &mut by_top_set);
    Tally { by_top_set }
}

/// One die per level: carries the top total so far and the missions at it. The eighth die is
/// not looped over: its faces above, level with and below the top are counted directly, which
/// still counts each of its six faces once.
fn walk(mods: &[i32; 8], depth: usize, top: i32, at_top: u8, out: &mut [u64; 256]) {
    let bit = 1u8 << depth;
    for face in 1..=6 {
        let total = mods[depth] + face;
        let (top, at_top) = if total > top {
            (total, bit)
        } else if total == top {
            (top, at_top | bit)
        } else {
            (top, at_top)
        };
        if depth == 6 {
            last_die(mods[7], top, at_top, out);
        } else {
            walk(mods, depth + 1, top, at_top, out);
        }
    }
}

/// Counts the eighth die's faces: those above the top take it alone, one face can be level with
/// it and joins the tie, the rest leave the top as it is.
#[inline]
fn last_die(modifier: i32, top: i32, at_top: u8, out: &mut [u64; 256]) {
    const LAST: usize = 1 << 7;
    // Faces 1..=6 with modifier + face <= top: the first (top - modifier) faces, clamped.
    let not_above = (top - modifier).clamp(0, 6);
    let level = u64::from((1..=6).contains(&(top - modifier)));
    let above = 6 - not_above as u64;
    let below = not_above as u64 - level;
    let at_top = usize::from(at_top);
    out[LAST] += above;
    out[at_top | LAST] += level;
    out[at_top] += below;
}

/// The exact odds for one side (docs/rules.md §3.5, S8, S9).
pub fn mission_odds(query: OddsQuery) -> MissionOdds {
    let (numerators, tied) = tally(query.modifiers()).shares();
    let mut i = 0;
    let missions = Mission::ROLLED.map(|mission| {
        let chance = Chance::of(numerators[i]);
        i += 1;
        MissionChance { mission, chance }
    });
    MissionOdds {
        query,
        denominator: DENOMINATOR,
        missions,
        tie: Chance::of(tied),
    }
}

/// The odds for every one of the 261 queries of [`OddsQuery::all`], in that order.
pub fn all_mission_odds() -> Vec<MissionOdds> {
    OddsQuery::all().map(mission_odds).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ServerDice;

    fn query(stance: Stance, attitude: Attitude, bonuses: Option<(Mission, Mission)>) -> OddsQuery {
        OddsQuery {
            stance,
            attitude,
            bonuses: bonuses.map(|(a, b)| MissionBonuses::new(a, b).unwrap()),
        }
    }

    /// Independent oracle: for each mission m and each face of its die, count the ways the other
    /// seven dice fall below or level with m's total, as a polynomial in "how many tie with m".
    /// Integer arithmetic over the same denominator; no enumeration of the 6^8 outcomes.
    fn oracle(mods: [i32; 8]) -> ([u64; 8], u64) {
        let mut numerators = [0u64; 8];
        let mut unique_top = 0u64;
        for m in 0..8 {
            for face in 1..=6 {
                let t = mods[m] + face;
                // poly[k] = ways the others give exactly k ties with t and none above it.
                let mut poly = [0u64; 8];
                poly[0] = 1;
                for (j, mj) in mods.iter().enumerate() {
                    if j == m {
                        continue;
                    }
                    let below = (1..=6).filter(|f| mj + f < t).count() as u64;
                    let level = (1..=6).filter(|f| mj + f == t).count() as u64;
                    let mut next = [0u64; 8];
                    for k in 0..8 {
                        next[k] += poly[k] * below;
                        if k + 1 < 8 {
                            next[k + 1] += poly[k] * level;
                        }
                    }
                    poly = next;
                }
                for (k, ways) in poly.iter().enumerate() {
                    numerators[m] += ways * TIE_SHARES / (k as u64 + 1);
                }
                unique_top += poly[0];
            }
        }
        (numerators, (DICE_OUTCOMES - unique_top) * TIE_SHARES)
    }

    #[test]
    fn s8_modifiers_follow_the_mission_table_of_rules_3_5() {
        // (mission, [offensive, neutral, defensive] stance mods, [aggressive, cautious, passive]).
        let expected: [(Mission, [i32; 3], [i32; 3]); 8] = [
            (Mission::Assault, [2, 0, 0], [1, 0, 0]),
            (Mission::Expand, [0, 0, 0], [0, 1, 0]),
            (Mission::Hold, [0, 0, 2], [0, 0, 2]),
            (Mission::Infiltrate, [1, 0, 0], [0, 1, 0]),
            (Mission::Interfere, [0, 0, 1], [0, 1, 0]),
            (Mission::Patrol, [0, 2, 0], [0, 0, 0]),
            (Mission::Strike, [0, 0, 0], [1, 0, 0]),
            (Mission::Sweep, [1, 0, 0], [2, 0, 0]),
        ];
        for (s, stance) in Stance::ALL.iter().enumerate() {
            for (a, attitude) in Attitude::ALL.iter().enumerate() {
                let mods = query(*stance, *attitude, None).modifiers();
                for (i, (mission, by_stance, by_attitude)) in expected.iter().enumerate() {
                    assert_eq!(Mission::ROLLED[i], *mission);
                    assert_eq!(
                        mods[i],
                        by_stance[s] + by_attitude[a],
                        "{mission} {stance} {attitude}"
                    );
                }
            }
        }
    }

    #[test]
    fn s8_bonuses_need_two_different_rolled_missions() {
        assert_eq!(
            MissionBonuses::new(Mission::Hold, Mission::Hold),
            Err(BonusError::SameMission(Mission::Hold))
        );
        assert_eq!(
            MissionBonuses::new(Mission::Hold, Mission::EscalatingEngagement),
            Err(BonusError::NotRolled(Mission::EscalatingEngagement))
        );
        let b = MissionBonuses::new(Mission::Sweep, Mission::Assault).unwrap();
        assert_eq!(b.missions(), [Mission::Assault, Mission::Sweep]);
        assert_eq!(MissionBonuses::all().count(), 28);
        assert_eq!(MissionBonuses::from_slice(&[]), Ok(None));
        assert_eq!(
            MissionBonuses::from_slice(&[Mission::Patrol, Mission::Expand]),
            Ok(Some(
                MissionBonuses::new(Mission::Expand, Mission::Patrol).unwrap()
            ))
        );
        assert_eq!(
            MissionBonuses::from_slice(&[Mission::Patrol]),
            Err(BonusError::WrongCount(1))
        );
        let distinct: std::collections::BTreeSet<_> =
            MissionBonuses::all().map(|b| b.missions()).collect();
        assert_eq!(distinct.len(), 28);
    }

    #[test]
    fn s8_bonuses_add_one_to_each_of_the_two_missions() {
        let q = query(
            Stance::Offensive,
            Attitude::Aggressive,
            Some((Mission::Assault, Mission::Patrol)),
        );
        // Assault 2+1+1, Expand 0, Hold 0, Infiltrate 1, Interfere 0, Patrol 0+1, Strike 1, Sweep 1+2.
        assert_eq!(q.modifiers(), [4, 0, 0, 1, 0, 1, 1, 3]);
    }

    #[test]
    fn bonuses_json_is_an_array_of_two_names_and_bad_pairs_are_refused() {
        let q: OddsQuery = serde_json::from_str(
            r#"{"stance":"defensive","attitude":"passive","bonuses":["sweep","hold"]}"#,
        )
        .unwrap();
        assert_eq!(
            q.bonuses.unwrap().missions(),
            [Mission::Hold, Mission::Sweep]
        );
        for none in [
            r#"{"stance":"defensive","attitude":"passive"}"#,
            r#"{"stance":"defensive","attitude":"passive","bonuses":null}"#,
            r#"{"stance":"defensive","attitude":"passive","bonuses":[]}"#,
        ] {
            let q: OddsQuery = serde_json::from_str(none).unwrap();
            assert_eq!(q.bonuses, None, "{none}");
        }
        for bad in [
            r#"["hold","hold"]"#,
            r#"["hold"]"#,
            r#"["hold","patrol","sweep"]"#,
            r#"["hold","escalating_engagement"]"#,
        ] {
            let body = format!(r#"{{"stance":"neutral","attitude":"passive","bonuses":{bad}}}"#);
            assert!(serde_json::from_str::<OddsQuery>(&body).is_err(), "{bad}");
        }
    }

    #[test]
    fn there_are_261_queries_all_distinct() {
        let all: Vec<_> = OddsQuery::all().collect();
        assert_eq!(all.len(), 9 * 29);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 261);
        assert_eq!(all.iter().filter(|q| q.bonuses.is_none()).count(), 9);
    }

    #[test]
    fn the_tally_covers_every_one_of_the_6_pow_8_outcomes() {
        let t = tally([0, 1, 2, 3, -1, 0, 2, 1]);
        assert_eq!(t.by_top_set.iter().sum::<u64>(), 6u64.pow(8));
        assert_eq!(t.by_top_set[0], 0, "every outcome has a top");
        assert_eq!(DENOMINATOR, 6u64.pow(8) * 840);
        assert!((1..=8).all(|k| TIE_SHARES % k == 0));
    }

    #[test]
    fn s9_every_query_sums_to_one_and_matches_the_independent_oracle() {
        for q in OddsQuery::all() {
            let odds = mission_odds(q);
            let sum: u64 = odds.missions.iter().map(|c| c.chance.numerator).sum();
            assert_eq!(sum, DENOMINATOR, "{q:?}");
            let fsum: f64 = odds.missions.iter().map(|c| c.chance.probability).sum();
            assert!((fsum - 1.0).abs() < 1e-12);
            let (numerators, tie) = oracle(q.modifiers());
            let got: Vec<u64> = odds.missions.iter().map(|c| c.chance.numerator).collect();
            assert_eq!(got, numerators, "{q:?}");
            assert_eq!(odds.tie.numerator, tie, "{q:?}");
            assert!(odds.tie.probability > 0.0 && odds.tie.probability < 1.0);
        }
    }

    #[test]
    fn s9_missions_with_equal_modifiers_have_equal_odds() {
        // Neutral + Passive: only Hold (+2) and Patrol (+2) are modified; the other six are alike.
        let odds = mission_odds(query(Stance::Neutral, Attitude::Passive, None));
        let n = |m| odds.chance(m).numerator;
        assert_eq!(n(Mission::Hold), n(Mission::Patrol));
        for m in [
            Mission::Expand,
            Mission::Infiltrate,
            Mission::Interfere,
            Mission::Strike,
            Mission::Sweep,
        ] {
            assert_eq!(n(m), n(Mission::Assault), "{m}");
        }
        assert!(n(Mission::Hold) > n(Mission::Assault));
        assert_eq!(odds.chance(Mission::EscalatingEngagement).numerator, 0);

        // A bonus pair that mirrors: Defensive + Cautious gives Hold 2 and Interfere 2; +1 on
        // Expand and Infiltrate (both 1 from Cautious) makes them 2 as well.
        let odds = mission_odds(query(
            Stance::Defensive,
            Attitude::Cautious,
            Some((Mission::Expand, Mission::Infiltrate)),
        ));
        let n = |m| odds.chance(m).numerator;
        assert_eq!(n(Mission::Hold), n(Mission::Interfere));
        assert_eq!(n(Mission::Hold), n(Mission::Expand));
        assert_eq!(n(Mission::Hold), n(Mission::Infiltrate));
        assert_eq!(n(Mission::Assault), n(Mission::Patrol));
    }

    #[test]
    fn all_equal_modifiers_give_one_eighth_each() {
        let (numerators, tied) = tally([0; 8]).shares();
        // 1 − 8·(1/6)·Σ_{v} ((v−1)/6)^7 for v = 1..6, the chance that the top is unique.
        let unique: u64 = (1..=6u64).map(|v| 8 * (v - 1).pow(7)).sum();
        assert_eq!(tied, (DICE_OUTCOMES - unique) * TIE_SHARES);
        assert!(numerators.iter().all(|n| *n == DENOMINATOR / 8));
    }

    #[test]
    fn a_bonus_never_lowers_its_mission_and_never_raises_another() {
        // Uses the oracle, which the test above ties to the enumeration for every query.
        for stance in Stance::ALL {
            for attitude in Attitude::ALL {
                let (plain, _) = oracle(query(*stance, *attitude, None).modifiers());
                for b in MissionBonuses::all() {
                    let q = OddsQuery {
                        stance: *stance,
                        attitude: *attitude,
                        bonuses: Some(b),
                    };
                    let (with, _) = oracle(q.modifiers());
                    let mut gained = 0;
                    let mut before = 0;
                    for (i, m) in Mission::ROLLED.iter().enumerate() {
                        if b.contains(*m) {
                            gained += with[i];
                            before += plain[i];
                        } else {
                            assert!(with[i] <= plain[i], "{q:?} {m}");
                        }
                    }
                    assert!(gained > before, "{q:?}");
                }
            }
        }
    }

    /// Naive brute force over `n` dice with no carried state: list every outcome, find the top,
    /// split it evenly. Used on reduced cases where the other missions can never reach the top.
    fn brute_force(mods: &[i32]) -> (Vec<f64>, f64) {
        let n = mods.len();
        let outcomes = 6usize.pow(n as u32);
        let mut p = vec![0.0; n];
        let mut tie = 0.0;
        for code in 0..outcomes {
            let mut c = code;
            let totals: Vec<i32> = mods
                .iter()
                .map(|m| {
                    let face = (c % 6) as i32 + 1;
                    c /= 6;
                    m + face
                })
                .collect();
            let top = *totals.iter().max().unwrap();
            let winners: Vec<usize> = (0..n).filter(|i| totals[*i] == top).collect();
            for w in &winners {
                p[*w] += 1.0 / winners.len() as f64 / outcomes as f64;
            }
            if winners.len() > 1 {
                tie += 1.0 / outcomes as f64;
            }
        }
        (p, tie)
    }

    #[test]
    fn reduced_cases_agree_with_a_naive_brute_force() {
        // Missions at −20 can never reach the top, so the 8-die enumeration reduces to the first
        // few dice; compare against a plain brute force over just those.
        let cases: [&[i32]; 4] = [&[0, 0, 0], &[0, 1, 2], &[2, 0, 1, 1], &[0, 3, -1, 2, 1]];
        for live in cases {
            let mut mods = [-20i32; 8];
            mods[..live.len()].copy_from_slice(live);
            let t = tally(mods);
            let mut p = [0.0f64; 8];
            let mut tie = 0.0;
            for (mask, count) in t.by_top_set.iter().enumerate() {
                let k = mask.count_ones();
                for (i, pi) in p.iter_mut().enumerate() {
                    if mask & (1 << i) != 0 {
                        *pi += *count as f64 / f64::from(k) / DICE_OUTCOMES as f64;
                    }
                }
                if k > 1 {
                    tie += *count as f64 / DICE_OUTCOMES as f64;
                }
            }
            let small: Vec<i32> = live.to_vec();
            let (expected, expected_tie) = brute_force(&small);
            for i in 0..live.len() {
                assert!((p[i] - expected[i]).abs() < 1e-12, "{live:?} {i}");
            }
            assert!(p[live.len()..].iter().all(|x| *x == 0.0));
            assert!((tie - expected_tie).abs() < 1e-12, "{live:?}");
        }
        // Hand-checked: two fair dice tie 1/6 of the time and split the rest evenly.
        let (p, tie) = brute_force(&[0, 0]);
        assert!((tie - 1.0 / 6.0).abs() < 1e-12 && (p[0] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_seeded_monte_carlo_agrees_within_tolerance() {
        // Simulates step 5 with the server's dice and a uniform pick among tied missions (S9).
        let q = query(
            Stance::Offensive,
            Attitude::Aggressive,
            Some((Mission::Strike, Mission::Hold)),
        );
        let mods = q.modifiers();
        let exact = mission_odds(q);
        let mut dice = ServerDice::seeded(20_261_123);
        let runs = 200_000u32;
        let mut wins = [0u32; 8];
        let mut ties = 0u32;
        for _ in 0..runs {
            let totals: Vec<i32> = mods.iter().map(|m| m + i32::from(dice.die(6))).collect();
            let top = *totals.iter().max().unwrap();
            let tied: Vec<usize> = (0..8).filter(|i| totals[*i] == top).collect();
            if tied.len() > 1 {
                ties += 1;
            }
            let pick = usize::from(dice.die(tied.len() as u8)) - 1;
            wins[tied[pick]] += 1;
        }
        // 0.005 is more than four standard errors at 200 000 runs for any p.
        for (i, c) in exact.missions.iter().enumerate() {
            let estimate = f64::from(wins[i]) / f64::from(runs);
            assert!(
                (estimate - c.chance.probability).abs() < 0.005,
                "{}: {estimate} vs {}",
                c.mission,
                c.chance.probability
            );
        }
        let tie_estimate = f64::from(ties) / f64::from(runs);
        assert!((tie_estimate - exact.tie.probability).abs() < 0.005);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// The enumeration and the oracle agree for any modifiers, not only the table's.
        #[test]
        fn the_enumeration_matches_the_oracle_for_any_modifiers(
            mods in proptest::array::uniform8(-4i32..=9),
        ) {
            let t = tally(mods);
            proptest::prop_assert_eq!(t.by_top_set.iter().sum::<u64>(), DICE_OUTCOMES);
            let (numerators, tied) = t.shares();
            let (expected, expected_tie) = oracle(mods);
            proptest::prop_assert_eq!(numerators, expected);
            proptest::prop_assert_eq!(tied, expected_tie);
        }
    }

    #[test]
    fn json_shape_lists_missions_with_numerator_and_probability() {
        let odds = mission_odds(query(
            Stance::Defensive,
            Attitude::Passive,
            Some((Mission::Hold, Mission::Interfere)),
        ));
        let v = serde_json::to_value(&odds).unwrap();
        assert_eq!(v["stance"], "defensive");
        assert_eq!(v["attitude"], "passive");
        assert_eq!(v["bonuses"], serde_json::json!(["hold", "interfere"]));
        assert_eq!(v["denominator"], 1_410_877_440u64);
        assert_eq!(v["missions"].as_array().unwrap().len(), 8);
        assert_eq!(v["missions"][2]["mission"], "hold");
        assert!(v["missions"][2]["numerator"].is_u64());
        assert!(v["missions"][2]["probability"].is_f64());
        assert!(v["tie"]["numerator"].is_u64());
        let back: MissionOdds = serde_json::from_value(v).unwrap();
        assert_eq!(back, odds);
    }

    #[test]
    fn defensive_passive_with_hold_bonus_makes_hold_the_favourite() {
        // Hold is +5 (2 + 2 + 1) against Interfere's +2 and six bare dice: a sanity anchor.
        let odds = mission_odds(query(
            Stance::Defensive,
            Attitude::Passive,
            Some((Mission::Hold, Mission::Interfere)),
        ));
        let hold = odds.chance(Mission::Hold).probability;
        assert!(hold > 0.8, "{hold}");
        assert!(
            odds.missions
                .iter()
                .all(|c| c.mission == Mission::Hold || c.chance.probability < hold)
        );
    }
}
