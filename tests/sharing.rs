//! Sharing and names: a battle side's share link (the same until revoked, showing that side's
//! view and never the opponent's hidden choices, refused to those who may not see the side),
//! the one-shot scenarios list and their share links read again, short invitation codes with
//! their join URL, display names on what players and integration keys read. Both backends.

use reqwest::Method;
use serde_json::{Value, json};

use crate::auth::TestUser;
use crate::battle_scenarios::Game;
use crate::campaigns::{People, World, join};
use crate::common::{TestApp, assert_problem, ok, send};

/// Asks for `force_id`'s share link of the game's battle as `user`; returns status and body.
fn share(app: &TestApp, g: &Game, user: &TestUser, force_id: &str) -> (u16, Value) {
    let r = app.post_json_with_token(
        &format!("/api/v1/battles/{}/scenario/share", g.battle),
        &json!({"force_id": force_id}),
        &user.token,
    );
    let status = r.status().as_u16();
    (status, r.json().unwrap_or(Value::Null))
}

/// The path of a share link (tests call the server by its own address).
fn path_of(url: &Value) -> String {
    let url = url.as_str().unwrap();
    assert!(url.starts_with("/sheets/shared/"), "{url}");
    url.to_owned()
}

/// Opens a share link without credentials: status and body.
fn open(app: &TestApp, path: &str) -> (u16, String) {
    let r = send(app.request(Method::GET, path));
    (r.status().as_u16(), r.text().unwrap())
}

fn orders(app: &TestApp, g: &Game, user: &TestUser, body: &Value) {
    let r = app.post_json_with_token(
        &format!("/api/v1/battles/{}/scenario/orders", g.battle),
        body,
        &user.token,
    );
    assert!(r.status().is_success(), "{}", r.text().unwrap());
}

fn revoke(app: &TestApp, g: &Game, user: &TestUser, query: &str, body: Option<Value>) -> u16 {
    let mut request = app
        .request(
            Method::DELETE,
            &format!("/api/v1/battles/{}/scenario/share{query}", g.battle),
        )
        .bearer_auth(&user.token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    send(request).status().as_u16()
}

both_backends! {
    fn a_shared_sheet_shows_its_side_and_never_the_opponents_hidden_choices(app: &TestApp) {
        // Arrange: Blue (owner) and Red (player) each share their side's sheet.
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let (blue_user, red_user) = (&g.people.owner, &g.people.player);
        let (status, first) = share(app, &g, blue_user, &blue);
        assert_eq!(status, 201, "{first}");
        let (status, again) = share(app, &g, blue_user, &blue);
        assert_eq!((status, &again), (200, &first), "the same link until revoked");
        let blue_link = path_of(&first["url"]);
        let token = blue_link.rsplit('/').next().unwrap();
        assert!(token.len() >= 43, "at least 256 bits: {token}");
        let (status, red_share) = share(app, &g, red_user, &red);
        assert_eq!(status, 201);
        let red_link = path_of(&red_share["url"]);
        assert_ne!(blue_link, red_link);
        let (status, red_before) = open(app, &red_link);
        assert_eq!(status, 200, "{red_before}");
        let passive = "<th>Attitude</th><td>passive</td>";
        assert!(!red_before.contains(passive), "{red_before}");

        // Act: Blue's hidden orders (Defensive, Passive).
        orders(app, &g, blue_user, &json!({"force_id": blue, "stance": "defensive", "attitude": "passive"}));

        // Assert: Blue's link shows Blue's orders; Red's link shows none of them.
        let (_, blue_sheet) = open(app, &blue_link);
        assert!(blue_sheet.contains(passive), "Blue's own sheet shows its orders: {blue_sheet}");
        let (status, red_after) = open(app, &red_link);
        assert_eq!(status, 200);
        assert!(!red_after.contains(passive), "Red's shared sheet shows Blue's orders: {red_after}");
        assert!(!red_after.contains("<th>Stance</th><td>defensive</td>"), "{red_after}");
        // Red's orders close the step: both sheets now show what the rules revealed.
        orders(app, &g, red_user, &json!({"force_id": red, "stance": "offensive", "attitude": "aggressive"}));
        let (_, red_revealed) = open(app, &red_link);
        assert!(red_revealed.contains(passive), "revealed after both orders: {red_revealed}");
    }

    fn revoking_a_link_makes_it_404_and_sharing_again_makes_a_new_one(app: &TestApp) {
        // Arrange
        let g = Game::new(app);
        let blue = g.blue_id();
        let owner = &g.people.owner;
        let (_, first) = share(app, &g, owner, &blue);
        let first = path_of(&first["url"]);
        assert_eq!(open(app, &first).0, 200);

        // Act and assert: revoke with a body, then with the query string.
        assert_eq!(revoke(app, &g, owner, "", Some(json!({"force_id": blue}))), 204);
        let (status, body) = open(app, &first);
        assert_eq!(status, 404, "{body}");
        assert_eq!(revoke(app, &g, owner, "", Some(json!({"force_id": blue}))), 204, "again: nothing to do");
        let (status, second) = share(app, &g, owner, &blue);
        assert_eq!(status, 201);
        let second = path_of(&second["url"]);
        assert_ne!(first, second, "a revoked link never comes back");
        assert_eq!(open(app, &second).0, 200);
        assert_eq!(revoke(app, &g, owner, &format!("?force_id={blue}"), None), 204);
        assert_eq!(open(app, &second).0, 404);
        assert_eq!(open(app, &first).0, 404);
        assert_eq!(revoke(app, &g, owner, "", None), 422, "which side?");
        assert_eq!(revoke(app, &g, owner, &format!("?force_id={}", g.red_id()), Some(json!({"force_id": blue}))), 422);
    }

    fn only_those_who_see_a_side_in_full_may_share_or_revoke_it(app: &TestApp) {
        // Arrange
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let people = &g.people;
        let path = format!("/api/v1/battles/{}/scenario/share", g.battle);
        let body = json!({"force_id": blue});
        let (_, link) = share(app, &g, &people.owner, &blue);
        let link = path_of(&link["url"]);

        // Act and assert: the other player, an outsider, the key.
        assert_eq!(share(app, &g, &people.player, &blue).0, 403, "the opponent");
        assert_eq!(revoke(app, &g, &people.player, "", Some(body.clone())), 403);
        assert_eq!(share(app, &g, &people.outsider, &blue).0, 404, "an outsider");
        assert_eq!(revoke(app, &g, &people.outsider, "", Some(body.clone())), 404);
        for method in [Method::POST, Method::DELETE] {
            let r = send(app.request(method.clone(), &path).header("X-Api-Key", &g.world.key).json(&body));
            assert_problem(r, 403);
            let r = send(app.request(method, &path).json(&body));
            assert_problem(r, 401);
        }
        assert_eq!(open(app, &link).0, 200, "refusals revoke nothing");
        // Not a side, or no such battle.
        let (status, problem) = share(app, &g, &people.owner, "no-such-force");
        assert_eq!(status, 422, "{problem}");
        assert!(problem.to_string().contains("force_id"), "{problem}");
        let r = app.post_json_with_token("/api/v1/battles/no-such-battle/scenario/share", &body, &people.owner.token);
        assert_problem(r, 404);
        // The organiser plays neither side: a referee may share and revoke either.
        let (status, referee) = share(app, &g, &people.organiser, &red);
        assert_eq!(status, 201, "{referee}");
        assert_eq!(share(app, &g, &people.organiser, &blue).1["url"], json!(link), "the owner's link");
        assert_eq!(revoke(app, &g, &people.organiser, "", Some(body)), 204);
        assert_eq!(open(app, &link).0, 404);
        // A made-up token.
        assert_eq!(open(app, "/sheets/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").0, 404);
    }

    fn one_shot_scenarios_are_listed_newest_first_with_their_share_links(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let user = &people.player;
        let body = |share: bool| json!({"share": share, "sides": [
            {"name": "A", "units": [{"name": "S", "kind": "squad"}], "stance": "neutral", "attitude": "passive"},
            {"name": "B", "units": [{"name": "S", "kind": "squad"}], "non_player": true}]});
        let shared = ok(app.post_json_with_token("/api/v1/scenarios", &body(true), &user.token));
        let private = ok(app.post_json_with_token("/api/v1/scenarios", &body(false), &user.token));
        ok(app.post_json_with_token("/api/v1/scenarios", &body(false), &people.outsider.token));
        let share_url = shared["share_url"].as_str().unwrap().to_owned();

        // Act
        let read = ok(app.get_with_token(&format!("/api/v1/scenarios/{}", shared["id"].as_str().unwrap()), &user.token));
        let list = ok(app.get_with_token("/api/v1/scenarios", &user.token));
        let first = ok(app.get_with_token("/api/v1/scenarios?limit=1", &user.token));
        let next = first["next"].as_str().unwrap();
        let second = ok(app.get_with_token(&format!("/api/v1/scenarios?limit=1&after={next}"), &user.token));

        // Assert: the link reads again, the list is the caller's own, newest first.
        assert_eq!(read["share_url"], share_url.as_str());
        assert_eq!(read["share_api_url"], shared["share_api_url"]);
        assert_eq!(open(app, &share_url).0, 200);
        let ids: Vec<&Value> = list["scenarios"].as_array().unwrap().iter().map(|s| &s["id"]).collect();
        assert_eq!(ids, [&private["id"], &shared["id"]], "{list}");
        assert_eq!(list["scenarios"][1]["share_url"], share_url.as_str());
        assert_eq!(list["scenarios"][1]["shared"], true);
        assert!(list["scenarios"][0].get("share_url").is_none(), "{list}");
        assert_eq!(list["scenarios"][0]["forces"][0]["name"], "A");
        assert_eq!(list["next"], Value::Null);
        assert_eq!(first["scenarios"][0]["id"], private["id"]);
        assert_eq!(second["scenarios"][0]["id"], shared["id"]);
        assert_eq!(second["next"], Value::Null);
        assert_problem(app.get_with_token("/api/v1/scenarios?limit=0", &user.token), 400);
    }

    fn invitation_codes_are_short_and_join_in_any_case_with_or_without_the_dash(app: &TestApp) {
        // Arrange
        let people = People::register(app);
        let world = World::build(app, &people);
        let invites = format!("/api/v1/campaigns/{}/invites", world.campaign_id);
        let invite = ok(app.post_json_with_token(&invites, &json!({}), &people.organiser.token));
        let code = invite["code"].as_str().unwrap();

        // Assert: XXXX-XXXX in Crockford's alphabet, and its join page.
        let crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        assert_eq!(code.len(), 9, "{code}");
        assert_eq!(&code[4..5], "-");
        assert!(code.chars().filter(|c| *c != '-').all(|c| crockford.contains(c)), "{code}");
        assert_eq!(invite["url"], format!("/join/{code}"));

        // Act and assert: lower case without the dash joins.
        let typed = code.replace('-', "").to_lowercase();
        let joined = join(app, &people.outsider, &typed);
        assert_eq!(joined.status(), 201, "{}", joined.text().unwrap());
        assert_problem(join(app, &people.outsider, code), 409);
        // The world's own codes (made the same way) still join; a wrong short code does not.
        assert_problem(join(app, &people.outsider, "0000-0000"), 404);
    }

    fn display_names_show_on_members_forces_battles_and_standings_and_keys_read_them(app: &TestApp) {
        // Arrange: Blue's owner picks a display name; Red's owner keeps the username.
        let g = Game::new(app);
        let campaign = &g.world.campaign_id;
        let owner = &g.people.owner;
        let me = ok(send(app.request(Method::PATCH, "/api/v1/me").bearer_auth(&owner.token)
            .json(&json!({"display_name": "  Captain Blue "}))));
        assert_eq!(me["display_name"], "Captain Blue");
        assert_eq!(me["username"], owner.username.as_str());
        let long = "x".repeat(51);
        let bad = send(app.request(Method::PATCH, "/api/v1/me").bearer_auth(&owner.token)
            .json(&json!({"display_name": long})));
        assert!(assert_problem(bad, 422).to_string().contains("display_name"));
        let red_name = g.people.player.username.as_str();

        // Act
        let member = ok(app.get_with_token(&format!("/api/v1/campaigns/{campaign}/members"), &owner.token));
        let by_key = |path: &str| ok(send(app.request(Method::GET, path).header("X-Api-Key", &g.world.key)));
        let members = by_key(&format!("/api/v1/campaigns/{campaign}/members"));
        let campaign_read = by_key(&format!("/api/v1/campaigns/{campaign}"));
        let forces = by_key(&format!("/api/v1/campaigns/{campaign}/forces"));
        let force = by_key(&format!("/api/v1/forces/{}", g.blue_id()));
        let battle = by_key(&format!("/api/v1/battles/{}", g.battle));
        let battles = by_key(&format!("/api/v1/campaigns/{campaign}/battles"));
        let standings = by_key(&format!("/api/v1/campaigns/{campaign}/standings"));

        // Assert
        let names = |list: &Value, key: &str| -> Vec<String> {
            list[key].as_array().unwrap().iter().map(|m| m["display_name"].as_str().unwrap().to_owned()).collect()
        };
        assert!(names(&member, "members").contains(&"Captain Blue".to_owned()), "{member}");
        assert!(member["members"][0]["username"].is_string(), "members see usernames");
        assert!(names(&members, "members").contains(&"Captain Blue".to_owned()), "{members}");
        assert!(members["members"].as_array().unwrap().iter().all(|m| m.get("username").is_none()), "{members}");
        assert_eq!(campaign_read["name"], "Operation Long Winter");
        assert!(campaign_read.get("role").is_none(), "{campaign_read}");
        assert!(campaign_read["settings"]["house_rules"].is_object(), "{campaign_read}");
        let owner_of = |list: &Value, id: &str| list["forces"].as_array().unwrap().iter()
            .find(|f| f["id"] == id || f["force_id"] == id).unwrap()["owner_name"].clone();
        assert_eq!(owner_of(&forces, &g.blue_id()), "Captain Blue");
        assert_eq!(owner_of(&forces, &g.red_id()), red_name);
        assert_eq!(force["owner_name"], "Captain Blue");
        assert_eq!(battle["sides"][0]["owner_name"], "Captain Blue", "{battle}");
        assert_eq!(battle["sides"][1]["owner_name"], red_name);
        let listed = battles["battles"].as_array().unwrap().iter().find(|b| b["id"] == g.battle.as_str()).unwrap();
        assert_eq!(listed["sides"][0]["owner_name"], "Captain Blue");
        assert_eq!(owner_of(&standings, &g.blue_id()), "Captain Blue");
        // The name is the server's to fill in.
        let r = app.post_json_with_token(&format!("/api/v1/campaigns/{campaign}/battles"),
            &json!({"sides": [{"force_id": g.blue_id(), "owner_name": "Someone Else"}, {"force_id": g.red_id()}]}),
            &owner.token);
        assert!(assert_problem(r, 422).to_string().contains("sides[0].owner_name"));
        // A blank name shows the username again; a name is given at registration too.
        let me = ok(send(app.request(Method::PATCH, "/api/v1/me").bearer_auth(&owner.token)
            .json(&json!({"display_name": null}))));
        assert_eq!(me["display_name"], owner.username.as_str());
        let r = app.post_json("/api/v1/auth/register", &json!({"username": "dora",
            "password": crate::auth::PASSWORD, "display_name": "Dora the Brave"}));
        assert_eq!(ok(r)["display_name"], "Dora the Brave");
    }
}

/// Joining spends the address's sign-in quota: beyond it, 429 with `Retry-After`.
mod join_attempts {
    use super::*;
    use crate::auth::register;
    use crate::common::Backend;

    fn limited(backend: Backend) {
        // Arrange: 4 attempts a minute per address (registering and signing in spend 2).
        let app = TestApp::spawn_with(
            backend,
            &[
                ("FAD_AUTH_RATE_PER_MINUTE", "1"),
                ("FAD_AUTH_RATE_BURST", "4"),
            ],
        );
        let user = register(&app, "guesser");

        // Act: guess codes.
        let first = join(&app, &user, "0000-0000");
        let second = join(&app, &user, "0000-0001");
        let third = join(&app, &user, "0000-0002");

        // Assert: wrong codes get 404 until the quota is spent, then 429 with Retry-After.
        assert_problem(first, 404);
        assert_problem(second, 404);
        let retry_after: u64 = third
            .headers()
            .get("retry-after")
            .expect("Retry-After")
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry_after), "{retry_after}");
        assert_problem(third, 429);
    }

    #[test]
    fn guessing_codes_gets_429_with_retry_after_beyond_the_limit_sqlite() {
        limited(Backend::Sqlite);
    }

    #[test]
    fn guessing_codes_gets_429_with_retry_after_beyond_the_limit_postgres() {
        limited(Backend::Postgres);
    }
}
