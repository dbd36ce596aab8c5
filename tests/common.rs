//! The black-box harness: a fresh database per test ([`TestDb`]), the real `fad-campaign`
//! binary on a free port ([`TestApp`]), blocking request helpers, and [`both_backends!`] to run
//! every test against SQLite and PostgreSQL.
//!
//! PostgreSQL comes from `FAD_TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432`);
//! each test creates `fad_t_<uuid>` and drops it afterwards, so tests run in parallel safely.
//! Server output is shown when `TEST_LOG=1`, and always when a server fails to start.

#![allow(
    dead_code,
    reason = "the harness serves every test area; not each helper is used yet"
)]

use diesel::prelude::*;
use fad_api::db::{DatabaseUrl, Db};
use reqwest::blocking::{Client, RequestBuilder, Response};
use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default server for PostgreSQL tests.
pub const DEFAULT_PG_URL: &str = "postgres://postgres@127.0.0.1:5432";

/// The JWT secret every [`TestApp`] runs with (tests may sign tokens with it).
pub const TEST_JWT_SECRET: &str = "test-secret-test-secret-test-secret-0123456789";

/// How long a server may take to print its address.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Which database a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A fresh database on the test PostgreSQL server.
    Postgres,
}

/// Something a [`both_backends!`] test receives, created per backend.
pub trait Fixture {
    /// Creates the fixture on `backend`.
    fn create(backend: Backend) -> Self;
}

/// Emits a `sqlite` and a `postgres` test (in a module named after the test) from one body.
/// The argument type is any [`Fixture`]: `&TestApp` (a running server) or `&TestDb`.
///
/// ```ignore
/// both_backends! {
///     fn health_returns_200(app: &TestApp) {
///         assert_eq!(app.get("/health").status(), 200);
///     }
/// }
/// ```
macro_rules! both_backends {
    ($(
        $(#[$meta:meta])*
        fn $name:ident($arg:ident : &$fixture:ty) $body:block
    )*) => {$(
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports, reason = "the body may use any of the parent's imports")]
            use super::*;

            fn body($arg: &$fixture) $body

            #[test]
            fn sqlite() {
                body(&<$fixture as $crate::common::Fixture>::create(
                    $crate::common::Backend::Sqlite,
                ));
            }

            #[test]
            fn postgres() {
                body(&<$fixture as $crate::common::Fixture>::create(
                    $crate::common::Backend::Postgres,
                ));
            }
        }
    )*};
}

/// The PostgreSQL server URL for tests.
pub fn pg_server_url() -> String {
    std::env::var("FAD_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_PG_URL.to_owned())
}

/// `base` with its database name replaced by `name`.
fn pg_url_for(name: &str) -> String {
    let base = pg_server_url();
    let mut url = url::Url::parse(&base)
        .unwrap_or_else(|e| panic!("FAD_TEST_DATABASE_URL `{base}` is not a URL: {e}"));
    url.set_path(&format!("/{name}"));
    url.to_string()
}

/// A connection to the server's `postgres` database, or a panic that says how to start
/// PostgreSQL. PostgreSQL tests never skip silently.
pub fn pg_admin() -> PgConnection {
    let url = pg_url_for("postgres");
    PgConnection::establish(&url).unwrap_or_else(|err| {
        panic!(
            "PostgreSQL is not reachable at {url}: {err}\n\
             The PostgreSQL variants of the black-box tests need a server. Start the local one \
             with\n    pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n\
             or point FAD_TEST_DATABASE_URL at a server where this user may CREATE DATABASE."
        )
    })
}

/// A fresh, empty database for one test; removed on drop.
pub struct TestDb {
    backend: Backend,
    url: String,
    pg_name: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    /// Creates an empty database (not migrated: the server or the test migrates it).
    pub fn new(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temporary directory");
                let url = format!("sqlite://{}", dir.path().join("test.sqlite3").display());
                Self {
                    backend,
                    url,
                    pg_name: None,
                    _dir: Some(dir),
                }
            }
            Backend::Postgres => {
                let name = format!("fad_t_{}", uuid::Uuid::new_v4().simple());
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut pg_admin())
                    .unwrap_or_else(|e| panic!("CREATE DATABASE {name} failed: {e}"));
                Self {
                    backend,
                    url: pg_url_for(&name),
                    pg_name: Some(name),
                    _dir: None,
                }
            }
        }
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The `DATABASE_URL` of this database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The PostgreSQL database name (None for SQLite).
    pub fn pg_name(&self) -> Option<&str> {
        self.pg_name.as_deref()
    }

    /// A direct connection (with the service's SQLite pragmas).
    pub fn connect(&self) -> Db {
        DatabaseUrl::parse(&self.url)
            .expect("test URL parses")
            .establish()
            .unwrap_or_else(|e| panic!("connecting to the test database: {e}"))
    }

    /// A direct connection to a migrated database.
    pub fn migrated(&self) -> Db {
        let mut conn = self.connect();
        fad_api::db::run_migrations(&mut conn).expect("migrations apply");
        conn
    }
}

impl Fixture for TestDb {
    fn create(backend: Backend) -> Self {
        Self::new(backend)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(name) = &self.pg_name {
            if let Ok(mut admin) = PgConnection::establish(&pg_url_for("postgres")) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut admin);
            }
        }
    }
}

/// Output collected from a server process.
#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<String>>);

impl Logs {
    fn push(&self, line: &str) {
        if show_logs() {
            eprintln!("{line}");
        }
        let mut text = self.0.lock().unwrap_or_else(|e| e.into_inner());
        text.push_str(line);
        text.push('\n');
    }

    /// Everything printed so far (stdout and stderr, interleaved by line).
    pub fn text(&self) -> String {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn show_logs() -> bool {
    std::env::var("TEST_LOG").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A `fad-campaign` command with a clean environment: only what the test sets.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fad-campaign"));
    cmd.args(args)
        .env_clear()
        .env("RUST_LOG", "info,fad_api=debug");
    if let Ok(path) = std::env::var("PATH") {
        cmd.env("PATH", path);
    }
    cmd
}

/// `fad-campaign serve` on a free loopback port against `database_url`, with the test
/// defaults (test JWT secret, 2 workers, a pool of 4 with a 1 s timeout, no practical login
/// rate limit or campaign quota); add or override variables with `.env(...)` before starting it.
pub fn serve_command(database_url: &str, data_dir: &std::path::Path) -> Command {
    let mut cmd = command(&["serve", "--bind", "127.0.0.1:0"]);
    cmd.env("DATABASE_URL", database_url)
        .env("FAD_DATA_DIR", data_dir)
        .env("FAD_JWT_SECRET", TEST_JWT_SECRET)
        .env("FAD_WORKERS", "2")
        .env("FAD_DB_POOL_SIZE", "4")
        .env("FAD_DB_TIMEOUT_SECS", "1")
        // Every test client shares 127.0.0.1: only tests of the limit itself lower it.
        .env("FAD_AUTH_RATE_PER_MINUTE", "100000")
        .env("FAD_AUTH_RATE_BURST", "100000")
        // Tables of many callers build many campaigns per account: only quota tests lower it.
        .env("FAD_MAX_CAMPAIGNS_PER_ACCOUNT", "100000")
        // Likewise house rulesets (each test world writes one).
        .env("FAD_MAX_RULESETS_PER_ACCOUNT", "100000");
    cmd
}

/// How a server start ended when it did not print its address.
#[derive(Debug)]
pub struct StartFailure {
    /// Exit status (None if it was still running at the timeout and got killed).
    pub status: Option<ExitStatus>,
    /// Everything it printed.
    pub output: String,
}

/// A running server process; killed on drop.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    logs: Logs,
}

impl Server {
    /// Starts `cmd` (which must be a `serve`) and waits for its `listening on` line.
    pub fn start(mut cmd: Command) -> Result<Self, StartFailure> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawning fad-campaign");
        let logs = Logs::default();
        let (tx, rx) = mpsc::channel();
        pump(child.stdout.take().expect("stdout"), logs.clone(), Some(tx));
        pump(child.stderr.take().expect("stderr"), logs.clone(), None);
        match rx.recv_timeout(START_TIMEOUT) {
            Ok(base_url) => Ok(Self {
                child,
                base_url,
                logs,
            }),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // stdout closed: the process ended. Wait for it, then let stderr drain.
                let status = child.wait().ok();
                std::thread::sleep(Duration::from_millis(100));
                Err(StartFailure {
                    status,
                    output: logs.text(),
                })
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(StartFailure {
                    status: None,
                    output: logs.text(),
                })
            }
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything the server printed so far.
    pub fn logs(&self) -> String {
        self.logs.text()
    }

    /// Sends `signal` (e.g. `TERM`, `INT`) and waits up to `timeout` for the process to exit.
    pub fn signal_and_wait(&mut self, signal: &str, timeout: Duration) -> Option<ExitStatus> {
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.pid().to_string()])
            .status()
            .expect("running kill");
        assert!(sent.success(), "kill -{signal} failed");
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Copies `stream` line by line into `logs`; sends the address from the first
/// `listening on http://…` line (stdout only).
fn pump(stream: impl Read + Send + 'static, logs: Logs, tx: Option<mpsc::Sender<String>>) {
    std::thread::spawn(move || {
        let mut tx = tx;
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if let Some(address) = line.strip_prefix("listening on ") {
                if let Some(sender) = tx.take() {
                    let _ = sender.send(address.trim().to_owned());
                }
            }
            logs.push(&line);
        }
    });
}

/// A running service on its own database. Dropping it stops the server, then drops the
/// database.
pub struct TestApp {
    // Field order matters: the server stops before its database is dropped.
    server: Server,
    /// The database the server uses.
    pub db: TestDb,
    /// The server's data directory.
    pub data_dir: tempfile::TempDir,
    client: Client,
}

impl Fixture for TestApp {
    fn create(backend: Backend) -> Self {
        Self::spawn(backend)
    }
}

impl TestApp {
    /// Starts the service on a fresh `backend` database.
    pub fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, &[])
    }

    /// Starts the service with extra environment variables (added after the defaults, so they
    /// override them).
    pub fn spawn_with(backend: Backend, env: &[(&str, &str)]) -> Self {
        Self::spawn_on(TestDb::new(backend), env)
    }

    /// Starts the service on an existing database (e.g. one a test filled with `import`).
    pub fn spawn_on(db: TestDb, env: &[(&str, &str)]) -> Self {
        let data_dir = tempfile::tempdir().expect("temporary directory");
        let mut cmd = serve_command(db.url(), data_dir.path());
        for (key, value) in env {
            cmd.env(key, value);
        }
        let server = Server::start(cmd).unwrap_or_else(|failure| {
            panic!(
                "fad-campaign did not start ({:?}):\n{}",
                failure.status, failure.output
            )
        });
        let client = Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("HTTP client");
        let app = Self {
            server,
            db,
            data_dir,
            client,
        };
        app.wait_until_healthy();
        app
    }

    fn wait_until_healthy(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.client.get(self.url("/health")).send() {
                Ok(r) if r.status() == StatusCode::OK => return,
                _ if Instant::now() > deadline => {
                    panic!("/health never answered 200:\n{}", self.logs())
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Which backend the server runs on.
    pub fn backend(&self) -> Backend {
        self.db.backend()
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> &str {
        &self.server.base_url
    }

    /// Absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.base_url)
    }

    /// Everything the server printed so far.
    pub fn logs(&self) -> String {
        self.server.logs()
    }

    /// The server's output once `done` holds for it, or as it is after `timeout`: lines
    /// reach the test through a reader thread, so one written as a response goes out may
    /// arrive just after the response does.
    pub fn logs_once(&self, done: impl Fn(&str) -> bool, timeout: Duration) -> String {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let logs = self.logs();
            if done(&logs) || std::time::Instant::now() >= deadline {
                return logs;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server process (to send signals).
    pub fn server_mut(&mut self) -> &mut Server {
        &mut self.server
    }

    /// A request builder for anything the helpers below do not cover.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.client.request(method, self.url(path))
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        send(self.request(Method::GET, path))
    }

    /// `GET path` with `Authorization: Bearer token`.
    pub fn get_with_token(&self, path: &str, token: &str) -> Response {
        send(self.request(Method::GET, path).bearer_auth(token))
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&self, path: &str, body: &impl Serialize) -> Response {
        send(self.request(Method::POST, path).json(body))
    }

    /// `POST path` with a JSON body and a bearer token.
    pub fn post_json_with_token(&self, path: &str, body: &impl Serialize, token: &str) -> Response {
        send(
            self.request(Method::POST, path)
                .json(body)
                .bearer_auth(token),
        )
    }

    /// `PUT path` with a JSON body and a bearer token.
    pub fn put_json_with_token(&self, path: &str, body: &impl Serialize, token: &str) -> Response {
        send(
            self.request(Method::PUT, path)
                .json(body)
                .bearer_auth(token),
        )
    }

    /// `DELETE path` with a bearer token.
    pub fn delete_with_token(&self, path: &str, token: &str) -> Response {
        send(self.request(Method::DELETE, path).bearer_auth(token))
    }
}

/// Sends a request; a transport error fails the test.
pub fn send(request: RequestBuilder) -> Response {
    request
        .send()
        .unwrap_or_else(|e| panic!("request failed: {e}"))
}

/// Asserts `response` is `application/problem+json` with `status` and a matching `status`
/// member, and returns the body.
#[track_caller]
pub fn assert_problem(response: Response, status: u16) -> Value {
    let actual = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().expect("body");
    assert_eq!(actual, status, "status; body: {text}");
    assert_eq!(
        content_type, "application/problem+json",
        "content type; body: {text}"
    );
    let body: Value = serde_json::from_str(&text).expect("problem body is JSON");
    assert_eq!(body["status"], status, "{body}");
    let kind = fad_api::error::PROBLEM_KINDS
        .iter()
        .find(|k| k.status == status)
        .map_or_else(
            || "about:blank".to_owned(),
            |k| format!("/problems/{}", k.slug),
        );
    assert_eq!(body["type"], kind.as_str(), "{body}");
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
    body
}

/// Polls `path` until it answers `status` or `timeout` passes; returns whether it did.
pub fn wait_for_status(app: &TestApp, path: &str, status: u16, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if app
            .request(Method::GET, path)
            .send()
            .is_ok_and(|r| r.status().as_u16() == status)
        {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// The id of the roster unit named `name` (searching every platoon, first match).
pub fn unit_id(force: &Value, name: &str) -> String {
    force["platoons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["units"].as_array().unwrap())
        .find(|u| u["name"] == name)
        .unwrap_or_else(|| panic!("no unit {name} in {force}"))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The JSON body of a successful response; panics with the status and body otherwise.
#[track_caller]
pub fn ok(response: Response) -> Value {
    let status = response.status();
    let text = response.text().unwrap();
    assert!(status.is_success(), "{status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// The side of `force_id` in a scenario view.
pub fn side<'a>(view: &'a Value, force_id: &str) -> &'a Value {
    view["sides"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["force_id"] == force_id)
        .unwrap_or_else(|| panic!("no side {force_id} in {view}"))
}

/// The rolls of one `step` in an answer's roll log, in order.
pub fn rolls<'a>(body: &'a Value, step: &str) -> Vec<&'a Value> {
    body["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["step"] == step)
        .collect()
}

/// A force as a write answers it: reads add the owner's shown name (`owner_name`), which write
/// answers leave out, so a read compares with a write's answer without it.
pub fn as_written(read: &Value) -> Value {
    let mut force = read.clone();
    if let Some(object) = force.as_object_mut() {
        assert!(
            object.remove("owner_name").is_some_and(|n| n.is_string()),
            "a read names the owner: {read}"
        );
    }
    force
}
