//! The post-battle sequence of one force as resumable steps, and as one call (docs/rules.md §2.1,
//! §2.3; S000 › CAMPAIGN RULES – QUICK).
//!
//! The service runs it per force in four steps, storing [`Aftermath`] as JSON between them:
//! 1. [`Aftermath::start`]: the losses and the CP credit 2 × P (step 6, C12); then the roll
//!    steps 1–5 one at a time ([`Aftermath::roll_step`], see `roll_steps`) or all at once
//!    ([`Aftermath::roll`]): replacements, vehicle replacements, quality loss, unknown Resolve,
//!    resolve change, and the 2d6 pool;
//! 2. [`Aftermath::purchase`]: the experience menu, redoable. Dice already rolled are never
//!    rolled again: extra reinforcement dice (C11) are kept in order and reused, so buying fewer
//!    drops the surplus from the pool and buying more rolls only the new ones; the Quality Loss
//!    roll of a vehicle replaced for 2 CP (C7) is rolled once per vehicle and kept, even if the
//!    replacement is dropped and bought again;
//! 3. [`Aftermath::reinforce`]: the allocation of the pool (C9, C10), redoable; it is kept across
//!    later purchase changes while it still fits, and cleared when it no longer does (the pool
//!    shrank);
//! 4. [`Aftermath::finalize`]: the final roster, the per-unit changes, the CP ledger figures and
//!    the roll log. Until then [`Aftermath::outcome`] shows the same for the state so far.
//!
//! [`post_battle_sequence`] composes the four for tests and benchmarks.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::changes::{UnitChange, UnitEvent, UnitEventRecord, unit_changes};
use super::experience::{Purchase, PurchaseEffects, PurchaseItem, apply_purchases};
use super::reinforcements::{ReinforcementChoice, ReinforcementEffects, apply_reinforcements};
use super::report::{AppliedLoss, BattleReport, apply_losses, check_report};
use super::roll_steps::ROLL_STEPS;
use super::tables::CampaignTables;
use crate::dice::{Dice, DiceError, EnteredDice, RollLog, RollStep};
use crate::house_rules::HouseRules;
use crate::roster::{Force, Problem};
use crate::rulesets::{Ruleset, RulesetPin};

/// One force's post-battle sequence between steps (stored as JSON by the service).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Aftermath {
    /// The force.
    pub force_id: String,
    /// The campaign's house rules, fixed when the sequence starts.
    pub rules: HouseRules,
    /// The roster at the start of the battle.
    pub battle_start: Force,
    /// The roster after the losses and steps 1–4.
    pub after_rolls: Force,
    /// Each unit's checked losses.
    pub losses: BTreeMap<String, AppliedLoss>,
    /// Events of the losses and steps 1–4.
    pub roll_events: Vec<UnitEventRecord>,
    /// The step-5 pool dice (2d6).
    pub pool_dice: Vec<u8>,
    /// CP on the force's account before this sequence (C13).
    pub cp_banked: u32,
    /// CP earned by this battle: 2 × P (C12).
    pub cp_earned: u32,
    /// Every extra reinforcement die rolled so far, in order; the pool uses as many as are bought.
    pub extra_dice: Vec<u8>,
    /// Quality Loss rolls of vehicles replaced for 2 CP, by unit id (C7), kept across redos.
    pub vehicle_quality_rolls: BTreeMap<String, u8>,
    /// The purchases as last submitted.
    pub purchases: Vec<Purchase>,
    /// The allocation as last submitted, if it still fits.
    pub reinforcements: Option<ReinforcementChoice>,
    /// Every roll made in this sequence, in order.
    pub rolls: RollLog,
    /// The next roll step that needs dice; `None` once every roll is made (and in states
    /// stored before the rolls could be made step by step, which were rolled in one go).
    #[serde(default)]
    pub next_roll: Option<RollStep>,
    /// Step-1 replacements R and the reference strength per unit (and 1/1 for a replaced
    /// vehicle), for the quality-loss step (C7).
    #[serde(default)]
    pub replaced: BTreeMap<String, (u32, u32)>,
    /// Entered values no roll called for, over every roll step so far.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::dice::EnteredDiceSchema))]
    pub unused_dice: EnteredDice,
    /// The campaign's ruleset's tables, fixed when the sequence starts; left out when they are
    /// FAD 5e's, so documents stored before rulesets existed read and write byte for byte.
    #[serde(
        default = "CampaignTables::fad5e",
        skip_serializing_if = "CampaignTables::is_fad5e"
    )]
    pub tables: CampaignTables,
    /// The campaign's ruleset; left out for FAD 5e version 1 (likewise).
    #[serde(default, skip_serializing_if = "RulesetPin::is_fad5e_v1")]
    pub ruleset: RulesetPin,
    /// The ruleset's name, for messages; left out for FAD 5e version 1 (likewise).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ruleset_name: String,
}

/// Campaign points of one sequence, for the ledger (C12, C13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CampaignPoints {
    /// On the account before.
    pub banked_before: u32,
    /// Earned: 2 × P.
    pub earned: u32,
    /// Spent on purchases.
    pub spent: u32,
    /// Unspent and lost because banking is off (C13 house rule).
    pub forfeited: u32,
    /// On the account after.
    pub balance: u32,
}

/// A purchase with its price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PricedPurchase {
    /// The purchase.
    #[serde(flatten)]
    pub purchase: Purchase,
    /// CP paid.
    pub cost: u32,
}

/// The reinforcement pool and where it went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Pool {
    /// The step-5 dice.
    pub dice: Vec<u8>,
    /// The bought extra dice in the pool.
    pub extra_dice: Vec<u8>,
    /// Troopers in the pool.
    pub total: u32,
    /// Troopers given to existing units.
    pub allocated: u32,
    /// Troopers in the new squad.
    pub new_squad: u32,
    /// Troopers lost (unassigned).
    pub lost: u32,
    /// The new squad and what it got, if one is formed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formed: Option<super::reinforcements::FormedSquad>,
}

/// What the sequence produced (so far, or final).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Outcome {
    /// The force.
    pub force_id: String,
    /// The roster.
    pub roster: Force,
    /// Every unit that changed or had an event, with before (battle start) and after.
    pub changes: Vec<UnitChange>,
    /// Campaign points.
    pub campaign_points: CampaignPoints,
    /// Purchases with their prices.
    pub purchases: Vec<PricedPurchase>,
    /// The reinforcement pool.
    pub reinforcements: Pool,
    /// Every roll of the sequence.
    pub rolls: RollLog,
}

/// A player's choices for the one-call sequence: `{purchases: [...], allocations: [...],
/// new_squad: {...}}`, the same field paths as the step requests.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Choices {
    /// Experience purchases.
    #[serde(default)]
    pub purchases: Vec<Purchase>,
    /// The reinforcement allocation.
    #[serde(flatten)]
    pub reinforcements: ReinforcementChoice,
}

pub(super) fn dice_problem(e: &DiceError) -> Problem {
    Problem::new(e.field(), e.to_string())
}

pub(super) fn roll_one(
    dice: &mut impl Dice,
    step: RollStep,
    subject: &str,
    force_id: &str,
) -> Result<u8, Vec<Problem>> {
    dice.d6(step, subject, Some(force_id))
        .map_err(|e| vec![dice_problem(&e)])
}

/// Whether an entered die for `step` and `subject` can belong to this force's aftermath: a unit
/// of the roster for the per-unit steps, the force for the pool dice. For
/// [`crate::dice::TableDice::check_subjects`].
pub fn roll_subject_allowed(force_id: &str, roster: &Force, step: RollStep, subject: &str) -> bool {
    match step {
        RollStep::Casualty
        | RollStep::Replacement
        | RollStep::VehicleReplacement
        | RollStep::QualityLoss
        | RollStep::UnknownResolve
        | RollStep::ResolveChange => roster.unit(subject).is_some(),
        RollStep::Reinforcements | RollStep::ReinforcementsExtra => subject == force_id,
        _ => false,
    }
}

impl Aftermath {
    /// Starts the sequence under `ruleset` (its tables are copied in): applies the report's
    /// losses to the battle-start roster and credits the ruleset's CP per platoon × P (2 × P in
    /// FAD 5e); no die is rolled yet ([`Self::next_step`] names the first roll step).
    /// `banked_cp` is the force's balance before the sequence.
    pub fn start(
        force_id: &str,
        battle_start: &Force,
        report: &BattleReport,
        banked_cp: u32,
        rules: &HouseRules,
        ruleset: &Ruleset,
    ) -> Result<Self, Vec<Problem>> {
        let losses = check_report(battle_start, report)?;
        let roster = apply_losses(battle_start, &losses);
        let mut events = Vec::new();
        for unit in battle_start.units() {
            if let Some(loss) = losses.get(&unit.id).filter(|l| l.any()) {
                events.push(UnitEventRecord::new(
                    &unit.id,
                    UnitEvent::Losses {
                        figures: loss.figures,
                        vehicle_damage: loss.vehicle_damage,
                    },
                ));
            }
        }
        let mut aftermath = Self {
            force_id: force_id.to_owned(),
            rules: *rules,
            cp_earned: super::experience::campaign_points_earned(battle_start, &ruleset.tables),
            battle_start: battle_start.clone(),
            after_rolls: roster,
            losses,
            roll_events: events,
            pool_dice: Vec::new(),
            cp_banked: banked_cp,
            extra_dice: Vec::new(),
            vehicle_quality_rolls: BTreeMap::new(),
            purchases: Vec::new(),
            reinforcements: None,
            rolls: Vec::new(),
            next_roll: ROLL_STEPS.first().copied(),
            replaced: BTreeMap::new(),
            unused_dice: EnteredDice::new(),
            tables: ruleset.tables.clone(),
            ruleset: ruleset.pin(),
            ruleset_name: if ruleset.pin().is_fad5e_v1() {
                String::new()
            } else {
                ruleset.name.clone()
            },
        };
        aftermath.pass_empty_steps();
        Ok(aftermath)
    }

    /// Step `roll` in one call: [`Self::start`], then every roll step (1–5: replacements,
    /// vehicle replacements, quality loss, unknown Resolve, resolve change, the 2d6 pool).
    pub fn roll(
        force_id: &str,
        battle_start: &Force,
        report: &BattleReport,
        banked_cp: u32,
        dice: &mut impl Dice,
        rules: &HouseRules,
        ruleset: &Ruleset,
    ) -> Result<Self, Vec<Problem>> {
        let mut aftermath = Self::start(force_id, battle_start, report, banked_cp, rules, ruleset)?;
        aftermath.roll_remaining(dice)?;
        Ok(aftermath)
    }

    /// The ruleset's name for messages (its id where the document has no name).
    pub fn ruleset_label(&self) -> &str {
        if self.ruleset_name.is_empty() {
            &self.ruleset.id
        } else {
            &self.ruleset_name
        }
    }

    /// What `item` costs under the sequence's ruleset.
    pub fn cost(&self, item: PurchaseItem) -> u32 {
        self.tables.cost(item)
    }

    /// Whether every roll step is made (purchases and reinforcements are open).
    pub fn fully_rolled(&self) -> bool {
        self.next_roll.is_none()
    }

    /// CP available to spend: the banked balance plus this battle's credit.
    pub fn cp_available(&self) -> u32 {
        self.cp_banked.saturating_add(self.cp_earned)
    }

    /// Extra reinforcement dice bought by the current purchases.
    pub fn extra_dice_bought(&self) -> usize {
        self.purchases
            .iter()
            .filter(|p| p.item == PurchaseItem::ExtraReinforcementDie)
            .count()
    }

    /// The pool's dice and total for the current purchases (nothing allocated yet).
    pub fn pool_total(&self) -> u32 {
        let extra = self.extra_dice.iter().take(self.extra_dice_bought());
        self.pool_dice
            .iter()
            .chain(extra)
            .map(|v| u32::from(*v))
            .sum()
    }

    /// Step `purchases`: replaces the purchase list. Validated in full before any die is rolled;
    /// on any problem nothing changes.
    pub fn purchase(
        &mut self,
        purchases: Vec<Purchase>,
        dice: &mut impl Dice,
    ) -> Result<(), Vec<Problem>> {
        // Pass 1, no dice: a kept roll or "no drop" for a vehicle not yet rolled. A drop could
        // only make later purchases more valid (lower Quality), so pass 2 cannot fail on it.
        let kept = self.vehicle_quality_rolls.clone();
        apply_purchases(
            &self.after_rolls,
            &purchases,
            self.cp_available(),
            &self.rules,
            &self.tables,
            self.ruleset_label(),
            &mut |id| Ok(kept.get(id).copied().unwrap_or(6)),
        )?;
        let log_start = dice.log().len();
        let mut rolls = kept;
        let force_id = self.force_id.clone();
        let effects = apply_purchases(
            &self.after_rolls,
            &purchases,
            self.cp_available(),
            &self.rules,
            &self.tables,
            self.ruleset_label(),
            &mut |id| {
                if let Some(v) = rolls.get(id) {
                    return Ok(*v);
                }
                let v = dice
                    .d6(RollStep::QualityLoss, id, Some(&force_id))
                    .map_err(|e| dice_problem(&e))?;
                rolls.insert(id.to_owned(), v);
                Ok(v)
            },
        )?;
        let mut extra = self.extra_dice.clone();
        while extra.len() < effects.extra_dice {
            extra.push(roll_one(
                dice,
                RollStep::ReinforcementsExtra,
                &self.force_id,
                &self.force_id,
            )?);
        }
        // Nothing fails from here: the state changes in place (a copy would copy both rosters).
        self.purchases = purchases;
        self.extra_dice = extra;
        self.vehicle_quality_rolls = rolls;
        self.rolls.extend_from_slice(&dice.log()[log_start..]);
        if let Some(choice) = &self.reinforcements
            && self.reinforcement_effects(choice).is_err()
        {
            self.reinforcements = None;
        }
        Ok(())
    }

    /// Step `reinforcements`: replaces the allocation; on any problem nothing changes.
    pub fn reinforce(&mut self, choice: ReinforcementChoice) -> Result<(), Vec<Problem>> {
        self.reinforcement_effects(&choice)?;
        self.reinforcements = Some(choice);
        Ok(())
    }

    /// The purchases applied to the roster after steps 1–4, with the kept rolls.
    pub fn purchase_effects(&self) -> Result<PurchaseEffects, Vec<Problem>> {
        apply_purchases(
            &self.after_rolls,
            &self.purchases,
            self.cp_available(),
            &self.rules,
            &self.tables,
            self.ruleset_label(),
            &mut |id| {
                self.vehicle_quality_rolls.get(id).copied().ok_or_else(|| {
                    Problem::new("vehicle_quality_rolls", format!("no kept roll for {id}"))
                })
            },
        )
    }

    fn reinforcement_effects(
        &self,
        choice: &ReinforcementChoice,
    ) -> Result<ReinforcementEffects, Vec<Problem>> {
        let bought = self.purchase_effects()?;
        apply_reinforcements(
            &bought.roster,
            &self.force_id,
            self.pool_total(),
            choice,
            &self.tables.new_squad,
        )
    }

    /// The sequence as it stands: roster, changes, CP, pool and rolls.
    pub fn outcome(&self) -> Result<Outcome, Vec<Problem>> {
        self.outcome_and_bought().map(|(outcome, _)| outcome)
    }

    /// [`Self::outcome`] and the roster after the purchases, before the reinforcements (what
    /// [`Self::purchase_effects`] gives), from one application of the purchases.
    pub fn outcome_and_bought(&self) -> Result<(Outcome, Force), Vec<Problem>> {
        let bought = self.purchase_effects()?;
        let choice = self.reinforcements.clone().unwrap_or_default();
        let total = self.pool_total();
        let reinforced = apply_reinforcements(
            &bought.roster,
            &self.force_id,
            total,
            &choice,
            &self.tables.new_squad,
        )?;
        let mut events = self.roll_events.clone();
        events.extend(bought.events);
        events.extend(reinforced.events);
        let left = self.cp_available() - bought.spent;
        let balance = if self.rules.bank_campaign_points {
            left
        } else {
            0
        };
        let outcome = Outcome {
            force_id: self.force_id.clone(),
            changes: unit_changes(&self.battle_start, &reinforced.roster, &events),
            roster: reinforced.roster,
            campaign_points: CampaignPoints {
                banked_before: self.cp_banked,
                earned: self.cp_earned,
                spent: bought.spent,
                forfeited: left - balance,
                balance,
            },
            purchases: self
                .purchases
                .iter()
                .map(|p| PricedPurchase {
                    purchase: p.clone(),
                    cost: self.tables.cost(p.item),
                })
                .collect(),
            reinforcements: Pool {
                dice: self.pool_dice.clone(),
                extra_dice: self
                    .extra_dice
                    .iter()
                    .take(self.extra_dice_bought())
                    .copied()
                    .collect(),
                total,
                allocated: reinforced.allocated,
                new_squad: reinforced.new_squad,
                lost: reinforced.lost,
                formed: reinforced.formed,
            },
            rolls: self.rolls.clone(),
        };
        Ok((outcome, bought.roster))
    }

    /// Step `finalize`: the final outcome to commit (the same as [`Self::outcome`]; the service
    /// stops accepting steps afterwards).
    pub fn finalize(&self) -> Result<Outcome, Vec<Problem>> {
        self.outcome()
    }
}

/// The whole sequence in one call: roll, purchases, reinforcements, finalize.
// The inputs of the four steps side by side; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn post_battle_sequence(
    force_id: &str,
    battle_start: &Force,
    report: &BattleReport,
    banked_cp: u32,
    choices: &Choices,
    dice: &mut impl Dice,
    rules: &HouseRules,
    ruleset: &Ruleset,
) -> Result<Outcome, Vec<Problem>> {
    let mut aftermath = Aftermath::roll(
        force_id,
        battle_start,
        report,
        banked_cp,
        dice,
        rules,
        ruleset,
    )?;
    aftermath.purchase(choices.purchases.clone(), dice)?;
    aftermath.reinforce(choices.reinforcements.clone())?;
    aftermath.finalize()
}
