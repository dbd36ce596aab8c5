//! Force generation (docs/rules.md §4.1, §4.2, F1–F10; S000 › BUILDING BASIC FORCES, ADVANCED FORCE
//! GENERATION): the player's choices in, a roster [`Force`] and its roll log out.
//!
//! [`generate`] validates the [`GenerationChoices`] (every problem with a dotted field path),
//! then rolls every table through the [`Dice`], each roll a `force_generation` roll whose `detail`
//! names the table. Subjects name what is rolled for: `force`, `force.artillery[k]`,
//! `force.character[k]`, `platoon[i]`, `platoon[i].squad[j]`, `platoon[i].heavy_weapon[k]`.
//! Entered dice for one subject are consumed in roll order; the order per subject is listed in
//! [`basic`] and [`advanced`]. [`subject_allowed`] checks an entered subject against the choices.
//!
//! Unit ids are deterministic, `p{platoon}-u{n}` (HQ first, then the squads in roll order, then
//! the extra units); the service renews them when it stores the force.
//!
//! Player decisions the text leaves open (which squads get Heavy armour, which squad is the
//! Veteran one, ...) are optional choices with documented defaults. A pick that names a squad the
//! dice did not produce is skipped and reported in [`Generated::notes`].

pub mod advanced;
pub mod basic;
mod draft;
pub mod options;
pub mod priorities;
pub mod roll;

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceError, RollLog};
use crate::house_rules::HouseRules;
use crate::named_enum;
use crate::roster::{Force, Problem};

pub use advanced::AdvancedChoices;
pub use basic::BasicChoices;
pub use options::GenerationOptions;
pub use priorities::{Category, Priorities, Priority};

/// The most platoons a generated force may have (including the attacker's extra platoon).
pub const MAX_PLATOONS: u32 = 8;

/// The request: `{"method": "basic" | "advanced", "platoons": n, ...choices}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum GenerationChoices {
    /// Basic force generation (docs/rules.md §4.1).
    Basic(BasicChoices),
    /// Advanced force generation (docs/rules.md §4.2).
    Advanced(AdvancedChoices),
}

named_enum! {
    /// A platoon-wide effect that is not part of the roster (it has no unit field).
    pub enum Effect("effect") {
        /// Improved Intel: +1 to activation-order rolls until a natural 1 is rolled.
        ImprovedIntel = "improved_intel",
        /// Longer Range: basic weapons +×1 range.
        LongerRange = "longer_range",
        /// Shorter Range: basic weapons −×1 range (F2).
        ShorterRange = "shorter_range",
        /// Inflexible (limitation): squad coherency is 2" whatever the Quality. Not the
        /// Inflexible trait, which forbids firing after moving.
        CoherencyTwoInches = "coherency_two_inches",
    }
}

/// An effect on one platoon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlatoonEffect {
    /// Platoon index.
    pub platoon: usize,
    /// The effect.
    pub effect: Effect,
}

named_enum! {
    /// A Quantity-Test award the player distributes by choice.
    pub enum AwardKind("award") {
        /// A trait from the Exceptional Troops lists (F6).
        ExceptionalTrait = "exceptional_trait",
        /// A personality.
        Personality = "personality",
        /// One Leadership level for a leader.
        Leadership = "leadership",
        /// One experience level for a squad leader.
        SquadLeaderExperience = "squad_leader_experience",
        /// The Hardened trait for one squad.
        Hardened = "hardened",
    }
}

/// Awards won but not given out because the choices ran out (e.g. more trait successes than
/// listed traits); the player assigns them by editing the roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingAward {
    /// Platoon index.
    pub platoon: usize,
    /// What was won.
    pub award: AwardKind,
    /// How many.
    pub count: u32,
}

/// The outcome of force generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Generated {
    /// The roster.
    pub force: Force,
    /// The rolls made, in order.
    pub rolls: RollLog,
    /// Platoon-wide effects that have no unit field.
    pub effects: Vec<PlatoonEffect>,
    /// Awards left for the player to assign.
    pub pending: Vec<PendingAward>,
    /// Choices that could not be applied (a picked squad the dice did not produce, ...).
    pub notes: Vec<String>,
}

/// Why generation did not produce a force.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerationError {
    /// The choices are invalid; nothing was rolled.
    #[error("the force generation choices break the rules: {} problem(s)", .0.len())]
    Invalid(Vec<Problem>),
    /// Entered dice did not fit a roll.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// Checks the choices; an empty list means they are valid.
pub fn validate(choices: &GenerationChoices) -> Vec<Problem> {
    let (name, mut problems) = match choices {
        GenerationChoices::Basic(c) => (c.name.as_deref(), c.validate()),
        GenerationChoices::Advanced(c) => (c.name.as_deref(), c.validate()),
    };
    // The name becomes the roster's: it follows the roster's rules, checked before rolling.
    if let Some(name) = name {
        crate::validation::check_name(name, "name", &mut problems);
    }
    problems
}

/// Generates a force: validates, then rolls every table (docs/rules.md §4.1 or §4.2).
pub fn generate(
    choices: &GenerationChoices,
    rules: &HouseRules,
    dice: &mut dyn Dice,
) -> Result<Generated, GenerationError> {
    let problems = validate(choices);
    if !problems.is_empty() {
        return Err(GenerationError::Invalid(problems));
    }
    let start = dice.log().len();
    let mut ctx = Ctx::new(dice);
    let force = match choices {
        GenerationChoices::Basic(c) => basic::generate(c, rules, &mut ctx)?,
        GenerationChoices::Advanced(c) => advanced::generate(c, &mut ctx)?,
    };
    let Ctx {
        effects,
        pending,
        notes,
        ..
    } = ctx;
    Ok(Generated {
        force,
        rolls: dice.log()[start..].to_vec(),
        effects,
        pending,
        notes,
    })
}

/// Whether `subject` can be rolled for under `choices` (for checking entered dice).
pub fn subject_allowed(choices: &GenerationChoices, subject: &str) -> bool {
    let platoons = match choices {
        GenerationChoices::Basic(c) => c.total_platoons(),
        GenerationChoices::Advanced(c) => c.platoons,
    };
    let Some(rest) = subject.strip_prefix("force") else {
        return match parse_indexed(subject, "platoon") {
            Some((i, rest)) if (i as u32) < platoons => match rest {
                "" => true,
                rest => {
                    let rest = rest.strip_prefix('.').unwrap_or("#");
                    matches!(parse_indexed(rest, "squad"), Some((j, "")) if j < 8)
                        || matches!(parse_indexed(rest, "heavy_weapon"), Some((k, "")) if k < 16)
                }
            },
            _ => false,
        };
    };
    match rest {
        "" => true,
        rest => {
            let rest = rest.strip_prefix('.').unwrap_or("#");
            matches!(parse_indexed(rest, "artillery"), Some((k, "")) if k < 16)
                || matches!(parse_indexed(rest, "character"), Some((k, "")) if k < 3)
        }
    }
}

/// `name[n]rest` → `(n, rest)`.
fn parse_indexed<'a>(s: &'a str, name: &str) -> Option<(usize, &'a str)> {
    let s = s.strip_prefix(name)?.strip_prefix('[')?;
    let close = s.find(']')?;
    let n = s[..close].parse().ok()?;
    Some((n, &s[close + 1..]))
}

/// `platoon[i]`.
pub(crate) fn platoon_subject(i: usize) -> String {
    format!("platoon[{i}]")
}

/// `platoon[i].squad[j]`.
pub(crate) fn squad_subject(i: usize, j: usize) -> String {
    format!("platoon[{i}].squad[{j}]")
}

/// The running state of one generation.
pub(crate) struct Ctx<'a> {
    pub dice: &'a mut dyn Dice,
    pub effects: Vec<PlatoonEffect>,
    pub pending: Vec<PendingAward>,
    pub notes: Vec<String>,
}

impl<'a> Ctx<'a> {
    fn new(dice: &'a mut dyn Dice) -> Self {
        Self {
            dice,
            effects: Vec::new(),
            pending: Vec::new(),
            notes: Vec::new(),
        }
    }
    pub fn effect(&mut self, platoon: usize, effect: Effect) {
        self.effects.push(PlatoonEffect { platoon, effect });
    }
    pub fn pend(&mut self, platoon: usize, award: AwardKind, count: u32) {
        if count > 0 {
            self.pending.push(PendingAward {
                platoon,
                award,
                count,
            });
        }
    }
    pub fn note_missing(&mut self, what: &str, platoon: usize, missing: &[usize]) {
        for j in missing {
            self.notes.push(format!(
                "{what}: platoon[{platoon}] has no squad[{j}]; skipped"
            ));
        }
    }
}

#[cfg(test)]
mod tests;
