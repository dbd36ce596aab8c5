//! `fad-basic-advanced`: the F.A.D. basic and advanced rules (`001_7f0eff823467b454.txt` and
//! `002_c9e748da5e3ae5eb.txt`; docs/rules.md §9). The texts have no campaign system, scenario
//! generator or points, so the ruleset runs FAD 5e's post-battle sequence and scenario generator
//! on FAD 5e's unit model, with the texts' own rules where they have one: every vehicle crew has
//! a Resolve (B1), squad leaders shift the squad's Quality (B2), their nine personalities (B3),
//! and no points unless the campaign borrows FAD 5e's (B6). Each rule is data here; the readings
//! say where the texts leave a choice.

#[cfg(test)]
mod tests;

use crate::campaign::tables::CampaignTables;
use crate::house_rules::HouseRules;
use crate::kit::Personality;
use crate::ladder::{Aptitude, Ladder, LeaderExperience, Leadership, Quality, Resolve};
use crate::names::Named;
use crate::roster::{Force, Unit};
use crate::validation::SQUAD_LEADER_KINDS;

use super::fad5e::rungs_of;
use super::{
    Casualties, Decisions, Family, ForceGeneration, LadderNames, LadderRole, LeaderEffect,
    ListEntry, Lists, Pricing, QualityLossRule, Reading, ReinforceInto, ResolveRule, Ruleset,
    ScenarioSupport, VehicleResolve,
};

/// The ruleset's id.
pub const ID: &str = "fad-basic-advanced";

/// The seed texts it comes from: the basic rules and the advanced rules.
pub const SOURCES: [&str; 2] = ["001_7f0eff823467b454.txt", "002_c9e748da5e3ae5eb.txt"];

/// Its decisions: FAD 5e's sequence with vehicle crews always rated (B1), the squad leader's
/// Quality shift (B2), no points of its own (B6) and no force generation (the texts have none).
pub const DECISIONS: Decisions = Decisions {
    casualties: Casualties::ReplacementTable,
    quality_loss: QualityLossRule::HalfReplaced,
    vehicle_resolve: VehicleResolve::Required,
    resolve: ResolveRule::Unit,
    reinforce_into: ReinforceInto::Units,
    leader_effect: LeaderEffect::QualityShift,
    pricing: Pricing::None,
    force_generation: ForceGeneration::None,
    scenario: ScenarioSupport::Native,
};

/// Table 20 (002), SQUAD LEADERS: the Quality levels each squad leader adds for Fire Effect and
/// Quality Tests (not weapon ranges), lowest first (B2).
pub const LEADER_QUALITY_SHIFT: [(LeaderExperience, u8); 3] = [
    (LeaderExperience::Regular, 0),
    (LeaderExperience::Experienced, 1),
    (LeaderExperience::Veteran, 2),
];

/// The squad-leader rungs, lowest first (B2).
pub const LEADER_EXPERIENCE: [LeaderExperience; 3] = [
    LeaderExperience::Regular,
    LeaderExperience::Experienced,
    LeaderExperience::Veteran,
];

/// The nine personalities of 002, in its order (B3): FAD 5e's Tech, Intruder and Forward
/// Observer are not among them; Anti-Armour Expert is its own.
pub const PERSONALITIES: [Personality; 9] = [
    Personality::Brawler,
    Personality::Comms,
    Personality::KnifeFighter,
    Personality::Lucky,
    Personality::Medic,
    Personality::Motivator,
    Personality::Sharpshooter,
    Personality::AntiArmourExpert,
    Personality::TriggerHappy,
];

/// Why a force has no points by default (B6).
pub const UNPRICED_REASON: &str = "The F.A.D. basic and advanced rules have no points system \
(B6); a campaign may borrow FAD 5e's with the option pricing: fad5e.";

/// The rule a roster's squad leader is checked against, for messages.
pub const LEADER_RULE: &str = "B2, Table 20 of the advanced rules";

/// The rule a vehicle's Resolve is required by, for messages.
pub const VEHICLE_RESOLVE_RULE: &str = "B1: the basic rules rate every vehicle crew's Resolve";

/// The Quality levels a squad leader adds (Table 20); Inexperienced, a FAD 5e rung only, adds
/// none.
pub fn quality_shift(experience: LeaderExperience) -> u8 {
    LEADER_QUALITY_SHIFT
        .iter()
        .find(|(e, _)| *e == experience)
        .map_or(0, |(_, shift)| *shift)
}

/// The Quality a squad fights at while its leader lives (B2): its natural Quality raised by its
/// leader's shift, never past Elite. `None` for a unit without a squad leader, whose Quality is
/// its own.
pub fn effective_quality(unit: &Unit) -> Option<Quality> {
    let experience = unit.leader_experience?;
    if !SQUAD_LEADER_KINDS.contains(&unit.kind) {
        return None;
    }
    Some(Quality::at(
        unit.quality.index() + usize::from(quality_shift(experience)),
    ))
}

/// The items of `force` that FAD 5e's point system has no price for, by name, sorted: with
/// `pricing: fad5e` they cost 0 (B6).
pub fn unpriced_items(force: &Force) -> Vec<String> {
    let mut out: Vec<String> = force
        .units()
        .flat_map(|u| u.personalities.iter())
        .filter(|p| !p.priced_by_fad5e())
        .map(|p| p.name().to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Version 1.
pub fn v1() -> Ruleset {
    Ruleset {
        id: ID.to_owned(),
        version: 1,
        name: "F.A.D. basic and advanced rules".to_owned(),
        summary: "The F.A.D. basic and advanced rules (tables 1–20) on FAD 5e's campaign sequence: vehicle crews rated, squad leaders raising Quality, nine personalities, unpriced.".to_owned(),
        family: Family::Fad,
        sources: SOURCES.iter().map(|s| (*s).to_owned()).collect(),
        builtin: true,
        extends: None,
        decisions: DECISIONS,
        tables: tables(),
        options: HouseRules::default(),
        ladders: ladders(),
        lists: lists(),
        readings: readings(),
    }
}

/// FAD 5e's post-battle numbers, with this ruleset's personalities to grant and a new squad's
/// leader on its own bottom rung (Regular, not FAD 5e's Inexperienced).
fn tables() -> CampaignTables {
    let mut t = CampaignTables::fad5e();
    t.personalities = PERSONALITIES.to_vec();
    t.new_squad.leader_experience = Some(LeaderExperience::Regular);
    t
}

fn ladders() -> Vec<LadderNames> {
    vec![
        LadderNames {
            ladder: "quality".to_owned(),
            role: LadderRole::Quality,
            number_meaning: Some(
                "Quality Test target (Table 9): a die at or above it succeeds".to_owned(),
            ),
            rungs: rungs_of(Quality::ALL, |q| Some(i32::from(q.row().test_target))),
        },
        LadderNames {
            ladder: "resolve".to_owned(),
            role: LadderRole::Resolve,
            number_meaning: None,
            rungs: rungs_of(Resolve::ALL, |_| None),
        },
        LadderNames {
            ladder: "leadership".to_owned(),
            role: LadderRole::Leader,
            number_meaning: Some(
                "Leadership value (Table 13): re-rolls and the same-specialisation modifier"
                    .to_owned(),
            ),
            rungs: rungs_of(Leadership::ALL, |l| Some(i32::from(l.value()))),
        },
        LadderNames {
            ladder: "leader_experience".to_owned(),
            role: LadderRole::Leader,
            number_meaning: Some(
                "Quality levels the squad gains for Fire Effect and Quality Tests while its leader lives (Table 20)"
                    .to_owned(),
            ),
            rungs: rungs_of(&LEADER_EXPERIENCE, |e| Some(i32::from(quality_shift(e)))),
        },
        LadderNames {
            ladder: "aptitude".to_owned(),
            role: LadderRole::Aptitude,
            number_meaning: Some("Psionic aptitude target (Table 17)".to_owned()),
            rungs: rungs_of(Aptitude::ALL, |a| Some(i32::from(a.target()))),
        },
    ]
}

fn lists() -> Lists {
    let fad5e = super::fad5e::lists();
    Lists {
        personalities: PERSONALITIES
            .iter()
            .map(|p| ListEntry {
                name: p.name().to_owned(),
                description: p.description(),
                // Priced only where FAD 5e prices it (B6).
                points: p.priced_by_fad5e().then(|| p.points()),
                multiplier: None,
                added: false,
            })
            .collect(),
        traits: fad5e.traits,
    }
}

/// The readings, one per rule the texts leave open (docs/rules.md §9 has them with anchors).
pub const READINGS: [(&str, &str); 9] = [
    (
        "B1",
        "Every vehicle crew has a Resolve, and a roster must give it. A vehicle that was damaged, or destroyed and replaced, rolls Resolve Change after the battle like any unit with losses, and its Resolve can be bought. This replaces FAD 5e's reading C15.",
    ),
    (
        "B2",
        "Squad leaders are Regular, Experienced or Veteran and raise the squad's Quality by 0, 1 or 2 levels for Fire Effect and Quality Tests (never past Elite). The roster keeps the squad's natural Quality; the service shows the raised one as its effective Quality. Quality loss, purchases and 'never to Elite' act on the natural Quality. The leader stays with the squad between battles: the text's 'reverts' describes the battle in which the leader dies.",
    ),
    (
        "B3",
        "Personalities are the nine of the advanced rules: Brawler, Comms, Knife Fighter, Lucky, Medic, Motivator, Sharpshooter, Anti-Armour Expert and Trigger Happy. FAD 5e's Tech, Intruder and Forward Observer are not among them, on a roster or as a purchase.",
    ),
    (
        "B4",
        "The texts send traits to a traits page that is not among them, so the ruleset offers FAD 5e's traits.",
    ),
    (
        "B5",
        "Losing Heart's permanent drop in Resolve lasts for the battle; the only lasting change of Resolve is the post-battle roll.",
    ),
    (
        "B6",
        "The texts have no points system, so forces are unpriced. The campaign option pricing: fad5e prices them by FAD 5e's point system; items FAD 5e does not price (Anti-Armour Expert) cost nothing there and are listed as unpriced.",
    ),
    (
        "B7",
        "Armour uses FAD 5e's armour list: the texts give no infantry armour table, and their armour value is a battle number the service does not apply.",
    ),
    (
        "B8",
        "Psionics as in FAD 5e: a psionic starts with Strength 3, and its aptitude ladder is Table 17's (Marginal 5+ to Master 2+).",
    ),
    (
        "B9",
        "The texts have no force generation; forces are built unit by unit. Scenario generation is FAD 5e's, unchanged.",
    ),
];

fn readings() -> Vec<Reading> {
    READINGS
        .iter()
        .map(|(id, text)| Reading {
            id: (*id).to_owned(),
            text: (*text).to_owned(),
        })
        .collect()
}
