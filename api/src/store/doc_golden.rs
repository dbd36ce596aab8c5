//! Golden files and sizes of stored documents: a 20-unit force (generated once by the force
//! generator, `tests/golden/roster-20-units-v1.json` in the full format 1) and the same roster
//! in format 2 load to the same value; format 2 is what is written today; and a 20-unit
//! force's roster and a post-battle row of that force take at most half the bytes of format 1.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use chrono::Utc;
use fad_domain::campaign::{Aftermath, BattleReport, Outcome, UnitLosses};
use fad_domain::dice::{EnteredDice, ServerDice, TableDice};
use fad_domain::forcegen::{GenerationChoices, generate};
use fad_domain::house_rules::HouseRules;
use fad_domain::lifecycle::AftermathStage;
use fad_domain::roster::Force as Roster;
use fad_domain::roster::Unit;
use serde_json::{Map, Value};

use super::aftermath::AftermathRow;
use super::doc;

const ROSTER_V1: &str = include_str!("../../../tests/golden/roster-20-units-v1.json");
const ROSTER_V2: &str = include_str!("../../../tests/golden/roster-20-units-v2.json");

/// `text` parsed, to compare documents whatever their key order.
fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

fn golden_path(name: &str) -> String {
    format!("{}/../tests/golden/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn dice(seed: u64) -> TableDice {
    TableDice::new(&EnteredDice::new(), ServerDice::seeded(seed)).unwrap()
}

/// A finalized post-battle row of `roster`: losses on every other unit, every roll made.
fn finalized_row(roster: &Roster) -> AftermathRow {
    let losses = roster
        .units()
        .step_by(2)
        .filter(|u| u.strength > 1)
        .map(|u| UnitLosses {
            unit_id: u.id.clone(),
            figures_lost: 1,
            eliminated: false,
            vehicle_damage: None,
            destroyed_on_recon: false,
        })
        .collect();
    let report = BattleReport { losses };
    let mut aftermath = Aftermath::start(
        "force-1",
        roster,
        &report,
        3,
        &HouseRules::default(),
        &fad_domain::rulesets::Ruleset::fad5e(),
    )
    .unwrap();
    aftermath.roll_remaining(&mut dice(11)).unwrap();
    let outcome = aftermath.finalize().unwrap();
    AftermathRow {
        battle_id: "battle-1".to_owned(),
        force_id: "force-1".to_owned(),
        battle_start: roster.clone(),
        force_version: 1,
        stage: AftermathStage::Finalized,
        state: Some(aftermath),
        outcome: Some(outcome),
        version: 4,
        updated_at: Utc::now().naive_utc(),
    }
}

/// A unit's serde defaults: the fields a unit may leave out, with the value serde fills in,
/// and the full set of fields a serialized unit has.
struct UnitShape {
    fields: BTreeSet<String>,
    defaults: Map<String, Value>,
}

/// The smallest unit that decodes, serialized again, shows every default.
static UNIT_SHAPE: LazyLock<Option<UnitShape>> = LazyLock::new(|| {
    let required = serde_json::json!({
        "id": "", "name": "", "kind": "squad", "quality": "regular",
        "strength": 0, "starting_strength": 0,
    });
    let unit: Unit = serde_json::from_value(required.clone()).ok()?;
    let Value::Object(full) = serde_json::to_value(unit).ok()? else {
        return None;
    };
    let fields = full.keys().cloned().collect();
    let defaults = full
        .into_iter()
        .filter(|(k, _)| required.get(k).is_none())
        .collect();
    Some(UnitShape { fields, defaults })
});

/// Leaves out, in every unit inside `value`, the fields that hold their serde default. A unit
/// is an object with exactly a serialized unit's fields, which no other stored type has.
/// This is how the first format-2 writer worked (on a `Value` tree); today's writer must give
/// the same documents.
fn compact(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(compact),
        Value::Object(map) => {
            map.values_mut().for_each(compact);
            if let Some(shape) = UNIT_SHAPE.as_ref() {
                if map.len() == shape.fields.len() && map.keys().all(|k| shape.fields.contains(k)) {
                    map.retain(|k, v| shape.defaults.get(k) != Some(v));
                }
            }
        }
        _ => {}
    }
}

/// `doc` as the first format-2 writer wrote it, `omitted` top-level fields left out.
fn reference_encoding<T: serde::Serialize>(doc: &T, omitted: &[&str]) -> Value {
    let mut value = serde_json::to_value(doc).unwrap();
    let map = value.as_object_mut().unwrap();
    map.retain(|k, _| !omitted.contains(&k.as_str()));
    map.values_mut().for_each(compact);
    map.insert("v".to_owned(), Value::from(2));
    value
}

/// Today's writer gives the reference's documents, `"v"` first, for rosters of every
/// generation method and option, and the post-battle states and outcomes made from them.
#[test]
fn todays_writer_gives_the_reference_documents() {
    let methods = [
        r#"{"method": "basic", "platoons": 3, "options": {"heroic_characters": true,
            "psionics": true, "heavy_weapons": true, "squad_leaders": true}}"#,
        r#"{"method": "basic", "platoons": 2, "attacker": true,
            "options": {"artillery_support": true, "not_like_us": true}}"#,
        r#"{"method": "advanced", "platoons": 2, "priorities": {"manpower": 1,
            "fire_power": 3, "gear": 3, "support": 2}}"#,
    ];
    let mut units = 0;
    for (i, choices) in methods.iter().enumerate() {
        let choices: GenerationChoices = serde_json::from_str(choices).unwrap();
        for seed in 1..=8 {
            let roster = generate(
                &choices,
                &HouseRules::default(),
                &mut dice(seed + 100 * i as u64),
            )
            .unwrap()
            .force;
            units += roster.units().count();
            let written = doc::encode(&roster).unwrap();
            assert!(written.starts_with(r#"{"v":2,"#), "{written}");
            assert_eq!(json(&written), reference_encoding(&roster, &[]));
            assert_eq!(doc::decode::<Roster>(&written).unwrap(), roster);

            let row = finalized_row(&roster);
            let stored = row.encode().unwrap();
            let state = row.state.as_ref().unwrap();
            assert_eq!(
                json(stored.state.as_deref().unwrap()),
                reference_encoding(state, &["battle_start", "after_rolls"])
            );
            assert_eq!(
                json(stored.after_rolls.as_deref().unwrap()),
                reference_encoding(&state.after_rolls, &[])
            );
            assert_eq!(
                json(stored.outcome.as_deref().unwrap()),
                reference_encoding(row.outcome.as_ref().unwrap(), &[])
            );
            // Finalize's outcome, its roster put in as the force's stored text.
            let outcome = row.outcome.as_ref().unwrap();
            let roster_text = doc::encode(&outcome.roster).unwrap();
            let spliced = super::aftermath::outcome_text(outcome, Some(&roster_text)).unwrap();
            assert!(spliced.starts_with(r#"{"v":2,"roster":{"#), "{spliced}");
            assert_eq!(json(&spliced), reference_encoding(outcome, &[]));
            assert_eq!(doc::decode::<Outcome>(&spliced).unwrap(), *outcome);
            assert_eq!(stored.decode().unwrap(), row);
        }
    }
    assert!(units > 200, "{units} units compared");
}

#[test]
fn a_20_unit_roster_of_both_formats_loads_alike_and_writes_format_2() {
    let v1: Roster = doc::decode(ROSTER_V1).unwrap();
    let v2: Roster = doc::decode(ROSTER_V2).unwrap();
    assert_eq!(v1.units().count(), 20);
    assert_eq!(v1, v2);
    assert_eq!(doc::version_of(ROSTER_V1), Some(1));
    // The golden format-2 file was written by the first format-2 writer (keys sorted, `"v"`
    // among them); today's writes the same fields, `"v"` first, in declaration order.
    let written = doc::encode(&v1).unwrap();
    assert!(written.starts_with(r#"{"v":2,"#), "{written}");
    assert_eq!(json(&written), json(ROSTER_V2));
    assert_eq!(serde_json::to_string(&v1).unwrap(), ROSTER_V1.trim_end());
}

#[test]
fn format_2_at_least_halves_a_20_unit_roster_and_its_post_battle_row() {
    let roster: Roster = doc::decode(ROSTER_V1).unwrap();
    let roster_v1 = serde_json::to_string(&roster).unwrap().len();
    let roster_v2 = doc::encode(&roster).unwrap().len();

    let row = finalized_row(&roster);
    let state = row.state.as_ref().unwrap();
    let outcome = row.outcome.as_ref().unwrap();
    let row_v1 = roster_v1
        + serde_json::to_string(state).unwrap().len()
        + serde_json::to_string(outcome).unwrap().len();
    let stored = row.encode().unwrap();
    let row_v2 = stored.battle_start.len()
        + stored.state.as_ref().unwrap().len()
        + stored.after_rolls.as_ref().unwrap().len()
        + stored.outcome.as_ref().unwrap().len();
    assert_eq!(stored.decode().unwrap(), row, "the row reads back the same");

    println!(
        "20-unit roster: format 1 {roster_v1} bytes, format 2 {roster_v2} bytes ({:.0} %)",
        100.0 * roster_v2 as f64 / roster_v1 as f64
    );
    println!(
        "finalized post-battle row of it: format 1 {row_v1} bytes, format 2 {row_v2} bytes ({:.0} %)",
        100.0 * row_v2 as f64 / row_v1 as f64
    );
    assert!(
        roster_v2 * 2 <= roster_v1,
        "roster {roster_v2} vs {roster_v1}"
    );
    assert!(row_v2 * 2 <= row_v1, "row {row_v2} vs {row_v1}");
}

/// Writes the roster golden files: a basic force of three platoons with every common option,
/// generated with fixed dice, cut to 20 units. Run (with `--ignored`) only to start over.
#[test]
#[ignore = "writes golden files"]
fn write_roster_golden_files() {
    let choices: GenerationChoices = serde_json::from_str(
        r#"{"method": "basic", "platoons": 3,
            "options": {"heroic_characters": true, "psionics": true,
                        "heavy_weapons": true, "squad_leaders": true}}"#,
    )
    .unwrap();
    let mut roster = (1..)
        .map(|seed| generate(&choices, &HouseRules::default(), &mut dice(seed)).unwrap())
        .map(|g| g.force)
        .find(|f| f.units().count() >= 20)
        .unwrap();
    let mut left = 20;
    for platoon in &mut roster.platoons {
        platoon.units.truncate(left);
        left -= platoon.units.len();
    }
    for (i, unit) in roster.units_mut().enumerate() {
        unit.id = format!("00000000-0000-4000-8000-{i:012}");
    }
    let v1 = serde_json::to_string(&roster).unwrap();
    std::fs::write(golden_path("roster-20-units-v1.json"), v1 + "\n").unwrap();
    let v2 = doc::encode(&roster).unwrap();
    std::fs::write(golden_path("roster-20-units-v2.json"), v2 + "\n").unwrap();
}
