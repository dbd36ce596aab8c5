//! Reads for a campaign's story: its events newest first, and the battle sides its lines name.

use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{battles, events};
use crate::store::events::{EventType, StoredEvent};

/// Up to `limit` events of a campaign, newest first, older than `before` (a `seq`) when given.
/// Test deliveries (`ping`) and the step-by-step nudges for bots (each scenario turn, each
/// post-battle roll) are not part of the story.
pub fn events_before(
    conn: &mut Db,
    campaign_id: &str,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<StoredEvent>> {
    let mut query = events::table
        .filter(events::campaign_id.eq(campaign_id))
        .filter(events::event_type.ne_all([
            EventType::Ping.as_str(),
            EventType::ScenarioStepChanged.as_str(),
            EventType::AftermathStepRolled.as_str(),
        ]))
        .order(events::seq.desc())
        .limit(limit)
        .select(StoredEvent::as_select())
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(events::seq.lt(before));
    }
    query.load(conn)
}

/// The stored `sides` (JSON) of the battles `ids` of campaign `campaign_id`, by battle id.
pub fn battle_sides(
    conn: &mut Db,
    campaign_id: &str,
    ids: &[String],
) -> QueryResult<Vec<(String, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .filter(battles::id.eq_any(ids.to_vec()))
        .select((battles::id, battles::sides))
        .load(conn)
}
