//! `fad5e`: Fast And Dirty 5th edition (`000_41a0da6f01c309f7.txt`), the service's own rules as
//! docs/rules.md states them. Its document is built from the `const` tables beside each rule, so
//! it cannot drift from what the engine did before rulesets existed. Version 1 is frozen: a change
//! that alters an outcome ships as version 2 (a test pins version 1's hash).

use crate::campaign::tables::CampaignTables;
use crate::house_rules::HouseRules;
use crate::kit::Personality;
use crate::ladder::{Aptitude, LeaderExperience, Leadership, Quality, Resolve};
use crate::names::Named;
use crate::traits::Trait;

use super::{
    Casualties, Decisions, Family, ForceGeneration, LadderNames, LadderRole, LeaderEffect,
    ListEntry, Lists, Pricing, QualityLossRule, ReinforceInto, ResolveRule, Ruleset, Rung,
    ScenarioSupport, VehicleResolve,
};

/// The seed text FAD 5e comes from.
pub const SOURCE: &str = "000_41a0da6f01c309f7.txt";

/// FAD 5e's decisions.
pub const DECISIONS: Decisions = Decisions {
    casualties: Casualties::ReplacementTable,
    quality_loss: QualityLossRule::HalfReplaced,
    vehicle_resolve: VehicleResolve::CrewOptional,
    resolve: ResolveRule::Unit,
    reinforce_into: ReinforceInto::Units,
    leader_effect: LeaderEffect::MoraleModifier,
    pricing: Pricing::Fad5e,
    force_generation: ForceGeneration::Fad5e,
    scenario: ScenarioSupport::Native,
};

/// Version 1.
pub fn v1() -> Ruleset {
    Ruleset {
        id: super::FAD5E.to_owned(),
        version: 1,
        name: "Fast And Dirty, 5th edition".to_owned(),
        summary: "The FAD 5th edition rules with their campaign system, as this service has always played them.".to_owned(),
        family: Family::Fad,
        sources: vec![SOURCE.to_owned()],
        builtin: true,
        extends: None,
        decisions: DECISIONS,
        tables: CampaignTables::fad5e(),
        options: HouseRules::default(),
        ladders: ladders(),
        lists: lists(),
        readings: Vec::new(),
    }
}

/// A word as people read it: `leader_experience` → `Leader experience`.
pub(crate) fn display_name(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn rungs<T: Named>(number: impl Fn(T) -> Option<i32>) -> Vec<Rung> {
    rungs_of(T::ALL, number)
}

/// The rungs of a ladder made of `values` (a ruleset's own subset of an enumeration).
pub(crate) fn rungs_of<T: Named>(values: &[T], number: impl Fn(T) -> Option<i32>) -> Vec<Rung> {
    values
        .iter()
        .map(|v| Rung {
            key: v.name().to_owned(),
            name: display_name(v.name()),
            number: number(*v),
        })
        .collect()
}

pub(crate) fn ladders() -> Vec<LadderNames> {
    vec![
        LadderNames {
            ladder: "quality".to_owned(),
            role: LadderRole::Quality,
            number_meaning: Some("Quality Test target: a die at or above it succeeds".to_owned()),
            rungs: rungs::<Quality>(|q| Some(i32::from(q.row().test_target))),
        },
        LadderNames {
            ladder: "resolve".to_owned(),
            role: LadderRole::Resolve,
            number_meaning: None,
            rungs: rungs::<Resolve>(|_| None),
        },
        LadderNames {
            ladder: "leadership".to_owned(),
            role: LadderRole::Leader,
            number_meaning: Some(
                "Leadership value: re-rolls and the same-branch modifier".to_owned(),
            ),
            rungs: rungs::<Leadership>(|l| Some(i32::from(l.value()))),
        },
        LadderNames {
            ladder: "leader_experience".to_owned(),
            role: LadderRole::Leader,
            number_meaning: Some("Modifier to each die of the squad's Morale Tests".to_owned()),
            rungs: rungs_of(&LeaderExperience::FAD5E, |l| {
                Some(i32::from(l.morale_modifier()))
            }),
        },
        LadderNames {
            ladder: "aptitude".to_owned(),
            role: LadderRole::Aptitude,
            number_meaning: Some("Task target number".to_owned()),
            rungs: rungs::<Aptitude>(|a| Some(i32::from(a.target()))),
        },
    ]
}

pub(crate) fn lists() -> Lists {
    Lists {
        personalities: Personality::FAD5E
            .iter()
            .map(|p| ListEntry {
                name: p.name().to_owned(),
                description: p.description(),
                points: Some(p.points()),
                multiplier: None,
                added: false,
            })
            .collect(),
        traits: Trait::ALL
            .iter()
            .map(|t| ListEntry {
                name: t.name().to_owned(),
                description: t.description(),
                points: None,
                multiplier: t.multiplier(),
                added: false,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{
        EXPERIENCE_MENU, quality_loss::QUALITY_LOSS, replacements::INFANTRY_REPLACEMENTS,
        resolve_change::RESOLVE_CHANGE, vehicle_replacements::VEHICLE_REPLACEMENTS,
    };

    /// Version 1 is frozen: this hash changes only if its document does, which must ship as
    /// version 2 instead.
    const V1_HASH: &str = "cd6f83faa9af7c17d3d8ee1b1793fff55dc97e2515696602ba750590764c968b";

    #[test]
    fn version_1_is_frozen() {
        assert_eq!(v1().hash(), V1_HASH);
    }

    #[test]
    fn fad5e_tables_are_todays_consts() {
        let r = v1();
        assert_eq!(r.tables.replacement, INFANTRY_REPLACEMENTS);
        assert_eq!(r.tables.vehicle_replacement, VEHICLE_REPLACEMENTS);
        assert_eq!(r.tables.quality_loss, QUALITY_LOSS);
        assert_eq!(r.tables.resolve_change, RESOLVE_CHANGE);
        assert_eq!(r.tables.menu, EXPERIENCE_MENU.to_vec());
        assert_eq!(r.tables.cp_per_platoon, 2);
        assert_eq!(r.tables.pool_dice, 2);
        assert_eq!(r.options, HouseRules::default());
        assert_eq!(r.sources, ["000_41a0da6f01c309f7.txt"]);
    }

    #[test]
    fn ladders_carry_every_rung_with_its_number() {
        let r = v1();
        let quality = r.ladder("quality").unwrap();
        let got: Vec<(&str, &str, Option<i32>)> = quality
            .rungs
            .iter()
            .map(|g| (g.key.as_str(), g.name.as_str(), g.number))
            .collect();
        assert_eq!(
            got,
            [
                ("rabble", "Rabble", Some(5)),
                ("conscript", "Conscript", Some(4)),
                ("regular", "Regular", Some(3)),
                ("elite", "Elite", Some(2))
            ]
        );
        assert_eq!(r.ladder("resolve").unwrap().rungs.len(), Resolve::ALL.len());
        assert_eq!(r.ladder("resolve").unwrap().role, LadderRole::Resolve);
        let exp = r.ladder("leader_experience").unwrap();
        assert_eq!(
            exp.rungs.iter().map(|g| g.number).collect::<Vec<_>>(),
            [Some(-1), Some(0), Some(1)]
        );
        assert_eq!(r.lists.traits.len(), 65);
        assert_eq!(r.lists.personalities.len(), Personality::FAD5E.len());
    }

    #[test]
    fn display_names_read_as_words() {
        assert_eq!(display_name("leader_experience"), "Leader experience");
        assert_eq!(display_name("elite"), "Elite");
        assert_eq!(display_name(""), "");
    }
}
