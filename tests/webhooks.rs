//! Webhooks: the organiser's endpoints (and who else may call them), address checks, and
//! delivery to a receiver on a loopback port in this process: Standard Webhooks signatures
//! checked independently of the server's code, order, retries, 410, a server killed with -9
//! mid-delivery, two servers on one PostgreSQL, and no scenario secret in any event.

use crate::auth::register;
use crate::campaigns::{People, World, create_campaign, invite_code, join};
use crate::common::*;
use crate::forces::{create_force, small_roster};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Server settings for delivery tests: loopback allowed, fast polling, short timeout and
/// one-second retries.
pub(crate) const FAST: [(&str, &str); 4] = [
    ("FAD_WEBHOOK_ALLOW_PRIVATE", "true"),
    ("FAD_WEBHOOK_POLL_MS", "100"),
    ("FAD_WEBHOOK_TIMEOUT_SECS", "1"),
    ("FAD_WEBHOOK_RETRY_SECS", "1,1,1"),
];

/// A backend for tests that start their own server(s).
struct On(Backend);

impl Fixture for On {
    fn create(backend: Backend) -> Self {
        Self(backend)
    }
}

/// Every event type but `ping`.
const ALL_EVENTS: [&str; 9] = [
    "battle.created",
    "battle.result_recorded",
    "battle.result_confirmed",
    "battle.scenario_ready",
    "battle.completed",
    "battle.voided",
    "force.created",
    "aftermath.finalized",
    "member.joined",
];

/// One request the receiver got.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    path: String,
    id: String,
    timestamp: String,
    signature: String,
    body: String,
}

impl Received {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }

    pub(crate) fn event_type(&self) -> String {
        self.json()["type"].as_str().unwrap_or_default().to_owned()
    }
}

/// How the receiver answers one request.
#[derive(Debug, Clone, Copy)]
enum Reply {
    Status(u16),
    /// Waits, then answers 200 (a delivery still in flight).
    Stall(Duration),
}

/// A tiny HTTP server on 127.0.0.1: records every request, answers from a script (then 200).
pub(crate) struct Receiver {
    port: u16,
    got: Arc<Mutex<Vec<Received>>>,
    script: Arc<Mutex<VecDeque<Reply>>>,
}

impl Receiver {
    pub(crate) fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let got = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(VecDeque::new()));
        let (g, s) = (got.clone(), script.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (g, s) = (g.clone(), s.clone());
                std::thread::spawn(move || serve_one(stream, &g, &s));
            }
        });
        Self { port, got, script }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn then(&self, reply: Reply) {
        self.script.lock().unwrap().push_back(reply);
    }

    pub(crate) fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until at least `n` requests arrived (panics after 40 s).
    pub(crate) fn wait_for(&self, n: usize) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(40);
        loop {
            let got = self.got();
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "only {} of {n} deliveries arrived: {got:#?}",
                got.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn serve_one(
    stream: std::net::TcpStream,
    got: &Mutex<Vec<Received>>,
    script: &Mutex<VecDeque<Reply>>,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    let mut headers = std::collections::HashMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    let header = |k: &str| headers.get(k).cloned().unwrap_or_default();
    got.lock().unwrap().push(Received {
        path,
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body: String::from_utf8(body).unwrap(),
    });
    let reply = script
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Reply::Status(200));
    let status = match reply {
        Reply::Status(code) => code,
        Reply::Stall(wait) => {
            std::thread::sleep(wait);
            200
        }
    };
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    );
}

/// Verifies a delivery the way the Standard Webhooks libraries do: HMAC-SHA256 keyed by the
/// base64-decoded secret after `whsec_`, over `{id}.{timestamp}.{body}`, sent as `v1,<base64>`.
pub(crate) fn verify(secret: &str, r: &Received) {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", r.id, r.timestamp, r.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert!(
        r.signature.split(' ').any(|s| s == expected),
        "bad signature {} for {r:?}",
        r.signature
    );
    let ts: i64 = r.timestamp.parse().unwrap();
    assert!(
        (chrono::Utc::now().timestamp() - ts).abs() < 300,
        "stale timestamp {ts}"
    );
}

/// Creates a webhook as the organiser; returns (id, secret).
#[track_caller]
pub(crate) fn create_hook(
    app: &TestApp,
    token: &str,
    campaign: &str,
    url: &str,
    events: &[&str],
) -> (String, String) {
    let response = app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign}/webhooks"),
        &json!({"url": url, "events": events, "description": "club site"}),
        token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    let body: Value = response.json().unwrap();
    let secret = body["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"));
    assert!(STANDARD.decode(&secret[6..]).unwrap().len() >= 24);
    (body["id"].as_str().unwrap().to_owned(), secret)
}

fn battle_against_militia(app: &TestApp, token: &str, campaign: &str, force: &str) -> String {
    let battle = ok(app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign}/battles"),
        &json!({"sides": [{"force_id": force}, {"non_player": {"name": "Militia"}}]}),
        token,
    ));
    battle["id"].as_str().unwrap().to_owned()
}

/// The keys an event's `data` may carry: ids, a battle state, a role, a result, a reason, and
/// the names and links a key reads on the campaign's pages (forces, owners, the scenario's
/// public step and whose turn it is).
pub(crate) const READABLE: [&str; 24] = [
    "campaign_id",
    // The ruleset the campaign plays: a key reads it on the campaign.
    "ruleset",
    "battle_id",
    "force_id",
    "state",
    "user_id",
    "role",
    "webhook_id",
    // A battle event's result (who won) and an organiser's reason: a key reads both in the
    // battle's `result` and `corrections`.
    "outcome",
    "winner_force_id",
    "reason",
    "campaign_name",
    "sides",
    "force_name",
    "owner_name",
    "member_name",
    "removed",
    "step",
    "waiting_for",
    "recon_prompt",
    "kind",
    "amount",
    "version",
    "links",
];

fn assert_readable_only(body: &Value) {
    let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3, "{body}");
    for key in body["data"].as_object().unwrap().keys() {
        assert!(
            READABLE.contains(&key.as_str()),
            "data carries {key}: {body}"
        );
    }
    assert!(chrono::DateTime::parse_from_rfc3339(body["timestamp"].as_str().unwrap()).is_ok());
}

both_backends! {
    fn deliveries_are_signed_in_order_and_carry_only_what_a_key_may_read(on: &On) {
        // Arrange
        let app = TestApp::spawn_with(on.0, &FAST);
        let receiver = Receiver::start();
        let organiser = register(&app, "organiser");
        let player = register(&app, "player");
        let campaign = create_campaign(&app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let (hook, secret) = create_hook(&app, &organiser.token, &campaign, &receiver.url("/hook"), &ALL_EVENTS);

        // Act: join, force, battle, result (recorded and confirmed by the organiser).
        let code = invite_code(&app, &organiser, &campaign);
        assert_eq!(join(&app, &player, &code).status(), 201);
        let force = create_force(&app, &player, &campaign, &small_roster("Blue"))["id"].as_str().unwrap().to_owned();
        let battle = battle_against_militia(&app, &player.token, &campaign, &force);
        ok(app.post_json_with_token(&format!("/api/v1/battles/{battle}/result"), &json!({"outcome": "draw"}), &organiser.token));

        // Assert
        let got = receiver.wait_for(5);
        let types: Vec<String> = got.iter().map(Received::event_type).collect();
        assert_eq!(types, ["member.joined", "force.created", "battle.created", "battle.result_recorded", "battle.result_confirmed"]);
        for r in &got {
            verify(&secret, r);
            assert_eq!(r.path, "/hook");
            let body = r.json();
            assert_readable_only(&body);
            assert_eq!(body["data"]["campaign_id"], campaign.as_str());
        }
        let ids: std::collections::BTreeSet<&str> = got.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), 5, "one webhook-id per event");
        assert_eq!(got[0].json()["data"]["user_id"], player.id.as_str());
        assert_eq!(got[1].json()["data"]["force_id"], force.as_str());
        assert_eq!(got[2].json()["data"]["battle_id"], battle.as_str());
        assert_eq!(got[2].json()["data"]["state"], "scenario");

        // The list shows the last delivery and never the secret; the log holds five.
        let list = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/webhooks"), &organiser.token));
        assert!(!list.to_string().contains(&secret[6..]));
        assert_eq!(list["webhooks"][0]["id"], hook.as_str());
        assert_eq!(list["webhooks"][0]["last_delivery"]["status"], "delivered");
        let log = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/deliveries?limit=3"), &organiser.token));
        assert_eq!(log["deliveries"].as_array().unwrap().len(), 3);
        let next = log["next"].as_str().unwrap();
        let rest = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/deliveries?limit=3&after={next}"), &organiser.token));
        assert_eq!(rest["deliveries"].as_array().unwrap().len(), 2);
        assert_eq!(rest["deliveries"][1]["event_type"], "member.joined");

        // A test ping goes to this webhook, signed like the rest.
        assert_eq!(send(app.request(Method::POST, &format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/test")).bearer_auth(&organiser.token)).status(), 202);
        let got = receiver.wait_for(6);
        assert_eq!(got[5].event_type(), "ping");
        verify(&secret, &got[5]);
    }

    fn a_failing_receiver_gets_retries_with_the_same_id_and_410_disables_the_webhook(on: &On) {
        // Arrange
        let app = TestApp::spawn_with(on.0, &FAST);
        let receiver = Receiver::start();
        let organiser = register(&app, "organiser");
        let campaign = create_campaign(&app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let (hook, secret) = create_hook(&app, &organiser.token, &campaign, &receiver.url("/h"), &["force.created"]);
        receiver.then(Reply::Status(500));
        receiver.then(Reply::Status(503));

        // Act: two events; the first fails twice before it is taken.
        let first = create_force(&app, &organiser, &campaign, &small_roster("First"))["id"].as_str().unwrap().to_owned();
        let second = create_force(&app, &organiser, &campaign, &small_roster("Second"))["id"].as_str().unwrap().to_owned();
        let got = receiver.wait_for(4);

        // Assert: the second waits for the first (order), and every retry has the same id.
        let forces: Vec<String> = got.iter().map(|r| r.json()["data"]["force_id"].as_str().unwrap().to_owned()).collect();
        assert_eq!(forces, [first.clone(), first.clone(), first, second]);
        assert_eq!(got[0].id, got[1].id);
        assert_eq!(got[1].id, got[2].id);
        assert_ne!(got[2].id, got[3].id);
        assert_eq!(got[0].body, got[2].body, "a retry sends the same body");
        for r in &got {
            verify(&secret, r);
        }
        let log = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/deliveries"), &organiser.token));
        assert_eq!(log["deliveries"][1]["attempts"], 3);
        assert_eq!(log["deliveries"][1]["status"], "delivered");

        // Act: 410 Gone.
        receiver.then(Reply::Status(410));
        create_force(&app, &organiser, &campaign, &small_roster("Third"));
        receiver.wait_for(5);
        let deadline = Instant::now() + Duration::from_secs(10);
        let list = loop {
            let list = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/webhooks"), &organiser.token));
            if !list["webhooks"][0]["disabled_at"].is_null() || Instant::now() > deadline {
                break list;
            }
            std::thread::sleep(Duration::from_millis(100));
        };

        // Assert: disabled; nothing more is sent.
        assert!(!list["webhooks"][0]["disabled_at"].is_null(), "{list}");
        assert_eq!(list["webhooks"][0]["last_delivery"]["status_code"], 410);
        create_force(&app, &organiser, &campaign, &small_roster("Fourth"));
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(receiver.got().len(), 5);
        let ping = send(app.request(Method::POST, &format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/test")).bearer_auth(&organiser.token));
        assert_problem(ping, 409);
    }

    fn webhooks_must_be_https_to_a_public_address_without_the_flag(app: &TestApp) {
        let organiser = register(app, "organiser");
        let campaign = create_campaign(app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{campaign}/webhooks");
        for url in [
            "http://club.example/hook",
            "https://127.0.0.1/hook",
            "https://localhost/hook",
            "https://10.0.0.8/hook",
            "https://192.168.1.10/hook",
            "https://169.254.169.254/latest",
            "https://[::1]/hook",
            "https://[fe80::1]/hook",
            "not a url",
        ] {
            let response = app.post_json_with_token(&path, &json!({"url": url, "events": ["force.created"]}), &organiser.token);
            let problem = assert_problem(response, 422);
            assert_eq!(problem["errors"][0]["field"], "url", "{url}: {problem}");
        }
        let response = app.post_json_with_token(&path, &json!({"url": "https://club.example/h", "events": ["battle.exploded"]}), &organiser.token);
        let problem = assert_problem(response, 422);
        assert!(problem.to_string().contains("events[0]"), "{problem}");
        let listed = ok(app.get_with_token(&path, &organiser.token));
        assert_eq!(listed["webhooks"].as_array().unwrap().len(), 0);
    }

    fn a_campaign_has_at_most_its_quota_of_webhooks(on: &On) {
        let mut env = FAST.to_vec();
        env.push(("FAD_MAX_WEBHOOKS_PER_CAMPAIGN", "2"));
        let app = TestApp::spawn_with(on.0, &env);
        let organiser = register(&app, "organiser");
        let campaign = create_campaign(&app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        create_hook(&app, &organiser.token, &campaign, "http://127.0.0.1:9/a", &["force.created"]);
        create_hook(&app, &organiser.token, &campaign, "http://127.0.0.1:9/b", &["force.created"]);
        let third = app.post_json_with_token(
            &format!("/api/v1/campaigns/{campaign}/webhooks"),
            &json!({"url": "http://127.0.0.1:9/c", "events": ["force.created"]}),
            &organiser.token,
        );
        let problem = assert_problem(third, 422);
        assert!(problem.to_string().contains("at most 2 webhooks"), "{problem}");
    }

    fn only_the_organiser_manages_webhooks(on: &On) {
        let app = TestApp::spawn_with(on.0, &FAST);
        let people = People::register(&app);
        // Columns: anonymous, outsider, player, owner, organiser, key, revoked key.
        let rows: [(&str, &str, Option<&str>, [u16; 7]); 6] = [
            ("POST", "/api/v1/campaigns/{campaign}/webhooks", Some(r#"{"url": "http://127.0.0.1:9/x", "events": ["force.created"]}"#), [401, 404, 403, 403, 201, 403, 401]),
            ("GET", "/api/v1/campaigns/{campaign}/webhooks", None, [401, 404, 403, 403, 200, 403, 401]),
            ("GET", "/api/v1/campaigns/{campaign}/webhooks/{hook}/deliveries", None, [401, 404, 403, 403, 200, 403, 401]),
            ("POST", "/api/v1/campaigns/{campaign}/webhooks/{hook}/test", None, [401, 404, 403, 403, 202, 403, 401]),
            ("POST", "/api/v1/campaigns/{campaign}/webhooks/{hook}/disable", None, [401, 404, 403, 403, 204, 403, 401]),
            ("DELETE", "/api/v1/campaigns/{campaign}/webhooks/{hook}", None, [401, 404, 403, 403, 204, 403, 401]),
        ];
        let mut failures = Vec::new();
        for (method, path, body, expect) in rows {
            for (who, expected) in expect.iter().enumerate() {
                let world = World::build(&app, &people);
                let (hook, _) = create_hook(&app, &people.organiser.token, &world.campaign_id, "http://127.0.0.1:9/w", &["force.created"]);
                let fill = |t: &str| t.replace("{campaign}", &world.campaign_id).replace("{hook}", &hook);
                let mut request = app.request(Method::from_bytes(method.as_bytes()).unwrap(), &fill(path));
                if let Some(body) = body {
                    request = request.json(&serde_json::from_str::<Value>(body).unwrap());
                }
                request = match who {
                    0 => request,
                    1 => request.bearer_auth(&people.outsider.token),
                    2 => request.bearer_auth(&people.player.token),
                    3 => request.bearer_auth(&people.owner.token),
                    4 => request.bearer_auth(&people.organiser.token),
                    5 => request.header("X-Api-Key", &world.key),
                    _ => request.header("X-Api-Key", &world.revoked_key),
                };
                let status = send(request).status().as_u16();
                if status != *expected {
                    failures.push(format!("{method} {path} as caller {who}: expected {expected}, got {status}"));
                }
            }
        }
        // Another campaign's webhook id is not found, even for an organiser.
        let a = World::build(&app, &people);
        let b = World::build(&app, &people);
        let (hook_b, _) = create_hook(&app, &people.organiser.token, &b.campaign_id, "http://127.0.0.1:9/w", &["force.created"]);
        let cross = app.delete_with_token(&format!("/api/v1/campaigns/{}/webhooks/{hook_b}", a.campaign_id), &people.organiser.token);
        assert_eq!(cross.status(), 404);
        // A disabled webhook stays listed, says why, and takes no test ping.
        let disable = format!("/api/v1/campaigns/{}/webhooks/{hook_b}/disable", b.campaign_id);
        assert_eq!(app.post_json_with_token(&disable, &json!({}), &people.organiser.token).status(), 204);
        let list: Value = app.get_with_token(&format!("/api/v1/campaigns/{}/webhooks", b.campaign_id), &people.organiser.token).json().unwrap();
        assert!(!list["webhooks"][0]["disabled_at"].is_null(), "{list}");
        assert_eq!(list["webhooks"][0]["disabled_reason"], "disabled by the organiser");
        let test = app.post_json_with_token(&format!("/api/v1/campaigns/{}/webhooks/{hook_b}/test", b.campaign_id), &json!({}), &people.organiser.token);
        assert_eq!(test.status(), 409);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    fn a_server_killed_mid_delivery_loses_no_event_and_repeats_only_with_the_same_id(on: &On) {
        // Arrange
        let mut app = TestApp::spawn_with(on.0, &FAST);
        let receiver = Receiver::start();
        let organiser = register(&app, "organiser");
        let campaign = create_campaign(&app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let (_, secret) = create_hook(&app, &organiser.token, &campaign, &receiver.url("/k"), &["force.created"]);
        receiver.then(Reply::Stall(Duration::from_secs(5)));
        let forces: Vec<String> = (0..3)
            .map(|i| create_force(&app, &organiser, &campaign, &small_roster(&format!("F{i}")))["id"].as_str().unwrap().to_owned())
            .collect();

        // Act: the first delivery is in flight when the server dies.
        receiver.wait_for(1);
        app.server_mut().signal_and_wait("KILL", Duration::from_secs(10)).unwrap();
        let data_dir = tempfile::tempdir().unwrap();
        let mut cmd = serve_command(app.db.url(), data_dir.path());
        for (k, v) in FAST {
            cmd.env(k, v);
        }
        let _restarted = Server::start(cmd).unwrap();

        // Assert: every event arrives; the stalled one again with its id, in order.
        let got = receiver.wait_for(4);
        std::thread::sleep(Duration::from_millis(1500));
        let got_all = receiver.got();
        assert_eq!(got_all.len(), 4, "{got_all:#?}");
        let order: Vec<String> = got.iter().map(|r| r.json()["data"]["force_id"].as_str().unwrap().to_owned()).collect();
        assert_eq!(order, [forces[0].clone(), forces[0].clone(), forces[1].clone(), forces[2].clone()]);
        assert_eq!(got[0].id, got[1].id);
        for r in &got {
            verify(&secret, r);
        }
    }

    fn no_event_payload_holds_a_scenario_secret(app: &TestApp) {
        // A scenario played to `ready`: hidden orders, secret bonuses, missions.
        let game = crate::battle_scenarios::ready_game(app);
        let mut conn = app.db.connect();
        use diesel::prelude::*;
        let rows: Vec<(String, String)> = fad_api::schema::events::table
            .select((fad_api::schema::events::event_type, fad_api::schema::events::payload))
            .load(&mut conn)
            .unwrap();
        assert!(rows.iter().any(|(t, p)| t == "battle.scenario_ready" && p.contains(&game.battle)), "{rows:?}");
        for (event_type, payload) in &rows {
            let data: Value = serde_json::from_str(payload).unwrap();
            for key in data.as_object().unwrap().keys() {
                assert!(READABLE.contains(&key.as_str()), "{event_type} carries {key}: {payload}");
            }
            // The public step names (`mission_bonuses`, `recon`) are no secret; everything
            // else about the scenario is.
            let mut rest = data.clone();
            if let Some(map) = rest.as_object_mut() {
                map.remove("step");
                map.remove("recon_prompt");
            }
            let rest = rest.to_string();
            for secret in ["stance", "attitude", "mission", "recon", "bonus", "defensive", "passive", "hold"] {
                assert!(!rest.contains(secret), "{event_type} shows {secret}: {payload}");
            }
        }
    }
}

#[test]
fn two_servers_on_one_postgres_deliver_each_event_once() {
    // Arrange
    let app = TestApp::spawn_with(Backend::Postgres, &FAST);
    let data_dir = tempfile::tempdir().unwrap();
    let mut cmd = serve_command(app.db.url(), data_dir.path());
    for (k, v) in FAST {
        cmd.env(k, v);
    }
    let _second = Server::start(cmd).unwrap();
    let receiver = Receiver::start();
    let organiser = register(&app, "organiser");
    let campaign = create_campaign(&app, &organiser, "Long Winter")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for path in ["/a", "/b", "/c"] {
        create_hook(
            &app,
            &organiser.token,
            &campaign,
            &receiver.url(path),
            &["force.created"],
        );
    }

    // Act
    for i in 0..8 {
        create_force(&app, &organiser, &campaign, &small_roster(&format!("F{i}")));
    }

    // Assert: 3 webhooks x 8 events, each exactly once, in order per webhook.
    receiver.wait_for(24);
    std::thread::sleep(Duration::from_secs(2));
    let got = receiver.got();
    assert_eq!(got.len(), 24, "{got:#?}");
    let mut pairs: Vec<(String, String)> =
        got.iter().map(|r| (r.path.clone(), r.id.clone())).collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 24);
    let order = |path: &str| {
        got.iter()
            .filter(|r| r.path == path)
            .map(|r| r.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(order("/a"), order("/b"));
    assert_eq!(order("/b"), order("/c"));
}

/// A webhook's delivery log (newest first).
fn delivery_log(app: &TestApp, token: &str, campaign: &str, hook: &str) -> Vec<Value> {
    let log = ok(app.get_with_token(
        &format!("/api/v1/campaigns/{campaign}/webhooks/{hook}/deliveries"),
        token,
    ));
    log["deliveries"].as_array().unwrap().clone()
}

/// Polls the log until `done` holds for it (panics after 20 s).
fn log_until(
    app: &TestApp,
    token: &str,
    campaign: &str,
    hook: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = delivery_log(app, token, campaign, hook);
        if done(&log) {
            return log;
        }
        assert!(
            Instant::now() < deadline,
            "the log never got there: {log:#?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

both_backends! {
    fn a_failing_ping_holds_back_no_event_and_the_organiser_retries_or_skips_from_the_log(on: &On) {
        // Arrange: ten minutes between retries, so a held event would miss every deadline.
        let app = TestApp::spawn_with(on.0, &[
            ("FAD_WEBHOOK_ALLOW_PRIVATE", "true"),
            ("FAD_WEBHOOK_POLL_MS", "100"),
            ("FAD_WEBHOOK_TIMEOUT_SECS", "1"),
            ("FAD_WEBHOOK_RETRY_SECS", "600"),
        ]);
        let receiver = Receiver::start();
        let organiser = register(&app, "organiser");
        let player = register(&app, "player");
        let campaign = create_campaign(&app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let code = invite_code(&app, &organiser, &campaign);
        assert_eq!(join(&app, &player, &code).status(), 201);
        let (hook, _) = create_hook(&app, &organiser.token, &campaign, &receiver.url("/h"), &["force.created"]);
        let hooks = format!("/api/v1/campaigns/{campaign}/webhooks/{hook}");
        let post = |path: &str, token: &str| send(app.request(Method::POST, path).bearer_auth(token));

        // Act: a test ping the receiver fails, then a real event.
        receiver.then(Reply::Status(500));
        assert_eq!(post(&format!("{hooks}/test"), &organiser.token).status(), 202);
        receiver.wait_for(1);
        let blue = create_force(&app, &organiser, &campaign, &small_roster("Blue"));

        // Assert: the event goes out while the ping waits for its retry, and the log says why.
        let got = receiver.wait_for(2);
        assert_eq!(got[1].event_type(), "force.created");
        assert_eq!(got[1].json()["data"]["force_id"], blue["id"]);
        let log = log_until(&app, &organiser.token, &campaign, &hook, |log| log.iter().any(|d| d["status"] == "delivered"));
        let ping = log.iter().find(|d| d["event_type"] == "ping").unwrap().clone();
        assert_eq!(ping["status"], "pending");
        let why = ping["waiting"].as_str().unwrap();
        assert!(why.starts_with("retry 2 at ") && why.ends_with(" UTC after HTTP 500"), "{why}");

        // Retry now: the ping goes at once (the receiver takes it this time).
        let ping_id = ping["id"].as_str().unwrap();
        let retried = ok(post(&format!("{hooks}/deliveries/{ping_id}/retry"), &organiser.token));
        assert_eq!(retried["id"], ping_id);
        assert_eq!(receiver.wait_for(3)[2].event_type(), "ping");
        let log = log_until(&app, &organiser.token, &campaign, &hook, |log| log.iter().all(|d| d["status"] == "delivered"));
        assert!(log.iter().all(|d| d["waiting"].is_null()), "{log:#?}");

        // A failing event does hold the next one back, and the log names the one it waits for.
        receiver.then(Reply::Status(503));
        let red = create_force(&app, &organiser, &campaign, &small_roster("Red"));
        receiver.wait_for(4);
        let green = create_force(&app, &organiser, &campaign, &small_roster("Green"));
        let log = log_until(&app, &organiser.token, &campaign, &hook, |log| log.len() == 4 && log[1]["attempts"] == 1);
        let (green_delivery, red_delivery) = (&log[0], &log[1]);
        let red_id = red_delivery["id"].as_str().unwrap().to_owned();
        assert!(red_delivery["waiting"].as_str().unwrap().ends_with(" UTC after HTTP 503"), "{red_delivery}");
        let why = green_delivery["waiting"].as_str().unwrap();
        assert!(why.starts_with(&format!("waiting behind delivery {red_id} (force.created)")), "{why}");

        // The settings' delivery log page shows why and offers both buttons; skip from it.
        let mut browser = crate::web_pages::Browser::signed_in(&app, "organiser");
        let page_path = format!("/campaigns/{campaign}/webhooks/{hook}");
        let (page, token) = browser.page(&page_path);
        assert!(page.contains(&format!("waiting behind delivery {red_id}")), "{page}");
        for action in ["retry", "skip"] {
            assert!(page.contains(&format!("{page_path}/deliveries/{red_id}/{action}")), "{action}: {page}");
        }
        let skipped = browser.post(&format!("{page_path}/deliveries/{red_id}/skip"), &[("csrf_token", &token)]);
        assert_eq!(skipped.status(), 303);

        // The next event goes out; the skipped one stays in the log as skipped, never sent.
        let got = receiver.wait_for(5);
        assert_eq!(got[4].json()["data"]["force_id"], green["id"]);
        assert_eq!(got.iter().filter(|r| r.json()["data"]["force_id"] == red["id"]).count(), 1, "sent once, failed, then skipped");
        let log = log_until(&app, &organiser.token, &campaign, &hook, |log| log[0]["status"] == "delivered");
        assert_eq!(log[1]["status"], "skipped");

        // What cannot be retried or skipped, and who may not.
        let delivered = log[0]["id"].as_str().unwrap();
        assert_problem(post(&format!("{hooks}/deliveries/{delivered}/skip"), &organiser.token), 409);
        assert_problem(post(&format!("{hooks}/deliveries/{delivered}/retry"), &organiser.token), 409);
        assert_problem(post(&format!("{hooks}/deliveries/{red_id}/skip"), &organiser.token), 409);
        assert_problem(post(&format!("{hooks}/deliveries/no-such-delivery/retry"), &organiser.token), 404);
        assert_problem(post(&format!("{hooks}/deliveries/{red_id}/retry"), &player.token), 403);
    }
}
