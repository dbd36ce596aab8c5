//! Narrative tools: the four "circumstances of war" tables that frame a battle or a campaign
//! (docs/rules.md §5; S000 › NARRATIVE TOOLS › CIRCUMSTANCES OF WAR). They have no effect on the game.
//!
//! One d6 each for the circumstances in the sector, the intensity of the conflict and the region,
//! and one d6 per side for the nature of its forces. Every roll is logged with step `narrative`
//! and a `detail` naming its table. The subject of a world roll is the table's name
//! (`circumstances`, `intensity`, `region`); the subject of a forces roll is the side's force id,
//! so players can enter their own dice as
//! `"narrative": {"circumstances": [3], "region": [5], "<force id>": [2], ...}`.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollRequest, RollStep};
use crate::named_enum;

named_enum! {
    /// The immediate circumstances in the sector (docs/rules.md §5, first column).
    pub enum Circumstances("circumstances") {
        /// 1: Rearguard action.
        RearguardAction = "rearguard_action",
        /// 2: Contested territory.
        ContestedTerritory = "contested_territory",
        /// 3: Break through.
        BreakThrough = "break_through" ["breakthrough"],
        /// 4: Raid.
        Raid = "raid",
        /// 5: Probe.
        Probe = "probe",
        /// 6: Siege.
        Siege = "siege",
    }
}

named_enum! {
    /// The intensity of the overall conflict (docs/rules.md §5, second column).
    pub enum Intensity("intensity") {
        /// 1: Brushfire.
        Brushfire = "brushfire",
        /// 2: Covert action.
        CovertAction = "covert_action",
        /// 3: Intermittent fighting.
        IntermittentFighting = "intermittent_fighting",
        /// 4: Regular fighting.
        RegularFighting = "regular_fighting",
        /// 5: Large scale war.
        LargeScaleWar = "large_scale_war",
        /// 6: Total war.
        TotalWar = "total_war",
    }
}

named_enum! {
    /// The region the battles take place in (docs/rules.md §5, third column).
    pub enum Region("region") {
        /// 1: Forested or jungle region.
        ForestedOrJungle = "forested_or_jungle" ["forested_or_jungle_region", "forest", "jungle"],
        /// 2: Arid or desolate land.
        AridOrDesolate = "arid_or_desolate" ["arid_or_desolate_land", "arid", "desolate"],
        /// 3: Rough terrain.
        RoughTerrain = "rough_terrain",
        /// 4: Cultivated land.
        CultivatedLand = "cultivated_land",
        /// 5: Industrial region.
        Industrial = "industrial" ["industrial_region"],
        /// 6: Urban region.
        Urban = "urban" ["urban_region"],
    }
}

named_enum! {
    /// The nature of one side's forces (docs/rules.md §5, fourth column; rolled per side).
    pub enum ForceNature("force_nature") {
        /// 1: Hired guns / Mercenaries.
        HiredGuns = "hired_guns" ["mercenaries"],
        /// 2: Raiders.
        Raiders = "raiders",
        /// 3: Regular forces.
        RegularForces = "regular_forces",
        /// 4: Cadre / advisors.
        Cadre = "cadre" ["advisors"],
        /// 5: Scout / forward element.
        ScoutForwardElement = "scout_forward_element" ["scout", "forward_element"],
        /// 6: Volunteer forces / militia.
        VolunteerMilitia = "volunteer_militia" ["volunteer_forces", "militia"],
    }
}

/// One d6 narrative table: its name (the roll's `detail`) and its rows for 1 to 6, each with the
/// source's wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NarrativeTable<T: 'static> {
    /// The table's name, used as the roll's `detail` (and subject, for the world tables).
    pub name: &'static str,
    /// Row `i` is the result of a roll of `i + 1`, with the source's wording.
    pub rows: [(T, &'static str); 6],
}

impl<T: Copy + PartialEq> NarrativeTable<T> {
    /// The result of a d6 roll, `None` outside 1..=6.
    pub fn lookup(&self, d6: u8) -> Option<T> {
        let index = usize::from(d6).checked_sub(1)?;
        self.rows.get(index).map(|(value, _)| *value)
    }
    /// The source's wording of a result.
    pub fn label(&self, value: T) -> &'static str {
        self.rows
            .iter()
            .find(|(v, _)| *v == value)
            .map_or("", |(_, label)| *label)
    }
}

/// Circumstances in the sector (docs/rules.md §5).
pub const CIRCUMSTANCES_TABLE: NarrativeTable<Circumstances> = NarrativeTable {
    name: "circumstances",
    rows: [
        (Circumstances::RearguardAction, "Rearguard action"),
        (Circumstances::ContestedTerritory, "Contested territory"),
        (Circumstances::BreakThrough, "Break through"),
        (Circumstances::Raid, "Raid"),
        (Circumstances::Probe, "Probe"),
        (Circumstances::Siege, "Siege"),
    ],
};

/// Intensity of the conflict (docs/rules.md §5).
pub const INTENSITY_TABLE: NarrativeTable<Intensity> = NarrativeTable {
    name: "intensity",
    rows: [
        (Intensity::Brushfire, "Brushfire"),
        (Intensity::CovertAction, "Covert action"),
        (Intensity::IntermittentFighting, "Intermittent fighting"),
        (Intensity::RegularFighting, "Regular fighting"),
        (Intensity::LargeScaleWar, "Large scale war"),
        (Intensity::TotalWar, "Total war"),
    ],
};

/// Region (docs/rules.md §5).
pub const REGION_TABLE: NarrativeTable<Region> = NarrativeTable {
    name: "region",
    rows: [
        (Region::ForestedOrJungle, "Forested or jungle region"),
        (Region::AridOrDesolate, "Arid or desolate land"),
        (Region::RoughTerrain, "Rough terrain"),
        (Region::CultivatedLand, "Cultivated land"),
        (Region::Industrial, "Industrial region"),
        (Region::Urban, "Urban region"),
    ],
};

/// Nature of the forces, rolled once per side (docs/rules.md §5).
pub const FORCES_TABLE: NarrativeTable<ForceNature> = NarrativeTable {
    name: "forces",
    rows: [
        (ForceNature::HiredGuns, "Hired guns / Mercenaries"),
        (ForceNature::Raiders, "Raiders"),
        (ForceNature::RegularForces, "Regular forces"),
        (ForceNature::Cadre, "Cadre / advisors"),
        (ForceNature::ScoutForwardElement, "Scout / forward element"),
        (ForceNature::VolunteerMilitia, "Volunteer forces / militia"),
    ],
};

/// One side's rolled nature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideNature {
    /// The side's force id (the subject of its roll).
    pub force_id: String,
    /// The nature of its forces.
    pub nature: ForceNature,
}

/// The whole narrative frame of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Narrative {
    /// Circumstances in the sector.
    pub circumstances: Circumstances,
    /// Intensity of the conflict.
    pub intensity: Intensity,
    /// Region.
    pub region: Region,
    /// Nature of the forces, one per side in the order given.
    pub forces: Vec<SideNature>,
}

/// Rolls one d6 on `table` for `subject` (and side), logged as a `narrative` roll naming it.
pub fn roll_table<T: Copy + PartialEq>(
    dice: &mut impl Dice,
    table: &NarrativeTable<T>,
    subject: &str,
    force_id: Option<&str>,
) -> Result<T, DiceError> {
    let mut request = RollRequest::d6(RollStep::Narrative, subject, 1).with_detail(table.name);
    request.force_id = force_id;
    let value = dice.roll(request)?.first().copied().unwrap_or(0);
    table.lookup(value).ok_or_else(|| DiceError::OutOfRange {
        step: RollStep::Narrative,
        subject: subject.to_owned(),
        value,
        sides: 6,
    })
}

/// Rolls the three world tables, then the forces table once for each side in `force_ids`
/// (docs/rules.md §5).
pub fn roll_narrative(dice: &mut impl Dice, force_ids: &[&str]) -> Result<Narrative, DiceError> {
    let circumstances = roll_table(dice, &CIRCUMSTANCES_TABLE, CIRCUMSTANCES_TABLE.name, None)?;
    let intensity = roll_table(dice, &INTENSITY_TABLE, INTENSITY_TABLE.name, None)?;
    let region = roll_table(dice, &REGION_TABLE, REGION_TABLE.name, None)?;
    let forces = force_ids
        .iter()
        .map(|id| {
            roll_table(dice, &FORCES_TABLE, id, Some(id)).map(|nature| SideNature {
                force_id: (*id).to_owned(),
                nature,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Narrative {
        circumstances,
        intensity,
        region,
        forces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, RollSource, ServerDice, TableDice};
    use crate::names::Named;

    /// Table dice with one entered value per subject.
    fn entered(values: &[(&str, u8)]) -> TableDice {
        let mut dice = EnteredDice::new();
        for (subject, value) in values {
            dice.entry(RollStep::Narrative)
                .or_default()
                .insert((*subject).to_owned(), vec![*value]);
        }
        TableDice::new(&dice, ServerDice::seeded(3)).unwrap()
    }

    #[test]
    fn every_row_of_every_table_matches_rules_5() {
        let expected: [[&str; 4]; 6] = [
            [
                "rearguard_action",
                "brushfire",
                "forested_or_jungle",
                "hired_guns",
            ],
            [
                "contested_territory",
                "covert_action",
                "arid_or_desolate",
                "raiders",
            ],
            [
                "break_through",
                "intermittent_fighting",
                "rough_terrain",
                "regular_forces",
            ],
            ["raid", "regular_fighting", "cultivated_land", "cadre"],
            [
                "probe",
                "large_scale_war",
                "industrial",
                "scout_forward_element",
            ],
            ["siege", "total_war", "urban", "volunteer_militia"],
        ];
        for (i, row) in expected.iter().enumerate() {
            let d6 = u8::try_from(i + 1).unwrap();
            let mut dice = entered(&[
                ("circumstances", d6),
                ("intensity", d6),
                ("region", d6),
                ("f1", d6),
                ("f2", d6),
            ]);
            let n = roll_narrative(&mut dice, &["f1", "f2"]).unwrap();
            assert_eq!(n.circumstances.name(), row[0], "d6 {d6}");
            assert_eq!(n.intensity.name(), row[1], "d6 {d6}");
            assert_eq!(n.region.name(), row[2], "d6 {d6}");
            assert_eq!(n.forces[0].nature.name(), row[3], "d6 {d6}");
            assert_eq!(n.forces[1].nature.name(), row[3], "d6 {d6}");
            assert!(dice.unused().is_empty());
        }
    }

    #[test]
    fn labels_keep_the_source_wording() {
        assert_eq!(
            CIRCUMSTANCES_TABLE.label(Circumstances::BreakThrough),
            "Break through"
        );
        assert_eq!(
            INTENSITY_TABLE.label(Intensity::LargeScaleWar),
            "Large scale war"
        );
        assert_eq!(
            REGION_TABLE.label(Region::ForestedOrJungle),
            "Forested or jungle region"
        );
        assert_eq!(
            FORCES_TABLE.label(ForceNature::VolunteerMilitia),
            "Volunteer forces / militia"
        );
        // The table rows are in d6 order and cover each value once, as `ALL` does.
        let rows: Vec<_> = FORCES_TABLE.rows.iter().map(|(v, _)| *v).collect();
        assert_eq!(rows, ForceNature::ALL);
        let rows: Vec<_> = REGION_TABLE.rows.iter().map(|(v, _)| *v).collect();
        assert_eq!(rows, Region::ALL);
        let rows: Vec<_> = INTENSITY_TABLE.rows.iter().map(|(v, _)| *v).collect();
        assert_eq!(rows, Intensity::ALL);
        let rows: Vec<_> = CIRCUMSTANCES_TABLE.rows.iter().map(|(v, _)| *v).collect();
        assert_eq!(rows, Circumstances::ALL);
    }

    #[test]
    fn lookups_outside_one_to_six_are_none() {
        assert_eq!(REGION_TABLE.lookup(0), None);
        assert_eq!(REGION_TABLE.lookup(7), None);
        assert_eq!(REGION_TABLE.lookup(6), Some(Region::Urban));
        assert_eq!(FORCES_TABLE.lookup(1), Some(ForceNature::HiredGuns));
    }

    #[test]
    fn the_source_spellings_parse_as_aliases() {
        assert_eq!(
            ForceNature::parse("Mercenaries"),
            Ok(ForceNature::HiredGuns)
        );
        assert_eq!(
            ForceNature::parse("militia"),
            Ok(ForceNature::VolunteerMilitia)
        );
        assert_eq!(ForceNature::parse("advisors"), Ok(ForceNature::Cadre));
        assert_eq!(Region::parse("Urban region"), Ok(Region::Urban));
        assert_eq!(
            Circumstances::parse("Breakthrough"),
            Ok(Circumstances::BreakThrough)
        );
    }

    #[test]
    fn each_roll_is_logged_as_narrative_with_its_table_and_side() {
        let mut dice = ServerDice::seeded(11);
        let n = roll_narrative(&mut dice, &["red", "blue"]).unwrap();
        let log = dice.log();
        assert_eq!(log.len(), 5);
        assert!(log.iter().all(|r| r.step == RollStep::Narrative
            && r.dice == "1d6"
            && r.source == RollSource::Server));
        let details: Vec<_> = log.iter().map(|r| r.detail.as_deref().unwrap()).collect();
        assert_eq!(
            details,
            ["circumstances", "intensity", "region", "forces", "forces"]
        );
        let subjects: Vec<_> = log.iter().map(|r| r.subject.as_str()).collect();
        assert_eq!(
            subjects,
            ["circumstances", "intensity", "region", "red", "blue"]
        );
        assert_eq!(log[3].force_id.as_deref(), Some("red"));
        assert_eq!(log[0].force_id, None);
        assert_eq!(
            CIRCUMSTANCES_TABLE.lookup(log[0].values[0]),
            Some(n.circumstances)
        );
        assert_eq!(
            FORCES_TABLE.lookup(log[4].values[0]),
            Some(n.forces[1].nature)
        );
        assert_eq!(n.forces[1].force_id, "blue");
    }

    #[test]
    fn entered_values_are_player_rolls_and_bad_values_are_refused() {
        let mut dice = entered(&[("region", 4)]);
        let n = roll_narrative(&mut dice, &[]).unwrap();
        assert_eq!(n.region, Region::CultivatedLand);
        let region_roll = dice.log().iter().find(|r| r.subject == "region").unwrap();
        assert_eq!(region_roll.source, RollSource::Player);
        assert!(n.forces.is_empty());

        let mut bad = EnteredDice::new();
        bad.entry(RollStep::Narrative)
            .or_default()
            .insert("region".into(), vec![7]);
        assert!(TableDice::new(&bad, ServerDice::seeded(1)).is_err());
    }

    #[test]
    fn json_uses_snake_case_names() {
        let mut dice = entered(&[
            ("circumstances", 2),
            ("intensity", 5),
            ("region", 1),
            ("f1", 5),
        ]);
        let n = roll_narrative(&mut dice, &["f1"]).unwrap();
        let v = serde_json::to_value(&n).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "circumstances": "contested_territory",
                "intensity": "large_scale_war",
                "region": "forested_or_jungle",
                "forces": [{"force_id": "f1", "nature": "scout_forward_element"}]
            })
        );
        let back: Narrative = serde_json::from_value(v).unwrap();
        assert_eq!(back, n);
    }
}
