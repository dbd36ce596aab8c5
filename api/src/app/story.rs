//! A campaign's story: what happened, newest first, from the event outbox
//! ([`crate::store::events`]), a page at a time (keyset on the event's `seq`). Each entry names
//! its battle (by its sides), force and member, so a page can say it in words and link them.
//! Events carry only what the campaign's integration key may read (ids, states, roles), so the
//! story shows nothing hidden: no orders, missions or objectives.

use std::collections::HashMap;

use chrono::NaiveDateTime;

use crate::AppState;
use crate::app::battles::Side;
use crate::app::battles::outcome::{side_label, who_won};
use crate::auth::{Caller, Need, campaign_access};
use crate::error::ApiError;
use crate::store::events::{EventData, EventType};
use crate::store::{campaigns, forces, memberships, story, users};

/// Entries per page.
pub const PAGE_SIZE: i64 = 25;
/// Most members named (a quota keeps campaigns far smaller).
const MEMBER_LIMIT: i64 = 1000;

/// Something an entry names: its id and what to call it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The id (for the link).
    pub id: String,
    /// The readable name.
    pub name: String,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoryEntry {
    /// Its place in the campaign's order (the page cursor).
    pub seq: i64,
    /// What happened.
    pub event_type: EventType,
    /// When (UTC).
    pub occurred_at: NaiveDateTime,
    /// The battle, by its sides' names (`Red Company vs Raiders`).
    pub battle: Option<Named>,
    /// The force.
    pub force: Option<Named>,
    /// The member (for `member.joined`).
    pub member: Option<Named>,
    /// The member's role, or the battle's state after the change.
    pub detail: Option<String>,
    /// Who won the result the entry is about, in words ("Alpha Company (Ann) won", "Draw").
    pub outcome: Option<String>,
    /// The organiser's reason, for a void or a reopened result.
    pub reason: Option<String>,
}

/// A page of the story.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Story {
    /// The campaign's id.
    pub campaign_id: String,
    /// The campaign's name.
    pub campaign_name: String,
    /// Newest first.
    pub entries: Vec<StoryEntry>,
    /// Pass as `before` for the next (older) page; `None` on the last page.
    pub before: Option<i64>,
}

/// One page of the story of `campaign_id`, older than `before` when given. Members only.
pub async fn read_story(
    state: &AppState,
    caller: Caller,
    campaign_id: String,
    before: Option<i64>,
) -> Result<Story, ApiError> {
    state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let campaign = campaigns::find_by_id(conn, &campaign_id)?
                .ok_or_else(|| ApiError::not_found("campaign"))?;
            let mut rows = story::events_before(conn, &campaign_id, before, PAGE_SIZE + 1)?;
            let more = rows.len() as i64 > PAGE_SIZE;
            rows.truncate(PAGE_SIZE as usize);
            let data: Vec<EventData> = rows
                .iter()
                .map(|r| serde_json::from_str(&r.payload).unwrap_or_default())
                .collect();

            let mut battle_ids: Vec<String> =
                data.iter().filter_map(|d| d.battle_id.clone()).collect();
            battle_ids.sort();
            battle_ids.dedup();
            let sides: HashMap<String, Vec<Side>> =
                story::battle_sides(conn, &campaign_id, &battle_ids)?
                    .into_iter()
                    .map(|(id, json)| (id, serde_json::from_str(&json).unwrap_or_default()))
                    .collect();
            let mut force_ids: Vec<String> = data
                .iter()
                .filter_map(|d| d.force_id.clone())
                .chain(sides.values().flatten().filter_map(|s| s.force_id.clone()))
                .collect();
            force_ids.sort();
            force_ids.dedup();
            let member_names: HashMap<String, String> =
                memberships::list_with_usernames(conn, &campaign_id, None, MEMBER_LIMIT)?
                    .into_iter()
                    .map(|(m, (username, display))| (m.user_id, users::shown(username, display)))
                    .collect();
            let campaign_forces: Vec<_> = forces::find_many(conn, &force_ids)?
                .into_iter()
                .filter(|f| f.campaign_id == campaign_id)
                .collect();
            let force_labels: HashMap<String, String> = campaign_forces
                .iter()
                .map(|f| {
                    let owner = member_names.get(&f.owner_id).map(String::as_str);
                    (f.id.clone(), side_label(&f.name, owner))
                })
                .collect();
            let force_names: HashMap<String, String> = campaign_forces
                .into_iter()
                .map(|f| (f.id, f.name))
                .collect();

            let force_name = |id: &str| {
                force_names
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| "A force".to_owned())
            };
            let side_name = |s: &Side| match (&s.force_id, &s.non_player) {
                (Some(force), _) => force_labels
                    .get(force)
                    .cloned()
                    .unwrap_or_else(|| "A force".to_owned()),
                (None, Some(np)) => np
                    .name
                    .clone()
                    .unwrap_or_else(|| "A non-player force".to_owned()),
                (None, None) => "A force".to_owned(),
            };
            let outcome = |data: &EventData| {
                let (battle, result) = (data.battle_id.as_deref()?, data.outcome.as_deref()?);
                let labelled: Vec<(Option<String>, String)> = sides
                    .get(battle)
                    .map(|all| {
                        all.iter()
                            .map(|s| (s.force_id.clone(), side_name(s)))
                            .collect()
                    })
                    .unwrap_or_default();
                Some(who_won(result, data.winner_force_id.as_deref(), &labelled))
            };
            let battle_name = |id: &str| match sides.get(id) {
                Some(sides) if !sides.is_empty() => sides
                    .iter()
                    .map(|s| match (&s.force_id, &s.non_player) {
                        (Some(force), _) => force_name(force),
                        (None, Some(np)) => np
                            .name
                            .clone()
                            .unwrap_or_else(|| "A non-player force".to_owned()),
                        (None, None) => "A force".to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join(" vs "),
                _ => "A battle".to_owned(),
            };
            let entries = rows
                .iter()
                .zip(data)
                .filter_map(|(row, data)| {
                    let event_type = EventType::parse(&row.event_type)?;
                    Some(StoryEntry {
                        seq: row.seq,
                        event_type,
                        occurred_at: row.occurred_at,
                        battle: data.battle_id.as_deref().map(|id| Named {
                            id: id.to_owned(),
                            name: battle_name(id),
                        }),
                        force: data.force_id.as_deref().map(|id| Named {
                            id: id.to_owned(),
                            name: force_name(id),
                        }),
                        member: data.user_id.as_deref().map(|id| Named {
                            id: id.to_owned(),
                            name: member_names
                                .get(id)
                                .cloned()
                                .unwrap_or_else(|| "A former member".to_owned()),
                        }),
                        outcome: outcome(&data),
                        reason: data.reason.clone(),
                        detail: data
                            .role
                            .or(data.state)
                            .or(data.removed.map(|_| "removed".to_owned())),
                    })
                })
                .collect();
            let before = more.then(|| rows.last().map(|r| r.seq)).flatten();
            Ok(Story {
                campaign_id,
                campaign_name: campaign.name,
                entries,
                before,
            })
        })
        .await
}
