//! Database access: the [`Db`] connection over SQLite and PostgreSQL (one diesel code path), the
//! r2d2 pool behind [`Database`], SQLite pragmas, and the embedded migrations of both backends.
//!
//! Handlers never touch diesel in async code: they call [`Database::transaction`] (or
//! [`Database::run`]), which checks a connection out and runs the closure on actix's blocking
//! pool. Connection failures report the real cause (diesel's `MultiConnection::establish` only
//! says "invalid connection url"), because [`ConnectionManager`] connects per backend.

use crate::error::ApiError;
use crate::{live, probe};
use anyhow::{Context, anyhow};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::R2D2Connection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One database connection, PostgreSQL or SQLite. Queries written against `&mut Db` run on
/// both; `match` on the variant only where diesel needs it (upserts, PostgreSQL-only types).
#[derive(diesel::MultiConnection)]
pub enum Db {
    /// A PostgreSQL connection.
    Pg(PgConnection),
    /// A SQLite connection (pragmas applied by [`ConnectionManager`]).
    Sqlite(SqliteConnection),
}

/// Runs `$body` with `$conn` bound to the concrete connection behind a [`Db`]. Diesel then
/// finds a query's prepared statement by the query's type; through the multi-backend wrapper
/// it builds the query's SQL text on every run to find it, which cost a fifth of a force
/// read (about 27,000 instructions a statement). For the hot statements: the force read, the
/// battle page's, a post-battle step's and an event's append; everything else goes through
/// `&mut Db`.
#[macro_export]
macro_rules! on_backend {
    ($db:expr, |$conn:ident| $body:expr) => {
        match $db {
            $crate::db::Db::Pg($conn) => $body,
            $crate::db::Db::Sqlite($conn) => $body,
        }
    };
}

/// The kind of database behind a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL (`postgres://…`).
    Postgres,
    /// SQLite (`sqlite://PATH`).
    Sqlite,
}

/// Embedded migrations for PostgreSQL (`migrations/postgres`).
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");
/// Embedded migrations for SQLite (`migrations/sqlite`).
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");

/// SQLite settings applied to every new connection: wait on locks instead of failing at once,
/// WAL for concurrent readers, enforced foreign keys.
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; \
     PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";

/// Arbitrary fixed key for the PostgreSQL advisory lock held while migrating, so that several
/// instances starting at once apply migrations one after another.
const MIGRATION_LOCK_KEY: i64 = 0x0fad_ca3f;

/// A parsed, validated database URL. `Display` hides any password.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl {
    backend: Backend,
    /// For PostgreSQL the full URL; for SQLite the file path.
    target: String,
}

impl DatabaseUrl {
    /// Parses `postgres://…`, `postgresql://…` or `sqlite://PATH`; anything else is refused
    /// rather than guessed (a bare path would silently create a stray SQLite file).
    pub fn parse(url: &str) -> anyhow::Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Self {
                backend: Backend::Postgres,
                target: url.to_owned(),
            });
        }
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                anyhow::bail!("`sqlite://` needs a file path, e.g. sqlite://data/fad.sqlite3");
            }
            return Ok(Self {
                backend: Backend::Sqlite,
                target: path.to_owned(),
            });
        }
        let scheme = url.split_once("://").map_or("(none)", |(s, _)| s);
        anyhow::bail!(
            "unsupported scheme `{scheme}`: use postgres://USER@HOST:PORT/DB or sqlite://PATH"
        )
    }

    /// A SQLite database in `path`.
    pub fn sqlite_file(path: PathBuf) -> Self {
        Self {
            backend: Backend::Sqlite,
            target: path.to_string_lossy().into_owned(),
        }
    }

    /// Which backend this URL selects.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Opens one connection with the concrete backend, so errors carry the real cause, and
    /// installs its [`probe::Probe`].
    pub fn establish(&self) -> Result<Db, ConnectError> {
        let mut conn = self.establish_plain()?;
        probe::install(&mut conn);
        Ok(conn)
    }

    fn establish_plain(&self) -> Result<Db, ConnectError> {
        match self.backend {
            Backend::Postgres => {
                PgConnection::establish(&self.target)
                    .map(Db::Pg)
                    .map_err(|source| ConnectError::Connect {
                        url: self.to_string(),
                        source,
                    })
            }
            Backend::Sqlite => {
                let path = Path::new(&self.target);
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|source| ConnectError::Directory {
                        path: dir.to_path_buf(),
                        source,
                    })?;
                }
                let mut conn = SqliteConnection::establish(&self.target).map_err(|source| {
                    ConnectError::Connect {
                        url: self.to_string(),
                        source,
                    }
                })?;
                conn.batch_execute(SQLITE_PRAGMAS)
                    .map_err(ConnectError::Setup)?;
                Ok(Db::Sqlite(conn))
            }
        }
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.backend {
            Backend::Sqlite => write!(f, "sqlite://{}", self.target),
            Backend::Postgres => f.write_str(&redact_password(&self.target)),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({self})")
    }
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`.
fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match authority.rsplit_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}{}", &rest[authority_end..])
        }
        _ => url.to_owned(),
    }
}

/// Why a connection could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The database refused or could not be reached.
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL, password redacted.
        url: String,
        /// diesel's error, carrying the driver's message.
        source: ConnectionError,
    },
    /// The directory for the SQLite file could not be created.
    #[error("cannot create database directory {}: {source}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The SQLite pragmas failed.
    #[error("cannot configure SQLite connection: {0}")]
    Setup(diesel::result::Error),
    /// A pooled connection failed its health check.
    #[error("database connection is not usable: {0}")]
    Ping(diesel::result::Error),
}

/// r2d2 connection manager that connects per backend (see [`DatabaseUrl::establish`]).
#[derive(Debug)]
pub struct ConnectionManager {
    url: DatabaseUrl,
}

impl r2d2::ManageConnection for ConnectionManager {
    type Connection = Db;
    type Error = ConnectError;

    fn connect(&self) -> Result<Db, ConnectError> {
        self.url.establish()
    }

    fn is_valid(&self, conn: &mut Db) -> Result<(), ConnectError> {
        conn.ping().map_err(ConnectError::Ping)
    }

    fn has_broken(&self, conn: &mut Db) -> bool {
        conn.is_broken() || probe::is_broken(conn)
    }
}

/// Logs background connection failures through tracing (r2d2 uses the `log` crate otherwise).
#[derive(Debug)]
struct TracingErrorHandler;

impl r2d2::HandleError<ConnectError> for TracingErrorHandler {
    fn handle_error(&self, error: ConnectError) {
        tracing::warn!("database connection failed: {error}");
    }
}

/// Pool sizing and timeouts.
#[derive(Debug, Clone, Copy)]
pub struct PoolOptions {
    /// Maximum open connections.
    pub max_size: u32,
    /// How long a checkout waits before failing (then handlers answer 503).
    pub connection_timeout: Duration,
}

impl Default for PoolOptions {
    fn default() -> Self {
        Self {
            max_size: 8,
            connection_timeout: Duration::from_secs(3),
        }
    }
}

/// A pooled connection.
pub type PooledDb = r2d2::PooledConnection<ConnectionManager>;

/// The shared database handle: a pool plus the helpers that run diesel off the async workers.
#[derive(Clone, Debug)]
pub struct Database {
    pool: r2d2::Pool<ConnectionManager>,
    backend: Backend,
    /// SQLite allows one writer at a time; taking this lock before `BEGIN` keeps a
    /// read-then-write transaction from failing with `SQLITE_BUSY_SNAPSHOT`.
    sqlite_writer: Arc<Mutex<()>>,
    /// The live streams' wakes ([`crate::live`]): on SQLite this layer wakes them after a
    /// commit; on PostgreSQL the listener does.
    hub: live::Hub,
}

impl Database {
    /// Builds the pool. The first connection is opened eagerly so that a wrong URL or a
    /// database that is down is reported at start with its real cause.
    pub fn connect(url: &DatabaseUrl, options: PoolOptions) -> Result<Self, ConnectError> {
        let first = url.establish()?;
        drop(first);
        let pool = r2d2::Pool::builder()
            .max_size(options.max_size)
            .min_idle(Some(1))
            .connection_timeout(options.connection_timeout)
            // `checkout` pings only connections idle beyond `probe::ALIVE_BYPASS`.
            .test_on_check_out(false)
            .error_handler(Box::new(TracingErrorHandler))
            .build_unchecked(ConnectionManager { url: url.clone() });
        Ok(Self {
            pool,
            backend: url.backend(),
            sqlite_writer: Arc::new(Mutex::new(())),
            hub: live::Hub::default(),
        })
    }

    /// The live streams' wakes of this process.
    pub fn hub(&self) -> &live::Hub {
        &self.hub
    }

    /// Wakes what the transaction that just ended on this thread marked, if it committed and
    /// the backend is SQLite (PostgreSQL's triggers notify every process at commit).
    fn wake_marked(backend: Backend, hub: &live::Hub, committed: bool) {
        let marked = live::marks::take();
        if committed && backend == Backend::Sqlite {
            for key in &marked {
                hub.wake(key);
            }
        }
    }

    /// Which backend the pool talks to.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Checks out a connection, blocking up to the pool timeout. Only call this from blocking
    /// code (inside [`Database::run`] or a test).
    pub fn get(&self) -> Result<PooledDb, ApiError> {
        checkout(&self.pool)
    }

    /// Runs `f` with a pooled connection on actix's blocking thread pool, without a
    /// transaction. Use for single reads (e.g. readiness); prefer [`Database::transaction`].
    pub async fn run<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        self.on_blocking_pool(false, f).await
    }

    /// Runs `f` inside one transaction on a pooled connection, off the async workers. The
    /// transaction commits when `f` returns `Ok` and rolls back on `Err`; diesel errors convert
    /// into [`ApiError`] with `?`.
    ///
    /// ```ignore
    /// let user = state.db.transaction(move |conn| store::users::insert(conn, &new)).await?;
    /// ```
    pub async fn transaction<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        self.on_blocking_pool(true, move |conn| conn.transaction(f))
            .await
    }

    /// Runs `f` inside one transaction on the calling thread, queued behind SQLite's other
    /// writers like [`Database::transaction`]. For background threads outside actix (the
    /// webhook worker): it blocks, so never call it from async code.
    pub fn transaction_blocking<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError>,
    {
        let mut pooled = checkout(&self.pool)?;
        let conn: &mut Db = &mut pooled;
        let _guard = (self.backend == Backend::Sqlite)
            .then(|| self.sqlite_writer.lock().unwrap_or_else(|e| e.into_inner()));
        live::marks::take();
        let result = conn.transaction(f);
        Self::wake_marked(self.backend, &self.hub, result.is_ok());
        result
    }

    /// Runs `f`, which sends exactly one writing statement (atomic by itself), on a pooled
    /// connection without `BEGIN`/`COMMIT`: two round trips fewer than [`Database::transaction`]
    /// on PostgreSQL. It queues behind SQLite's other writers like a transaction does.
    pub async fn write_one<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        self.on_blocking_pool(true, f).await
    }

    /// Checks out a connection on actix's blocking thread pool and runs `f` with it, counting
    /// its statements for the probe. A `writer` on SQLite first takes the writer lock, so
    /// writers queue in the process instead of failing on SQLite's busy lock.
    async fn on_blocking_pool<T, F>(&self, writer: bool, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let pool = self.pool.clone();
        let sqlite_writer =
            (writer && self.backend == Backend::Sqlite).then(|| self.sqlite_writer.clone());
        let tally = probe::current_tally();
        let (backend, hub) = (self.backend, self.hub.clone());
        in_request_span(move || {
            let mut pooled = checkout(&pool)?;
            let conn: &mut Db = &mut pooled;
            // A poisoned lock only means another writer panicked; the lock itself guards
            // nothing but ordering, so it is safe to keep using.
            let _guard = sqlite_writer
                .as_ref()
                .map(|lock| lock.lock().unwrap_or_else(|e| e.into_inner()));
            let before = probe::counts(conn);
            let started = std::time::Instant::now();
            // Marks left by work that panicked belong to nothing that committed.
            live::marks::take();
            let result = f(conn);
            Self::wake_marked(backend, &hub, result.is_ok());
            // After `f`, a transaction has committed or rolled back: this line marks the end of
            // the request's database work, under the request's id.
            tracing::debug!(
                target: "fad_api::db",
                writer,
                ok = result.is_ok(),
                elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
                "database work finished"
            );
            if let Some(tally) = tally {
                tally.add_since(conn, before);
            }
            result
        })
        .await?
    }

    /// Runs `f` inside one read-only transaction (a consistent snapshot across several
    /// queries). Unlike [`Database::transaction`] it does not queue behind SQLite writers, so
    /// `f` must not write: on SQLite a write here may fail with "database is locked" (503).
    pub async fn read<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut Db) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        self.run(move |conn| conn.transaction(f)).await
    }

    /// One round trip to the database (used by `/ready`).
    pub async fn ping(&self) -> Result<(), ApiError> {
        self.run(|conn| Ok(conn.ping()?)).await
    }
}

/// Runs blocking `f` on actix's blocking thread pool inside the caller's tracing span, so every
/// line it logs carries the request id of the request that asked for it. Use it instead of
/// `web::block` for any blocking work of a request (database, hashing, generation).
pub async fn in_request_span<T, F>(f: F) -> Result<T, actix_web::error::BlockingError>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let span = tracing::Span::current();
    actix_web::web::block(move || span.in_scope(f)).await
}

/// Checks a connection out of the pool. One the database answered within
/// [`probe::ALIVE_BYPASS`] is used as it is; an older one is pinged first, and replaced when the
/// ping fails (the probe marks it broken, so the pool drops it on return).
fn checkout(pool: &r2d2::Pool<ConnectionManager>) -> Result<PooledDb, ApiError> {
    let mut last_error = None;
    // Every idle connection may have died with the database; then the pool opens a new one.
    for _ in 0..=pool.max_size() {
        let mut conn = pool.get()?;
        if probe::recently_answered(&mut conn) {
            return Ok(conn);
        }
        match conn.ping() {
            Ok(()) => return Ok(conn),
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.map_or_else(
        || ApiError::Unavailable("no usable database connection".to_owned()),
        ApiError::from,
    ))
}

/// Applies pending migrations of the connection's backend and returns the names applied, in
/// order. On PostgreSQL an advisory lock serialises concurrent starts.
pub fn run_migrations(conn: &mut Db) -> anyhow::Result<Vec<String>> {
    match conn {
        Db::Pg(pg) => {
            diesel::sql_query(format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))
                .execute(pg)
                .context("taking the migration lock")?;
            let result = apply_pending(pg, POSTGRES_MIGRATIONS);
            diesel::sql_query(format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))
                .execute(pg)
                .context("releasing the migration lock")?;
            result
        }
        Db::Sqlite(sqlite) => apply_pending(sqlite, SQLITE_MIGRATIONS),
    }
}

/// The names of migrations not yet applied to the connection's database.
pub fn pending_migrations(conn: &mut Db) -> anyhow::Result<Vec<String>> {
    let pending = match conn {
        Db::Pg(pg) => pg
            .pending_migrations(POSTGRES_MIGRATIONS)
            .map(|m| m.iter().map(|m| m.name().to_string()).collect()),
        Db::Sqlite(sqlite) => sqlite
            .pending_migrations(SQLITE_MIGRATIONS)
            .map(|m| m.iter().map(|m| m.name().to_string()).collect()),
    };
    pending.map_err(|e| anyhow!("reading migrations: {e}"))
}

fn apply_pending<C, B>(conn: &mut C, source: EmbeddedMigrations) -> anyhow::Result<Vec<String>>
where
    C: MigrationHarness<B>,
    B: diesel::backend::Backend,
    EmbeddedMigrations: diesel::migration::MigrationSource<B>,
{
    let pending = conn
        .pending_migrations(source)
        .map_err(|e| anyhow!("reading migrations: {e}"))?;
    let mut applied = Vec::with_capacity(pending.len());
    for migration in pending {
        let name = migration.name().to_string();
        conn.run_migration(&*migration)
            .map_err(|e| anyhow!("applying migration {name}: {e}"))?;
        tracing::info!(migration = %name, "applied migration {name}");
        applied.push(name);
    }
    Ok(applied)
}

/// Reverts every applied migration (newest first). For tests of the down migrations.
pub fn revert_all_migrations(conn: &mut Db) -> anyhow::Result<usize> {
    let reverted = match conn {
        Db::Pg(pg) => pg
            .revert_all_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
        Db::Sqlite(sqlite) => sqlite
            .revert_all_migrations(SQLITE_MIGRATIONS)
            .map(|v| v.len()),
    };
    reverted.map_err(|e| anyhow!("reverting migrations: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_and_sqlite_urls_select_their_backend() {
        let pg = DatabaseUrl::parse("postgresql://u@h/db").unwrap();
        assert_eq!(pg.backend(), Backend::Postgres);
        let lite = DatabaseUrl::parse("sqlite://data/x.sqlite3").unwrap();
        assert_eq!(lite.backend(), Backend::Sqlite);
        assert_eq!(lite.to_string(), "sqlite://data/x.sqlite3");
    }

    #[test]
    fn unknown_schemes_and_bare_paths_are_refused() {
        let err = DatabaseUrl::parse("mysql://u@h/db")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "unsupported scheme `mysql`: use postgres://USER@HOST:PORT/DB or sqlite://PATH"
        );
        assert!(DatabaseUrl::parse("data/db.sqlite3").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn display_hides_the_postgres_password() {
        let url = DatabaseUrl::parse("postgres://fad:s3cret@db:5432/fad?sslmode=disable").unwrap();
        assert_eq!(
            url.to_string(),
            "postgres://fad:***@db:5432/fad?sslmode=disable"
        );
        let no_password = DatabaseUrl::parse("postgres://postgres@127.0.0.1/x").unwrap();
        assert_eq!(no_password.to_string(), "postgres://postgres@127.0.0.1/x");
    }

    #[test]
    fn refused_postgres_connection_names_the_real_cause() {
        // Port 1 on localhost: nothing listens there.
        let url = DatabaseUrl::parse("postgres://postgres@127.0.0.1:1/none").unwrap();
        let Err(err) = url.establish() else {
            panic!("connecting to port 1 should fail")
        };
        let message = err.to_string();
        assert!(message.starts_with("cannot connect to postgres://postgres@127.0.0.1:1/none:"));
        assert!(message.contains("refused"), "{message}");
    }

    #[test]
    fn sqlite_connections_have_foreign_keys_wal_and_busy_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let url = DatabaseUrl::sqlite_file(dir.path().join("sub/dir/t.sqlite3"));
        let Db::Sqlite(mut conn) = url.establish().unwrap() else {
            panic!("expected sqlite")
        };
        #[derive(QueryableByName)]
        struct Value {
            #[diesel(sql_type = diesel::sql_types::Text)]
            v: String,
        }
        let pragma = |conn: &mut SqliteConnection, name: &str, column: &str| {
            diesel::sql_query(format!(
                "SELECT CAST({column} AS TEXT) AS v FROM pragma_{name}"
            ))
            .get_result::<Value>(conn)
            .unwrap()
            .v
        };
        assert_eq!(pragma(&mut conn, "foreign_keys", "foreign_keys"), "1");
        assert_eq!(pragma(&mut conn, "journal_mode", "journal_mode"), "wal");
        assert_eq!(pragma(&mut conn, "busy_timeout", "timeout"), "5000");
    }
}
