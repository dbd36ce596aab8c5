//! Side channels on a battle's secrets: when a side makes a hidden choice (orders, orders
//! again, mission bonuses before the dice, a tie's mission choice, an Assault target, entered
//! dice), nothing the opponent or the campaign's integration key can fetch changes: every
//! status, header and body byte stays the same, nor does the opponent's shared sheet (opened
//! through its share link). A non-player side's chosen stance and attitude
//! stay out of battle reads, lists and the timeline until the rules reveal them. Both backends.

use std::collections::BTreeMap;

use reqwest::Method;
use serde_json::{Value, json};

use crate::auth::TestUser;
use crate::battle_scenarios::Game;
use crate::campaigns::{People, World};
use crate::common::{TestApp, send, unit_id};

/// One fetch: status, headers, body.
type Fetched = (u16, BTreeMap<String, String>, String);

fn fetch(app: &TestApp, path: &str, auth: Auth) -> Fetched {
    let request = app.request(Method::GET, path);
    let request = match auth {
        Auth::Token(token) => request.bearer_auth(token),
        Auth::Key(key) => request.header("X-Api-Key", key),
    };
    let response = send(request);
    let status = response.status().as_u16();
    // `Date` is the clock's; the CORS list's order is the server's, not the data's.
    let headers = response
        .headers()
        .iter()
        .filter(|(k, _)| *k != "date")
        .map(|(k, v)| {
            let mut value = v.to_str().unwrap_or("?").to_owned();
            if k == "access-control-expose-headers" {
                let mut names: Vec<&str> = value.split(',').map(str::trim).collect();
                names.sort_unstable();
                value = names.join(", ");
            }
            (k.as_str().to_owned(), value)
        })
        .collect();
    (status, headers, response.text().unwrap())
}

#[derive(Clone, Copy)]
enum Auth<'a> {
    Token(&'a str),
    Key(&'a str),
}

/// Everything `opponent` and the key can fetch about the campaign, its battle and its forces.
fn capture(app: &TestApp, g: &Game, opponent: &TestUser) -> BTreeMap<String, Fetched> {
    let campaign = &g.world.campaign_id;
    let battle = &g.battle;
    let mut paths = vec![
        format!("/api/v1/battles/{battle}"),
        format!("/api/v1/battles/{battle}/scenario"),
        format!("/api/v1/battles/{battle}/scenario/sheet"),
        format!("/api/v1/campaigns/{campaign}"),
        format!("/api/v1/campaigns/{campaign}/battles"),
        format!("/api/v1/campaigns/{campaign}/timeline"),
        format!("/api/v1/campaigns/{campaign}/standings"),
        format!("/api/v1/campaigns/{campaign}/forces"),
    ];
    for force in [g.blue_id(), g.red_id()] {
        for tail in ["", "/history", "/ledger", "/export"] {
            paths.push(format!("/api/v1/forces/{force}{tail}"));
        }
    }
    let mut out = BTreeMap::new();
    // The opponent's side's share link, opened without credentials (the same link every time).
    let own_side = if opponent.id == g.people.player.id {
        g.red_id()
    } else {
        g.blue_id()
    };
    let shared = app.post_json_with_token(
        &format!("/api/v1/battles/{battle}/scenario/share"),
        &serde_json::json!({"force_id": own_side}),
        &opponent.token,
    );
    assert!(shared.status().is_success());
    let link = shared.json::<Value>().unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = send(app.request(Method::GET, &link));
    let status = response.status().as_u16();
    out.insert(
        "the opponent's shared sheet".to_owned(),
        (status, BTreeMap::new(), response.text().unwrap()),
    );
    for path in &paths {
        out.insert(
            format!("{path} as the opponent"),
            fetch(app, path, Auth::Token(&opponent.token)),
        );
        out.insert(
            format!("{path} with the key"),
            fetch(app, path, Auth::Key(&g.world.key)),
        );
    }
    out
}

/// Runs `act` (a side's hidden choice) and asserts that nothing `opponent` or the key can
/// fetch changed. Headers that differ between two fetches before `act` are noise.
#[track_caller]
fn unchanged(app: &TestApp, g: &Game, opponent: &TestUser, what: &str, act: impl FnOnce()) {
    let first = capture(app, g, opponent);
    let second = capture(app, g, opponent);
    act();
    let after = capture(app, g, opponent);
    for (fetched, (status, headers, body)) in &first {
        let (_, again, _) = &second[fetched];
        let (status_after, headers_after, body_after) = &after[fetched];
        assert_eq!(status, status_after, "{what}: status of {fetched}");
        assert_eq!(body, body_after, "{what} changed {fetched}");
        // `Date` is the clock's, not the battle's: two reads a second apart differ in it.
        let quiet = |h: &BTreeMap<String, String>| -> BTreeMap<String, String> {
            h.iter()
                .filter(|(k, _)| k.as_str() != "date" && headers.get(*k) == again.get(*k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        assert_eq!(
            quiet(headers),
            quiet(headers_after),
            "{what} changed the headers of {fetched}"
        );
    }
}

fn step(app: &TestApp, g: &Game, user: &TestUser, step: &str, body: &Value) -> Value {
    let r = app.post_json_with_token(
        &format!("/api/v1/battles/{}/scenario/{step}", g.battle),
        body,
        &user.token,
    );
    let status = r.status();
    let text = r.text().unwrap();
    assert!(status.is_success(), "{step}: {status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Mission dice: every mission 1 except those given.
fn mission_dice(high: &[(&str, u8)]) -> Value {
    let missions = [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ];
    missions
        .iter()
        .map(|m| {
            let v = high.iter().find(|(n, _)| n == m).map_or(1, |(_, v)| *v);
            ((*m).to_owned(), json!([v]))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

both_backends! {
    fn a_sides_hidden_choices_change_nothing_the_opponent_or_a_key_can_fetch(app: &TestApp) {
        let g = Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let (blue_user, red_user) = (&g.people.owner, &g.people.player);
        let alpha = unit_id(&g.blue, "Alpha");

        // Orders, then other orders with entered dice, before the step closes.
        unchanged(app, &g, red_user, "Blue's orders", || {
            step(app, &g, blue_user, "orders", &json!({"force_id": blue, "stance": "neutral", "attitude": "cautious"}));
        });
        unchanged(app, &g, red_user, "Blue's orders again", || {
            step(app, &g, blue_user, "orders", &json!({"force_id": blue, "stance": "defensive", "attitude": "passive",
                "recon_unit_ids": [alpha], "dice": {"table_edge": {blue.clone(): [6]}, "recon_return": {alpha.clone(): [6]}}}));
        });
        // Blue's own version moved with its own writes; a stale one is still 409.
        let own = step(app, &g, blue_user, "orders", &json!({"force_id": blue, "stance": "defensive", "attitude": "passive",
            "recon_unit_ids": [alpha], "version": 2}));
        assert_eq!(own["version"], 2, "the same orders again change nothing Blue sees");
        let stale = app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/orders", g.battle),
            &json!({"force_id": blue, "stance": "defensive", "attitude": "passive", "version": 1}), &blue_user.token);
        assert_eq!(stale.status(), 409);
        // Red's orders close the step (Red: Offensive, Aggressive; edge 1).
        step(app, &g, red_user, "orders", &json!({"force_id": red, "stance": "offensive", "attitude": "aggressive",
            "dice": {"table_edge": {red.clone(): [1]}}}));

        // Mission bonuses (hidden, S8 and S11), twice, with entered mission dice.
        unchanged(app, &g, red_user, "Blue's mission bonuses", || {
            step(app, &g, blue_user, "mission-bonuses", &json!({"force_id": blue, "missions": ["expand", "strike"],
                "dice": {"mission": mission_dice(&[("strike", 5)])}}));
        });
        unchanged(app, &g, red_user, "Blue's mission bonuses again", || {
            // Blue (Defensive, Passive): Hold 2 + 4 = 6 and Sweep 6 + 0 = 6 tie.
            step(app, &g, blue_user, "mission-bonuses", &json!({"force_id": blue, "missions": [],
                "dice": {"mission": mission_dice(&[("hold", 2), ("sweep", 6)])}}));
        });
        // Red (Offensive, Aggressive): Assault 3 + 3 = 6 and Sweep 3 + 3 = 6 tie too.
        let v = step(app, &g, red_user, "mission-bonuses", &json!({"force_id": red, "missions": [],
            "dice": {"mission": mission_dice(&[("assault", 3), ("sweep", 3)])}}));
        assert_eq!(v["state"], "mission_choice", "{v}");

        // Blue picks among its tied missions while Red still has to pick.
        unchanged(app, &g, red_user, "Blue's mission choice", || {
            step(app, &g, blue_user, "mission-choice", &json!({"force_id": blue, "mission": "hold"}));
        });
        let v = step(app, &g, red_user, "mission-choice", &json!({"force_id": red, "mission": "assault"}));
        assert_eq!(v["state"], "recon", "{v}");

        // Red's Assault target, one of its far objectives: Blue and the key see nothing move.
        let far = v["objectives"].as_array().unwrap().iter()
            .find(|o| o["sector"][&red] == "far").unwrap()["id"].as_str().unwrap().to_owned();
        unchanged(app, &g, blue_user, "Red's Assault target", || {
            let v = step(app, &g, red_user, "assault-target", &json!({"force_id": red, "objective_id": far}));
            assert_eq!(v["sides"][1]["assault_target"], far.as_str());
        });
    }

    fn a_non_player_sides_chosen_stance_and_attitude_stay_hidden_until_revealed(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue = crate::forces::create_force(app, &people.owner, &world.campaign_id,
            &crate::forces::small_roster("Blue"));
        let blue_id = blue["id"].as_str().unwrap().to_owned();
        let r = app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": blue_id}, {"non_player": {"name": "Militia", "stance": "defensive", "attitude": "passive"}}]}),
            &people.organiser.token);
        assert_eq!(r.status(), 201, "{}", r.text().unwrap());
        let battle = r.json::<Value>().unwrap()["id"].as_str().unwrap().to_owned();
        let campaign = &world.campaign_id;
        let reads = |paths: &[String]| -> Vec<(String, String)> {
            let mut out = Vec::new();
            for path in paths {
                out.push((format!("{path} as the player"), fetch(app, path, Auth::Token(&people.owner.token)).2));
                out.push((format!("{path} with the key"), fetch(app, path, Auth::Key(&world.key)).2));
            }
            out
        };
        let paths = [
            format!("/api/v1/battles/{battle}"),
            format!("/api/v1/battles/{battle}/scenario"),
            format!("/api/v1/campaigns/{campaign}/battles"),
            format!("/api/v1/campaigns/{campaign}/timeline"),
        ];
        for (what, text) in reads(&paths) {
            for secret in ["defensive", "passive"] {
                assert!(!text.contains(secret), "{what} shows the non-player {secret}: {text}");
            }
            if what.contains("/scenario") {
                continue;
            }
            assert!(text.contains("Militia"), "{what}: {text}");
        }
        // The player's orders close the step: the non-player stance and attitude are revealed.
        let r = app.post_json_with_token(&format!("/api/v1/battles/{battle}/scenario/orders"),
            &json!({"force_id": blue_id, "stance": "neutral", "attitude": "cautious"}), &people.owner.token);
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        for (what, text) in reads(&paths) {
            let json: Value = serde_json::from_str(&text).unwrap();
            let mine = |list: &Value, at: &str| -> Value {
                list.as_array().unwrap().iter()
                    .map(|e| if at.is_empty() { e.clone() } else { e[at].clone() })
                    .find(|b| b["id"] == battle.as_str()).unwrap()
            };
            let battle_json = if what.contains("/timeline") {
                mine(&json["entries"], "battle")
            } else if what.contains("/campaigns/") {
                mine(&json["battles"], "")
            } else {
                json.clone()
            };
            if what.contains("/scenario") {
                assert_eq!(json["sides"][1]["stance"], "defensive", "{what}: {text}");
                assert_eq!(json["sides"][1]["attitude"], "passive", "{what}: {text}");
            } else {
                assert_eq!(battle_json["sides"][1]["non_player"]["stance"], "defensive", "{what}: {text}");
                assert_eq!(battle_json["sides"][1]["non_player"]["attitude"], "passive", "{what}: {text}");
            }
        }
    }
}
