//! Several server processes on one database, for the crash, race and soak tests: [`spawn`] starts a `fad-campaign serve` on an existing [`TestDb`] (so a test can
//! kill one with `kill -9` and start another on the same data), and [`Http`] is a small client
//! that reports transport errors instead of panicking (a killed server drops its connections).
//! The setup helpers build users, campaigns, forces and battles through the API only.

use crate::auth::PASSWORD;
use crate::common::{Server, TestDb, serve_command};
use reqwest::Method;
use reqwest::blocking::Client;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

/// Starts a server on `db` (already migrated or not: `serve` migrates) with a larger pool than
/// the default test server, so that many client threads queue inside the server rather than
/// time out on the pool.
pub fn spawn(db: &TestDb, data_dir: &Path) -> Server {
    let mut cmd = serve_command(db.url(), data_dir);
    cmd.env("FAD_DB_POOL_SIZE", "8")
        .env("FAD_DB_TIMEOUT_SECS", "10")
        // Request logs of a few thousand requests only slow the run down.
        .env("RUST_LOG", "warn")
        // As the Docker image runs it: freed pages go back at once, so resident memory shows
        // what the process holds rather than what mimalloc keeps for a second (README).
        .env("MIMALLOC_PURGE_DELAY", "0");
    Server::start(cmd)
        .unwrap_or_else(|f| panic!("fad-campaign did not start ({:?}):\n{}", f.status, f.output))
}

/// A blocking JSON client for one server.
#[derive(Clone)]
pub struct Http {
    base: String,
    client: Client,
}

/// What came back: status and JSON body (`Null` when the body is not JSON).
pub type Answer = (u16, Value);

impl Http {
    /// A client for `server`.
    pub fn new(server: &Server) -> Self {
        Self::for_base(&server.base_url)
    }

    /// A client for `http://127.0.0.1:PORT`.
    pub fn for_base(base: &str) -> Self {
        Self {
            base: base.to_owned(),
            client: Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("HTTP client"),
        }
    }

    /// Sends a request. `Err` on a transport error (refused, reset, timeout), with its text.
    pub fn try_call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Answer, String> {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let text = response.text().map_err(|e| e.to_string())?;
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    /// Sends a request; a transport error fails the test.
    #[track_caller]
    pub fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        self.try_call(method, path, token, body, None)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// `GET path` that must answer 200; returns the body.
    #[track_caller]
    pub fn get_ok(&self, path: &str, token: &str) -> Value {
        let (status, body) = self.call(Method::GET, path, Some(token), None);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// Every item of a paged list (`GET path`, 100 a page), following `next` to the end.
    #[track_caller]
    pub fn get_all(&self, path: &str, field: &str, token: &str) -> Vec<Value> {
        let separator = if path.contains('?') { '&' } else { '?' };
        let mut items = Vec::new();
        let mut page = self.get_ok(&format!("{path}{separator}limit=100"), token);
        loop {
            items.extend(page[field].as_array().unwrap().iter().cloned());
            let Some(next) = page["next"].as_str() else {
                return items;
            };
            page = self.get_ok(&format!("{path}{separator}limit=100&after={next}"), token);
        }
    }

    /// `POST path` that must answer `status`; returns the body.
    #[track_caller]
    pub fn post_expect(&self, path: &str, token: &str, body: &Value, status: u16) -> Value {
        let (got, answer) = self.call(Method::POST, path, Some(token), Some(body));
        assert_eq!(got, status, "POST {path}: {answer}");
        answer
    }
}

/// Registers `username` and returns `(user id, access token)`.
#[track_caller]
pub fn user(http: &Http, username: &str) -> (String, String) {
    let credentials = json!({"username": username, "password": PASSWORD});
    let (status, body) = http.call(
        Method::POST,
        "/api/v1/auth/register",
        None,
        Some(&credentials),
    );
    assert_eq!(status, 201, "register {username}: {body}");
    let id = body["id"].as_str().unwrap().to_owned();
    let (status, login) = http.call(Method::POST, "/api/v1/auth/login", None, Some(&credentials));
    assert_eq!(status, 200, "login {username}: {login}");
    (id, login["access_token"].as_str().unwrap().to_owned())
}

/// Creates a campaign organised by `token`'s user; returns its id.
#[track_caller]
pub fn campaign(http: &Http, token: &str, name: &str) -> String {
    let body = http.post_expect("/api/v1/campaigns", token, &json!({"name": name}), 201);
    body["id"].as_str().unwrap().to_owned()
}

/// A two-squad, one-platoon roster named `name`.
pub fn roster(name: &str) -> Value {
    json!({"name": name, "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Bravo", "kind": "squad", "quality": "conscript", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Creates a force with [`roster`]; returns its JSON.
#[track_caller]
pub fn force(http: &Http, token: &str, campaign_id: &str, name: &str) -> Value {
    http.post_expect(
        &format!("/api/v1/campaigns/{campaign_id}/forces"),
        token,
        &roster(name),
        201,
    )
}

/// `force` as a `PUT` body based on its current version, renamed to `name` and with Bravo at
/// `bravo` figures (a real roster change, so history and diff have something to record).
pub fn edit_body(force: &Value, name: &str, bravo: u64) -> Value {
    let mut body =
        json!({"version": force["version"], "name": name, "platoons": force["platoons"]});
    for platoon in body["platoons"].as_array_mut().unwrap() {
        for unit in platoon["units"].as_array_mut().unwrap() {
            if unit["name"] == "Bravo" {
                unit["strength"] = json!(bravo);
            }
        }
    }
    body
}

pub use crate::common::unit_id;

/// Creates a battle (state `scenario`) between `forces` (one force: against a non-player
/// force); returns its id.
#[track_caller]
pub fn battle(http: &Http, organiser: &str, campaign_id: &str, forces: &[&Value]) -> String {
    let mut sides: Vec<Value> = forces
        .iter()
        .map(|f| json!({"force_id": f["id"]}))
        .collect();
    if sides.len() == 1 {
        sides.push(json!({"non_player": {"name": "Militia"}}));
    }
    let battle = http.post_expect(
        &format!("/api/v1/campaigns/{campaign_id}/battles"),
        organiser,
        &json!({"sides": sides}),
        201,
    );
    battle["id"].as_str().unwrap().to_owned()
}

/// A result where Alpha of every player force lost 3 figures: the first force wins a
/// two-force battle, a battle against a non-player force is a draw.
pub fn result_body(forces: &[&Value]) -> Value {
    let losses: Vec<Value> = forces
        .iter()
        .map(|f| json!({"unit_id": unit_id(f, "Alpha"), "figures_lost": 3, "eliminated": false, "vehicle_damage": null}))
        .collect();
    if forces.len() == 2 {
        json!({"outcome": "win", "winner_force_id": forces[0]["id"], "losses": losses})
    } else {
        json!({"outcome": "draw", "losses": losses})
    }
}

/// Creates a battle ([`battle`]) and records [`result_body`] as the organiser (so it needs
/// no confirmation); returns the battle id, now in `aftermath`.
#[track_caller]
pub fn battle_in_aftermath(
    http: &Http,
    organiser: &str,
    campaign_id: &str,
    forces: &[&Value],
) -> String {
    let id = battle(http, organiser, campaign_id, forces);
    let recorded = http.post_expect(
        &format!("/api/v1/battles/{id}/result"),
        organiser,
        &result_body(forces),
        200,
    );
    assert_eq!(recorded["state"], "aftermath", "{recorded}");
    id
}

/// The path of an aftermath step.
pub fn step(battle_id: &str, force_id: &str, step: &str) -> String {
    format!("/api/v1/battles/{battle_id}/aftermath/{force_id}/{step}")
}

/// The body of a post-battle step with no choices: `finalize` gives up troopers left
/// unassigned (else it is refused), the other steps take `{}`.
pub fn step_body(step: &str) -> serde_json::Value {
    if step == "finalize" {
        serde_json::json!({"forgo_reinforcements": true})
    } else {
        serde_json::json!({})
    }
}

/// Reads `/proc/PID/status`'s `VmRSS` in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("reading /proc/{pid}/status: {e}"));
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in /proc/{pid}/status"))
}
