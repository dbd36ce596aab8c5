//! Step 7 – Spend Recon Points: turns, Move / Reveal / Block at 1 RP each, Blocks as reactions
//! that can themselves be blocked, passes, the end of the step and lost leftovers (S16), and the
//! non-player force's automatic Blocks (S28) (docs/rules.md §3.7, §3.12;
//! S000 › SCENARIO GENERATION › Spend Recon Points; UNCONTROLLED FORCES › SCENARIO GENERATION).
//!
//! The service keeps the books, not the table: marker positions, the 12" auto-reveal (S17) and
//! what a Reveal finds (S18) happen at the table; a Move or Reveal may name the markers it uses
//! as free labels for the log. A Block is rolled as soon as it is played; only a Block that
//! succeeds (4+) is offered to the other side for a counter-Block, since blocking a failed Block
//! changes nothing. The acting side's expenditure is blocked when an odd number of Blocks in the
//! chain succeeded.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollStep};
use crate::roster::Problem;
use crate::scenario::ScenarioError;
use crate::scenario::non_player::npf_blocks;

/// Cost of every action (S16).
pub const RP_PER_ACTION: u32 = 1;
/// A Block succeeds on this d6 or more.
pub const BLOCK_ON: u8 = 4;
/// Markers moved by one Move.
pub const MARKERS_PER_MOVE: usize = 2;
/// Inches each moved marker may go.
pub const MOVE_INCHES: u32 = 6;

/// S17: opposing markers this close (centre to centre, inclusive) after a Move are revealed.
pub const AUTO_REVEAL_INCHES: f64 = 12.0;

/// S17: whether two opposing markers `distance` inches apart are both revealed. Only a Move
/// triggers it (initial placement does not), and only between markers.
pub fn auto_reveal(distance_inches: f64, after_move: bool) -> bool {
    after_move && distance_inches <= AUTO_REVEAL_INCHES
}

/// What a side submits during step 7 (`action` tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ReconAction {
    /// Move up to two friendly markers up to 6" each.
    Move {
        /// Labels of the markers moved (for the log).
        #[serde(default)]
        markers: Vec<String>,
    },
    /// Reveal one enemy marker.
    Reveal {
        /// Label of the marker (for the log).
        #[serde(default)]
        marker: Option<String>,
    },
    /// Block the expenditure the side is asked about.
    Block,
    /// End the turn without spending, or decline to block.
    Pass,
}

/// The kind of a logged action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReconActionKind {
    /// Move.
    Move,
    /// Reveal.
    Reveal,
    /// Block.
    Block,
    /// Pass (a turn or a reaction).
    Pass,
}

/// How a logged action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReconResult {
    /// Not decided yet (a Block may still come).
    Pending,
    /// Carried out (a Move or Reveal), or a Block that stopped what it blocked.
    Done,
    /// Stopped by a Block; the RP is spent anyway (S16).
    Blocked,
    /// A Block whose roll failed (under 4).
    Failed,
    /// A pass.
    Passed,
}

/// One line of the step-7 log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconEntry {
    /// Side index.
    pub side: usize,
    /// What was done.
    pub action: ReconActionKind,
    /// Marker labels, if given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// The Block's d6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// How it ended.
    pub result: ReconResult,
    /// Made by the service (a pass for a side without RP or a non-player side, or an NP Block).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub automatic: bool,
}

/// A side that is asked whether to Block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingReaction {
    /// The side asked.
    pub reactor: usize,
    /// Log index of the Move or Reveal under way.
    pub action: usize,
    /// Log indexes of the Blocks that succeeded so far, in order.
    pub chain: Vec<usize>,
}

/// The state of step 7.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconPhase {
    /// RP left per side.
    pub points: [u32; 2],
    /// Whose turn it is.
    pub turn: usize,
    /// Passes in a row (two end the step).
    pub consecutive_passes: u32,
    /// A reaction the service waits for.
    #[serde(default)]
    pub pending: Option<PendingReaction>,
    /// Everything done, in order.
    #[serde(default)]
    pub log: Vec<ReconEntry>,
    /// The step is over.
    pub finished: bool,
    /// RP lost at the end (S16).
    pub lost: [u32; 2],
    /// Which sides are non-player.
    pub non_player: [bool; 2],
}

/// Who the phase waits for and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReconPrompt {
    /// The side's turn: move, reveal or pass.
    Turn,
    /// The side may Block (or pass) the expenditure just made.
    Block,
}

impl ReconPhase {
    /// Starts step 7 with each side's RP; `first` placed markers first and so acts first.
    pub fn start(
        points: [u32; 2],
        first: usize,
        non_player: [bool; 2],
        dice: &mut impl Dice,
        force_ids: [&str; 2],
    ) -> Result<Self, ScenarioError> {
        let mut phase = Self {
            points,
            turn: first.min(1),
            consecutive_passes: 0,
            pending: None,
            log: Vec::new(),
            finished: false,
            lost: [0, 0],
            non_player,
        };
        phase.settle(dice, force_ids)?;
        Ok(phase)
    }

    /// The side the phase waits for, and what for.
    pub fn waiting_for(&self) -> Option<(usize, ReconPrompt)> {
        if self.finished {
            None
        } else if let Some(p) = &self.pending {
            Some((p.reactor, ReconPrompt::Block))
        } else {
            Some((self.turn, ReconPrompt::Turn))
        }
    }

    /// Applies one side's action.
    pub fn act(
        &mut self,
        side: usize,
        action: ReconAction,
        dice: &mut impl Dice,
        force_ids: [&str; 2],
    ) -> Result<(), ScenarioError> {
        let Some((expected, prompt)) = self.waiting_for() else {
            return Err(ScenarioError::Conflict("the recon phase is over".into()));
        };
        if side != expected {
            return Err(ScenarioError::Conflict(
                "it is not this side's turn to spend recon points".into(),
            ));
        }
        match (prompt, action) {
            (ReconPrompt::Turn, ReconAction::Pass) => {
                self.log.push(entry(
                    side,
                    ReconActionKind::Pass,
                    vec![],
                    ReconResult::Passed,
                ));
                self.consecutive_passes += 1;
                self.turn = 1 - side;
                self.settle(dice, force_ids)
            }
            (ReconPrompt::Turn, ReconAction::Move { markers }) => {
                if markers.len() > MARKERS_PER_MOVE {
                    return Err(ScenarioError::Invalid(vec![Problem::new(
                        "markers",
                        "a Move moves at most two friendly markers",
                    )]));
                }
                self.spend(side, ReconActionKind::Move, markers, dice, force_ids)
            }
            (ReconPrompt::Turn, ReconAction::Reveal { marker }) => self.spend(
                side,
                ReconActionKind::Reveal,
                marker.into_iter().collect(),
                dice,
                force_ids,
            ),
            (ReconPrompt::Turn, ReconAction::Block) => Err(ScenarioError::Conflict(
                "there is no expenditure to block".into(),
            )),
            (ReconPrompt::Block, ReconAction::Block) => {
                self.need_points(side)?;
                self.block(side, false, dice, force_ids)
            }
            (ReconPrompt::Block, ReconAction::Pass) => {
                self.log.push(entry(
                    side,
                    ReconActionKind::Pass,
                    vec![],
                    ReconResult::Passed,
                ));
                self.resolve(dice, force_ids)
            }
            (ReconPrompt::Block, _) => Err(ScenarioError::Conflict(
                "this side may only block or pass now".into(),
            )),
        }
    }

    fn need_points(&self, side: usize) -> Result<(), ScenarioError> {
        if self.points[side] < RP_PER_ACTION {
            return Err(ScenarioError::Invalid(vec![Problem::new(
                "action",
                "no recon points left",
            )]));
        }
        Ok(())
    }

    fn spend(
        &mut self,
        side: usize,
        kind: ReconActionKind,
        markers: Vec<String>,
        dice: &mut impl Dice,
        force_ids: [&str; 2],
    ) -> Result<(), ScenarioError> {
        self.need_points(side)?;
        self.points[side] -= RP_PER_ACTION;
        self.log
            .push(entry(side, kind, markers, ReconResult::Pending));
        self.pending = Some(PendingReaction {
            reactor: 1 - side,
            action: self.log.len() - 1,
            chain: Vec::new(),
        });
        self.offer_reaction(dice, force_ids)
    }

    /// The pending reactor may block: a side without RP cannot; a non-player side decides by
    /// die (S28); a player is asked.
    fn offer_reaction(
        &mut self,
        dice: &mut impl Dice,
        force_ids: [&str; 2],
    ) -> Result<(), ScenarioError> {
        let Some(reactor) = self.pending.as_ref().map(|p| p.reactor) else {
            return Ok(());
        };
        if self.points[reactor] < RP_PER_ACTION {
            return self.resolve(dice, force_ids);
        }
        if self.non_player[reactor] {
            let id = force_ids[reactor];
            let decide = dice
                .d6(RollStep::NpfBlock, id, Some(id))
                .map_err(ScenarioError::Dice)?;
            if !npf_blocks(decide) {
                return self.resolve(dice, force_ids);
            }
            return self.block(reactor, true, dice, force_ids);
        }
        Ok(())
    }

    fn block(
        &mut self,
        side: usize,
        automatic: bool,
        dice: &mut impl Dice,
        force_ids: [&str; 2],
    ) -> Result<(), ScenarioError> {
        self.points[side] -= RP_PER_ACTION;
        let id = force_ids[side];
        let roll = dice
            .d6(RollStep::ReconBlock, id, Some(id))
            .map_err(ScenarioError::Dice)?;
        let success = roll >= BLOCK_ON;
        let mut e = entry(
            side,
            ReconActionKind::Block,
            vec![],
            if success {
                ReconResult::Pending
            } else {
                ReconResult::Failed
            },
        );
        e.roll = Some(roll);
        e.automatic = automatic;
        self.log.push(e);
        let index = self.log.len() - 1;
        if !success {
            return self.resolve(dice, force_ids);
        }
        if let Some(p) = self.pending.as_mut() {
            p.chain.push(index);
            p.reactor = 1 - side;
        }
        self.offer_reaction(dice, force_ids)
    }

    /// Ends the chain: each successful Block stops the one before it; the action under way is
    /// blocked when an odd number succeeded. Then the turn passes to the other side.
    fn resolve(&mut self, dice: &mut impl Dice, force_ids: [&str; 2]) -> Result<(), ScenarioError> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let mut items = vec![p.action];
        items.extend(p.chain.iter().copied());
        // The last item stands; each one before it is stopped by the next.
        let last = items.len() - 1;
        for (k, index) in items.iter().enumerate() {
            let stood = (last - k) % 2 == 0;
            if let Some(e) = self.log.get_mut(*index) {
                e.result = if stood {
                    ReconResult::Done
                } else {
                    ReconResult::Blocked
                };
            }
        }
        let actor = self.log.get(p.action).map_or(self.turn, |e| e.side);
        self.consecutive_passes = 0;
        self.turn = 1 - actor;
        self.settle(dice, force_ids)
    }

    /// Passes for sides that cannot act (no RP, or non-player: it never Moves or Reveals, S28)
    /// and ends the step after two passes in a row or when no RP are left (S16).
    fn settle(
        &mut self,
        _dice: &mut impl Dice,
        _force_ids: [&str; 2],
    ) -> Result<(), ScenarioError> {
        loop {
            if self.pending.is_some() {
                return Ok(());
            }
            if self.points == [0, 0] || self.consecutive_passes >= 2 {
                self.finished = true;
                self.lost = self.points;
                return Ok(());
            }
            let side = self.turn;
            if self.points[side] < RP_PER_ACTION || self.non_player[side] {
                let mut e = entry(side, ReconActionKind::Pass, vec![], ReconResult::Passed);
                e.automatic = true;
                self.log.push(e);
                self.consecutive_passes += 1;
                self.turn = 1 - side;
                continue;
            }
            return Ok(());
        }
    }
}

fn entry(
    side: usize,
    action: ReconActionKind,
    markers: Vec<String>,
    result: ReconResult,
) -> ReconEntry {
    ReconEntry {
        side,
        action,
        markers,
        roll: None,
        result,
        automatic: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnteredDice, ServerDice, TableDice};

    const IDS: [&str; 2] = ["a", "b"];

    fn dice(entries: &[(RollStep, &str, &[u8])]) -> TableDice {
        let mut e = EnteredDice::new();
        for (step, subject, values) in entries {
            e.entry(*step)
                .or_default()
                .insert((*subject).into(), values.to_vec());
        }
        TableDice::new(&e, ServerDice::seeded(1)).unwrap()
    }

    fn mv() -> ReconAction {
        ReconAction::Move {
            markers: vec!["m1".into(), "m2".into()],
        }
    }

    #[test]
    fn s16_players_alternate_and_two_passes_in_a_row_end_the_step_leftovers_lost() {
        let mut d = dice(&[]);
        let mut p = ReconPhase::start([2, 3], 1, [false, false], &mut d, IDS).unwrap();
        assert_eq!(p.waiting_for(), Some((1, ReconPrompt::Turn)));
        p.act(1, mv(), &mut d, IDS).unwrap();
        // The opponent is asked whether to block.
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Block)));
        p.act(0, ReconAction::Pass, &mut d, IDS).unwrap();
        assert_eq!(p.log[0].result, ReconResult::Done);
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Turn)));
        p.act(0, ReconAction::Pass, &mut d, IDS).unwrap();
        p.act(1, ReconAction::Pass, &mut d, IDS).unwrap();
        assert!(p.finished);
        assert_eq!(p.lost, [2, 2]);
        assert!(d.log().is_empty());
    }

    #[test]
    fn block_succeeds_on_four_plus_and_the_blocked_rp_is_still_spent() {
        let mut d = dice(&[(RollStep::ReconBlock, "a", &[4])]);
        let mut p = ReconPhase::start([1, 1], 1, [false, false], &mut d, IDS).unwrap();
        p.act(
            1,
            ReconAction::Reveal {
                marker: Some("x".into()),
            },
            &mut d,
            IDS,
        )
        .unwrap();
        p.act(0, ReconAction::Block, &mut d, IDS).unwrap();
        assert_eq!(p.log[0].result, ReconResult::Blocked);
        assert_eq!(p.log[1].result, ReconResult::Done);
        assert_eq!(p.points, [0, 0]);
        assert!(p.finished);
    }

    #[test]
    fn a_block_of_three_fails() {
        let mut d = dice(&[(RollStep::ReconBlock, "a", &[3])]);
        let mut p = ReconPhase::start([2, 2], 1, [false, false], &mut d, IDS).unwrap();
        p.act(1, mv(), &mut d, IDS).unwrap();
        p.act(0, ReconAction::Block, &mut d, IDS).unwrap();
        assert_eq!(p.log[0].result, ReconResult::Done);
        assert_eq!(p.log[1].result, ReconResult::Failed);
        // A failed Block is not offered for a counter-Block; the turn goes to side 0.
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Turn)));
        assert_eq!(p.points, [1, 1]);
    }

    #[test]
    fn s16_a_block_can_itself_be_blocked() {
        let mut d = dice(&[
            (RollStep::ReconBlock, "a", &[5]),
            (RollStep::ReconBlock, "b", &[6]),
        ]);
        let mut p = ReconPhase::start([2, 3], 1, [false, false], &mut d, IDS).unwrap();
        p.act(1, mv(), &mut d, IDS).unwrap();
        p.act(0, ReconAction::Block, &mut d, IDS).unwrap();
        assert_eq!(p.waiting_for(), Some((1, ReconPrompt::Block)));
        p.act(1, ReconAction::Block, &mut d, IDS).unwrap();
        // Side 0 may answer again; it passes.
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Block)));
        p.act(0, ReconAction::Pass, &mut d, IDS).unwrap();
        let results: Vec<_> = p.log.iter().map(|e| e.result).collect();
        assert_eq!(
            results,
            [
                ReconResult::Done,
                ReconResult::Blocked,
                ReconResult::Done,
                ReconResult::Passed
            ]
        );
        assert_eq!(p.points, [1, 1]);
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Turn)));
    }

    #[test]
    fn wrong_side_wrong_prompt_and_no_points_are_refused() {
        let mut d = dice(&[]);
        let mut p = ReconPhase::start([0, 2], 1, [false, false], &mut d, IDS).unwrap();
        assert!(matches!(
            p.act(0, ReconAction::Pass, &mut d, IDS),
            Err(ScenarioError::Conflict(_))
        ));
        assert!(matches!(
            p.act(1, ReconAction::Block, &mut d, IDS),
            Err(ScenarioError::Conflict(_))
        ));
        let too_many = ReconAction::Move {
            markers: vec!["1".into(), "2".into(), "3".into()],
        };
        assert!(matches!(
            p.act(1, too_many, &mut d, IDS),
            Err(ScenarioError::Invalid(_))
        ));
        // Side 0 has no RP, so it is not asked and the Move stands; then side 0 passes by itself.
        p.act(1, mv(), &mut d, IDS).unwrap();
        assert_eq!(p.log[0].result, ReconResult::Done);
        assert!(p.log[1].automatic);
        assert_eq!(p.waiting_for(), Some((1, ReconPrompt::Turn)));
        p.act(1, mv(), &mut d, IDS).unwrap();
        // No RP left on either side: the step ends.
        assert!(p.finished);
        assert_eq!(p.lost, [0, 0]);
    }

    #[test]
    fn s17_auto_reveal_within_twelve_inches_inclusive_only_after_a_move() {
        assert!(auto_reveal(12.0, true));
        assert!(auto_reveal(3.5, true));
        assert!(!auto_reveal(12.01, true));
        assert!(!auto_reveal(6.0, false));
    }

    #[test]
    fn s16_no_rp_at_all_ends_the_step_at_once() {
        let mut d = dice(&[]);
        let p = ReconPhase::start([0, 0], 0, [false, false], &mut d, IDS).unwrap();
        assert!(p.finished);
        assert!(p.log.is_empty());
    }

    #[test]
    fn s28_np_rolls_for_every_player_spend_and_blocks_on_four_plus_then_needs_its_own_four() {
        // Side b is non-player: it never moves or reveals, and decides Blocks by die.
        let mut d = dice(&[
            (RollStep::NpfBlock, "b", &[3, 4, 6]),
            (RollStep::ReconBlock, "b", &[2, 4]),
            (RollStep::ReconBlock, "a", &[5]),
        ]);
        let mut p = ReconPhase::start([4, 2], 0, [false, true], &mut d, IDS).unwrap();
        // 1st Move: NP rolls 3, no block. NP's turn passes by itself.
        p.act(0, mv(), &mut d, IDS).unwrap();
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Turn)));
        // 2nd Move: NP rolls 4, blocks, block roll 2 fails.
        p.act(0, mv(), &mut d, IDS).unwrap();
        assert_eq!(p.points, [2, 1]);
        // 3rd: NP rolls 6, blocks with 4: the player is asked to counter-block.
        p.act(0, ReconAction::Reveal { marker: None }, &mut d, IDS)
            .unwrap();
        assert_eq!(p.waiting_for(), Some((0, ReconPrompt::Block)));
        // The player counter-blocks with 5; the NP has no RP left to answer.
        p.act(0, ReconAction::Block, &mut d, IDS).unwrap();
        assert_eq!(p.points, [0, 0]);
        assert!(p.finished);
        let moves: Vec<_> = p
            .log
            .iter()
            .filter(|e| e.action != ReconActionKind::Pass)
            .map(|e| (e.side, e.action, e.result, e.automatic))
            .collect();
        assert_eq!(
            moves,
            [
                (0, ReconActionKind::Move, ReconResult::Done, false),
                (0, ReconActionKind::Move, ReconResult::Done, false),
                (1, ReconActionKind::Block, ReconResult::Failed, true),
                (0, ReconActionKind::Reveal, ReconResult::Done, false),
                (1, ReconActionKind::Block, ReconResult::Blocked, true),
                (0, ReconActionKind::Block, ReconResult::Done, false),
            ]
        );
        assert!(d.unused().is_empty());
    }
}
