//! Rulesets: a campaign plays the ruleset it pinned, FAD 5e version 1 unless it chose another;
//! house rulesets (data extending FAD 5e) change campaign points, a d6 table and a price, and
//! the post-battle sequence applies exactly those numbers (entered dice, both backends); bad
//! documents are refused at their key; versions, deletion, quotas, export and import; the
//! pages. Expected values are computed by hand from docs/rules.md §2.2 and §2.3.

use std::sync::Barrier;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

use crate::auth::{TestUser, register};
use crate::battles::{get, ok, post, step_path, unit, unit_id};
use crate::campaigns::{invite_code, join};
use crate::common::{Backend, Fixture, TestApp, assert_problem, send};
use crate::web_aftermath::{error_beside, signed_in};
use crate::web_pages::Browser;

/// The house ruleset of the issue: 3 CP per platoon, Quality drops only on a 1, a trait costs 3.
fn stockholm(slug: &str) -> Value {
    json!({
        "id": format!("club/{slug}"),
        "name": "Stockholm club FAD",
        "extends": {"id": "fad5e", "version": 1},
        "set": {
            "campaign.cp_per_platoon": 3,
            "campaign.tables.quality_loss": ["drops", "stays", "stays", "stays", "stays", "stays"],
            "campaign.menu.assign_trait.cost": 3
        },
        "readings": [{"id": "H1", "text": "Quality drops only on a 1."}]
    })
}

fn create_ruleset(app: &TestApp, user: &TestUser, doc: &Value) -> Response {
    app.post_json_with_token("/api/v1/rulesets", doc, &user.token)
}

#[track_caller]
fn created(app: &TestApp, user: &TestUser, doc: &Value) -> Value {
    let response = create_ruleset(app, user, doc);
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    response.json().unwrap()
}

#[track_caller]
fn campaign_under(app: &TestApp, user: &TestUser, ruleset: Option<Value>) -> Value {
    let mut body = json!({"name": "Operation Long Winter"});
    if let Some(ruleset) = ruleset {
        body["ruleset"] = ruleset;
    }
    let response = app.post_json_with_token("/api/v1/campaigns", &body, &user.token);
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    response.json().unwrap()
}

fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Charlie", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

/// A campaign under `ruleset` (created by `organiser`) with Blue (organiser) and Red (player)
/// and a confirmed battle: Blue won, Red's Charlie wiped out. Returns (campaign, battle, blue,
/// red).
struct Played {
    organiser: TestUser,
    player: TestUser,
    campaign_id: String,
    battle: String,
    red: Value,
}

fn played(app: &TestApp, organiser: TestUser, ruleset: Option<Value>) -> Played {
    let player = register(app, "player");
    let campaign = campaign_under(app, &organiser, ruleset);
    let campaign_id = campaign["id"].as_str().unwrap().to_owned();
    let code = invite_code(app, &organiser, &campaign_id);
    assert_eq!(join(app, &player, &code).status(), 201);
    let blue = crate::forces::create_force(app, &organiser, &campaign_id, &blue_roster());
    let red = crate::forces::create_force(app, &player, &campaign_id, &red_roster());
    let battle = ok(post(
        app,
        &organiser,
        &format!("/api/v1/campaigns/{campaign_id}/battles"),
        &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}]}),
    ))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(post(
        app,
        &organiser,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({
        "outcome": "win", "winner_force_id": blue["id"], "losses": [
            {"unit_id": unit_id(&red, "Charlie"), "figures_lost": 8, "eliminated": true, "vehicle_damage": null}]}),
    ));
    ok(post(
        app,
        &player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
    Played {
        organiser,
        player,
        campaign_id,
        battle,
        red,
    }
}

/// Red's roll: Charlie (E = 8) wiped out rolls 3 → 4 back; 2·4 ≥ 8, so Quality rolls `quality`;
/// resolve 4 (no change); pool 1 + 1.
fn red_rolls(app: &TestApp, p: &Played, quality: u8) -> Value {
    let (red, charlie) = (p.red["id"].as_str().unwrap(), unit_id(&p.red, "Charlie"));
    ok(post(
        app,
        &p.player,
        &step_path(&p.battle, red, "roll"),
        &json!({"dice": {
        "replacement": {charlie.as_str(): [3]}, "quality_loss": {charlie.as_str(): [quality]},
        "resolve_change": {charlie.as_str(): [4]}, "reinforcements": {red: [1, 1]}}}),
    ))
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn stored_rulesets(app: &TestApp, owner: &str) -> i64 {
    let mut conn = app.db.connect();
    diesel::sql_query("SELECT COUNT(*) AS n FROM rulesets WHERE owner = $1 AND version = 1")
        .bind::<Text, _>(owner)
        .get_result::<Count>(&mut conn)
        .unwrap()
        .n
}

both_backends! {
    fn done_when_a_house_ruleset_earns_3_cp_keeps_quality_on_a_2_and_prices_a_trait_at_3(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let house = created(app, &organiser, &stockholm("stockholm-fad"));
        let p = played(app, organiser, Some(json!("club/stockholm-fad")));
        let red = p.red["id"].as_str().unwrap().to_owned();
        let charlie = unit_id(&p.red, "Charlie");

        // Act
        let rolled = red_rolls(app, &p, 2);
        let too_dear = post(app, &p.player, &step_path(&p.battle, &red, "purchases"), &json!({
            "purchases": [{"item": "assign_trait", "unit_id": charlie, "trait": "brave"},
                          {"item": "improve_resolve", "unit_id": charlie}]}));
        let bought = ok(post(app, &p.player, &step_path(&p.battle, &red, "purchases"), &json!({
            "purchases": [{"item": "assign_trait", "unit_id": charlie, "trait": "brave"}]})));
        let campaign = get(app, &p.organiser, &format!("/api/v1/campaigns/{}", p.campaign_id));
        let aftermath = get(app, &p.player, &format!("/api/v1/battles/{}/aftermath/{red}", p.battle));
        let mut browser = signed_in(app, &p.player);
        let (page, _) = browser.page(&format!("/battles/{}/aftermath/{red}", p.battle));

        // Assert: version 1 with a hash; the campaign plays it.
        assert_eq!(house["version"], 1);
        assert_eq!(house["hash"].as_str().unwrap().len(), 64);
        assert_eq!(campaign["ruleset"], json!({"id": "club/stockholm-fad", "version": 1}));
        assert_eq!(aftermath["ruleset"], json!({"id": "club/stockholm-fad", "version": 1}));
        // 3 CP for one platoon (FAD 5e: 2).
        assert_eq!(rolled["outcome"]["campaign_points"]["earned"], 3, "{rolled}");
        assert_eq!(rolled["pending"]["cp_available"], 3);
        // Quality die 2: stays Regular (FAD 5e: drops to Conscript on 1–3... here only on a 1).
        let after = &rolled["outcome"]["roster"];
        assert_eq!(unit(after, "Charlie")["quality"], "regular", "{rolled}");
        // The trait costs 3: with a Resolve purchase (1) it is over the 3 CP.
        assert_problem(too_dear, 422);
        assert_eq!(bought["pending"]["cp_spent"], 3, "{bought}");
        assert!(page.contains("Stockholm club FAD"), "the post-battle page names the ruleset");
        assert!(page.contains("3 CP"), "the page prices from the ruleset: {page}");
    }

    fn a_quality_die_of_1_still_drops_under_the_house_table(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        created(app, &organiser, &stockholm("stockholm-fad"));
        let p = played(app, organiser, Some(json!({"id": "club/stockholm-fad", "version": 1})));

        // Act
        let rolled = red_rolls(app, &p, 1);

        // Assert
        assert_eq!(unit(&rolled["outcome"]["roster"], "Charlie")["quality"], "conscript", "{rolled}");
    }

    fn a_campaign_without_a_ruleset_plays_fad5e_version_1(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");

        // Act
        let p = played(app, organiser, None);
        let rolled = red_rolls(app, &p, 2);
        let listed = get(app, &p.organiser, "/api/v1/campaigns");
        let rules = get(app, &p.organiser, &format!("/api/v1/campaigns/{}/rules", p.campaign_id));

        // Assert: FAD 5e's numbers (2 CP per platoon; a quality die of 2 drops).
        let fad5e = json!({"id": "fad5e", "version": 1});
        assert_eq!(listed["campaigns"][0]["ruleset"], fad5e);
        assert_eq!(rules["ruleset"], fad5e);
        assert_eq!(rolled["outcome"]["campaign_points"]["earned"], 2);
        assert_eq!(unit(&rolled["outcome"]["roster"], "Charlie")["quality"], "conscript");
    }

    fn the_ruleset_changes_before_the_first_battle_and_not_after(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        created(app, &organiser, &stockholm("stockholm-fad"));
        let campaign = campaign_under(app, &organiser, None);
        let id = campaign["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{id}");
        let patch = |version: i64, ruleset: Value| send(app.request(Method::PATCH, &path)
            .bearer_auth(&organiser.token).json(&json!({"version": version, "ruleset": ruleset})));

        // Act
        let unknown = patch(1, json!("club/nowhere"));
        let changed = patch(1, json!("club/stockholm-fad"));
        let changed: Value = changed.json().unwrap();
        let blue = crate::forces::create_force(app, &organiser, &id, &blue_roster());
        let npf = ok(post(app, &organiser, &format!("/api/v1/campaigns/{id}/battles"), &json!({
            "sides": [{"force_id": blue["id"]}, {"non_player": {"name": "Rebels"}}]})));
        let current = get(app, &organiser, &path)["version"].as_i64().unwrap();
        let late = patch(current, json!("fad5e"));

        // Assert
        let problem = assert_problem(unknown, 422);
        assert_eq!(problem["errors"][0]["field"], "ruleset");
        assert_eq!(changed["ruleset"], json!({"id": "club/stockholm-fad", "version": 1}));
        assert!(npf["id"].is_string());
        let problem = assert_problem(late, 409);
        assert!(problem["detail"].as_str().unwrap().contains("before the first battle"), "{problem}");
        assert_eq!(get(app, &organiser, &path)["ruleset"]["id"], "club/stockholm-fad");
    }

    fn bad_documents_are_refused_at_their_key(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let mut five_rows = stockholm("five");
        five_rows["set"]["campaign.tables.quality_loss"] = json!(["drops", "stays", "stays", "stays", "stays"]);
        let mut unknown = stockholm("unknown");
        unknown["set"]["campaign.free_beer"] = json!(true);
        let mut rungs = stockholm("rungs");
        rungs["set"]["ladders.quality.names"] = json!(["green", "blooded"]);
        let mut bad_id = stockholm("x");
        bad_id["id"] = json!("stockholm");

        // Act
        let answers = [five_rows, unknown, rungs, bad_id].map(|doc| create_ruleset(app, &organiser, &doc));

        // Assert: each at its path, nothing stored.
        let fields: Vec<String> = answers.into_iter().map(|r| {
            let problem = assert_problem(r, 422);
            problem["errors"][0]["field"].as_str().unwrap().to_owned()
        }).collect();
        assert_eq!(fields, ["set.campaign.tables.quality_loss", "set.campaign.free_beer", "set.ladders.quality.names", "id"]);
        assert_eq!(stored_rulesets(app, &organiser.id), 0);
    }

    fn an_edit_makes_version_2_and_the_pinned_campaign_stays_on_1(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let outsider = register(app, "outsider");
        let v1 = created(app, &organiser, &stockholm("stockholm-fad"));
        let campaign = campaign_under(app, &organiser, Some(json!("club/stockholm-fad")));
        let mut edited = stockholm("stockholm-fad");
        edited["set"]["campaign.cp_per_platoon"] = json!(4);
        let put = |user: &TestUser, if_match: &str| send(app.request(Method::PUT, "/api/v1/rulesets/club/stockholm-fad")
            .bearer_auth(&user.token).header("If-Match", if_match).json(&edited));

        // Act
        let document = app.request(Method::GET, "/api/v1/rulesets/club/stockholm-fad?format=document")
            .bearer_auth(&organiser.token).send().unwrap();
        let etag = document.headers()["etag"].to_str().unwrap().to_owned();
        let by_outsider = put(&outsider, &etag);
        let v2 = put(&organiser, &etag);
        let stale = put(&organiser, &etag);
        let campaign_now = get(app, &organiser, &format!("/api/v1/campaigns/{}", campaign["id"].as_str().unwrap()));
        let newest = get(app, &organiser, "/api/v1/rulesets/club/stockholm-fad");
        let first = get(app, &organiser, "/api/v1/rulesets/club/stockholm-fad?version=1");

        // Assert
        assert_eq!(etag, "\"1\"");
        assert_problem(by_outsider, 404);
        let v2: Value = ok(v2);
        assert_eq!(v2["version"], 2);
        assert_ne!(v2["hash"], v1["hash"]);
        assert_problem(stale, 412);
        assert_eq!(campaign_now["ruleset"], json!({"id": "club/stockholm-fad", "version": 1}));
        assert_eq!((newest["version"].as_u64(), first["version"].as_u64()), (Some(2), Some(1)));
        assert_eq!(first["hash"], v1["hash"]);
    }

    fn a_ruleset_in_use_is_not_deleted_and_an_unused_one_is_archived(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        created(app, &organiser, &stockholm("in-use"));
        created(app, &organiser, &stockholm("unused"));
        campaign_under(app, &organiser, Some(json!("club/in-use")));

        // Act
        let in_use = app.delete_with_token("/api/v1/rulesets/club/in-use", &organiser.token);
        let unused = app.delete_with_token("/api/v1/rulesets/club/unused", &organiser.token);
        let listed = get(app, &organiser, "/api/v1/rulesets");

        // Assert
        let problem = assert_problem(in_use, 409);
        assert!(problem["detail"].as_str().unwrap().contains("A campaign plays under club/in-use"), "{problem}");
        assert_eq!(unused.status(), 204);
        let ids: Vec<&str> = listed["rulesets"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert!(ids.contains(&"fad5e") && ids.contains(&"club/in-use") && !ids.contains(&"club/unused"), "{ids:?}");
    }

    fn the_list_is_public_and_house_rulesets_are_their_owners_and_members(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let outsider = register(app, "outsider");
        created(app, &organiser, &stockholm("stockholm-fad"));

        // Act
        let public = app.get("/api/v1/rulesets");
        let etag = public.headers()["etag"].to_str().unwrap().to_owned();
        let public: Value = public.json().unwrap();
        let again = send(app.request(Method::GET, "/api/v1/rulesets").header("If-None-Match", &etag));
        let theirs = get(app, &organiser, "/api/v1/rulesets");
        let hidden = app.get_with_token("/api/v1/rulesets/club/stockholm-fad", &outsider.token);
        let not_theirs = campaign_under_refused(app, &outsider);
        let fad5e = get(app, &outsider, "/api/v1/rulesets/fad5e");

        // Assert
        let ids = |list: &Value| -> Vec<String> { list["rulesets"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect() };
        assert!(ids(&public).contains(&"fad5e".to_owned()));
        assert!(!ids(&public).iter().any(|id| id.starts_with("club/")));
        assert_eq!(again.status(), 304);
        assert!(ids(&theirs).contains(&"club/stockholm-fad".to_owned()));
        let house = theirs["rulesets"].as_array().unwrap().iter().find(|r| r["id"] == "club/stockholm-fad").unwrap();
        assert_eq!(house["extends"], json!({"id": "fad5e", "version": 1}));
        assert_eq!(house["builtin"], false);
        assert_eq!(house["rules_url"], "/rules/club/stockholm-fad");
        assert_problem(hidden, 404);
        assert_eq!(not_theirs["errors"][0]["field"], "ruleset");
        assert_eq!(fad5e["id"], "fad5e");
        assert_eq!(fad5e["builtin"], true);
    }

    fn an_existing_id_is_409(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let other = register(app, "other");
        created(app, &organiser, &stockholm("stockholm-fad"));

        // Act
        let again = create_ruleset(app, &other, &stockholm("stockholm-fad"));

        // Assert
        assert_problem(again, 409);
    }

    fn the_eleventh_house_ruleset_is_over_the_quota(quota: &Quota10) {
        // Arrange
        let app = &quota.0;
        let organiser = register(app, "organiser");
        for i in 0..10 {
            created(app, &organiser, &stockholm(&format!("club-{i}")));
        }

        // Act
        let eleventh = create_ruleset(app, &organiser, &stockholm("club-10"));

        // Assert
        let problem = assert_problem(eleventh, 422);
        assert_eq!(problem["errors"][0]["field"], "account");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("at most 10 house rulesets"));
        assert_eq!(stored_rulesets(app, &organiser.id), 10);
    }

    fn a_document_over_the_size_quota_is_refused(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let mut big = stockholm("big");
        big["readings"] = json!((0..700).map(|i| json!({"id": format!("H{i}"), "text": "x".repeat(100)})).collect::<Vec<_>>());

        // Act
        let answer = create_ruleset(app, &organiser, &big);

        // Assert
        let problem = assert_problem(answer, 422);
        assert!(problem["errors"].as_array().unwrap().iter().any(|e| e["message"].as_str().unwrap().contains("65536 bytes")), "{problem}");
    }

    fn rules_stays_byte_identical_with_the_same_etag(app: &TestApp) {
        // Arrange: captured from the service before rulesets existed.
        let golden = include_str!("golden/rules-vocabulary.json");
        let golden_etag = include_str!("golden/rules-fad5e.etag").trim();

        // Act
        let response = app.get("/api/v1/rules");
        let etag = response.headers()["etag"].to_str().unwrap().to_owned();
        let body = response.text().unwrap();

        // Assert
        assert_eq!(etag, golden_etag);
        assert!(body == golden, "GET /api/v1/rules changed");
    }
}

fn campaign_under_refused(app: &TestApp, user: &TestUser) -> Value {
    let response = app.post_json_with_token(
        "/api/v1/campaigns",
        &json!({"name": "Borrowed rules", "ruleset": "club/stockholm-fad"}),
        &user.token,
    );
    assert_problem(response, 422)
}

/// A server at the default quota of 10 house rulesets per account (the test harness raises it).
struct Quota10(TestApp);

impl Fixture for Quota10 {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[("FAD_MAX_RULESETS_PER_ACCOUNT", "10")],
        ))
    }
}

/// A server where an account holds at most 3 house rulesets, with room for parallel requests.
struct Tight(TestApp);

impl Fixture for Tight {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[
                ("FAD_MAX_RULESETS_PER_ACCOUNT", "3"),
                ("FAD_WORKERS", "4"),
                ("FAD_DB_POOL_SIZE", "16"),
                ("FAD_DB_TIMEOUT_SECS", "10"),
            ],
        ))
    }
}

both_backends! {
    fn twelve_parallel_creations_against_a_quota_of_3_store_3(tight: &Tight) {
        // Arrange
        let app = &tight.0;
        let organiser = register(app, "organiser");
        let gate = Barrier::new(12);

        // Act
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..12).map(|i| {
                let (gate, organiser) = (&gate, &organiser);
                s.spawn(move || {
                    let doc = stockholm(&format!("racer-{i}"));
                    gate.wait();
                    create_ruleset(app, organiser, &doc).status().as_u16()
                })
            }).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });

        // Assert
        assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 3, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == 201 || *s == 422), "{statuses:?}");
        assert_eq!(stored_rulesets(app, &organiser.id), 3);
    }
}

#[derive(QueryableByName)]
struct Settings {
    #[diesel(sql_type = Text)]
    settings: String,
}

fn settings_text(app: &TestApp, campaign_id: &str) -> String {
    diesel::sql_query("SELECT settings FROM campaigns WHERE id = $1")
        .bind::<Text, _>(campaign_id)
        .get_result::<Settings>(&mut app.db.connect())
        .unwrap()
        .settings
}

both_backends! {
    fn a_campaign_stored_before_rulesets_reads_as_fad5e_v1_and_its_row_is_never_rewritten(app: &TestApp) {
        // Arrange: a campaign whose settings text is as written before rulesets existed.
        let organiser = register(app, "organiser");
        let id = campaign_under(app, &organiser, None)["id"].as_str().unwrap().to_owned();
        let old = r#"{"house_rules":{"full_strength":"establishment","lone_figure_return":"on_five_or_six","bank_campaign_points":false,"vehicle_resolve_change":false,"squad_leader_experience_purchasable":false,"missions_hidden":true,"strict_one_marker_per_unit":false,"npf_recon_reading":"offensive_stance","squad_strength_roll":"per_player","morale_modifier":"per_die"},"results_need_confirmation":true,"lock_rosters_after_play":true}"#;
        diesel::sql_query("UPDATE campaigns SET settings = $1 WHERE id = $2")
            .bind::<Text, _>(old).bind::<Text, _>(&id)
            .execute(&mut app.db.connect()).unwrap();

        // Act: reads through every path that parses the settings, then `migrate`.
        let campaign = get(app, &organiser, &format!("/api/v1/campaigns/{id}"));
        let rules = get(app, &organiser, &format!("/api/v1/campaigns/{id}/rules"));
        get(app, &organiser, &format!("/api/v1/campaigns/{id}/settings"));
        get(app, &organiser, "/api/v1/rulesets");
        let mut browser = signed_in(app, &organiser);
        let (page, _) = browser.page(&format!("/campaigns/{id}"));
        let migrate = crate::common::command(&["migrate"]).env("DATABASE_URL", app.db.url()).output().unwrap();

        // Assert
        assert_eq!(campaign["ruleset"], json!({"id": "fad5e", "version": 1}));
        assert_eq!(campaign["settings"]["house_rules"]["bank_campaign_points"], false);
        assert_eq!(rules["ruleset"], json!({"id": "fad5e", "version": 1}));
        assert!(page.contains("href=\"/rules/fad5e\""), "the campaign page links its rules");
        assert!(migrate.status.success(), "{}", String::from_utf8_lossy(&migrate.stderr));
        assert_eq!(settings_text(app, &id), old);
    }

    fn the_rules_pages_show_any_ruleset_and_a_house_ruleset_with_its_changed_rows_marked(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let outsider = register(app, "outsider");
        created(app, &organiser, &stockholm("stockholm-fad"));
        let mut owner = signed_in(app, &organiser);
        let mut stranger = signed_in(app, &outsider);

        // Act
        let (fad5e, _) = owner.page("/rules/fad5e");
        let (house, _) = owner.page("/rules/club/stockholm-fad");
        let hidden = stranger.get("/rules/club/stockholm-fad").status();
        let rules = Browser::new(app).get("/rules").text().unwrap();

        // Assert: FAD 5e's quality-loss table drops on 1–2; the house's only on 1.
        assert!(fad5e.contains("id=\"t-quality_loss-1\"") && !fad5e.contains("<mark>"), "built-in: nothing marked");
        for row in 1..=6 {
            assert!(house.contains(&format!("id=\"t-quality_loss-{row}\"")), "six rows");
        }
        assert!(house.contains(r#"<tr class="changed" id="t-quality_loss-2">"#), "{house}");
        assert!(!house.contains(r#"<tr class="changed" id="t-quality_loss-1">"#));
        assert!(!house.contains(r#"<tr class="changed" id="t-quality_loss-3">"#));
        assert!(house.contains(r#"<tr class="changed" id="m-assign_trait">"#));
        assert!(!house.contains(r#"<tr class="changed" id="m-improve_quality">"#));
        assert!(house.contains("Changes from FAD 5e") || house.contains("Changes from "), "{house}");
        assert!(house.contains("id=\"H1\""), "readings have anchors");
        assert!(house.contains("Edit these house rules"));
        assert_eq!(hidden, 404);
        assert!(rules.contains("Rules reference"), "/rules stays the reference");
    }

    fn the_form_writes_a_house_ruleset_and_keeps_input_with_errors_beside_fields(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let mut browser = signed_in(app, &organiser);
        let (form, token) = browser.page("/rulesets/new");
        let mut fields: Vec<(String, String)> = form_defaults(&form);
        let set = |fields: &mut Vec<(String, String)>, name: &str, value: &str| {
            fields.retain(|(n, _)| n != name);
            fields.push((name.to_owned(), value.to_owned()));
        };
        set(&mut fields, "csrf_token", &token);
        set(&mut fields, "slug", "stockholm-fad");
        set(&mut fields, "name", "Stockholm club FAD");
        set(&mut fields, "campaign.cp_per_platoon", "30");
        set(&mut fields, "campaign.tables.quality_loss.2", "stays");
        set(&mut fields, "campaign.menu.assign_trait.cost", "3");

        // Act
        let refused = browser.post("/rulesets/new", &pairs(&fields));
        let refused_status = refused.status();
        let refused = refused.text().unwrap();
        set(&mut fields, "campaign.cp_per_platoon", "3");
        let saved = browser.post("/rulesets/new", &pairs(&fields));
        let document = get(app, &organiser, "/api/v1/rulesets/club/stockholm-fad?format=document");

        // Assert: the error beside its field, the input kept; then the document sets exactly
        // the three changes.
        assert_eq!(refused_status, 422);
        let error = error_beside(&refused, "f-campaign-cp-per-platoon").unwrap_or_default();
        assert!(error.contains("10"), "{refused}");
        assert!(refused.contains(r#"value="stockholm-fad""#));
        assert!(refused.contains(r#"value="stays" selected"#));
        assert_eq!(saved.status(), 303);
        assert_eq!(saved.headers()["location"], "/rules/club/stockholm-fad");
        assert_eq!(document["set"], stockholm("x")["set"]);
    }
}

both_backends! {
    fn force_battle_timeline_and_event_answers_name_the_campaigns_ruleset(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        created(app, &organiser, &stockholm("stockholm-fad"));
        let p = played(app, organiser, Some(json!("club/stockholm-fad")));
        let pin = json!({"id": "club/stockholm-fad", "version": 1});
        let red = p.red["id"].as_str().unwrap();

        // Act
        let force = get(app, &p.player, &format!("/api/v1/forces/{red}"));
        let forces = get(app, &p.player, &format!("/api/v1/campaigns/{}/forces", p.campaign_id));
        let battle = get(app, &p.player, &format!("/api/v1/battles/{}", p.battle));
        let battles = get(app, &p.player, &format!("/api/v1/campaigns/{}/battles", p.campaign_id));
        let timeline = get(app, &p.player, &format!("/api/v1/campaigns/{}/timeline", p.campaign_id));
        let events: Vec<Value> = {
            use fad_api::schema::events::dsl as e;
            let mut conn = app.db.connect();
            let rows: Vec<String> = e::events.select(e::payload).load(&mut conn).unwrap();
            rows.iter().map(|r| serde_json::from_str(r).unwrap()).collect()
        };

        // Assert
        assert_eq!(force["ruleset"], pin, "{force}");
        assert_eq!(force["family"], "fad");
        assert!(forces["forces"].as_array().unwrap().iter().all(|f| f["ruleset"] == pin), "{forces}");
        assert_eq!(battle["ruleset"], pin, "{battle}");
        assert!(battles["battles"].as_array().unwrap().iter().all(|b| b["ruleset"] == pin), "{battles}");
        let entries = timeline["entries"].as_array().unwrap();
        assert!(!entries.is_empty() && entries.iter().all(|e| e["battle"]["ruleset"] == pin), "{timeline}");
        assert!(events.len() >= 4, "{events:?}");
        for event in &events {
            assert_eq!(event["ruleset"], pin, "{event}");
        }
        // A FAD 5e campaign's force says so too.
        let other = campaign_under(app, &p.player, None);
        let own = crate::forces::create_force(app, &p.player, other["id"].as_str().unwrap(), &blue_roster());
        assert_eq!(own["ruleset"], json!({"id": "fad5e", "version": 1}), "{own}");
    }

    fn a_same_family_change_waits_until_every_roster_holds_under_the_new_rules(app: &TestApp) {
        // Arrange: a FAD 5e campaign with a vehicle whose crew has no Resolve (fine under FAD
        // 5e; the basic and advanced rules rate every crew, B1).
        let organiser = register(app, "organiser");
        let campaign = campaign_under(app, &organiser, None);
        let id = campaign["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{id}");
        let tank = |resolve: Value| json!({"name": "Tank", "kind": "vehicle", "quality": "regular", "resolve": resolve,
            "strength": 1, "starting_strength": 1,
            "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3},
            "vehicle_state": "operational"});
        let force = crate::forces::create_force(app, &organiser, &id, &json!({"name": "Armour",
            "platoons": [{"name": "1st", "units": [tank(Value::Null)]}]}));
        let patch = |version: i64| send(app.request(Method::PATCH, &path).bearer_auth(&organiser.token)
            .json(&json!({"version": version, "ruleset": "fad-basic-advanced"})));

        let mut rated = tank(json!("steady"));
        rated["id"] = force["platoons"][0]["units"][0]["id"].clone();

        // Act
        let refused = patch(1);
        let after_refusal = get(app, &organiser, &path);
        let fixed = send(app.request(Method::PUT, &format!("/api/v1/forces/{}", force["id"].as_str().unwrap()))
            .bearer_auth(&organiser.token)
            .header("If-Match", format!("\"{}\"", force["version"]))
            .json(&json!({"name": "Armour", "platoons": [{"name": "1st", "units": [rated]}]})));
        let changed = patch(after_refusal["version"].as_i64().unwrap());

        // Assert: 409 naming the force and the unit with the rule's own words; nothing pinned.
        let problem = assert_problem(refused, 409);
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("Armour (Tank: ") && detail.contains("B1"), "{detail}");
        assert!(!detail.contains("platoons["), "no field paths for people: {detail}");
        assert_eq!(after_refusal["ruleset"]["id"], "fad5e");
        assert_eq!(fixed.status(), 200, "{}", fixed.text().unwrap());
        assert_eq!(changed.status(), 200, "{}", changed.text().unwrap());
        assert_eq!(get(app, &organiser, &path)["ruleset"]["id"], "fad-basic-advanced");
    }

    fn the_form_renames_a_ladders_rungs_and_adds_to_a_list(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let mut browser = signed_in(app, &organiser);
        let (form, token) = browser.page("/rulesets/new");
        let mut fields: Vec<(String, String)> = form_defaults(&form);
        let set = |fields: &mut Vec<(String, String)>, name: &str, value: &str| {
            fields.retain(|(n, _)| n != name);
            fields.push((name.to_owned(), value.to_owned()));
        };
        set(&mut fields, "csrf_token", &token);
        set(&mut fields, "slug", "renamed");
        set(&mut fields, "name", "Renamed rungs");
        set(&mut fields, "ladders.quality.names.1", "Greenhorn");
        set(&mut fields, "lists.personalities.add", "Sniper, 5 points");

        // Act
        let refused = browser.post("/rulesets/new", &pairs(&fields));
        let refused_status = refused.status();
        let refused = refused.text().unwrap();
        set(&mut fields, "lists.personalities.add", "Sniper | Hits on 5+ at any range | 5");
        let saved = browser.post("/rulesets/new", &pairs(&fields));
        let document = get(app, &organiser, "/api/v1/rulesets/club/renamed?format=document");
        let (edit, _) = browser.page("/rulesets/club/renamed/edit");

        // Assert
        assert!(form.contains(r#"name="ladders.quality.names.1""#), "a field per rung");
        assert_eq!(refused_status, 422);
        let error = error_beside(&refused, "f-lists-personalities-add").unwrap_or_default();
        assert!(error.contains("split by |"), "{refused}");
        assert!(refused.contains("Sniper, 5 points"), "the input is kept");
        assert!(refused.contains(r#"value="Greenhorn""#));
        assert_eq!(saved.status(), 303);
        assert_eq!(document["set"]["ladders.quality.names"][0], "Greenhorn", "{document}");
        assert_eq!(document["set"]["lists.personalities.add"],
            json!([{"name": "Sniper", "description": "Hits on 5+ at any range", "points": 5.0}]), "{document}");
        assert_eq!(document["set"].as_object().unwrap().len(), 2, "{document}");
        assert!(edit.contains(r#"value="Greenhorn""#) && edit.contains("Sniper | Hits on 5+ at any range | 5"), "{edit}");
    }
}

/// The name and value of every control of a page's form as it would be sent (text inputs,
/// selected options, checked checkboxes).
fn form_defaults(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let attr = |tag: &str, name: &str| -> Option<String> {
        let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[start..].split('"').next()?.to_owned())
    };
    let mut select: Option<String> = None;
    for piece in page.split('<').skip(1) {
        let tag = piece.split('>').next().unwrap_or_default();
        if tag.starts_with("input") {
            let (Some(name), kind) = (attr(tag, "name"), attr(tag, "type").unwrap_or_default())
            else {
                continue;
            };
            if kind == "checkbox" && !tag.contains(" checked") {
                continue;
            }
            out.push((name, attr(tag, "value").unwrap_or_default()));
        } else if tag.starts_with("select") {
            select = attr(tag, "name");
        } else if tag.starts_with("option") && tag.contains(" selected") {
            if let Some(name) = &select {
                out.push((name.clone(), attr(tag, "value").unwrap_or_default()));
            }
        } else if tag.starts_with("textarea") {
            if let Some(name) = attr(tag, "name") {
                out.push((name, String::new()));
            }
        }
    }
    out
}

fn pairs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect()
}

both_backends! {
    fn export_then_import_into_a_fresh_database_gives_the_same_hash_and_a_changed_document_is_refused(app: &TestApp) {
        // Arrange: a campaign under version 2 of a house ruleset.
        let organiser = register(app, "organiser");
        let v1 = created(app, &organiser, &stockholm("stockholm-fad"));
        let campaign = campaign_under(app, &organiser, Some(json!({"id": "club/stockholm-fad", "version": 1})));
        let id = campaign["id"].as_str().unwrap().to_owned();
        let dir = tempfile::tempdir().unwrap();
        let target = crate::common::TestDb::new(app.backend());
        target.migrated();

        // Act
        let text = crate::backup::export(dir.path(), "c.json", app.db.url(), &id);
        let mut tampered: Value = serde_json::from_str(&text).unwrap();
        tampered["ruleset"]["document"]["set"]["campaign.cp_per_platoon"] = json!(9);
        let tampered = crate::backup::write(dir.path(), "t.json", &tampered.to_string());
        let refused = crate::backup::import(target.url(), &tampered, &[]);
        let imported = crate::backup::import(target.url(), &dir.path().join("c.json"), &[]);
        let moved = TestApp::spawn_on(target, &[]);
        let again = crate::backup::export(dir.path(), "again.json", moved.db.url(), &id);

        // Assert
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["ruleset"]["hash"], v1["hash"]);
        assert_eq!(doc["ruleset"]["id"], "club/stockholm-fad");
        let message = crate::backup::failed(&refused);
        assert!(message.contains("ruleset.hash"), "{message}");
        crate::backup::succeeded(&imported);
        assert_eq!(again, text, "export, import, export: the same bytes");
        let stored = diesel::sql_query("SELECT COUNT(*) AS n FROM rulesets WHERE id = 'club/stockholm-fad' AND hash = $1")
            .bind::<Text, _>(v1["hash"].as_str().unwrap())
            .get_result::<Count>(&mut moved.db.connect()).unwrap().n;
        assert_eq!(stored, 1);
    }
}

/// A campaign named `name` under `ruleset` (an id, or `{id, version}`), created by `organiser`;
/// its id. Asserts that it reports the ruleset at version 1.
#[track_caller]
pub fn named_campaign_under(
    app: &TestApp,
    organiser: &TestUser,
    name: &str,
    ruleset: Value,
) -> String {
    let response = app.post_json_with_token(
        "/api/v1/campaigns",
        &json!({"name": name, "ruleset": ruleset}),
        &organiser.token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    let campaign: Value = response.json().unwrap();
    let id = ruleset.get("id").cloned().unwrap_or(ruleset);
    assert_eq!(campaign["ruleset"], json!({"id": id, "version": 1}));
    campaign["id"].as_str().unwrap().to_owned()
}

/// `POST /api/v1/campaigns/{campaign_id}/forces` with `body` as `user`.
pub fn create_force(
    app: &TestApp,
    user: &TestUser,
    campaign_id: &str,
    body: &Value,
) -> reqwest::blocking::Response {
    app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/forces"),
        body,
        &user.token,
    )
}
