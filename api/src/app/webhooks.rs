//! Webhooks of a campaign (organiser only): create (the secret shown once), list with the last
//! delivery's status, disable, delete, send a test `ping`, and read a webhook's delivery log.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::{Caller, Need, campaign_access};
use crate::error::{ApiError, FieldError};
use crate::paging::Keyset;
use crate::store::events::{self as outbox, Event, EventType};
use crate::store::webhooks::{self as rows, Delivery, Webhook};
use crate::store::{self, CreatedKey};
use crate::webhooks::{address, signature};

/// Longest description, in characters.
const MAX_DESCRIPTION_CHARS: usize = 200;

/// What the organiser asks for.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    /// Where to deliver.
    pub url: String,
    /// Event type names to subscribe to.
    pub events: Vec<String>,
    /// A note.
    pub description: Option<String>,
}

/// A webhook just created, with its secret (shown only here).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatedWebhook {
    /// The webhook id.
    pub id: String,
    /// Where deliveries go.
    pub url: String,
    /// The subscribed event types.
    pub events: Vec<EventType>,
    /// The note, if any.
    pub description: Option<String>,
    /// The signing secret: `whsec_` + base64 of 32 random bytes. Verify deliveries with it (any
    /// Standard Webhooks library). It cannot be shown again.
    pub secret: String,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
}

/// The last attempted delivery of a webhook.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LastDelivery {
    /// `pending` (will be retried), `delivered` or `failed`.
    pub status: String,
    /// The receiver's HTTP status, if it answered.
    pub status_code: Option<i32>,
    /// Why it failed, if it did.
    pub error: Option<String>,
    /// When it was attempted (RFC 3339 UTC).
    pub attempted_at: Option<DateTime<Utc>>,
}

/// A webhook as listed (no secret).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WebhookView {
    /// The webhook id.
    pub id: String,
    /// Where deliveries go.
    pub url: String,
    /// The subscribed event types.
    pub events: Vec<EventType>,
    /// The note, if any.
    pub description: Option<String>,
    /// Creation time (RFC 3339 UTC).
    pub created_at: DateTime<Utc>,
    /// When deliveries stopped (the receiver answered 410 Gone), if they did.
    pub disabled_at: Option<DateTime<Utc>>,
    /// Why deliveries stopped.
    pub disabled_reason: Option<String>,
    /// The last attempted delivery; absent before the first.
    pub last_delivery: Option<LastDelivery>,
}

/// One delivery of the log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveryView {
    /// The delivery id.
    pub id: String,
    /// The event's id: the `webhook-id` header of every attempt.
    pub event_id: String,
    /// The event type.
    #[schema(value_type = crate::store::events::EventType)]
    pub event_type: String,
    /// `pending`, `delivered`, `failed` or `skipped` (by the organiser).
    pub status: String,
    /// Why a pending delivery has not gone out yet, in plain words (e.g. "retry 3 at 14:02 UTC
    /// after HTTP 500", "waiting behind delivery … (battle.created), which goes first");
    /// `null` once it is no longer pending.
    pub waiting: Option<String>,
    /// Attempts made so far.
    pub attempts: i32,
    /// The receiver's HTTP status at the last attempt.
    pub last_status_code: Option<i32>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When the last attempt was made.
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// When the next attempt is due (pending deliveries only).
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When the event happened.
    pub created_at: DateTime<Utc>,
}

fn subscribed(stored: &str) -> Vec<EventType> {
    serde_json::from_str::<Vec<String>>(stored)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| EventType::parse(n))
        .collect()
}

fn last_delivery(d: Delivery) -> LastDelivery {
    LastDelivery {
        status: d.status,
        status_code: d.last_status_code,
        error: d.last_error,
        attempted_at: d.last_attempt_at.map(|t| t.and_utc()),
    }
}

fn view(hook: Webhook, last: Option<Delivery>) -> WebhookView {
    WebhookView {
        events: subscribed(&hook.events),
        id: hook.id,
        url: hook.url,
        description: hook.description,
        created_at: hook.created_at.and_utc(),
        disabled_at: hook.disabled_at.map(|t| t.and_utc()),
        disabled_reason: hook.disabled_reason,
        last_delivery: last.map(last_delivery),
    }
}

/// Checks the request; every problem in one 422.
fn validate(
    input: &NewWebhook,
    allow_private: bool,
) -> Result<(address::Target, Vec<EventType>, Option<String>), ApiError> {
    let mut errors = Vec::new();
    let target = address::parse(&input.url, allow_private)
        .map_err(|refused| errors.push(FieldError::new("url", refused.0)))
        .ok();
    let mut events = Vec::new();
    if input.events.is_empty() {
        errors.push(FieldError::new("events", "name at least one event type"));
    }
    if input.events.len() > EventType::ALL.len() {
        errors.push(FieldError::new("events", "names an event type twice"));
    }
    for (i, name) in input.events.iter().enumerate() {
        match EventType::parse(name) {
            Some(t) if events.contains(&t) => {
                errors.push(FieldError::new(format!("events[{i}]"), "is listed twice"));
            }
            Some(t) => events.push(t),
            None => errors.push(FieldError::new(
                format!("events[{i}]"),
                format!(
                    "is not an event type; one of {}",
                    EventType::ALL.map(EventType::as_str).join(", ")
                ),
            )),
        }
    }
    let description = input
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned);
    if description
        .as_ref()
        .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION_CHARS)
    {
        errors.push(FieldError::new(
            "description",
            "must have at most 200 characters",
        ));
    }
    match target {
        Some(target) if errors.is_empty() => Ok((target, events, description)),
        _ => Err(ApiError::Validation(errors)),
    }
}

/// Creates a webhook (organiser). The URL's host must resolve to public addresses only
/// (unless the server allows private ones).
pub async fn create_webhook(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    input: NewWebhook,
) -> Result<CreatedWebhook, ApiError> {
    let settings = state.config.webhooks.clone();
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    // Authorize before looking anything up, so outsiders learn nothing from the answers.
    let check = (caller.clone(), campaign_id.clone());
    state
        .db
        .run(move |conn| campaign_access(conn, &check.0, &check.1, Need::Organiser).map(|_| ()))
        .await?;
    let (target, events, description) = validate(&input, settings.allow_private)?;
    let allow_private = settings.allow_private;
    // Name resolution blocks: off the async workers.
    actix_web::web::block(move || address::resolve(&target, allow_private))
        .await?
        .map_err(|refused| ApiError::validation("url", refused.0))?;
    let secret = signature::new_secret().map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
    let now = store::now();
    let hook = Webhook {
        id: store::new_id(),
        campaign_id: campaign_id.clone(),
        url: input.url.trim().to_owned(),
        events: serde_json::to_string(&events.iter().map(|e| e.as_str()).collect::<Vec<_>>())
            .map_err(|e| ApiError::Internal(e.into()))?,
        description,
        secret,
        created_by: caller.user_id().unwrap_or_default().to_owned(),
        created_at: now,
        disabled_at: None,
        disabled_reason: None,
    };
    let stored = hook.clone();
    let max = settings.max_per_campaign;
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            crate::quota::check_webhooks(conn, &campaign_id, max)?;
            Ok(rows::insert(conn, &stored)?)
        })
        .await?;
    tracing::info!(campaign.id = %hook.campaign_id, webhook.id = %hook.id, "Created webhook {}", hook.id);
    Ok(CreatedWebhook {
        id: hook.id,
        url: hook.url,
        events,
        description: hook.description,
        secret: hook.secret,
        created_at: now.and_utc(),
    })
}

/// The campaign's webhooks without secrets, each with its last attempted delivery (organiser).
pub async fn list_webhooks(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<Vec<WebhookView>, ApiError> {
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            let mut out = Vec::new();
            for hook in rows::list_for_campaign(conn, &campaign_id)? {
                let last = rows::last_attempted(conn, &hook.id)?;
                out.push(view(hook, last));
            }
            Ok(out)
        })
        .await
}

/// Finds a webhook of the campaign after authorizing the organiser.
fn authorized_hook(
    conn: &mut crate::db::Db,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
) -> Result<Webhook, ApiError> {
    campaign_access(conn, caller, campaign_id, Need::Organiser)?;
    rows::find_in_campaign(conn, campaign_id, hook_id)?
        .ok_or_else(|| ApiError::not_found("webhook"))
}

/// Deletes a webhook and its delivery log (organiser); pending deliveries are dropped.
pub async fn delete_webhook(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
) -> Result<(), ApiError> {
    let (caller, campaign_id, hook_id) =
        (caller.clone(), campaign_id.to_owned(), hook_id.to_owned());
    state
        .db
        .transaction(move |conn| {
            let hook = authorized_hook(conn, &caller, &campaign_id, &hook_id)?;
            Ok(rows::delete(conn, &hook.id)?)
        })
        .await
}

/// Disables a webhook (organiser): no more deliveries, pending ones fail; it stays listed with
/// its log. Disabling a disabled webhook changes nothing.
pub async fn disable_webhook(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
) -> Result<(), ApiError> {
    let (caller, campaign_id, hook_id) =
        (caller.clone(), campaign_id.to_owned(), hook_id.to_owned());
    let now = store::now();
    state
        .db
        .transaction(move |conn| {
            let hook = authorized_hook(conn, &caller, &campaign_id, &hook_id)?;
            if hook.disabled_at.is_some() {
                return Ok(());
            }
            Ok(rows::disable(
                conn,
                &hook.id,
                "disabled by the organiser",
                now,
            )?)
        })
        .await
}

/// Queues a `ping` for one webhook (organiser); it goes out like any event, signed.
pub async fn test_webhook(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
) -> Result<(), ApiError> {
    let (caller, campaign_id, hook_id) =
        (caller.clone(), campaign_id.to_owned(), hook_id.to_owned());
    state
        .db
        .transaction(move |conn| {
            let hook = authorized_hook(conn, &caller, &campaign_id, &hook_id)?;
            if hook.disabled_at.is_some() {
                return Err(ApiError::Conflict(
                    "This webhook is disabled (its receiver answered 410 Gone); create it again to resume deliveries."
                        .to_owned(),
                ));
            }
            outbox::append(conn, &Event::ping(&campaign_id, &hook.id))
        })
        .await
}

/// A page of a webhook's deliveries, newest first (organiser).
pub async fn list_deliveries(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
    page: Keyset<CreatedKey>,
) -> Result<(Vec<DeliveryView>, Option<String>), ApiError> {
    let (caller, campaign_id, hook_id) =
        (caller.clone(), campaign_id.to_owned(), hook_id.to_owned());
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (found, head) = state
        .db
        .read(move |conn| {
            let hook = authorized_hook(conn, &caller, &campaign_id, &hook_id)?;
            let found = rows::list_deliveries(conn, &hook.id, after.as_ref(), fetch)?;
            Ok((found, rows::first_pending_event(conn, &hook.id)?))
        })
        .await?;
    let (found, next) = page.finish(found, |(d, _, _)| (d.created_at, d.id.clone()))?;
    let now = store::now();
    let views = found
        .into_iter()
        .map(|row| delivery_view(row, head.as_ref(), now))
        .collect();
    Ok((views, next))
}

/// A delivery of the log (with its event's id and type), and why it waits.
fn delivery_view(
    (d, event_id, event_type): (Delivery, String, String),
    head: Option<&(Delivery, String)>,
    now: chrono::NaiveDateTime,
) -> DeliveryView {
    DeliveryView {
        waiting: waiting(&d, &event_type, head, now),
        next_attempt_at: (d.status == rows::status::PENDING).then(|| d.next_attempt_at.and_utc()),
        id: d.id,
        event_id,
        event_type,
        status: d.status,
        attempts: d.attempts,
        last_status_code: d.last_status_code,
        last_error: d.last_error,
        last_attempt_at: d.last_attempt_at.map(|t| t.and_utc()),
        created_at: d.created_at.and_utc(),
    }
}

/// Why pending delivery `d` (of an event of `event_type`) has not gone out, in plain words;
/// `head` is the webhook's first pending event, which every later event waits for.
fn waiting(
    d: &Delivery,
    event_type: &str,
    head: Option<&(Delivery, String)>,
    now: chrono::NaiveDateTime,
) -> Option<String> {
    if d.status != rows::status::PENDING {
        return None;
    }
    if d.leased_until.is_some_and(|until| until > now) {
        return Some("being sent now".to_owned());
    }
    if let Some((first, first_type)) = head {
        if event_type != rows::PING && first.event_seq < d.event_seq {
            return Some(format!(
                "waiting behind delivery {} ({first_type}), which goes first: events reach a \
                 webhook in order",
                first.id
            ));
        }
    }
    let when = if d.next_attempt_at <= now {
        "due now".to_owned()
    } else {
        format!("at {}", d.next_attempt_at.format("%H:%M UTC"))
    };
    if d.attempts == 0 {
        return Some(format!("first attempt {when}"));
    }
    let after = match (d.last_status_code, &d.last_error) {
        (Some(code), _) => format!("HTTP {code}"),
        (None, Some(error)) => error.clone(),
        (None, None) => "a failed attempt".to_owned(),
    };
    Some(format!("retry {} {when} after {after}", d.attempts + 1))
}

/// What the organiser asks of one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryAction {
    /// Send it now (again, if it had been given up).
    Retry,
    /// Do not send it; later events stop waiting for it.
    Skip,
}

/// Retries a pending or failed delivery now, or skips a pending one (organiser); answers the
/// delivery as it is afterwards. A delivered or skipped delivery, one being sent this moment,
/// or one of a disabled webhook is 409.
pub async fn act_on_delivery(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    hook_id: &str,
    delivery_id: &str,
    action: DeliveryAction,
) -> Result<DeliveryView, ApiError> {
    let (caller, campaign_id, hook_id, delivery_id) = (
        caller.clone(),
        campaign_id.to_owned(),
        hook_id.to_owned(),
        delivery_id.to_owned(),
    );
    let now = store::now();
    state
        .db
        .transaction(move |conn| {
            let hook = authorized_hook(conn, &caller, &campaign_id, &hook_id)?;
            let (delivery, _, _) = rows::find_delivery(conn, &hook.id, &delivery_id)?
                .ok_or_else(|| ApiError::not_found("delivery"))?;
            check_action(&hook, &delivery, action, now)?;
            match action {
                DeliveryAction::Retry => rows::retry_now(conn, &delivery.id, now)?,
                DeliveryAction::Skip => rows::skip(conn, &delivery.id)?,
            }
            let found = rows::find_delivery(conn, &hook.id, &delivery.id)?
                .ok_or_else(|| ApiError::not_found("delivery"))?;
            let head = rows::first_pending_event(conn, &hook.id)?;
            Ok(delivery_view(found, head.as_ref(), now))
        })
        .await
}

/// Whether `action` applies to `delivery` now (409 in plain words when not).
fn check_action(
    hook: &Webhook,
    delivery: &Delivery,
    action: DeliveryAction,
    now: chrono::NaiveDateTime,
) -> Result<(), ApiError> {
    let refuse = |why: &str| Err(ApiError::Conflict(why.to_owned()));
    if hook.disabled_at.is_some() {
        return refuse("This webhook is disabled: nothing more is sent to it.");
    }
    if delivery.leased_until.is_some_and(|until| until > now) {
        return refuse("This delivery is being sent right now; look at the log again in a moment.");
    }
    match (action, delivery.status.as_str()) {
        (_, rows::status::DELIVERED) => {
            refuse("This delivery was delivered; there is nothing to retry or skip.")
        }
        (_, rows::status::SKIPPED) => refuse("This delivery was skipped."),
        (DeliveryAction::Skip, rows::status::FAILED) => {
            refuse("This delivery was given up already; it holds nothing back.")
        }
        _ => Ok(()),
    }
}
