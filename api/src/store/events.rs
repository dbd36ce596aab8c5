//! The event outbox: a typed [`Event`] appended inside the transaction of the change it
//! reports, so it exists exactly when the change committed. Appending also queues one delivery
//! per subscribed, active webhook of the campaign (see [`crate::store::webhooks`]).
//!
//! Order: on PostgreSQL, [`append`] takes a per-campaign transaction lock before drawing the
//! next `seq`, so a campaign's events commit in `seq` order and a reader never sees a gap
//! fill in later. SQLite has one writer at a time, which gives the same.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use crate::db::Db;
use crate::error::ApiError;
use crate::schema::{events, webhook_deliveries, webhooks};
use crate::store::{new_id, now};

/// Namespace of the PostgreSQL advisory locks that order a campaign's appends (the second key
/// is the campaign id's hash); any fixed number unused elsewhere.
const APPEND_LOCK_NAMESPACE: i32 = 0x000f_ade7;

/// What happened. The wire names are the `type` of a webhook body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum EventType {
    /// A battle was set up.
    #[serde(rename = "battle.created")]
    BattleCreated,
    /// A side recorded the result.
    #[serde(rename = "battle.result_recorded")]
    BattleResultRecorded,
    /// The other side (or the organiser) confirmed the result.
    #[serde(rename = "battle.result_confirmed")]
    BattleResultConfirmed,
    /// Both sides may play: every scenario step is done.
    #[serde(rename = "battle.scenario_ready")]
    BattleScenarioReady,
    /// Every post-battle sequence of the battle is finalized.
    #[serde(rename = "battle.completed")]
    BattleCompleted,
    /// The battle was voided.
    #[serde(rename = "battle.voided")]
    BattleVoided,
    /// The organiser took the result back (the battle returns to its scenario).
    #[serde(rename = "battle.result_reopened")]
    BattleResultReopened,
    /// A turn of solo play: the non-player side's groups took their Discipline Tests.
    #[serde(rename = "battle.solo_turn")]
    BattleSoloTurn,
    /// A force was created.
    #[serde(rename = "force.created")]
    ForceCreated,
    /// One force's post-battle sequence was finalized.
    #[serde(rename = "aftermath.finalized")]
    AftermathFinalized,
    /// Someone joined the campaign.
    #[serde(rename = "member.joined")]
    MemberJoined,
    /// A test delivery asked for by the organiser (sent to that one webhook only).
    #[serde(rename = "ping")]
    Ping,
}

impl EventType {
    /// Every type, in the order the documentation lists them.
    pub const ALL: [EventType; 12] = [
        Self::BattleCreated,
        Self::BattleResultRecorded,
        Self::BattleResultConfirmed,
        Self::BattleScenarioReady,
        Self::BattleCompleted,
        Self::BattleVoided,
        Self::BattleResultReopened,
        Self::BattleSoloTurn,
        Self::ForceCreated,
        Self::AftermathFinalized,
        Self::MemberJoined,
        Self::Ping,
    ];

    /// The wire name, e.g. `battle.created`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BattleCreated => "battle.created",
            Self::BattleResultRecorded => "battle.result_recorded",
            Self::BattleResultConfirmed => "battle.result_confirmed",
            Self::BattleScenarioReady => "battle.scenario_ready",
            Self::BattleCompleted => "battle.completed",
            Self::BattleVoided => "battle.voided",
            Self::BattleResultReopened => "battle.result_reopened",
            Self::BattleSoloTurn => "battle.solo_turn",
            Self::ForceCreated => "force.created",
            Self::AftermathFinalized => "aftermath.finalized",
            Self::MemberJoined => "member.joined",
            Self::Ping => "ping",
        }
    }

    /// The type with this wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// The `data` of an event: ids and states an integration key of the campaign may read, never
/// a secret of a scenario (hidden orders, objectives) nor anything about a person beyond their
/// id and role.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EventData {
    /// The campaign.
    pub campaign_id: String,
    /// The battle, for `battle.*` and `aftermath.finalized`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle_id: Option<String>,
    /// The force, for `force.created` and `aftermath.finalized`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The battle's state after the change (`scenario`, `pending`, `aftermath`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The member, for `member.joined`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// The member's role, for `member.joined`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The result's outcome (`win` or `draw`), for events of a battle with a result (for
    /// `battle.result_reopened`, the result taken back), so a story says who won then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// The winning force of that result (absent for a draw or a non-player win).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner_force_id: Option<String>,
    /// The organiser's reason, for `battle.voided` and `battle.result_reopened`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The webhook a `ping` was sent to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_id: Option<String>,
}

/// One event to append: its type and data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub event_type: EventType,
    /// What an integration may read about it.
    pub data: EventData,
}

impl Event {
    /// A `battle.*` event with the battle's state after the change.
    pub fn battle(event_type: EventType, campaign_id: &str, battle_id: &str, state: &str) -> Self {
        Self {
            event_type,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                battle_id: Some(battle_id.to_owned()),
                state: Some(state.to_owned()),
                ..EventData::default()
            },
        }
    }

    /// `force.created`.
    pub fn force_created(campaign_id: &str, force_id: &str) -> Self {
        Self {
            event_type: EventType::ForceCreated,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                force_id: Some(force_id.to_owned()),
                ..EventData::default()
            },
        }
    }

    /// `aftermath.finalized`: one force's post-battle sequence of one battle.
    pub fn aftermath_finalized(campaign_id: &str, battle_id: &str, force_id: &str) -> Self {
        Self {
            event_type: EventType::AftermathFinalized,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                battle_id: Some(battle_id.to_owned()),
                force_id: Some(force_id.to_owned()),
                ..EventData::default()
            },
        }
    }

    /// `member.joined`.
    pub fn member_joined(campaign_id: &str, user_id: &str, role: &str) -> Self {
        Self {
            event_type: EventType::MemberJoined,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                user_id: Some(user_id.to_owned()),
                role: Some(role.to_owned()),
                ..EventData::default()
            },
        }
    }

    /// `ping`, delivered to `webhook_id` only.
    pub fn ping(campaign_id: &str, webhook_id: &str) -> Self {
        Self {
            event_type: EventType::Ping,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                webhook_id: Some(webhook_id.to_owned()),
                ..EventData::default()
            },
        }
    }
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = events)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct StoredEvent {
    /// Order within the campaign (and overall).
    pub seq: i64,
    /// The message id (`webhook-id`).
    pub id: String,
    /// The wire type name.
    pub event_type: String,
    /// The campaign.
    pub campaign_id: String,
    /// The battle, if any.
    pub battle_id: Option<String>,
    /// The force, if any.
    pub force_id: Option<String>,
    /// When it was appended (UTC).
    pub occurred_at: NaiveDateTime,
    /// The `data` object as JSON.
    pub payload: String,
}

#[derive(Insertable)]
#[diesel(table_name = events)]
struct NewEvent<'a> {
    id: &'a str,
    event_type: &'a str,
    campaign_id: &'a str,
    battle_id: Option<&'a str>,
    force_id: Option<&'a str>,
    occurred_at: NaiveDateTime,
    payload: &'a str,
}

#[derive(Insertable)]
#[diesel(table_name = webhook_deliveries)]
struct NewDelivery<'a> {
    id: String,
    webhook_id: &'a str,
    event_seq: i64,
    status: &'a str,
    attempts: i32,
    next_attempt_at: NaiveDateTime,
    created_at: NaiveDateTime,
}

/// Appends `event` inside the caller's transaction and queues its deliveries. Call it from the
/// transaction that makes the change, after the change's own writes (the PostgreSQL lock it
/// takes is held until commit, so the later it comes, the shorter other writers wait).
pub fn append(conn: &mut Db, event: &Event) -> Result<(), ApiError> {
    let campaign_id = event.data.campaign_id.as_str();
    if let Db::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind::<diesel::sql_types::Integer, _>(APPEND_LOCK_NAMESPACE)
            .bind::<diesel::sql_types::Text, _>(campaign_id)
            .execute(pg)?;
    }
    let id = new_id();
    let at = now();
    let payload = serde_json::to_string(&event.data)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("event payload: {e}")))?;
    diesel::insert_into(events::table)
        .values(&NewEvent {
            id: &id,
            event_type: event.event_type.as_str(),
            campaign_id,
            battle_id: event.data.battle_id.as_deref(),
            force_id: event.data.force_id.as_deref(),
            occurred_at: at,
            payload: &payload,
        })
        .execute(conn)?;
    let seq: i64 = events::table
        .filter(events::id.eq(&id))
        .select(events::seq)
        .first(conn)?;

    let hooks: Vec<(String, String)> = webhooks::table
        .filter(webhooks::campaign_id.eq(campaign_id))
        .filter(webhooks::disabled_at.is_null())
        .select((webhooks::id, webhooks::events))
        .load(conn)?;
    let rows: Vec<NewDelivery<'_>> = hooks
        .iter()
        .filter(|(hook_id, subscribed)| match event.event_type {
            EventType::Ping => event.data.webhook_id.as_deref() == Some(hook_id.as_str()),
            other => subscribes_to(subscribed, other),
        })
        .map(|(hook_id, _)| NewDelivery {
            id: new_id(),
            webhook_id: hook_id,
            event_seq: seq,
            status: "pending",
            attempts: 0,
            next_attempt_at: at,
            created_at: at,
        })
        .collect();
    // One statement per row: a quota keeps webhooks few, and a multi-row insert does not
    // compile for the two-backend connection.
    for row in &rows {
        diesel::insert_into(webhook_deliveries::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// Whether a webhook's stored list (a JSON array of type names) includes `event_type`.
fn subscribes_to(subscribed: &str, event_type: EventType) -> bool {
    serde_json::from_str::<Vec<String>>(subscribed)
        .map(|names| names.iter().any(|n| n == event_type.as_str()))
        .unwrap_or(false)
}

/// Up to `limit` events of a campaign after `after_seq`, oldest first.
pub fn list_for_campaign(
    conn: &mut Db,
    campaign_id: &str,
    after_seq: i64,
    limit: i64,
) -> QueryResult<Vec<StoredEvent>> {
    events::table
        .filter(events::campaign_id.eq(campaign_id))
        .filter(events::seq.gt(after_seq))
        .order(events::seq.asc())
        .limit(limit)
        .select(StoredEvent::as_select())
        .load(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip_through_serde_and_parse() {
        for t in EventType::ALL {
            let json = serde_json::to_string(&t).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", t.as_str()));
            assert_eq!(EventType::parse(t.as_str()), Some(t));
        }
        assert_eq!(EventType::parse("battle.exploded"), None);
    }

    #[test]
    fn data_leaves_out_absent_fields() {
        let event = Event::force_created("c1", "f1");
        let json = serde_json::to_string(&event.data).unwrap_or_default();
        assert_eq!(json, r#"{"campaign_id":"c1","force_id":"f1"}"#);
    }

    #[test]
    fn subscription_list_is_matched_by_wire_name() {
        let list = r#"["battle.created","force.created"]"#;
        assert!(subscribes_to(list, EventType::ForceCreated));
        assert!(!subscribes_to(list, EventType::BattleVoided));
        assert!(!subscribes_to("not json", EventType::ForceCreated));
    }
}
