//! `gzg-fma-1999`: Ground Zero Games' FMA playtest draft of July 1999
//! (`003_1ae2e150fc991b15.txt`), a family of its own (docs/rules.md §11). Figures with an
//! Experience grade (quality die d4 to d12) and a Motivation level, grouped into teams; FAD 5e's
//! post-battle sequence with FMA's casualty examination in place of the replacement roll, no
//! quality loss, and Motivation change for the figures of a team that lost some (M1–M13).
//!
//! The text reserves all rights and forbids putting it on a website: this module, the ruleset's
//! page and its answers hold names, numbers and our own readings only (M12).
//!
//! The family rides the FAD-shaped engine by projection (see [`figure`]): a figure is a FAD
//! roster unit of one with an FMA profile, validated by [`validation`] instead of the FAD checks.
//! Version 1 is frozen like `fad5e`'s (a test pins its hash).

pub mod casualty;
pub mod figure;
pub mod generation;
pub mod markers;
pub mod validation;
pub mod vocabulary;

use crate::campaign::resolve_change::ResolveChange;
use crate::campaign::tables::{CampaignTables, NewSquadRule, d6_row};
use crate::campaign::{MenuRow, PurchaseItem};
use crate::house_rules::HouseRules;
use crate::ladder::Ladder;
use crate::names::Named;

pub use casualty::{CASUALTY, Casualty, FigureFate, casualty};
pub use figure::{
    ArmourValue, Die, EXPERIENCE_TABLE, Experience, FmaArmour, FmaProfile, FmaWeapon,
    MOTIVATION_LEVELS, Motivation, RangeBand, TeamRole, Toughness, armour_value,
};
pub use markers::{DEFAULT_MIX, Marker, check_pool, default_pool, draw_from, draw_markers};
pub use validation::validate_fma;

use super::{
    Casualties, Decisions, Family, ForceGeneration, LadderNames, LadderRole, LeaderEffect, Lists,
    Pricing, QualityLossRule, Reading, ReinforceInto, ResolveRule, Ruleset, Rung, ScenarioSupport,
    VehicleResolve,
};

/// The ruleset's id.
pub const ID: &str = "gzg-fma-1999";

/// The seed text it comes from.
pub const SOURCE: &str = "003_1ae2e150fc991b15.txt";

/// Whom the text belongs to, named wherever the ruleset is shown (M12).
pub const ATTRIBUTION: &str = "FMA playtest draft (July 1999), © Jon Tuffley and Ground Zero Games; FMA is a Ground Zero Games trademark. Shown here as names, numbers and our own readings only.";

/// The label of the resolve-change step under this ruleset (M6).
pub const MOTIVATION_CHANGE: &str = "Motivation change";

/// Campaign points per team after each battle (M1).
pub const CP_PER_TEAM: u32 = 2;

/// Fewest and most figures of a new team formed by reinforcements (M7).
pub const NEW_TEAM_SIZE: std::ops::RangeInclusive<u32> = 5..=8;

/// The grade of a new figure (M7).
pub const NEW_FIGURE_EXPERIENCE: Experience = Experience::Green;

/// The Motivation of a new figure (M7).
pub const NEW_FIGURE_MOTIVATION: Motivation = Motivation::Low;

/// The reading a refused purchase of Elite cites (M8, and FAD 5e's "never to Elite").
pub const NEVER_ELITE_RULE: &str = "M8, 000 l.3141";

/// Its decisions.
pub const DECISIONS: Decisions = Decisions {
    casualties: Casualties::Examination,
    quality_loss: QualityLossRule::Never,
    vehicle_resolve: VehicleResolve::None,
    resolve: ResolveRule::MembersOfGroupWithLosses,
    reinforce_into: ReinforceInto::Groups,
    leader_effect: LeaderEffect::None,
    pricing: Pricing::None,
    force_generation: ForceGeneration::FmaMarkers,
    scenario: ScenarioSupport::None,
};

/// Why its rosters have no points (M9).
pub const UNPRICED_REASON: &str = "the FMA playtest prices figures in its Part 2 (costings), which is not among the rules texts (003 l.1; M9)";

/// Why scenario generation is not offered (M11, our reading).
pub const NO_SCENARIO_REASON: &str = "scenario generation is not offered under gzg-fma-1999: the FMA playtest has no scenario generator, and FAD 5e's would need every distance scaled ×8/6 and a team read as one unit for markers, which this service does not do yet (M11)";

/// The same in a sentence for people, without ids (pages and 422 answers).
pub const NO_SCENARIO_SENTENCE: &str = "the FMA playtest has no scenario generator, and FAD 5e's would need every distance scaled by 8/6 and each team read as one unit for markers, which this service does not do yet. Agree the battle at the table and record its result";

/// The menu items the ruleset sells (M8): Experience and Motivation up, an extra pool die,
/// a seriously wounded figure back, vehicle repair and replacement. No personalities,
/// Leadership (a leader's Leadership is his Motivation, M3) or traits.
pub const SOLD: [PurchaseItem; 6] = [
    PurchaseItem::ImproveQuality,
    PurchaseItem::ImproveResolve,
    PurchaseItem::ExtraReinforcementDie,
    PurchaseItem::ReturnLoneFigure,
    PurchaseItem::RepairVehicle,
    PurchaseItem::ReplaceVehicle,
];

/// The ruleset's own word for a menu item, where it has one (requests accept both).
pub fn item_word(item: PurchaseItem) -> &'static str {
    match item {
        PurchaseItem::ImproveQuality => "improve_experience",
        PurchaseItem::ImproveResolve => "improve_motivation",
        other => other.name(),
    }
}

fn menu() -> Vec<MenuRow> {
    crate::campaign::EXPERIENCE_MENU
        .iter()
        .map(|row| MenuRow {
            enabled: SOLD.contains(&row.item),
            ..*row
        })
        .collect()
}

/// The post-battle numbers: FAD 5e's tables with the casualty examination, 2 CP per team, the
/// 2d6 pool, new teams of 5–8 Green figures at Motivation 3 (M4, M7, M8).
pub fn tables() -> CampaignTables {
    let fad = CampaignTables::fad5e();
    CampaignTables {
        cp_per_platoon: CP_PER_TEAM,
        new_squad: NewSquadRule {
            min: *NEW_TEAM_SIZE.start(),
            max: *NEW_TEAM_SIZE.end(),
            quality: NEW_FIGURE_EXPERIENCE.fad_quality(),
            resolve: NEW_FIGURE_MOTIVATION.fad_resolve(),
            leader_experience: None,
        },
        menu: menu(),
        casualty: Some(CASUALTY),
        ..fad
    }
}

/// Our readings of the text, in our own words (M1–M13, docs/rules.md §11).
pub const READINGS: [(&str, &str); 13] = [
    (
        "M1",
        "A figure is a unit of one (a `character` with starting strength 1). A team is the roster's group, in place of FAD's platoon; campaign points are 2 per team after each battle, at least one team.",
    ),
    (
        "M2",
        "Experience has five grades, Untrained (also accepted as novice), Green, Regular, Veteran and Elite, with quality dice d4, d6, d8, d10 and d12. The die follows the grade and is never stored apart. Armour is a fixed 1 for non-combatants or a die from d4 to d12; toughness raises the die one, two or three types and never past d12, and does not apply to the fixed 1.",
    ),
    (
        "M3",
        "Motivation is the marker number 1 (high), 2 (average) or 3 (low); lower is better, and it stands where FAD has Resolve. A team's leader uses his Motivation as its Leadership. A team has at most one leader and one second-in-command.",
    ),
    (
        "M4",
        "After the battle, every figure that was down rolls one d6 on the casualty table in place of FAD's replacement roll: 1-2 it comes back, 3-4 it is seriously wounded and out but may be returned for 1 CP, 5-6 it is dead and cannot be bought back. The text gives this roll for its quick and reduced-lethality combat options; we apply it to every campaign.",
    ),
    (
        "M5",
        "There is no quality-loss step: a figure is never refilled, so nothing dilutes it; new figures arrive Green instead.",
    ),
    (
        "M6",
        "Each figure still on the roster in a team that lost figures rolls FAD's resolve-change d6, shown as Motivation change: 1-2 one level worse (toward 3), 3-4 no change, 5-6 one level better (toward 1), never past 3 or 1.",
    ),
    (
        "M7",
        "Reinforcements are FAD's 2d6 pool counted in figures: a figure joins a team below its starting size, or five to eight of them form one new team. New figures are Green with Motivation 3.",
    ),
    (
        "M8",
        "The menu sells: Experience one grade up for 1 CP (never to Elite), Motivation one level better for 1 CP, an extra pool die for 1 CP, a seriously wounded figure returned for 1 CP, and a vehicle repaired (1 CP) or replaced (2 CP). No personalities, Leadership or traits.",
    ),
    (
        "M9",
        "Unpriced: the text prices figures in its Part 2 (costings), which is not among the rules texts, so rosters have no points.",
    ),
    (
        "M10",
        "Force generation is the marker draw: each figure of a team draws one marker (grade and Motivation) at random from a pool without putting it back, one logged die per draw with as many sides as markers remain; an entered die picks that position among the markers left, in the pool's order. The default pool is two markers per figure with no Elite or Untrained, mostly Regular, some Green and Veteran.",
    ),
    (
        "M11",
        "Scenario generation is not offered: the text has none, and running FAD 5e's with scaled distances is not built.",
    ),
    (
        "M12",
        "The text reserves all rights and asks that it not be put on any website: the service shows names, numbers and these readings only, with attribution, and a test checks that no run of eight words of the text appears in any page or answer.",
    ),
    (
        "M13",
        "A vehicle is a unit with a state (operational, damaged or destroyed) and no figure profile; its crew are figures of their own.",
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

fn ladders() -> Vec<LadderNames> {
    vec![
        LadderNames {
            ladder: "experience".to_owned(),
            role: LadderRole::Quality,
            number_meaning: Some("Sides of the quality die".to_owned()),
            rungs: Experience::ALL
                .iter()
                .map(|e| Rung {
                    key: e.name().to_owned(),
                    name: super::fad5e::display_name(e.name()),
                    number: Some(i32::from(e.quality_die().sides())),
                })
                .collect(),
        },
        LadderNames {
            ladder: "motivation".to_owned(),
            role: LadderRole::Resolve,
            number_meaning: Some("Motivation level on the marker (lower is better)".to_owned()),
            rungs: Motivation::ALL
                .iter()
                .map(|m| Rung {
                    key: m.name().to_owned(),
                    name: super::fad5e::display_name(m.name()),
                    number: Some(i32::from(m.level())),
                })
                .collect(),
        },
    ]
}

/// Version 1.
pub fn v1() -> Ruleset {
    Ruleset {
        id: ID.to_owned(),
        version: 1,
        name: "FMA playtest (GZG, 1999)".to_owned(),
        summary: "Ground Zero Games' FMA playtest draft of 1999: figures with an Experience die and a Motivation level in teams, with FAD 5e's campaign sequence and FMA's casualty roll.".to_owned(),
        family: Family::Fma,
        sources: vec![SOURCE.to_owned()],
        builtin: true,
        extends: None,
        decisions: DECISIONS,
        tables: tables(),
        options: HouseRules::default(),
        ladders: ladders(),
        lists: Lists {
            personalities: Vec::new(),
            traits: Vec::new(),
        },
        readings: readings(),
    }
}

/// Motivation after a figure's Motivation-change d6 on `table` (FAD's resolve-change table,
/// M6): a drop is one level worse (toward 3), an improvement one level better (toward 1), each
/// clamped at the ends of the ladder.
pub fn motivation_change(table: &[ResolveChange; 6], d6: u8, m: Motivation) -> Motivation {
    match d6_row(table, d6) {
        ResolveChange::Drops => m.down(),
        ResolveChange::Stays => m,
        ResolveChange::Improves => m.up(),
    }
}

#[cfg(test)]
mod tests;
