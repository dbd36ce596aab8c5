use super::*;
use crate::dice::{EnteredDice, RollStep, ServerDice, TableDice};
use crate::ladder::Quality;
use crate::roster::{Platoon, Unit};

fn unit(id: &str, quality: Quality, strength: u32) -> Unit {
    Unit {
        id: id.to_owned(),
        name: format!("Unit {id}"),
        quality,
        strength,
        starting_strength: strength,
        ..Unit::default()
    }
}

fn force() -> Force {
    Force {
        name: "Militia".to_owned(),
        platoons: vec![
            Platoon {
                name: "Platoon 1".to_owned(),
                units: vec![
                    unit("a", Quality::Regular, 6),
                    unit("b", Quality::Conscript, 4),
                ],
            },
            Platoon {
                name: "Platoon 2".to_owned(),
                units: vec![unit("c", Quality::Elite, 5)],
            },
        ],
    }
}

fn spec(name: &str, units: &[&str], approach: Approach) -> GroupSpec {
    GroupSpec {
        name: name.to_owned(),
        units: units.iter().map(|u| (*u).to_owned()).collect(),
        approach,
        objective: Some("the farmhouse".to_owned()),
        rallying_point: Some("the woods".to_owned()),
        discipline: None,
    }
}

fn state() -> SoloState {
    SoloState {
        groups: form_groups(
            &force(),
            &[
                spec("Left", &["a", "b"], Approach::Target),
                spec("Right", &["c"], Approach::Hold),
            ],
        )
        .unwrap(),
        ..SoloState::default()
    }
}

fn dice(entries: &[(&str, [u8; 3])]) -> TableDice {
    let mut entered = EnteredDice::new();
    for (name, values) in entries {
        entered
            .entry(RollStep::Discipline)
            .or_default()
            .insert((*name).to_owned(), values.to_vec());
    }
    TableDice::new(&entered, ServerDice::seeded(3)).unwrap()
}

fn fields(problems: &[Problem]) -> Vec<&str> {
    problems.iter().map(|p| p.field.as_str()).collect()
}

#[test]
fn groups_take_the_worst_quality_target_and_count_their_figures() {
    let s = state();
    assert_eq!(s.groups[0].discipline, 4);
    assert_eq!(s.groups[0].figures, 10);
    assert_eq!(s.groups[1].discipline, 2);
    assert_eq!(s.groups[1].objective.as_deref(), Some("the farmhouse"));
    let mut given = spec("Right", &["c"], Approach::Hold);
    given.discipline = Some(5);
    assert_eq!(form_groups(&force(), &[given]).unwrap()[0].discipline, 5);
}

#[test]
fn a_group_over_a_platoon_is_refused() {
    let err = form_groups(&force(), &[spec("All", &["a", "c"], Approach::Engage)]).unwrap_err();
    assert_eq!(fields(&err), ["groups[0].units"]);
    assert!(err[0].message.contains("Platoon 1 and Platoon 2"));
}

#[test]
fn a_unit_in_two_groups_is_refused() {
    let err = form_groups(
        &force(),
        &[
            spec("Left", &["a"], Approach::Engage),
            spec("Right", &["a", "b"], Approach::Hold),
        ],
    )
    .unwrap_err();
    assert_eq!(fields(&err), ["groups[1].units[0]"]);
    assert!(err[0].message.contains("already in group"));
    let twice = form_groups(&force(), &[spec("Left", &["a", "a"], Approach::Engage)]).unwrap_err();
    assert_eq!(fields(&twice), ["groups[0].units[1]"]);
}

#[test]
fn a_unit_not_in_the_force_an_empty_group_and_bad_names_are_refused() {
    let err = form_groups(
        &force(),
        &[
            spec("Left", &["zz"], Approach::Engage),
            spec(" ", &[], Approach::Hold),
            spec("left", &["c"], Approach::Hold),
        ],
    )
    .unwrap_err();
    assert_eq!(
        fields(&err),
        [
            "groups[0].units[0]",
            "groups[1].name",
            "groups[1].units",
            "groups[2].name"
        ]
    );
    let none = form_groups(&force(), &[]).unwrap_err();
    assert_eq!(fields(&none), ["groups"]);
}

#[test]
fn discipline_outside_2_to_5_and_long_texts_are_refused() {
    for bad in [0, 1, 6] {
        let mut s = spec("Left", &["a"], Approach::Engage);
        s.discipline = Some(bad);
        let err = form_groups(&force(), &[s]).unwrap_err();
        assert_eq!(fields(&err), ["groups[0].discipline"]);
    }
    let mut s = spec("Left", &["a"], Approach::Engage);
    s.objective = Some("x".repeat(MAX_TEXT_CHARS + 1));
    assert_eq!(
        fields(&form_groups(&force(), &[s]).unwrap_err()),
        ["groups[0].objective"]
    );
}

#[test]
fn three_and_two_passes_carry_out_the_approach() {
    let mut s = state();
    let turn = play_turn(
        &mut s,
        &[],
        &mut dice(&[("Left", [4, 5, 6]), ("Right", [1, 2, 1])]),
        None,
    )
    .unwrap();
    assert_eq!(turn.turn, 1);
    assert_eq!(turn.groups[0].passes, Some(3));
    assert_eq!(turn.groups[0].result, TestResult::CarryOut);
    assert!(
        turn.groups[0]
            .orders
            .starts_with("Target: Moves at combat speed")
    );
    assert!(turn.groups[0].orders.ends_with("Objective: the farmhouse."));
    assert_eq!(turn.groups[0].anchor, "solo-target");
    // Right is Elite (2+): 1, 2, 1 is one pass.
    assert_eq!(turn.groups[1].passes, Some(1));
    let turn = play_turn(
        &mut s,
        &[],
        &mut dice(&[("Left", [3, 4, 4]), ("Right", [2, 2, 1])]),
        None,
    )
    .unwrap();
    assert_eq!(turn.turn, 2);
    assert_eq!(turn.groups[0].passes, Some(2));
    assert_eq!(turn.groups[0].result, TestResult::CarryOut);
    assert_eq!(turn.groups[1].result, TestResult::CarryOut);
    assert_eq!(turn.groups[1].anchor, "solo-hold");
    assert_eq!(turn.rolls.len(), 2);
}

#[test]
fn one_pass_holds_and_improves_the_position() {
    let mut s = state();
    let turn = play_turn(
        &mut s,
        &[],
        &mut dice(&[("Left", [1, 3, 4]), ("Right", [2, 2, 2])]),
        None,
    )
    .unwrap();
    assert_eq!(turn.groups[0].result, TestResult::Hold);
    assert_eq!(turn.groups[0].anchor, "solo-one-pass");
    assert!(turn.groups[0].orders.contains("holds its current position"));
    assert!(!s.groups[0].falling_back);
}

#[test]
fn no_pass_falls_back_without_tests_until_it_arrives() {
    let mut s = state();
    let turn = play_turn(
        &mut s,
        &[],
        &mut dice(&[("Left", [1, 2, 3]), ("Right", [2, 2, 2])]),
        None,
    )
    .unwrap();
    assert_eq!(turn.groups[0].result, TestResult::FallBack);
    assert_eq!(turn.groups[0].passes, Some(0));
    assert!(s.groups[0].falling_back);
    // Next turn: no roll for Left, entered dice for it stay unused.
    let mut d = dice(&[("Left", [6, 6, 6]), ("Right", [2, 2, 2])]);
    let turn = play_turn(&mut s, &[], &mut d, None).unwrap();
    assert_eq!(turn.groups[0].result, TestResult::FallingBack);
    assert_eq!(turn.groups[0].passes, None);
    assert_eq!(turn.rolls.len(), 1);
    assert!(d.unused()[&RollStep::Discipline].contains_key("Left"));
    // It arrives: it tests again that turn.
    let turn = play_turn(
        &mut s,
        &["left".to_owned()],
        &mut dice(&[("Left", [6, 6, 6]), ("Right", [2, 2, 2])]),
        None,
    )
    .unwrap();
    assert_eq!(turn.arrived, ["Left"]);
    assert_eq!(turn.groups[0].result, TestResult::CarryOut);
    assert!(!s.groups[0].falling_back);
}

#[test]
fn arriving_needs_a_group_that_is_falling_back() {
    let mut s = state();
    let err = play_turn(
        &mut s,
        &["Right".to_owned(), "Nobody".to_owned()],
        &mut dice(&[]),
        None,
    )
    .unwrap_err();
    let TurnError::Invalid(problems) = err else {
        panic!("{err:?}")
    };
    assert_eq!(fields(&problems), ["arrived[0]", "arrived[1]"]);
    assert!(s.turns.is_empty());
    let mut empty = SoloState::default();
    assert_eq!(
        play_turn(&mut empty, &[], &mut dice(&[]), None).unwrap_err(),
        TurnError::NoGroups
    );
}

#[test]
fn wrong_dice_leave_the_state_as_it_was() {
    let mut s = state();
    let mut entered = EnteredDice::new();
    entered
        .entry(RollStep::Discipline)
        .or_default()
        .insert("Right".to_owned(), vec![2, 2]);
    let mut d = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
    let err = play_turn(&mut s, &[], &mut d, None).unwrap_err();
    assert!(matches!(err, TurnError::Dice(DiceError::WrongCount { .. })));
    assert!(s.turns.is_empty());
    assert_eq!(s, state());
}

#[test]
fn every_approach_carried_out_names_its_place() {
    let mut g = state().groups[0].clone();
    for (approach, ends) in [
        (Approach::Target, "Objective: the farmhouse."),
        (Approach::Engage, "Objective: the farmhouse."),
        (Approach::Hold, "Objective: the farmhouse."),
        (Approach::FallBack, "Rallying point: the woods."),
    ] {
        g.approach = approach;
        let (text, anchor) = orders(&g, TestResult::CarryOut);
        assert!(text.ends_with(ends), "{text}");
        assert_eq!(anchor, approach_row(approach).anchor);
    }
    let (text, anchor) = orders(&g, TestResult::FallingBack);
    assert!(text.contains("no test this turn"));
    assert_eq!(anchor, "solo-no-pass");
}

#[test]
fn half_the_group_lost_worsens_discipline_once_never_past_5() {
    let mut s = state();
    let e = add_casualties(&mut s, "Left", 4).unwrap();
    assert!(!e.aborted);
    assert_eq!(s.groups[0].discipline, 4);
    let e = add_casualties(&mut s, "left", 1).unwrap();
    assert!(e.aborted);
    assert_eq!(e.casualties, 5);
    assert_eq!(s.groups[0].discipline, 5);
    // Further losses do not worsen it again.
    let e = add_casualties(&mut s, "Left", 3).unwrap();
    assert!(!e.aborted);
    assert_eq!(s.groups[0].discipline, 5);
    assert_eq!(s.casualty_log.len(), 3);
    // A group at 5+ stays at 5+.
    let mut rabble = SoloState {
        groups: form_groups(
            &force(),
            &[GroupSpec {
                discipline: Some(5),
                ..spec("Right", &["c"], Approach::Hold)
            }],
        )
        .unwrap(),
        ..SoloState::default()
    };
    let e = add_casualties(&mut rabble, "Right", 3).unwrap();
    assert!(e.aborted);
    assert_eq!(e.discipline, 5);
}

#[test]
fn casualties_beyond_the_group_or_zero_are_refused() {
    let mut s = state();
    assert_eq!(
        add_casualties(&mut s, "Right", 0).unwrap_err().field,
        "lost"
    );
    assert_eq!(
        add_casualties(&mut s, "Right", 6).unwrap_err().field,
        "lost"
    );
    assert_eq!(
        add_casualties(&mut s, "Nobody", 1).unwrap_err().field,
        "name"
    );
    assert!(s.casualty_log.is_empty());
}

#[test]
fn ten_turns_with_server_dice_log_three_dice_per_test() {
    let mut s = state();
    let mut d = ServerDice::seeded(11);
    for n in 1..=10 {
        let arrived: Vec<String> = s
            .groups
            .iter()
            .filter(|g| g.falling_back)
            .map(|g| g.name.clone())
            .collect();
        let turn = play_turn(&mut s, &arrived, &mut d, Some("np")).unwrap();
        assert_eq!(turn.turn, n);
        for roll in &turn.rolls {
            assert_eq!(roll.dice, "3d6");
            assert_eq!(roll.force_id.as_deref(), Some("np"));
        }
    }
    assert_eq!(s.turns.len(), 10);
}
