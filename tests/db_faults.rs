//! Database faults, PostgreSQL only: the server talks to PostgreSQL through
//! a [`ChaosProxy`] inside the test, which can cut every connection and refuse new ones, then
//! let them through again (crates.io's `ChaosProxy` in `unhealthy_database.rs`). The shared
//! cluster keeps running for the other tests. Under traffic: 200 → cut → fast 503
//! problem+json and `/ready` 503 → restore → 200 again, without a restart, and no request
//! half-applied.

use crate::auth::PASSWORD;
use crate::common::{Backend, Server, TEST_JWT_SECRET, TestDb, command, pg_server_url};
use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest a request may take while the database is away (pool timeout is 1 s here).
const FAIL_FAST: Duration = Duration::from_secs(5);

/// A TCP proxy to the PostgreSQL server that the test can cut and restore.
struct ChaosProxy {
    port: u16,
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    down: AtomicBool,
    stop: AtomicBool,
    connections: Mutex<Vec<TcpStream>>,
    /// Connections accepted while up (forwarded).
    forwarded: AtomicUsize,
    /// Connections refused while down.
    refused: AtomicUsize,
}

impl ChaosProxy {
    /// Listens on a free local port and forwards to `upstream` (`host:port`).
    fn start(upstream: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared::default());
        let state = Arc::clone(&shared);
        thread::spawn(move || {
            while !state.stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        if state.down.load(Ordering::SeqCst) {
                            state.refused.fetch_add(1, Ordering::SeqCst);
                            let _ = client.shutdown(Shutdown::Both);
                            continue;
                        }
                        client.set_nonblocking(false).unwrap();
                        let Ok(server) = TcpStream::connect(&upstream) else {
                            continue;
                        };
                        state.forwarded.fetch_add(1, Ordering::SeqCst);
                        let mut registry = state.connections.lock().unwrap();
                        registry.push(client.try_clone().unwrap());
                        registry.push(server.try_clone().unwrap());
                        drop(registry);
                        pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
                        pipe(server, client);
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self { port, shared }
    }

    /// Closes every open connection and refuses new ones.
    fn cut(&self) {
        self.shared.down.store(true, Ordering::SeqCst);
        for stream in self.shared.connections.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Lets connections through again.
    fn restore(&self) {
        self.shared.down.store(false, Ordering::SeqCst);
    }
}

impl Drop for ChaosProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.cut();
    }
}

/// Copies `from` → `to` until either side closes.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    thread::spawn(move || {
        let mut buffer = [0_u8; 16 * 1024];
        loop {
            match from.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if to.write_all(&buffer[..n]).is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to.shutdown(Shutdown::Both);
        let _ = from.shutdown(Shutdown::Both);
    });
}

/// The service on a fresh PostgreSQL database, reached through a chaos proxy.
struct ProxiedApp {
    // Field order: the server stops before the proxy and the database go.
    server: Server,
    proxy: ChaosProxy,
    _db: TestDb,
    _data_dir: tempfile::TempDir,
    client: Client,
}

impl ProxiedApp {
    fn spawn() -> Self {
        let db = TestDb::new(Backend::Postgres);
        let upstream = url::Url::parse(&pg_server_url()).unwrap();
        let proxy = ChaosProxy::start(format!(
            "{}:{}",
            upstream.host_str().unwrap(),
            upstream.port().unwrap_or(5432)
        ));
        let mut url = url::Url::parse(db.url()).unwrap();
        url.set_host(Some("127.0.0.1")).unwrap();
        url.set_port(Some(proxy.port)).unwrap();
        let data_dir = tempfile::tempdir().unwrap();
        let mut cmd = command(&["serve", "--bind", "127.0.0.1:0"]);
        cmd.env("DATABASE_URL", url.as_str())
            .env("FAD_DATA_DIR", data_dir.path())
            .env("FAD_JWT_SECRET", TEST_JWT_SECRET)
            .env("FAD_WORKERS", "2")
            .env("FAD_DB_POOL_SIZE", "4")
            .env("FAD_DB_TIMEOUT_SECS", "1")
            .env("FAD_AUTH_RATE_PER_MINUTE", "100000")
            .env("FAD_AUTH_RATE_BURST", "100000");
        let server =
            Server::start(cmd).unwrap_or_else(|f| panic!("server did not start: {}", f.output));
        let client = Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        Self {
            server,
            proxy,
            _db: db,
            _data_dir: data_dir,
            client,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.base_url)
    }

    fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Response {
        let mut request = self.client.request(
            reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
            self.url(path),
        );
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        request.send().unwrap()
    }
}

/// Status, problem type check and duration of one request.
fn timed(
    app: &ProxiedApp,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Duration, Value) {
    let started = Instant::now();
    let response = app.send(method, path, token, body);
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    let body: Value = response.json().unwrap_or(Value::Null);
    if status >= 400 {
        assert_eq!(
            content_type.as_deref(),
            Some("application/problem+json"),
            "{method} {path}: {body}"
        );
    }
    (status, elapsed, body)
}

fn wait_ready(app: &ProxiedApp, status: u16, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if app.send("GET", "/ready", None, None).status().as_u16() == status {
            return true;
        }
        thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn postgres_outage_gives_fast_503_and_recovers_without_restart_with_nothing_half_applied() {
    // Arrange
    let app = Arc::new(ProxiedApp::spawn());
    let credentials = json!({"username": "alice", "password": PASSWORD});
    assert_eq!(
        app.send("POST", "/api/v1/auth/register", None, Some(&credentials))
            .status(),
        201
    );
    let login: Value = app
        .send("POST", "/api/v1/auth/login", None, Some(&credentials))
        .json()
        .unwrap();
    let token = login["access_token"].as_str().unwrap().to_owned();
    let created: Value = app
        .send(
            "POST",
            "/api/v1/campaigns",
            Some(&token),
            Some(&json!({"name": "c"})),
        )
        .json()
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let settings_path = format!("/api/v1/campaigns/{id}/settings");
    assert!(wait_ready(&app, 200, Duration::from_secs(5)));

    // Background traffic: reads and writes all along; every answer is 2xx or a 503.
    let stop = Arc::new(AtomicBool::new(false));
    let traffic = {
        let (app, stop, token) = (Arc::clone(&app), Arc::clone(&stop), token.clone());
        thread::spawn(move || {
            let mut seen = Vec::new();
            let mut n = 0;
            while !stop.load(Ordering::SeqCst) {
                n += 1;
                let body = json!({"name": format!("bg {n}")});
                let (status, elapsed, _) =
                    timed(&app, "POST", "/api/v1/campaigns", Some(&token), Some(&body));
                seen.push((status, elapsed));
                let (status, elapsed, _) =
                    timed(&app, "GET", "/api/v1/campaigns", Some(&token), None);
                seen.push((status, elapsed));
            }
            seen
        })
    };

    let mut faults = 0;
    for cycle in 0..2 {
        thread::sleep(Duration::from_millis(300));
        // Act: cut the database.
        app.proxy.cut();
        faults += 1;
        let ready = timed(&app, "GET", "/ready", None, None);
        let me = timed(&app, "GET", "/api/v1/me", Some(&token), None);
        let write = timed(
            &app,
            "PUT",
            &settings_path,
            Some(&token),
            Some(&json!({"version": 1 + cycle, "results_need_confirmation": false})),
        );
        let login = timed(&app, "POST", "/api/v1/auth/login", None, Some(&credentials));

        // Assert: fast 503 problem+json everywhere the database is needed.
        for (what, (status, elapsed, body)) in [
            ("ready", &ready),
            ("me", &me),
            ("write", &write),
            ("login", &login),
        ] {
            assert_eq!(*status, 503, "cycle {cycle} {what}: {body}");
            assert!(
                *elapsed < FAIL_FAST,
                "cycle {cycle} {what} took {elapsed:?}"
            );
            if what != "ready" {
                assert_eq!(
                    body["detail"], "The database is unavailable; try again shortly.",
                    "{body}"
                );
            }
        }
        assert_eq!(
            app.send("GET", "/health", None, None).status(),
            200,
            "liveness needs no database"
        );

        // Act: restore it; no restart.
        app.proxy.restore();

        // Assert: back within seconds, and the refused write did not happen.
        assert!(
            wait_ready(&app, 200, Duration::from_secs(15)),
            "cycle {cycle}: /ready never recovered"
        );
        let (status, _, settings) = timed(&app, "GET", &settings_path, Some(&token), None);
        assert_eq!(status, 200);
        assert_eq!(
            settings["version"],
            1 + cycle,
            "the write during the outage was not applied"
        );
        let (status, _, changed) = timed(
            &app,
            "PUT",
            &settings_path,
            Some(&token),
            Some(&json!({"version": 1 + cycle, "results_need_confirmation": false})),
        );
        assert_eq!(status, 200, "{changed}");
        assert_eq!(changed["version"], 2 + cycle);
    }
    stop.store(true, Ordering::SeqCst);
    let seen = traffic.join().unwrap();

    // Assert: background traffic saw only successes and fast 503s.
    let unavailable = seen.iter().filter(|(s, _)| *s == 503).count();
    for (status, elapsed) in &seen {
        assert!(
            matches!(status, 200 | 201 | 503),
            "background status {status}"
        );
        assert!(
            *status != 503 || *elapsed < FAIL_FAST,
            "a 503 took {elapsed:?}"
        );
    }
    assert!(
        seen.len() > 10 && unavailable > 0,
        "traffic ran through the outage: {seen:?}"
    );
    assert!(
        app.proxy.shared.refused.load(Ordering::SeqCst) > 0,
        "the pool tried to reconnect"
    );
    // Nothing half-applied: every campaign that exists has its organiser membership and settings.
    let mut campaigns = Vec::new();
    let mut path = "/api/v1/campaigns?limit=100".to_owned();
    loop {
        let (_, _, page) = timed(&app, "GET", &path, Some(&token), None);
        campaigns.extend(page["campaigns"].as_array().unwrap().iter().cloned());
        match page["next"].as_str() {
            Some(next) => path = format!("/api/v1/campaigns?limit=100&after={next}"),
            None => break,
        }
    }
    for campaign in &campaigns {
        let cid = campaign["id"].as_str().unwrap();
        let (status, _, members) = timed(
            &app,
            "GET",
            &format!("/api/v1/campaigns/{cid}/members"),
            Some(&token),
            None,
        );
        assert_eq!(status, 200);
        assert_eq!(members["members"].as_array().unwrap().len(), 1, "{members}");
        assert_eq!(members["members"][0]["role"], "organiser");
        let (status, _, settings) = timed(
            &app,
            "GET",
            &format!("/api/v1/campaigns/{cid}/settings"),
            Some(&token),
            None,
        );
        assert_eq!(status, 200, "{settings}");
    }
    println!(
        "db_faults: {faults} outages injected, {} background requests ({unavailable} answered 503), {} connections refused",
        seen.len(),
        app.proxy.shared.refused.load(Ordering::SeqCst)
    );
}
