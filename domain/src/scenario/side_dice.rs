//! Player-entered dice kept apart per side (C22: each player rolls for their own).
//!
//! [`crate::dice::TableDice`] keys entered values by step and subject only, but a scenario rolls
//! the same subjects for both sides (one `mission` roll per mission per side). [`SideDice`] also
//! keys them by the roll's `force_id`: a value a side entered is only ever used for that side's
//! rolls, and everything not entered is rolled by the server.

use std::collections::{BTreeMap, VecDeque};

use crate::dice::{
    Dice, DiceError, EnteredDice, Roll, RollLog, RollRequest, RollSource, ServerDice, draw, surplus,
};

/// Entered values per force id.
pub type EnteredBySide = BTreeMap<String, EnteredDice>;

type Key = (String, crate::dice::RollStep, String);

/// Dice with player-entered values per side and server fallback.
#[derive(Debug, Clone)]
pub struct SideDice {
    entered: BTreeMap<Key, VecDeque<u8>>,
    given: BTreeMap<Key, usize>,
    server: ServerDice,
    /// Server dice of a side's own committed seed: a seed revealed to one side must not let it
    /// recompute the other side's secret rolls.
    side_servers: BTreeMap<String, ServerDice>,
    /// The side whose dice produced the roll being recorded.
    produced_by: Option<String>,
}

impl SideDice {
    /// Checks every value is 1..=6 and builds the source.
    pub fn new(entered: &EnteredBySide, server: ServerDice) -> Result<Self, Vec<DiceError>> {
        let mut errors = Vec::new();
        let mut queues = BTreeMap::new();
        for (force, steps) in entered {
            for (step, subjects) in steps {
                for (subject, values) in subjects {
                    for value in values {
                        if !(1..=6).contains(value) {
                            errors.push(DiceError::OutOfRange {
                                step: *step,
                                subject: subject.clone(),
                                value: *value,
                                sides: 6,
                            });
                        }
                    }
                    queues.insert(
                        (force.clone(), *step, subject.clone()),
                        values.iter().copied().collect(),
                    );
                }
            }
        }
        if errors.is_empty() {
            Ok(Self {
                given: queues
                    .iter()
                    .map(|(k, q): (&Key, &VecDeque<u8>)| (k.clone(), q.len()))
                    .collect(),
                entered: queues,
                server,
                side_servers: BTreeMap::new(),
                produced_by: None,
            })
        } else {
            Err(errors)
        }
    }

    /// Server dice only.
    pub fn server(server: ServerDice) -> Self {
        Self {
            entered: BTreeMap::new(),
            given: BTreeMap::new(),
            server,
            side_servers: BTreeMap::new(),
            produced_by: None,
        }
    }

    /// The same source, rolling the dice of neither side from `dice`.
    #[must_use]
    pub fn with_shared_server(mut self, dice: ServerDice) -> Self {
        let log = self.server.take_log();
        self.server = dice;
        for roll in log {
            self.server.record(roll);
        }
        self
    }

    /// The same source, rolling `force_id`'s server dice from their own `dice`.
    #[must_use]
    pub fn with_side_server(mut self, force_id: &str, dice: ServerDice) -> Self {
        self.side_servers.insert(force_id.to_owned(), dice);
        self
    }

    /// Whether the shared dice or the side's own dice used their committed seed.
    pub fn used_commitment(&self, force_id: Option<&str>) -> bool {
        match force_id.and_then(|f| self.side_servers.get(f)) {
            Some(dice) => dice.used_commitment(),
            None => self.server.used_commitment(),
        }
    }

    /// Entered values no roll used, per force id.
    pub fn unused(&self) -> EnteredBySide {
        let mut out = EnteredBySide::new();
        for ((force, step, subject), queue) in &self.entered {
            if !queue.is_empty() {
                out.entry(force.clone())
                    .or_default()
                    .entry(*step)
                    .or_default()
                    .insert(subject.clone(), queue.iter().copied().collect());
            }
        }
        out
    }

    /// Entries some roll drew from but did not use up ([`surplus`]), with their force id.
    pub fn surplus(&self) -> Vec<(String, DiceError)> {
        self.entered
            .iter()
            .filter_map(|(key, queue)| {
                let given = self.given.get(key).copied().unwrap_or(0);
                surplus(std::iter::once((key.1, key.2.as_str(), given, queue.len())))
                    .pop()
                    .map(|e| (key.0.clone(), e))
            })
            .collect()
    }

    /// The entered (force, step, subject) keys, for checking them against a request.
    pub fn entered_keys(&self) -> impl Iterator<Item = (&str, crate::dice::RollStep, &str)> {
        self.entered
            .keys()
            .map(|(f, step, s)| (f.as_str(), *step, s.as_str()))
    }

    /// Takes the log, leaving it empty.
    pub fn take_log(&mut self) -> RollLog {
        self.server.take_log()
    }
}

impl Dice for SideDice {
    fn produce(&mut self, request: &RollRequest<'_>) -> Result<(Vec<u8>, RollSource), DiceError> {
        self.produced_by = None;
        let Some(force) = request.force_id else {
            return self.server.produce(request);
        };
        let key = (force.to_owned(), request.step, request.subject.to_owned());
        match self.entered.get_mut(&key) {
            Some(queue) if !queue.is_empty() => Ok((draw(queue, request)?, RollSource::Player)),
            _ => match self.side_servers.get_mut(force) {
                Some(dice) => {
                    self.produced_by = Some(force.to_owned());
                    dice.produce(request)
                }
                None => self.server.produce(request),
            },
        }
    }
    fn log(&self) -> &RollLog {
        self.server.log()
    }
    fn record(&mut self, mut roll: Roll) {
        if let Some(dice) = self
            .produced_by
            .take()
            .and_then(|force| self.side_servers.get_mut(&force))
        {
            dice.stamp(&mut roll);
        }
        self.server.record(roll);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::RollStep;

    #[test]
    fn each_side_rolls_from_its_own_committed_seed() {
        use crate::fair_dice::{CommittedSeed, DiceSpec, parse_seed, recompute};
        let seed = |id: &str, byte: u8| {
            ServerDice::committed(CommittedSeed {
                commitment_id: id.into(),
                seed: [byte; 32],
                client_seed: None,
            })
        };
        let mut dice = SideDice::server(seed("shared", 1))
            .with_side_server("a", seed("for-a", 2))
            .with_side_server("b", seed("for-b", 3));
        dice.roll(RollRequest::d6(RollStep::Mission, "m", 1).for_force("a"))
            .unwrap();
        dice.roll(RollRequest::d6(RollStep::Mission, "m", 1).for_force("b"))
            .unwrap();
        dice.roll(RollRequest::d6(RollStep::Initiative, "both", 2))
            .unwrap();
        dice.roll(RollRequest::d6(RollStep::Mission, "n", 1).for_force("a"))
            .unwrap();
        assert!(dice.used_commitment(Some("b")) && dice.used_commitment(None));
        let log = dice.take_log();
        let ids: Vec<_> = log
            .iter()
            .map(|r| r.proof.clone().unwrap().commitment_id)
            .collect();
        assert_eq!(ids, ["for-a", "for-b", "shared", "for-a"]);
        // Side a's revealed seed recomputes a's rolls and nothing of b's.
        let proof = log[3].proof.clone().unwrap();
        assert_eq!(proof.first_die, 1);
        let a = recompute(
            &parse_seed(&proof.seed).unwrap(),
            None,
            0,
            &[DiceSpec { count: 2, sides: 6 }],
        );
        assert_eq!(a[0], [log[0].values[0], log[3].values[0]]);
    }

    #[test]
    fn values_entered_by_one_side_are_not_used_for_the_other() {
        let mut entered = EnteredBySide::new();
        entered
            .entry("b".into())
            .or_default()
            .entry(RollStep::Mission)
            .or_default()
            .insert("hold".into(), vec![6]);
        let mut dice = SideDice::new(&entered, ServerDice::seeded(1)).unwrap();
        dice.roll(RollRequest::d6(RollStep::Mission, "hold", 1).for_force("a"))
            .unwrap();
        let b = dice
            .roll(RollRequest::d6(RollStep::Mission, "hold", 1).for_force("b"))
            .unwrap();
        assert_eq!(b, [6]);
        assert_eq!(dice.log()[0].source, RollSource::Server);
        assert_eq!(dice.log()[1].source, RollSource::Player);
        assert!(dice.unused().is_empty());
    }

    #[test]
    fn out_of_range_values_are_refused_and_a_small_die_checks_its_sides() {
        let mut entered = EnteredBySide::new();
        entered
            .entry("a".into())
            .or_default()
            .entry(RollStep::MissionTie)
            .or_default()
            .insert("a".into(), vec![3]);
        let mut dice = SideDice::new(&entered, ServerDice::seeded(1)).unwrap();
        let err = dice
            .roll(
                RollRequest::d6(RollStep::MissionTie, "a", 1)
                    .for_force("a")
                    .with_sides(2),
            )
            .unwrap_err();
        assert!(matches!(err, DiceError::OutOfRange { value: 3, .. }));
        entered
            .get_mut("a")
            .unwrap()
            .get_mut(&RollStep::MissionTie)
            .unwrap()
            .insert("a".into(), vec![0]);
        assert!(SideDice::new(&entered, ServerDice::seeded(1)).is_err());
    }
}
