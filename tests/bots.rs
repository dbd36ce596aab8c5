//! For bots and club sites: the events a bot nudges players with (whose turn it is, with names
//! and links, never a secret), personal access tokens, standings with ranks and ETags, the
//! published standings (JSON for any site and a framable page), and problem types.

use crate::auth::register;
use crate::battle_scenarios::{Game, blue_bonuses, blue_orders, red_bonuses, red_orders};
use crate::battles::{Table, get, post, record_and_confirm};
use crate::campaigns::{create_campaign, invite_code, join};
use crate::common::*;
use crate::forces::{create_force, small_roster};
use crate::webhooks::{FAST, READABLE, Receiver, create_hook, verify};
use reqwest::Method;
use serde_json::{Value, json};
use std::io::Read;
use std::time::Duration;

/// Every stored event of `event_type`, oldest first, as its `data`.
fn stored(app: &TestApp, event_type: &str) -> Vec<Value> {
    use diesel::prelude::*;
    use fad_api::schema::events::dsl as e;
    let mut conn = app.db.connect();
    let rows: Vec<String> = e::events
        .filter(e::event_type.eq(event_type))
        .order(e::seq.asc())
        .select(e::payload)
        .load(&mut conn)
        .unwrap();
    rows.iter()
        .map(|p| serde_json::from_str(p).unwrap())
        .collect()
}

/// The `scenario.step_changed` events of `battle`.
fn steps_of(app: &TestApp, battle: &str) -> Vec<Value> {
    stored(app, "scenario.step_changed")
        .into_iter()
        .filter(|d| d["battle_id"] == battle)
        .collect()
}

/// `(step, [force ids waited for])` of a `scenario.step_changed` payload.
fn turn(data: &Value) -> (String, Vec<String>) {
    let waiting = data["waiting_for"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["force_id"].as_str().unwrap().to_owned())
        .collect();
    (data["step"].as_str().unwrap().to_owned(), waiting)
}

/// The served OpenAPI document's `required` fields of `event_type`'s `data`.
fn documented_fields(app: &TestApp, event_type: &str) -> Vec<String> {
    let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
    let schema_ref =
        doc["webhooks"][event_type]["post"]["requestBody"]["content"]["application/json"]["schema"]
            ["$ref"]
            .as_str()
            .unwrap_or_else(|| panic!("{event_type} is not documented"))
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
    let data = &doc["components"]["schemas"][&schema_ref]["properties"]["data"]["allOf"];
    data.as_array()
        .unwrap()
        .iter()
        .flat_map(|part| part["required"].as_array().cloned().unwrap_or_default())
        .map(|f| f.as_str().unwrap().to_owned())
        .collect()
}

fn assert_documented(app: &TestApp, event_type: &str, data: &Value) {
    for field in documented_fields(app, event_type) {
        assert!(
            !data[&field].is_null(),
            "{event_type} lacks {field}: {data}"
        );
    }
    for key in data.as_object().unwrap().keys() {
        assert!(
            READABLE.contains(&key.as_str()),
            "{event_type} carries {key}: {data}"
        );
    }
}

/// Makes a personal access token as `user`; returns (id, token).
#[track_caller]
pub(crate) fn make_token(app: &TestApp, user_token: &str, scopes: &[&str]) -> (String, String) {
    let response = app.post_json_with_token(
        "/api/v1/me/tokens",
        &json!({"name": "club bot", "scopes": scopes, "expires_in_days": 30}),
        user_token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    let body: Value = response.json().unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("fadp_"), "{token}");
    (body["id"].as_str().unwrap().to_owned(), token)
}

both_backends! {
    fn a_bot_is_told_whose_turn_it_is_by_name_and_never_a_secret(app: &TestApp) {
        // Arrange: a battle between Blue (owner) and Red (player).
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());

        // Act + Assert: the first step waits for both sides' orders.
        let first = steps_of(app, &g.battle);
        assert_eq!(first.len(), 1, "{first:?}");
        assert_eq!(turn(&first[0]), ("orders".to_owned(), vec![blue.clone(), red.clone()]));
        let names: Vec<&str> = first[0]["waiting_for"].as_array().unwrap().iter().map(|w| w["owner_name"].as_str().unwrap()).collect();
        assert_eq!(names, ["owner", "player"]);
        assert_eq!(first[0]["campaign_name"], "Operation Long Winter");
        assert_eq!(first[0]["links"]["battle"], format!("/battles/{}", g.battle));
        assert_eq!(first[0]["links"]["battle_api"], format!("/api/v1/battles/{}", g.battle));
        assert_documented(app, "scenario.step_changed", &first[0]);

        // Blue's secret orders tell nobody anything: no new step event.
        g.step(app, &g.people.owner, "orders", &blue_orders(&g));
        assert_eq!(steps_of(app, &g.battle).len(), 1);

        // Red's orders close the step: both are asked for mission bonuses.
        g.step(app, &g.people.player, "orders", &red_orders(&g));
        let after_orders = steps_of(app, &g.battle);
        assert_eq!(after_orders.len(), 2);
        assert_eq!(turn(&after_orders[1]), ("mission_bonuses".to_owned(), vec![blue.clone(), red.clone()]));
        g.step(app, &g.people.owner, "mission-bonuses", &blue_bonuses(&g));
        assert_eq!(steps_of(app, &g.battle).len(), 2, "a secret bonus choice shows");
        g.step(app, &g.people.player, "mission-bonuses", &red_bonuses(&g));

        // Recon: one side's turn at a time, each turn an event naming that side.
        let recon = steps_of(app, &g.battle);
        assert_eq!(turn(recon.last().unwrap()), ("recon".to_owned(), vec![red.clone()]));
        assert_eq!(recon.last().unwrap()["recon_prompt"], "turn");
        assert_eq!(recon.last().unwrap()["waiting_for"][0]["force_name"], g.red["name"]);
        g.step(app, &g.people.player, "recon-actions", &json!({"force_id": red, "action": "pass"}));
        let passed = steps_of(app, &g.battle);
        assert_eq!(turn(passed.last().unwrap()), ("recon".to_owned(), vec![blue.clone()]));
        g.step(app, &g.people.owner, "recon-actions", &json!({"force_id": blue, "action": "pass"}));

        // Ready is `battle.scenario_ready`, not another turn.
        assert_eq!(steps_of(app, &g.battle).len(), passed.len());
        let ready: Vec<Value> = stored(app, "battle.scenario_ready").into_iter().filter(|d| d["battle_id"] == g.battle.as_str()).collect();
        assert_eq!(ready.len(), 1);
        assert_documented(app, "battle.scenario_ready", &ready[0]);
        let sides: Vec<&str> = ready[0]["sides"].as_array().unwrap().iter().map(|s| s["owner_name"].as_str().unwrap()).collect();
        assert_eq!(sides, ["owner", "player"]);

        // No payload names a hidden choice.
        for data in steps_of(app, &g.battle) {
            let text = data.to_string();
            for secret in ["defensive", "passive", "offensive", "aggressive", "hold", "strike", "interfere", "sweep"] {
                assert!(!text.contains(secret), "step event shows {secret}: {text}");
            }
        }
    }

    fn roster_edits_ledger_adjustments_and_leaving_are_events_with_names(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let player = register(app, "player");
        let campaign = create_campaign(app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let code = invite_code(app, &organiser, &campaign);
        assert_eq!(join(app, &player, &code).status(), 201);
        let force = create_force(app, &player, &campaign, &small_roster("Blue"));
        let force_id = force["id"].as_str().unwrap().to_owned();

        // Act: edit the roster (a rename), adjust the ledger, leave.
        let mut edit = force.clone();
        edit["name"] = json!("Blue Guard");
        let edited = app.put_json_with_token(
            &format!("/api/v1/forces/{force_id}"),
            &edit,
            &player.token,
        );
        assert_eq!(edited.status(), 200, "{}", edited.text().unwrap());
        ok(app.post_json_with_token(
            &format!("/api/v1/forces/{force_id}/ledger"),
            &json!({"kind": "earned", "amount": 3, "note": "painting prize"}),
            &organiser.token,
        ));
        let left = send(app.request(Method::POST, &format!("/api/v1/campaigns/{campaign}/leave")).bearer_auth(&player.token));
        assert!(left.status().is_success(), "{}", left.status());

        // Assert
        let roster = stored(app, "force.roster_changed");
        assert_eq!(roster.len(), 1, "{roster:?}");
        assert_eq!(roster[0]["force_name"], "Blue Guard");
        assert_eq!(roster[0]["owner_name"], "player");
        assert_eq!(roster[0]["version"], 2);
        assert_eq!(roster[0]["links"]["force"], format!("/forces/{force_id}"));
        assert_documented(app, "force.roster_changed", &roster[0]);
        let ledger = stored(app, "force.ledger_adjusted");
        assert_eq!(ledger.len(), 1);
        assert_eq!((ledger[0]["kind"].as_str(), ledger[0]["amount"].as_i64()), (Some("earned"), Some(3)));
        assert_documented(app, "force.ledger_adjusted", &ledger[0]);
        let gone = stored(app, "member.left");
        assert_eq!(gone.len(), 1);
        assert_eq!(gone[0]["member_name"], "player");
        assert_eq!(gone[0]["user_id"], player.id.as_str());
        assert!(gone[0].get("removed").is_none());
        assert_documented(app, "member.left", &gone[0]);
        let joined = stored(app, "member.joined");
        assert_documented(app, "member.joined", &joined[0]);
        assert_documented(app, "force.created", &stored(app, "force.created")[0]);
    }

    fn the_openapi_document_has_a_payload_schema_for_every_event(app: &TestApp) {
        let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
        let hooks = doc["webhooks"].as_object().unwrap();
        for name in ["scenario.step_changed", "battle.result_reopened", "force.roster_changed",
                     "force.ledger_adjusted", "member.left", "aftermath.step_rolled", "battle.created", "ping"] {
            let schema = hooks[name]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
            let component = schema.rsplit('/').next().unwrap();
            let body = &doc["components"]["schemas"][component];
            assert_eq!(body["properties"]["type"]["enum"], json!([name]), "{body}");
        }
        // Every event a webhook may subscribe to is documented.
        let events = doc["components"]["schemas"]["EventType"]["enum"].as_array().cloned().unwrap_or_default();
        for e in &events {
            assert!(hooks.contains_key(e.as_str().unwrap()), "{e} undocumented");
        }
    }

    fn personal_tokens_are_scoped_listed_without_the_token_and_revocable(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let campaign = create_campaign(app, &alice, "Bots")["id"].as_str().unwrap().to_owned();

        // Act
        let (read_id, read) = make_token(app, &alice.token, &["read"]);
        let (_, write) = make_token(app, &alice.token, &["read", "write"]);

        // Assert: a read token reads, and every write is 403 before anything runs.
        assert_eq!(app.get_with_token("/api/v1/me", &read).status(), 200);
        assert_eq!(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/standings"), &read).status(), 200);
        let refused = app.post_json_with_token("/api/v1/campaigns", &json!({"name": "Nope"}), &read);
        assert_problem(refused, 403);
        // A write token writes for its person.
        let made = app.post_json_with_token("/api/v1/campaigns", &json!({"name": "Made by a bot"}), &write);
        assert_eq!(made.status(), 201, "{}", made.text().unwrap());
        // Tokens never manage tokens; the list never shows a token.
        assert_problem(app.get_with_token("/api/v1/me/tokens", &write), 403);
        let listed: Value = ok(app.get_with_token("/api/v1/me/tokens", &alice.token));
        assert_eq!(listed.as_array().unwrap().len(), 2);
        let text = listed.to_string();
        assert!(!text.contains(&read) && !text.contains(&write), "{text}");
        assert_eq!(listed[1]["scopes"], json!(["read"]));
        assert!(listed[0]["expires_at"].is_string());

        // Revoked: 401, gone from the list, and revoking again is harmless.
        let revoked = app.delete_with_token(&format!("/api/v1/me/tokens/{read_id}"), &alice.token);
        assert_eq!(revoked.status(), 204);
        assert_problem(app.get_with_token("/api/v1/me", &read), 401);
        assert_eq!(app.delete_with_token(&format!("/api/v1/me/tokens/{read_id}"), &alice.token).status(), 204);
        let listed: Value = ok(app.get_with_token("/api/v1/me/tokens", &alice.token));
        assert_eq!(listed.as_array().unwrap().len(), 1);
        // Another person's token is unknown to them.
        let bob = register(app, "bob");
        assert_problem(app.delete_with_token(&format!("/api/v1/me/tokens/{read_id}"), &bob.token), 404);
        // Only the hash is stored.
        use diesel::prelude::*;
        let hashes: Vec<String> = fad_api::schema::personal_tokens::table
            .select(fad_api::schema::personal_tokens::token_hash)
            .load(&mut app.db.connect())
            .unwrap();
        assert!(hashes.iter().all(|h| h.len() == 64 && !h.starts_with("fadp_")));
    }

    fn a_bad_token_request_is_refused_by_field(app: &TestApp) {
        let alice = register(app, "alice");
        for (body, field) in [
            (json!({"name": "", "scopes": ["read"]}), "name"),
            (json!({"name": "bot", "scopes": ["write"]}), "scopes"),
            (json!({"name": "bot", "scopes": []}), "scopes"),
            (json!({"name": "bot", "scopes": ["read"], "expires_in_days": 0}), "expires_in_days"),
        ] {
            let problem = assert_problem(app.post_json_with_token("/api/v1/me/tokens", &body, &alice.token), 422);
            assert_eq!(problem["errors"][0]["field"], field, "{problem}");
        }
        let problem = assert_problem(app.post_json_with_token("/api/v1/me/tokens", &json!({"name": "bot", "scopes": ["admin"]}), &alice.token), 422);
        assert!(problem["errors"][0]["field"].as_str().unwrap().starts_with("scopes"), "{problem}");
    }

    fn the_live_battle_stream_takes_a_personal_token(app: &TestApp) {
        // Arrange
        let g = Game::new(app);
        let (_, token) = make_token(app, &g.people.owner.token, &["read"]);

        // Act
        let mut response = send(
            app.request(Method::GET, &format!("/battles/{}/events", g.battle))
                .bearer_auth(&token)
                .timeout(Duration::from_secs(5)),
        );

        // Assert
        assert_eq!(response.status(), 200);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        let mut first = [0u8; 12];
        response.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"retry: 2000\n");
        // An outsider's token sees no battle; a bad token is refused.
        let (_, theirs) = make_token(app, &g.people.outsider.token, &["read"]);
        let outsider = send(app.request(Method::GET, &format!("/battles/{}/events", g.battle)).bearer_auth(&theirs));
        assert_eq!(outsider.status(), 404);
        let bad = send(app.request(Method::GET, &format!("/battles/{}/events", g.battle)).bearer_auth("fadp_nope"));
        assert_eq!(bad.status(), 401);
    }

    fn standings_have_ranks_and_an_etag(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let campaign = create_campaign(app, &alice, "Ranks")["id"].as_str().unwrap().to_owned();
        for name in ["Blue", "Red"] {
            create_force(app, &alice, &campaign, &small_roster(name));
        }
        let path = format!("/api/v1/campaigns/{campaign}/standings");

        // Act
        let first = app.get_with_token(&path, &alice.token);
        let tag = first.headers()["etag"].to_str().unwrap().to_owned();
        let body: Value = first.json().unwrap();
        let again = send(app.request(Method::GET, &path).bearer_auth(&alice.token).header("If-None-Match", &tag));

        // Assert: level forces share rank 1.
        let ranks: Vec<i64> = body["rows"].as_array().unwrap().iter().map(|r| r["rank"].as_i64().unwrap()).collect();
        assert_eq!(ranks, [1, 1]);
        // `rows`, as in the published standings; `forces`, the earlier name, still holds them.
        assert_eq!(body["forces"], body["rows"]);
        assert_eq!(again.status(), 304);
        create_force(app, &alice, &campaign, &small_roster("Green"));
        let changed = send(app.request(Method::GET, &path).bearer_auth(&alice.token).header("If-None-Match", &tag));
        assert_eq!(changed.status(), 200);
    }

    fn published_standings_are_public_and_framable_and_hidden_otherwise(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let campaign = create_campaign(app, &alice, "Open Table")["id"].as_str().unwrap().to_owned();
        create_force(app, &alice, &campaign, &small_roster("Blue"));
        let json_path = format!("/api/v1/public/campaigns/{campaign}/standings");
        let page_path = format!("/campaigns/{campaign}/standings/embed");

        // Assert: not published, both 404 (as for no campaign at all).
        assert_problem(app.get(&json_path), 404);
        assert_eq!(app.get(&page_path).status(), 404);
        assert_problem(app.get("/api/v1/public/campaigns/nope/standings"), 404);

        // Act: the organiser publishes them.
        let settings: Value = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/settings"), &alice.token));
        assert_eq!(settings["public_standings"], false);
        let saved: Value = ok(app.put_json_with_token(
            &format!("/api/v1/campaigns/{campaign}/settings"),
            &json!({"version": settings["version"], "public_standings": true}),
            &alice.token,
        ));
        assert_eq!(saved["public_standings"], true);

        // Assert: JSON for any site, with an ETag, and a page any site may frame.
        let public = send(app.request(Method::GET, &json_path).header("Origin", "https://club.example"));
        assert_eq!(public.status(), 200);
        assert_eq!(public.headers()["access-control-allow-origin"], "*");
        let tag = public.headers()["etag"].to_str().unwrap().to_owned();
        let body: Value = public.json().unwrap();
        assert_eq!(body["campaign_name"], "Open Table");
        assert_eq!(body["rows"][0]["rank"], 1);
        assert_eq!(body["rows"][0]["owner_name"], "alice");
        let again = send(app.request(Method::GET, &json_path).header("If-None-Match", &tag));
        assert_eq!(again.status(), 304);
        let page = app.get(&page_path);
        assert_eq!(page.status(), 200);
        let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(csp.contains("frame-ancestors *"), "{csp}");
        assert!(page.headers().get("x-frame-options").is_none());
        let html = page.text().unwrap();
        assert!(html.contains("Standings of Open Table") && html.contains("Blue"), "{html}");
        assert!(!html.contains(&campaign), "the page shows an id");
    }

    fn every_problem_type_is_a_page_that_explains_it(app: &TestApp) {
        let problem = assert_problem(app.get_with_token("/api/v1/campaigns/nope", &register(app, "alice").token), 404);
        assert_eq!(problem["type"], "/problems/not-found");
        for kind in fad_api::error::PROBLEM_KINDS {
            let page = app.get(&format!("/problems/{}", kind.slug));
            assert_eq!(page.status(), 200, "{}", kind.slug);
            assert!(page.text().unwrap().contains(kind.title));
        }
        assert_eq!(app.get("/problems").status(), 200);
        assert_eq!(app.get("/problems/nope").status(), 404);
    }

    fn the_new_battle_and_the_timeline_name_each_side_s_owner(app: &TestApp) {
        // Arrange: Blue (owner) and Red (player).
        let t = Table::new(app);
        let campaign = t.world.campaign_id.clone();

        // Act
        let created = post(app, &t.people.owner, &format!("/api/v1/campaigns/{campaign}/battles"),
            &json!({"sides": [{"force_id": t.blue_id()}, {"force_id": t.red_id()}]}));
        assert_eq!(created.status(), 201);
        let battle: Value = created.json().unwrap();
        let id = battle["id"].as_str().unwrap().to_owned();
        record_and_confirm(app, &t, &id);
        let timeline = get(app, &t.people.player, &format!("/api/v1/campaigns/{campaign}/timeline"));

        // Assert: the answer names the owners as a battle read does.
        let owners = |sides: &Value| -> Vec<Value> { sides.as_array().unwrap().iter().map(|s| s["owner_name"].clone()).collect() };
        assert_eq!(owners(&battle["sides"]), [json!("owner"), json!("player")]);
        let read = get(app, &t.people.owner, &format!("/api/v1/battles/{id}"));
        assert_eq!(owners(&read["sides"]), owners(&battle["sides"]));
        let entry = timeline["entries"].as_array().unwrap().iter().find(|e| e["battle"]["id"] == id.as_str()).expect("the battle is on the timeline");
        assert_eq!(owners(&entry["battle"]["sides"]), [json!("owner"), json!("player")]);
        let mut aftermath: Vec<(String, String)> = entry["aftermath"].as_array().unwrap().iter().map(|a| (a["force_id"].as_str().unwrap().to_owned(), a["owner_name"].as_str().unwrap().to_owned())).collect();
        let mut expected = vec![(t.blue_id().to_owned(), "owner".to_owned()), (t.red_id().to_owned(), "player".to_owned())];
        aftermath.sort();
        expected.sort();
        assert_eq!(aftermath, expected);
    }

    fn a_roster_change_is_told_in_the_value_kinds_the_document_names(app: &TestApp) {
        // Arrange: Blue, then a change of its name, a platoon's name and a unit's strength and
        // quality.
        let alice = register(app, "alice");
        let campaign = create_campaign(app, &alice, "Kinds")["id"].as_str().unwrap().to_owned();
        let force = create_force(app, &alice, &campaign, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let mut changed = force.clone();
        changed["name"] = json!("Blue Guard");
        changed["platoons"][0]["name"] = json!("2nd Platoon");
        changed["platoons"][0]["units"][0]["strength"] = json!(7);
        changed["platoons"][0]["units"][0]["quality"] = json!("elite");

        // Act
        let put = app.put_json_with_token(&format!("/api/v1/forces/{id}"), &changed, &alice.token);
        assert_eq!(put.status(), 200, "{}", put.text().unwrap());
        let history = ok(app.get_with_token(&format!("/api/v1/forces/{id}/history"), &alice.token));

        // Assert: every before and after is one of FieldValue's kinds, and the document types
        // every one of those kinds.
        let diff = &history["entries"][0]["diff"];
        let mut changes: Vec<(String, Value, Value)> = diff["force"].as_object().unwrap().iter()
            .map(|(k, c)| (format!("force.{k}"), c["before"].clone(), c["after"].clone())).collect();
        for (k, c) in diff["units"][0]["fields"].as_object().unwrap() {
            changes.push((format!("Alpha.{k}"), c["before"].clone(), c["after"].clone()));
        }
        assert_eq!(changes, [
            ("force.name".to_owned(), json!("Blue"), json!("Blue Guard")),
            ("force.platoons".to_owned(), json!(["1st Platoon"]), json!(["2nd Platoon"])),
            ("Alpha.platoon".to_owned(), json!("1st Platoon"), json!("2nd Platoon")),
            ("Alpha.quality".to_owned(), json!("regular"), json!("elite")),
            ("Alpha.strength".to_owned(), json!(8), json!(7)),
        ]);
        let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
        let schemas = &doc["components"]["schemas"];
        let before = serde_json::to_string(&schemas["FieldChange"]["properties"]["before"]).unwrap();
        assert!(before.contains("#/components/schemas/FieldValue"), "{before}");
        let kinds = schemas["FieldValue"]["oneOf"].as_array().unwrap();
        for kind in kinds {
            assert!(kind.get("type").is_some() || kind.get("$ref").is_some(), "an untyped kind: {kind}");
        }
        let named: Vec<&str> = kinds.iter().filter_map(|k| k["type"].as_str()).collect();
        assert_eq!(named, ["boolean", "integer", "string", "array"]);
    }

}

#[test]
fn deliveries_carry_absolute_links_from_the_public_address() {
    // Arrange
    let mut env = FAST.to_vec();
    env.push(("FAD_PUBLIC_URL", "https://fad.example.org"));
    let app = TestApp::spawn_with(Backend::Sqlite, &env);
    let receiver = Receiver::start();
    let organiser = register(&app, "organiser");
    let campaign = create_campaign(&app, &organiser, "Linked")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, secret) = create_hook(
        &app,
        &organiser.token,
        &campaign,
        &receiver.url("/hook"),
        &["force.created"],
    );

    // Act
    let force = create_force(&app, &organiser, &campaign, &small_roster("Blue"));

    // Assert
    let got = receiver.wait_for(1);
    verify(&secret, &got[0]);
    let data = &got[0].json()["data"];
    let id = force["id"].as_str().unwrap();
    assert_eq!(
        data["links"]["force"],
        format!("https://fad.example.org/forces/{id}")
    );
    assert_eq!(
        data["links"]["force_api"],
        format!("https://fad.example.org/api/v1/forces/{id}")
    );
    assert_eq!(
        data["links"]["campaign"],
        format!("https://fad.example.org/campaigns/{campaign}")
    );
    assert_eq!(data["force_name"], "Blue");
    assert_eq!(data["owner_name"], "organiser");
}
