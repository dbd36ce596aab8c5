//! A campaign's timeline: its battles in order, each with its result and every player side's
//! aftermath summary (stage, campaign points, changes). Readable with the campaign's
//! integration key; it holds no secrets.

use fad_domain::lifecycle::AftermathStage;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::ApiError;
use crate::paging::Keyset;
use crate::store::{CreatedKey, aftermath as rows, battles};

use super::{AftermathSummary, BattleResponse};

/// One side's aftermath in the timeline.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimelineAftermath {
    /// The force.
    pub force_id: String,
    /// The force owner's display name (or username), as on the battle's side.
    pub owner_name: Option<String>,
    /// `open`, `rolled` or `finalized`.
    pub stage: AftermathStage,
    /// Campaign points (banked before, earned, spent, forfeited, balance), once finalized.
    #[schema(value_type = Option<fad_domain::campaign::CampaignPoints>)]
    pub campaign_points: Option<Value>,
    /// Per-unit changes, once finalized.
    #[schema(value_type = Option<Vec<fad_domain::campaign::UnitChange>>)]
    pub changes: Option<Value>,
}

/// One battle in the timeline.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimelineEntry {
    /// The battle with its result.
    pub battle: BattleResponse,
    /// Each player side's aftermath.
    pub aftermath: Vec<TimelineAftermath>,
}

/// A page of a campaign's timeline.
#[derive(Debug, Serialize, ToSchema)]
pub struct Timeline {
    /// Battles, oldest first.
    pub entries: Vec<TimelineEntry>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// One page of a campaign's timeline, oldest battle first.
pub async fn read_timeline(
    state: &AppState,
    caller: Caller,
    campaign_id: String,
    page: Keyset<CreatedKey>,
) -> Result<Timeline, ApiError> {
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (entries, next) = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let rows = battles::list_for_campaign(conn, &campaign_id, after.as_ref(), fetch)?;
            let (rows, next) = page.finish(rows, |b| (b.created_at, b.id.clone()))?;
            let mut battles = Vec::new();
            let mut aftermaths = Vec::new();
            for battle in rows {
                let stored = rows::list_for_battle(conn, &battle.id)?;
                let summaries = stored
                    .iter()
                    .map(|r| {
                        let outcome: Option<Value> = r
                            .outcome
                            .as_ref()
                            .map(serde_json::to_value)
                            .transpose()
                            .map_err(|e| ApiError::Internal(e.into()))?;
                        Ok(TimelineAftermath {
                            force_id: r.force_id.clone(),
                            // Named below, with the battle's sides.
                            owner_name: None,
                            stage: r.stage,
                            campaign_points: outcome
                                .as_ref()
                                .and_then(|o| o.get("campaign_points").cloned()),
                            changes: outcome.as_ref().and_then(|o| o.get("changes").cloned()),
                        })
                    })
                    .collect::<Result<Vec<_>, ApiError>>()?;
                battles.push(
                    BattleResponse::new(battle, AftermathSummary::of_rows(&stored))?
                        .with_public_scenario(conn)?,
                );
                aftermaths.push(summaries);
            }
            super::names::name_sides(conn, &mut battles)?;
            let out = battles
                .into_iter()
                .zip(aftermaths)
                .map(|(battle, mut aftermath)| {
                    for side in &mut aftermath {
                        side.owner_name = battle
                            .sides
                            .iter()
                            .find(|s| s.force_id.as_deref() == Some(side.force_id.as_str()))
                            .and_then(|s| s.owner_name.clone());
                    }
                    TimelineEntry { battle, aftermath }
                })
                .collect::<Vec<_>>();
            Ok((out, next))
        })
        .await?;
    Ok(Timeline { entries, next })
}
