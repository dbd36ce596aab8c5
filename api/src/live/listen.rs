//! PostgreSQL's notifications into the [`Hub`]: one connection per process `LISTEN`s on
//! [`CHANNEL`], where the triggers of migration `live_notify` announce each committed change
//! (`b:<battle id>`, `o:<owner id>`), from this process or any other on the same database.
//!
//! diesel hands out no socket to wait on, so the thread takes what has arrived and sleeps
//! [`IDLE`] when nothing has: a non-blocking read of a socket, no statement. A ping every
//! [`PING_EVERY`] finds a link that died silently. After a reconnect every stream is woken once,
//! since a change committed while the link was down notified nobody.

use std::time::{Duration, Instant};

use diesel::prelude::*;

use super::{Hub, Key};
use crate::db::{DatabaseUrl, Db};

/// The channel the triggers notify on.
pub const CHANNEL: &str = "fad_live";
/// How long the thread sleeps when nothing arrived: the most a wake waits on the listener.
const IDLE: Duration = Duration::from_millis(20);
/// How often an idle link is checked.
const PING_EVERY: Duration = Duration::from_secs(30);
/// How long to wait before connecting again.
const RETRY: Duration = Duration::from_secs(1);

/// Starts listening (the first `LISTEN` before it returns, so a stream opened once the server
/// listens misses nothing) and feeds `hub` on a thread of its own from then on.
pub fn spawn(url: DatabaseUrl, hub: Hub) -> std::io::Result<()> {
    let first = listen(&url);
    if let Err(error) = &first {
        tracing::warn!("live updates: cannot listen yet ({error}); retrying");
    }
    std::thread::Builder::new()
        .name("fad-live-listen".to_owned())
        .spawn(move || run(&url, &hub, first.ok()))
        .map(|_| ())
}

fn run(url: &DatabaseUrl, hub: &Hub, mut conn: Option<PgConnection>) {
    loop {
        if let Some(mut pg) = conn.take() {
            let error = pump(&mut pg, hub);
            tracing::warn!(
                "live updates: lost the database's notifications ({error}); reconnecting"
            );
        }
        std::thread::sleep(RETRY);
        match listen(url) {
            Ok(pg) => {
                tracing::info!("live updates: listening again; every open stream looks once");
                hub.wake_all();
                conn = Some(pg);
            }
            Err(error) => tracing::warn!("live updates: cannot listen ({error}); retrying"),
        }
    }
}

/// A connection listening on [`CHANNEL`].
fn listen(url: &DatabaseUrl) -> anyhow::Result<PgConnection> {
    let Db::Pg(mut pg) = url.establish()? else {
        anyhow::bail!("live notifications need PostgreSQL");
    };
    diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut pg)?;
    Ok(pg)
}

/// Wakes the hub for every notification until the link fails.
fn pump(pg: &mut PgConnection, hub: &Hub) -> diesel::result::Error {
    let mut pinged = Instant::now();
    loop {
        let mut arrived = false;
        for notification in pg.notifications_iter() {
            match notification {
                Ok(n) => {
                    arrived = true;
                    if let Some(key) = Key::from_payload(&n.payload) {
                        hub.wake(&key);
                    }
                }
                Err(error) => return error,
            }
        }
        if pinged.elapsed() >= PING_EVERY {
            if let Err(error) = diesel::sql_query("SELECT 1").execute(pg) {
                return error;
            }
            pinged = Instant::now();
        }
        if !arrived {
            std::thread::sleep(IDLE);
        }
    }
}
