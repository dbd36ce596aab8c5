//! `GET /api/v1/campaigns/{campaign_id}/standings`: the campaign table, per force (API.md
//! "Campaigns and membership"). Readable by members and by the campaign's integration keys.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use fad_domain::points::{force_points, round_points};

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::db::Db;
use crate::error::{ApiError, Problem};
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
    /// The roster's current points value (RULES.md §4.3, two decimals).
    pub roster_points: f64,
}

/// The standings of a campaign.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingsResponse {
    /// The campaign.
    pub campaign_id: String,
    /// One line per force: most wins first, then most campaign points, then name.
    pub forces: Vec<StandingRow>,
}

/// The standings rows of a campaign: every force that is not archived, with zeros until it has
/// fought. Battle figures count `complete` battles only (every player side finalized, RULES.md
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

/// Sorts rows: most wins, then most campaign points, then fewest losses, then name.
fn rank(rows: &mut [StandingRow]) {
    rows.sort_by(|a, b| {
        b.wins
            .cmp(&a.wins)
            .then(b.campaign_points.cmp(&a.campaign_points))
            .then(a.losses.cmp(&b.losses))
            .then(a.name.cmp(&b.name))
    });
}

/// Reads a campaign's standings: per force, battles, wins, draws, losses, campaign points and
/// roster points. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_standings",
    security(("bearer" = []), ("api_key" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The standings", body = StandingsResponse),
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
) -> Result<web::Json<StandingsResponse>, ApiError> {
    let campaign_id = path.into_inner();
    let id = campaign_id.clone();
    let mut forces = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &id, Need::Read)?;
            load_rows(conn, &id)
        })
        .await?;
    rank(&mut forces);
    Ok(web::Json(StandingsResponse {
        campaign_id,
        forces,
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
}
