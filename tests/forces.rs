//! Forces (docs/rules.md §1, §4): roster CRUD with validation, points,
//! optimistic concurrency, history, ledger, generation and export/import, on both backends.

use crate::auth::TestUser;
use crate::campaigns::{People, World, create_key, get_with_api_key};
use crate::common::{TestApp, assert_problem, send};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// A valid one-platoon roster body.
pub fn small_roster(name: &str) -> Value {
    json!({"name": name, "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved",
         "basic_weapon": "assault_rifles"}
    ]}]})
}

/// Creates a force in `campaign_id` as `user`; returns its JSON.
#[track_caller]
pub fn create_force(app: &TestApp, user: &TestUser, campaign_id: &str, body: &Value) -> Value {
    let response = app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/forces"),
        body,
        &user.token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    response.json().unwrap()
}

fn get_force(app: &TestApp, user: &TestUser, force_id: &str) -> Value {
    let response = app.get_with_token(&format!("/api/v1/forces/{force_id}"), &user.token);
    assert_eq!(response.status(), 200);
    response.json().unwrap()
}

fn put_force(app: &TestApp, user: &TestUser, force_id: &str, body: &Value) -> Response {
    app.put_json_with_token(&format!("/api/v1/forces/{force_id}"), body, &user.token)
}

fn history(app: &TestApp, user: &TestUser, force_id: &str, query: &str) -> Value {
    let response = app.get_with_token(
        &format!("/api/v1/forces/{force_id}/history{query}"),
        &user.token,
    );
    assert_eq!(response.status(), 200);
    response.json().unwrap()
}

fn list_forces(app: &TestApp, user: &TestUser, campaign_id: &str) -> Vec<Value> {
    let response = app.get_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/forces"),
        &user.token,
    );
    assert_eq!(response.status(), 200);
    let page: Value = response.json().unwrap();
    assert!(page["next"].is_null(), "one page: {page}");
    page["forces"].as_array().unwrap().clone()
}

/// The §4.3 worked examples as API units, with the source's figures.
fn worked_examples() -> Vec<(Value, f64)> {
    let page_53 = json!({"kind": "squad", "quality": "regular", "resolve": "steady",
        "strength": 9, "starting_strength": 9, "armour": "improved",
        "basic_weapon": "assault_rifles", "support_weapons": ["squad_automatic_weapon"],
        "personalities": ["trigger_happy"]});
    let with = |base: &Value, name: &str, extra: Value| {
        let mut unit = base.clone();
        unit["name"] = json!(name);
        for (k, v) in extra.as_object().unwrap() {
            unit[k] = v.clone();
        }
        unit
    };
    vec![
        (
            with(
                &page_53,
                "Squad of eight",
                json!({"strength": 8, "starting_strength": 8}),
            ),
            57.2,
        ),
        (
            with(
                &page_53,
                "Drop troops",
                json!({"abilities": ["drop_troops"]}),
            ),
            82.81,
        ),
        (
            with(&page_53, "Hardened", json!({"traits": ["hardened"]})),
            70.07,
        ),
        (
            with(
                &page_53,
                "Recon agile",
                json!({"traits": ["recon", "agile"]}),
            ),
            99.37,
        ),
        (
            json!({"name": "Light cannon", "kind": "weapons_team", "quality": "regular",
            "strength": 3, "starting_strength": 3, "basic_weapon": "assault_carbines",
            "heavy_weapons": ["cannon_light"]}),
            24.7,
        ),
        (
            json!({"name": "Battery", "kind": "off_board_artillery", "quality": "regular",
            "strength": 3, "starting_strength": 3, "basic_weapon": "assault_carbines",
            "heavy_weapons": ["cannon_light"]}),
            61.75,
        ),
        (
            json!({"name": "Captain", "kind": "character", "quality": "regular",
            "strength": 1, "starting_strength": 1, "armour": "improved",
            "basic_weapon": "assault_rifles", "leadership": "inspiring"}),
            26.0,
        ),
        (
            json!({"name": "Eye", "kind": "sniper", "quality": "elite", "strength": 1,
            "starting_strength": 1, "armour": "improved", "heavy_weapons": ["sniper_rifle"]}),
            25.6,
        ),
        (
            json!({"name": "Seer", "kind": "psionic", "quality": "regular", "strength": 1,
            "starting_strength": 1, "armour": "improved", "basic_weapon": "assault_rifles",
            "aptitude": "competent", "psionic_strength": 4}),
            40.3,
        ),
    ]
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9
}

both_backends! {
    fn create_force_returns_the_roster_with_the_sources_points_for_every_worked_example(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let examples = worked_examples();
        let units: Vec<Value> = examples.iter().map(|(u, _)| u.clone()).collect();
        let body = json!({"name": "Examples", "platoons": [
            {"name": "A", "units": units[..4]},
            {"name": "B", "units": units[4..]},
        ]});

        // Act
        let response = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces", world.campaign_id), &body, &people.player.token);

        // Assert
        assert_eq!(response.status(), 201, "{}", response.text().unwrap());
        assert_eq!(response.headers()["etag"], "\"1\"");
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        let force: Value = response.json().unwrap();
        assert_eq!(location, format!("/api/v1/forces/{}", force["id"].as_str().unwrap()));
        assert_eq!(force["owner_id"], people.player.id.as_str());
        assert_eq!(force["version"], 1);
        let got: Vec<&Value> = force["platoons"].as_array().unwrap().iter()
            .flat_map(|p| p["units"].as_array().unwrap()).collect();
        assert_eq!(got.len(), examples.len());
        for (unit, (example, points)) in got.iter().zip(&examples) {
            assert_eq!(unit["name"], example["name"]);
            assert!(close(&unit["points"], *points), "{}: {} != {points}", unit["name"], unit["points"]);
            assert!(!unit["id"].as_str().unwrap().is_empty());
        }
        let a: f64 = examples[..4].iter().map(|(_, p)| p).sum();
        let b: f64 = examples[4..].iter().map(|(_, p)| p).sum();
        assert!((force["platoons"][0]["points"].as_f64().unwrap() - a).abs() < 0.011);
        assert!((force["platoons"][1]["points"].as_f64().unwrap() - b).abs() < 0.011);
        assert!((force["points"].as_f64().unwrap() - (a + b)).abs() < 0.011);
        // The same figures on every read, with the ETag.
        let read = app.get_with_token(&location, &people.organiser.token);
        assert_eq!(read.headers()["etag"], "\"1\"");
        let read: Value = read.json().unwrap();
        assert_eq!(crate::common::as_written(&read), force);
    }

    fn create_force_reports_every_problem_in_one_422_and_stores_nothing(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let body = json!({"name": "Broken", "platoons": [{"name": "1st", "units": [
            {"name": "A", "kind": "squad", "quality": "heroic", "strength": 8, "starting_strength": 8},
            {"name": "B", "kind": "squad", "quality": "regular", "strength": "eight", "starting_strength": 8},
            {"name": "C", "kind": "tank", "quality": "regular", "strength": 1, "starting_strength": 1},
        ]}]});

        // Act
        let problem = assert_problem(app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces", world.campaign_id), &body, &people.player.token), 422);

        // Assert
        let errors = problem["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 3, "{problem}");
        assert_eq!(errors[0]["field"], "platoons[0].units[0].quality");
        let message = errors[0]["message"].as_str().unwrap();
        assert!(message.contains("heroic") && message.contains("elite") && message.contains("rabble"), "{problem}");
        assert_eq!(errors[1]["field"], "platoons[0].units[1].strength");
        assert_eq!(errors[2]["field"], "platoons[0].units[2].kind");
        // The accepted names read as words (parsing takes them as written too).
        assert!(errors[2]["message"].as_str().unwrap().contains("weapons team"), "{problem}");
        assert_eq!(list_forces(app, &people.player, &world.campaign_id).len(), 1, "only the world's force");
    }

    fn create_force_reports_rule_problems_with_their_paths(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let mut body = small_roster("Over");
        body["platoons"][0]["units"][0]["strength"] = json!(9);
        body["platoons"][0]["units"][0]["starting_strength"] = json!(8);
        body["name"] = json!("");
        let problem = assert_problem(app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces", world.campaign_id), &body, &people.player.token), 422);
        let fields: Vec<&str> = problem["errors"].as_array().unwrap().iter()
            .map(|e| e["field"].as_str().unwrap()).collect();
        assert!(fields.contains(&"name"), "{problem}");
        assert!(fields.iter().any(|f| f.starts_with("platoons[0].units[0].")), "{problem}");
        assert_eq!(list_forces(app, &people.player, &world.campaign_id).len(), 1, "only the world's force");
    }

    fn replace_force_keeps_unit_ids_assigns_new_ones_and_refuses_unknown_ids(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let alpha = force["platoons"][0]["units"][0].clone();

        // Act: Alpha loses two figures; Bravo joins.
        let mut edited = alpha.clone();
        edited["strength"] = json!(6);
        let body = json!({"version": 1, "name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
            edited,
            {"name": "Bravo", "kind": "squad", "quality": "conscript", "strength": 6, "starting_strength": 6},
        ]}]});
        let response = put_force(app, &people.owner, id, &body);

        // Assert
        assert_eq!(response.status(), 200, "{}", response.text().unwrap());
        assert_eq!(response.headers()["etag"], "\"2\"");
        let updated: Value = response.json().unwrap();
        let units = updated["platoons"][0]["units"].as_array().unwrap();
        assert_eq!(units[0]["id"], alpha["id"]);
        assert_eq!(units[0]["strength"], 6);
        assert!(units[1]["id"].as_str().unwrap().len() >= 32);
        assert_ne!(units[1]["id"], alpha["id"]);

        let mut unknown = body.clone();
        unknown["version"] = json!(2);
        unknown["platoons"][0]["units"][1]["id"] = json!("not-a-unit-of-this-force");
        let problem = assert_problem(put_force(app, &people.owner, id, &unknown), 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[1].id");
        assert_eq!(get_force(app, &people.owner, id)["version"], 2);
    }

    fn replace_force_with_a_stale_version_gets_409_or_412_and_changes_nothing(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let mut body = small_roster("Renamed");
        body["version"] = json!(1);
        assert_eq!(put_force(app, &people.organiser, id, &body).status(), 200);
        let before = get_force(app, &people.owner, id);

        // Act
        body["name"] = json!("Stale");
        let stale_body = put_force(app, &people.owner, id, &body);
        let stale_header = send(app.request(Method::PUT, &format!("/api/v1/forces/{id}"))
            .bearer_auth(&people.owner.token)
            .header("If-Match", "\"1\"")
            .json(&{ let mut b = body.clone(); b.as_object_mut().unwrap().remove("version"); b }));
        let missing = { let mut b = body.clone(); b.as_object_mut().unwrap().remove("version"); put_force(app, &people.owner, id, &b) };

        // Assert
        assert_problem(stale_body, 409);
        assert_problem(stale_header, 412);
        assert_eq!(assert_problem(missing, 422)["errors"][0]["field"], "version");
        assert_eq!(get_force(app, &people.owner, id), before);
        assert_eq!(history(app, &people.owner, id, "")["entries"].as_array().unwrap().len(), 2);
        // The current ETag works.
        let ok = send(app.request(Method::PUT, &format!("/api/v1/forces/{id}"))
            .bearer_auth(&people.owner.token)
            .header("If-Match", "\"2\"")
            .json(&{ let mut b = body.clone(); b.as_object_mut().unwrap().remove("version"); b }));
        assert_eq!(ok.status(), 200);
    }

    fn two_concurrent_writers_of_one_version_never_both_win(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap().to_owned();

        for round in 1..=5i64 {
            // Act: eight writers at once, all from version `round`.
            let statuses: Vec<u16> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..8).map(|k| {
                    let url = app.url(&format!("/api/v1/forces/{id}"));
                    let token = if k % 2 == 0 { people.owner.token.clone() } else { people.organiser.token.clone() };
                    let mut body = small_roster(&format!("Writer {round}-{k}"));
                    body["version"] = json!(round);
                    s.spawn(move || {
                        reqwest::blocking::Client::new().put(url).bearer_auth(token).json(&body)
                            .send().unwrap().status().as_u16()
                    })
                }).collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });

            // Assert
            assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
            assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "{statuses:?}");
        }
        let read = get_force(app, &people.owner, &id);
        assert_eq!(read["version"], 6);
        let entries = history(app, &people.owner, &id, "?limit=100")["entries"].as_array().unwrap().clone();
        assert_eq!(entries.len(), 6);
        assert_eq!(entries[0]["diff"]["force"]["name"]["after"], read["name"]);
    }

    fn history_records_every_change_newest_first_and_reads_back_past_rosters(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let alpha = force["platoons"][0]["units"][0].clone();
        let mut edited = alpha.clone();
        edited["strength"] = json!(5);
        edited["quality"] = json!("elite");
        let body = json!({"version": 1, "name": "Blue", "platoons": [{"name": "1st Platoon", "units": [edited]}]});
        let edit = put_force(app, &people.owner, id, &body);
        assert_eq!(edit.status(), 200, "{}", edit.text().unwrap());
        let archived = app.post_json_with_token(&format!("/api/v1/forces/{id}/archive"), &json!({"version": 2}), &people.owner.token);
        assert_eq!(archived.status(), 200);

        // Act
        let page = history(app, &people.organiser, id, "");

        // Assert
        let entries = page["entries"].as_array().unwrap();
        let kinds: Vec<&str> = entries.iter().map(|e| e["cause"]["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["archive", "edit", "create"]);
        assert_eq!(entries[0]["version"], 3);
        assert!(entries.iter().all(|e| e["actor_id"] == people.owner.id.as_str()));
        assert!(entries[0]["at"].as_str().unwrap().ends_with('Z'));
        let edit = &entries[1]["diff"]["units"];
        assert_eq!(edit.as_array().unwrap().len(), 1);
        assert_eq!(edit[0]["unit_id"], alpha["id"]);
        assert_eq!(edit[0]["change"], "changed");
        assert_eq!(edit[0]["fields"]["strength"], json!({"before": 8, "after": 5}));
        assert_eq!(edit[0]["fields"]["quality"], json!({"before": "regular", "after": "elite"}));
        assert_eq!(edit[0]["fields"].as_object().unwrap().len(), 2);
        assert_eq!(entries[2]["diff"]["units"][0]["change"], "added");
        assert!(page["next"].is_null());

        // Paging.
        let first = history(app, &people.owner, id, "?limit=2");
        assert_eq!(first["entries"].as_array().unwrap().len(), 2);
        let next = first["next"].as_str().unwrap();
        let rest = history(app, &people.owner, id, &format!("?limit=2&after={next}"));
        assert_eq!(rest["entries"].as_array().unwrap().len(), 1);
        assert_eq!(rest["entries"][0]["cause"]["kind"], "create");
        assert!(rest["next"].is_null());
        assert_problem(app.get_with_token(&format!("/api/v1/forces/{id}/history?limit=0"), &people.owner.token), 400);

        // The roster as of creation.
        let created_id = entries[2]["id"].as_str().unwrap();
        let past: Value = app.get_with_token(&format!("/api/v1/forces/{id}/history/{created_id}"), &people.owner.token).json().unwrap();
        assert_eq!(past["roster"]["platoons"][0]["units"][0]["strength"], 8);
        assert_eq!(past["roster"]["platoons"][0]["units"][0]["quality"], "regular");
        assert_eq!(past["roster"]["points"], force["points"]);
        assert_problem(app.get_with_token(&format!("/api/v1/forces/{id}/history/nope"), &people.owner.token), 404);

        // Archived: read-only and off the default list.
        let mut again = body.clone();
        again["version"] = json!(3);
        assert_problem(put_force(app, &people.owner, id, &again), 409);
        let listed = list_forces(app, &people.owner, &world.campaign_id);
        assert!(listed.iter().all(|f| f["id"] != id && f["archived"] == false));
        let all: Value = app.get_with_token(&format!("/api/v1/campaigns/{}/forces?include_archived=true", world.campaign_id), &people.owner.token).json().unwrap();
        let all = all["forces"].as_array().unwrap();
        assert_eq!(all.len(), listed.len() + 1);
        assert!(all.iter().any(|f| f["id"] == id && f["archived"] == true));
    }

    fn ledger_keeps_a_running_balance_that_never_goes_negative(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        let path = format!("/api/v1/forces/{id}/ledger");
        let empty: Value = app.get_with_token(&path, &people.owner.token).json().unwrap();
        assert_eq!(empty["balance"], 0);

        // Act
        let earned = app.post_json_with_token(&path, &json!({"kind": "earned", "amount": 5, "note": "Hill 203"}), &people.organiser.token);
        let spent = app.post_json_with_token(&path, &json!({"kind": "spent", "amount": 3}), &people.organiser.token);
        let overdrawn = app.post_json_with_token(&path, &json!({"kind": "spent", "amount": 3}), &people.organiser.token);
        let by_owner = app.post_json_with_token(&path, &json!({"kind": "earned", "amount": 3}), &people.owner.token);
        let negative = app.post_json_with_token(&path, &json!({"kind": "earned", "amount": -3}), &people.organiser.token);

        // Assert
        assert_eq!(earned.status(), 201);
        assert_eq!(spent.status(), 201);
        assert_problem(overdrawn, 409);
        assert_problem(by_owner, 403);
        assert_problem(negative, 422);
        let ledger: Value = app.get_with_token(&path, &people.player.token).json().unwrap();
        assert_eq!(ledger["balance"], 2);
        assert_eq!(ledger["earned"], 5);
        assert_eq!(ledger["spent"], 3);
        let entries = ledger["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0]["kind"], "earned");
        assert_eq!(entries[0]["balance"], 5);
        assert_eq!(entries[0]["note"], "Hill 203");
        assert_eq!(entries[0]["cause_kind"], "adjustment");
        assert_eq!(entries[0]["actor_id"], people.organiser.id.as_str());
        assert_eq!(entries[1]["kind"], "spent");
        assert_eq!(entries[1]["balance"], 2);
        let (_, key) = create_key(app, &people.organiser, &world.campaign_id);
        assert_eq!(get_with_api_key(app, &path, &key).status(), 200);
    }

    fn generate_force_with_entered_dice_gives_the_known_roster(app: &TestApp) {
        // Arrange: two platoons of three squads of 8, Conscript Steady Light, Assault Rifles.
        let people = People::register(app);
        let world = World::build(app, &people);
        let mut subjects = serde_json::Map::new();
        subjects.insert("platoon[0]".into(), json!([1]));
        subjects.insert("platoon[1]".into(), json!([1]));
        subjects.insert("force".into(), json!([3, 5]));
        for p in 0..2 {
            for s in 0..3 {
                subjects.insert(format!("platoon[{p}].squad[{s}]"), json!([2, 2, 2, 2]));
            }
        }
        let body = json!({"method": "basic", "platoons": 2, "name": "Rolled",
            "dice": {"force_generation": subjects}});

        // Act
        let response = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id), &body, &people.player.token);

        // Assert
        assert_eq!(response.status(), 201, "{}", response.text().unwrap());
        let generated: Value = response.json().unwrap();
        let force = &generated["force"];
        assert_eq!(force["name"], "Rolled");
        assert_eq!(force["owner_id"], people.player.id.as_str());
        assert_eq!(force["platoons"].as_array().unwrap().len(), 2);
        for platoon in force["platoons"].as_array().unwrap() {
            let squads: Vec<&Value> = platoon["units"].as_array().unwrap().iter().filter(|u| u["kind"] == "squad").collect();
            assert_eq!(squads.len(), 3, "{platoon}");
            for squad in squads {
                assert_eq!(squad["strength"], 8);
                assert_eq!(squad["quality"], "conscript");
                assert_eq!(squad["resolve"], "steady");
                assert_eq!(squad["armour"], "light");
                assert_eq!(squad["basic_weapon"], "assault_rifles");
                assert!(squad["points"].as_f64().unwrap() > 0.0);
            }
        }
        let rolls = generated["rolls"].as_array().unwrap();
        assert!(!rolls.is_empty());
        assert!(rolls.iter().all(|r| r["step"] == "force_generation" && r["source"] == "player"), "{rolls:?}");
        assert_eq!(generated["unused_dice"], json!({}));
        let id = force["id"].as_str().unwrap();
        let entries = history(app, &people.player, id, "")["entries"].as_array().unwrap().clone();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0]["cause"]["kind"], "generation");
        assert_eq!(&entries[0]["rolls"], &generated["rolls"]);
        assert_eq!(crate::common::as_written(&get_force(app, &people.player, id)), *force);
    }

    fn generate_force_replayed_with_its_own_server_rolls_gives_the_same_roster(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let path = format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id);
        let first = app.post_json_with_token(&path, &json!({"method": "basic", "platoons": 1}), &people.player.token);
        assert_eq!(first.status(), 201, "{}", first.text().unwrap());
        let first: Value = first.json().unwrap();
        assert!(first["rolls"].as_array().unwrap().iter().all(|r| r["source"] == "server"));
        let mut entered = serde_json::Map::new();
        for roll in first["rolls"].as_array().unwrap() {
            let subject = roll["subject"].as_str().unwrap();
            let values = entered.entry(subject.to_owned()).or_insert_with(|| json!([]));
            values.as_array_mut().unwrap().extend(roll["values"].as_array().unwrap().iter().cloned());
        }
        let second = app.post_json_with_token(&path, &json!({"method": "basic", "platoons": 1,
            "dice": {"force_generation": entered}}), &people.player.token);
        assert_eq!(second.status(), 201, "{}", second.text().unwrap());
        let second: Value = second.json().unwrap();
        let strip = |force: &Value| {
            let mut force = force.clone();
            for platoon in force["platoons"].as_array_mut().unwrap() {
                for unit in platoon["units"].as_array_mut().unwrap() {
                    unit.as_object_mut().unwrap().remove("id");
                }
            }
            (force["platoons"].clone(), force["points"].clone())
        };
        assert_eq!(strip(&first["force"]), strip(&second["force"]));
        assert_eq!(second["unused_dice"], json!({}));
    }

    fn generate_force_with_an_idempotency_key_rolls_and_stores_once(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let path = format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id);
        let body = json!({"method": "basic", "platoons": 1});
        let generate = |body: &Value, key: &str| {
            send(app.request(Method::POST, &path).bearer_auth(&people.player.token)
                .header("Idempotency-Key", key).json(body))
        };
        let list = |()| {
            let response = app.get_with_token(&format!("/api/v1/campaigns/{}/forces", world.campaign_id), &people.player.token);
            let forces: Value = response.json().unwrap();
            forces
        };
        let before = list(());

        // Act
        let first = generate(&body, "gen-1");
        let retry = generate(&body, "gen-1");
        let other_body = generate(&json!({"method": "basic", "platoons": 2}), "gen-1");

        // Assert
        assert_eq!(first.status(), 201);
        let first: Value = first.json().unwrap();
        assert_eq!(retry.status(), 201);
        let retry: Value = retry.json().unwrap();
        assert_eq!(retry, first, "the retry answers the first response, rolls included");
        assert_problem(other_body, 422);
        let after = list(());
        let count = |v: &Value| v.as_array().map_or_else(|| v["forces"].as_array().unwrap().len(), Vec::len);
        assert_eq!(count(&after), count(&before) + 1, "exactly one force was stored");
    }

    fn generate_force_refuses_invalid_choices_and_dice_and_stores_nothing(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let path = format!("/api/v1/campaigns/{}/forces/generate", world.campaign_id);
        let post = |body: Value| app.post_json_with_token(&path, &body, &people.player.token);

        let ten = assert_problem(post(json!({"method": "advanced", "platoons": 1,
            "priorities": {"manpower": 3, "fire_power": 3, "gear": 3, "training": 1}})), 422);
        assert_eq!(ten["errors"][0]["field"], "priorities", "{ten}");
        let cancelled = assert_problem(post(json!({"method": "basic", "platoons": 1,
            "enhancements": [{"kind": "veterans"}], "limitations": [{"kind": "inexperienced"}]})), 422);
        assert!(cancelled["errors"][0]["field"].as_str().unwrap().starts_with("limitations[0]"), "{cancelled}");
        // The name becomes the roster's, so the roster's name rules apply before any roll.
        for (method, name) in [("basic", "J\u{1d}x"), ("advanced", "   "), ("basic", &"n".repeat(101))] {
            let mut body = json!({"method": method, "platoons": 1, "name": name});
            if method == "advanced" {
                body["priorities"] = json!({"manpower": 1});
            }
            let bad = assert_problem(post(body), 422);
            assert_eq!(bad["errors"][0]["field"], "name", "{bad}");
        }
        let unknown_method = assert_problem(post(json!({"method": "fancy", "platoons": 1})), 422);
        assert!(unknown_method["errors"][0]["message"].as_str().unwrap().contains("basic"), "{unknown_method}");
        let subject = assert_problem(post(json!({"method": "basic", "platoons": 1,
            "dice": {"force_generation": {"platoon[5]": [3]}}})), 422);
        assert_eq!(subject["errors"][0]["field"], "dice.force_generation.platoon[5]");
        let range = assert_problem(post(json!({"method": "basic", "platoons": 1,
            "dice": {"force_generation": {"platoon[0]": [7]}}})), 422);
        assert_eq!(range["errors"][0]["field"], "dice.force_generation.platoon[0]");
        let step = assert_problem(post(json!({"method": "basic", "platoons": 1,
            "dice": {"initiatives": {"x": [3]}}})), 422);
        assert_eq!(step["errors"][0]["field"], "dice.initiatives");
        assert_eq!(list_forces(app, &people.player, &world.campaign_id).len(), 1, "only the world's force");
    }

    fn an_exported_force_imports_into_another_campaign_unchanged_with_new_ids(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let other = World::build(app, &people);
        let examples = worked_examples();
        let units: Vec<Value> = examples.iter().map(|(u, _)| u.clone()).collect();
        let force = create_force(app, &people.owner, &world.campaign_id,
            &json!({"name": "Travellers", "platoons": [{"name": "A", "units": units}]}));
        let id = force["id"].as_str().unwrap();

        // Act
        let exported: Value = app.get_with_token(&format!("/api/v1/forces/{id}/export"), &people.owner.token).json().unwrap();
        let response = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces/import", other.campaign_id), &exported, &people.owner.token);

        // Assert
        assert_eq!(response.status(), 201, "{}", response.text().unwrap());
        let imported: Value = response.json().unwrap();
        assert_eq!(imported["campaign_id"], other.campaign_id.as_str());
        assert_eq!(imported["points"], force["points"]);
        let old_ids: Vec<&Value> = force["platoons"][0]["units"].as_array().unwrap().iter().map(|u| &u["id"]).collect();
        for unit in imported["platoons"][0]["units"].as_array().unwrap() {
            assert!(!old_ids.contains(&&unit["id"]));
        }
        let again: Value = app.get_with_token(&format!("/api/v1/forces/{}/export", imported["id"].as_str().unwrap()), &people.owner.token).json().unwrap();
        let strip = |e: &Value| {
            let mut e = e.clone();
            for unit in e["platoons"][0]["units"].as_array_mut().unwrap() {
                unit.as_object_mut().unwrap().remove("id");
            }
            e
        };
        assert_eq!(strip(&again), strip(&exported));
        assert_eq!(exported["format"], "fad-force");
        assert_eq!(history(app, &people.owner, imported["id"].as_str().unwrap(), "")["entries"][0]["cause"]["kind"], "import");
        // A bad import stores nothing.
        let mut bad = exported.clone();
        bad["platoons"][0]["units"][0]["quality"] = json!("mythic");
        assert_problem(app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/forces/import", other.campaign_id), &bad, &people.owner.token), 422);
        assert_eq!(list_forces(app, &people.owner, &other.campaign_id).len(), 2, "the world's force and the import");
    }

    fn outsiders_get_404_and_keys_read_but_never_write_forces(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Blue"));
        let id = force["id"].as_str().unwrap();
        assert_problem(app.get_with_token(&format!("/api/v1/forces/{id}"), &people.outsider.token), 404);
        assert_problem(app.get_with_token("/api/v1/forces/no-such-force", &people.owner.token), 404);
        let read = get_with_api_key(app, &format!("/api/v1/forces/{id}"), &world.key);
        assert_eq!(read.status(), 200);
        let mut body = small_roster("Mine now");
        body["version"] = json!(1);
        assert_problem(put_force(app, &people.player, id, &body), 403);
        assert_eq!(get_force(app, &people.owner, id)["version"], 1);
    }
}
