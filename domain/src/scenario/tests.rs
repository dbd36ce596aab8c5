//! Whole-workflow tests of the scenario machine: entered dice with exact expected values, ties,
//! Escalating Engagement (S19), a non-player force, the one-shot generator, secrecy of views, and
//! properties.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::dice::{RollSource, RollStep, ServerDice};
use crate::orders::{Attitude, Mission, Stance};
use crate::roster::{Force, Platoon, UnitKind};
use crate::scenario::ScenarioError;
use crate::scenario::contact_markers::ContactMarkers;
use crate::scenario::machine::{Orders, Scenario, ScenarioConfig, ScenarioState, SideSetup};
use crate::scenario::non_player::{Dispersion, NonPlayerSetup};
use crate::scenario::one_shot::{OneShotSide, generate};
use crate::scenario::recon_duty::ReconOutcome;
use crate::scenario::recon_duty::tests::unit;
use crate::scenario::recon_phase::{ReconAction, ReconPrompt, ReconResult};
use crate::scenario::side_dice::{EnteredBySide, SideDice};
use crate::scenario::table_edge::Edge;
use crate::scenario::view::Viewer;
use crate::traits::Trait;

fn alpha() -> Force {
    Force {
        name: "Alpha".into(),
        platoons: vec![Platoon {
            name: "alpha-1".into(),
            units: vec![
                unit("alpha-scout", UnitKind::Squad, &[]),
                unit("alpha-recon", UnitKind::Squad, &[Trait::Recon]),
                unit("alpha-hq", UnitKind::CommandSquad, &[]),
                unit("alpha-apc", UnitKind::Vehicle, &[]),
            ],
        }],
    }
}

fn bravo() -> Force {
    Force {
        name: "Bravo".into(),
        platoons: vec![
            Platoon {
                name: "bravo-1".into(),
                units: vec![
                    unit("b-sq1", UnitKind::Squad, &[]),
                    unit("b-sq2", UnitKind::Squad, &[]),
                    unit("b-char", UnitKind::Character, &[]),
                ],
            },
            Platoon {
                name: "bravo-2".into(),
                units: vec![
                    unit("b-sq3", UnitKind::Squad, &[]),
                    unit("b-guns", UnitKind::OffBoardArtillery, &[]),
                ],
            },
        ],
    }
}

/// Entered dice: (force, step, subject, values).
fn dice(entries: &[(&str, RollStep, &str, &[u8])]) -> SideDice {
    let mut e = EnteredBySide::new();
    for (force, step, subject, values) in entries {
        e.entry((*force).to_owned())
            .or_default()
            .entry(*step)
            .or_default()
            .insert((*subject).to_owned(), values.to_vec());
    }
    SideDice::new(&e, ServerDice::seeded(99)).unwrap()
}

fn mission_dice(
    force: &'static str,
    rolls: [u8; 8],
) -> Vec<(&'static str, RollStep, &'static str, Vec<u8>)> {
    let names = [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ];
    names
        .iter()
        .zip(rolls)
        .map(|(n, r)| (force, RollStep::Mission, *n, vec![r]))
        .collect()
}

fn all_dice(entries: Vec<(&str, RollStep, &str, Vec<u8>)>) -> SideDice {
    let borrowed: Vec<(&str, RollStep, &str, &[u8])> = entries
        .iter()
        .map(|(f, s, x, v)| (*f, *s, *x, v.as_slice()))
        .collect();
    dice(&borrowed)
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn orders(stance: Stance, attitude: Attitude, recon: &[&str]) -> Orders {
    Orders {
        stance,
        attitude,
        recon_unit_ids: ids(recon),
        attached_unit_ids: Vec::new(),
        holo_projectors: 0,
    }
}

fn two_players(config: ScenarioConfig) -> Scenario {
    Scenario::new(
        [
            SideSetup {
                force_id: "alpha".into(),
                force: alpha(),
                non_player: None,
            },
            SideSetup {
                force_id: "bravo".into(),
                force: bravo(),
                non_player: None,
            },
        ],
        config,
    )
    .unwrap()
}

/// The dice of the main workflow (see `a_whole_battle_scenario_with_entered_dice`).
fn workflow_dice() -> SideDice {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        ("alpha", RollStep::TableEdge, "alpha", vec![1]),
        ("bravo", RollStep::TableEdge, "bravo", vec![6]),
        ("alpha", RollStep::ReconReturn, "alpha-scout", vec![5]),
        ("alpha", RollStep::ReconReturn, "alpha-recon", vec![1]),
        ("bravo", RollStep::ReconReturn, "b-sq1", vec![1]),
        ("bravo", RollStep::ReconBlock, "bravo", vec![4]),
        ("alpha", RollStep::PreBattleEvent, "alpha-scout", vec![6]),
        (
            "alpha",
            RollStep::PreBattleEventTable,
            "alpha-scout",
            vec![6],
        ),
        ("alpha", RollStep::PreBattleEvent, "alpha-recon", vec![1]),
        ("alpha", RollStep::PreBattleEvent, "alpha-hq", vec![2]),
        ("alpha", RollStep::PreBattleEvent, "alpha-apc", vec![3]),
        (
            "alpha",
            RollStep::PreBattleEvent,
            "offensive_artillery",
            vec![6],
        ),
        (
            "alpha",
            RollStep::PreBattleEventTable,
            "offensive_artillery",
            vec![4],
        ),
        ("bravo", RollStep::PreBattleEvent, "b-sq2", vec![1]),
        ("bravo", RollStep::PreBattleEvent, "b-char", vec![5]),
        ("bravo", RollStep::PreBattleEvent, "b-sq3", vec![1]),
        ("bravo", RollStep::PreBattleEvent, "b-guns", vec![6]),
        ("bravo", RollStep::PreBattleEventTable, "b-guns", vec![1]),
    ];
    e.extend(mission_dice("alpha", [3, 2, 1, 4, 1, 2, 5, 4]));
    e.extend(mission_dice("bravo", [1, 1, 2, 1, 3, 1, 1, 1]));
    all_dice(e)
}

fn bravo_orders() -> Orders {
    Orders {
        attached_unit_ids: ids(&["b-char"]),
        ..orders(Stance::Defensive, Attitude::Passive, &["b-sq1"])
    }
}

#[test]
fn a_whole_battle_scenario_with_entered_dice() {
    let mut d = workflow_dice();
    let mut s = two_players(ScenarioConfig::default());
    assert_eq!(s.state().waiting_for, ids(&["alpha", "bravo"]));

    // Steps 1–3. Resubmitting before the step closes replaces the earlier orders.
    s.submit_orders(0, orders(Stance::Neutral, Attitude::Passive, &[]), &mut d)
        .unwrap();
    s.submit_orders(
        0,
        orders(
            Stance::Offensive,
            Attitude::Cautious,
            &["alpha-scout", "alpha-recon"],
        ),
        &mut d,
    )
    .unwrap();
    assert_eq!(s.state().state, ScenarioState::Orders);
    assert_eq!(s.state().waiting_for, ids(&["bravo"]));
    s.submit_orders(1, bravo_orders(), &mut d).unwrap();
    // After it closes, orders are refused (409).
    assert!(matches!(
        s.submit_orders(1, bravo_orders(), &mut d),
        Err(ScenarioError::Conflict(_))
    ));

    // Step 3: 1 + 2 + 2 + 2×2 = 9; 2 + 0 − 1 + 2 = 3.
    assert_eq!(s.sides[0].recon_points, Some(9));
    assert_eq!(s.sides[1].recon_points, Some(3));
    // Step 4: 1 + 9 = 10 beats 6 + 3 = 9.
    assert_eq!(s.sides[0].table_edge_roll.map(|r| r.total), Some(10));
    assert_eq!(s.sides[1].table_edge_roll.map(|r| r.total), Some(9));
    assert_eq!(s.table_edge_chooser, Some(0));
    assert_eq!(s.sides[0].deployment_zone_inches, Some(6));
    assert_eq!(s.sides[1].deployment_zone_inches, Some(18));
    assert_eq!(
        s.sides[0]
            .field_defences
            .as_ref()
            .map(|f| f.max_field_defences),
        Some(0)
    );
    assert_eq!(
        s.sides[1]
            .field_defences
            .as_ref()
            .map(|f| f.max_field_defences),
        Some(6)
    );
    assert_eq!(s.objectives.len(), 6);
    assert_eq!(s.objectives[0].placed_by, "alpha");

    // Step 5.
    assert_eq!(s.state().state, ScenarioState::MissionBonuses);
    assert!(matches!(
        s.submit_mission_bonuses(0, vec![Mission::Sweep, Mission::Sweep], &mut d),
        Err(ScenarioError::Invalid(p)) if p[0].field == "missions[1]"
    ));
    s.submit_mission_bonuses(0, vec![Mission::Sweep, Mission::Strike], &mut d)
        .unwrap();
    s.submit_mission_bonuses(1, vec![Mission::Hold, Mission::Interfere], &mut d)
        .unwrap();
    let a = &s.sides[0];
    assert_eq!(
        a.mission_totals.values().copied().collect::<Vec<_>>(),
        [5, 3, 1, 6, 2, 2, 6, 6]
    );
    assert_eq!(
        a.tied_missions,
        [Mission::Infiltrate, Mission::Strike, Mission::Sweep]
    );
    assert_eq!(s.sides[1].mission_totals[&Mission::Hold], 7);
    assert_eq!(s.sides[1].mission_totals[&Mission::Interfere], 5);
    assert_eq!(s.sides[1].rolled_mission, Some(Mission::Hold));

    // S9: only alpha chooses, and only among its tied missions.
    let info = s.state();
    assert_eq!(
        (info.state, info.waiting_for),
        (ScenarioState::MissionChoice, ids(&["alpha"]))
    );
    assert!(matches!(
        s.submit_mission_choice(0, Mission::Hold, &mut d),
        Err(ScenarioError::Invalid(p)) if p[0].field == "mission"
    ));
    assert!(matches!(
        s.submit_mission_choice(1, Mission::Hold, &mut d),
        Err(ScenarioError::Conflict(_))
    ));
    // The tie is alpha's secret: bravo (not tied) and an outsider see step 5's bonuses still
    // waiting for alpha, with no mission rolled for anyone; alpha sees its choice.
    // (An outsider sees both sides waiting, as at every secret step.)
    for (viewer, waiting) in [
        (Viewer::Side(1), ids(&["alpha"])),
        (Viewer::Outsider, ids(&["alpha", "bravo"])),
    ] {
        let v = s.view_for(viewer);
        assert_eq!(v.state, ScenarioState::MissionBonuses, "{viewer:?}");
        assert_eq!(v.waiting_for, waiting, "{viewer:?}");
        assert!(
            v.sides.iter().all(|side| side.mission_totals.is_none()
                && side.mission_rolls.is_none()
                // Only bravo's own bonuses show as sent, as before alpha's were in.
                && side.mission_bonuses_submitted
                    == (viewer == Viewer::Side(1) && side.force_id == "bravo")),
            "{viewer:?}: {:?}",
            v.sides
        );
    }
    assert_eq!(
        s.view_for(Viewer::Side(0)).state,
        ScenarioState::MissionChoice
    );
    // Bravo may still send its bonuses, as before alpha's were in: its totals follow from the
    // dice already rolled (no new roll).
    let rolls = s.sides[1].mission_rolls.clone();
    s.submit_mission_bonuses(1, vec![Mission::Interfere, Mission::Hold], &mut d)
        .unwrap();
    assert_eq!(s.sides[1].mission_rolls, rolls);
    assert_eq!(s.sides[1].mission_totals[&Mission::Hold], 7);
    assert_eq!(s.sides[1].rolled_mission, Some(Mission::Hold));
    // Alpha, which tied, has seen its rolls: its bonuses are closed.
    assert!(matches!(
        s.submit_mission_bonuses(0, vec![], &mut d),
        Err(ScenarioError::Conflict(_))
    ));
    s.submit_mission_choice(0, Mission::Infiltrate, &mut d)
        .unwrap();
    assert_eq!(s.sides[0].mission, Some(Mission::Infiltrate));
    assert_eq!(s.sides[1].mission, Some(Mission::Hold));
    assert!(!s.escalating_engagement);

    // S12: Infiltrate's traits go to the recon squad without a recon trait, Hold adds 3 defences.
    let bonus: Vec<_> = s.sides[0]
        .bonus_traits
        .iter()
        .map(|b| (b.trait_, b.unit_id.clone()))
        .collect();
    assert_eq!(
        bonus,
        [
            (Trait::Infiltration, Some("alpha-scout".to_owned())),
            (Trait::Stealth, Some("alpha-scout".to_owned()))
        ]
    );
    assert_eq!(
        s.sides[1]
            .field_defences
            .as_ref()
            .map(|f| f.max_field_defences),
        Some(9)
    );
    // S30: Hold needs bravo's two near objectives.
    assert_eq!(
        s.objectives
            .iter()
            .filter(|o| o.needed_by == ["bravo"])
            .count(),
        2
    );

    // Step 6: 5 + 1 (Stealth bonus) dummies; 2 × (5 − 2) for bravo. Recon return: the scout
    // 5 + 1 (Infiltrate bonus) returns, the recon squad 1 + 1 is delayed, b-sq1 is destroyed.
    let duty: Vec<_> = s.sides[0]
        .recon_duty
        .iter()
        .map(|d| (d.unit_id.as_str(), d.outcome, d.total))
        .collect();
    assert_eq!(
        duty,
        [
            ("alpha-scout", ReconOutcome::Returned, Some(6)),
            ("alpha-recon", ReconOutcome::Delayed, Some(2))
        ]
    );
    assert_eq!(s.sides[1].recon_duty[0].outcome, ReconOutcome::Destroyed);
    assert_eq!(
        s.sides[0].contact_markers,
        Some(ContactMarkers {
            true_markers: 3,
            dummy: 6
        })
    );
    // b-char shares b-sq2's marker (S14); b-guns is off-board; b-sq1 is gone.
    assert_eq!(
        s.sides[1].contact_markers,
        Some(ContactMarkers {
            true_markers: 2,
            dummy: 6
        })
    );
    assert_eq!(s.first_to_place_markers, Some(0));
    let batches: Vec<_> = s
        .marker_placement
        .iter()
        .map(|b| (b.side, b.count))
        .collect();
    assert_eq!(batches, [(0, 5), (1, 5), (0, 4), (1, 3)]);

    // Step 7: alpha moves, bravo blocks with a 4, alpha does not counter.
    let info = s.state();
    assert_eq!(
        (info.state, info.recon_prompt),
        (ScenarioState::Recon, Some(ReconPrompt::Turn))
    );
    assert!(matches!(
        s.recon_action(1, ReconAction::Pass, &mut d),
        Err(ScenarioError::Conflict(_))
    ));
    s.recon_action(
        0,
        ReconAction::Move {
            markers: ids(&["m1", "m2"]),
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(s.state().recon_prompt, Some(ReconPrompt::Block));
    s.recon_action(1, ReconAction::Block, &mut d).unwrap();
    s.recon_action(0, ReconAction::Pass, &mut d).unwrap();
    s.recon_action(
        1,
        ReconAction::Reveal {
            marker: Some("alpha-3".into()),
        },
        &mut d,
    )
    .unwrap();
    s.recon_action(0, ReconAction::Pass, &mut d).unwrap();
    s.recon_action(0, ReconAction::Pass, &mut d).unwrap();
    s.recon_action(1, ReconAction::Pass, &mut d).unwrap();
    let recon = s.recon.clone().unwrap();
    assert_eq!(recon.log[0].result, ReconResult::Blocked);
    assert_eq!(recon.log[3].result, ReconResult::Done);
    assert_eq!(recon.lost, [8, 1]);

    // Pre-battle events: a 6 then the table.
    assert_eq!(s.state().state, ScenarioState::Ready);
    let events: Vec<_> = s.sides[0]
        .pre_battle_events
        .iter()
        .map(|e| (e.unit_id.as_str(), e.event.as_str()))
        .collect();
    assert_eq!(
        events,
        [
            ("alpha-scout", "inspired"),
            ("offensive_artillery", "preliminary_fire")
        ]
    );
    let events: Vec<_> = s.sides[1]
        .pre_battle_events
        .iter()
        .map(|e| (e.unit_id.as_str(), e.event.as_str()))
        .collect();
    assert_eq!(events, [("b-guns", "general_support")]);

    // Every roll was entered and every entered value used.
    let log = d.take_log();
    assert_eq!(log.len(), 2 + 16 + 3 + 1 + 7 + 5);
    assert!(log.iter().all(|r| r.source == RollSource::Player));
    assert!(d.unused().is_empty());
    assert!(matches!(
        s.recon_action(0, ReconAction::Pass, &mut d),
        Err(ScenarioError::Conflict(_))
    ));
}

#[test]
fn steps_refuse_input_out_of_turn_and_invalid_orders_list_every_problem() {
    let mut d = SideDice::server(ServerDice::seeded(1));
    let mut s = two_players(ScenarioConfig::default());
    assert!(matches!(
        s.submit_mission_bonuses(0, vec![], &mut d),
        Err(ScenarioError::Conflict(_))
    ));
    assert!(matches!(
        s.recon_action(0, ReconAction::Pass, &mut d),
        Err(ScenarioError::Conflict(_))
    ));
    let bad = Orders {
        attached_unit_ids: ids(&["nobody", "b-guns"]),
        ..orders(
            Stance::Neutral,
            Attitude::Cautious,
            &["b-sq1", "b-sq2", "b-guns"],
        )
    };
    let Err(ScenarioError::Invalid(problems)) = s.submit_orders(1, bad, &mut d) else {
        panic!("expected problems");
    };
    let fields: Vec<_> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "recon_unit_ids[1]",
            "recon_unit_ids[2]",
            "attached_unit_ids[0]",
            "attached_unit_ids[1]"
        ]
    );
    // Nothing changed and nothing was rolled.
    assert!(s.sides[1].orders.is_none());
    assert!(d.take_log().is_empty());
}

#[test]
fn s19_escalating_engagement_has_its_own_set_up() {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        ("alpha", RollStep::TableEdge, "alpha", vec![6]),
        ("bravo", RollStep::TableEdge, "bravo", vec![1]),
    ];
    e.extend(mission_dice("alpha", [1, 1, 1, 1, 1, 1, 1, 6]));
    e.extend(mission_dice("bravo", [1, 1, 1, 1, 1, 1, 1, 6]));
    let mut d = all_dice(e);
    let side = |force_id: &str, force, recon: &[&str]| OneShotSide {
        force_id: force_id.into(),
        force,
        non_player: false,
        stance: Some(Stance::Offensive),
        attitude: Some(Attitude::Aggressive),
        mission_bonuses: vec![],
        recon_unit_ids: ids(recon),
        attached_unit_ids: vec![],
        holo_projectors: 0,
    };
    let s = generate(
        [
            side("alpha", alpha(), &["alpha-scout"]),
            side("bravo", bravo(), &["b-sq1"]),
        ],
        ScenarioConfig::default(),
        &mut d,
    )
    .unwrap();
    assert_eq!(s.state, ScenarioState::Ready);
    assert!(s.escalating_engagement);
    for side in &s.sides {
        assert_eq!(side.mission, Some(Mission::EscalatingEngagement));
        assert_eq!(
            side.bonus.as_ref().map(|b| b.traits.clone()),
            Some(vec![Trait::Brave, Trait::ShockTroops])
        );
        assert_eq!(side.deployment_zone_inches, Some(18));
        assert_eq!(side.contact_markers, Some(ContactMarkers::default()));
        assert!(
            side.recon_duty
                .iter()
                .all(|r| r.outcome == ReconOutcome::Returned && r.roll.is_none())
        );
    }
    assert!(s.recon.is_none());
    assert_eq!(s.first_to_place_markers, None);
    let setup = s.escalating_setup.clone().unwrap();
    assert_eq!(setup.first_to_place, 0);
    assert_eq!(setup.placed_units, [ids(&["alpha-scout"]), ids(&["b-sq1"])]);
    assert_eq!(setup.entering_per_turn, [1, 2]);
    let log = d.take_log();
    assert!(
        log.iter()
            .all(|r| r.step != RollStep::ReconReturn && r.step != RollStep::PlacementOrder)
    );
    // S11: Escalating Engagement is public even with hidden missions.
    let view = s.view_for(Viewer::Side(1));
    assert_eq!(view.sides[0].mission, Some(Mission::EscalatingEngagement));
    assert_eq!(
        s.view_for(Viewer::Outsider).sides[1].mission,
        Some(Mission::EscalatingEngagement)
    );
}

#[test]
fn a_player_against_a_non_player_force() {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        ("bravo", RollStep::NpfStance, "bravo", vec![1]),
        ("bravo", RollStep::NpfAttitude, "bravo", vec![3]),
        ("bravo", RollStep::NpfRecon, "bravo-1", vec![5]),
        ("bravo", RollStep::NpfRecon, "bravo-2", vec![2]),
        ("alpha", RollStep::TableEdge, "alpha", vec![1, 3]),
        ("bravo", RollStep::TableEdge, "bravo", vec![1]),
        ("bravo", RollStep::MissionTie, "bravo", vec![2]),
        ("bravo", RollStep::ReconReturn, "b-sq1", vec![4]),
        ("bravo", RollStep::NpfDispersion, "bravo", vec![5]),
        ("bravo", RollStep::NpfBlock, "bravo", vec![4, 2]),
        ("bravo", RollStep::ReconBlock, "bravo", vec![4]),
        ("alpha", RollStep::ReconBlock, "alpha", vec![6]),
    ];
    e.extend(mission_dice("alpha", [1, 1, 1, 1, 1, 6, 1, 1]));
    e.extend(mission_dice("bravo", [4, 1, 1, 4, 1, 1, 1, 1]));
    let mut d = all_dice(e);
    let config = ScenarioConfig {
        pre_battle_events: false,
        ..ScenarioConfig::default()
    };
    let mut s = Scenario::new(
        [
            SideSetup {
                force_id: "alpha".into(),
                force: alpha(),
                non_player: None,
            },
            SideSetup {
                force_id: "bravo".into(),
                force: bravo(),
                non_player: Some(NonPlayerSetup::default()),
            },
        ],
        config,
    )
    .unwrap();
    assert_eq!(s.state().waiting_for, ids(&["alpha"]));
    assert!(matches!(
        s.submit_orders(1, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d),
        Err(ScenarioError::Invalid(_))
    ));
    s.submit_orders(
        0,
        orders(Stance::Neutral, Attitude::Aggressive, &[]),
        &mut d,
    )
    .unwrap();
    // §3.12: rolled Offensive (1) and Cautious (3); S25: bravo-1 rolled 5 and sends b-sq1.
    let np = &s.sides[1];
    assert_eq!(
        (np.stance(), np.attitude()),
        (Some(Stance::Offensive), Some(Attitude::Cautious))
    );
    assert_eq!(np.recon_unit_ids(), ids(&["b-sq1"]));
    assert_eq!(np.recon_points, Some(2 + 2 + 2 + 2));
    assert_eq!(s.sides[0].recon_points, Some(2));
    // S27: the NP force won (1 + 8 against 1 + 2), so alpha deploys on a random edge (d4 = 3).
    assert_eq!(s.table_edge_chooser, Some(1));
    assert_eq!(s.random_player_edge, Some(Edge::South));
    // Only the player gives mission bonuses.
    assert_eq!(s.state().waiting_for, ids(&["alpha"]));
    s.submit_mission_bonuses(0, vec![], &mut d).unwrap();
    // The NP force tied Assault and Infiltrate at 6; a d2 of 2 picks Infiltrate.
    assert_eq!(
        s.sides[1].tied_missions,
        [Mission::Assault, Mission::Infiltrate]
    );
    assert_eq!(s.sides[1].mission, Some(Mission::Infiltrate));
    assert_eq!(s.sides[0].mission, Some(Mission::Patrol));
    // S12: Patrol's Elusive +1 dummy; Infiltrate's Stealth +1 dummy and +1 on b-sq1's return.
    assert_eq!(
        s.sides[0].contact_markers,
        Some(ContactMarkers {
            true_markers: 4,
            dummy: 8
        })
    );
    assert_eq!(s.sides[1].recon_duty[0].outcome, ReconOutcome::Delayed);
    assert_eq!(s.sides[1].recon_duty[0].total, Some(5));
    assert_eq!(
        s.sides[1].contact_markers,
        Some(ContactMarkers {
            true_markers: 3,
            dummy: 11
        })
    );
    assert_eq!(s.sides[1].dispersion, Some(Dispersion::Concentrated));
    assert_eq!(s.first_to_place_markers, Some(1));
    // Step 7: the NP side passes by itself; it blocks alpha's Reveal (4, then 4); alpha
    // counter-blocks (6); the NP does not answer (2). Alpha is then out of RP and the step ends.
    assert_eq!(s.state().recon_prompt, Some(ReconPrompt::Turn));
    s.recon_action(0, ReconAction::Reveal { marker: None }, &mut d)
        .unwrap();
    assert_eq!(s.state().recon_prompt, Some(ReconPrompt::Block));
    s.recon_action(0, ReconAction::Block, &mut d).unwrap();
    assert_eq!(s.state().state, ScenarioState::Ready);
    let recon = s.recon.clone().unwrap();
    assert_eq!(recon.lost, [0, 7]);
    assert!(d.unused().is_empty());
    // The player sees the NP stance but not its mission (S11).
    let view = s.view_for(Viewer::Side(0));
    assert_eq!(view.sides[1].stance, Some(Stance::Offensive));
    assert_eq!(view.sides[1].mission, None);
    assert_eq!(view.sides[1].dispersion, Some(Dispersion::Concentrated));
}

fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn s11_views_never_leak_the_other_sides_secrets() {
    let mut d = workflow_dice();
    let mut s = two_players(ScenarioConfig::default());
    s.submit_orders(
        0,
        orders(
            Stance::Offensive,
            Attitude::Cautious,
            &["alpha-scout", "alpha-recon"],
        ),
        &mut d,
    )
    .unwrap();
    // Steps 1–3 are secret until step 4.
    for viewer in [Viewer::Side(1), Viewer::Outsider] {
        let text = json(&s.view_for(viewer));
        for secret in [
            "\"offensive\"",
            "\"cautious\"",
            "alpha-scout",
            "\"recon_points\"",
        ] {
            assert!(
                !text.contains(secret),
                "{secret} leaked to {viewer:?}: {text}"
            );
        }
        // Even that side 0 has submitted is its secret until the step closes.
        assert!(!text.contains("\"orders_submitted\":true"), "{text}");
        assert_eq!(s.view_for(viewer).waiting_for, ids(&["alpha", "bravo"]));
    }
    assert!(json(&s.view_for(Viewer::Side(0))).contains("\"offensive\""));
    assert_eq!(s.view_for(Viewer::Side(0)).waiting_for, ids(&["bravo"]));

    s.submit_orders(1, bravo_orders(), &mut d).unwrap();
    // Step 4 reveals stance, attitude and RP; recon-duty units stay secret.
    let text = json(&s.view_for(Viewer::Side(1)));
    assert!(text.contains("\"offensive\"") && text.contains("\"recon_points\":9"));
    assert!(!text.contains("alpha-scout"));

    // Mission bonuses are secret (S8) and stay hidden with the missions (S11).
    s.submit_mission_bonuses(0, vec![Mission::Sweep, Mission::Strike], &mut d)
        .unwrap();
    let text = json(&s.view_for(Viewer::Side(1)));
    assert!(
        !text.contains("\"sweep\"") && !text.contains("\"strike\""),
        "{text}"
    );
    s.submit_mission_bonuses(1, vec![Mission::Hold, Mission::Interfere], &mut d)
        .unwrap();
    s.submit_mission_choice(0, Mission::Infiltrate, &mut d)
        .unwrap();
    for a in [
        ReconAction::Move { markers: vec![] },
        ReconAction::Block,
        ReconAction::Pass,
        ReconAction::Reveal { marker: None },
        ReconAction::Pass,
        ReconAction::Pass,
        ReconAction::Pass,
    ] {
        let side = usize::from(s.state().waiting_for == ["bravo"]);
        s.recon_action(side, a, &mut d).unwrap();
    }
    assert_eq!(s.state, ScenarioState::Ready);
    let log = d.take_log();
    for viewer in [Viewer::Side(1), Viewer::Outsider] {
        let view = s.view_for(viewer);
        let a = &view.sides[0];
        assert!(a.mission.is_none() && a.bonus.is_none() && a.mission_totals.is_none());
        assert!(
            a.contact_markers.is_none(),
            "the True/Dummy split is secret"
        );
        assert_eq!(a.contact_marker_total, Some(9));
        let text = json(a);
        for secret in [
            "\"infiltrate\"",
            "\"infiltration\"",
            "\"stealth\"",
            "\"dummy\"",
            "\"sweep\"",
            "\"total\":6",
        ] {
            assert!(
                !text.contains(secret),
                "{secret} leaked to {viewer:?}: {text}"
            );
        }
        // Recon outcomes are public at the end, without the rolls.
        let duty = a.recon_duty.clone().unwrap();
        assert!(duty.iter().all(|d| d.roll.is_none() && d.total.is_none()));
        assert_eq!(duty[1].outcome, ReconOutcome::Delayed);
        let rolls = s.visible_rolls(&log, viewer);
        assert!(
            rolls
                .iter()
                .all(|r| !(r.force_id.as_deref() == Some("alpha")
                    && matches!(r.step, RollStep::Mission | RollStep::ReconReturn)))
        );
        assert!(rolls.iter().any(|r| r.step == RollStep::TableEdge));
    }
    // Bravo's Hold is likewise hidden from alpha, including its field defences and objectives.
    let view = s.view_for(Viewer::Side(0));
    assert_eq!(
        view.sides[1]
            .field_defences
            .as_ref()
            .map(|f| f.max_field_defences),
        Some(6)
    );
    assert!(view.objectives.iter().all(|o| o.needed_by.is_empty()));
    assert_eq!(view.sides[0].mission, Some(Mission::Infiltrate));
    assert_eq!(s.visible_rolls(&log, Viewer::Everything).len(), log.len());
    assert_eq!(
        s.visible_rolls(&log, Viewer::Side(0))
            .iter()
            .filter(|r| r.step == RollStep::Mission)
            .count(),
        8
    );

    // S11 house rule off: missions are shown once decided.
    let mut open = s.clone();
    open.config.house_rules.missions_hidden = false;
    let view = open.view_for(Viewer::Side(1));
    assert_eq!(view.sides[0].mission, Some(Mission::Infiltrate));
    assert_eq!(
        view.sides[0].mission_bonuses,
        Some(vec![Mission::Sweep, Mission::Strike])
    );
}

fn one_shot_side(force_id: &str, force: Force, stance: Stance, attitude: Attitude) -> OneShotSide {
    OneShotSide {
        force_id: force_id.into(),
        force,
        non_player: false,
        stance: Some(stance),
        attitude: Some(attitude),
        mission_bonuses: vec![],
        recon_unit_ids: vec![],
        attached_unit_ids: vec![],
        holo_projectors: 0,
    }
}

#[test]
fn one_shot_picks_a_tied_mission_with_a_die_of_as_many_faces() {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> =
        vec![("alpha", RollStep::MissionTie, "alpha", vec![3])];
    e.extend(mission_dice("alpha", [3, 2, 1, 4, 1, 2, 5, 4]));
    e.extend(mission_dice("bravo", [1, 1, 2, 1, 3, 1, 1, 1]));
    let mut d = all_dice(e);
    let mut a = one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Cautious);
    a.mission_bonuses = vec![Mission::Sweep, Mission::Strike];
    let mut b = one_shot_side("bravo", bravo(), Stance::Defensive, Attitude::Passive);
    b.mission_bonuses = vec![Mission::Hold, Mission::Interfere];
    let s = generate([a, b], ScenarioConfig::default(), &mut d).unwrap();
    assert_eq!(s.sides[0].mission, Some(Mission::Sweep));
    assert_eq!(s.sides[1].mission, Some(Mission::Hold));
    let log = d.take_log();
    let tie: Vec<_> = log
        .iter()
        .filter(|r| r.step == RollStep::MissionTie)
        .collect();
    assert_eq!(tie.len(), 1);
    assert_eq!(
        (tie[0].dice.as_str(), tie[0].values.as_slice()),
        ("1d3", [3].as_slice())
    );
    // Step 7 is not played in one-shot mode; the RP are reported.
    assert!(s.recon.is_none());
    assert_eq!(s.sides[0].recon_points, Some(3 + 2));
    assert!(log.iter().all(|r| r.step != RollStep::ReconBlock));
    assert_eq!(s.state, ScenarioState::Ready);
}

#[test]
fn one_shot_reports_every_problem_before_rolling() {
    let mut d = SideDice::server(ServerDice::seeded(1));
    let mut a = one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Cautious);
    a.stance = None;
    a.recon_unit_ids = ids(&["ghost"]);
    let mut b = one_shot_side("bravo", bravo(), Stance::Defensive, Attitude::Passive);
    b.non_player = true;
    b.mission_bonuses = vec![Mission::Hold];
    let Err(ScenarioError::Invalid(p)) = generate([a, b], ScenarioConfig::default(), &mut d) else {
        panic!("expected problems");
    };
    let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["sides[0].stance", "sides[1].mission_bonuses"]);
    assert!(d.take_log().is_empty());
    let mut a = one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Cautious);
    a.recon_unit_ids = ids(&["ghost"]);
    let b = one_shot_side("bravo", bravo(), Stance::Defensive, Attitude::Passive);
    let Err(ScenarioError::Invalid(p)) = generate([a, b], ScenarioConfig::default(), &mut d) else {
        panic!("expected problems");
    };
    assert_eq!(p[0].field, "sides[0].recon_unit_ids[0]");
}

#[test]
fn one_shot_takes_recon_units_by_name_and_s14_strict_marker_house_rule() {
    let mut force = alpha();
    force.platoons[0].units[0].name = "Scouts".into();
    let mut a = one_shot_side("alpha", force, Stance::Neutral, Attitude::Cautious);
    a.recon_unit_ids = ids(&["Scouts"]);
    let mut b = one_shot_side("bravo", bravo(), Stance::Neutral, Attitude::Cautious);
    b.attached_unit_ids = ids(&["b-char"]);
    let mut d = SideDice::server(ServerDice::seeded(5));
    let s = generate([a.clone(), b.clone()], ScenarioConfig::default(), &mut d).unwrap();
    assert_eq!(s.sides[0].recon_unit_ids(), ids(&["alpha-scout"]));
    let shared = s.sides[1].contact_markers.unwrap().true_markers;
    let mut config = ScenarioConfig::default();
    config.house_rules.strict_one_marker_per_unit = true;
    let mut d = SideDice::server(ServerDice::seeded(5));
    let strict = generate([a, b], config, &mut d).unwrap();
    assert_eq!(
        strict.sides[1].contact_markers.unwrap().true_markers,
        shared + 1
    );
}

#[test]
fn finished_scenario_serializes_with_the_api_field_names() {
    let mut d = SideDice::server(ServerDice::seeded(11));
    let s = generate(
        [
            one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Aggressive),
            one_shot_side("bravo", bravo(), Stance::Defensive, Attitude::Cautious),
        ],
        ScenarioConfig::default(),
        &mut d,
    )
    .unwrap();
    let view: serde_json::Value = serde_json::to_value(s.view_for(Viewer::Everything)).unwrap();
    for key in [
        "state",
        "table_edge_chooser",
        "first_to_place_markers",
        "escalating_engagement",
        "objectives",
        "sides",
    ] {
        assert!(view.get(key).is_some(), "{key}");
    }
    let side = &view["sides"][0];
    for key in [
        "stance",
        "attitude",
        "recon_points",
        "table_edge_roll",
        "deployment_zone_inches",
        "field_defences",
        "mission",
        "mission_totals",
        "contact_markers",
        "recon_duty",
        "bonus",
        "pre_battle_events",
    ] {
        assert!(side.get(key).is_some(), "{key} in {side}");
    }
    assert!(
        side["contact_markers"].get("true").is_some()
            && side["contact_markers"].get("dummy").is_some()
    );
    assert_eq!(view["state"], "ready");
    // The stored state round-trips through JSON.
    let back: Scenario = serde_json::from_str(&json(&s)).unwrap();
    assert_eq!(back, s);
}

fn stance_of(i: usize) -> Stance {
    [Stance::Offensive, Stance::Neutral, Stance::Defensive][i]
}

fn attitude_of(i: usize) -> Attitude {
    [Attitude::Aggressive, Attitude::Cautious, Attitude::Passive][i]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn one_shot_is_reproducible_and_its_counts_hold(
        seed in any::<u64>(), sa in 0usize..3, aa in 0usize..3, sb in 0usize..3, ab in 0usize..3,
        scout in any::<bool>(), np in any::<bool>()
    ) {
        let mut a = one_shot_side("alpha", alpha(), stance_of(sa), attitude_of(aa));
        if scout {
            a.recon_unit_ids = ids(&["alpha-scout", "alpha-recon", "alpha-apc"]);
        }
        let mut b = one_shot_side("bravo", bravo(), stance_of(sb), attitude_of(ab));
        b.non_player = np;
        let run = |seed| {
            let mut d = SideDice::server(ServerDice::seeded(seed));
            let s = generate([a.clone(), b.clone()], ScenarioConfig::default(), &mut d).unwrap();
            (s, d.take_log())
        };
        let (s1, log1) = run(seed);
        let (s2, log2) = run(seed);
        prop_assert_eq!(&s1, &s2);
        prop_assert_eq!(&log1, &log2);
        prop_assert_eq!(s1.state, ScenarioState::Ready);
        let recon_units = if scout { 3 } else { 0 };
        prop_assert_eq!(
            s1.sides[0].recon_points,
            Some(crate::scenario::recon_points::recon_points(stance_of(sa), attitude_of(aa), 1, recon_units))
        );
        for (i, side) in s1.sides.iter().enumerate() {
            let markers = side.contact_markers.unwrap_or_default();
            let placed: u32 = s1.marker_placement.iter().filter(|b| b.side == i).map(|b| b.count).sum();
            prop_assert_eq!(placed, if s1.escalating_engagement { 0 } else { markers.total() });
            // True markers never exceed the units on the table plus Strike's sniper.
            prop_assert!(markers.true_markers <= side.force.units().count() as u32 + 1);
            prop_assert!(side.mission.is_some());
            let top = side.mission_totals.values().max().copied();
            if !s1.escalating_engagement {
                prop_assert_eq!(side.mission.and_then(|m| side.mission_totals.get(&m).copied()), top);
            }
        }
        // Every roll is logged against one of the two sides.
        prop_assert!(log1.iter().all(|r| matches!(r.force_id.as_deref(), Some("alpha" | "bravo"))));
    }
}

#[test]
fn s3_c12_p_is_the_platoon_count_and_never_below_one() {
    // Bravo has two platoons: 2 RP, 2 × 5 dummies, 2 units a turn in an Escalating Engagement.
    let mut d = SideDice::server(ServerDice::seeded(2));
    let empty = Force {
        name: "empty".into(),
        platoons: vec![],
    };
    let s = generate(
        [
            one_shot_side("bravo", bravo(), Stance::Offensive, Attitude::Aggressive),
            one_shot_side("empty", empty, Stance::Offensive, Attitude::Aggressive),
        ],
        ScenarioConfig::default(),
        &mut d,
    )
    .unwrap();
    assert_eq!(s.sides[0].recon_points, Some(2 + 2));
    assert_eq!(s.sides[1].recon_points, Some(1 + 2));
    if !s.escalating_engagement {
        assert_eq!(
            s.sides[1].contact_markers,
            Some(ContactMarkers {
                true_markers: u32::from(s.sides[1].mission == Some(Mission::Strike)),
                dummy: 5
            })
        );
    }
}

#[test]
fn s12_bonus_traits_count_for_markers_and_the_return_roll_at_once() {
    // Alpha rolls Patrol (Elusive: +1 dummy); bravo Interfere (Recon on b-sq1: +1 on return).
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> =
        vec![("bravo", RollStep::ReconReturn, "b-sq1", vec![5])];
    e.extend(mission_dice("alpha", [1, 1, 1, 1, 1, 6, 1, 1]));
    e.extend(mission_dice("bravo", [1, 1, 1, 1, 6, 1, 1, 1]));
    let mut d = all_dice(e);
    let a = one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Aggressive);
    let mut b = one_shot_side("bravo", bravo(), Stance::Offensive, Attitude::Aggressive);
    b.recon_unit_ids = ids(&["b-sq1"]);
    let s = generate([a, b], ScenarioConfig::default(), &mut d).unwrap();
    assert_eq!(s.sides[0].mission, Some(Mission::Patrol));
    assert_eq!(s.sides[1].mission, Some(Mission::Interfere));
    assert_eq!(s.sides[0].contact_markers.map(|m| m.dummy), Some(5 + 1));
    assert_eq!(s.sides[1].recon_duty[0].total, Some(6));
    assert_eq!(s.sides[1].recon_duty[0].outcome, ReconOutcome::Returned);
    assert_eq!(s.sides[1].bonus_traits[0].unit_id.as_deref(), Some("b-sq1"));
    // Agile has no generation effect: it goes to the first fielded squad without it.
    assert_eq!(s.sides[0].bonus_traits[0].trait_, Trait::Agile);
    assert_eq!(
        s.sides[0].bonus_traits[0].unit_id.as_deref(),
        Some("alpha-scout")
    );
    assert_eq!(
        s.sides[0].bonus_traits[0].unit_name.as_deref(),
        Some("alpha-scout")
    );
}

#[test]
fn s20_offensive_and_interfere_artillery_roll_on_the_off_board_table() {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        (
            "alpha",
            RollStep::PreBattleEvent,
            "offensive_artillery",
            vec![6],
        ),
        (
            "alpha",
            RollStep::PreBattleEventTable,
            "offensive_artillery",
            vec![6],
        ),
        (
            "bravo",
            RollStep::PreBattleEvent,
            "interfere_artillery",
            vec![6],
        ),
        (
            "bravo",
            RollStep::PreBattleEventTable,
            "interfere_artillery",
            vec![5],
        ),
    ];
    e.extend(mission_dice("alpha", [1, 1, 1, 1, 1, 6, 1, 1]));
    e.extend(mission_dice("bravo", [1, 1, 1, 1, 6, 1, 1, 1]));
    let mut d = all_dice(e);
    let s = generate(
        [
            one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Aggressive),
            one_shot_side("bravo", bravo(), Stance::Defensive, Attitude::Cautious),
        ],
        ScenarioConfig::default(),
        &mut d,
    )
    .unwrap();
    let find = |side: usize, id: &str| {
        s.sides[side]
            .pre_battle_events
            .iter()
            .find(|e| e.unit_id == id)
            .map(|e| (e.table, e.event.clone()))
    };
    use crate::scenario::pre_battle::PreBattleTable;
    assert_eq!(
        find(0, "offensive_artillery"),
        Some((PreBattleTable::OffBoard, "well_oiled_crew".into()))
    );
    assert_eq!(
        find(1, "interfere_artillery"),
        Some((PreBattleTable::OffBoard, "pre_registered".into()))
    );
    let view = s.view_for(Viewer::Everything);
    assert_eq!(view.sides[0].artillery_calls, Some(2));
    assert_eq!(view.sides[0].under_fire_ignores, Some(3));
    assert_eq!(view.sides[1].artillery_calls, Some(1));
    // With missions hidden, alpha sees bravo's stance calls (none) but not Interfere's call.
    let view = s.view_for(Viewer::Side(0));
    assert_eq!(view.sides[1].artillery_calls, Some(0));
    assert!(
        view.sides[1]
            .pre_battle_events
            .as_ref()
            .unwrap()
            .iter()
            .all(|e| e.unit_id != "interfere_artillery")
    );
}

#[test]
fn s11_assault_declares_one_far_objective_hidden_like_the_mission() {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        ("alpha", RollStep::TableEdge, "alpha", vec![6]),
        ("bravo", RollStep::TableEdge, "bravo", vec![1]),
    ];
    e.extend(mission_dice("alpha", [6, 1, 1, 1, 1, 1, 1, 1]));
    e.extend(mission_dice("bravo", [1, 1, 6, 1, 1, 1, 1, 1]));
    let mut d = all_dice(e);
    let mut s = two_players(ScenarioConfig {
        pre_battle_events: false,
        ..ScenarioConfig::default()
    });
    s.submit_orders(
        0,
        orders(Stance::Offensive, Attitude::Aggressive, &[]),
        &mut d,
    )
    .unwrap();
    s.submit_orders(1, orders(Stance::Defensive, Attitude::Passive, &[]), &mut d)
        .unwrap();
    assert!(matches!(
        s.declare_assault_target(0, "o5"),
        Err(ScenarioError::Conflict(_))
    ));
    s.submit_mission_bonuses(0, vec![], &mut d).unwrap();
    s.submit_mission_bonuses(1, vec![], &mut d).unwrap();
    assert_eq!(s.sides[0].mission, Some(Mission::Assault));
    // Alpha chose the edge and placed o1 (near), o3 (middle), o5 (far); bravo's o2/o4/o6 are
    // mirrored, so alpha's far objectives are o5 and o2.
    assert!(matches!(
        s.declare_assault_target(0, "o1"),
        Err(ScenarioError::Invalid(_))
    ));
    assert!(matches!(
        s.declare_assault_target(1, "o1"),
        Err(ScenarioError::Conflict(_))
    ));
    s.declare_assault_target(0, "o2").unwrap();
    assert!(matches!(
        s.declare_assault_target(0, "o5"),
        Err(ScenarioError::Conflict(_))
    ));
    let needed: Vec<_> = s
        .objectives
        .iter()
        .filter(|o| o.needed_by.contains(&"alpha".to_owned()))
        .map(|o| o.id.as_str())
        .collect();
    assert_eq!(needed, ["o2"]);
    assert_eq!(
        s.view_for(Viewer::Side(0)).sides[0]
            .assault_target
            .as_deref(),
        Some("o2")
    );
    assert_eq!(s.view_for(Viewer::Side(1)).sides[0].assault_target, None);
}

#[test]
fn entered_dice_subjects_are_checked_against_the_scenario() {
    let s = two_players(ScenarioConfig::default());
    assert!(s.dice_subject_allowed(0, RollStep::TableEdge, "alpha"));
    assert!(!s.dice_subject_allowed(0, RollStep::TableEdge, "bravo"));
    assert!(s.dice_subject_allowed(0, RollStep::Mission, "hold"));
    assert!(!s.dice_subject_allowed(0, RollStep::Mission, "escalating_engagement"));
    assert!(s.dice_subject_allowed(0, RollStep::ReconReturn, "alpha-scout"));
    assert!(!s.dice_subject_allowed(0, RollStep::ReconReturn, "b-sq1"));
    assert!(s.dice_subject_allowed(1, RollStep::PreBattleEvent, "b-guns"));
    assert!(s.dice_subject_allowed(1, RollStep::PreBattleEvent, "bonus_sniper"));
    assert!(s.dice_subject_allowed(1, RollStep::NpfRecon, "bravo-2"));
    assert!(!s.dice_subject_allowed(0, RollStep::Replacement, "alpha-scout"));
    assert!(!s.dice_subject_allowed(2, RollStep::TableEdge, "alpha"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of inputs, valid or not, leaves the machine consistent, and answering what
    /// it asks for always reaches `ready`; RP are only ever spent, one per Move, Reveal or Block.
    #[test]
    fn interactive_runs_always_reach_ready_and_rp_add_up(
        seed in any::<u64>(),
        choices in proptest::collection::vec(0usize..100, 40..120),
        sa in 0usize..3, aa in 0usize..3, sb in 0usize..3, ab in 0usize..3,
        np in any::<bool>(),
    ) {
        let mut d = SideDice::server(ServerDice::seeded(seed));
        let mut s = Scenario::new(
            [
                SideSetup { force_id: "alpha".into(), force: alpha(), non_player: None },
                SideSetup {
                    force_id: "bravo".into(),
                    force: bravo(),
                    non_player: np.then(NonPlayerSetup::default),
                },
            ],
            ScenarioConfig::default(),
        )
        .unwrap();
        let mut pick = choices.into_iter().cycle();
        let mut steps = 0;
        while s.state != ScenarioState::Ready {
            steps += 1;
            prop_assert!(steps < 500, "stuck in {:?}", s.state());
            let c = pick.next().unwrap_or(0);
            let info = s.state();
            let side = s.side_index(&info.waiting_for[c % info.waiting_for.len()]).unwrap();
            let before = s.clone();
            let result = match info.state {
                ScenarioState::Orders => {
                    let (st, at) = if side == 0 { (sa, aa) } else { (sb, ab) };
                    let recon: &[&str] = if side == 0 { &["alpha-scout", "alpha-apc"] } else { &["b-sq1", "b-sq3"] };
                    s.submit_orders(side, orders(stance_of(st), attitude_of(at), &recon[..c % 3]), &mut d)
                }
                ScenarioState::MissionBonuses => {
                    let m = Mission::ROLLED[c % 8];
                    let n = Mission::ROLLED[(c / 8) % 8];
                    s.submit_mission_bonuses(side, vec![m, n], &mut d)
                }
                ScenarioState::MissionChoice => {
                    let tied = s.sides[side].tied_missions.clone();
                    s.submit_mission_choice(side, Mission::ROLLED[c % 8], &mut d)
                        .or_else(|_| s.submit_mission_choice(side, tied[c % tied.len()], &mut d))
                }
                ScenarioState::Recon => {
                    let action = match c % 4 {
                        0 => ReconAction::Move { markers: vec![] },
                        1 => ReconAction::Reveal { marker: None },
                        2 => ReconAction::Block,
                        _ => ReconAction::Pass,
                    };
                    s.recon_action(side, action.clone(), &mut d)
                        .or_else(|_| s.recon_action(side, ReconAction::Pass, &mut d))
                }
                ScenarioState::Ready => Ok(()),
            };
            if result.is_err() {
                // A refused input changes nothing.
                prop_assert_eq!(&s, &before);
            }
            if let (Some(now), Some(then)) = (&s.recon, &before.recon) {
                prop_assert!(now.points[0] <= then.points[0] && now.points[1] <= then.points[1]);
            }
        }
        if let Some(recon) = &s.recon {
            prop_assert!(recon.finished);
            prop_assert_eq!(recon.lost, recon.points);
            for side in 0..2 {
                let spent = recon
                    .log
                    .iter()
                    .filter(|e| e.side == side && e.action != crate::scenario::recon_phase::ReconActionKind::Pass)
                    .count() as u32;
                prop_assert_eq!(spent + recon.points[side], s.sides[side].recon_points.unwrap_or(0));
            }
        } else {
            prop_assert!(s.escalating_engagement);
        }
    }
}
#[test]
fn api_bodies_deserialize_with_the_force_id_beside_them() {
    let a: ReconAction = serde_json::from_str(r#"{"force_id":"alpha","action":"pass"}"#).unwrap();
    assert_eq!(a, ReconAction::Pass);
    let a: ReconAction = serde_json::from_str(r#"{"force_id":"alpha","action":"block"}"#).unwrap();
    assert_eq!(a, ReconAction::Block);
    let a: ReconAction =
        serde_json::from_str(r#"{"force_id":"alpha","action":"move","markers":["m1","m2"]}"#)
            .unwrap();
    assert_eq!(
        a,
        ReconAction::Move {
            markers: ids(&["m1", "m2"])
        }
    );
    let a: ReconAction = serde_json::from_str(r#"{"action":"reveal"}"#).unwrap();
    assert_eq!(a, ReconAction::Reveal { marker: None });
    assert!(serde_json::from_str::<ReconAction>(r#"{"action":"ambush"}"#).is_err());
    let o: Orders = serde_json::from_str(
        r#"{"force_id":"alpha","stance":"offensive","attitude":"cautious","recon_unit_ids":["alpha-scout"]}"#,
    )
    .unwrap();
    assert_eq!(
        o,
        orders(Stance::Offensive, Attitude::Cautious, &["alpha-scout"])
    );
    assert!(
        serde_json::from_str::<Orders>(r#"{"stance":"aggressive","attitude":"cautious"}"#).is_err()
    );
}

/// Alpha Assault, Bravo Sweep, both Offensive/Aggressive (no trait changes the markers).
fn assault_and_sweep_dice(extra: Vec<(&'static str, RollStep, &'static str, Vec<u8>)>) -> SideDice {
    let mut e = extra;
    e.extend(mission_dice("alpha", [6, 1, 1, 1, 1, 1, 1, 1]));
    e.extend(mission_dice("bravo", [1, 1, 1, 1, 1, 1, 1, 6]));
    all_dice(e)
}

#[test]
fn c16_s14_an_unrepaired_damaged_vehicle_is_not_fielded_anywhere() {
    use crate::kit::VehicleState;
    let mut force = alpha();
    force.platoons[0].units[3].vehicle_state = Some(VehicleState::Damaged);
    let a = one_shot_side("alpha", force, Stance::Offensive, Attitude::Aggressive);
    let b = one_shot_side("bravo", bravo(), Stance::Offensive, Attitude::Aggressive);
    let mut d = assault_and_sweep_dice(vec![]);
    let s = generate([a.clone(), b.clone()], ScenarioConfig::default(), &mut d).unwrap();
    // S14: the scout, recon and HQ squads; not the damaged APC.
    assert_eq!(s.sides[0].contact_markers.unwrap().true_markers, 3);
    let log = d.take_log();
    assert!(
        log.iter()
            .all(|r| r.step != RollStep::PreBattleEvent || r.subject != "alpha-apc"),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|r| r.step == RollStep::PreBattleEvent && r.subject == "alpha-hq")
    );
    // Recon duty naming it is refused at its path.
    let mut a = a;
    a.recon_unit_ids = ids(&["alpha-apc"]);
    let Err(ScenarioError::Invalid(p)) = generate(
        [a, b],
        ScenarioConfig::default(),
        &mut SideDice::server(ServerDice::seeded(1)),
    ) else {
        panic!("expected problems");
    };
    assert_eq!(p[0].field, "sides[0].recon_unit_ids[0]");
}

#[test]
fn s12_every_bonus_trait_names_a_fielded_unit() {
    use crate::kit::VehicleState;
    let mut force = alpha();
    // The first squad is eliminated: the traits skip it.
    force.platoons[0].units[0].status = crate::roster::UnitStatus::Eliminated;
    force.platoons[0].units[3].vehicle_state = Some(VehicleState::Damaged);
    let a = one_shot_side("alpha", force, Stance::Offensive, Attitude::Aggressive);
    let b = one_shot_side("bravo", bravo(), Stance::Offensive, Attitude::Aggressive);
    let s = generate(
        [a, b],
        ScenarioConfig::default(),
        &mut assault_and_sweep_dice(vec![]),
    )
    .unwrap();
    let named: Vec<_> = s.sides[0]
        .bonus_traits
        .iter()
        .map(|b| (b.trait_, b.unit_id.as_deref(), b.unit_name.as_deref()))
        .collect();
    assert_eq!(
        named,
        [
            (
                Trait::AssaultTroops,
                Some("alpha-recon"),
                Some("alpha-recon")
            ),
            (Trait::Hardened, Some("alpha-recon"), Some("alpha-recon")),
        ]
    );
    assert!(
        s.sides[1]
            .bonus_traits
            .iter()
            .all(|b| b.unit_id.as_deref() == Some("b-sq1"))
    );
}

#[test]
fn rules_3_6_night_fighting_rolls_a_d6_of_dummies_per_side() {
    let config = ScenarioConfig {
        night_fighting: true,
        ..ScenarioConfig::default()
    };
    let a = one_shot_side("alpha", alpha(), Stance::Offensive, Attitude::Aggressive);
    let b = one_shot_side("bravo", bravo(), Stance::Offensive, Attitude::Aggressive);
    let mut d = assault_and_sweep_dice(vec![
        ("alpha", RollStep::NightFighting, "alpha", vec![5]),
        ("bravo", RollStep::NightFighting, "bravo", vec![2]),
    ]);
    let s = generate([a.clone(), b.clone()], config, &mut d).unwrap();
    // Offensive: 5 per platoon; bravo has 2 platoons.
    assert_eq!(s.sides[0].contact_markers.unwrap().dummy, 5 + 5);
    assert_eq!(s.sides[1].contact_markers.unwrap().dummy, 10 + 2);
    assert_eq!(s.sides[0].night_fighting_roll, Some(5));
    let night: Vec<_> = d
        .take_log()
        .into_iter()
        .filter(|r| r.step == RollStep::NightFighting)
        .map(|r| (r.subject, r.values, r.source))
        .collect();
    assert_eq!(
        night,
        [
            ("alpha".to_owned(), vec![5], RollSource::Player),
            ("bravo".to_owned(), vec![2], RollSource::Player)
        ]
    );
    // Each side sees its own roll only.
    assert_eq!(
        s.view_for(Viewer::Side(0)).sides[0].night_fighting_roll,
        Some(5)
    );
    assert_eq!(
        s.view_for(Viewer::Side(0)).sides[1].night_fighting_roll,
        None
    );
    assert!(s.view_for(Viewer::Outsider).night_fighting);
    // By day nothing is rolled and the step takes no dice.
    let mut d = assault_and_sweep_dice(vec![]);
    let day = generate([a, b], ScenarioConfig::default(), &mut d).unwrap();
    assert_eq!(day.sides[0].contact_markers.unwrap().dummy, 5);
    assert!(
        d.take_log()
            .iter()
            .all(|r| r.step != RollStep::NightFighting)
    );
    assert!(!day.dice_subject_allowed(0, RollStep::NightFighting, "alpha"));
    assert!(s.dice_subject_allowed(0, RollStep::NightFighting, "alpha"));
    assert!(!s.dice_subject_allowed(0, RollStep::NightFighting, "bravo"));
}

/// Both sides through orders, then mission bonuses with alpha naming `units`; alpha rolls
/// Patrol (Agile + Elusive), bravo Hold.
fn patrol_with_named_units(units: &[(&str, &str)]) -> Result<Scenario, ScenarioError> {
    let mut e: Vec<(&str, RollStep, &str, Vec<u8>)> = vec![
        ("alpha", RollStep::TableEdge, "alpha", vec![1]),
        ("bravo", RollStep::TableEdge, "bravo", vec![6]),
    ];
    e.extend(mission_dice("alpha", [1, 1, 1, 1, 1, 6, 1, 1]));
    e.extend(mission_dice("bravo", [1, 1, 6, 1, 1, 1, 1, 1]));
    let mut d = all_dice(e);
    let mut s = two_players(ScenarioConfig::default());
    s.submit_orders(0, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d)
        .unwrap();
    s.submit_orders(1, orders(Stance::Defensive, Attitude::Passive, &[]), &mut d)
        .unwrap();
    let named: BTreeMap<String, String> = units
        .iter()
        .map(|(t, u)| ((*t).to_owned(), (*u).to_owned()))
        .collect();
    s.submit_mission_bonuses_with_units(0, vec![], &named, &mut d)?;
    s.submit_mission_bonuses(1, vec![], &mut d).unwrap();
    Ok(s)
}

#[test]
fn rules_3_10_the_player_names_the_unit_for_a_bonus_trait() {
    // Default: the fixed order (Agile to the first squad, Elusive to the first unit with
    // neither Elusive nor Stealth).
    let s = patrol_with_named_units(&[]).unwrap();
    assert_eq!(s.sides[0].mission, Some(Mission::Patrol));
    let went: Vec<_> = s.sides[0]
        .bonus_traits
        .iter()
        .map(|b| (b.trait_, b.unit_id.clone().unwrap()))
        .collect();
    assert_eq!(
        went,
        [
            (Trait::Agile, "alpha-scout".to_owned()),
            (Trait::Elusive, "alpha-scout".to_owned())
        ]
    );
    // Named: each named trait goes where the player said; a name for a trait the mission does
    // not grant is kept and unused.
    let s = patrol_with_named_units(&[
        ("agile", "alpha-hq"),
        ("elusive", "alpha-apc"),
        ("hardened", "alpha-recon"),
    ])
    .unwrap();
    let went: Vec<_> = s.sides[0]
        .bonus_traits
        .iter()
        .map(|b| (b.trait_, b.unit_id.clone().unwrap()))
        .collect();
    assert_eq!(
        went,
        [
            (Trait::Agile, "alpha-hq".to_owned()),
            (Trait::Elusive, "alpha-apc".to_owned())
        ]
    );
}

#[test]
fn rules_3_10_a_named_unit_must_be_of_the_force_and_on_the_table() {
    let Err(ScenarioError::Invalid(problems)) = patrol_with_named_units(&[
        ("agile", "b-sq1"),
        ("elusive", "nobody"),
        ("fanatic", "alpha-hq"),
    ]) else {
        panic!("accepted");
    };
    let fields: Vec<_> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "bonus_units.agile",
            "bonus_units.elusive",
            "bonus_units.fanatic"
        ]
    );
    let mut off_board = two_players(ScenarioConfig::default());
    let guns = BTreeMap::from([("agile".to_owned(), "b-guns".to_owned())]);
    let mut d = SideDice::server(ServerDice::seeded(1));
    off_board
        .submit_orders(0, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d)
        .unwrap();
    off_board
        .submit_orders(1, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d)
        .unwrap();
    let Err(ScenarioError::Invalid(p)) =
        off_board.submit_mission_bonuses_with_units(1, vec![], &guns, &mut d)
    else {
        panic!("accepted an off-board unit");
    };
    assert_eq!(p[0].field, "bonus_units.agile");
    assert!(
        p[0].message.contains("not on the table"),
        "{}",
        p[0].message
    );
}

#[test]
fn next_dice_announce_each_steps_rolls_until_ready() {
    let mut d = workflow_dice();
    let mut s = two_players(ScenarioConfig::default());
    let steps = |s: &Scenario| {
        let mut v: Vec<RollStep> = s.next_dice().iter().map(|r| r.step).collect();
        v.dedup();
        v
    };
    assert_eq!(steps(&s), [RollStep::TableEdge]);
    assert!(
        s.next_dice()
            .iter()
            .all(|r| r.dice == "1d6" && !r.why.is_empty())
    );
    s.submit_orders(
        0,
        orders(Stance::Offensive, Attitude::Cautious, &["alpha-scout"]),
        &mut d,
    )
    .unwrap();
    s.submit_orders(1, bravo_orders(), &mut d).unwrap();
    assert_eq!(s.state, ScenarioState::MissionBonuses);
    let next = s.next_dice();
    assert_eq!(
        next.iter().filter(|r| r.step == RollStep::Mission).count(),
        16
    );
    let returns: Vec<_> = next
        .iter()
        .filter(|r| r.step == RollStep::ReconReturn)
        .map(|r| {
            (
                r.force_id.as_str(),
                r.subject.as_str(),
                r.unit_name.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        returns,
        [
            ("alpha", "alpha-scout", Some("alpha-scout")),
            ("bravo", "b-sq1", Some("b-sq1"))
        ]
    );
}

#[test]
fn next_dice_in_the_recon_phase_include_blocks_and_pre_battle_events() {
    let mut s = two_players(ScenarioConfig::default());
    let mut d = SideDice::server(ServerDice::seeded(4));
    s.submit_orders(0, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d)
        .unwrap();
    s.submit_orders(1, orders(Stance::Neutral, Attitude::Cautious, &[]), &mut d)
        .unwrap();
    s.submit_mission_bonuses(0, vec![], &mut d).unwrap();
    s.submit_mission_bonuses(1, vec![], &mut d).unwrap();
    for i in 0..2 {
        if s.state == ScenarioState::MissionChoice && s.sides[i].rolled_mission.is_none() {
            let m = s.sides[i].tied_missions[0];
            s.submit_mission_choice(i, m, &mut d).unwrap();
        }
    }
    if s.state != ScenarioState::Recon {
        return; // an Escalating Engagement has no recon phase
    }
    let next = s.next_dice();
    assert!(next.iter().any(|r| r.step == RollStep::ReconBlock));
    let events: Vec<_> = next
        .iter()
        .filter(|r| r.step == RollStep::PreBattleEvent && r.force_id == "bravo")
        .map(|r| r.subject.as_str())
        .collect();
    assert!(
        events.contains(&"b-guns") && events.contains(&"b-sq3"),
        "{events:?}"
    );
}
