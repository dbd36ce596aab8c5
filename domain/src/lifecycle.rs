//! The lifecycle of a battle and of each player side's post-battle sequence (docs/rules.md §2):
//! the states as types, stored and shown as the same lower-case words, and the transitions the
//! rules allow. Pure: the application layer writes the new state and records the event.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where a battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BattleState {
    /// Created; no result yet (a scenario may be played).
    Scenario,
    /// A result is recorded and waits for confirmation.
    Pending,
    /// The result stands; the player sides run their post-battle sequences.
    Aftermath,
    /// Every player side has finalized.
    Complete,
    /// Voided by the organiser: its effects are undone and it counts for nothing.
    Void,
}

/// Where one player side's post-battle sequence stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum AftermathStage {
    /// Waiting for the `roll` step.
    Open,
    /// Some roll steps made, others remain (the rolls go step by step).
    Rolling,
    /// Rolled: purchases and reinforcements may be (re)done.
    Rolled,
    /// Finalized: committed to the roster and ledger.
    Finalized,
}

/// A stored word that names no state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{word}`")]
pub struct UnknownState {
    /// Which kind of state was expected.
    pub what: &'static str,
    /// The word found.
    pub word: String,
}

/// A transition the lifecycle does not allow from the current state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a battle that is {from} cannot be {action}")]
pub struct Refused {
    /// The state the battle is in.
    pub from: BattleState,
    /// What was tried, in words (`confirmed`, `reopened`, ...).
    pub action: &'static str,
}

impl BattleState {
    /// Every state, in lifecycle order.
    pub const ALL: [Self; 5] = [
        Self::Scenario,
        Self::Pending,
        Self::Aftermath,
        Self::Complete,
        Self::Void,
    ];

    /// The stored and shown word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Scenario => "scenario",
            Self::Pending => "pending",
            Self::Aftermath => "aftermath",
            Self::Complete => "complete",
            Self::Void => "void",
        }
    }

    /// A result is recorded and stands or waits (not reopened, not void).
    pub const fn has_result(self) -> bool {
        matches!(self, Self::Pending | Self::Aftermath | Self::Complete)
    }

    /// The post-battle sequences may run (the result was confirmed).
    pub const fn result_confirmed(self) -> bool {
        matches!(self, Self::Aftermath | Self::Complete)
    }

    /// Recording a result: to `pending`, or straight to `aftermath` when the campaign does
    /// not ask for confirmation. Only from `scenario`.
    pub fn record_result(self, needs_confirmation: bool) -> Result<Self, Refused> {
        match self {
            Self::Scenario if needs_confirmation => Ok(Self::Pending),
            Self::Scenario => Ok(Self::Aftermath),
            from => Err(Refused {
                from,
                action: "given a result",
            }),
        }
    }

    /// Confirming a pending result opens the post-battle sequences.
    pub fn confirm(self) -> Result<Self, Refused> {
        match self {
            Self::Pending => Ok(Self::Aftermath),
            from => Err(Refused {
                from,
                action: "confirmed",
            }),
        }
    }

    /// The last side finalized its post-battle sequence.
    pub fn complete(self) -> Result<Self, Refused> {
        match self {
            Self::Aftermath => Ok(Self::Complete),
            from => Err(Refused {
                from,
                action: "completed",
            }),
        }
    }

    /// The organiser discards the result (nothing finalized yet): back to `scenario`.
    pub fn reopen(self) -> Result<Self, Refused> {
        match self {
            Self::Pending | Self::Aftermath => Ok(Self::Scenario),
            from => Err(Refused {
                from,
                action: "reopened",
            }),
        }
    }

    /// The organiser voids the battle (from any state but `void`).
    pub fn void(self) -> Result<Self, Refused> {
        match self {
            Self::Void => Err(Refused {
                from: self,
                action: "voided",
            }),
            _ => Ok(Self::Void),
        }
    }
}

impl AftermathStage {
    /// Every stage, in order.
    pub const ALL: [Self; 4] = [Self::Open, Self::Rolling, Self::Rolled, Self::Finalized];

    /// The stored and shown word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Rolling => "rolling",
            Self::Rolled => "rolled",
            Self::Finalized => "finalized",
        }
    }

    /// Some roll step was made (the stored sequence state exists).
    pub const fn has_rolled(self) -> bool {
        matches!(self, Self::Rolling | Self::Rolled)
    }

    /// After a roll step: `rolled` when every roll step is done, `rolling` otherwise.
    pub fn after_roll(self, all_rolled: bool) -> Self {
        if all_rolled {
            Self::Rolled
        } else {
            Self::Rolling
        }
    }
}

macro_rules! text_enum {
    ($ty:ident, $what:literal) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownState;

            fn from_str(word: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|s| s.as_str() == word)
                    .ok_or_else(|| UnknownState {
                        what: $what,
                        word: word.to_owned(),
                    })
            }
        }

        impl TryFrom<String> for $ty {
            type Error = UnknownState;

            fn try_from(word: String) -> Result<Self, Self::Error> {
                word.parse()
            }
        }

        impl From<$ty> for String {
            fn from(state: $ty) -> Self {
                state.as_str().to_owned()
            }
        }
    };
}

text_enum!(BattleState, "battle state");
text_enum!(AftermathStage, "post-battle stage");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_match_serde() {
        for s in BattleState::ALL {
            assert_eq!(s.as_str().parse::<BattleState>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        for s in AftermathStage::ALL {
            assert_eq!(s.as_str().parse::<AftermathStage>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        assert!("Void".parse::<BattleState>().is_err());
    }

    #[test]
    fn transitions_follow_the_lifecycle() {
        use BattleState::*;
        assert_eq!(Scenario.record_result(true), Ok(Pending));
        assert_eq!(Scenario.record_result(false), Ok(Aftermath));
        assert!(Pending.record_result(true).is_err());
        assert_eq!(Pending.confirm(), Ok(Aftermath));
        assert!(Scenario.confirm().is_err());
        assert_eq!(Aftermath.complete(), Ok(Complete));
        assert!(Pending.complete().is_err());
        assert_eq!(Aftermath.reopen(), Ok(Scenario));
        assert!(Complete.reopen().is_err());
        assert!(Void.reopen().is_err());
        assert_eq!(Complete.void(), Ok(Void));
        assert!(Void.void().is_err());
    }
}
