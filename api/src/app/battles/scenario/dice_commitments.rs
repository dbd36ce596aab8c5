//! The dice commitments of a battle's scenario: one seed chain per side (a side's secret rolls
//! come from its own seed, so a seed revealed to one side recomputes nothing of the other's)
//! and one for the rolls of neither side.
//!
//! What a viewer is shown must change only with what the rules reveal to it: a side's
//! commitment is spent by rolls the viewer may not see yet (the other side's secret step, or
//! its own missions while the tie choice is masked). So a viewer is shown, per chain, the
//! commitment after the last one spent by a roll it can see — never the chain's newest.

use fad_domain::dice::Roll;
use fad_domain::fair_dice::CommittedSeed;
use fad_domain::scenario::Viewer;
use fad_domain::scenario::side_dice::SideDice;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::dice::{History, after_roll, open_or_issue, scenario_scope, seed_for_roll};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::dice_commitments as commitments;

/// A commitment to the seed of a scenario's next server roll for one side, or for rolls of
/// neither side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ScenarioDiceCommitment {
    /// The side whose rolls use it; absent for rolls of neither side (initiative, ties).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The commitment's id (`commitment_id` in the rolls' `proof`).
    pub id: String,
    /// Lowercase hex SHA-256 of the seed's 32 bytes.
    pub sha256: String,
}

/// The chains of a battle: (force id or none, scope).
fn chains(battle_id: &str, sides: &[String]) -> Vec<(Option<String>, String)> {
    std::iter::once((None, scenario_scope(battle_id, None)))
        .chain(
            sides
                .iter()
                .map(|f| (Some(f.clone()), scenario_scope(battle_id, Some(f)))),
        )
        .collect()
}

/// Seeds for one submission's rolls, each chain's open commitment.
pub struct Seeds {
    chains: Vec<(Option<String>, String, CommittedSeed)>,
}

impl Seeds {
    /// Takes each chain's open commitment (issuing the first) and builds `dice` on them;
    /// `client` is the submitting side and its words, mixed into that side's chain only (the
    /// other side's proofs never show them).
    pub fn take(
        conn: &mut Db,
        battle_id: &str,
        sides: &[String],
        dice: SideDice,
        client: Option<(&str, &str)>,
    ) -> Result<(Self, SideDice), ApiError> {
        let mut dice = dice;
        let mut chains_out = Vec::new();
        for (force, scope) in chains(battle_id, sides) {
            let words = client
                .filter(|(side, _)| force.as_deref() == Some(*side))
                .map(|(_, words)| words);
            let seed = seed_for_roll(conn, &scope, words)?;
            let server = fad_domain::dice::ServerDice::committed(seed.clone());
            dice = match &force {
                Some(f) => dice.with_side_server(f, server),
                None => dice.with_shared_server(server),
            };
            chains_out.push((force, scope, seed));
        }
        Ok((Self { chains: chains_out }, dice))
    }

    /// Spends the commitments the rolls used and offers the next ones.
    pub fn settle(&self, conn: &mut Db, dice: &SideDice) -> Result<(), ApiError> {
        for (force, scope, seed) in &self.chains {
            after_roll(
                conn,
                scope,
                seed,
                dice.used_commitment(force.as_deref()),
                History::Keep,
            )?;
        }
        Ok(())
    }
}

/// Makes sure every chain of the battle has a commitment (a read before any submission).
pub fn ensure(conn: &mut Db, battle_id: &str, sides: &[String]) -> Result<(), ApiError> {
    for (_, scope) in chains(battle_id, sides) {
        open_or_issue(conn, &scope)?;
    }
    Ok(())
}

/// The commitments `viewer` is shown (see [`shown`]), or `None` while some chain has none
/// yet (the first read issues them): every chain read in one statement, whoever looks.
pub fn shown_if_issued(
    conn: &mut Db,
    battle_id: &str,
    sides: &[String],
    viewer: Viewer,
    visible: &[Roll],
) -> Result<Option<Vec<ScenarioDiceCommitment>>, ApiError> {
    let chains = chains(battle_id, sides);
    let scopes: Vec<String> = chains.iter().map(|(_, scope)| scope.clone()).collect();
    let rows = commitments::chains(conn, &scopes)?;
    if rows.iter().any(Vec::is_empty) {
        return Ok(None);
    }
    let forces = chains.into_iter().map(|(force, _)| force);
    Ok(Some(shown_of(forces.zip(rows), viewer, visible)))
}

/// The commitments `viewer` is shown: the chain of neither side, and each side it sees in
/// full, each at the commitment after the last one spent by a roll in `visible`.
pub fn shown(
    conn: &mut Db,
    battle_id: &str,
    sides: &[String],
    viewer: Viewer,
    visible: &[Roll],
) -> Result<Vec<ScenarioDiceCommitment>, ApiError> {
    let chains = chains(battle_id, sides);
    let scopes: Vec<String> = chains.iter().map(|(_, scope)| scope.clone()).collect();
    let rows = commitments::chains(conn, &scopes)?;
    let forces = chains.into_iter().map(|(force, _)| force);
    Ok(shown_of(forces.zip(rows), viewer, visible))
}

/// [`shown`] of chains already read: (force id or none, the chain), the chain of neither side
/// first.
fn shown_of(
    chains: impl Iterator<Item = (Option<String>, Vec<commitments::CommitmentRow>)>,
    viewer: Viewer,
    visible: &[Roll],
) -> Vec<ScenarioDiceCommitment> {
    let mut out = Vec::new();
    for (i, (force, chain)) in chains.enumerate() {
        let sees = match (viewer, i) {
            (_, 0) | (Viewer::Everything, _) => true,
            (Viewer::Side(s), i) => s + 1 == i,
            (Viewer::Outsider, _) => false,
        };
        if !sees {
            continue;
        }
        let last_seen = chain.iter().rposition(|c| {
            visible
                .iter()
                .any(|r| r.proof.as_ref().is_some_and(|p| p.commitment_id == c.id))
        });
        let next = last_seen.map_or(0, |k| k + 1);
        if let Some(c) = chain.get(next) {
            out.push(ScenarioDiceCommitment {
                force_id: force,
                id: c.id.clone(),
                sha256: c.sha256.clone(),
            });
        }
    }
    out
}
