//! `GET /api/v1/campaigns/{campaign_id}/standings`: the campaign table, per force (API.md
//! "Campaigns and membership"). Readable by members and by the campaign's integration keys.

use std::cmp::Reverse;

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use fad_domain::points::{force_points, round_points};

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::db::Db;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};
use crate::routes::battles::{BattleResult, Side};
use crate::store;

/// One force's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingRow {
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
    /// Campaign points earned.
    pub campaign_points: i64,
    /// The roster's current points value (docs/rules.md §4.3, two decimals).
    pub roster_points: f64,
}

/// A page of the standings of a campaign.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingsResponse {
    /// The campaign.
    pub campaign_id: String,
    /// One line per force: most wins first, then most campaign points, then fewest losses,
    /// then name (then force id).
    pub forces: Vec<StandingRow>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// The standings rows of a campaign: every force that is not archived, with zeros until it has
/// fought. Battle figures count `complete` battles only (every player side finalized, docs/rules.md
/// C20: the outcome is recorded, it has no mechanical effect; void battles never count);
/// campaign points are the points earned in the force's ledger, those of void battles
/// excluded; roster points are the roster's current value (§4.3).
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
            let mut row = StandingRow {
                force_id: force.id.clone(),
                name: force.name.clone(),
                owner_id: force.owner_id.clone(),
                owner_name: force.owner_name.clone(),
                battles: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                campaign_points: force.earned,
                roster_points: round_points(force_points(
                    &serde_json::from_str(&force.roster)
                        .map_err(|e| ApiError::Internal(anyhow::Error::from(e)))?,
                )),
            };
            for (sides, result) in &results {
                if !sides
                    .iter()
                    .any(|s| s.force_id.as_deref() == Some(force.id.as_str()))
                {
                    continue;
                }
                row.battles += 1;
                if result.outcome == "draw" {
                    row.draws += 1;
                } else if result.winner_force_id.as_deref() == Some(force.id.as_str()) {
                    row.wins += 1;
                } else {
                    row.losses += 1;
                }
            }
            Ok(row)
        })
        .collect()
}

/// A row's place in the standings, as a cursor stores it: wins, campaign points, losses, name,
/// force id.
type RankKey = (i64, i64, i64, String, String);

/// The order of the standings: most wins, then most campaign points, then fewest losses, then
/// name, then force id (so that no two rows tie and a page boundary is exact).
fn place<'a>(
    (wins, points, losses, name, id): (i64, i64, i64, &'a str, &'a str),
) -> (Reverse<i64>, Reverse<i64>, i64, &'a str, &'a str) {
    (Reverse(wins), Reverse(points), losses, name, id)
}

fn row_place(row: &StandingRow) -> (Reverse<i64>, Reverse<i64>, i64, &str, &str) {
    place((
        row.wins,
        row.campaign_points,
        row.losses,
        &row.name,
        &row.force_id,
    ))
}

/// Sorts rows into the standings' order.
fn rank(rows: &mut [StandingRow]) {
    rows.sort_by(|a, b| row_place(a).cmp(&row_place(b)));
}

/// Ranks every row, then keeps the rows after `after` (a page's last row): the standings are
/// computed from every force and battle anyway, so the page is cut here rather than in SQL.
fn rows_after(mut rows: Vec<StandingRow>, after: Option<&RankKey>) -> Vec<StandingRow> {
    rank(&mut rows);
    if let Some((wins, points, losses, name, id)) = after {
        let after = place((*wins, *points, *losses, name, id));
        rows.retain(|row| row_place(row) > after);
    }
    rows
}

/// Reads a campaign's standings: per force, battles, wins, draws, losses, campaign points and
/// roster points. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_standings",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "A page of the standings", body = StandingsResponse),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials, or a revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/standings")]
pub async fn get_standings(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<StandingsResponse>, ApiError> {
    let campaign_id = path.into_inner();
    let page = page.keyset::<RankKey>("standings", &campaign_id)?;
    let id = campaign_id.clone();
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &id, Need::Read)?;
            load_rows(conn, &id)
        })
        .await?;
    let mut rows = rows_after(rows, page.after.as_ref());
    rows.truncate(usize::try_from(page.fetch()).unwrap_or(usize::MAX));
    let (forces, next) = page.finish(rows, |r| {
        (
            r.wins,
            r.campaign_points,
            r.losses,
            r.name.clone(),
            r.force_id.clone(),
        )
    })?;
    Ok(web::Json(StandingsResponse {
        campaign_id,
        forces,
        next,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, wins: i64, campaign_points: i64, losses: i64) -> StandingRow {
        StandingRow {
            force_id: name.into(),
            name: name.into(),
            owner_id: "u".into(),
            owner_name: "U".into(),
            battles: wins + losses,
            wins,
            draws: 0,
            losses,
            campaign_points,
            roster_points: 0.0,
        }
    }

    #[test]
    fn standings_rank_by_wins_then_points_then_losses_then_name() {
        let mut rows = vec![
            row("d", 1, 5, 0),
            row("c", 1, 5, 2),
            row("b", 1, 9, 0),
            row("a", 2, 0, 3),
            row("e", 1, 5, 0),
        ];
        rank(&mut rows);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "d", "e", "c"]);
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
