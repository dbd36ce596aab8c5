//! Stored battle documents written before the typed lifecycle still load: a golden file
//! captured from a real play-through (`tests/golden/battle-documents-v1.json`: a voided battle
//! with both sequences finalized, a reopened battle with one side mid-sequence, a scenario
//! against a non-player force) is decoded by the same code the store and the use cases run,
//! and each document written back is the same text.

use chrono::Utc;
use fad_domain::campaign::Aftermath;
use fad_domain::lifecycle::{AftermathStage, BattleState};
use fad_domain::roster::Force as Roster;
use fad_domain::scenario::Viewer;
use serde::Deserialize;

use super::aftermath::response;
use super::scenario::{BattleScenarioDocument, BattleScenarioResponse, versions};
use super::{BattleResponse, BattleResult, Side, player_forces};
use crate::store::aftermath::AftermathRow;
use crate::store::battles::Battle;

const GOLDEN: &str = include_str!("../../../../tests/golden/battle-documents-v1.json");

#[derive(Deserialize)]
struct Golden {
    battles: Vec<GoldenBattle>,
    battle_aftermaths: Vec<GoldenAftermath>,
    battle_scenarios: Vec<GoldenScenario>,
}

#[derive(Deserialize)]
struct GoldenBattle {
    id: String,
    campaign_id: String,
    state: String,
    sides: String,
    result: Option<String>,
    result_by: Option<String>,
    confirmed_by: Option<String>,
    version: i64,
    created_by: String,
    corrections: String,
    options: String,
}

#[derive(Deserialize)]
struct GoldenAftermath {
    battle_id: String,
    force_id: String,
    battle_start: String,
    force_version: i64,
    stage: String,
    state: Option<String>,
    outcome: Option<String>,
    version: i64,
}

#[derive(Deserialize)]
struct GoldenScenario {
    battle_id: String,
    document: String,
    version: i64,
}

fn golden() -> Golden {
    serde_json::from_str(GOLDEN).expect("the golden file parses")
}

/// The row as diesel builds it (the state word through the same `TryFrom<String>`).
fn battle(g: &GoldenBattle) -> Battle {
    let now = Utc::now().naive_utc();
    Battle {
        id: g.id.clone(),
        campaign_id: g.campaign_id.clone(),
        state: BattleState::try_from(g.state.clone()).expect("a known battle state"),
        sides: g.sides.clone(),
        result: g.result.clone(),
        result_by: g.result_by.clone(),
        confirmed_by: g.confirmed_by.clone(),
        version: g.version,
        created_by: g.created_by.clone(),
        created_at: now,
        updated_at: now,
        corrections: g.corrections.clone(),
        options: g.options.clone(),
    }
}

fn aftermath_row(g: &GoldenAftermath) -> AftermathRow {
    AftermathRow {
        battle_id: g.battle_id.clone(),
        force_id: g.force_id.clone(),
        battle_start: g.battle_start.clone(),
        force_version: g.force_version,
        stage: AftermathStage::try_from(g.stage.clone()).expect("a known stage"),
        state: g.state.clone(),
        outcome: g.outcome.clone(),
        version: g.version,
        updated_at: Utc::now().naive_utc(),
    }
}

#[test]
fn stored_battles_load_and_write_back_the_same_text() {
    let golden = golden();
    let mut states = Vec::new();
    for g in &golden.battles {
        let row = battle(g);
        states.push(row.state);
        assert_eq!(row.state.as_str(), g.state, "the word stays the stored one");
        let sides: Vec<Side> = serde_json::from_str(&g.sides).unwrap();
        assert_eq!(serde_json::to_string(&sides).unwrap(), g.sides);
        if let Some(result) = &g.result {
            let parsed: BattleResult = serde_json::from_str(result).unwrap();
            assert_eq!(&serde_json::to_string(&parsed).unwrap(), result);
        }
        let corrections = row.corrections().unwrap();
        assert_eq!(serde_json::to_string(&corrections).unwrap(), g.corrections);
        let options = row.options().unwrap();
        assert_eq!(serde_json::to_string(&options).unwrap(), g.options);
        assert!(!player_forces(&row).unwrap().is_empty());
        let rows: Vec<AftermathRow> = golden
            .battle_aftermaths
            .iter()
            .filter(|a| a.battle_id == g.id)
            .map(aftermath_row)
            .collect();
        let response = BattleResponse::new(row, &rows).unwrap();
        let json = serde_json::to_value(&response).unwrap();
        assert_eq!(json["state"], g.state.as_str());
        assert_eq!(
            json["corrections"].as_array().unwrap().len(),
            corrections.len()
        );
    }
    assert_eq!(
        states,
        [
            BattleState::Void,
            BattleState::Aftermath,
            BattleState::Scenario
        ],
        "the golden file covers a void, a reopened and a scenario battle"
    );
    let void = battle(&golden.battles[0]).corrections().unwrap();
    assert_eq!(void[0].previous_state, BattleState::Complete);
    let reopened = battle(&golden.battles[1]).corrections().unwrap();
    assert_eq!(reopened[0].previous_state, BattleState::Aftermath);
    assert!(reopened[0].discarded_result.is_some() && !reopened[0].discarded_rolls.is_empty());
}

#[test]
fn stored_post_battle_sequences_load_and_write_back_the_same_text() {
    let golden = golden();
    let mut stages = Vec::new();
    for g in &golden.battle_aftermaths {
        let row = aftermath_row(g);
        stages.push(row.stage);
        assert_eq!(row.stage.as_str(), g.stage);
        let start: Roster = serde_json::from_str(&g.battle_start).unwrap();
        assert_eq!(serde_json::to_string(&start).unwrap(), g.battle_start);
        if let Some(state) = &g.state {
            let aftermath: Aftermath = serde_json::from_str(state).unwrap();
            assert_eq!(&serde_json::to_string(&aftermath).unwrap(), state);
        }
        let answer = serde_json::to_value(response(&row, None).unwrap()).unwrap();
        assert_eq!(answer["stage"], g.stage.as_str());
        assert_eq!(
            answer["outcome"].is_null(),
            g.outcome.is_none() && g.state.is_none()
        );
    }
    stages.sort();
    assert_eq!(
        stages,
        [
            AftermathStage::Open,
            AftermathStage::Rolled,
            AftermathStage::Finalized,
            AftermathStage::Finalized
        ]
    );
}

#[test]
fn stored_scenarios_load_and_write_back_the_same_text() {
    let golden = golden();
    assert_eq!(golden.battle_scenarios.len(), 2);
    for g in &golden.battle_scenarios {
        let doc: BattleScenarioDocument = serde_json::from_str(&g.document).unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), g.document);
        let versions = versions::stored(&doc, g.version);
        for viewer in [
            Viewer::Side(0),
            Viewer::Side(1),
            Viewer::Outsider,
            Viewer::Everything,
        ] {
            let seen = BattleScenarioResponse::new(
                &g.battle_id,
                versions.of(viewer),
                &doc,
                viewer,
                &doc.rolls,
            );
            assert_eq!(seen.battle_id, g.battle_id);
        }
    }
}
