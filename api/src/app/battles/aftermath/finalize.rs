//! Commits one force's post-battle sequence (docs/rules.md §2; C12 ledger), in one transaction: the
//! new roster through the forces store (version-checked, one history entry with cause `battle` and
//! the whole roll log), the ledger entries (earned 2 × P, spent per purchase, forfeited when
//! banking is off), and the finalized stage. The battle is `complete` once every player side has
//! finalized.

use crate::app::idempotency::{self, Answer, Write};
use actix_web::http::StatusCode;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use fad_domain::campaign::{Outcome, PurchaseItem};
use fad_domain::lifecycle::AftermathStage;
use fad_domain::names::Named;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::ApiError;
use crate::store::aftermath::AfterRolls;
use crate::store::events::Event;
use crate::store::history::HistoryCause;
use crate::store::ledger::{self, LedgerError, LedgerKind, NewLedgerEntry};
use crate::store::{self, aftermath as rows, forces};

use super::super::problems;
use super::{AftermathResponse, begin, raw_json, response_with, save};

/// The body of `finalize`: empty, `{}`, or `{"forgo_reinforcements": true}`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"forgo_reinforcements": true}))]
pub struct FinalizeRequest {
    /// Finalize although troopers of the reinforcement pool are not assigned: they are lost
    /// (C10), and the roster's history says so. Without it such a finalize is refused (422).
    #[serde(default)]
    pub forgo_reinforcements: bool,
}

/// The field that names the refusal, so a form shows it beside its checkbox.
pub const FORGO_FIELD: &str = "forgo_reinforcements";

/// Troopers of the pool that the allocation leaves unassigned, in words; `None` when none are.
fn unassigned(outcome: &Outcome) -> Option<String> {
    let pool = &outcome.reinforcements;
    if pool.lost == 0 {
        return None;
    }
    let extra = pool.extra_dice.len();
    let bought = if extra == 0 {
        String::new()
    } else {
        // What the dice cost under the campaign's ruleset, as priced in this sequence.
        let cost: u32 = outcome
            .purchases
            .iter()
            .filter(|p| p.purchase.item == PurchaseItem::ExtraReinforcementDie)
            .map(|p| p.cost)
            .sum();
        format!(
            ", including {extra} extra reinforcement {} bought for {cost} campaign {}",
            if extra == 1 { "die" } else { "dice" },
            if cost == 1 { "point" } else { "points" },
        )
    };
    Some(format!(
        "{} of the {} reinforcement troopers are not assigned{bought}",
        pool.lost, pool.total
    ))
}

/// Finalizes one force's post-battle sequence. Two concurrent finalizes: exactly one succeeds,
/// the other gets 409. Unassigned reinforcement troopers are refused unless `forgo` says to
/// give them up: finalizing used to lose them (and the campaign points of bought dice) silently.
pub async fn finalize_aftermath(
    state: &AppState,
    user: &AuthUser,
    battle_id: String,
    force_id: String,
    request: FinalizeRequest,
    write: Write,
) -> Result<Answer<AftermathResponse>, ApiError> {
    let caller = user.caller();
    let actor = user.user_id.clone();
    idempotency::run(state, write, move |conn| {
        let mut step = begin(conn, &caller, &battle_id, &force_id)?;
        let aftermath = step.rolled()?;
        let outcome = aftermath.finalize().map_err(problems)?;
        let forgone = unassigned(&outcome);
        if let Some(left) = &forgone
            && !request.forgo_reinforcements
        {
            return Err(ApiError::validation(
                FORGO_FIELD,
                format!(
                    "{left}: assign them to units or a new squad first, or confirm that you give them up (they are then lost)"
                ),
            ));
        }
        let now = store::now();
        let cause = HistoryCause::new("battle", Some(&actor))
            .with_id(&battle_id)
            .with_reason(forgone.map(|left| format!("Forgone at finalize: {left} (C10)")));
        // The stored roster is the battle-start snapshot while the force is still at the
        // snapshot's version, which the update checks: no need to read it back.
        // The roster written out once: for the force and inside the stored outcome.
        let roster_text = forces::roster_text(&outcome.roster).map_err(|e| ApiError::Internal(e.into()))?;
        let committed = forces::replace_roster_from(
            conn,
            &force_id,
            step.row.force_version,
            &aftermath.battle_start,
            &outcome.roster,
            Some(roster_text.clone()),
            &cause,
            &outcome.rolls,
            now,
        )?;
        if !committed {
            return Err(ApiError::Conflict(
                "The force changed since this battle's result was recorded; its post-battle sequence cannot be committed over that change."
                    .to_owned(),
            ));
        }
        let cp = outcome.campaign_points;
        let mut entries = vec![NewLedgerEntry {
            kind: LedgerKind::Earned,
            amount: i64::from(cp.earned),
            cause: cause.clone(),
            note: Some("2 CP per platoon at battle start (C12)".to_owned()),
        }];
        for priced in &outcome.purchases {
            entries.push(NewLedgerEntry {
                kind: LedgerKind::Spent,
                amount: i64::from(priced.cost),
                cause: cause.clone(),
                // People read the ledger: the item in words and the unit by its name.
                note: Some(
                    match priced
                        .purchase
                        .unit_id
                        .as_deref()
                        .and_then(|id| outcome.roster.unit(id))
                    {
                        Some(unit) => format!("{} for {}", priced.purchase.item.title(), unit.name),
                        None => priced.purchase.item.title(),
                    },
                ),
            });
        }
        if cp.forfeited > 0 {
            entries.push(NewLedgerEntry {
                kind: LedgerKind::Spent,
                amount: i64::from(cp.forfeited),
                cause: cause.clone(),
                note: Some("Forfeited: campaign points are not banked".to_owned()),
            });
        }
        // A ledger entry (an organiser's adjustment) committed after this step read the
        // balance takes the next `seq` first (a unique violation here), or would leave the
        // outcome disagreeing with the ledger. Nothing is kept; a retry reads the new balance.
        let changed = || {
            ApiError::Conflict(
                "The force's campaign points changed while finalizing; retry.".to_owned(),
            )
        };
        let balance = match ledger::append_after(conn, &force_id, step.ledger, &entries, now) {
            Err(LedgerError::Db(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _,
            ))) => return Err(changed()),
            other => other?,
        };
        if balance != i64::from(cp.balance) {
            return Err(changed());
        }
        let answer_outcome = raw_json(&outcome)?;
        save(
            conn,
            &mut step,
            AftermathStage::Finalized,
            aftermath,
            Some(outcome),
            AfterRolls::Unchanged,
            Some(&roster_text),
        )?;
        let event = Event::aftermath_finalized(&step.battle.campaign_id, &battle_id, &force_id);
        store::events::append(conn, &event)?;
        if rows::count_unfinalized(conn, &battle_id)? == 0 {
            // The battle row is locked by this transaction since `begin`: its version is ours.
            crate::app::battles::lifecycle::complete(conn, step.battle)?;
        }
        tracing::info!(battle.id = %battle_id, force.id = %force_id, "Finalized aftermath");
        let answer = response_with(&step.row, None, Some(answer_outcome), Vec::new(), Default::default())?.under(&step.ruleset);
        Ok((StatusCode::OK, answer))
    })
    .await
}
