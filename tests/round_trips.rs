//! Round-trip budget: the SQL statements each hot request sends, counted by the
//! server itself (`FAD_COUNT_DB_STATEMENTS=true` makes every response carry
//! `x-fad-db-statements` and `x-fad-db-transactions`; `BEGIN`/`COMMIT` count as statements).
//!
//! - R1 `GET /forces/{id}`: at most 2 statements, the same for a 2-unit and an 80-unit force.
//! - R2 `GET /campaigns/{id}/standings` with an integration key: at most 2.
//! - Every post-battle step: one transaction, and the same number of statements for a 2-unit
//!   force buying one item as for an 80-unit force buying three (batched writes, no per-unit
//!   or per-entry statement loops): at most 6 for `roll`, `reinforcements` and `purchases`
//!   (lock, membership, one read, one write), 10 for `finalize` and 11 for the one that
//!   completes the battle; each roll step made on its own (`{"step": ...}`) within `roll`'s.
//! - P1, the roster page `/forces/{id}` signed in by session cookie: 1 statement (the force
//!   with the session, membership, owner and balance), the same for 2 or 80 units.
//! - P2, the battle page `/battles/{id}` signed in by session cookie: one transaction of at most
//!   17 statements (the session, the battle, its scenario, rosters, the person's part for the
//!   result panel and solo play all in the page's one read; 53 in 4 transactions before it),
//!   also once the result panel shows a played battle's sequences, and for the opponent the same
//!   count before and after a side's secret choice (the count is observable).

use std::ops::Deref;

use crate::auth::TestUser;
use crate::campaigns::{People, World, get_with_api_key};
use crate::common::{Backend, Fixture, TestApp};
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// A server that reports the statements of every request.
struct CountingApp(TestApp);

impl Fixture for CountingApp {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[("FAD_COUNT_DB_STATEMENTS", "true")],
        ))
    }
}

impl Deref for CountingApp {
    type Target = TestApp;

    fn deref(&self) -> &TestApp {
        &self.0
    }
}

/// Statements and transactions a response reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cost {
    statements: u64,
    transactions: u64,
}

#[track_caller]
fn cost(response: &Response) -> Cost {
    let read = |name: &str| {
        response
            .headers()
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header"))
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    Cost {
        statements: read("x-fad-db-statements"),
        transactions: read("x-fad-db-transactions"),
    }
}

/// Sends, checks for a 2xx, and returns the body and the cost.
#[track_caller]
fn ok(response: Response) -> (Value, Cost) {
    let status = response.status();
    let spent = cost(&response);
    let text = response.text().unwrap();
    assert!(status.is_success(), "{status}: {text}");
    (serde_json::from_str(&text).unwrap(), spent)
}

fn squad(name: &str) -> Value {
    json!({"name": name, "kind": "squad", "quality": "rabble", "resolve": "steady",
        "strength": 8, "starting_strength": 8, "armour": "improved",
        "basic_weapon": "assault_rifles"})
}

/// A roster of `platoons` platoons of `per_platoon` squads each.
fn roster(name: &str, platoons: usize, per_platoon: usize) -> Value {
    let platoons: Vec<Value> = (0..platoons)
        .map(|p| {
            let units: Vec<Value> = (0..per_platoon)
                .map(|u| squad(&format!("P{p} U{u}")))
                .collect();
            json!({"name": format!("Platoon {p}"), "units": units})
        })
        .collect();
    json!({"name": name, "platoons": platoons})
}

fn unit_ids(force: &Value) -> Vec<String> {
    force["platoons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["units"].as_array().unwrap())
        .map(|u| u["id"].as_str().unwrap().to_owned())
        .collect()
}

fn post(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> Response {
    app.post_json_with_token(path, body, &user.token)
}

/// The cost of every step of one force's post-battle sequence.
#[derive(Debug, PartialEq, Eq)]
struct Steps {
    roll: Cost,
    purchases: Cost,
    reinforcements: Cost,
    finalize: Cost,
}

/// A big force (4 platoons × 20 squads, owned by `owner`) against a small one (2 squads, owned
/// by `player`) in one campaign.
struct Forces {
    big: Value,
    small: Value,
}

impl Forces {
    fn id(force: &Value) -> String {
        force["id"].as_str().unwrap().to_owned()
    }

    /// Creates a battle, records a result with losses on every unit of both forces but the
    /// last (the one that buys), confirms it, and returns the battle id.
    fn fought(&self, app: &TestApp, people: &People, campaign_id: &str) -> String {
        let (battle, _) = ok(post(
            app,
            &people.owner,
            &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": Self::id(&self.big)}, {"force_id": Self::id(&self.small)}]}),
        ));
        let battle = battle["id"].as_str().unwrap().to_owned();
        let losses: Vec<Value> = [&self.big, &self.small]
            .into_iter()
            .flat_map(|force| {
                let ids = unit_ids(force);
                let wounded = ids.len() - buyers(force).len();
                ids.into_iter().take(wounded).map(|id| {
                    json!({"unit_id": id, "figures_lost": 2, "eliminated": false, "vehicle_damage": null})
                })
            })
            .collect();
        ok(post(
            app,
            &people.owner,
            &format!("/api/v1/battles/{battle}/result"),
            &json!({"outcome": "win", "winner_force_id": Self::id(&self.big), "losses": losses}),
        ));
        ok(post(
            app,
            &people.player,
            &format!("/api/v1/battles/{battle}/result/confirm"),
            &json!({}),
        ));
        battle
    }
}

/// The units that buy (and took no losses): the big force's last three, the small one's last.
fn buyers(force: &Value) -> Vec<String> {
    let ids = unit_ids(force);
    let n = if ids.len() > 2 { 3 } else { 1 };
    ids[ids.len() - n..].to_vec()
}

fn step_path(battle: &str, force: &str, step: &str) -> String {
    format!("/api/v1/battles/{battle}/aftermath/{force}/{step}")
}

/// Runs roll, then [`choose`], for `force`; returns their costs.
fn prepare(app: &TestApp, user: &TestUser, battle: &str, force: &Value) -> [Cost; 3] {
    let id = Forces::id(force);
    let (_, roll) = ok(post(app, user, &step_path(battle, &id, "roll"), &json!({})));
    let [purchases, reinforcements] = choose(app, user, battle, force);
    [roll, purchases, reinforcements]
}

/// Purchases (one `improve_quality` per buyer) and reinforcements (none) for a rolled `force`;
/// returns their costs.
fn choose(app: &TestApp, user: &TestUser, battle: &str, force: &Value) -> [Cost; 2] {
    let id = Forces::id(force);
    let purchases: Vec<Value> = buyers(force)
        .into_iter()
        .map(|unit| json!({"item": "improve_quality", "unit_id": unit}))
        .collect();
    let (_, purchases) = ok(post(
        app,
        user,
        &step_path(battle, &id, "purchases"),
        &json!({"purchases": purchases}),
    ));
    let (_, reinforcements) = ok(post(
        app,
        user,
        &step_path(battle, &id, "reinforcements"),
        &json!({"allocations": [], "new_squad": null}),
    ));
    [purchases, reinforcements]
}

/// Rolls `force`'s sequence one step per request (`{"step": next_step}`); returns each step's
/// cost.
fn roll_by_steps(app: &TestApp, user: &TestUser, battle: &str, force: &Value) -> Vec<Cost> {
    let id = Forces::id(force);
    let mut costs = Vec::new();
    let view = ok(app.get_with_token(
        &format!("/api/v1/battles/{battle}/aftermath/{id}"),
        &user.token,
    ))
    .0;
    let mut next = view["next_step"].clone();
    while let Some(step) = next.as_str() {
        let (answer, cost) = ok(post(
            app,
            user,
            &step_path(battle, &id, "roll"),
            &json!({"step": step}),
        ));
        costs.push(cost);
        next = answer["next_step"].clone();
    }
    costs
}

fn finalize(app: &TestApp, user: &TestUser, battle: &str, force: &Value) -> Cost {
    let id = Forces::id(force);
    ok(post(
        app,
        user,
        &step_path(battle, &id, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ))
    .1
}

/// Logs `user` in through the login page as a browser does (form cookie, CSRF token); answers
/// the `Cookie` header of the new session.
fn page_session(app: &TestApp, user: &TestUser) -> String {
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let cookie = |response: &Response, name: &str| {
        response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok()?.split(';').next()?.strip_prefix(name))
            .find_map(|rest| rest.strip_prefix('=').map(str::to_owned))
            .unwrap_or_else(|| panic!("no {name} cookie"))
    };
    let form = crate::common::send(client.get(app.url("/login")));
    let form_cookie = cookie(&form, "fad_form");
    let html = form.text().unwrap();
    let marker = r#"name="csrf_token" value=""#;
    let start = html.find(marker).expect("a CSRF token") + marker.len();
    let token = html[start..].split('"').next().unwrap();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("username", user.username.as_str()),
            ("password", crate::auth::PASSWORD),
            ("csrf_token", token),
        ])
        .finish();
    let response = crate::common::send(
        client
            .post(app.url("/login"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", format!("fad_form={form_cookie}"))
            .body(body),
    );
    assert_eq!(response.status(), 303, "login");
    format!("fad_session={}", cookie(&response, "fad_session"))
}

both_backends! {
    fn p1_force_page_takes_one_statement_whatever_the_force_size(app: &CountingApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let big = crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Big", 4, 20));
        let small = crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Small", 1, 2));
        let session = page_session(app, &people.player);
        let read = |force: &Value| {
            let path = format!("/forces/{}", Forces::id(force));
            let response = crate::common::send(
                reqwest::blocking::Client::new().get(app.url(&path)).header("cookie", &session),
            );
            let spent = cost(&response);
            assert_eq!(response.status(), 200, "GET {path}");
            (spent, response.text().unwrap())
        };

        // Act: the second read of each reuses the rendered roster.
        let (big_first, big_page) = read(&big);
        let (big_again, _) = read(&big);
        let (small_cost, small_page) = read(&small);

        // Assert
        assert!(big_page.contains("P3 U19"), "the page shows every unit");
        assert!(small_page.contains("Small"));
        assert!(big_first.statements <= 1, "P1: {big_first:?}");
        assert_eq!(big_first, big_again, "a remembered roster costs the same statements");
        assert_eq!(big_first, small_cost, "P1 must not grow with the force");
    }

    fn r1_force_read_is_one_statement_whatever_the_force_size(app: &CountingApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let big = crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Big", 4, 20));
        let small = crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Small", 1, 2));
        let read = |force: &Value| {
            let path = format!("/api/v1/forces/{}", Forces::id(force));
            // Warm-up: a key's first use records `last_used_at` (at most once a minute).
            ok(get_with_api_key(app, &path, &world.key));
            let member = ok(app.get_with_token(&path, &people.player.token)).1;
            (member, ok(get_with_api_key(app, &path, &world.key)).1)
        };

        // Act
        let (big_member, big_key) = read(&big);
        let (small_member, small_key) = read(&small);

        // Assert
        assert_eq!(unit_ids(&big).len(), 80);
        // The force with its owner's names, the caller's membership and its campaign's settings
        // (the ruleset, whose limits and prices decide the answer) in one statement: no
        // transaction. A key adds the read of the key itself.
        assert_eq!((big_member.statements, big_member.transactions), (1, 0), "R1 for a member: {big_member:?}");
        assert!(big_key.statements <= 2 && big_key.transactions == 0, "R1 with an integration key: {big_key:?}");
        assert_eq!(big_member, small_member, "R1 must not grow with the force");
        assert_eq!(big_key, small_key, "R1 must not grow with the force");
    }

    fn p2_a_played_battle_s_page_with_its_result_panel_is_one_read(app: &CountingApp) {
        // Arrange: a battle with a confirmed result and one side's sequence rolled.
        let people = People::register(app);
        let world = World::build(app, &people);
        let forces = Forces {
            big: crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Big", 4, 20)),
            small: crate::forces::create_force(app, &people.player, &world.campaign_id, &roster("Small", 1, 2)),
        };
        let battle = forces.fought(app, &people, &world.campaign_id);
        prepare(app, &people.player, &battle, &forces.small);
        let session = page_session(app, &people.player);
        let path = format!("/battles/{battle}");
        let get = || crate::common::send(
            reqwest::blocking::Client::new().get(app.url(&path)).header("cookie", &session),
        );
        // A battle's first view issues its scenario's first dice commitments (a write).
        assert_eq!(get().status(), 200);

        // Act
        let response = get();

        // Assert: the result panel is there, and it came with the page's one read.
        assert_eq!(response.status(), 200, "GET {path}");
        let spent = cost(&response);
        let page = response.text().unwrap();
        assert!(page.contains("result-panel-title"), "no result panel");
        assert!(spent.statements <= P2_BUDGET.0 && spent.transactions <= P2_BUDGET.1, "P2 over budget: {spent:?}");
    }

    fn r2_standings_with_an_integration_key_take_at_most_two_statements(app: &CountingApp) {
        // Arrange: two forces with a complete battle between them.
        let people = People::register(app);
        let world = World::build(app, &people);
        let forces = Forces {
            big: crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Big", 4, 20)),
            small: crate::forces::create_force(app, &people.player, &world.campaign_id, &roster("Small", 1, 2)),
        };
        let battle = forces.fought(app, &people, &world.campaign_id);
        for (user, force) in [(&people.owner, &forces.big), (&people.player, &forces.small)] {
            prepare(app, user, &battle, force);
            finalize(app, user, &battle, force);
        }
        let path = format!("/api/v1/campaigns/{}/standings", world.campaign_id);
        // The key's first use records `last_used_at` (at most once a minute, not counted here).
        ok(get_with_api_key(app, &path, &world.key));

        // Act
        let (standings, spent) = ok(get_with_api_key(app, &path, &world.key));

        // Assert
        let rows = standings["forces"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "{standings}");
        assert!(rows.iter().any(|r| r["wins"] == 1), "{standings}");
        assert!(spent.statements <= 2, "R2: {spent:?}");
    }

    fn every_post_battle_step_is_one_transaction_of_the_same_size_for_2_or_80_units(app: &CountingApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let forces = Forces {
            big: crate::forces::create_force(app, &people.owner, &world.campaign_id, &roster("Big", 4, 20)),
            small: crate::forces::create_force(app, &people.player, &world.campaign_id, &roster("Small", 1, 2)),
        };
        let (owner, player) = (&people.owner, &people.player);

        // Act: in the first battle the big force finalizes first, in the second the small one.
        let first = forces.fought(app, &people, &world.campaign_id);
        let [roll, purchases, reinforcements] = prepare(app, owner, &first, &forces.big);
        let big_first = Steps { roll, purchases, reinforcements, finalize: finalize(app, owner, &first, &forces.big) };
        let [roll, purchases, reinforcements] = prepare(app, player, &first, &forces.small);
        let small_last = Steps { roll, purchases, reinforcements, finalize: finalize(app, player, &first, &forces.small) };
        let second = forces.fought(app, &people, &world.campaign_id);
        let big_steps = roll_by_steps(app, owner, &second, &forces.big);
        let small_steps = roll_by_steps(app, player, &second, &forces.small);
        choose(app, owner, &second, &forces.big);
        choose(app, player, &second, &forces.small);
        let small_first = finalize(app, player, &second, &forces.small);
        let big_last = finalize(app, owner, &second, &forces.big);

        // Assert
        for steps in [&big_first, &small_last] {
            for step in [steps.roll, steps.purchases, steps.reinforcements, steps.finalize] {
                assert_eq!(step.transactions, 1, "{steps:?}");
            }
        }
        assert_eq!((small_first.transactions, big_last.transactions), (1, 1));
        // What the server's dice rolled (a spent commitment replaced or not, an event's payload
        // naming one more thing) moves a step by a statement; the force's size never does.
        let same_size = |a: Cost, b: Cost| a.transactions == b.transactions && a.statements.abs_diff(b.statements) <= 1;
        assert!(same_size(big_first.roll, small_last.roll), "roll must not grow with the force: {big_first:?} {small_last:?}");
        assert_eq!(big_first.purchases, small_last.purchases, "purchases must not grow with the force or the basket");
        assert_eq!(big_first.reinforcements, small_last.reinforcements, "reinforcements must not grow with the force");
        assert!(same_size(big_first.finalize, small_first), "finalize must not grow with the force or the ledger entries: {big_first:?} {small_first:?}");
        assert!(same_size(big_last, small_last.finalize), "the completing finalize must not grow with the force: {big_last:?} {small_last:?}");
        // Rolling steps read the dice commitment they roll from and replace it when spent; a
        // roll is also announced (aftermath.step_rolled): its outbox append costs 4 more (the
        // append lock, one read of the campaign, the battle's sides and whether a webhook
        // listens, one of the forces' and owners' names, and the insert).
        assert!(big_first.roll.statements <= 13, "a rolling post-battle step over budget: {big_first:?}");
        assert!(big_first.purchases.statements <= 8, "purchases over budget: {big_first:?}");
        assert!(big_first.reinforcements.statements <= 6, "reinforcements over budget: {big_first:?}");
        // How many steps need dice depends on the server's rolls; each costs the same.
        assert!(big_steps.len() >= 2 && small_steps.len() >= 2, "{big_steps:?}");
        for step in big_steps.iter().chain(&small_steps) {
            assert_eq!(step.transactions, 1, "{big_steps:?}");
            // Steps differ by one statement with what they roll (a spent commitment is replaced,
            // an entered die spends none), never with the force's size.
            assert!(step.statements <= 13, "a roll step over the roll's budget: {big_steps:?}");
        }
        // Each event (aftermath.finalized; battle.completed too when it completes) adds its
        // outbox append: the lock (PostgreSQL), the campaign's and battle's read, the names'
        // read and the insert; webhook deliveries only where a webhook listens.
        assert!(big_first.finalize.statements <= 15, "finalize over budget: {big_first:?}");
        assert!(big_last.statements <= 21, "the completing finalize over budget: {big_last:?}");
    }
}

both_backends! {
    /// P2, the battle page signed in by session cookie: Red's page costs the same statements
    /// and transactions before and after Blue's secret orders (a count that moved would tell
    /// Red that Blue chose: the page's cost is observable), and stays within its budget.
    fn p2_battle_page_costs_the_same_before_and_after_a_secret_choice(app: &CountingApp) {
        // Arrange: Red's session; a first view issues the scenario's dice commitments.
        let g = crate::battle_scenarios::Game::new(app);
        let session = page_session(app, &g.people.player);
        let path = format!("/battles/{}", g.battle);
        let read = || {
            let response = crate::common::send(
                reqwest::blocking::Client::new().get(app.url(&path)).header("cookie", &session),
            );
            assert_eq!(response.status(), 200, "GET {path}");
            cost(&response)
        };
        read();
        let before = read();

        // Act: Blue's secret orders.
        let r = app.post_json_with_token(
            &format!("/api/v1/battles/{}/scenario/orders", g.battle),
            &json!({"force_id": g.blue_id(), "stance": "neutral", "attitude": "cautious"}),
            &g.people.owner.token,
        );
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        let after = read();

        // Assert
        assert_eq!(before, after, "Red's page cost moved with Blue's secret orders");
        assert!(before.statements <= P2_BUDGET.0 && before.transactions <= P2_BUDGET.1, "P2 over budget: {before:?}");
    }
}

/// P2's statements and transactions, on both backends: the session and the page's one read
/// (signature, battle, scenario, rosters, the person's part, solo play).
const P2_BUDGET: (u64, u64) = (15, 1);
