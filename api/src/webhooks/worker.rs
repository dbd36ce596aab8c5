//! The delivery worker: a thread started by `serve` that claims due deliveries from the
//! database, sends them, and records each attempt. All its state is in the database (a lease
//! per claimed delivery), so a restart, or a process killed mid-delivery, loses nothing: an
//! expired lease is claimed again and the event goes out with the same `webhook-id`.
//!
//! Several processes on one PostgreSQL share the queue (claims use `FOR UPDATE SKIP LOCKED`).
//! On SQLite one process should serve a database; a second would deliver too but may send an
//! event twice (with the same `webhook-id`).

use std::time::Duration;

use chrono::{SecondsFormat, TimeDelta, Utc};
use serde::Serialize;

use crate::db::Database;
use crate::error::ApiError;
use crate::store::webhooks::{self as rows, Attempt, Claimed};
use crate::store::{self};
use crate::webhooks::{Settings, address, client, signature};

/// Deliveries claimed (and sent side by side) per round.
const BATCH: i64 = 4;

/// Starts the worker thread.
pub fn spawn(db: Database, settings: Settings) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("webhooks".to_owned())
        .spawn(move || run(&db, &settings))
        .map(|_| ())
}

fn run(db: &Database, settings: &Settings) {
    let client = client::Client::new(settings);
    tracing::info!("webhook delivery worker started");
    loop {
        match round(db, settings, &client) {
            // A full batch: more may be due at once.
            Ok(n) if n as i64 == BATCH => {}
            Ok(_) => std::thread::sleep(settings.poll),
            Err(error) => {
                tracing::warn!("webhook delivery round failed: {error}");
                std::thread::sleep(settings.poll.max(Duration::from_secs(1)));
            }
        }
    }
}

/// Claims due deliveries, sends them side by side, records the attempts; how many it claimed.
pub fn round(
    db: &Database,
    settings: &Settings,
    client: &client::Client,
) -> Result<usize, ApiError> {
    let now = store::now();
    let lease = TimeDelta::from_std(settings.lease()).unwrap_or(TimeDelta::minutes(1));
    let claimed =
        db.transaction_blocking(|conn| Ok(rows::claim_due(conn, now, now + lease, BATCH)?))?;
    std::thread::scope(|scope| {
        for claim in &claimed {
            scope.spawn(move || {
                let attempt = deliver(claim, settings, client);
                log_attempt(claim, &attempt);
                let recorded = db.transaction_blocking(|conn| {
                    Ok(rows::record_attempt(conn, &claim.delivery, &attempt, store::now())?)
                });
                if let Err(error) = recorded {
                    // The lease runs out and the delivery is tried again.
                    tracing::warn!(delivery.id = %claim.delivery.id, "cannot record webhook attempt: {error}");
                }
            });
        }
    });
    Ok(claimed.len())
}

fn log_attempt(claim: &Claimed, attempt: &Attempt) {
    let (hook, event) = (&claim.webhook.id, &claim.event.id);
    match attempt {
        Attempt::Delivered { code } => {
            tracing::info!(webhook.id = %hook, event.id = %event, code, "webhook delivered");
        }
        Attempt::Gone => tracing::info!(webhook.id = %hook, "webhook answered 410 Gone: disabled"),
        Attempt::Failed {
            error, retry_at, ..
        } => {
            tracing::info!(webhook.id = %hook, event.id = %event, retry_at = ?retry_at, "webhook delivery failed: {error}");
        }
    }
}

/// The body of a delivery: the same on every retry.
#[derive(Serialize)]
struct Body<'a> {
    #[serde(rename = "type")]
    event_type: &'a str,
    timestamp: String,
    data: serde_json::Value,
}

/// The body of an event as sent, its links after `public_url` (the outbox keeps paths, so a
/// changed public address applies to deliveries still waiting).
pub fn body(
    event: &store::events::StoredEvent,
    public_url: &str,
) -> Result<String, serde_json::Error> {
    let mut data: serde_json::Value = serde_json::from_str(&event.payload)?;
    if let Some(links) = data.get_mut("links") {
        let absolute =
            serde_json::from_value::<store::events::EventLinks>(links.take())?.absolute(public_url);
        *links = serde_json::to_value(absolute)?;
    }
    serde_json::to_string(&Body {
        event_type: &event.event_type,
        timestamp: event
            .occurred_at
            .and_utc()
            .to_rfc3339_opts(SecondsFormat::Millis, true),
        data,
    })
}

/// Sends one delivery and tells what came of it.
fn deliver(claim: &Claimed, settings: &Settings, client: &client::Client) -> Attempt {
    let retry_at = settings
        .retries
        .get(usize::try_from(claim.delivery.attempts).unwrap_or(usize::MAX))
        .and_then(|wait| TimeDelta::from_std(*wait).ok())
        .map(|wait| store::now() + wait);
    let failed = |code: Option<i32>, error: String| Attempt::Failed {
        code,
        error,
        retry_at,
    };
    let Some(key) = signature::key_of(&claim.webhook.secret) else {
        return Attempt::Failed {
            code: None,
            error: "the webhook's secret is damaged; create the webhook again".to_owned(),
            retry_at: None,
        };
    };
    let target = match address::parse(&claim.webhook.url, settings.allow_private) {
        Ok(target) => target,
        Err(refused) => return failed(None, format!("URL refused: {refused}")),
    };
    let body = match body(&claim.event, &settings.public_url) {
        Ok(body) => body,
        Err(error) => return failed(None, format!("cannot build the body: {error}")),
    };
    let timestamp = Utc::now().timestamp();
    let signed = client::Signed {
        msg_id: &claim.event.id,
        timestamp,
        signature: signature::sign(&key, &claim.event.id, timestamp, &body),
        body: &body,
    };
    match client.post(&target, &signed) {
        Ok(code) if (200..300).contains(&code) => Attempt::Delivered {
            code: i32::from(code),
        },
        Ok(410) => Attempt::Gone,
        Ok(code) => failed(
            Some(i32::from(code)),
            format!("the receiver answered {code}"),
        ),
        Err(error) => failed(None, error),
    }
}
