//! `GET /battles/{id}/events`: a `text/event-stream` that tells one person's battle page that
//! something they can see has changed, so the page reloads its content.
//!
//! The stream sleeps until the battle changes ([`crate::live`]: a committed change wakes the
//! battle's streams in every server process), then takes the person's view signature
//! ([`watch::view_signature`]: the battle's public version, their own scenario version, the
//! post-battle sequences) and sends an `event: changed` carrying the new signature when it
//! differs from the one the page was rendered with (`?since=`). Nothing polls: an idle stream
//! costs no database work, and a change costs one read per battle however many streams watch
//! it ([`watch::battle_sight`], shared through the wake), from which each stream picks its own
//! viewer's signature; access is checked when the stream opens and again whenever its owner's
//! credentials or memberships change. The signature never uses a counter shared by both
//! sides, so a side's secret choice, which wakes the opponent's stream too, sends it nothing.
//! Bounded: a
//! stream ends after
//! [`STREAM_SECONDS`] (the browser's `EventSource` reconnects by itself), and the open streams
//! are capped per process, per account and per client address ([`watch::StreamSlots`],
//! `FAD_MAX_STREAMS*`: beyond the process's cap 503, beyond an account's or address's 429; the
//! page then polls). A browser that goes away frees its slot at once: the server stops
//! serving a connection as soon as the client closes it (no half-closed connections, see
//! `serve`), which drops the stream and its slot.
//!
//! Bots use it too: a request with `Authorization: Bearer` (a personal access token, an access
//! token or an integration key) is served to that caller instead of the session's, and the
//! stream ends when that credential stops working (a revoked token). A credential that ends
//! (logout, password change, revocation) wakes its owner's streams, which check it then; one
//! that merely expires ends its streams when they next wake or reconnect.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::stream;
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts;
use crate::app::battles::watch::{self, BattleSight, StreamRefusal, StreamSlot};
use crate::auth::Caller;
use crate::live::{Hub, Key, Subscription};

use crate::web::battles::page::caller;
use crate::web::{PageError, require_user};

/// How long one stream lasts before the browser reconnects.
pub const STREAM_SECONDS: u64 = 300;
/// A comment line this often keeps proxies from closing an idle stream: well inside the common
/// 60-second read timeout (nginx's `proxy_read_timeout`), and rare enough that 5,000 idle
/// streams cost little (each keep-alive is a timer and a write).
const KEEP_ALIVE: Duration = Duration::from_secs(25);

/// Set when the server begins to stop: every stream ends when woken, so a graceful stop does
/// not wait out the streams' lifetime.
static CLOSING: AtomicBool = AtomicBool::new(false);

/// Ends every open stream of `hub` at once and refuses new ones (the server is stopping).
pub fn close_streams(hub: &Hub) {
    CLOSING.store(true, Ordering::SeqCst);
    hub.wake_all();
}

/// The answer when no stream is opened: the page falls back to polling.
fn refused(refusal: StreamRefusal) -> HttpResponse {
    let (status, text) = match refusal {
        StreamRefusal::Full => (
            StatusCode::SERVICE_UNAVAILABLE,
            "Too many live pages open; reload to see changes.",
        ),
        StreamRefusal::Account => (
            StatusCode::TOO_MANY_REQUESTS,
            "This account has too many live pages open; close some, or reload to see changes.",
        ),
        StreamRefusal::Address => (
            StatusCode::TOO_MANY_REQUESTS,
            "Too many live pages are open from this address; reload to see changes.",
        ),
    };
    HttpResponse::build(status)
        .insert_header(("Retry-After", "30"))
        .insert_header(("Cache-Control", "no-store"))
        .content_type("text/plain; charset=utf-8")
        .body(text)
}

/// The query: the signature the page shows.
#[derive(Debug, Deserialize)]
pub struct Since {
    since: Option<String>,
}

/// The credential a stream was opened with: the stream ends when it stops working.
enum Holder {
    /// A browser session (ends at logout or a password change).
    Session(String),
    /// The request's `Authorization` or `X-Api-Key` header, checked again when its owner's
    /// credentials change.
    Bearer(actix_web::http::header::HeaderMap),
}

impl Holder {
    async fn is_live(&self, state: &AppState) -> bool {
        match self {
            Self::Session(hash) => accounts::session_is_live(state, hash)
                .await
                .unwrap_or(false),
            Self::Bearer(headers) => crate::auth::caller::resolve(state, headers).await.is_ok(),
        }
    }
}

/// Who opens the stream: the bearer of a credential header, else the signed-in person; with
/// the name its slot is counted under.
async fn opener(
    req: &HttpRequest,
    state: &AppState,
) -> Result<(Caller, String, Holder), PageError> {
    let headers = req.headers();
    if headers.contains_key(actix_web::http::header::AUTHORIZATION)
        || headers.contains_key(crate::auth::caller::API_KEY_HEADER)
    {
        let mut kept = actix_web::http::header::HeaderMap::new();
        for name in [
            actix_web::http::header::AUTHORIZATION,
            actix_web::http::header::HeaderName::from_static(crate::auth::caller::API_KEY_HEADER),
        ] {
            if let Some(value) = headers.get(&name) {
                kept.insert(name, value.clone());
            }
        }
        let caller = crate::auth::caller::resolve(state, &kept).await?;
        let owner = match &caller {
            Caller::User { user_id } => user_id.clone(),
            Caller::ApiKey { key_id, .. } => key_id.clone(),
        };
        return Ok((caller, owner, Holder::Bearer(kept)));
    }
    let user = require_user(req, state).await?;
    Ok((
        caller(&user),
        user.user_id.clone(),
        Holder::Session(user.session_hash.clone()),
    ))
}

struct Watch {
    state: web::Data<AppState>,
    caller: Caller,
    /// The credential the stream was opened with.
    holder: Holder,
    battle_id: String,
    /// Which viewer the caller is, checked when the stream opened or its owner last changed.
    viewer: fad_domain::scenario::Viewer,
    last: String,
    /// The page showed another signature than the first check's: announce it at once.
    pending: bool,
    started: Instant,
    quiet_since: Instant,
    first: bool,
    /// The battle's and the credential owner's wakes.
    wake: Subscription,
    _slot: StreamSlot,
}

/// The SSE frame announcing `signature`.
fn frame(signature: &str) -> Bytes {
    // A signature is ASCII without line breaks; a stray one would end the frame early.
    let clean: String = signature.chars().filter(|c| !c.is_control()).collect();
    Bytes::from(format!("event: changed\ndata: {clean}\n\n"))
}

/// `GET /battles/{id}/events` (the session cookie or a bearer credential; the same read access
/// as the page).
#[get("/battles/{id}/events")]
pub async fn events(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<Since>,
) -> Result<HttpResponse, PageError> {
    let (who, owner, holder) = opener(&req, &state).await?;
    let battle_id = path.into_inner();
    // The first check answers 404 to anyone who may not read the battle, before streaming.
    let now = watch::view_signature(&state, who.clone(), battle_id.clone()).await?;
    let viewer = now.viewer;
    let now = now.signature;
    if CLOSING.load(Ordering::SeqCst) {
        return Ok(refused(StreamRefusal::Full));
    }
    let address = req
        .peer_addr()
        .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |a| {
            a.ip()
        });
    let slot = match state.streams.take(&owner, address) {
        Ok(slot) => slot,
        Err(refusal) => return Ok(refused(refusal)),
    };
    let start = Instant::now();
    let wake = state
        .db
        .hub()
        .subscribe(Key::Battle(battle_id.clone()), Key::Owner(owner));
    let watch = Watch {
        state,
        caller: who,
        holder,
        battle_id,
        viewer,
        pending: query.into_inner().since.is_some_and(|s| s != now),
        last: now,
        started: start,
        quiet_since: start,
        first: true,
        wake,
        _slot: slot,
    };
    let body = stream::unfold(watch, |mut w| async move {
        if w.first {
            w.first = false;
            // Tell the browser how soon to reconnect when the stream ends.
            return Some((
                Ok::<_, actix_web::Error>(Bytes::from_static(b"retry: 2000\n\n")),
                w,
            ));
        }
        loop {
            if CLOSING.load(Ordering::SeqCst)
                || w.started.elapsed() >= Duration::from_secs(STREAM_SECONDS)
            {
                return None;
            }
            if w.pending {
                w.pending = false;
                w.quiet_since = Instant::now();
                let changed = frame(&w.last);
                return Some((Ok(changed), w));
            }
            let life = Duration::from_secs(STREAM_SECONDS).saturating_sub(w.started.elapsed());
            let quiet = KEEP_ALIVE.saturating_sub(w.quiet_since.elapsed());
            let Some(woken) = w.wake.wait(life.min(quiet)).await else {
                if w.quiet_since.elapsed() >= KEEP_ALIVE {
                    w.quiet_since = Instant::now();
                    return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), w));
                }
                continue;
            };
            if CLOSING.load(Ordering::SeqCst) {
                return None;
            }
            // A failed check (the session ended, the person left the campaign, the database is
            // away) ends the stream; the browser reconnects and the first check answers properly.
            let now = if woken.owner {
                if !w.holder.is_live(&w.state).await {
                    return None;
                }
                // Their access may have changed: checked again in full, as at the start.
                let watched =
                    watch::view_signature(&w.state, w.caller.clone(), w.battle_id.clone())
                        .await
                        .ok()?;
                w.viewer = watched.viewer;
                watched.signature
            } else if woken.battle {
                let shared = w.wake.shared::<Option<BattleSight>>();
                let sight = shared
                    .get_or_init(|| async {
                        watch::battle_sight(&w.state, w.battle_id.clone())
                            .await
                            .ok()
                            .flatten()
                    })
                    .await
                    .as_ref()?;
                sight.signature(w.viewer)
            } else {
                continue;
            };
            if w.last != now {
                w.last = now.clone();
                w.quiet_since = Instant::now();
                return Some((Ok(frame(&now)), w));
            }
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
