//! Dice and the roll log (docs/rules.md C22).
//!
//! Rules never touch a random number generator: they ask a [`Dice`] for the values of one roll,
//! named by its step and subject, and the roll is appended to the [`RollLog`]. Two sources exist:
//! [`ServerDice`] (ChaCha20, seeded by the caller: from the OS in the service, fixed in tests) and
//! [`TableDice`], which first uses the values the players rolled at the table and entered, and
//! lets the server roll whatever was not entered. Entered values a rule never called for are
//! reported by [`TableDice::unused`].

use std::collections::{BTreeMap, VecDeque};

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::fair_dice::{CommittedSeed, DieStream, RollProof, seed_hex};
use crate::named_enum;
use crate::names::Named;

named_enum! {
    /// Which rule a roll is for.
    pub enum RollStep("step") {
        /// Activation order.
        Initiative = "initiative",
        /// Step 4 table-edge roll (1d6 + RP), and the random edge for a player facing an NP force.
        TableEdge = "table_edge",
        /// One d6 per mission per side; subject is the mission name.
        Mission = "mission",
        /// Recon-duty return roll.
        ReconReturn = "recon_return",
        /// Marker placement order tie-break.
        PlacementOrder = "placement_order",
        /// A Block's 4+.
        ReconBlock = "recon_block",
        /// The d6 per unit for a pre-battle event (6 triggers).
        PreBattleEvent = "pre_battle_event",
        /// The d6 on the unit type's pre-battle table.
        PreBattleEventTable = "pre_battle_event_table",
        /// The generator's uniform pick among tied missions.
        MissionTie = "mission_tie",
        /// Non-player stance.
        NpfStance = "npf_stance",
        /// Non-player attitude.
        NpfAttitude = "npf_attitude",
        /// Non-player per-platoon recon roll.
        NpfRecon = "npf_recon",
        /// Non-player marker dispersion.
        NpfDispersion = "npf_dispersion",
        /// Non-player decision to block (4+).
        NpfBlock = "npf_block",
        /// Night fighting's extra dummy markers (1d6 per side; subject is the force id).
        NightFighting = "night_fighting",
        /// Infantry replacements.
        Replacement = "replacement",
        /// Vehicle replacements.
        VehicleReplacement = "vehicle_replacement",
        /// Quality loss.
        QualityLoss = "quality_loss",
        /// Unknown Resolve: a unit's Resolve rolled the first time it took casualties.
        UnknownResolve = "unknown_resolve",
        /// Resolve change.
        ResolveChange = "resolve_change",
        /// The 2d6 reinforcement pool.
        Reinforcements = "reinforcements",
        /// Extra reinforcement dice bought with CP.
        ReinforcementsExtra = "reinforcements_extra",
        /// Force generation tables (the roll's `detail` names the table).
        ForceGeneration = "force_generation",
        /// Narrative tables.
        Narrative = "narrative",
        /// An uncontrolled group's Discipline Test (3d6; subject is the group's name).
        Discipline = "discipline",
        /// FMA's casualty examination: one d6 per figure down at the end of the battle (M4).
        Casualty = "casualty",
        /// FMA force generation: one marker drawn from the pool per figure, a die with as many
        /// sides as markers are left (M10; subject is the team's name).
        MarkerDraw = "marker_draw",
    }
}

impl RollStep {
    /// Whether a rule may roll for one subject more than once in a sequence (a tied table-edge
    /// or placement roll is re-rolled, the random edge follows the edge roll, a side blocks many
    /// times, generation and narrative tables roll per entry): its entry may then hold the
    /// values of several rolls. Every other step rolls once per subject.
    pub fn may_roll_again(self) -> bool {
        matches!(
            self,
            Self::TableEdge
                | Self::PlacementOrder
                | Self::ReconBlock
                | Self::NpfBlock
                | Self::ForceGeneration
                | Self::Narrative
                | Self::MarkerDraw
        )
    }

    /// The largest value an entered die of this step may show before its roll is known: 6, or
    /// for the marker draw the largest pool (its roll then checks the pool's own size).
    pub fn largest_entered(self) -> u8 {
        match self {
            Self::MarkerDraw => {
                u8::try_from(crate::rulesets::gzg_fma_1999::markers::MAX_POOL).unwrap_or(u8::MAX)
            }
            _ => 6,
        }
    }

    /// Dice one roll of this step takes (the reinforcement pool is 2d6, a Discipline Test 3d6,
    /// every other roll 1d6).
    pub fn dice_per_roll(self) -> usize {
        match self {
            Self::Reinforcements => 2,
            Self::Discipline => 3,
            _ => 1,
        }
    }
}

/// The entry-time half of the one dice check, for values entered before their roll is made (a
/// battle's scenario keeps them until the step that rolls): a step rolled once per subject
/// takes exactly [`RollStep::dice_per_roll`] values. The roll-time half is
/// [`surplus`]; both give [`DiceError::TooMany`] or [`DiceError::WrongCount`].
pub fn check_entry_count(step: RollStep, subject: &str, given: usize) -> Option<DiceError> {
    let needed = step.dice_per_roll();
    if given < needed {
        return Some(DiceError::WrongCount {
            step,
            subject: subject.to_owned(),
            needed,
            given,
        });
    }
    (!step.may_roll_again() && given > needed).then(|| DiceError::TooMany {
        step,
        subject: subject.to_owned(),
        used: needed,
        given,
    })
}

/// The roll-time half of the one dice check, shared by every dice source: an entry some roll
/// drew from but did not use up (two values for a one-die roll) is a typo, and the request is
/// refused rather than half-using it. Entries no roll drew from are not surplus: they are
/// reported as unused. Items are (step, subject, values given, values left).
pub fn surplus<'a>(
    entries: impl Iterator<Item = (RollStep, &'a str, usize, usize)>,
) -> Vec<DiceError> {
    entries
        .filter_map(|(step, subject, given, left)| {
            let used = given - left.min(given);
            (used > 0 && left > 0).then(|| DiceError::TooMany {
                step,
                subject: subject.to_owned(),
                used,
                given,
            })
        })
        .collect()
}

/// Takes one roll's values from an entered queue (shared by every dice source): too few left is
/// [`DiceError::WrongCount`], a value above the die is [`DiceError::OutOfRange`].
pub fn draw(queue: &mut VecDeque<u8>, request: &RollRequest<'_>) -> Result<Vec<u8>, DiceError> {
    if queue.len() < request.count {
        return Err(DiceError::WrongCount {
            step: request.step,
            subject: request.subject.to_owned(),
            needed: request.count,
            given: queue.len(),
        });
    }
    let values: Vec<u8> = queue.drain(..request.count).collect();
    if let Some(bad) = values.iter().find(|v| **v > request.sides) {
        return Err(DiceError::OutOfRange {
            step: request.step,
            subject: request.subject.to_owned(),
            value: *bad,
            sides: request.sides,
        });
    }
    Ok(values)
}

/// Where a roll's values came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RollSource {
    /// The service rolled.
    Server,
    /// The players rolled at the table and entered the values.
    Player,
}

/// One entry of the roll log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Roll {
    /// The rule the roll is for.
    pub step: RollStep,
    /// What it was rolled for: a unit id, force id or mission name.
    pub subject: String,
    /// The side it belongs to, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The dice, for example `1d6` or `2d6`.
    pub dice: String,
    /// One value per die.
    pub values: Vec<u8>,
    /// The sum of the values.
    pub total: u32,
    /// Who rolled.
    pub source: RollSource,
    /// Which table, for force generation and narrative rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// For server dice from a committed seed: the seed revealed and where the roll starts in its
    /// stream, so anyone can recompute it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<RollProof>,
}

/// The rolls of one workflow step, in the order they were made.
pub type RollLog = Vec<Roll>;

/// What a rule asks for: `count` dice of `sides` sides for `step` and `subject`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollRequest<'a> {
    /// The rule.
    pub step: RollStep,
    /// What is rolled for.
    pub subject: &'a str,
    /// The side, if any.
    pub force_id: Option<&'a str>,
    /// Number of dice.
    pub count: usize,
    /// Sides per die (6 for every FAD table; fewer for uniform picks such as a random edge).
    pub sides: u8,
    /// Which table, where the step has several.
    pub detail: Option<&'a str>,
}

impl<'a> RollRequest<'a> {
    /// `count` d6 for `step` and `subject`.
    pub fn d6(step: RollStep, subject: &'a str, count: usize) -> Self {
        Self {
            step,
            subject,
            force_id: None,
            count,
            sides: 6,
            detail: None,
        }
    }
    /// The same request, naming its side.
    #[must_use]
    pub fn for_force(mut self, force_id: &'a str) -> Self {
        self.force_id = Some(force_id);
        self
    }
    /// The same request, naming its table.
    #[must_use]
    pub fn with_detail(mut self, detail: &'a str) -> Self {
        self.detail = Some(detail);
        self
    }
    /// The same request with another die size.
    #[must_use]
    pub fn with_sides(mut self, sides: u8) -> Self {
        self.sides = sides;
        self
    }
}

/// A problem with player-entered dice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A value outside the die's range.
    #[error("{}: {}", .step.title(), self.message())]
    OutOfRange {
        /// The step.
        step: RollStep,
        /// The subject.
        subject: String,
        /// The value.
        value: u8,
        /// The die size.
        sides: u8,
    },
    /// Fewer values left than the roll needs.
    #[error("{}: {}", .step.title(), self.message())]
    WrongCount {
        /// The step.
        step: RollStep,
        /// The subject.
        subject: String,
        /// Dice the roll needs.
        needed: usize,
        /// Values that were left.
        given: usize,
    },
    /// More values entered than the roll took (the roll was made: a typo would be half-used).
    #[error("{}: {}", .step.title(), self.message())]
    TooMany {
        /// The step.
        step: RollStep,
        /// The subject.
        subject: String,
        /// Values the roll(s) took.
        used: usize,
        /// Values entered.
        given: usize,
    },
    /// A subject that is not part of the request.
    #[error("{}: {}", .step.title(), self.message())]
    UnknownSubject {
        /// The step.
        step: RollStep,
        /// The subject.
        subject: String,
    },
}

impl DiceError {
    /// The dotted path of the offending entry, for problem+json `errors[].field`.
    pub fn field(&self) -> String {
        match self {
            Self::OutOfRange { step, subject, .. }
            | Self::WrongCount { step, subject, .. }
            | Self::TooMany { step, subject, .. }
            | Self::UnknownSubject { step, subject } => format!("dice.{step}.{subject}"),
        }
    }

    /// The step and subject of the offending entry.
    pub fn step_subject(&self) -> (RollStep, &str) {
        match self {
            Self::OutOfRange { step, subject, .. }
            | Self::WrongCount { step, subject, .. }
            | Self::TooMany { step, subject, .. }
            | Self::UnknownSubject { step, subject } => (*step, subject),
        }
    }

    /// The problem in plain words, without the field (which [`Self::field`] names).
    pub fn message(&self) -> String {
        let dice = |n: usize| {
            if n == 1 {
                "1 die".to_owned()
            } else {
                format!("{n} dice")
            }
        };
        let entered = |n: usize| match n {
            0 => "none were".to_owned(),
            1 => "1 was".to_owned(),
            n => format!("{n} were"),
        };
        match self {
            Self::OutOfRange { value, sides, .. } => {
                format!("{value} is not a face of the die: enter a number from 1 to {sides}")
            }
            Self::WrongCount { needed, given, .. } => format!(
                "Enter {} ({needed}d6), one number per die; {} entered",
                dice(*needed),
                entered(*given)
            ),
            Self::TooMany { used, given, .. } => format!(
                "Enter {} ({used}d6), one number per die; {} entered",
                dice(*used),
                entered(*given)
            ),
            Self::UnknownSubject { .. } => {
                "No roll of this request is for this unit or force".to_owned()
            }
        }
    }
}

/// The source of dice a rule rolls with; every roll goes to the log.
pub trait Dice {
    /// Produces the values of one roll and says who rolled them.
    fn produce(&mut self, request: &RollRequest<'_>) -> Result<(Vec<u8>, RollSource), DiceError>;
    /// The log so far.
    fn log(&self) -> &RollLog;
    /// Appends to the log.
    fn record(&mut self, roll: Roll);

    /// Rolls and logs; returns the values.
    fn roll(&mut self, request: RollRequest<'_>) -> Result<Vec<u8>, DiceError> {
        let (values, source) = self.produce(&request)?;
        self.record(Roll {
            step: request.step,
            subject: request.subject.to_owned(),
            force_id: request.force_id.map(str::to_owned),
            dice: format!("{}d{}", request.count, request.sides),
            total: values.iter().map(|v| u32::from(*v)).sum(),
            values: values.clone(),
            source,
            detail: request.detail.map(str::to_owned),
            proof: None,
        });
        Ok(values)
    }

    /// Rolls one d6 and returns it.
    fn d6(
        &mut self,
        step: RollStep,
        subject: &str,
        force_id: Option<&str>,
    ) -> Result<u8, DiceError> {
        let mut request = RollRequest::d6(step, subject, 1);
        request.force_id = force_id;
        Ok(self.roll(request)?.first().copied().unwrap_or(1))
    }
}

/// Server dice: ChaCha20 seeded by the caller, or the verifiable stream of a committed seed.
#[derive(Debug, Clone)]
pub struct ServerDice {
    rng: ChaCha20Rng,
    log: RollLog,
    committed: Option<(DieStream, CommittedSeed)>,
    /// The proof of the roll just produced, stamped on it when it is recorded.
    pending_proof: Option<RollProof>,
}

impl ServerDice {
    /// Dice from a 32-byte seed (the service draws it from the OS).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Self::from_rng(ChaCha20Rng::from_seed(seed))
    }
    /// Dice from a small seed, for reproducible tests.
    pub fn seeded(seed: u64) -> Self {
        Self::from_rng(ChaCha20Rng::seed_from_u64(seed))
    }
    /// Verifiable dice: every die comes from the committed seed's stream (see
    /// [`crate::fair_dice`]), and every roll records its proof.
    pub fn committed(seed: CommittedSeed) -> Self {
        let stream = DieStream::new(&seed.seed, seed.client_seed.as_deref());
        let mut dice = Self::from_rng(ChaCha20Rng::from_seed(seed.seed));
        dice.committed = Some((stream, seed));
        dice
    }
    fn from_rng(rng: ChaCha20Rng) -> Self {
        Self {
            rng,
            log: Vec::new(),
            committed: None,
            pending_proof: None,
        }
    }
    /// Puts the proof of the roll just produced on `roll`, if the server rolled it from a
    /// committed seed.
    pub fn stamp(&mut self, roll: &mut Roll) {
        if let Some(proof) = self.pending_proof.take()
            && roll.source == RollSource::Server
        {
            roll.proof = Some(proof);
        }
    }
    /// Whether any die came from the committed seed (so the commitment is spent).
    pub fn used_commitment(&self) -> bool {
        self.committed
            .as_ref()
            .is_some_and(|(stream, _)| stream.position() > 0)
    }
    /// One fair die of `sides` sides (rejection sampling, no modulo bias).
    pub fn die(&mut self, sides: u8) -> u8 {
        if let Some((stream, _)) = &mut self.committed {
            return stream.die(sides);
        }
        let sides = u32::from(sides.max(1));
        let zone = u32::MAX - (u32::MAX % sides);
        loop {
            let x = self.rng.next_u32();
            if x < zone {
                return (x % sides) as u8 + 1;
            }
        }
    }
    /// Takes the log, leaving it empty.
    pub fn take_log(&mut self) -> RollLog {
        std::mem::take(&mut self.log)
    }
}

impl Dice for ServerDice {
    fn produce(&mut self, request: &RollRequest<'_>) -> Result<(Vec<u8>, RollSource), DiceError> {
        self.pending_proof = self.committed.as_ref().map(|(stream, seed)| RollProof {
            commitment_id: seed.commitment_id.clone(),
            seed: seed_hex(&seed.seed),
            client_seed: seed.client_seed.clone(),
            first_die: stream.position(),
        });
        Ok((
            (0..request.count)
                .map(|_| self.die(request.sides))
                .collect(),
            RollSource::Server,
        ))
    }
    fn log(&self) -> &RollLog {
        &self.log
    }
    fn record(&mut self, mut roll: Roll) {
        self.stamp(&mut roll);
        self.log.push(roll);
    }
}

/// Values the players entered, keyed by step and then subject, one per die,
/// consumed in order (a re-rolled tie takes the next values of the same key).
pub type EnteredDice = BTreeMap<RollStep, BTreeMap<String, Vec<u8>>>;

/// The OpenAPI schema of [`EnteredDice`]: step → subject → values (one per die, 1–6).
#[cfg(feature = "openapi")]
pub struct EnteredDiceSchema;

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for EnteredDiceSchema {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
        let die = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1))
            .maximum(Some(6));
        let subjects = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "subject (a unit id, force id, mission name, …) → values",
            ))
            .additional_properties(Some(ArrayBuilder::new().items(die)))
            .build();
        let mut steps = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("Entered dice by roll step, then subject."))
            .additional_properties(Some(
                AdditionalProperties::<utoipa::openapi::schema::Schema>::FreeForm(false),
            ));
        for step in RollStep::ALL {
            steps = steps.property(step.name(), subjects.clone());
        }
        steps.into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for EnteredDiceSchema {}

/// Player dice with server fallback: entered values are used first, the rest is rolled.
#[derive(Debug, Clone)]
pub struct TableDice {
    entered: BTreeMap<(RollStep, String), VecDeque<u8>>,
    given: BTreeMap<(RollStep, String), usize>,
    server: ServerDice,
}

impl TableDice {
    /// Checks every entered value against the die (d6 for every step but the marker draw, whose
    /// die is as large as the pool: [`draw`] checks it against the roll) and builds the source.
    pub fn new(entered: &EnteredDice, server: ServerDice) -> Result<Self, Vec<DiceError>> {
        let mut errors = Vec::new();
        let mut queues = BTreeMap::new();
        for (step, subjects) in entered {
            for (subject, values) in subjects {
                let sides = step.largest_entered();
                for value in values {
                    if !(1..=sides).contains(value) {
                        errors.push(DiceError::OutOfRange {
                            step: *step,
                            subject: subject.clone(),
                            value: *value,
                            sides,
                        });
                    }
                }
                queues.insert((*step, subject.clone()), values.iter().copied().collect());
            }
        }
        if errors.is_empty() {
            Ok(Self {
                given: queues
                    .iter()
                    .map(|(k, q): (&(RollStep, String), &VecDeque<u8>)| (k.clone(), q.len()))
                    .collect(),
                entered: queues,
                server,
            })
        } else {
            Err(errors)
        }
    }

    /// Refuses entered subjects that the request does not contain.
    pub fn check_subjects(
        &self,
        allowed: impl Fn(RollStep, &str) -> bool,
    ) -> Result<(), Vec<DiceError>> {
        let errors: Vec<_> = self
            .entered
            .keys()
            .filter(|(step, subject)| !allowed(*step, subject))
            .map(|(step, subject)| DiceError::UnknownSubject {
                step: *step,
                subject: subject.clone(),
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Entered values no roll used, by step and subject.
    pub fn unused(&self) -> EnteredDice {
        let mut out = EnteredDice::new();
        for ((step, subject), queue) in &self.entered {
            if !queue.is_empty() {
                out.entry(*step)
                    .or_default()
                    .insert(subject.clone(), queue.iter().copied().collect());
            }
        }
        out
    }

    /// Entries some roll drew from but did not use up ([`surplus`]).
    pub fn surplus(&self) -> Vec<DiceError> {
        surplus(self.entered.iter().map(|(key, queue)| {
            let given = self.given.get(key).copied().unwrap_or(0);
            (key.0, key.1.as_str(), given, queue.len())
        }))
    }

    /// Takes the log, leaving it empty.
    pub fn take_log(&mut self) -> RollLog {
        self.server.take_log()
    }

    /// Rolls what was not entered from `seed`'s verifiable stream (before any roll).
    pub fn use_committed(&mut self, seed: CommittedSeed) {
        self.server = ServerDice::committed(seed);
    }

    /// Whether a server roll used the committed seed.
    pub fn used_commitment(&self) -> bool {
        self.server.used_commitment()
    }
}

impl Dice for TableDice {
    fn produce(&mut self, request: &RollRequest<'_>) -> Result<(Vec<u8>, RollSource), DiceError> {
        let key = (request.step, request.subject.to_owned());
        match self.entered.get_mut(&key) {
            Some(queue) if !queue.is_empty() => Ok((draw(queue, request)?, RollSource::Player)),
            _ => self.server.produce(request),
        }
    }
    fn log(&self) -> &RollLog {
        self.server.log()
    }
    fn record(&mut self, roll: Roll) {
        self.server.record(roll);
    }
}

/// Parses an API `dice` object whose step names are strings; unknown steps are errors.
pub fn parse_steps(
    raw: &BTreeMap<String, BTreeMap<String, Vec<u8>>>,
) -> Result<EnteredDice, Vec<crate::names::UnknownName>> {
    let mut out = EnteredDice::new();
    let mut errors = Vec::new();
    for (step, subjects) in raw {
        match RollStep::parse(step) {
            Ok(step) => {
                out.insert(step, subjects.clone());
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed(client_seed: Option<&str>) -> ServerDice {
        ServerDice::committed(CommittedSeed {
            commitment_id: "c1".into(),
            seed: [9; 32],
            client_seed: client_seed.map(str::to_owned),
        })
    }

    #[test]
    fn committed_server_rolls_carry_a_proof_that_recomputes_them() {
        use crate::fair_dice::{DiceSpec, commitment_of, parse_seed, recompute};
        let mut dice = TableDice::new(
            &BTreeMap::from([(
                RollStep::QualityLoss,
                BTreeMap::from([("u2".to_owned(), vec![4])]),
            )]),
            committed(Some("my text")),
        )
        .unwrap();
        dice.roll(RollRequest::d6(RollStep::Replacement, "u1", 2))
            .unwrap();
        dice.roll(RollRequest::d6(RollStep::QualityLoss, "u2", 1))
            .unwrap();
        dice.roll(RollRequest::d6(RollStep::Reinforcements, "pool", 3))
            .unwrap();
        let log = dice.take_log();
        assert!(log[1].proof.is_none(), "an entered roll has no proof");
        let first = log[0].proof.clone().unwrap();
        let third = log[2].proof.clone().unwrap();
        assert_eq!((first.first_die, third.first_die), (0, 2));
        assert_eq!(first.client_seed.as_deref(), Some("my text"));
        let seed = parse_seed(&first.seed).unwrap();
        assert_eq!(commitment_of(&seed), commitment_of(&[9; 32]));
        let again = recompute(
            &seed,
            Some("my text"),
            0,
            &[
                DiceSpec { count: 2, sides: 6 },
                DiceSpec { count: 3, sides: 6 },
            ],
        );
        assert_eq!(again, vec![log[0].values.clone(), log[2].values.clone()]);
    }

    #[test]
    fn uncommitted_server_rolls_carry_no_proof_and_serialize_as_before() {
        let mut dice = ServerDice::seeded(3);
        dice.roll(RollRequest::d6(RollStep::Replacement, "u1", 1))
            .unwrap();
        assert!(dice.log()[0].proof.is_none());
        let json = serde_json::to_string(&dice.log()[0]).unwrap();
        assert!(!json.contains("proof"), "{json}");
        assert!(!dice.used_commitment());
    }

    #[test]
    fn a_commitment_counts_as_used_once_a_die_came_from_it() {
        let mut dice = committed(None);
        assert!(!dice.used_commitment());
        dice.roll(RollRequest::d6(RollStep::Replacement, "u1", 1))
            .unwrap();
        assert!(dice.used_commitment());
    }

    #[test]
    fn the_same_seed_gives_the_same_rolls() {
        let mut a = ServerDice::seeded(7);
        let mut b = ServerDice::seeded(7);
        for _ in 0..50 {
            a.roll(RollRequest::d6(RollStep::Replacement, "u1", 2))
                .unwrap();
            b.roll(RollRequest::d6(RollStep::Replacement, "u1", 2))
                .unwrap();
        }
        assert_eq!(a.log(), b.log());
    }

    #[test]
    fn server_dice_are_fair_over_many_seeded_rolls() {
        let mut dice = ServerDice::seeded(42);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(dice.die(6)) - 1] += 1;
        }
        // Chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value.
        let chi: f64 = counts
            .iter()
            .map(|c| (f64::from(*c) - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 20.5, "chi-square {chi} for {counts:?}");
    }

    #[test]
    fn a_roll_is_logged_with_step_subject_force_and_total() {
        let mut dice = ServerDice::seeded(1);
        let values = dice
            .roll(RollRequest::d6(RollStep::Reinforcements, "f1", 2).for_force("f1"))
            .unwrap();
        let roll = &dice.log()[0];
        assert_eq!(roll.dice, "2d6");
        assert_eq!(roll.values, values);
        assert_eq!(roll.total, u32::from(values[0] + values[1]));
        assert_eq!(roll.force_id.as_deref(), Some("f1"));
        assert_eq!(roll.source, RollSource::Server);
    }

    #[test]
    fn entered_values_are_used_in_order_then_the_server_rolls() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::TableEdge)
            .or_default()
            .insert("a".into(), vec![3, 5]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        assert_eq!(dice.d6(RollStep::TableEdge, "a", None).unwrap(), 3);
        assert_eq!(dice.d6(RollStep::TableEdge, "a", None).unwrap(), 5);
        dice.d6(RollStep::TableEdge, "a", None).unwrap();
        let sources: Vec<_> = dice.log().iter().map(|r| r.source).collect();
        assert_eq!(
            sources,
            [RollSource::Player, RollSource::Player, RollSource::Server]
        );
    }

    #[test]
    fn entered_values_out_of_range_are_refused() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Replacement)
            .or_default()
            .insert("u".into(), vec![7, 0]);
        let errors = TableDice::new(&entered, ServerDice::seeded(1)).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].field(), "dice.replacement.u");
    }

    #[test]
    fn too_few_entered_values_for_a_roll_is_an_error() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Reinforcements)
            .or_default()
            .insert("f".into(), vec![4]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        let err = dice
            .roll(RollRequest::d6(RollStep::Reinforcements, "f", 2))
            .unwrap_err();
        assert!(matches!(
            err,
            DiceError::WrongCount {
                needed: 2,
                given: 1,
                ..
            }
        ));
    }

    #[test]
    fn values_no_rule_called_for_are_reported_unused() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::QualityLoss)
            .or_default()
            .insert("u".into(), vec![2]);
        entered
            .entry(RollStep::Replacement)
            .or_default()
            .insert("u".into(), vec![4]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        dice.d6(RollStep::Replacement, "u", None).unwrap();
        let unused = dice.unused();
        assert_eq!(unused.len(), 1);
        assert_eq!(unused[&RollStep::QualityLoss]["u"], vec![2]);
    }

    #[test]
    fn values_left_over_by_a_roll_that_was_made_are_surplus() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Replacement)
            .or_default()
            .insert("u".into(), vec![4, 5]);
        entered
            .entry(RollStep::QualityLoss)
            .or_default()
            .insert("u".into(), vec![2]);
        let mut dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        dice.d6(RollStep::Replacement, "u", None).unwrap();
        let surplus = dice.surplus();
        assert_eq!(surplus.len(), 1);
        assert_eq!(surplus[0].field(), "dice.replacement.u");
        assert!(surplus[0].message().contains("2 were entered"));
    }

    #[test]
    fn unknown_subjects_and_steps_are_refused() {
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Replacement)
            .or_default()
            .insert("nobody".into(), vec![4]);
        let dice = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        let errors = dice.check_subjects(|_, s| s == "u1").unwrap_err();
        assert_eq!(errors[0].field(), "dice.replacement.nobody");

        let mut raw = BTreeMap::new();
        raw.insert("replacment".to_owned(), BTreeMap::new());
        let errors = parse_steps(&raw).unwrap_err();
        assert!(errors[0].to_string().contains("`replacment` is not a step"));
    }

    #[test]
    fn entered_dice_reproduce_what_the_server_rolled() {
        let mut server = ServerDice::seeded(9);
        let rolled = server
            .roll(RollRequest::d6(RollStep::Mission, "hold", 1))
            .unwrap();
        let mut entered = EnteredDice::new();
        entered
            .entry(RollStep::Mission)
            .or_default()
            .insert("hold".into(), rolled.clone());
        let mut table = TableDice::new(&entered, ServerDice::seeded(1)).unwrap();
        assert_eq!(
            table
                .roll(RollRequest::d6(RollStep::Mission, "hold", 1))
                .unwrap(),
            rolled
        );
    }
}
