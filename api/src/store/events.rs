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
use crate::store::ledger::LedgerKind;
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
    /// The scenario moved on: a new step, or another side's turn (`waiting_for` says whose).
    #[serde(rename = "scenario.step_changed")]
    ScenarioStepChanged,
    /// A step of one force's post-battle sequence was rolled.
    #[serde(rename = "aftermath.step_rolled")]
    AftermathStepRolled,
    /// A force's roster was edited.
    #[serde(rename = "force.roster_changed")]
    ForceRosterChanged,
    /// The organiser adjusted a force's campaign-point ledger.
    #[serde(rename = "force.ledger_adjusted")]
    ForceLedgerAdjusted,
    /// A member left the campaign or was removed by the organiser.
    #[serde(rename = "member.left")]
    MemberLeft,
    /// A test delivery asked for by the organiser (sent to that one webhook only).
    #[serde(rename = "ping")]
    Ping,
}

impl EventType {
    /// Every type, in the order the documentation lists them.
    pub const ALL: [EventType; 17] = [
        Self::BattleCreated,
        Self::BattleResultRecorded,
        Self::BattleResultConfirmed,
        Self::BattleScenarioReady,
        Self::BattleCompleted,
        Self::BattleVoided,
        Self::BattleResultReopened,
        Self::BattleSoloTurn,
        Self::ScenarioStepChanged,
        Self::ForceCreated,
        Self::ForceRosterChanged,
        Self::ForceLedgerAdjusted,
        Self::AftermathStepRolled,
        Self::AftermathFinalized,
        Self::MemberJoined,
        Self::MemberLeft,
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
            Self::ScenarioStepChanged => "scenario.step_changed",
            Self::AftermathStepRolled => "aftermath.step_rolled",
            Self::ForceRosterChanged => "force.roster_changed",
            Self::ForceLedgerAdjusted => "force.ledger_adjusted",
            Self::MemberLeft => "member.left",
            Self::Ping => "ping",
        }
    }

    /// The type with this wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// The `data` of an event: ids, states and the names an integration key of the campaign may
/// read (the campaign's, forces' and owners' shown names), with `links` to the pages and API
/// resources it is about; never a secret of a scenario (hidden orders, objectives, whether a
/// side has made a secret choice).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EventData {
    /// The campaign.
    pub campaign_id: String,
    /// The campaign's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign_name: Option<String>,
    /// The ruleset the campaign plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<fad_domain::rulesets::RulesetPin>,
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
    #[schema(value_type = Option<ResultOutcome>)]
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
    /// The battle's two sides, for events about a battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<EventForce>,
    /// The force's name, for events about one force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_name: Option<String>,
    /// The shown name of the force's owner, for events about one force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_name: Option<String>,
    /// The member's shown name, for `member.joined` and `member.left`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_name: Option<String>,
    /// Whether the organiser removed the member (`member.left`); absent when they left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<bool>,
    /// The scenario step now (`scenario.step_changed`) or the post-battle step rolled
    /// (`aftermath.step_rolled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<EventStep>,
    /// The sides that must act now, for `scenario.step_changed`: in a secret step both player
    /// sides until it closes, so it never tells who has already chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_for: Option<Vec<EventForce>>,
    /// In the recon step: whether the side is asked for its `turn` or a `block`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recon_prompt: Option<fad_domain::scenario::recon_phase::ReconPrompt>,
    /// The kind of a ledger adjustment (`force.ledger_adjusted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<LedgerKind>,
    /// The campaign points of a ledger adjustment (`force.ledger_adjusted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// The roster's version after the edit (`force.roster_changed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    /// Where to read more: absolute page and API addresses (relative paths when the server has
    /// no `FAD_PUBLIC_URL`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<EventLinks>,
}

/// How a recorded battle ended (the words of a result's `outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResultOutcome {
    /// One side won (`winner_force_id`, absent when the non-player side won).
    Win,
    /// Nobody won.
    Draw,
}

/// A force named in an event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EventForce {
    /// The stored force; absent for a non-player side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_id: Option<String>,
    /// The force's name.
    pub force_name: String,
    /// Its owner's shown name; absent for a non-player side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_name: Option<String>,
    /// Whether the side plays itself by the rules.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_player: bool,
}

/// A scenario step (`scenario.step_changed`) or a post-battle step (`aftermath.step_rolled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventStep {
    /// Scenario: secret orders (stance, attitude, recon duty).
    Orders,
    /// Scenario: mission bonuses.
    MissionBonuses,
    /// Scenario: a tied side picks its mission.
    MissionChoice,
    /// Scenario: recon actions, one side's turn at a time.
    Recon,
    /// Scenario: done, the battle may start.
    Ready,
    /// Post-battle: replacements.
    Replacement,
    /// Post-battle: vehicle replacement.
    VehicleReplacement,
    /// Post-battle: quality loss.
    QualityLoss,
    /// Post-battle: unknown Resolve rolled for the first time.
    UnknownResolve,
    /// Post-battle: resolve change.
    ResolveChange,
    /// Post-battle: reinforcements.
    Reinforcements,
}

impl EventStep {
    /// The step of a post-battle roll (none for a roll of another workflow).
    pub fn of_roll(step: fad_domain::dice::RollStep) -> Option<Self> {
        use fad_domain::dice::RollStep as R;
        Some(match step {
            R::Replacement => Self::Replacement,
            R::VehicleReplacement => Self::VehicleReplacement,
            R::QualityLoss => Self::QualityLoss,
            R::UnknownResolve => Self::UnknownResolve,
            R::ResolveChange => Self::ResolveChange,
            R::Reinforcements => Self::Reinforcements,
            _ => return None,
        })
    }
}

/// Addresses an event is about. Page addresses are for people; `*_api` ones for programs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EventLinks {
    /// The campaign's page.
    pub campaign: String,
    /// The campaign in the API.
    pub campaign_api: String,
    /// The battle's page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<String>,
    /// The battle in the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle_api: Option<String>,
    /// The force's page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<String>,
    /// The force in the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_api: Option<String>,
    /// The force's post-battle page of the battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aftermath: Option<String>,
}

impl EventLinks {
    /// The links as paths; the delivery worker puts the public address in front.
    pub fn paths(data: &EventData) -> Self {
        let battle = data.battle_id.as_deref();
        let force = data.force_id.as_deref();
        Self {
            campaign: format!("/campaigns/{}", data.campaign_id),
            campaign_api: format!("/api/v1/campaigns/{}", data.campaign_id),
            battle: battle.map(|b| format!("/battles/{b}")),
            battle_api: battle.map(|b| format!("/api/v1/battles/{b}")),
            force: force.map(|f| format!("/forces/{f}")),
            force_api: force.map(|f| format!("/api/v1/forces/{f}")),
            aftermath: battle
                .zip(force)
                .map(|(b, f)| format!("/battles/{b}/aftermath/{f}")),
        }
    }

    /// Every link with `base` in front (an empty base leaves paths).
    pub fn absolute(mut self, base: &str) -> Self {
        let join = |path: &mut String| *path = format!("{base}{path}");
        join(&mut self.campaign);
        join(&mut self.campaign_api);
        for link in [
            &mut self.battle,
            &mut self.battle_api,
            &mut self.force,
            &mut self.force_api,
            &mut self.aftermath,
        ]
        .into_iter()
        .flatten()
        {
            join(link);
        }
        self
    }
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

    /// `aftermath.step_rolled`: `step` of one force's post-battle sequence was rolled.
    pub fn aftermath_step_rolled(
        campaign_id: &str,
        battle_id: &str,
        force_id: &str,
        step: fad_domain::dice::RollStep,
    ) -> Self {
        let mut event = Self::aftermath_finalized(campaign_id, battle_id, force_id);
        event.event_type = EventType::AftermathStepRolled;
        event.data.step = EventStep::of_roll(step);
        event
    }

    /// A `force.*` event about one force.
    pub fn force(event_type: EventType, campaign_id: &str, force_id: &str) -> Self {
        let mut event = Self::force_created(campaign_id, force_id);
        event.event_type = event_type;
        event
    }

    /// `member.left`: `user_id` left, or was `removed` by the organiser.
    pub fn member_left(campaign_id: &str, user_id: &str, removed: bool) -> Self {
        Self {
            event_type: EventType::MemberLeft,
            data: EventData {
                campaign_id: campaign_id.to_owned(),
                user_id: Some(user_id.to_owned()),
                removed: removed.then_some(true),
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
    let mut data = event.data.clone();
    let listened = crate::store::event_names::fill(conn, &mut data)?;
    let payload = serde_json::to_string(&data)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("event payload: {e}")))?;
    let seq: i64 = crate::on_backend!(conn, |conn| diesel::insert_into(events::table)
        .values(&NewEvent {
            id: &id,
            event_type: event.event_type.as_str(),
            campaign_id,
            battle_id: event.data.battle_id.as_deref(),
            force_id: event.data.force_id.as_deref(),
            occurred_at: at,
            payload: &payload,
        })
        .returning(events::seq)
        .get_result(conn))?;
    if !listened {
        // No webhook of the campaign is enabled: nothing to deliver.
        return Ok(());
    }
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
