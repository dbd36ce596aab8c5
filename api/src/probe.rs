//! What each pooled connection knows about itself, from diesel's instrumentation events: how
//! many statements and transactions it ran, when the database last answered, and whether the
//! link broke.
//!
//! - The pool skips its liveness ping for a connection the database answered within
//!   [`ALIVE_BYPASS`] (HikariCP's `aliveBypassWindowMs` idea): under load no request pays an
//!   extra round trip, while a connection idle through an outage is still checked before use.
//! - A connection whose link broke (`ClosedConnection`, `UnableToSendCommand`) is discarded
//!   when it goes back to the pool instead of failing the next request too.
//! - With `FAD_COUNT_DB_STATEMENTS` on, each response carries the statements and transactions
//!   its request ran ([`STATEMENTS_HEADER`], [`TRANSACTIONS_HEADER`]), for the round-trip
//!   budget test. Liveness pings are not counted: they belong to the pool, not the request.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::result::{DatabaseErrorKind, Error};

use crate::db::Db;

/// A connection the database answered this recently is used without a liveness ping.
pub const ALIVE_BYPASS: Duration = Duration::from_millis(500);

/// Response header: SQL statements the request ran (`BEGIN` and `COMMIT` included).
pub const STATEMENTS_HEADER: &str = "x-fad-db-statements";
/// Response header: transactions the request ran.
pub const TRANSACTIONS_HEADER: &str = "x-fad-db-transactions";

/// Statement and transaction counts of one connection or one request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// SQL statements sent, including `BEGIN`, `COMMIT` and `ROLLBACK`.
    pub statements: u64,
    /// Outermost transactions begun.
    pub transactions: u64,
}

impl Counts {
    fn since(self, before: Self) -> Self {
        Self {
            statements: self.statements.wrapping_sub(before.statements),
            transactions: self.transactions.wrapping_sub(before.transactions),
        }
    }
}

/// The instrumentation installed on every pooled connection.
#[derive(Debug, Default)]
pub struct Probe {
    counts: Counts,
    last_answer: Option<Instant>,
    broken: bool,
}

impl Instrumentation for Probe {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        match event {
            InstrumentationEvent::StartQuery { .. } => self.counts.statements += 1,
            InstrumentationEvent::BeginTransaction { depth, .. } if depth.get() == 1 => {
                self.counts.transactions += 1;
            }
            InstrumentationEvent::FinishQuery { error, .. } => match error {
                Some(Error::DatabaseError(
                    DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                    _,
                )) => self.broken = true,
                // Any answer, an SQL error too, shows the link works.
                _ => self.last_answer = Some(Instant::now()),
            },
            _ => {}
        }
    }
}

fn probe(conn: &mut Db) -> Option<&mut Probe> {
    conn.instrumentation().downcast_mut::<Probe>()
}

/// Installs a fresh [`Probe`] on a new connection.
pub fn install(conn: &mut Db) {
    conn.set_instrumentation(Probe::default());
}

/// The connection's counts so far.
pub fn counts(conn: &mut Db) -> Counts {
    probe(conn).map(|p| p.counts).unwrap_or_default()
}

/// Whether the database answered this connection within [`ALIVE_BYPASS`].
pub fn recently_answered(conn: &mut Db) -> bool {
    probe(conn)
        .and_then(|p| p.last_answer)
        .is_some_and(|at| at.elapsed() < ALIVE_BYPASS)
}

/// Whether the connection's link broke (it must not be reused).
pub fn is_broken(conn: &mut Db) -> bool {
    probe(conn).is_some_and(|p| p.broken)
}

/// The running counts of one request, shared with the blocking threads that run its queries.
#[derive(Debug, Default)]
pub struct Tally {
    statements: AtomicU64,
    transactions: AtomicU64,
}

impl Tally {
    /// Adds what a connection ran for the request between `before` and now.
    pub fn add_since(&self, conn: &mut Db, before: Counts) {
        let done = counts(conn).since(before);
        self.statements
            .fetch_add(done.statements, Ordering::Relaxed);
        self.transactions
            .fetch_add(done.transactions, Ordering::Relaxed);
    }

    /// The totals so far.
    pub fn totals(&self) -> Counts {
        Counts {
            statements: self.statements.load(Ordering::Relaxed),
            transactions: self.transactions.load(Ordering::Relaxed),
        }
    }
}

tokio::task_local! {
    static REQUEST_TALLY: Arc<Tally>;
}

/// The current request's tally, when counting is on and this runs inside a request.
pub fn current_tally() -> Option<Arc<Tally>> {
    REQUEST_TALLY.try_with(Arc::clone).ok()
}

/// Runs `future` (a request) with `tally` as its tally.
pub async fn counting<F: std::future::Future>(tally: Arc<Tally>, future: F) -> F::Output {
    REQUEST_TALLY.scope(tally, future).await
}
