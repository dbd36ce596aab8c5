//! Recon duty: which units may be sent (step 3) and the return roll that decides their fate
//! (step 6) (docs/rules.md §3.3, §3.6, S4, S5, S12, S19, C2;
//! S000 › SCENARIO GENERATION › Determine Recon Points, Deploy Contact Markers).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::ladder::Resolve;
use crate::roster::{Force, Problem, Unit, UnitKind, UnitStatus};

/// What happened to a unit sent on recon duty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReconOutcome {
    /// 1: destroyed by an ambush; remove the unit and one True marker (eliminated, C2).
    Destroyed,
    /// 2–5: enters from the own table edge on turn 2; remove one True marker.
    Delayed,
    /// 6+: deploys with the rest of the force.
    Returned,
}

/// The return table: the lowest modified roll giving each outcome.
pub const RECON_RETURN_TABLE: [(u8, ReconOutcome); 3] = [
    (1, ReconOutcome::Destroyed),
    (2, ReconOutcome::Delayed),
    (6, ReconOutcome::Returned),
];

/// +1 on the return roll for a unit with the Infiltrate or Recon trait (own or bonus, S12).
pub const RECON_TRAIT_RETURN_BONUS: u8 = 1;

/// One recon-duty unit and its fate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconDuty {
    /// The unit.
    pub unit_id: String,
    /// Its fate (`returned` without a roll in an Escalating Engagement, S19).
    pub outcome: ReconOutcome,
    /// The d6 rolled, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// The roll plus the trait bonus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u8>,
}

/// The outcome of a return roll `d6`, +1 with a recon trait.
pub fn recon_return(d6: u8, recon_trait: bool) -> ReconOutcome {
    let total = d6.saturating_add(if recon_trait {
        RECON_TRAIT_RETURN_BONUS
    } else {
        0
    });
    RECON_RETURN_TABLE
        .iter()
        .rev()
        .find(|(min, _)| total >= *min)
        .map_or(ReconOutcome::Destroyed, |x| x.1)
}

/// A unit with a trait that makes any squad eligible (Recon or Infiltration, S4, S5).
pub fn has_recon_trait(unit: &Unit) -> bool {
    unit.effective_traits().iter().any(|t| t.is_recon_trait())
}

/// Why a unit can never go on recon duty, if it cannot (Reluctant, excluded trait, kind).
pub fn recon_duty_bar(unit: &Unit) -> Option<String> {
    if unit.status != UnitStatus::Active {
        return Some("the unit is eliminated".into());
    }
    if !unit.is_fielded() {
        return Some(
            "the vehicle is damaged or destroyed and not repaired, so it is not fielded in this battle"
                .into(),
        );
    }
    // A vehicle without Resolve has none to be Reluctant with (S4).
    if unit.resolve == Some(Resolve::Reluctant) {
        return Some("a unit with Reluctant resolve cannot go on recon duty".into());
    }
    if let Some(t) = unit
        .effective_traits()
        .into_iter()
        .find(|t| t.excludes_recon_duty())
    {
        // Say where an implied trait comes from (a self-less droid squad lists no Relentless).
        let source = unit
            .traits
            .iter()
            .find(|own| **own != t && own.implied(&unit.trait_options).any(|i| i == t));
        return Some(match source {
            Some(own) => {
                format!("a unit with the {own} trait is also {t} and cannot go on recon duty")
            }
            None => format!("a unit with the {t} trait cannot go on recon duty"),
        });
    }
    match unit.kind {
        UnitKind::Squad | UnitKind::CommandSquad | UnitKind::Vehicle => None,
        // The text's trait rule says "any squad"; a weapons team is a supporting unit, not a
        // squad, whatever its traits (S4).
        UnitKind::WeaponsTeam => Some(
            "a weapons team is a supporting unit, not a squad, and cannot go on recon duty, with or without the Recon or Infiltration trait (S4)".into(),
        ),
        _ => Some(format!(
            "a {} cannot go on recon duty (squads and vehicles only, S4)",
            unit.kind
        )),
    }
}

/// Checks a recon-duty assignment against S4: at most one squad of each platoon (its own squads
/// or command squad), trait squads extra, at most one vehicle per platoon, and the exclusions.
/// Problems point at `{field}[i]`.
pub fn check_recon_duty(force: &Force, unit_ids: &[String], field: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let mut squads_per_platoon = vec![0u32; force.platoons.len()];
    let mut vehicles_per_platoon = vec![0u32; force.platoons.len()];
    for (i, id) in unit_ids.iter().enumerate() {
        let path = format!("{field}[{i}]");
        if !seen.insert(id.as_str()) {
            problems.push(Problem::new(path, format!("unit `{id}` is listed twice")));
            continue;
        }
        let Some((pi, unit)) = force
            .platoons
            .iter()
            .enumerate()
            .find_map(|(pi, p)| p.units.iter().find(|u| u.id == *id).map(|u| (pi, u)))
        else {
            problems.push(Problem::new(path, format!("no unit `{id}` in this force")));
            continue;
        };
        if let Some(why) = recon_duty_bar(unit) {
            problems.push(Problem::new(path, why));
            continue;
        }
        if unit.kind == UnitKind::Vehicle {
            vehicles_per_platoon[pi] += 1;
            if vehicles_per_platoon[pi] > 1 {
                problems.push(Problem::new(
                    path,
                    format!(
                        "platoon `{}` already sends a vehicle; at most one vehicle per platoon",
                        force.platoons[pi].name
                    ),
                ));
            }
        } else if !has_recon_trait(unit) {
            squads_per_platoon[pi] += 1;
            if squads_per_platoon[pi] > 1 {
                problems.push(Problem::new(
                    path,
                    format!(
                        "platoon `{}` already sends a squad; at most one squad per platoon, squads with the Recon or Infiltration trait extra (S4)",
                        force.platoons[pi].name
                    ),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kit::Armour;
    use crate::ladder::Quality;
    use crate::roster::Platoon;
    use crate::traits::Trait;

    /// A minimal unit for tests.
    pub(crate) fn unit(id: &str, kind: UnitKind, traits: &[Trait]) -> Unit {
        Unit {
            id: id.into(),
            name: id.into(),
            kind,
            quality: Quality::Regular,
            resolve: Some(Resolve::Steady),
            strength: if matches!(kind, UnitKind::Squad | UnitKind::CommandSquad) {
                8
            } else {
                1
            },
            starting_strength: if matches!(kind, UnitKind::Squad | UnitKind::CommandSquad) {
                8
            } else {
                1
            },
            armour: Armour::Light,
            basic_weapon: None,
            support_weapons: vec![],
            heavy_weapons: vec![],
            traits: traits.to_vec(),
            personalities: vec![],
            leadership: None,
            branch: None,
            leader_experience: None,
            aptitude: None,
            psionic_strength: None,
            vehicle: None,
            vehicle_state: None,
            status: UnitStatus::Active,
            ..Default::default()
        }
    }

    fn force(platoons: Vec<Vec<Unit>>) -> Force {
        Force {
            name: "f".into(),
            platoons: platoons
                .into_iter()
                .enumerate()
                .map(|(i, units)| Platoon {
                    name: format!("p{i}"),
                    units,
                })
                .collect(),
        }
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn return_table_rows() {
        assert_eq!(recon_return(1, false), ReconOutcome::Destroyed);
        for r in 2..=5 {
            assert_eq!(recon_return(r, false), ReconOutcome::Delayed);
        }
        assert_eq!(recon_return(6, false), ReconOutcome::Returned);
    }

    #[test]
    fn recon_trait_adds_one_to_the_return_roll() {
        assert_eq!(recon_return(1, true), ReconOutcome::Delayed);
        assert_eq!(recon_return(5, true), ReconOutcome::Returned);
        assert_eq!(recon_return(6, true), ReconOutcome::Returned);
    }

    #[test]
    fn s4_one_squad_per_platoon() {
        let f = force(vec![
            vec![
                unit("a", UnitKind::Squad, &[]),
                unit("b", UnitKind::Squad, &[]),
            ],
            vec![unit("c", UnitKind::Squad, &[])],
        ]);
        assert!(check_recon_duty(&f, &ids(&["a", "c"]), "r").is_empty());
        let p = check_recon_duty(&f, &ids(&["a", "b"]), "recon_unit_ids");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].field, "recon_unit_ids[1]");
    }

    #[test]
    fn s4_s5_trait_squads_are_extra_to_the_quota() {
        let f = force(vec![vec![
            unit("a", UnitKind::Squad, &[]),
            unit("r", UnitKind::Squad, &[Trait::Recon]),
            unit("i", UnitKind::Squad, &[Trait::Infiltration]),
        ]]);
        assert!(check_recon_duty(&f, &ids(&["a", "r", "i"]), "r").is_empty());
    }

    #[test]
    fn s4_command_squad_is_a_squad_of_the_platoon() {
        let f = force(vec![vec![
            unit("hq", UnitKind::CommandSquad, &[]),
            unit("a", UnitKind::Squad, &[]),
        ]]);
        assert!(check_recon_duty(&f, &ids(&["hq"]), "r").is_empty());
        assert_eq!(check_recon_duty(&f, &ids(&["hq", "a"]), "r").len(), 1);
    }

    #[test]
    fn s4_a_weapons_team_is_not_a_squad_with_or_without_a_recon_trait() {
        let mut recon = unit("t", UnitKind::WeaponsTeam, &[Trait::Recon]);
        recon.starting_strength = 3;
        let mut infiltration = unit("i", UnitKind::WeaponsTeam, &[Trait::Infiltration]);
        infiltration.starting_strength = 2;
        let mut plain = unit("p", UnitKind::WeaponsTeam, &[]);
        plain.starting_strength = 3;
        let sniper = unit("s", UnitKind::Sniper, &[Trait::Recon]);
        let f = force(vec![vec![recon, infiltration, plain, sniper]]);
        let p = check_recon_duty(&f, &ids(&["t", "i", "p", "s"]), "r");
        let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["r[0]", "r[1]", "r[2]", "r[3]"]);
        assert!(p[0].message.contains("not a squad"), "{}", p[0].message);
    }

    #[test]
    fn s4_one_vehicle_per_platoon_besides_the_squad() {
        let f = force(vec![vec![
            unit("a", UnitKind::Squad, &[]),
            unit("v1", UnitKind::Vehicle, &[]),
            unit("v2", UnitKind::Vehicle, &[]),
        ]]);
        assert!(check_recon_duty(&f, &ids(&["a", "v1"]), "r").is_empty());
        let p = check_recon_duty(&f, &ids(&["v1", "v2"]), "r");
        assert_eq!(p[0].field, "r[1]");
    }

    #[test]
    fn reluctant_units_and_excluded_traits_cannot_go() {
        let mut reluctant = unit("rel", UnitKind::Squad, &[]);
        reluctant.resolve = Some(Resolve::Reluctant);
        let mut vehicle = unit("veh", UnitKind::Vehicle, &[]);
        vehicle.resolve = None;
        let mut units = vec![reluctant, vehicle];
        for (i, t) in [
            Trait::Berserk,
            Trait::Hivemind,
            Trait::Relentless,
            Trait::Shaky,
            Trait::Zombie,
        ]
        .iter()
        .enumerate()
        {
            units.push(unit(&format!("x{i}"), UnitKind::Squad, &[*t, Trait::Recon]));
        }
        let f = force(vec![units]);
        let all = ids(&["rel", "veh", "x0", "x1", "x2", "x3", "x4"]);
        let p = check_recon_duty(&f, &all, "r");
        // Only the vehicle without Resolve passes (S4).
        assert_eq!(p.len(), 6);
        assert!(p.iter().all(|p| p.field != "r[1]"));
    }

    #[test]
    fn c16_an_unrepaired_damaged_or_destroyed_vehicle_cannot_go_on_recon_duty() {
        use crate::kit::VehicleState;
        let mut damaged = unit("vd", UnitKind::Vehicle, &[]);
        damaged.vehicle_state = Some(VehicleState::Damaged);
        let mut destroyed = unit("vx", UnitKind::Vehicle, &[]);
        destroyed.vehicle_state = Some(VehicleState::Destroyed);
        let mut fine = unit("vo", UnitKind::Vehicle, &[]);
        fine.vehicle_state = Some(VehicleState::Operational);
        let f = force(vec![vec![damaged], vec![destroyed], vec![fine]]);
        let p = check_recon_duty(&f, &ids(&["vd", "vx", "vo"]), "recon_unit_ids");
        let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["recon_unit_ids[0]", "recon_unit_ids[1]"]);
        assert!(p[0].message.contains("damaged"), "{}", p[0].message);
    }

    #[test]
    fn rules_3_3_self_less_droid_troopers_cannot_go_on_recon_duty() {
        let mut droids = unit("d", UnitKind::Squad, &[Trait::DroidTroopers]);
        droids.trait_options.droid_self_less = true;
        let preserving = unit("p", UnitKind::Squad, &[Trait::DroidTroopers]);
        let f = force(vec![vec![droids], vec![preserving]]);
        let p = check_recon_duty(&f, &ids(&["d", "p"]), "r");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].field, "r[0]");
        assert_eq!(
            p[0].message,
            "a unit with the droid_troopers trait is also relentless and cannot go on recon duty"
        );
    }

    #[test]
    fn unknown_duplicate_and_eliminated_units_are_refused_all_at_once() {
        let mut dead = unit("d", UnitKind::Squad, &[]);
        dead.status = UnitStatus::Eliminated;
        let f = force(vec![vec![unit("a", UnitKind::Squad, &[]), dead]]);
        let p = check_recon_duty(&f, &ids(&["zz", "a", "a", "d"]), "r");
        let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["r[0]", "r[2]", "r[3]"]);
    }
}
