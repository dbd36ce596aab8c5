//! The campaign standings, per force (docs/rules.md C20); the order of the table is
//! [`fad_domain::standings`].

use fad_domain::points::{force_points, round_points};
use fad_domain::standings::{Outcome, Record, Standing, positions, rank};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, campaign_access};
use crate::app::battles::{BattleResult, Side};
use crate::auth::Caller;
use crate::db::Db;
use crate::error::ApiError;
use crate::paging::Page;
use crate::store;

/// One force's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingRow {
    /// The force's place in the whole table, from 1; forces level on wins, campaign points and
    /// losses share it (1, 2, 2, 4).
    pub rank: i64,
    /// The force.
    pub force_id: String,
    /// The force's name.
    pub name: String,
    /// The owning player's user id.
    pub owner_id: String,
    /// The owning player's display name (or username).
    pub owner_name: String,
    /// Battles fought (confirmed results only).
    pub battles: i64,
    /// Battles won.
    pub wins: i64,
    /// Battles drawn.
    pub draws: i64,
    /// Battles lost.
    pub losses: i64,
    /// Campaign points earned in the campaign (what ranks the table; void battles excluded).
    pub campaign_points: i64,
    /// The same number as `campaign_points`, under a name that says what it is.
    pub campaign_points_earned: i64,
    /// The force's current campaign-point balance (earned less spent), as its roster and
    /// ledger show it.
    pub campaign_points_balance: i64,
    /// The roster's current points value (docs/rules.md §4.3, two decimals).
    pub roster_points: f64,
}

impl StandingRow {
    fn standing(&self) -> Standing<'_> {
        Standing {
            wins: self.wins,
            campaign_points: self.campaign_points,
            losses: self.losses,
            name: &self.name,
            force_id: &self.force_id,
        }
    }
}

/// A row's place in the standings, as a cursor stores it: wins, campaign points, losses, name,
/// force id.
type RankKey = (i64, i64, i64, String, String);

/// The standings rows of a campaign: every force that is not archived, with zeros until it has
/// fought. Battle figures count `complete` battles only (every player side finalized; void
/// battles never count); campaign points are the points earned in the force's ledger, those
/// of void battles excluded; roster points are the roster's current value (§4.3).
fn load_rows(conn: &mut Db, campaign_id: &str) -> Result<Vec<StandingRow>, ApiError> {
    let (forces, complete) = store::standings::load(conn, campaign_id)?;
    let results: Vec<(Vec<Side>, BattleResult)> = complete
        .into_iter()
        .filter_map(|battle| {
            let sides = serde_json::from_str(&battle.sides).ok()?;
            let result = serde_json::from_str(&battle.result?).ok()?;
            Some((sides, result))
        })
        .collect();
    forces
        .iter()
        .map(|force| {
            let mut record = Record::default();
            for (sides, result) in &results {
                let fought = sides
                    .iter()
                    .any(|s| s.force_id.as_deref() == Some(force.id.as_str()));
                if fought {
                    record.add(Outcome::for_force(
                        &force.id,
                        result.outcome == "draw",
                        result.winner_force_id.as_deref(),
                    ));
                }
            }
            let Record {
                battles,
                wins,
                draws,
                losses,
            } = record;
            Ok(StandingRow {
                // Numbered once the whole table is in order (`rows_after`).
                rank: 0,
                force_id: force.id.clone(),
                name: force.name.clone(),
                owner_id: force.owner_id.clone(),
                owner_name: force.owner_name.clone(),
                battles,
                wins,
                draws,
                losses,
                campaign_points: force.earned,
                campaign_points_earned: force.earned,
                campaign_points_balance: force.balance,
                roster_points: round_points(force_points(&crate::store::doc::decode(
                    &force.roster,
                )?)),
            })
        })
        .collect()
}

/// Every standings row of a campaign, ranked (for a page that shows the whole table inside a
/// read it already runs; the caller has checked access).
pub fn ranked_rows(conn: &mut Db, campaign_id: &str) -> Result<Vec<StandingRow>, ApiError> {
    Ok(rows_after(load_rows(conn, campaign_id)?, None))
}

/// Ranks every row, then keeps the rows after `after` (a page's last row): the standings are
/// computed from every force and battle anyway, so the page is cut here rather than in SQL.
fn rows_after(mut rows: Vec<StandingRow>, after: Option<&RankKey>) -> Vec<StandingRow> {
    rank(&mut rows, StandingRow::standing);
    let ranks = positions(&rows, StandingRow::standing);
    for (row, place) in rows.iter_mut().zip(ranks) {
        row.rank = place;
    }
    if let Some((wins, campaign_points, losses, name, force_id)) = after {
        let after = Standing {
            wins: *wins,
            campaign_points: *campaign_points,
            losses: *losses,
            name,
            force_id,
        }
        .place();
        rows.retain(|row| row.standing().place() > after);
    }
    rows
}

/// Reads a page of a campaign's standings. Members and the campaign's integration keys may.
pub async fn read_standings(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    page: Page,
) -> Result<Listed<StandingRow>, ApiError> {
    let page = page.keyset::<RankKey>("standings", campaign_id)?;
    let (caller, id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &id, Need::Read)?;
            load_rows(conn, &id)
        })
        .await?;
    let mut rows = rows_after(rows, page.after.as_ref());
    rows.truncate(usize::try_from(page.fetch()).unwrap_or(usize::MAX));
    let (items, next) = page.finish(rows, |r| {
        (
            r.wins,
            r.campaign_points,
            r.losses,
            r.name.clone(),
            r.force_id.clone(),
        )
    })?;
    Ok(Listed { items, next })
}

/// A published table: the campaign's name and every row, ranked.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicStandings {
    /// The campaign's name.
    pub campaign_name: String,
    /// Every row, in order.
    pub rows: Vec<StandingRow>,
}

/// The standings of a campaign whose organiser published them (`public_standings`), for anyone;
/// 404, the same as for no such campaign, while they are not published.
pub async fn read_public_standings(
    state: &AppState,
    campaign_id: &str,
) -> Result<PublicStandings, ApiError> {
    let id = campaign_id.to_owned();
    state
        .db
        .run(move |conn| {
            let hidden = || ApiError::NotFound("No published standings here.".to_owned());
            let campaign = store::campaigns::find_by_id(conn, &id)?.ok_or_else(hidden)?;
            let published = campaign
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))?
                .public_standings;
            if !published {
                return Err(hidden());
            }
            Ok(PublicStandings {
                campaign_name: campaign.name,
                rows: ranked_rows(conn, &id)?,
            })
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, wins: i64, campaign_points: i64, losses: i64) -> StandingRow {
        StandingRow {
            rank: 0,
            force_id: name.into(),
            name: name.into(),
            owner_id: "u".into(),
            owner_name: "U".into(),
            battles: wins + losses,
            wins,
            draws: 0,
            losses,
            campaign_points,
            campaign_points_earned: campaign_points,
            campaign_points_balance: 0,
            roster_points: 0.0,
        }
    }

    #[test]
    fn rows_after_a_cursor_continue_the_ranking_even_when_names_tie() {
        let mut twin = row("d", 1, 5, 0);
        twin.force_id = "d2".into();
        let rows = vec![
            row("c", 1, 5, 2),
            twin,
            row("a", 2, 0, 3),
            row("d", 1, 5, 0),
        ];
        let ids = |rows: Vec<StandingRow>| -> Vec<String> {
            rows.into_iter().map(|r| r.force_id).collect()
        };
        assert_eq!(ids(rows_after(rows.clone(), None)), ["a", "d", "d2", "c"]);
        let after_d = (1, 5, 0, "d".to_owned(), "d".to_owned());
        assert_eq!(ids(rows_after(rows, Some(&after_d))), ["d2", "c"]);
    }
}
