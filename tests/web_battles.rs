//! The battle pages against the real binary: starting a battle from the campaign, the battle
//! page's forms for each side (errors beside the fields with the input kept, CSRF refusals that
//! apply nothing, stale versions), what each side's page shows (the opponent's page stays
//! byte-for-byte the same when a side makes a hidden choice), the odds chart, the printable
//! sheet's link and the live event stream (silent on a hidden choice, speaking on a reveal).

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use reqwest::redirect::Policy;
use serde_json::{Value, json};

use crate::battle_scenarios::Game;
use crate::common::{TestApp, send, side, unit_id};
use crate::web_pages::Browser;

/// The value of the first hidden `version` field after `force_id`'s hidden field.
fn version_in(body: &str, force_id: &str) -> String {
    let at = body
        .find(&format!(r#"name="force_id" value="{force_id}""#))
        .unwrap_or_else(|| panic!("no form for {force_id}: {body}"));
    let rest = &body[at..];
    let start = rest.find(r#"name="version" value=""#).unwrap() + r#"name="version" value=""#.len();
    rest[start..].split('"').next().unwrap().to_owned()
}

fn location(response: &Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

fn scenario(app: &TestApp, token: &str, battle: &str) -> Value {
    let r = app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), token);
    assert_eq!(r.status(), 200);
    r.json().unwrap()
}

/// Mission dice: every mission 1 except those given, as form fields.
fn mission_fields(high: &[(&str, &str)]) -> Vec<(String, String)> {
    [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ]
    .iter()
    .map(|m| {
        let v = high.iter().find(|(n, _)| n == m).map_or("1", |(_, v)| *v);
        (format!("mission-{m}"), v.to_owned())
    })
    .collect()
}

fn as_refs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The Red page of `g`'s battle, Red's Blue, and the organiser's.
struct Players<'a> {
    blue: Browser<'a>,
    red: Browser<'a>,
    referee: Browser<'a>,
}

fn players<'a>(app: &'a TestApp, g: &Game) -> Players<'a> {
    Players {
        blue: Browser::signed_in(app, &g.people.owner.username),
        red: Browser::signed_in(app, &g.people.player.username),
        referee: Browser::signed_in(app, &g.people.organiser.username),
    }
}

/// Submits `side`'s orders through the page: 303 back to the battle.
#[track_caller]
fn give_orders(browser: &mut Browser<'_>, battle: &str, force: &str, extra: &[(&str, &str)]) {
    let page = format!("/battles/{battle}");
    let (body, token) = browser.page(&page);
    let version = version_in(&body, force);
    let mut fields = vec![
        ("csrf_token", token.as_str()),
        ("force_id", force),
        ("version", version.as_str()),
    ];
    fields.extend_from_slice(extra);
    let response = browser.post(&format!("/battles/{battle}/orders"), &fields);
    assert_eq!(response.status(), 303, "{}", response.text().unwrap());
    assert_eq!(location(&response), page);
}

/// Reads an event stream's frames on a thread; `recv_timeout` on the receiver waits for one.
fn listen(browser: &Browser<'_>, path: &str) -> mpsc::Receiver<String> {
    let response = send(
        Client::builder()
            .build()
            .unwrap()
            .get(browser.app.url(path))
            .header("cookie", browser.cookie_header()),
    );
    assert_eq!(response.status(), 200, "GET {path}");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut data = String::new();
        for line in BufReader::new(response).lines() {
            let Ok(line) = line else { return };
            if let Some(value) = line.strip_prefix("data: ") {
                data = value.to_owned();
            } else if line.is_empty()
                && !data.is_empty()
                && tx.send(std::mem::take(&mut data)).is_err()
            {
                return;
            }
        }
    });
    rx
}

fn signature_in(body: &str) -> String {
    let start = body.find(r#"data-signature=""#).unwrap() + r#"data-signature=""#.len();
    body[start..].split('"').next().unwrap().to_owned()
}

both_backends! {
    fn a_battle_is_started_from_the_campaign_page_with_errors_kept(app: &TestApp) {
        let g = Game::new(app);
        let campaign = &g.world.campaign_id;
        let mut blue = Browser::signed_in(app, &g.people.owner.username);
        let (page, _) = blue.page(&format!("/campaigns/{campaign}"));
        assert!(page.contains(&format!("/campaigns/{campaign}/battles/new")), "the campaign page links to it");
        let path = format!("/campaigns/{campaign}/battles/new");
        let (form, token) = blue.page(&path);
        assert!(form.contains("Start battle") && form.contains("Blue") && form.contains("Red"), "{form}");
        // Nothing chosen: both selects say so, and the name typed is kept.
        let r = blue.post(&path, &[("csrf_token", &token), ("first", ""), ("second", ""), ("npf_name", "Kept Raiders")]);
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#) && body.contains("choose a force"), "{body}");
        assert!(body.contains(r#"value="Kept Raiders""#), "{body}");
        // A force cannot fight itself (the use case says so, beside the second side).
        let blue_id = g.blue_id();
        let r = blue.post(&path, &[("csrf_token", &token), ("first", &blue_id), ("second", &blue_id)]);
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains("a force cannot fight itself"), "{body}");
        assert!(body.contains(r#"id="f-second-error""#), "beside the field: {body}");
        // Bad platoon count for the non-player side.
        let r = blue.post(&path, &[("csrf_token", &token), ("first", &blue_id), ("second", "non_player"), ("npf_platoons", "99")]);
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-npf-platoons-error""#));
        // Without the token: refused, nothing made.
        let before = app.get_with_token(&format!("/api/v1/campaigns/{campaign}/battles"), &g.people.owner.token).text().unwrap();
        assert_eq!(blue.post(&path, &[("first", &blue_id), ("second", "non_player")]).status(), 403);
        let cross = blue.post_with(&path, &[("csrf_token", &token), ("first", &blue_id), ("second", "non_player")], &[("sec-fetch-site", "cross-site")]);
        assert_eq!(cross.status(), 403);
        let after = app.get_with_token(&format!("/api/v1/campaigns/{campaign}/battles"), &g.people.owner.token).text().unwrap();
        assert_eq!(before, after);
        // Against a non-player force, at night, with a chosen stance: made, and opened.
        let r = blue.post(&path, &[("csrf_token", &token), ("first", &blue_id), ("second", "non_player"),
            ("npf_name", "Raiders"), ("npf_stance", "offensive"), ("npf_attitude", ""), ("npf_platoons", "2"), ("night_fighting", "on")]);
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        let battle_path = location(&r);
        let battle = battle_path.strip_prefix("/battles/").unwrap().to_owned();
        let read: Value = app.get_with_token(&format!("/api/v1/battles/{battle}"), &g.people.owner.token).json().unwrap();
        assert_eq!(read["night_fighting"], true);
        assert_eq!(read["sides"][1]["non_player"]["name"], "Raiders");
        let (page, _) = blue.page(&battle_path);
        assert!(page.contains("<h1>Blue vs Raiders</h1>"), "{page}");
        assert!(page.contains("Night fighting roll"), "night fighting asks for its die");
        // The non-player side's chosen stance stays secret until orders close, on the page too.
        assert!(!page.contains("Offensive</dd>"), "{page}");
        // An outsider gets 404 for both pages.
        let mut outsider = Browser::signed_in(app, &g.people.outsider.username);
        assert_eq!(outsider.get(&path).status(), 404);
        assert_eq!(outsider.get(&battle_path).status(), 404);
    }

    fn each_side_gets_its_own_forms_and_never_the_others_secrets(app: &TestApp) {
        let g = Game::new(app);
        let (blue_id, red_id) = (g.blue_id(), g.red_id());
        let mut p = players(app, &g);
        let page = format!("/battles/{}", g.battle);
        let (red_page, _) = p.red.page(&page);
        assert!(red_page.contains("Submit orders") && red_page.contains(r#"<label for="f-s1-stance">Stance</label>"#), "{red_page}");
        assert!(red_page.contains(&format!(r#"name="force_id" value="{red_id}""#)));
        assert!(!red_page.contains(&format!(r#"name="force_id" value="{blue_id}""#)), "no form for Blue on Red's page");
        // The recon-duty checkboxes carry Red's unit names.
        assert!(red_page.contains(">Delta</label>") && red_page.contains(">Echo</label>"), "{red_page}");
        // The referee (an organiser who plays neither side) gets both sides' forms.
        let (referee_page, _) = p.referee.page(&page);
        assert!(referee_page.contains(&format!(r#"name="force_id" value="{red_id}""#))
            && referee_page.contains(&format!(r#"name="force_id" value="{blue_id}""#)), "{referee_page}");

        // Blue gives hidden orders: Red's page does not change by a byte.
        let (before, _) = p.red.page(&page);
        let alpha = unit_id(&g.blue, "Alpha");
        give_orders(&mut p.blue, &g.battle, &blue_id, &[("stance", "defensive"), ("attitude", "passive"),
            (&format!("recon.{alpha}"), "on"), ("table_edge", "3")]);
        let (after, _) = p.red.page(&page);
        assert_eq!(before, after, "Blue's hidden orders changed Red's page");
        assert!(!after.contains(&alpha), "Blue's recon unit id on Red's page");
        for word in ["Defensive</dd>", "Passive</dd>", ">Alpha<"] {
            assert!(!after.contains(word), "{word} on Red's page before the reveal");
        }
        // Blue sees its own orders, kept in the form.
        let (blue_page, _) = p.blue.page(&page);
        assert!(blue_page.contains("Your orders are in"), "{blue_page}");
        assert!(blue_page.contains(r#"<option value="defensive" selected>"#), "{blue_page}");
        assert!(blue_page.contains(&format!(r#"name="recon.{alpha}" value="on" checked"#)), "{blue_page}");
        // The referee sees Blue's orders in full.
        let referee_page = p.referee.page(&page).0;
        assert!(referee_page.contains("Defensive</dd>"), "{referee_page}");

        // Red gives orders: they close, and both stances are revealed to both.
        give_orders(&mut p.red, &g.battle, &red_id, &[("stance", "offensive"), ("attitude", "aggressive")]);
        let (red_page, _) = p.red.page(&page);
        assert!(red_page.contains("Defensive</dd>") && red_page.contains("Passive</dd>"), "{red_page}");
        assert!(red_page.contains("First mission bonus") && red_page.contains("Submit mission bonuses"), "{red_page}");
        // The printable sheet: a share link for the side, opened at once; the same link again.
        let (_, token) = p.red.page(&page);
        let r = p.red.post(&format!("/battles/{}/sheet", g.battle), &[("csrf_token", &token), ("force_id", &red_id)]);
        assert_eq!(r.status(), 303);
        let link = location(&r);
        assert!(link.contains("/sheets/shared/"), "{link}");
        let sheet = send(Client::new().get(app.url(&link)));
        assert_eq!(sheet.status(), 200);
        let r = p.red.post(&format!("/battles/{}/sheet", g.battle), &[("csrf_token", &token), ("force_id", &red_id)]);
        assert_eq!(location(&r), link);
        // Red may not share Blue's sheet.
        let r = p.red.post(&format!("/battles/{}/sheet", g.battle), &[("csrf_token", &token), ("force_id", &blue_id)]);
        assert_eq!(r.status(), 403);
    }

    fn every_step_form_shows_its_errors_and_refuses_stale_or_forged_posts(app: &TestApp) {
        let g = Game::new(app);
        let (blue_id, red_id) = (g.blue_id(), g.red_id());
        let mut p = players(app, &g);
        let page = format!("/battles/{}", g.battle);
        let orders = format!("/battles/{}/orders", g.battle);
        let (body, token) = p.red.page(&page);
        let version = version_in(&body, &red_id);
        let base = [("csrf_token", token.as_str()), ("force_id", red_id.as_str()), ("version", version.as_str())];

        // No stance: the summary and the field say so; the attitude and the die stay.
        let r = p.red.post(&orders, &[&base[..], &[("stance", ""), ("attitude", "cautious"), ("table_edge", "4")]].concat());
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#) && body.contains("choose a stance"), "{body}");
        assert!(body.contains(r#"id="f-s1-stance-error""#), "{body}");
        assert!(body.contains(r#"<option value="cautious" selected>"#), "{body}");
        assert!(body.contains(r#"name="table_edge" value="4""#), "{body}");
        // A die that is not a face of a d6.
        let r = p.red.post(&orders, &[&base[..], &[("stance", "neutral"), ("attitude", "cautious"), ("table_edge", "9")]].concat());
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains(r#"id="f-s1-table-edge-error""#), "{body}");
        // A recon unit that is not Red's: the use case's problem, beside the recon duty.
        let r = p.red.post(&orders, &[&base[..], &[("stance", "neutral"), ("attitude", "cautious"), ("recon.nope", "on")]].concat());
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains("nope"), "{body}");
        // Forged posts: no token, another site, another session's token; nothing applied.
        let fields = [&base[1..], &[("stance", "neutral"), ("attitude", "cautious")]].concat();
        assert_eq!(p.red.post(&orders, &fields).status(), 403);
        let cross = p.red.post_with(&orders, &[&base[..], &[("stance", "neutral"), ("attitude", "cautious")]].concat(),
            &[("origin", "https://evil.example")]);
        assert_eq!(cross.status(), 403);
        let (_, blue_token) = p.blue.page(&page);
        let stolen = [("csrf_token", blue_token.as_str()), ("force_id", red_id.as_str()), ("stance", "neutral"), ("attitude", "cautious")];
        assert_eq!(p.red.post(&orders, &stolen).status(), 403);
        // Blue may not act for Red.
        let r = p.blue.post(&orders, &[("csrf_token", blue_token.as_str()), ("force_id", red_id.as_str()), ("stance", "neutral"), ("attitude", "cautious")]);
        assert_eq!(r.status(), 403);
        assert_eq!(side(&scenario(app, &g.people.player.token, &g.battle), &red_id)["orders_submitted"], false);

        // "Show odds" without scripts: the page again with the picks and their meters.
        let r = p.red.post(&orders, &[&base[..], &[("stance", "offensive"), ("attitude", "aggressive"), ("show", "odds")]].concat());
        assert_eq!(r.status(), 200);
        let body = r.text().unwrap();
        assert!(body.matches("<meter").count() == 8 && body.contains(r#"<option value="offensive" selected>"#), "{body}");
        assert_eq!(side(&scenario(app, &g.people.player.token, &g.battle), &red_id)["orders_submitted"], false);
        // The fragment the selects fetch.
        let fragment = p.red.get("/odds?stance=defensive&attitude=passive&first_bonus=hold&second_bonus=sweep").text().unwrap();
        assert_eq!(fragment.matches("<meter").count(), 8, "{fragment}");

        // Both give orders; the version Red's form carried is now stale.
        give_orders(&mut p.blue, &g.battle, &blue_id, &[("stance", "defensive"), ("attitude", "passive"),
            (&format!("recon.{}", unit_id(&g.blue, "Alpha")), "on"), ("table_edge", "3")]);
        give_orders(&mut p.red, &g.battle, &red_id, &[("stance", "offensive"), ("attitude", "aggressive"), ("table_edge", "4")]);
        let r = p.red.post(&orders, &[&base[..], &[("stance", "neutral"), ("attitude", "cautious")]].concat());
        assert_eq!(r.status(), 409);
        let body = r.text().unwrap();
        assert!(body.contains("The battle changed meanwhile") && body.contains("Mission bonuses"), "{body}");

        // Mission bonuses: one alone, or the same twice, are refused beside the second.
        let bonuses = format!("/battles/{}/mission-bonuses", g.battle);
        let (body, token) = p.red.page(&page);
        let version = version_in(&body, &red_id);
        let base = [("csrf_token", token.as_str()), ("force_id", red_id.as_str()), ("version", version.as_str())];
        for (first, second) in [("strike", ""), ("strike", "strike")] {
            let r = p.red.post(&bonuses, &[&base[..], &[("first_bonus", first), ("second_bonus", second)]].concat());
            assert_eq!(r.status(), 422);
            let body = r.text().unwrap();
            assert!(body.contains(r#"id="f-s1-second-bonus-error""#), "{body}");
            assert!(body.contains(r#"<option value="strike" selected>"#), "kept: {body}");
        }
        let r = p.red.post(&bonuses, &[&base[..], &[("first_bonus", "strike"), ("second_bonus", "sweep"), ("mission-strike", "0")]].concat());
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-s1-mission-strike-error""#));
        // §3.10: the unit named for a bonus trait must be Red's (refused beside its select).
        let r = p.red.post(&bonuses, &[&base[..], &[("first_bonus", "strike"), ("second_bonus", "sweep"), ("bonus-agile", "nobody")]].concat());
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-s1-bonus-agile-error""#));
        // Good bonuses with entered mission dice from both: the missions are settled.
        let dice = mission_fields(&[("strike", "6")]);
        let delta = unit_id(&g.red, "Delta");
        let r = p.red.post(&bonuses, &[&base[..], &[("first_bonus", "strike"), ("second_bonus", "sweep"), ("bonus-agile", delta.as_str())], &as_refs(&dice)[..]].concat());
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        assert_eq!(side(&scenario(app, &g.people.player.token, &g.battle), &red_id)["bonus_units"], json!({"agile": delta}));
        let (body, token) = p.blue.page(&page);
        let version = version_in(&body, &blue_id);
        let dice = mission_fields(&[("hold", "6")]);
        let r = p.blue.post(&bonuses, &[&[("csrf_token", token.as_str()), ("force_id", blue_id.as_str()), ("version", version.as_str()),
            ("first_bonus", "hold"), ("second_bonus", "interfere")], &as_refs(&dice)[..]].concat());
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        let v = scenario(app, &g.people.player.token, &g.battle);
        assert_eq!(side(&v, &blue_id)["mission_bonuses_submitted"], true);
        assert_eq!(v["state"], "recon", "{v}");

        // Recon: Red's turn. A label too long is refused beside its field; a move goes through.
        let recon = format!("/battles/{}/recon", g.battle);
        let (body, token) = p.red.page(&page);
        assert!(body.contains("Move markers") && body.contains("Reveal marker") && body.contains(">Pass<"), "{body}");
        assert!(!p.blue.page(&page).0.contains("Move markers"), "not Blue's turn");
        // "At the table now" opens the page: whose turn, with the rule; the markers numbered as
        // the recon forms pick them (Red's own to move, Blue's to reveal).
        let table = &body[body.find("At the table now").expect("the block")..];
        assert!(body.find("At the table now") < body.find("Your part"), "the block comes first");
        assert!(table.contains("Your recon turn: move two of your markers") && table.contains(r##"href="/rules#3.7""##), "{table}");
        assert!(table.contains("Your contact markers") && table.contains("number them 1–"), "{table}");
        assert!(body.contains(">Red's marker 1<") && body.contains(">Blue's marker 1<"), "{body}");
        let blue_body = p.blue.page(&page).0;
        assert!(blue_body.contains("Waiting for Red."), "{blue_body}");
        let version = version_in(&body, &red_id);
        let long = "x".repeat(101);
        let base = [("csrf_token", token.as_str()), ("force_id", red_id.as_str()), ("version", version.as_str())];
        let r = p.red.post(&recon, &[&base[..], &[("action", "move"), ("marker_1", long.as_str())]].concat());
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-s1-marker-1-error""#));
        let r = p.red.post(&recon, &[&base[..], &[("action", "move"), ("marker_1", "r1"), ("marker_2", "r2")]].concat());
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        // Blue is asked to block: a bad die, then a good one.
        let (body, token) = p.blue.page(&page);
        assert!(body.contains(">Block<") && body.contains("Block roll"), "{body}");
        let version = version_in(&body, &blue_id);
        let base = [("csrf_token", token.as_str()), ("force_id", blue_id.as_str()), ("version", version.as_str())];
        let r = p.blue.post(&recon, &[&base[..], &[("action", "block"), ("recon_block", "7")]].concat());
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-s0-recon-block-error""#));
        let r = p.blue.post(&recon, &[&base[..], &[("action", "block"), ("recon_block", "5")]].concat());
        assert_eq!(r.status(), 303);
        let v = scenario(app, &g.people.player.token, &g.battle);
        assert_eq!(v["recon"]["log"][1]["roll"], 5, "{v}");
        // The recon log shows on both pages.
        assert!(p.red.page(&page).0.contains("r1, r2"));
        // Red lets the Block stand; both pass: the scenario is ready and the result panel shows.
        for (token, force) in [(&g.people.player.token, &red_id), (&g.people.owner.token, &blue_id), (&g.people.player.token, &red_id)] {
            let r = app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/recon-actions", g.battle),
                &json!({"force_id": force, "action": "pass"}), token);
            assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        }
        let (body, _) = p.red.page(&page);
        assert!(body.contains("Ready: the battle can start") && body.contains("Record the result"), "{body}");
        // The state label matches the step: ready to play, not "setting up".
        assert!(body.contains("Ready to play: record the result after the game") && !body.contains("Setting up the scenario"), "{body}");
    }

    fn a_tied_side_picks_its_mission_and_an_assault_side_its_target(app: &TestApp) {
        let g = Game::new(app);
        let (blue_id, red_id) = (g.blue_id(), g.red_id());
        let mut p = players(app, &g);
        let page = format!("/battles/{}", g.battle);
        give_orders(&mut p.blue, &g.battle, &blue_id, &[("stance", "defensive"), ("attitude", "passive"), ("table_edge", "6")]);
        give_orders(&mut p.red, &g.battle, &red_id, &[("stance", "offensive"), ("attitude", "aggressive"), ("table_edge", "1")]);
        // Blue: Hold 2 + 4 = 6 and Sweep 6 + 0 = 6 tie; Red: Assault far ahead.
        let bonuses = format!("/battles/{}/mission-bonuses", g.battle);
        for (browser, force, picks, dice) in [
            (&mut p.blue, &blue_id, ["", ""], mission_fields(&[("hold", "2"), ("sweep", "6")])),
            (&mut p.red, &red_id, ["assault", "strike"], mission_fields(&[("assault", "6")])),
        ] {
            let (body, token) = browser.page(&page);
            let version = version_in(&body, force);
            let r = browser.post(&bonuses, &[&[("csrf_token", token.as_str()), ("force_id", force.as_str()), ("version", version.as_str()),
                ("first_bonus", picks[0]), ("second_bonus", picks[1])], &as_refs(&dice)[..]].concat());
            assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        }
        // Only Blue is asked, among its tied missions only.
        let (body, token) = p.blue.page(&page);
        assert!(body.contains("Choose mission") && body.contains(r#"<option value="hold">Hold</option>"#)
            && body.contains(r#"<option value="sweep">Sweep</option>"#) && !body.contains(r#"<option value="assault">Assault</option>"#), "{body}");
        assert!(!p.red.page(&page).0.contains("Choose mission"));
        let version = version_in(&body, &blue_id);
        let choice = format!("/battles/{}/mission-choice", g.battle);
        let base = [("csrf_token", token.as_str()), ("force_id", blue_id.as_str()), ("version", version.as_str())];
        let r = p.blue.post(&choice, &[&base[..], &[("mission", "assault")]].concat());
        assert_eq!(r.status(), 422);
        let body = r.text().unwrap();
        assert!(body.contains(r#"id="f-s0-mission-error""#) && body.contains("not one of the tied missions"), "{body}");
        let r = p.blue.post(&choice, &[&base[..], &[("mission", "sweep")]].concat());
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        // Red's mission is Assault: Red declares a far objective, once.
        let v = scenario(app, &g.people.player.token, &g.battle);
        assert_eq!(side(&v, &red_id)["mission"], "assault", "{v}");
        let far: Vec<String> = v["objectives"].as_array().unwrap().iter()
            .filter(|o| o["sector"][&red_id] == "far")
            .map(|o| o["id"].as_str().unwrap().to_owned())
            .collect();
        let (body, token) = p.red.page(&page);
        assert!(body.contains("Declare target") && body.contains(&format!(r#"<option value="{0}">Objective {1}</option>"#, far[0], far[0].trim_start_matches('o'))), "{body}");
        assert!(!p.blue.page(&page).0.contains("Declare target"));
        let version = version_in(&body, &red_id);
        let assault = format!("/battles/{}/assault-target", g.battle);
        let base = [("csrf_token", token.as_str()), ("force_id", red_id.as_str()), ("version", version.as_str())];
        let near = v["objectives"].as_array().unwrap().iter()
            .find(|o| o["sector"][&red_id] == "near").unwrap()["id"].as_str().unwrap().to_owned();
        let r = p.red.post(&assault, &[&base[..], &[("objective_id", near.as_str())]].concat());
        assert_eq!(r.status(), 422);
        assert!(r.text().unwrap().contains(r#"id="f-s1-objective-id-error""#));
        let (body, token) = p.red.page(&page);
        let version = version_in(&body, &red_id);
        let r = p.red.post(&assault, &[("csrf_token", token.as_str()), ("force_id", red_id.as_str()), ("version", version.as_str()), ("objective_id", far[0].as_str())]);
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        let (body, _) = p.red.page(&page);
        assert!(!body.contains("Declare target") && body.contains(&format!("Assault target</dt><dd>{}", far[0])), "{body}");
    }

    fn the_event_stream_is_silent_on_a_hidden_choice_and_speaks_on_a_reveal(app: &TestApp) {
        let g = Game::new(app);
        let (blue_id, red_id) = (g.blue_id(), g.red_id());
        let mut p = players(app, &g);
        let page = format!("/battles/{}", g.battle);
        let (body, _) = p.red.page(&page);
        let since = signature_in(&body);
        let referee_since = signature_in(&p.referee.page(&page).0);
        let events = format!("/battles/{}/events?since={since}", g.battle);
        let red_events = listen(&p.red, &events);
        // Blue's hidden orders: nothing for Red.
        give_orders(&mut p.blue, &g.battle, &blue_id, &[("stance", "defensive"), ("attitude", "passive")]);
        assert!(red_events.recv_timeout(Duration::from_millis(3000)).is_err(), "Red heard Blue's hidden orders");
        // The referee sees Blue's orders: its stream, opened with the signature from before
        // them, speaks at once.
        let referee_events = listen(&p.referee, &format!("/battles/{}/events?since={referee_since}", g.battle));
        let first = referee_events.recv_timeout(Duration::from_secs(5)).expect("the referee's page is out of date");
        assert_ne!(first, referee_since);
        // Red's own orders close the step and reveal both: Red's stream speaks.
        give_orders(&mut p.red, &g.battle, &red_id, &[("stance", "offensive"), ("attitude", "aggressive")]);
        let changed = red_events.recv_timeout(Duration::from_secs(5)).expect("no event on the reveal");
        let (body, _) = p.red.page(&page);
        assert_eq!(changed, signature_in(&body), "the event carries the page's new signature");
        // A stream opened with the current signature says nothing until something changes.
        let quiet = listen(&p.red, &format!("/battles/{}/events?since={changed}", g.battle));
        assert!(quiet.recv_timeout(Duration::from_millis(1500)).is_err());
        // Blue's hidden bonuses: still nothing for Red; Red's stream speaks when the missions
        // are rolled (Red's bonuses close the step).
        let (body, token) = p.blue.page(&page);
        let version = version_in(&body, &blue_id);
        let r = p.blue.post(&format!("/battles/{}/mission-bonuses", g.battle), &[("csrf_token", token.as_str()),
            ("force_id", blue_id.as_str()), ("version", version.as_str()), ("first_bonus", ""), ("second_bonus", "")]);
        assert_eq!(r.status(), 303);
        assert!(quiet.recv_timeout(Duration::from_millis(3000)).is_err(), "Red heard Blue's hidden bonuses");
        let r = app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/mission-bonuses", g.battle),
            &json!({"force_id": red_id, "missions": []}), &g.people.player.token);
        assert_eq!(r.status(), 200);
        assert!(quiet.recv_timeout(Duration::from_secs(5)).is_ok(), "no event when the missions were rolled");
        // Outsiders get no stream; signed-out people are sent to log in.
        let mut outsider = Browser::signed_in(app, &g.people.outsider.username);
        assert_eq!(outsider.get(&events).status(), 404);
        let anonymous = send(Client::builder().redirect(Policy::none()).build().unwrap().get(app.url(&events)));
        assert_eq!(anonymous.status(), 303);
    }
}

/// Posts `force`'s mission bonuses (with its mission dice) through the battle page: 303.
#[track_caller]
fn send_bonuses(
    browser: &mut Browser<'_>,
    battle: &str,
    force: &str,
    picks: [&str; 2],
    dice: &[(&str, &str)],
) {
    let page = format!("/battles/{battle}");
    let (body, token) = browser.page(&page);
    let version = version_in(&body, force);
    let dice = mission_fields(dice);
    let r = browser.post(
        &format!("/battles/{battle}/mission-bonuses"),
        &[
            &[
                ("csrf_token", token.as_str()),
                ("force_id", force),
                ("version", version.as_str()),
                ("first_bonus", picks[0]),
                ("second_bonus", picks[1]),
            ],
            &as_refs(&dice)[..],
        ]
        .concat(),
    );
    assert_eq!(r.status(), 303, "{}", r.text().unwrap());
}

both_backends! {
    /// while Blue picks among its tied missions in secret, Red, whose
    /// missions did not tie, sees exactly what it saw while Blue's bonuses were not in: the
    /// same scenario and battle JSON, the same page, byte for byte. Red may still change its
    /// bonuses, and a mission choice is refused in the words used when none is open.
    fn s9_the_opponent_cannot_tell_a_tie_choice_from_bonuses_not_yet_sent(app: &TestApp) {
        // Arrange: orders in; Red sends its bonuses first (Assault far ahead, no tie).
        let g = Game::new(app);
        let (blue_id, red_id) = (g.blue_id(), g.red_id());
        let mut p = players(app, &g);
        let page = format!("/battles/{}", g.battle);
        give_orders(&mut p.blue, &g.battle, &blue_id, &[("stance", "defensive"), ("attitude", "passive"), ("table_edge", "6")]);
        give_orders(&mut p.red, &g.battle, &red_id, &[("stance", "offensive"), ("attitude", "aggressive"), ("table_edge", "1")]);
        send_bonuses(&mut p.red, &g.battle, &red_id, ["assault", "strike"], &[("assault", "6")]);
        let red_token = g.people.player.token.clone();
        let battle_json = |token: &str| app.get_with_token(&format!("/api/v1/battles/{}", g.battle), token).text().unwrap();
        let read = |p: &mut Players<'_>| (scenario(app, &red_token, &g.battle), battle_json(&red_token), p.red.page(&page).0);
        let before = read(&mut p);
        let outsider_before = battle_json(&g.people.organiser.token);

        // Act: Blue's bonuses make its totals tie (Hold 2 + 4 = 6, Sweep 6 + 0 = 6).
        send_bonuses(&mut p.blue, &g.battle, &blue_id, ["", ""], &[("hold", "2"), ("sweep", "6")]);
        let after = read(&mut p);

        // Assert: Blue is asked to choose; Red's JSON and page have not changed by a byte.
        let blue_view = scenario(app, &g.people.owner.token, &g.battle);
        assert_eq!(blue_view["state"], "mission_choice", "{blue_view}");
        assert_eq!(before.0, after.0, "Red's scenario");
        assert_eq!(after.0["state"], "mission_bonuses");
        assert_eq!(after.0["waiting_for"], json!([blue_id]));
        assert!(side(&after.0, &red_id).get("mission_totals").is_none(), "{}", after.0);
        assert_eq!(before.1, after.1, "the battle as Red reads it");
        assert_eq!(before.2, after.2, "Red's page changed while Blue chooses");
        assert!(!after.2.contains("Mission choice"), "{}", after.2);
        // The referee sees the choice; nobody else's view of the battle moved.
        assert_ne!(outsider_before, battle_json(&g.people.organiser.token), "the referee sees the tie");
        // Red may still change its bonuses (as before Blue's were in); a choice is refused in
        // the words of a step that is not open.
        let r = app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/mission-bonuses", g.battle),
            &json!({"force_id": red_id, "missions": ["assault", "strike"]}), &red_token);
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        let r = app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/mission-choice", g.battle),
            &json!({"force_id": red_id, "mission": "assault"}), &red_token);
        assert_eq!(r.status(), 409);
        let text = r.text().unwrap();
        assert!(text.contains("No mission choice is open for this side."), "{text}");

        // Blue picks: the step closes and Red sees its own mission at last.
        let (body, token) = p.blue.page(&page);
        let version = version_in(&body, &blue_id);
        let r = p.blue.post(&format!("/battles/{}/mission-choice", g.battle), &[("csrf_token", token.as_str()),
            ("force_id", blue_id.as_str()), ("version", version.as_str()), ("mission", "hold")]);
        assert_eq!(r.status(), 303, "{}", r.text().unwrap());
        let v = scenario(app, &red_token, &g.battle);
        assert_ne!(v["state"], "mission_bonuses", "{v}");
        assert_eq!(side(&v, &red_id)["mission"], "assault", "{v}");
    }
}
