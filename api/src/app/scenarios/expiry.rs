//! The sweep that deletes expired signed-out scenarios (and, on the same thread, the
//! `Idempotency-Key` answers past their retention: [`crate::idempotent::sweep`]). Reads already treat them as gone the
//! moment they expire; the sweep only reclaims the space. It runs on its own thread beside the
//! HTTP server (like webhook delivery), in small batches so it never holds SQLite's single
//! writer for long. Several processes sweeping one database only repeat each other's deletes.

use std::time::Duration;

use crate::db::Database;
use crate::error::ApiError;
use crate::store::{self, scenarios};

/// Rows deleted per transaction.
const BATCH: i64 = 500;

/// Starts the sweeping thread: one sweep at start, then one every `every`.
pub fn spawn(db: Database, every: Duration) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("scenario-sweep".to_owned())
        .spawn(move || {
            loop {
                match sweep(&db) {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "deleted {n} expired scenarios"),
                    Err(error) => tracing::warn!("scenario sweep failed: {error}"),
                }
                // And dice commitments issued for a request that expired unused.
                match db.transaction_blocking(|conn| {
                    Ok(store::dice_commitments::delete_expired(conn, store::now())?)
                }) {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "deleted {n} expired dice commitments"),
                    Err(error) => tracing::warn!("dice commitment sweep failed: {error}"),
                }
                // The same thread sweeps Idempotency-Key answers past their retention.
                match crate::idempotent::sweep(&db) {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "deleted {n} expired idempotency keys"),
                    Err(error) => tracing::warn!("idempotency key sweep failed: {error}"),
                }
                std::thread::sleep(every);
            }
        })
        .map(|_| ())
}

/// Deletes every scenario expired by now, a batch per transaction; how many it deleted.
pub fn sweep(db: &Database) -> Result<usize, ApiError> {
    let now = store::now();
    let mut total = 0;
    loop {
        let deleted =
            db.transaction_blocking(|conn| Ok(scenarios::delete_expired(conn, now, BATCH)?))?;
        total += deleted;
        if (deleted as i64) < BATCH {
            return Ok(total);
        }
    }
}
