//! Step 5, REINFORCEMENTS: the pool of troopers and its allocation (docs/rules.md §2.1–§2.3, C6, C9,
//! C10, C11, C24; S000 › CAMPAIGN RULES – QUICK › REINFORCEMENTS).
//!
//! The pool is the 2d6 of step 5 plus one d6 per extra die bought (C11). Troopers go to
//! multi-figure infantry units below their establishment E and never raise a unit above E (C9);
//! they take that unit's Quality and Resolve and restore its composition (C24), and can rebuild
//! an eliminated multi-figure unit (C6). At most one new squad of 5–8 may be formed (C10), with
//! E = its size, Conscript, Uncertain and the kit of its platoon's typical squad. Unassigned
//! troopers are lost.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::changes::{UnitEvent, UnitEventRecord};
use super::tables::NewSquadRule;
use crate::ladder::{LeaderExperience, Quality, Resolve};
use crate::roster::{Force, Platoon, Problem, Unit, UnitKind, UnitStatus};

/// Dice in the step-5 pool roll.
pub const POOL_DICE: usize = 2;

/// Size of the one new squad (C10).
pub const NEW_SQUAD_SIZE: RangeInclusive<u32> = 5..=8;

/// Quality of the new squad.
pub const NEW_SQUAD_QUALITY: Quality = Quality::Conscript;

/// Resolve of the new squad.
pub const NEW_SQUAD_RESOLVE: Resolve = Resolve::Uncertain;

/// Troopers for one unit (`allocations[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Allocation {
    /// The unit.
    pub unit_id: String,
    /// Troopers it receives.
    pub troopers: u32,
}

/// A platoon named by its index in the force or by its name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum PlatoonRef {
    /// Index into `platoons`, from 0.
    Index(usize),
    /// The platoon's name.
    Name(String),
}

/// The optional new squad (`new_squad`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSquad {
    /// Its name.
    pub name: String,
    /// Troopers, 5–8; also its establishment E.
    pub troopers: u32,
    /// The platoon it joins, whose typical squad gives its kit; if absent, the first platoon
    /// that has a squad.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platoon: Option<PlatoonRef>,
    /// Its unit id; if absent, `<force id>-squad-<n>` with the first free n.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The squad (unit id) whose arms and armour it copies; it then joins that squad's
    /// platoon. If absent, the typical squad of its platoon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modelled_on: Option<String>,
}

/// What the new squad got, for the answer (C10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FormedSquad {
    /// Its unit id.
    pub unit_id: String,
    /// Its name.
    pub name: String,
    /// Troopers, also its establishment.
    pub troopers: u32,
    /// The platoon it joined.
    pub platoon: String,
    /// The squad whose kit it copied (unit id).
    pub modelled_on: String,
    /// That squad's name.
    pub modelled_on_name: String,
    /// Quality (Conscript).
    pub quality: Quality,
    /// Resolve (Uncertain).
    pub resolve: Resolve,
    /// Armour, copied.
    pub armour: crate::kit::Armour,
    /// Basic weapon, copied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basic_weapon: Option<crate::kit::BasicWeapon>,
    /// Support weapons, copied (at most one per trooper).
    pub support_weapons: Vec<crate::kit::SupportWeapon>,
}

/// New figures for one team (`teams[]`, the FMA family, M7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamAllocation {
    /// The team, by index or name.
    pub team: PlatoonRef,
    /// New figures it receives.
    pub figures: u32,
}

/// How the player spends the pool.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReinforcementChoice {
    /// Troopers to existing units.
    #[serde(default)]
    pub allocations: Vec<Allocation>,
    /// New figures to existing teams (the FMA family only, M7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<TeamAllocation>,
    /// The optional new squad (under FMA: the new team, its `troopers` the figures, M7).
    #[serde(default)]
    pub new_squad: Option<NewSquad>,
}

/// What an allocation did.
#[derive(Debug, Clone, PartialEq)]
pub struct ReinforcementEffects {
    /// The roster afterwards.
    pub roster: Force,
    /// Troopers given to existing units.
    pub allocated: u32,
    /// Troopers in the new squad.
    pub new_squad: u32,
    /// Troopers left over and lost.
    pub lost: u32,
    /// One event per unit that received troopers, and one for the new squad.
    pub events: Vec<UnitEventRecord>,
    /// The new squad, if one was formed.
    pub formed: Option<FormedSquad>,
}

/// The platoon's typical squad: the most common kit (armour, basic and support weapons) among
/// its squads, the first such squad in roster order on a tie.
pub fn typical_squad(platoon: &Platoon) -> Option<&Unit> {
    let squads: Vec<&Unit> = platoon
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Squad)
        .collect();
    let same_kit = |a: &Unit, b: &Unit| {
        a.armour == b.armour
            && a.one_page == b.one_page
            && a.basic_weapon == b.basic_weapon
            && a.support_weapons == b.support_weapons
    };
    let mut best: Option<(&Unit, usize)> = None;
    for s in &squads {
        let count = squads.iter().filter(|o| same_kit(s, o)).count();
        if best.is_none_or(|(_, n)| count > n) {
            best = Some((s, count));
        }
    }
    best.map(|(u, _)| u)
}

fn platoon_index(force: &Force, which: Option<&PlatoonRef>) -> Option<usize> {
    match which {
        None => force
            .platoons
            .iter()
            .position(|p| typical_squad(p).is_some())
            .or((!force.platoons.is_empty()).then_some(0)),
        Some(PlatoonRef::Index(i)) => (*i < force.platoons.len()).then_some(*i),
        Some(PlatoonRef::Name(name)) => force.platoons.iter().position(|p| &p.name == name),
    }
}

/// The platoon of `unit_id` when it is a squad of `force` (the only kind whose kit a new squad
/// copies).
fn modelled_platoon(force: &Force, unit_id: &str) -> Option<usize> {
    force.platoons.iter().position(|p| {
        p.units
            .iter()
            .any(|u| u.id == unit_id && u.kind == UnitKind::Squad)
    })
}

fn free_squad_id(force: &Force, force_id: &str) -> String {
    (1..)
        .map(|n| format!("{force_id}-squad-{n}"))
        .find(|id| force.unit(id).is_none())
        .unwrap_or_else(|| format!("{force_id}-squad"))
}

/// The new squad built from `typical` (C10, C24): Conscript, Uncertain, E = troopers, with the
/// typical squad's arms and armour (weapons and their traits, munitions, armour and add-ons,
/// grenades, gadgets, comms; at most one support weapon per trooper) and a new squad leader
/// (Inexperienced, if the typical squad records one). Traits, abilities, personalities and bots
/// belong to that squad, not to its kit, and are not copied.
pub fn new_squad_unit(
    id: String,
    name: String,
    troopers: u32,
    typical: &Unit,
    rule: &NewSquadRule,
) -> Unit {
    let mut support = typical.support_weapons.clone();
    support.truncate(usize::try_from(troopers).unwrap_or(usize::MAX));
    let blank = Unit::default();
    Unit {
        id,
        name,
        kind: UnitKind::Squad,
        quality: rule.quality,
        // A one-page unit has no Resolve (O3).
        resolve: typical.one_page.is_none().then_some(rule.resolve),
        strength: troopers,
        starting_strength: troopers,
        support_weapons: support,
        traits: Vec::new(),
        personalities: Vec::new(),
        leadership: None,
        branch: None,
        leader_experience: typical.leader_experience.map(|_| {
            rule.leader_experience
                .unwrap_or(LeaderExperience::Inexperienced)
        }),
        aptitude: None,
        psionic_strength: None,
        vehicle: None,
        vehicle_state: None,
        status: UnitStatus::Active,
        abilities: blank.abilities,
        bots: blank.bots,
        hover_bot_upgrades: blank.hover_bot_upgrades,
        trait_options: blank.trait_options,
        ..typical.clone()
    }
}

/// Whether troopers can join `unit` at all: a multi-figure infantry-type unit (C6, C9).
pub fn can_take_troopers(unit: &Unit) -> bool {
    // A one-page unit of one base is no lone figure and takes bases too (O2).
    unit.kind.is_infantry_type()
        && (unit.starting_strength > 1 || (unit.one_page.is_some() && unit.starting_strength > 0))
}

/// Troopers `unit` may still receive before it reaches its establishment E (C9).
pub fn establishment_room(unit: &Unit) -> u32 {
    unit.starting_strength.saturating_sub(unit.strength)
}

/// The most troopers one unit may be given while the rest of the allocation stays as it is:
/// its room up to E (C9), and no more than the pool less what the other units and the new
/// squad take. The check of [`apply_reinforcements`] and the form's hint both use it, so the
/// hint never promises more than the server accepts.
pub fn unit_allowance(room: u32, pool: u32, taken_elsewhere: u32) -> u32 {
    room.min(pool.saturating_sub(taken_elsewhere))
}

/// Applies `choice` to `roster` with a pool of `pool` troopers; a new squad follows `rule`.
pub fn apply_reinforcements(
    roster: &Force,
    force_id: &str,
    pool: u32,
    choice: &ReinforcementChoice,
    rule: &NewSquadRule,
) -> Result<ReinforcementEffects, Vec<Problem>> {
    if super::figures::is_figure_roster(roster) {
        return super::figure_reinforcements::apply(roster, force_id, pool, choice, rule);
    }
    if !choice.teams.is_empty() {
        return Err(vec![Problem::new(
            "teams",
            "only a force of figures in teams takes new figures by team; give troopers to units (`allocations`)",
        )]);
    }
    let mut out = roster.clone();
    let mut problems = Vec::new();
    let mut events = Vec::new();
    let mut seen = BTreeSet::new();
    let mut allocated = 0u32;
    for (i, a) in choice.allocations.iter().enumerate() {
        let at = |f: &str| format!("allocations[{i}].{f}");
        if !seen.insert(a.unit_id.as_str()) {
            problems.push(Problem::new(at("unit_id"), "unit listed twice"));
            continue;
        }
        let Some(unit) = out.unit_mut(&a.unit_id) else {
            problems.push(Problem::new(at("unit_id"), "no such unit in this force"));
            continue;
        };
        if !can_take_troopers(unit) {
            problems.push(Problem::new(
                at("unit_id"),
                "troopers join only multi-figure infantry units (C6, C10)",
            ));
            continue;
        }
        if a.troopers == 0 {
            problems.push(Problem::new(at("troopers"), "must be at least 1"));
            continue;
        }
        let room = establishment_room(unit);
        if a.troopers > room {
            problems.push(Problem::new(
                at("troopers"),
                format!(
                    "the unit has {} of its establishment {}: at most {room} can join (C9)",
                    unit.strength, unit.starting_strength
                ),
            ));
            continue;
        }
        unit.strength += a.troopers;
        unit.status = UnitStatus::Active;
        allocated += a.troopers;
        events.push(UnitEventRecord::new(
            &a.unit_id,
            UnitEvent::Reinforced {
                troopers: a.troopers,
            },
        ));
    }
    let mut formed = 0;
    let mut formed_squad = None;
    if let Some(n) = &choice.new_squad {
        let before = problems.len();
        if !(rule.min..=rule.max).contains(&n.troopers) {
            problems.push(Problem::new(
                "new_squad.troopers",
                format!(
                    "a new squad has {} to {} troopers (C10)",
                    rule.min, rule.max
                ),
            ));
        }
        if n.name.trim().is_empty() {
            problems.push(Problem::new("new_squad.name", "must not be empty"));
        }
        let id = match &n.id {
            Some(id) if out.unit(id).is_some() => {
                problems.push(Problem::new("new_squad.id", "a unit with this id exists"));
                id.clone()
            }
            Some(id) if id.trim().is_empty() => {
                problems.push(Problem::new("new_squad.id", "must not be empty"));
                id.clone()
            }
            Some(id) => id.clone(),
            None => free_squad_id(&out, force_id),
        };
        let (index, typical) = match &n.modelled_on {
            Some(model) => match modelled_platoon(&out, model) {
                None => {
                    problems.push(Problem::new(
                        "new_squad.modelled_on",
                        "must name a squad of this force: the new squad copies its arms and armour",
                    ));
                    (None, None)
                }
                Some(i)
                    if n.platoon.is_some()
                        && platoon_index(&out, n.platoon.as_ref()) != Some(i) =>
                {
                    problems.push(Problem::new(
                        "new_squad.modelled_on",
                        "the squad it is modelled on must be in the platoon the new squad joins",
                    ));
                    (None, None)
                }
                Some(i) => (Some(i), out.unit(model).cloned()),
            },
            None => {
                let index = platoon_index(&out, n.platoon.as_ref());
                (
                    index,
                    index.and_then(|i| typical_squad(&out.platoons[i]).cloned()),
                )
            }
        };
        match (index, typical) {
            _ if problems.len() > before && n.modelled_on.is_some() => {}
            (None, _) => problems.push(Problem::new("new_squad.platoon", "no such platoon")),
            (Some(_), None) => problems.push(Problem::new(
                "new_squad.platoon",
                "the platoon has no squad whose kit the new squad could take (C10)",
            )),
            (Some(i), Some(typical)) if problems.len() == before => {
                let unit = new_squad_unit(id.clone(), n.name.clone(), n.troopers, &typical, rule);
                formed_squad = Some(FormedSquad {
                    unit_id: id.clone(),
                    name: unit.name.clone(),
                    troopers: n.troopers,
                    platoon: out.platoons[i].name.clone(),
                    modelled_on: typical.id.clone(),
                    modelled_on_name: typical.name.clone(),
                    quality: unit.quality,
                    resolve: rule.resolve,
                    armour: unit.armour,
                    basic_weapon: unit.basic_weapon,
                    support_weapons: unit.support_weapons.clone(),
                });
                out.platoons[i].units.push(unit);
                formed = n.troopers;
                events.push(UnitEventRecord::new(
                    &id,
                    UnitEvent::Formed {
                        troopers: n.troopers,
                    },
                ));
            }
            _ => {}
        }
    }
    let requested = choice
        .allocations
        .iter()
        .map(|a| a.troopers)
        .fold(0u32, u32::saturating_add)
        .saturating_add(choice.new_squad.as_ref().map_or(0, |n| n.troopers));
    if requested > pool {
        problems.push(Problem::new(
            "allocations",
            format!("{requested} troopers allocated, but the pool has {pool}"),
        ));
    }
    if problems.is_empty() {
        Ok(ReinforcementEffects {
            roster: out,
            allocated,
            new_squad: formed,
            lost: pool - allocated - formed,
            events,
            formed: formed_squad,
        })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::testkit::{character, force_of, squad, vehicle};
    use crate::kit::{Armour, BasicWeapon, SupportWeapon};
    use crate::names::Named;

    /// Under FAD 5e's new-squad rule.
    fn apply_reinforcements(
        roster: &Force,
        force_id: &str,
        pool: u32,
        choice: &ReinforcementChoice,
    ) -> Result<ReinforcementEffects, Vec<Problem>> {
        let rule = super::super::CampaignTables::fad5e().new_squad;
        super::apply_reinforcements(roster, force_id, pool, choice, &rule)
    }

    fn alloc(unit: &str, troopers: u32) -> Allocation {
        Allocation {
            unit_id: unit.into(),
            troopers,
        }
    }

    fn under(id: &str, e: u32, cur: u32) -> Unit {
        let mut u = squad(id, e);
        u.strength = cur;
        if cur == 0 {
            u.status = UnitStatus::Eliminated;
        }
        u
    }

    #[test]
    fn c9_troopers_never_raise_a_unit_above_its_establishment() {
        let f = force_of(vec![vec![under("s", 8, 6)]]);
        let ok = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![alloc("s", 2)],
            new_squad: None,
        };
        let got = apply_reinforcements(&f, "f", 7, &ok).unwrap();
        assert_eq!(got.roster.unit("s").unwrap().strength, 8);
        assert_eq!((got.allocated, got.lost), (2, 5));
        let too_many = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![alloc("s", 3)],
            new_squad: None,
        };
        let errors = apply_reinforcements(&f, "f", 7, &too_many).unwrap_err();
        assert_eq!(errors[0].field, "allocations[0].troopers");
        assert!(errors[0].message.contains("C9"));
    }

    #[test]
    fn c10_troopers_go_only_to_multi_figure_infantry_units() {
        let mut c = character("c");
        c.strength = 0;
        c.status = UnitStatus::Eliminated;
        let f = force_of(vec![vec![c, vehicle("v"), under("s", 8, 8)]]);
        for id in ["c", "v", "s", "nobody"] {
            let choice = ReinforcementChoice {
                teams: Vec::new(),
                allocations: vec![alloc(id, 1)],
                new_squad: None,
            };
            let errors = apply_reinforcements(&f, "f", 7, &choice).unwrap_err();
            // A squad already at E has no room; the others cannot take troopers at all.
            let field = if id == "s" { "troopers" } else { "unit_id" };
            assert_eq!(errors[0].field, format!("allocations[0].{field}"), "{id}");
        }
    }

    #[test]
    fn c6_troopers_rebuild_an_eliminated_multi_figure_unit() {
        let f = force_of(vec![vec![under("s", 6, 0)]]);
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![alloc("s", 5)],
            new_squad: None,
        };
        let got = apply_reinforcements(&f, "f", 5, &choice).unwrap();
        let s = got.roster.unit("s").unwrap();
        assert_eq!((s.strength, s.status), (5, UnitStatus::Active));
    }

    #[test]
    fn the_pool_limits_the_total_and_leftovers_are_lost() {
        let f = force_of(vec![vec![under("a", 8, 4), under("b", 8, 4)]]);
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![alloc("a", 4), alloc("b", 4)],
            new_squad: None,
        };
        let errors = apply_reinforcements(&f, "f", 7, &choice).unwrap_err();
        assert_eq!(errors[0].field, "allocations");
        let got = apply_reinforcements(&f, "f", 12, &choice).unwrap();
        assert_eq!(got.lost, 4);
        let nothing = apply_reinforcements(&f, "f", 9, &ReinforcementChoice::default()).unwrap();
        assert_eq!(nothing.lost, 9);
        assert_eq!(nothing.roster, f);
    }

    #[test]
    fn c10_one_new_squad_of_five_to_eight_conscript_uncertain_with_the_typical_kit() {
        let mut a = squad("a", 8);
        a.armour = Armour::Improved;
        a.basic_weapon = Some(BasicWeapon::GaussRifles);
        a.support_weapons = vec![SupportWeapon::ALL[0]];
        a.traits = vec![crate::traits::Trait::Tough];
        a.personalities = vec![crate::kit::Personality::Medic];
        a.leader_experience = Some(LeaderExperience::Veteran);
        let mut odd = squad("odd", 8);
        odd.basic_weapon = Some(BasicWeapon::LowTechRifles);
        let f = force_of(vec![vec![odd, a.clone(), a]]);
        for size in [4, 9] {
            let choice = ReinforcementChoice {
                teams: Vec::new(),
                allocations: vec![],
                new_squad: Some(NewSquad {
                    name: "New".into(),
                    troopers: size,
                    platoon: None,
                    id: None,
                    modelled_on: None,
                }),
            };
            let errors = apply_reinforcements(&f, "f", 12, &choice).unwrap_err();
            assert_eq!(errors[0].field, "new_squad.troopers");
        }
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![],
            new_squad: Some(NewSquad {
                name: "New".into(),
                troopers: 5,
                platoon: Some(PlatoonRef::Index(0)),
                id: None,
                modelled_on: None,
            }),
        };
        let got = apply_reinforcements(&f, "f", 7, &choice).unwrap();
        let n = got.roster.unit("f-squad-1").unwrap();
        assert_eq!((n.strength, n.starting_strength), (5, 5));
        assert_eq!(n.quality, Quality::Conscript);
        assert_eq!(n.resolve, Some(Resolve::Uncertain));
        assert_eq!(n.armour, Armour::Improved);
        assert_eq!(n.basic_weapon, Some(BasicWeapon::GaussRifles));
        assert_eq!(n.support_weapons, [SupportWeapon::ALL[0]]);
        // Kit, not the squad's own traits, personalities or veteran leader.
        assert!(n.traits.is_empty() && n.personalities.is_empty());
        assert_eq!(n.leader_experience, Some(LeaderExperience::Inexperienced));
        assert_eq!((got.new_squad, got.lost), (5, 2));
    }

    #[test]
    fn c10_new_squad_platoon_by_name_and_problems_for_unknown_or_squadless_platoons() {
        let mut f = force_of(vec![vec![squad("a", 8)], vec![character("c")]]);
        f.platoons[1].name = "Second".into();
        let make = |platoon| ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![],
            new_squad: Some(NewSquad {
                name: "New".into(),
                troopers: 6,
                platoon: Some(platoon),
                id: Some("new".into()),
                modelled_on: None,
            }),
        };
        let errors = apply_reinforcements(&f, "f", 12, &make(PlatoonRef::Name("Second".into())))
            .unwrap_err();
        assert_eq!(errors[0].field, "new_squad.platoon");
        let errors = apply_reinforcements(&f, "f", 12, &make(PlatoonRef::Index(5))).unwrap_err();
        assert_eq!(errors[0].field, "new_squad.platoon");
        let got =
            apply_reinforcements(&f, "f", 12, &make(PlatoonRef::Name("Platoon 0".into()))).unwrap();
        assert_eq!(got.roster.platoons[0].units.len(), 2);
        assert!(got.roster.unit("new").is_some());
        // Absent: the first platoon with a squad.
        let mut hq_first = f.clone();
        hq_first.platoons.swap(0, 1);
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![],
            new_squad: Some(NewSquad {
                name: "New".into(),
                troopers: 6,
                platoon: None,
                id: None,
                modelled_on: None,
            }),
        };
        let placed = apply_reinforcements(&hq_first, "f", 6, &choice).unwrap();
        assert_eq!(placed.roster.platoons[1].units.len(), 2);
    }

    #[test]
    fn new_squad_and_allocations_share_the_pool() {
        let f = force_of(vec![vec![under("s", 8, 6)]]);
        let choice = ReinforcementChoice {
            teams: Vec::new(),
            allocations: vec![alloc("s", 2)],
            new_squad: Some(NewSquad {
                name: "New".into(),
                troopers: 5,
                platoon: None,
                id: None,
                modelled_on: None,
            }),
        };
        assert!(apply_reinforcements(&f, "f", 7, &choice).is_ok());
        let errors = apply_reinforcements(&f, "f", 6, &choice).unwrap_err();
        assert_eq!(errors.last().unwrap().field, "allocations");
    }
}
