//! `one-page-skirmish`: the one-page skirmish game (`004_61880cd26310edbb.txt`), a family of its
//! own (docs/rules.md §10). Units of one to four bases on a four-rung training ladder, no Resolve,
//! no points; FAD 5e's post-battle sequence applied to bases by the readings O1–O9.
//!
//! The family rides the FAD-shaped engine by projection (see [`unit`]): its units are FAD roster
//! units with a one-page profile, validated by [`validation`] instead of the FAD checks. Version 1
//! is frozen like `fad5e`'s (a test pins its hash).

pub mod unit;
pub mod validation;
pub mod vocabulary;

use crate::campaign::tables::{CampaignTables, NewSquadRule};
use crate::campaign::{MenuRow, PurchaseItem};
use crate::house_rules::HouseRules;
use crate::ladder::Resolve;
use crate::names::Named;

pub use unit::{ForceProjection, OnePageArmour, OnePageProfile, Training};
pub use validation::validate_one_page;

use super::{
    Casualties, Decisions, Family, ForceGeneration, LadderNames, LadderRole, LeaderEffect, Lists,
    Pricing, QualityLossRule, Reading, ReinforceInto, ResolveRule, Ruleset, Rung, ScenarioSupport,
    VehicleResolve,
};

/// The ruleset's id.
pub const ID: &str = "one-page-skirmish";

/// The seed text it comes from.
pub const SOURCE: &str = "004_61880cd26310edbb.txt";

/// Most bases (or vehicle models) in a unit (O2, 004 l.13).
pub const MAX_BASES: u32 = 4;

/// Infantry bases one vehicle model carries (O9, 004 l.13).
pub const BASES_PER_VEHICLE: u32 = 2;

/// Bases in the reinforcement pool roll (O5: 1d6, a reading).
pub const POOL_DICE: u8 = 1;

/// Deployment-zone depths in cm for Offensive, Neutral and Defensive, the opt-in scaled
/// scenario's (O8: FAD 5e's 6"/12"/18" × 5/6 in cm).
pub const DEPLOYMENT_ZONES_CM: [u32; 3] = [5, 10, 15];

/// A FAD 5e distance in inches as this game's in cm (O8: × 5/6, Walk 5 cm against FAD's 6").
pub fn scaled_cm(inches: u32) -> u32 {
    inches * 5 / 6
}

/// Its decisions.
pub const DECISIONS: Decisions = Decisions {
    casualties: Casualties::ReplacementTable,
    quality_loss: QualityLossRule::HalfReplaced,
    vehicle_resolve: VehicleResolve::None,
    resolve: ResolveRule::Absent,
    reinforce_into: ReinforceInto::Units,
    leader_effect: LeaderEffect::None,
    pricing: Pricing::None,
    force_generation: ForceGeneration::None,
    scenario: ScenarioSupport::Scaled {
        numerator: 5,
        denominator: 6,
    },
};

/// Why its rosters have no points (O7).
pub const UNPRICED_REASON: &str = "the one-page skirmish text prices units in its Force Supplements, which are not among the rules texts (O7)";

/// The menu: training up (never Elite), an extra pool die; nothing that needs Resolve, lone
/// figures, vehicle damage, personalities, leaders or traits (O3, O4).
fn menu() -> Vec<MenuRow> {
    crate::campaign::EXPERIENCE_MENU
        .iter()
        .map(|row| MenuRow {
            enabled: matches!(
                row.item,
                PurchaseItem::ImproveQuality | PurchaseItem::ExtraReinforcementDie
            ),
            ..*row
        })
        .collect()
}

/// The post-battle numbers: FAD 5e's four tables on bases, a 1d6 pool, 2 CP per group, new
/// units of 2–4 bases at Seasoned (O5, O6).
pub fn tables() -> CampaignTables {
    let fad = CampaignTables::fad5e();
    CampaignTables {
        pool_dice: POOL_DICE,
        new_squad: NewSquadRule {
            min: 2,
            max: MAX_BASES,
            quality: Training::Seasoned.quality(),
            // Never given: a new one-page unit copies its model's profile and has no Resolve.
            resolve: Resolve::Uncertain,
            leader_experience: None,
        },
        menu: menu(),
        ..fad
    }
}

fn readings() -> Vec<Reading> {
    [
        ("O1", "Training maps onto FAD 5e's Quality ladder by rung: Green, Seasoned, Veteran and Elite are stored as rabble, conscript, regular and elite (the same target numbers 5, 4, 3, 2). A unit's quality field carries that rung; quality loss and purchases move it; none is ever bought to Elite."),
        ("O2", "A unit is one to four bases of infantry or vehicle models; its strength counts bases (or models), never above four. No unit is a lone figure: a one-base unit uses the normal replacement rows and may take reinforcements."),
        ("O3", "There is no Resolve: units carry none, the resolve change and unknown Resolve steps never roll, and Resolve cannot be bought."),
        ("O4", "Only destroyed vehicle models roll on the vehicle table, one die each: 5–6 replaces the model. An immobilised vehicle is fine by the next turn, so it rolls nothing; nothing stays damaged and repair is not offered."),
        ("O5", "Reinforcements are a pool of bases, 1d6: each base fills a unit below its starting bases, or two to four of them form one new Seasoned unit with the profile of the unit it is modelled on."),
        ("O6", "Campaign points: 2 per group (the roster's groups, at least one) after each battle."),
        ("O7", "Unpriced: units are defined by Force Supplements that are not among the rules texts, so rosters have no points."),
        ("O8", "Scenario generation is opt-in: FAD 5e's generator with every distance × 5/6 in cm (Walk is 5 cm against FAD's 6\"), so deployment zones are 5, 10 and 15 cm deep for Offensive, Neutral and Defensive."),
        ("O9", "A vehicle model carries at most two infantry bases."),
    ]
    .into_iter()
    .map(|(id, text)| Reading {
        id: id.to_owned(),
        text: text.to_owned(),
    })
    .collect()
}

fn ladders() -> Vec<LadderNames> {
    vec![LadderNames {
        ladder: "training".to_owned(),
        role: LadderRole::Quality,
        number_meaning: Some(
            "Training/Experience rating: activation and each firing die succeed at or above it"
                .to_owned(),
        ),
        rungs: Training::ALL
            .iter()
            .map(|t| Rung {
                key: t.name().to_owned(),
                name: super::fad5e::display_name(t.name()),
                number: Some(i32::from(t.rating())),
            })
            .collect(),
    }]
}

/// Version 1.
pub fn v1() -> Ruleset {
    Ruleset {
        id: ID.to_owned(),
        version: 1,
        name: "One-page skirmish".to_owned(),
        summary: "A one-page skirmish game of units of one to four bases on Green to Elite training, with FAD 5e's campaign sequence applied to bases.".to_owned(),
        family: Family::OnePage,
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

#[cfg(test)]
mod tests;
