//! Webhooks and their deliveries: the organiser's list, the delivery log, and the queue the
//! delivery worker claims from (see [`crate::webhooks::worker`]).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};

use crate::db::Db;
use crate::schema::{events, webhook_deliveries, webhooks};
use crate::store::CreatedKey;

/// Delivery states.
pub mod status {
    /// Waiting for its (next) attempt.
    pub const PENDING: &str = "pending";
    /// The receiver answered 2xx.
    pub const DELIVERED: &str = "delivered";
    /// Given up: every retry failed, or the webhook was disabled.
    pub const FAILED: &str = "failed";
    /// Skipped by the organiser: never sent, and no longer holds later deliveries back.
    pub const SKIPPED: &str = "skipped";
}

/// The event type of test pings: they take no part in a webhook's delivery order.
pub const PING: &str = "ping";

/// A webhook row, secret included (only the worker and creation see it).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhooks)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Webhook {
    /// The webhook id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// Where deliveries go.
    pub url: String,
    /// Subscribed event types as a JSON array.
    pub events: String,
    /// The organiser's note.
    pub description: Option<String>,
    /// `whsec_…`: the signing key.
    pub secret: String,
    /// The organiser who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// When it was disabled, if it was.
    pub disabled_at: Option<NaiveDateTime>,
    /// Why it was disabled.
    pub disabled_reason: Option<String>,
}

/// A delivery row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Delivery {
    /// The delivery id.
    pub id: String,
    /// Its webhook.
    pub webhook_id: String,
    /// The event's `seq`.
    pub event_seq: i64,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    /// Attempts made.
    pub attempts: i32,
    /// When the next attempt is due (pending only).
    pub next_attempt_at: NaiveDateTime,
    /// A worker's claim: no other takes it before then.
    pub leased_until: Option<NaiveDateTime>,
    /// When the last attempt was made.
    pub last_attempt_at: Option<NaiveDateTime>,
    /// The receiver's HTTP status at the last attempt.
    pub last_status_code: Option<i32>,
    /// Why the last attempt failed, in plain words.
    pub last_error: Option<String>,
    /// When it was queued (the event's time).
    pub created_at: NaiveDateTime,
}

/// Inserts a webhook.
pub fn insert(conn: &mut Db, hook: &Webhook) -> QueryResult<()> {
    diesel::insert_into(webhooks::table)
        .values(hook)
        .execute(conn)
        .map(|_| ())
}

/// How many webhooks the campaign has (disabled ones included).
pub fn count_for_campaign(conn: &mut Db, campaign_id: &str) -> QueryResult<i64> {
    webhooks::table
        .filter(webhooks::campaign_id.eq(campaign_id))
        .count()
        .get_result(conn)
}

/// The campaign's webhooks, oldest first (a quota bounds them).
pub fn list_for_campaign(conn: &mut Db, campaign_id: &str) -> QueryResult<Vec<Webhook>> {
    webhooks::table
        .filter(webhooks::campaign_id.eq(campaign_id))
        .order((webhooks::created_at.asc(), webhooks::id.asc()))
        .select(Webhook::as_select())
        .load(conn)
}

/// One webhook of the campaign.
pub fn find_in_campaign(
    conn: &mut Db,
    campaign_id: &str,
    hook_id: &str,
) -> QueryResult<Option<Webhook>> {
    webhooks::table
        .filter(webhooks::campaign_id.eq(campaign_id))
        .filter(webhooks::id.eq(hook_id))
        .select(Webhook::as_select())
        .first(conn)
        .optional()
}

/// Deletes a webhook (its deliveries go with it).
pub fn delete(conn: &mut Db, hook_id: &str) -> QueryResult<()> {
    diesel::delete(webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq(hook_id)))
        .execute(conn)?;
    diesel::delete(webhooks::table.filter(webhooks::id.eq(hook_id)))
        .execute(conn)
        .map(|_| ())
}

/// The webhook's latest delivery that has been attempted, if any.
pub fn last_attempted(conn: &mut Db, hook_id: &str) -> QueryResult<Option<Delivery>> {
    webhook_deliveries::table
        .filter(webhook_deliveries::webhook_id.eq(hook_id))
        .filter(webhook_deliveries::last_attempt_at.is_not_null())
        .order((
            webhook_deliveries::last_attempt_at.desc(),
            webhook_deliveries::event_seq.desc(),
        ))
        .select(Delivery::as_select())
        .first(conn)
        .optional()
}

/// Up to `limit` deliveries of a webhook with their event's id and type, newest first (ties
/// by id), after the one whose key is `after`.
pub fn list_deliveries(
    conn: &mut Db,
    hook_id: &str,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<(Delivery, String, String)>> {
    let mut query = webhook_deliveries::table
        .inner_join(events::table)
        .filter(webhook_deliveries::webhook_id.eq(hook_id))
        .order((
            webhook_deliveries::created_at.desc(),
            webhook_deliveries::id.asc(),
        ))
        .select((Delivery::as_select(), events::id, events::event_type))
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            webhook_deliveries::created_at
                .lt(*at)
                .or(webhook_deliveries::created_at
                    .eq(*at)
                    .and(webhook_deliveries::id.gt(id.clone()))),
        );
    }
    query.load(conn)
}

/// A claimed delivery with what sending it needs.
#[derive(Debug, Clone)]
pub struct Claimed {
    /// The delivery.
    pub delivery: Delivery,
    /// Its webhook (with the secret).
    pub webhook: Webhook,
    /// Its event.
    pub event: crate::store::events::StoredEvent,
}

#[derive(QueryableByName)]
struct ClaimedId {
    #[diesel(sql_type = Text)]
    id: String,
}

/// Claims up to `limit` due deliveries, at most one per webhook and only the oldest pending
/// one of each (so a webhook's events go out in order), leasing them until `lease_until`.
/// Test pings stand outside that order: a ping goes when due, and a pending ping (failing,
/// perhaps, with retries for a day) holds back no event. On
/// PostgreSQL `FOR UPDATE SKIP LOCKED` lets several processes claim side by side without
/// taking the same row; SQLite has no row locks, so one process should deliver.
pub fn claim_due(
    conn: &mut Db,
    now: NaiveDateTime,
    lease_until: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<Claimed>> {
    let lock = match conn {
        Db::Pg(_) => "FOR UPDATE OF d SKIP LOCKED",
        Db::Sqlite(_) => "",
    };
    let sql = format!(
        "UPDATE webhook_deliveries SET leased_until = $1 WHERE id IN ( \
           SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id \
             JOIN events v ON v.seq = d.event_seq \
           WHERE d.status = 'pending' AND d.next_attempt_at <= $2 \
             AND (d.leased_until IS NULL OR d.leased_until < $2) \
             AND w.disabled_at IS NULL \
             AND (v.event_type = 'ping' OR NOT EXISTS (SELECT 1 FROM webhook_deliveries e \
                 JOIN events ev ON ev.seq = e.event_seq \
                 WHERE e.webhook_id = d.webhook_id AND e.status = 'pending' \
                   AND e.event_seq < d.event_seq AND ev.event_type <> 'ping')) \
           ORDER BY d.event_seq LIMIT $3 {lock}) \
         RETURNING id"
    );
    let ids: Vec<String> = diesel::sql_query(sql)
        .bind::<Timestamp, _>(lease_until)
        .bind::<Timestamp, _>(now)
        .bind::<BigInt, _>(limit)
        .load::<ClaimedId>(conn)?
        .into_iter()
        .map(|r| r.id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(Delivery, Webhook, crate::store::events::StoredEvent)> =
        webhook_deliveries::table
            .inner_join(webhooks::table)
            .inner_join(events::table)
            .filter(webhook_deliveries::id.eq_any(&ids))
            .order(webhook_deliveries::event_seq.asc())
            .select((
                Delivery::as_select(),
                Webhook::as_select(),
                crate::store::events::StoredEvent::as_select(),
            ))
            .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(delivery, webhook, event)| Claimed {
            delivery,
            webhook,
            event,
        })
        .collect())
}

/// What one attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// 2xx.
    Delivered {
        /// The status code.
        code: i32,
    },
    /// 410 Gone: the receiver asks for no more deliveries.
    Gone,
    /// Any other answer, a timeout, a refused address: retried at `retry_at`, or given up
    /// when `None`.
    Failed {
        /// The status code, if the receiver answered.
        code: Option<i32>,
        /// Why, in plain words.
        error: String,
        /// When to try again; `None` gives up.
        retry_at: Option<NaiveDateTime>,
    },
}

/// Stops a webhook's deliveries (`reason` says why) and fails its pending ones; it stays
/// listed, with its log, until deleted.
pub fn disable(conn: &mut Db, hook_id: &str, reason: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(webhooks::table.filter(webhooks::id.eq(hook_id)))
        .set((
            webhooks::disabled_at.eq(Some(now)),
            webhooks::disabled_reason.eq(Some(reason.to_owned())),
        ))
        .execute(conn)?;
    diesel::update(
        webhook_deliveries::table
            .filter(webhook_deliveries::webhook_id.eq(hook_id))
            .filter(webhook_deliveries::status.eq(status::PENDING)),
    )
    .set((
        webhook_deliveries::status.eq(status::FAILED),
        webhook_deliveries::last_error.eq(Some("not sent: the webhook was disabled".to_owned())),
    ))
    .execute(conn)?;
    Ok(())
}

/// Records an attempt of a pending delivery and releases its lease. A 410 also disables the
/// webhook and fails its other pending deliveries.
pub fn record_attempt(
    conn: &mut Db,
    delivery: &Delivery,
    attempt: &Attempt,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let row = webhook_deliveries::table
        .filter(webhook_deliveries::id.eq(&delivery.id))
        .filter(webhook_deliveries::status.eq(status::PENDING));
    let attempts = delivery.attempts.saturating_add(1);
    let base = (
        webhook_deliveries::attempts.eq(attempts),
        webhook_deliveries::last_attempt_at.eq(Some(now)),
        webhook_deliveries::leased_until.eq(None::<NaiveDateTime>),
    );
    match attempt {
        Attempt::Delivered { code } => {
            diesel::update(row)
                .set((
                    base,
                    webhook_deliveries::status.eq(status::DELIVERED),
                    webhook_deliveries::last_status_code.eq(Some(*code)),
                    webhook_deliveries::last_error.eq(None::<String>),
                ))
                .execute(conn)?;
        }
        Attempt::Gone => {
            diesel::update(row)
                .set((
                    base,
                    webhook_deliveries::status.eq(status::FAILED),
                    webhook_deliveries::last_status_code.eq(Some(410)),
                    webhook_deliveries::last_error
                        .eq(Some("the receiver answered 410 Gone".to_owned())),
                ))
                .execute(conn)?;
            disable(
                conn,
                &delivery.webhook_id,
                "the receiver answered 410 Gone",
                now,
            )?;
        }
        Attempt::Failed {
            code,
            error,
            retry_at,
        } => {
            let next_status = if retry_at.is_some() {
                status::PENDING
            } else {
                status::FAILED
            };
            diesel::update(row)
                .set((
                    base,
                    webhook_deliveries::status.eq(next_status),
                    webhook_deliveries::last_status_code.eq(*code),
                    webhook_deliveries::last_error.eq(Some(error.clone())),
                    webhook_deliveries::next_attempt_at.eq(retry_at.unwrap_or(now)),
                ))
                .execute(conn)?;
        }
    }
    Ok(())
}

/// The webhook's first pending delivery that is not a ping: every later event waits for it.
pub fn first_pending_event(
    conn: &mut Db,
    hook_id: &str,
) -> QueryResult<Option<(Delivery, String)>> {
    webhook_deliveries::table
        .inner_join(events::table)
        .filter(webhook_deliveries::webhook_id.eq(hook_id))
        .filter(webhook_deliveries::status.eq(status::PENDING))
        .filter(events::event_type.ne(PING))
        .order(webhook_deliveries::event_seq.asc())
        .select((Delivery::as_select(), events::event_type))
        .first(conn)
        .optional()
}

/// One delivery of a webhook, with its event's id and type.
pub fn find_delivery(
    conn: &mut Db,
    hook_id: &str,
    delivery_id: &str,
) -> QueryResult<Option<(Delivery, String, String)>> {
    webhook_deliveries::table
        .inner_join(events::table)
        .filter(webhook_deliveries::webhook_id.eq(hook_id))
        .filter(webhook_deliveries::id.eq(delivery_id))
        .select((Delivery::as_select(), events::id, events::event_type))
        .first(conn)
        .optional()
}

/// Makes a delivery due now (pending again if it had been given up); its attempts so far stay
/// counted.
pub fn retry_now(conn: &mut Db, delivery_id: &str, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(webhook_deliveries::table.filter(webhook_deliveries::id.eq(delivery_id)))
        .set((
            webhook_deliveries::status.eq(status::PENDING),
            webhook_deliveries::next_attempt_at.eq(now),
            webhook_deliveries::leased_until.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Skips a pending delivery: it is not sent, and later deliveries no longer wait for it.
pub fn skip(conn: &mut Db, delivery_id: &str) -> QueryResult<()> {
    diesel::update(
        webhook_deliveries::table
            .filter(webhook_deliveries::id.eq(delivery_id))
            .filter(webhook_deliveries::status.eq(status::PENDING)),
    )
    .set((
        webhook_deliveries::status.eq(status::SKIPPED),
        webhook_deliveries::leased_until.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)
    .map(|_| ())
}
