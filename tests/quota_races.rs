//! every quota holds against parallel requests. Twelve requests released at
//! once against a limit of 3 store exactly 3 (campaigns, forces, battles, one-shot scenarios,
//! webhooks and signed-out scenarios per address); on PostgreSQL they used to store up to 11,
//! because two transactions both counted below the limit before either inserted.

use std::sync::Barrier;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use reqwest::blocking::Response;
use serde_json::{Value, json};

use crate::auth::register;
use crate::campaigns::create_campaign;
use crate::common::{Backend, Fixture, TestApp};
use crate::forces::{create_force, small_roster};
use crate::web_pages::Browser;

/// The limit every quota gets here.
const LIMIT: i64 = 3;
/// Requests sent at once.
const RACERS: usize = 12;

/// A server with every quota at [`LIMIT`] and enough connections and workers that the racers
/// really run at the same time.
struct Tight(TestApp);

impl Fixture for Tight {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[
                ("FAD_MAX_FORCES_PER_CAMPAIGN", "3"),
                ("FAD_MAX_CAMPAIGNS_PER_ACCOUNT", "3"),
                ("FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY", "3"),
                ("FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR", "3"),
                ("FAD_MAX_ONESHOTS_PER_ADDRESS_PER_HOUR", "3"),
                ("FAD_MAX_WEBHOOKS_PER_CAMPAIGN", "3"),
                ("FAD_WEBHOOK_ALLOW_PRIVATE", "true"),
                ("FAD_WORKERS", "4"),
                ("FAD_DB_POOL_SIZE", "16"),
                ("FAD_DB_TIMEOUT_SECS", "10"),
            ],
        ))
    }
}

/// Runs `request(i)` for `i` in `0..RACERS` on as many threads, released together; returns the
/// statuses.
fn race(request: impl Fn(usize) -> Response + Sync) -> Vec<u16> {
    let gate = Barrier::new(RACERS);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..RACERS)
            .map(|i| {
                let (gate, request) = (&gate, &request);
                s.spawn(move || {
                    gate.wait();
                    request(i).status().as_u16()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// `SELECT COUNT(*) FROM <table> WHERE <column> = key` (or `IS NULL` without a key).
fn stored(app: &TestApp, table: &str, column: &str, key: Option<&str>) -> i64 {
    let mut conn = app.db.connect();
    match key {
        Some(key) => diesel::sql_query(format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE {column} = $1"
        ))
        .bind::<Text, _>(key)
        .get_result::<Count>(&mut conn),
        None => diesel::sql_query(format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE {column} IS NULL"
        ))
        .get_result::<Count>(&mut conn),
    }
    .unwrap()
    .n
}

/// Exactly [`LIMIT`] racers succeeded with `created` and the others were refused with
/// `refused`; `stored` rows are in the database.
#[track_caller]
fn held(what: &str, statuses: &[u16], created: u16, refused: u16, stored: i64) {
    assert_eq!(
        stored, LIMIT,
        "{what}: {stored} stored against a limit of {LIMIT} ({statuses:?})"
    );
    let ok = statuses.iter().filter(|s| **s == created).count();
    let no = statuses.iter().filter(|s| **s == refused).count();
    assert_eq!((ok, no), (3, RACERS - 3), "{what}: {statuses:?}");
}

fn inline_side(name: &str) -> Value {
    json!({"name": name, "stance": "neutral", "attitude": "passive", "units": [
        {"name": "Scouts", "kind": "squad"}, {"name": "Line", "kind": "squad"}
    ]})
}

both_backends! {
    fn i27_campaigns_forces_and_battles_hold_their_quota_against_parallel_requests(t: &Tight) {
        let app = &t.0;
        let racer = register(app, "racer");

        let statuses = race(|i| app.post_json_with_token("/api/v1/campaigns", &json!({"name": format!("Race {i}")}), &racer.token));
        held("campaigns", &statuses, 201, 422, stored(app, "campaigns", "created_by", Some(&racer.id)));

        let builder = register(app, "builder");
        let campaign = create_campaign(app, &builder, "Forces")["id"].as_str().unwrap().to_owned();
        let forces = format!("/api/v1/campaigns/{campaign}/forces");
        let statuses = race(|i| app.post_json_with_token(&forces, &small_roster(&format!("Force {i}")), &builder.token));
        held("forces", &statuses, 201, 422, stored(app, "forces", "campaign_id", Some(&campaign)));

        let general = register(app, "general");
        let campaign = create_campaign(app, &general, "Battles")["id"].as_str().unwrap().to_owned();
        let force = create_force(app, &general, &campaign, &small_roster("Blue"))["id"].as_str().unwrap().to_owned();
        let battles = format!("/api/v1/campaigns/{campaign}/battles");
        let body = json!({"sides": [{"force_id": force}, {"non_player": {}}]});
        let statuses = race(|_| app.post_json_with_token(&battles, &body, &general.token));
        held("battles", &statuses, 201, 429, stored(app, "battles", "campaign_id", Some(&campaign)));
    }

    fn i27_scenarios_and_webhooks_hold_their_quota_against_parallel_requests(t: &Tight) {
        let app = &t.0;
        let gamer = register(app, "gamer");
        let body = json!({"sides": [inline_side("A"), inline_side("B")]});
        let statuses = race(|_| app.post_json_with_token("/api/v1/scenarios", &body, &gamer.token));
        held("scenarios", &statuses, 201, 429, stored(app, "scenarios", "created_by", Some(&gamer.id)));

        let organiser = register(app, "organiser");
        let campaign = create_campaign(app, &organiser, "Hooks")["id"].as_str().unwrap().to_owned();
        let hooks = format!("/api/v1/campaigns/{campaign}/webhooks");
        let statuses = race(|i| app.post_json_with_token(
            &hooks,
            &json!({"url": format!("http://127.0.0.1:9/hook{i}"), "events": ["force.created"]}),
            &organiser.token,
        ));
        held("webhooks", &statuses, 201, 422, stored(app, "webhooks", "campaign_id", Some(&campaign)));
    }

    fn i27_signed_out_scenarios_hold_the_address_quota_against_parallel_requests(t: &Tight) {
        let app = &t.0;
        // Each racer is its own signed-out browser with its own form, all on one address.
        let forms: Vec<(std::sync::Mutex<Browser<'_>>, String)> = (0..RACERS)
            .map(|_| {
                let mut browser = Browser::new(app);
                let (_, token) = browser.page("/scenarios/new");
                (std::sync::Mutex::new(browser), token)
            })
            .collect();
        let statuses = race(|i| {
            let (browser, token) = &forms[i];
            browser.lock().unwrap().post("/scenarios/new", &[
                ("csrf_token", token.as_str()),
                ("side1_name", "Red Company"),
                ("side1_units", "Alpha Squad, squad, regular, steady, 8"),
                ("side1_stance", "offensive"),
                ("side1_attitude", "aggressive"),
                ("side2_name", "Raiders"),
                ("side2_units", "Raider Band, squad, conscript, 10"),
                ("side2_non_player", "on"),
                ("side2_stance", ""),
                ("side2_attitude", ""),
            ])
        });
        held("signed-out scenarios", &statuses, 303, 429, stored(app, "scenarios", "created_by", None));
    }
}
