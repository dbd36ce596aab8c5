//! The result, confirmation, correction and post-battle pages against the real binary: every
//! form's bad input comes back with the input kept and the error beside its field, forms
//! without a good token change nothing, people who may not act get what the JSON API gives them,
//! and a post-battle sequence run with entered dice gives the values the rules' tables give by
//! hand, the same as the JSON API for the same dice.

use serde_json::{Value, json};

use crate::auth::{PASSWORD, TestUser, register};
use crate::campaigns::{create_campaign, invite_code, join};
use crate::common::TestApp;
use crate::web_pages::{Browser, location};

/// A campaign with two player forces of the same roster and a battle between them.
struct Battle {
    organiser: TestUser,
    owner: TestUser,
    player: TestUser,
    bystander: TestUser,
    outsider: TestUser,
    blue: String,
    green: String,
    battle: String,
}

fn roster(name: &str) -> Value {
    json!({"name": name, "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8},
        {"name": "Bravo", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6}]}]})
}

impl Battle {
    fn new(app: &TestApp) -> Self {
        let organiser = register(app, "organiser");
        let owner = register(app, "owner");
        let player = register(app, "player");
        let bystander = register(app, "bystander");
        let outsider = register(app, "outsider");
        let campaign = create_campaign(app, &organiser, "Winter Campaign");
        let campaign_id = campaign["id"].as_str().unwrap().to_owned();
        for user in [&owner, &player, &bystander] {
            let code = invite_code(app, &organiser, &campaign_id);
            assert_eq!(join(app, user, &code).status(), 201);
        }
        let blue = crate::forces::create_force(app, &owner, &campaign_id, &roster("Blue"));
        let green = crate::forces::create_force(app, &player, &campaign_id, &roster("Green"));
        let battle = api(
            app,
            &owner,
            &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": blue["id"]}, {"force_id": green["id"]}]}),
        );
        Self {
            organiser,
            owner,
            player,
            bystander,
            outsider,
            blue: blue["id"].as_str().unwrap().to_owned(),
            green: green["id"].as_str().unwrap().to_owned(),
            battle: battle["id"].as_str().unwrap().to_owned(),
        }
    }

    fn path(&self, rest: &str) -> String {
        format!("/battles/{}{rest}", self.battle)
    }

    fn read(&self, app: &TestApp) -> Value {
        let response = app.get_with_token(
            &format!("/api/v1/battles/{}", self.battle),
            &self.organiser.token,
        );
        assert_eq!(response.status(), 200);
        response.json().unwrap()
    }

    fn unit(&self, app: &TestApp, force: &str, name: &str) -> String {
        let response = app.get_with_token(&format!("/api/v1/forces/{force}"), &self.owner.token);
        crate::common::unit_id(&response.json().unwrap(), name)
    }

    /// Alpha lost 5 and Bravo 3, on both sides; recorded by the owner, confirmed by the player.
    fn fight(&self, app: &TestApp) {
        let losses: Vec<Value> = [&self.blue, &self.green]
            .iter()
            .flat_map(|force| {
                [
                    json!({"unit_id": self.unit(app, force, "Alpha"), "figures_lost": 5}),
                    json!({"unit_id": self.unit(app, force, "Bravo"), "figures_lost": 3}),
                ]
            })
            .collect();
        api(
            app,
            &self.owner,
            &format!("/api/v1/battles/{}/result", self.battle),
            &json!({"outcome": "draw", "losses": losses}),
        );
        api(
            app,
            &self.player,
            &format!("/api/v1/battles/{}/result/confirm", self.battle),
            &json!({}),
        );
    }
}

#[track_caller]
fn api(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> Value {
    let response = app.post_json_with_token(path, body, &user.token);
    let status = response.status();
    let text = response.text().unwrap();
    assert!(status.is_success(), "POST {path}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}

/// A browser signed in as `user` through the login page.
pub(crate) fn signed_in<'a>(app: &'a TestApp, user: &TestUser) -> Browser<'a> {
    let mut browser = Browser::new(app);
    let (_, token) = browser.page("/login");
    let response = browser.post(
        "/login",
        &[
            ("csrf_token", &token),
            ("username", &user.username),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(response.status(), 303, "{}", response.text().unwrap());
    browser
}

/// The value attribute of the control with `id` (`None` when absent or valueless).
fn value_of(body: &str, id: &str) -> Option<String> {
    let at = body.find(&format!(r#"id="{id}""#))?;
    let tag_start = body[..at].rfind('<')?;
    let tag = &body[tag_start..tag_start + body[tag_start..].find('>')?];
    let start = tag.find(r#"value=""#)? + r#"value=""#.len();
    Some(tag[start..].split('"').next()?.to_owned())
}

/// The error shown beside the control with `id`.
pub(crate) fn error_beside(body: &str, id: &str) -> Option<String> {
    let marker = format!(r#"id="{id}-error">"#);
    let start = body.find(&marker)? + marker.len();
    Some(body[start..].split('<').next()?.to_owned())
}

fn field(name: &str) -> String {
    format!(
        "f-{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
            .trim_end_matches('-')
    )
}

both_backends! {
    fn the_result_form_records_keeps_bad_input_and_the_opponent_confirms(app: &TestApp) {
        // Arrange
        let b = Battle::new(app);
        let mut owner = signed_in(app, &b.owner);

        // Act: the form lists both sides' units.
        let (body, token) = owner.page(&b.path("/result"));

        // Assert
        for text in ["Outcome", "Winner", "Figures lost", "Eliminated", "Record result", "Alpha", "Bravo", "Green"] {
            assert!(body.contains(text), "{text} missing");
        }
        assert!(body.contains(r#"<main class="wrap" id="main">"#));

        // Act: a figure count that is not a number and one the roster cannot have lost.
        let response = owner.post(&b.path("/result"), &[
            ("csrf_token", &token), ("outcome", "win"), ("winner_force_id", &b.blue),
            ("losses[0][unit_id]", &b.unit(app, &b.blue, "Alpha")), ("losses[0][figures_lost]", "five"),
            ("losses[1][unit_id]", &b.unit(app, &b.blue, "Bravo")), ("losses[1][figures_lost]", "2"),
        ]);

        // Assert: 422, the input kept, the error beside the field and in the focused summary.
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert_eq!(value_of(&body, &field("losses[0][figures_lost]")).as_deref(), Some("five"));
        assert_eq!(value_of(&body, &field("losses[1][figures_lost]")).as_deref(), Some("2"));
        assert!(error_beside(&body, &field("losses[0][figures_lost]")).is_some(), "{body}");
        assert!(body.contains(r#"id="error-summary""#) && body.contains("autofocus"));
        assert!(body.contains(&format!("<option value=\"{}\" selected>", b.blue)));

        // Act: more figures lost than Bravo has (the rules refuse it).
        let response = owner.post(&b.path("/result"), &[
            ("csrf_token", &token), ("outcome", "draw"), ("winner_force_id", ""),
            ("losses[0][unit_id]", &b.unit(app, &b.blue, "Alpha")), ("losses[0][figures_lost]", ""),
            ("losses[1][unit_id]", &b.unit(app, &b.blue, "Bravo")), ("losses[1][figures_lost]", "9"),
        ]);

        // Assert: the error names Bravo's field, not the request's first line.
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(error_beside(&body, &field("losses[1][figures_lost]")).is_some(), "{body}");
        assert_eq!(value_of(&body, &field("losses[1][figures_lost]")).as_deref(), Some("9"));
        assert_eq!(b.read(app)["state"], "scenario");

        // Act: no token, then a good form.
        let refused = owner.post(&b.path("/result"), &[("outcome", "draw")]);
        let recorded = owner.post(&b.path("/result"), &[
            ("csrf_token", &token), ("outcome", "win"), ("winner_force_id", &b.green),
            ("losses[0][unit_id]", &b.unit(app, &b.blue, "Alpha")), ("losses[0][figures_lost]", "4"),
            ("losses[1][unit_id]", &b.unit(app, &b.blue, "Bravo")), ("losses[1][figures_lost]", ""),
            ("losses[1][eliminated]", "on"),
        ]);

        // Assert: refused with 403, then recorded; the JSON API reads the same result.
        assert_eq!(refused.status(), 403);
        assert_eq!(recorded.status(), 303);
        assert_eq!(location(&recorded), b.path("/result"));
        let read = b.read(app);
        assert_eq!(read["state"], "pending");
        assert_eq!(read["result"]["winner_force_id"], b.green.as_str());
        let lost: Vec<(u64, bool)> = read["result"]["losses"].as_array().unwrap().iter()
            .map(|l| (l["figures_lost"].as_u64().unwrap(), l["eliminated"].as_bool().unwrap())).collect();
        assert_eq!(lost, vec![(4, false), (6, true)]);

        // Assert: the recorder gets no confirmation button; the opponent does and confirms.
        let (body, _) = owner.page(&b.path("/result"));
        assert!(!body.contains("Confirm result"));
        let mut player = signed_in(app, &b.player);
        let (body, player_token) = player.page(&b.path("/result"));
        assert!(body.contains("Confirm result"));
        assert!(!body.contains("Void battle"), "only the organiser corrects");
        let confirmed = player.post(&b.path("/confirm"), &[("csrf_token", &player_token), ("back", &b.path(""))]);
        assert_eq!(confirmed.status(), 303);
        assert_eq!(location(&confirmed), b.path(""));
        assert_eq!(b.read(app)["state"], "aftermath");
        let (body, _) = player.page(&b.path("/result"));
        assert!(body.contains(&format!("/battles/{}/aftermath/{}", b.battle, b.blue)));
    }

    fn only_members_see_and_only_sides_and_the_organiser_act(app: &TestApp) {
        // Arrange
        let b = Battle::new(app);
        let mut outsider = signed_in(app, &b.outsider);
        let mut bystander = signed_in(app, &b.bystander);
        let (_, bystander_token) = bystander.page("/");

        // Act / Assert: an outsider gets 404 like the JSON API; a member who plays neither side
        // reads the page without the form and is refused with 403 when posting.
        assert_eq!(outsider.get(&b.path("/result")).status(), 404);
        let (body, _) = bystander.page(&b.path("/result"));
        assert!(!body.contains("Record result"));
        let refused = bystander.post(&b.path("/result"), &[
            ("csrf_token", &bystander_token), ("outcome", "draw"),
        ]);
        assert_eq!(refused.status(), 403);
        let refused = bystander.post(&b.path("/result"), &[
            ("csrf_token", &bystander_token), ("outcome", "bad"),
        ]);
        assert_eq!(refused.status(), 403);
        assert_eq!(b.read(app)["state"], "scenario");

        // Arrange: a result, confirmed.
        b.fight(app);
        let sequence = b.path(&format!("/aftermath/{}", b.blue));

        // Act / Assert: the sequence is readable by members, not outsiders; only the owner
        // and the organiser get its forms, and the other player's and a bystander's rolls
        // are refused.
        assert_eq!(outsider.get(&sequence).status(), 404);
        let (body, _) = bystander.page(&sequence);
        assert!(!body.contains(">Roll<"));
        let mut player = signed_in(app, &b.player);
        let (_, player_token) = player.page(&sequence);
        for (browser, token) in [(&mut player, &player_token), (&mut bystander, &bystander_token)] {
            let response = browser.post(&format!("{sequence}/roll"), &[
                ("csrf_token", token), ("step", "replacement"),
            ]);
            assert_eq!(response.status(), 403);
            let response = browser.post(&format!("{sequence}/roll"), &[
                ("csrf_token", token), ("step", "replacement"),
                (&format!("dice.replacement.{}.0", b.unit(app, &b.blue, "Alpha")), "x"),
            ]);
            assert_eq!(response.status(), 403);
        }
        let (body, _) = signed_in(app, &b.organiser).page(&sequence);
        assert!(body.contains(">Roll<"));

        // Act / Assert: a player cannot correct the battle; the organiser's over-long reason
        // comes back beside its field, kept; a good one reopens the battle.
        let refused = player.post(&b.path("/reopen"), &[("csrf_token", &player_token), ("reopen_reason", "mine")]);
        assert_eq!(refused.status(), 403);
        let mut organiser = signed_in(app, &b.organiser);
        let (body, token) = organiser.page(&b.path("/result"));
        assert!(body.contains("Reopen result") && body.contains("Void battle"));
        let long = "x".repeat(501);
        let response = organiser.post(&b.path("/reopen"), &[("csrf_token", &token), ("reopen_reason", &long)]);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(error_beside(&body, &field("reopen_reason")).is_some(), "{body}");
        assert!(body.contains(&long));
        assert_eq!(b.read(app)["state"], "aftermath");
        let refused = organiser.post(&b.path("/reopen"), &[("reopen_reason", "replayed")]);
        assert_eq!(refused.status(), 403);
        let response = organiser.post(&b.path("/reopen"), &[("csrf_token", &token), ("reopen_reason", "Wrong rosters")]);
        assert_eq!(response.status(), 303);
        let read = b.read(app);
        assert_eq!(read["state"], "scenario");
        assert_eq!(read["corrections"][0]["reason"], "Wrong rosters");

        // Act / Assert: reopening again is a conflict, shown on the page, not an error page.
        let response = organiser.post(&b.path("/reopen"), &[("csrf_token", &token), ("reopen_reason", "")]);
        assert_eq!(response.status(), 409);
        assert!(response.text().unwrap().contains("nothing to reopen"));

        // Act / Assert: the organiser voids it.
        let response = organiser.post(&b.path("/void"), &[("csrf_token", &token), ("void_reason", "Never played")]);
        assert_eq!(response.status(), 303);
        assert_eq!(b.read(app)["state"], "void");
    }

    fn a_sequence_with_entered_dice_gives_the_tables_values_and_the_json_apis(app: &TestApp) {
        // Arrange: Alpha (8/8) lost 5, Bravo (6/6) lost 3, on both sides.
        let b = Battle::new(app);
        b.fight(app);
        let (alpha, bravo) = (b.unit(app, &b.blue, "Alpha"), b.unit(app, &b.blue, "Bravo"));
        let mut owner = signed_in(app, &b.owner);
        let sequence = b.path(&format!("/aftermath/{}", b.blue));
        let (body, token) = owner.page(&sequence);
        assert!(body.contains("Replacement roll for Alpha") && body.contains("Replacement roll for Bravo"));
        assert!(body.contains("Leave empty and the server rolls"));
        let roll = format!("{sequence}/roll");
        let die = |step: &str, unit: &str| format!("dice.{step}.{unit}.0");

        // Act: a 7 is no face of a die.
        let response = owner.post(&roll, &[
            ("csrf_token", &token), ("step", "replacement"),
            (&die("replacement", &alpha), "7"), (&die("replacement", &bravo), "3"),
        ]);

        // Assert: the form again, the 7 kept beside its error; nothing rolled.
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        let alpha_id = field(&format!("dice.replacement.{alpha}"));
        assert_eq!(value_of(&body, &alpha_id).as_deref(), Some("7"));
        assert!(error_beside(&body, &alpha_id).is_some(), "{body}");
        let json_read = |force: &str| -> Value {
            app.get_with_token(&format!("/api/v1/battles/{}/aftermath/{force}", b.battle), &b.owner.token)
                .json().unwrap()
        };
        assert_eq!(json_read(&b.blue)["stage"], "open");

        // Act: the replacement rolls, 5 for Alpha (back to full) and 3 for Bravo (half of 3,
        // rounded up: 2); no token first.
        let refused = owner.post(&roll, &[("step", "replacement"), (&die("replacement", &alpha), "5")]);
        assert_eq!(refused.status(), 403);
        assert_eq!(json_read(&b.blue)["stage"], "open");
        let response = owner.post(&roll, &[
            ("csrf_token", &token), ("step", "replacement"),
            (&die("replacement", &alpha), "5"), (&die("replacement", &bravo), "3"),
        ]);
        assert_eq!(response.status(), 303);

        // Assert: the same form again (a second tab) is refused as already rolled, on the page.
        let again = owner.post(&roll, &[
            ("csrf_token", &token), ("step", "replacement"), (&die("replacement", &alpha), "1"),
        ]);
        assert_eq!(again.status(), 409);
        assert!(again.text().unwrap().contains("already rolled"));

        // Assert: Alpha received 5 of 8 (2·5 ≥ 8): it alone rolls for quality loss.
        let (body, _) = owner.page(&sequence);
        assert!(body.contains("Quality loss roll for Alpha"));
        assert!(!body.contains("Quality loss roll for Bravo"));
        assert!(body.contains("replacement roll 5: 5 figure(s) back"), "{body}");
        assert!(body.contains("replacement roll 3: 2 figure(s) back"));
        assert!(body.contains("6/6 → <strong>5/6</strong>"));

        // Act: quality loss 1 (drops a level), resolve change 5 for Alpha (up) and 2 for
        // Bravo (down), the pool 3 + 4.
        for (step, dice) in [
            ("quality_loss", vec![(die("quality_loss", &alpha), "1")]),
            ("resolve_change", vec![(die("resolve_change", &alpha), "5"), (die("resolve_change", &bravo), "2")]),
            ("reinforcements", vec![(format!("dice.reinforcements.{}.0", b.blue), "3"), (format!("dice.reinforcements.{}.1", b.blue), "4")]),
        ] {
            let mut fields = vec![("csrf_token", token.as_str()), ("step", step)];
            fields.extend(dice.iter().map(|(k, v)| (k.as_str(), *v)));
            let response = owner.post(&roll, &fields);
            assert_eq!(response.status(), 303, "{step}: {}", response.text().unwrap());
        }

        // Assert: every die shown with its effect.
        let (body, _) = owner.page(&sequence);
        assert!(body.contains("regular → <strong>conscript</strong>"));
        assert!(body.contains("steady → <strong>determined</strong>"));
        assert!(body.contains("steady → <strong>uncertain</strong>"));
        assert!(body.contains("3 + 4 = 7"));
        assert!(body.contains("Troopers for Bravo"));

        // Act: a new squad of 9 is too big: refused, the input kept.
        let reinforce = format!("{sequence}/reinforcements");
        let bravo_troopers = format!("troopers.{bravo}");
        let response = owner.post(&reinforce, &[
            ("csrf_token", &token), ("reinforcements", "1"), (&bravo_troopers, "1"),
            ("new_squad.name", "Delta"), ("new_squad.troopers", "9"), ("new_squad.platoon", ""),
        ]);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert_eq!(value_of(&body, &field("new_squad.troopers")).as_deref(), Some("9"));
        assert_eq!(value_of(&body, &field("new_squad.name")).as_deref(), Some("Delta"));
        assert!(error_beside(&body, &field("new_squad.troopers")).is_some(), "{body}");

        // Act: Bravo gets 1, a new squad of 5, 1 trooper lost.
        let response = owner.post(&reinforce, &[
            ("csrf_token", &token), ("reinforcements", "1"), (&bravo_troopers, "1"),
            ("new_squad.name", "Delta"), ("new_squad.troopers", "5"), ("new_squad.platoon", "1st Platoon"),
        ]);
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());

        // Act: three purchases cost 3 CP of the 2 earned (2 per platoon): refused, kept.
        let purchase = format!("{sequence}/purchases");
        let response = owner.post(&purchase, &[
            ("csrf_token", &token), ("purchase_rows", "1"),
            ("purchases[0][item]", "improve_resolve"), ("purchases[0][unit_id]", &bravo),
            ("purchases[1][item]", "improve_quality"), ("purchases[1][unit_id]", &alpha),
            ("purchases[2][item]", "improve_quality"), ("purchases[2][unit_id]", &bravo),
        ]);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains("only 2 CP are available"), "{body}");
        assert!(body.contains(&format!("<option value=\"{alpha}\" selected>")));

        // Act: improve Bravo's Resolve for 1 CP, then finalize.
        let response = owner.post(&purchase, &[
            ("csrf_token", &token), ("purchase_rows", "1"),
            ("purchases[0][item]", "improve_resolve"), ("purchases[0][unit_id]", &bravo),
            ("purchases[1][item]", ""), ("purchases[1][unit_id]", ""),
        ]);
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let (body, _) = owner.page(&sequence);
        assert!(body.contains("Balance after"));
        // 1 of the 7 troopers is left: given up on purpose (else Finalize refuses).
        let response = owner.post(&format!("{sequence}/finalize"), &[("csrf_token", &token), ("forgo_reinforcements", "1")]);
        assert_eq!(response.status(), 303);

        // Assert: the values by hand: Alpha 8/8 conscript determined, Bravo 6/6 regular steady
        // (uncertain, bought back up), Delta 5 conscript uncertain; 1 CP left.
        let done = json_read(&b.blue);
        assert_eq!(done["stage"], "finalized");
        let units = |outcome: &Value| -> Vec<(String, u64, String, String)> {
            outcome["roster"]["platoons"][0]["units"].as_array().unwrap().iter().map(|u| (
                u["name"].as_str().unwrap().to_owned(),
                u["strength"].as_u64().unwrap(),
                u["quality"].as_str().unwrap().to_owned(),
                u["resolve"].as_str().unwrap_or("").to_owned(),
            )).collect()
        };
        let by_hand = vec![
            ("Alpha".to_owned(), 8, "conscript".to_owned(), "determined".to_owned()),
            ("Bravo".to_owned(), 6, "regular".to_owned(), "steady".to_owned()),
            ("Delta".to_owned(), 5, "conscript".to_owned(), "uncertain".to_owned()),
        ];
        assert_eq!(units(&done["outcome"]), by_hand);
        assert_eq!(done["outcome"]["campaign_points"]["balance"], 1);

        // Assert: the JSON API gives Green the same for the same dice and choices.
        let (g_alpha, g_bravo) = (b.unit(app, &b.green, "Alpha"), b.unit(app, &b.green, "Bravo"));
        let base = format!("/api/v1/battles/{}/aftermath/{}", b.battle, b.green);
        api(app, &b.player, &format!("{base}/roll"), &json!({"dice": {
            "replacement": {&g_alpha: [5], &g_bravo: [3]},
            "quality_loss": {&g_alpha: [1]},
            "resolve_change": {&g_alpha: [5], &g_bravo: [2]},
            "reinforcements": {&b.green: [3, 4]},
        }}));
        api(app, &b.player, &format!("{base}/reinforcements"), &json!({
            "allocations": [{"unit_id": g_bravo, "troopers": 1}],
            "new_squad": {"name": "Delta", "troopers": 5, "platoon": "1st Platoon"},
        }));
        api(app, &b.player, &format!("{base}/purchases"), &json!({"purchases": [
            {"item": "improve_resolve", "unit_id": g_bravo}]}));
        let green = api(app, &b.player, &format!("{base}/finalize"), &json!({"forgo_reinforcements": true}));
        assert_eq!(units(&green["outcome"]), by_hand);
        let (body, _) = owner.page(&sequence);
        assert!(body.contains("finalized") && !body.contains(">Finalize<"));
    }
}

both_backends! {
    fn against_a_non_player_force_the_form_names_it_as_a_winner_and_asks_for_vehicle_damage(app: &TestApp) {
        // Arrange: Blue with a squad and a tank against a non-player force.
        let owner = register(app, "owner");
        let campaign = create_campaign(app, &owner, "Solo Campaign");
        let campaign_id = campaign["id"].as_str().unwrap();
        let blue = crate::forces::create_force(app, &owner, campaign_id, &json!({
            "name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
                {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
                 "strength": 8, "starting_strength": 8},
                {"name": "Rhino", "kind": "vehicle", "quality": "regular", "resolve": null,
                 "strength": 1, "starting_strength": 1,
                 "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3}}]}]}));
        let battle = api(app, &owner, &format!("/api/v1/campaigns/{campaign_id}/battles"),
            &json!({"sides": [{"force_id": blue["id"]}, {"non_player": {"name": "Militia"}}]}));
        let battle = battle["id"].as_str().unwrap();
        let rhino = crate::common::unit_id(&blue, "Rhino");
        let mut browser = signed_in(app, &owner);

        // Act
        let (body, token) = browser.page(&format!("/battles/{battle}/result"));

        // Assert: the non-player force may win; only the tank asks for vehicle damage.
        assert!(body.contains(r#"<option value="non_player">Militia</option>"#), "{body}");
        assert_eq!(body.matches("Vehicle damage").count(), 1);

        // Act: Militia won; the tank was damaged.
        let response = browser.post(&format!("/battles/{battle}/result"), &[
            ("csrf_token", &token), ("outcome", "win"), ("winner_force_id", "non_player"),
            ("losses[0][unit_id]", &crate::common::unit_id(&blue, "Alpha")), ("losses[0][figures_lost]", "2"),
            ("losses[1][unit_id]", &rhino), ("losses[1][figures_lost]", ""), ("losses[1][vehicle_damage]", "damaged"),
        ]);

        // Assert: with no opponent to confirm it, the result stands at once.
        assert_eq!(response.status(), 303);
        let read: Value = app.get_with_token(&format!("/api/v1/battles/{battle}"), &owner.token).json().unwrap();
        assert_eq!(read["state"], "aftermath");
        assert_eq!(read["result"]["winner_force_id"], Value::Null);
        assert_eq!(read["result"]["losses"][1]["vehicle_damage"], "damaged");
        let (body, _) = browser.page(&format!("/battles/{battle}/result"));
        assert!(body.contains("Militia won"));
        let (body, _) = browser.page(&format!("/battles/{battle}/aftermath/{}", blue["id"].as_str().unwrap()));
        assert!(body.contains("Replacement roll for Alpha"));
    }
}
