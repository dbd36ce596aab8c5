//! Campaigns and membership: create, list, read,
//! settings with optimistic concurrency, invitations and joining, members, leaving, handing
//! over the organiser role, integration keys and standings. [`World`] is the shared fixture:
//! an organiser, two players and an outsider around one campaign.

use crate::auth::{TestUser, register};
use crate::common::{TestApp, assert_problem, send};
use reqwest::Method;
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Creates a campaign as `user`; returns its JSON.
#[track_caller]
pub fn create_campaign(app: &TestApp, user: &TestUser, name: &str) -> Value {
    let response =
        app.post_json_with_token("/api/v1/campaigns", &json!({"name": name}), &user.token);
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    response.json().unwrap()
}

/// Creates an invitation code for `campaign_id` as its organiser.
#[track_caller]
pub fn invite_code(app: &TestApp, organiser: &TestUser, campaign_id: &str) -> String {
    let response = app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/invites"),
        &json!({}),
        &organiser.token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    response.json::<Value>().unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Joins with `code` as `user`.
#[track_caller]
pub fn join(app: &TestApp, user: &TestUser, code: &str) -> Response {
    app.post_json_with_token(
        "/api/v1/campaigns/join",
        &json!({"code": code}),
        &user.token,
    )
}

/// Creates an integration key; returns `(key id, key)`.
#[track_caller]
pub fn create_key(app: &TestApp, organiser: &TestUser, campaign_id: &str) -> (String, String) {
    let response = app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/api-keys"),
        &json!({"name": "club website"}),
        &organiser.token,
    );
    assert_eq!(response.status(), 201, "{}", response.text().unwrap());
    let body: Value = response.json().unwrap();
    (
        body["id"].as_str().unwrap().to_owned(),
        body["key"].as_str().unwrap().to_owned(),
    )
}

/// `GET path` with `X-Api-Key: key`.
pub fn get_with_api_key(app: &TestApp, path: &str, key: &str) -> Response {
    send(app.request(Method::GET, path).header("X-Api-Key", key))
}

/// The users of a campaign test: they exist once per app.
#[derive(Clone)]
pub struct People {
    /// Creates campaigns.
    pub organiser: TestUser,
    /// Joins campaigns.
    pub player: TestUser,
    /// Joins campaigns too; owns the resources other issues create.
    pub owner: TestUser,
    /// Belongs to no campaign.
    pub outsider: TestUser,
}

impl People {
    /// Registers the four users.
    pub fn register(app: &TestApp) -> Self {
        Self {
            organiser: register(app, "organiser"),
            player: register(app, "player"),
            owner: register(app, "owner"),
            outsider: register(app, "outsider"),
        }
    }
}

/// A campaign with an organiser, two players, an unused invitation and two keys (one revoked).
#[derive(Clone)]
pub struct World {
    /// The campaign id.
    pub campaign_id: String,
    /// An unused invitation id and its code.
    pub invite_id: String,
    /// The unused code.
    pub code: String,
    /// A live key's id and the key.
    pub key_id: String,
    /// The live key.
    pub key: String,
    /// A revoked key's id.
    pub revoked_key_id: String,
    /// The revoked key.
    pub revoked_key: String,
    /// A force owned by `owner`.
    pub force_id: String,
    /// The force's first history entry.
    pub force_entry_id: String,
    /// A battle of the force against a non-player force, its draw recorded by the organiser:
    /// in `aftermath`, the force's sequence not rolled yet.
    pub battle_id: String,
    /// A battle of the force against a non-player force with no result: its scenario waits
    /// for the force's orders.
    pub scenario_battle_id: String,
    /// The slug of a house ruleset the organiser owns (`club/<slug>`), played by no campaign.
    pub ruleset_slug: String,
}

impl World {
    /// Builds a fresh campaign around `people`.
    pub fn build(app: &TestApp, people: &People) -> Self {
        let campaign = create_campaign(app, &people.organiser, "Operation Long Winter");
        let campaign_id = campaign["id"].as_str().unwrap().to_owned();
        for user in [&people.player, &people.owner] {
            let code = invite_code(app, &people.organiser, &campaign_id);
            assert_eq!(join(app, user, &code).status(), 201);
        }
        let response = app.post_json_with_token(
            &format!("/api/v1/campaigns/{campaign_id}/invites"),
            &json!({}),
            &people.organiser.token,
        );
        let invite: Value = response.json().unwrap();
        let (key_id, key) = create_key(app, &people.organiser, &campaign_id);
        let (revoked_key_id, revoked_key) = create_key(app, &people.organiser, &campaign_id);
        let revoked = app.delete_with_token(
            &format!("/api/v1/campaigns/{campaign_id}/api-keys/{revoked_key_id}"),
            &people.organiser.token,
        );
        assert_eq!(revoked.status(), 204);
        let force = crate::forces::create_force(
            app,
            &people.owner,
            &campaign_id,
            &crate::forces::small_roster("Blue Force"),
        );
        let force_id = force["id"].as_str().unwrap().to_owned();
        let history: Value = app
            .get_with_token(
                &format!("/api/v1/forces/{force_id}/history"),
                &people.owner.token,
            )
            .json()
            .unwrap();
        let force_entry_id = history["entries"][0]["id"].as_str().unwrap().to_owned();
        let battle: Value = app
            .post_json_with_token(
                &format!("/api/v1/campaigns/{campaign_id}/battles"),
                &json!({"sides": [{"force_id": force_id}, {"non_player": {"name": "Militia"}}]}),
                &people.owner.token,
            )
            .json()
            .unwrap();
        let battle_id = battle["id"].as_str().unwrap().to_owned();
        let scenario_battle: Value = app
            .post_json_with_token(
                &format!("/api/v1/campaigns/{campaign_id}/battles"),
                &json!({"sides": [{"force_id": force_id}, {"non_player": {"name": "Raiders"}}]}),
                &people.owner.token,
            )
            .json()
            .unwrap();
        let scenario_battle_id = scenario_battle["id"].as_str().unwrap().to_owned();
        let recorded = app.post_json_with_token(
            &format!("/api/v1/battles/{battle_id}/result"),
            &json!({"outcome": "draw"}),
            &people.organiser.token,
        );
        assert_eq!(recorded.status(), 200);
        let ruleset_slug = format!("w-{}", &campaign_id[..8]);
        let ruleset = app.post_json_with_token(
            "/api/v1/rulesets",
            &json!({"id": format!("club/{ruleset_slug}"), "name": "World rules",
                "extends": {"id": "fad5e", "version": 1}, "set": {"campaign.cp_per_platoon": 3}}),
            &people.organiser.token,
        );
        assert_eq!(ruleset.status(), 201, "{}", ruleset.text().unwrap());
        Self {
            ruleset_slug,
            campaign_id,
            invite_id: invite["id"].as_str().unwrap().to_owned(),
            code: invite["code"].as_str().unwrap().to_owned(),
            key_id,
            key,
            revoked_key_id,
            revoked_key,
            force_id,
            force_entry_id,
            battle_id,
            scenario_battle_id,
        }
    }
}

both_backends! {
    fn create_campaign_makes_the_caller_organiser_with_default_settings(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");

        // Act
        let response = app.post_json_with_token(
            "/api/v1/campaigns",
            &json!({"name": "  Long Winter  ", "description": "Winter 2026"}),
            &alice.token,
        );

        // Assert
        assert_eq!(response.status(), 201);
        let id = {
            let etag = response.headers().get("etag").unwrap().to_str().unwrap().to_owned();
            let location = response.headers().get("location").unwrap().to_str().unwrap().to_owned();
            let body: Value = response.json().unwrap();
            assert_eq!(etag, "\"1\"");
            assert_eq!(location, format!("/api/v1/campaigns/{}", body["id"].as_str().unwrap()));
            assert_eq!(body["name"], "Long Winter");
            assert_eq!(body["description"], "Winter 2026");
            assert_eq!(body["role"], "organiser");
            assert_eq!(body["version"], 1);
            assert_eq!(
                body["settings"],
                json!({"version": 1, "results_need_confirmation": true, "lock_rosters_after_play": true, "public_standings": false, "house_rules": {
                    "full_strength": "establishment", "lone_figure_return": "on_five_or_six",
                    "bank_campaign_points": true, "vehicle_resolve_change": false,
                    "squad_leader_experience_purchasable": false,
                    "missions_hidden": true, "strict_one_marker_per_unit": false,
                    "npf_recon_reading": "offensive_stance",
                    "squad_strength_roll": "per_player", "morale_modifier": "per_die"}})
            );
            body["id"].as_str().unwrap().to_owned()
        };
        let listed: Value = app.get_with_token("/api/v1/campaigns", &alice.token).json().unwrap();
        assert_eq!(listed["campaigns"].as_array().unwrap().len(), 1);
        assert_eq!(listed["campaigns"][0]["id"], id.as_str());
        assert_eq!(listed["next"], Value::Null);
        let members: Value = app
            .get_with_token(&format!("/api/v1/campaigns/{id}/members"), &alice.token)
            .json()
            .unwrap();
        assert_eq!(members["members"][0]["user_id"], alice.id.as_str());
        assert_eq!(members["members"][0]["username"], alice.username.as_str());
        assert_eq!(members["members"][0]["role"], "organiser");
    }

    fn create_campaign_validates_name_and_house_rules(app: &TestApp) {
        let alice = register(app, "alice");
        let problem = assert_problem(
            app.post_json_with_token("/api/v1/campaigns", &json!({"name": "   "}), &alice.token),
            422,
        );
        assert_eq!(problem["errors"][0]["field"], "name");
        let long = "x".repeat(101);
        assert_problem(
            app.post_json_with_token("/api/v1/campaigns", &json!({"name": long}), &alice.token),
            422,
        );
        let bad_rule = json!({"name": "x", "house_rules": {"full_strength": "sometimes"}});
        let status =
            app.post_json_with_token("/api/v1/campaigns", &bad_rule, &alice.token).status().as_u16();
        assert!(status == 400 || status == 422, "{status}");
        let custom = json!({"name": "x", "house_rules": {"missions_hidden": false},
                            "results_need_confirmation": false});
        let body: Value =
            app.post_json_with_token("/api/v1/campaigns", &custom, &alice.token).json().unwrap();
        assert_eq!(body["settings"]["house_rules"]["missions_hidden"], false);
        assert_eq!(body["settings"]["house_rules"]["bank_campaign_points"], true);
        assert_eq!(body["settings"]["results_need_confirmation"], false);
    }

    fn outsiders_get_404_for_a_private_campaign_and_see_it_in_no_list(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let id = &world.campaign_id;
        for path in [
            format!("/api/v1/campaigns/{id}"),
            format!("/api/v1/campaigns/{id}/members"),
            format!("/api/v1/campaigns/{id}/standings"),
            format!("/api/v1/campaigns/{id}/settings"),
        ] {
            let outsider = app.get_with_token(&path, &people.outsider.token);
            let unknown = app.get_with_token(
                &path.replace(id.as_str(), "00000000-0000-4000-8000-000000000000"),
                &people.organiser.token,
            );
            // Not theirs and not there look the same.
            assert_eq!(assert_problem(outsider, 404), assert_problem(unknown, 404), "{path}");
        }
        let listed: Value =
            app.get_with_token("/api/v1/campaigns", &people.outsider.token).json().unwrap();
        assert_eq!(listed, json!({"campaigns": [], "next": null}));
    }

    fn settings_change_needs_the_current_version_and_keeps_stale_writes_out(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let id = create_campaign(app, &alice, "c")["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{id}/settings");
        let change = json!({"version": 1, "house_rules": {"bank_campaign_points": false},
                            "results_need_confirmation": false});

        // Act
        let first = app.put_json_with_token(&path, &change, &alice.token);
        let stale_body = app.put_json_with_token(&path, &change, &alice.token);
        let stale_header = send(
            app.request(Method::PUT, &path)
                .bearer_auth(&alice.token)
                .header("If-Match", "\"1\"")
                .json(&json!({"house_rules": {}})),
        );
        let no_version = app.put_json_with_token(&path, &json!({"house_rules": {}}), &alice.token);

        // Assert
        assert_eq!(first.status(), 200);
        assert_eq!(first.headers().get("etag").unwrap(), "\"2\"");
        let body: Value = first.json().unwrap();
        assert_eq!(body["version"], 2);
        assert_eq!(body["house_rules"]["bank_campaign_points"], false);
        assert_eq!(body["results_need_confirmation"], false);
        assert_problem(stale_body, 409);
        assert_problem(stale_header, 412);
        assert_problem(no_version, 422);
        let read: Value = app.get_with_token(&path, &alice.token).json().unwrap();
        assert_eq!(read, body, "stale writes changed nothing");
        let fresh = send(
            app.request(Method::PUT, &path)
                .bearer_auth(&alice.token)
                .header("If-Match", "\"2\"")
                .json(&json!({})),
        );
        assert_eq!(fresh.status(), 200);
        let reset: Value = fresh.json().unwrap();
        assert_eq!(reset["version"], 3);
        assert_eq!(reset["house_rules"]["bank_campaign_points"], true, "PUT replaces");
    }

    fn invitation_codes_join_as_player_until_used_up_expired_or_revoked(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let id = create_campaign(app, &people.organiser, "c")["id"].as_str().unwrap().to_owned();
        let invites = format!("/api/v1/campaigns/{id}/invites");
        let limited: Value = app
            .post_json_with_token(&invites, &json!({"max_uses": 1}), &people.organiser.token)
            .json()
            .unwrap();
        assert_eq!(limited["max_uses"], 1);
        let code = limited["code"].as_str().unwrap();
        assert_eq!(code.len(), 9, "XXXX-XXXX: {code}");

        // Act and assert: one use, then 404 for the next person; a second join is 409.
        let joined = join(app, &people.player, code);
        assert_eq!(joined.status(), 201);
        let membership: Value = joined.json().unwrap();
        assert_eq!(membership["role"], "player");
        assert_eq!(membership["campaign_id"], id.as_str());
        assert_eq!(membership["user_id"], people.player.id.as_str());
        assert_problem(join(app, &people.owner, code), 404);
        let another = invite_code(app, &people.organiser, &id);
        assert_problem(join(app, &people.player, &another), 409);
        assert_problem(join(app, &people.owner, "0123456789abcdef0123456789abcdef01234567"), 404);

        // Revoked codes stop working.
        let revocable: Value =
            app.post_json_with_token(&invites, &json!({}), &people.organiser.token).json().unwrap();
        let revoke = app.delete_with_token(
            &format!("{invites}/{}", revocable["id"].as_str().unwrap()),
            &people.organiser.token,
        );
        assert_eq!(revoke.status(), 204);
        assert_problem(join(app, &people.owner, revocable["code"].as_str().unwrap()), 404);

        // The list shows uses and revocation, and the code and link of an invitation that
        // still works only (the organiser copies it again); a used-up or revoked one has none.
        let listed: Value = app.get_with_token(&invites, &people.organiser.token).json().unwrap();
        let listed = listed["invites"].as_array().unwrap();
        assert_eq!(listed.len(), 3);
        for invite in listed {
            let works = invite["revoked_at"].is_null() && invite["max_uses"] != invite["uses"];
            assert_eq!(invite.get("code").is_some(), works, "{invite}");
            assert_eq!(invite.get("url").is_some(), works, "{invite}");
            if works {
                let code = invite["code"].as_str().unwrap();
                assert!(invite["url"].as_str().unwrap().ends_with(&format!("/join/{code}")), "{invite}");
            }
        }
        assert!(listed.iter().any(|i| i["code"] == another.as_str()), "the open code is listed again");
        assert!(listed.iter().any(|i| i["uses"] == 1 && i["max_uses"] == 1));
        assert!(listed.iter().any(|i| i["revoked_at"].is_string()));

        // Expiry bounds are validated.
        for body in [json!({"expires_in_seconds": 59}), json!({"max_uses": 0})] {
            assert_problem(app.post_json_with_token(&invites, &body, &people.organiser.token), 422);
        }
    }

    fn expired_invitation_codes_get_404(app: &TestApp) {
        use diesel::prelude::*;
        let people = People::register(app);
        let id = create_campaign(app, &people.organiser, "c")["id"].as_str().unwrap().to_owned();
        let code = invite_code(app, &people.organiser, &id);
        let past = chrono::Utc::now().naive_utc() - chrono::TimeDelta::seconds(1);
        let mut conn = app.db.connect();
        diesel::update(fad_api::schema::invites::table)
            .set(fad_api::schema::invites::expires_at.eq(past))
            .execute(&mut conn)
            .unwrap();
        assert_problem(join(app, &people.player, &code), 404);
    }

    fn members_leave_and_the_organiser_removes_and_hands_over(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let id = &world.campaign_id;
        let members = format!("/api/v1/campaigns/{id}/members");

        // The organiser cannot leave or remove themself.
        assert_problem(
            app.post_json_with_token(&format!("/api/v1/campaigns/{id}/leave"), &json!({}), &people.organiser.token),
            409,
        );
        assert_problem(
            app.delete_with_token(&format!("{members}/{}", people.organiser.id), &people.organiser.token),
            409,
        );

        // A player leaves; the organiser removes another.
        let left = app.post_json_with_token(&format!("/api/v1/campaigns/{id}/leave"), &json!({}), &people.player.token);
        assert_eq!(left.status(), 204);
        assert_problem(app.get_with_token(&format!("/api/v1/campaigns/{id}"), &people.player.token), 404);
        assert_problem(
            app.delete_with_token(&format!("{members}/{}", people.outsider.id), &people.organiser.token),
            404,
        );

        // Hand over to the owner: the old organiser becomes a player.
        assert_problem(
            app.post_json_with_token(
                &format!("/api/v1/campaigns/{id}/organiser"),
                &json!({"user_id": people.outsider.id}),
                &people.organiser.token,
            ),
            422,
        );
        let handed = app.post_json_with_token(
            &format!("/api/v1/campaigns/{id}/organiser"),
            &json!({"user_id": people.owner.id}),
            &people.organiser.token,
        );
        assert_eq!(handed.status(), 200);
        assert_eq!(handed.json::<Value>().unwrap()["role"], "organiser");
        let listed: Value = app.get_with_token(&members, &people.owner.token).json().unwrap();
        let roles: Vec<(String, String)> = listed["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["username"].as_str().unwrap().into(), m["role"].as_str().unwrap().into()))
            .collect();
        assert_eq!(roles, [("owner".into(), "organiser".into()), ("organiser".into(), "player".into())]);
        let campaign: Value =
            app.get_with_token(&format!("/api/v1/campaigns/{id}"), &people.organiser.token).json().unwrap();
        assert_eq!(campaign["role"], "player");
        // The new organiser removes the old one.
        let removed = app.delete_with_token(&format!("{members}/{}", people.organiser.id), &people.owner.token);
        assert_eq!(removed.status(), 204);
        assert_problem(app.get_with_token(&members, &people.organiser.token), 404);
    }

    fn integration_keys_are_shown_once_hashed_and_read_only_standings(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let id = &world.campaign_id;
        assert!(world.key.starts_with("fad_") && world.key.len() == 4 + 64, "{}", world.key);

        // Act
        let by_header = get_with_api_key(app, &format!("/api/v1/campaigns/{id}/standings"), &world.key);
        let by_bearer = app.get_with_token(&format!("/api/v1/campaigns/{id}/standings"), &world.key);

        // Assert
        assert_eq!(by_header.status(), 200);
        let standings: Value = by_header.json().unwrap();
        // The world's one force, with zeros: its battle has not completed.
        assert_eq!(standings["campaign_id"], id.as_str());
        let rows = standings["forces"].as_array().unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["force_id"], world.force_id.as_str());
        for figure in ["battles", "wins", "draws", "losses", "campaign_points"] {
            assert_eq!(rows[0][figure], 0, "{figure}");
        }
        assert_eq!(by_bearer.status(), 200);
        assert_problem(get_with_api_key(app, &format!("/api/v1/campaigns/{id}/standings"), &world.revoked_key), 401);
        assert_problem(get_with_api_key(app, &format!("/api/v1/campaigns/{id}/standings"), "fad_0000"), 401);
        // Both credentials at once are refused rather than guessed between.
        let both = send(
            app.request(Method::GET, &format!("/api/v1/campaigns/{id}/standings"))
                .bearer_auth(&people.organiser.token)
                .header("X-Api-Key", &world.key),
        );
        assert_problem(both, 401);

        // Keys list without the key, with last use recorded.
        let keys: Value = app
            .get_with_token(&format!("/api/v1/campaigns/{id}/api-keys"), &people.organiser.token)
            .json()
            .unwrap();
        let keys = &keys["api_keys"];
        let live = keys.as_array().unwrap().iter().find(|k| k["id"] == world.key_id.as_str()).unwrap();
        assert!(live.get("key").is_none());
        assert_eq!(live["key_prefix"], &world.key[..12]);
        assert!(live["last_used_at"].is_string(), "{live}");
        assert!(live["revoked_at"].is_null());
        let revoked = keys.as_array().unwrap().iter().find(|k| k["id"] == world.revoked_key_id.as_str()).unwrap();
        assert!(revoked["revoked_at"].is_string());

        // Stored as SHA-256 only.
        use diesel::prelude::*;
        use sha2::Digest;
        let mut conn = app.db.connect();
        let hashes: Vec<String> = fad_api::schema::api_keys::table
            .select(fad_api::schema::api_keys::key_hash)
            .load(&mut conn)
            .unwrap();
        assert!(hashes.contains(&hex::encode(sha2::Sha256::digest(world.key.as_bytes()))));
        assert!(!hashes.iter().any(|h| h.contains(&world.key[4..])));
    }

    fn a_key_reads_only_its_own_campaign(app: &TestApp) {
        let people = People::register(app);
        let first = World::build(app, &people);
        let second = World::build(app, &people);
        let other = format!("/api/v1/campaigns/{}/standings", second.campaign_id);
        assert_problem(get_with_api_key(app, &other, &first.key), 404);
        assert_eq!(get_with_api_key(app, &other, &second.key).status(), 200);
    }

    fn revoking_an_unknown_or_foreign_key_is_404_and_twice_is_harmless(app: &TestApp) {
        let people = People::register(app);
        let first = World::build(app, &people);
        let second = World::build(app, &people);
        let foreign = format!("/api/v1/campaigns/{}/api-keys/{}", first.campaign_id, second.key_id);
        assert_problem(app.delete_with_token(&foreign, &people.organiser.token), 404);
        let again = format!("/api/v1/campaigns/{}/api-keys/{}", first.campaign_id, first.revoked_key_id);
        assert_eq!(app.delete_with_token(&again, &people.organiser.token).status(), 204);
    }
}

both_backends! {
    fn refusals_have_exact_problem_bodies(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let id = &world.campaign_id;
        let outsider = app.get_with_token(&format!("/api/v1/campaigns/{id}"), &people.outsider.token);
        assert_eq!(
            outsider.text().unwrap(),
            r#"{"type":"/problems/not-found","title":"Not Found","status":404,"detail":"No such campaign."}"#
        );
        let player = app.get_with_token(&format!("/api/v1/campaigns/{id}/invites"), &people.player.token);
        assert_eq!(
            player.text().unwrap(),
            r#"{"type":"/problems/forbidden","title":"Forbidden","status":403,"detail":"Only the campaign's organiser may do this."}"#
        );
        let key = send(
            app.request(Method::POST, "/api/v1/campaigns")
                .header("X-Api-Key", &world.key)
                .json(&json!({"name": "x"})),
        );
        assert_eq!(
            key.text().unwrap(),
            r#"{"type":"/problems/forbidden","title":"Forbidden","status":403,"detail":"Integration keys are read-only."}"#
        );
        let anonymous = app.get("/api/v1/campaigns");
        assert_eq!(anonymous.headers().get("www-authenticate").unwrap(), "Bearer");
        assert_eq!(
            anonymous.text().unwrap(),
            r#"{"type":"/problems/unauthorized","title":"Unauthorized","status":401,"detail":"Authentication required: send `Authorization: Bearer <token>` with the access token from login."}"#
        );
    }
}

mod cors {
    use super::*;
    use crate::common::Backend;

    fn club_site_reads_standings_cross_origin(backend: Backend) {
        // Arrange
        let app = TestApp::spawn_with(backend, &[("FAD_CORS_ORIGINS", "https://club.example")]);
        let people = People::register(&app);
        let world = World::build(&app, &people);
        let path = format!("/api/v1/campaigns/{}/standings", world.campaign_id);

        // Act
        let preflight = send(
            app.request(Method::OPTIONS, &path)
                .header("Origin", "https://club.example")
                .header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "x-api-key"),
        );
        let read = send(
            app.request(Method::GET, &path)
                .header("Origin", "https://club.example")
                .header("X-Api-Key", &world.key),
        );
        let elsewhere = send(
            app.request(Method::GET, &path)
                .header("Origin", "https://evil.example")
                .header("X-Api-Key", &world.key),
        );

        // Assert
        assert!(preflight.status().is_success(), "{}", preflight.status());
        assert_eq!(
            preflight
                .headers()
                .get("access-control-allow-origin")
                .unwrap(),
            "https://club.example"
        );
        let allowed = preflight
            .headers()
            .get("access-control-allow-headers")
            .unwrap();
        assert!(
            allowed
                .to_str()
                .unwrap()
                .to_ascii_lowercase()
                .contains("x-api-key")
        );
        assert_eq!(read.status(), 200);
        assert_eq!(
            read.headers().get("access-control-allow-origin").unwrap(),
            "https://club.example"
        );
        assert!(
            elsewhere
                .headers()
                .get("access-control-allow-origin")
                .is_none()
        );
    }

    fn no_origin_is_allowed_by_default(backend: Backend) {
        let app = TestApp::spawn(backend);
        let response = send(
            app.request(Method::GET, "/api/v1/me")
                .header("Origin", "https://club.example"),
        );
        assert!(
            response
                .headers()
                .get("access-control-allow-origin")
                .is_none()
        );
    }

    #[test]
    fn club_site_reads_standings_cross_origin_sqlite() {
        club_site_reads_standings_cross_origin(Backend::Sqlite);
    }

    #[test]
    fn club_site_reads_standings_cross_origin_postgres() {
        club_site_reads_standings_cross_origin(Backend::Postgres);
    }

    #[test]
    fn no_origin_is_allowed_by_default_sqlite() {
        no_origin_is_allowed_by_default(Backend::Sqlite);
    }

    #[test]
    fn no_origin_is_allowed_by_default_postgres() {
        no_origin_is_allowed_by_default(Backend::Postgres);
    }
}

both_backends! {
    fn organiser_renames_a_campaign_from_the_current_version_only(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let created = app.post_json_with_token(
            "/api/v1/campaigns",
            &json!({"name": "Old", "description": "text"}),
            &alice.token,
        );
        let id = created.json::<Value>().unwrap()["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{id}");
        let patch = |body: Value, if_match: Option<&str>| {
            let mut request = app.request(Method::PATCH, &path).bearer_auth(&alice.token).json(&body);
            if let Some(tag) = if_match {
                request = request.header("If-Match", tag);
            }
            send(request)
        };

        // Act
        let renamed = patch(json!({"version": 1, "name": " New "}), None);
        let stale = patch(json!({"version": 1, "name": "Stale"}), None);
        let stale_tag = patch(json!({"name": "Stale"}), Some("\"1\""));
        let invalid = patch(json!({"version": 2, "name": ""}), None);
        let cleared = patch(json!({"description": ""}), Some("\"2\""));

        // Assert
        assert_eq!(renamed.status(), 200);
        assert_eq!(renamed.headers().get("etag").unwrap(), "\"2\"");
        let body: Value = renamed.json().unwrap();
        assert_eq!((body["name"].as_str(), body["description"].as_str()), (Some("New"), Some("text")));
        assert_problem(stale, 409);
        assert_problem(stale_tag, 412);
        assert_eq!(assert_problem(invalid, 422)["errors"][0]["field"], "name");
        assert_eq!(cleared.status(), 200);
        let body: Value = cleared.json().unwrap();
        assert_eq!((body["name"].as_str(), body["version"].as_i64()), (Some("New"), Some(3)));
        assert!(body["description"].is_null());
        let read: Value = app.get_with_token(&path, &alice.token).json().unwrap();
        assert_eq!(read, body);
    }
}
