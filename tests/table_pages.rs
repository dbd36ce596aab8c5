//! The pages players prefer to paper, through the web skin: home shows the results a person
//! must confirm and the battles an organiser referees, and the organiser's open invitations
//! are listed (each link again, to copy or share) and revoked, with a reload creating nothing;
//! a force made by mistake is archived (its owner before its first battle, the organiser any
//! time) and leaves the standings and the campaign's lists.

use serde_json::{Value, json};

use crate::battles::{Table, create_battle, first_result, get, ok, post};
use crate::common::{TestApp, assert_problem};
use crate::web_pages::{Browser, location};

/// The links to `/join/<code>` on a page, in order.
fn join_codes(page: &str) -> Vec<String> {
    let mut codes = Vec::new();
    for (start, _) in page.match_indices("/join/") {
        let code: String = page[start + "/join/".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !code.is_empty() && !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// The action of the first form posting to a path that ends with `suffix`.
fn form_action(page: &str, suffix: &str) -> Option<String> {
    page.match_indices(r#"action=""#).find_map(|(i, m)| {
        let action = page[i + m.len()..].split('"').next()?;
        action.ends_with(suffix).then(|| action.to_owned())
    })
}

/// The names of the forces in a campaign's standings.
fn standings(app: &TestApp, t: &Table) -> Vec<String> {
    let body = get(
        app,
        &t.people.organiser,
        &format!("/api/v1/campaigns/{}/standings", t.world.campaign_id),
    );
    let rows = body["forces"].as_array().unwrap().clone();
    rows.iter()
        .map(|r| r["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn archive(
    app: &TestApp,
    user: &crate::auth::TestUser,
    force: &Value,
) -> reqwest::blocking::Response {
    let version = get(
        app,
        user,
        &format!("/api/v1/forces/{}", force["id"].as_str().unwrap()),
    )["version"]
        .clone();
    post(
        app,
        user,
        &format!("/api/v1/forces/{}/archive", force["id"].as_str().unwrap()),
        &json!({"version": version}),
    )
}

both_backends! {
    fn an_owner_archives_a_force_before_its_first_battle_and_only_the_organiser_after(app: &TestApp) {
        // Arrange: Blue fought (a result names it); a spare force made by mistake did not.
        let t = Table::new(app);
        let spare = crate::forces::create_force(app, &t.people.owner, &t.world.campaign_id,
            &json!({"name": "Mistake", "platoons": [{"name": "1st Platoon", "units": [
                {"name": "Lone", "kind": "squad", "quality": "regular", "resolve": "steady",
                 "strength": 4, "starting_strength": 4, "armour": "improved", "basic_weapon": "assault_rifles"}]}]}));
        let battle = create_battle(app, &t);
        ok(post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &first_result(&t)));
        assert!(standings(app, &t).contains(&"Mistake".to_owned()));

        // Act and assert: the spare goes, and leaves the standings and the list.
        let archived = ok(archive(app, &t.people.owner, &spare));
        assert_eq!(archived["archived"], true);
        assert!(!standings(app, &t).contains(&"Mistake".to_owned()), "{:?}", standings(app, &t));
        let listed = get(app, &t.people.organiser, &format!("/api/v1/campaigns/{}/forces", t.world.campaign_id));
        assert!(!listed.to_string().contains("Mistake"), "{listed}");
        // Twice: 409 in plain words.
        let again = assert_problem(archive(app, &t.people.owner, &spare), 409);
        assert_eq!(again["detail"], "The force is archived; it can no longer change.");
        // Blue fought: its owner is refused in plain words, nothing changes; the organiser may.
        let refused = assert_problem(archive(app, &t.people.owner, &t.blue), 409);
        assert_eq!(refused["detail"], "This force has fought a battle, so only the campaign's organiser may archive it.");
        assert_eq!(get(app, &t.people.owner, &format!("/api/v1/forces/{}", t.blue_id()))["archived"], false);
        assert_eq!(ok(archive(app, &t.people.organiser, &t.blue))["archived"], true);
        assert!(!standings(app, &t).contains(&"Blue".to_owned()));
        // Another player may not archive Red.
        assert_problem(archive(app, &t.people.owner, &t.red), 403);
    }

    fn archive_force_on_the_web_asks_first_then_the_force_leaves_the_campaign_page(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let spare = crate::forces::create_force(app, &t.people.owner, &t.world.campaign_id,
            &json!({"name": "Mistake", "platoons": [{"name": "1st Platoon", "units": [
                {"name": "Lone", "kind": "squad", "quality": "regular", "resolve": "steady",
                 "strength": 4, "starting_strength": 4, "armour": "improved", "basic_weapon": "assault_rifles"}]}]}));
        let spare_id = spare["id"].as_str().unwrap();
        let mut owner = Browser::signed_in(app, &t.people.owner.username);
        let (roster, _) = owner.page(&format!("/forces/{spare_id}"));
        assert!(roster.contains(&format!(r#"href="/forces/{spare_id}/archive">Archive force</a>"#)), "{roster}");
        let mut player = Browser::signed_in(app, &t.people.player.username);
        let (other, _) = player.page(&format!("/forces/{spare_id}"));
        assert!(!other.contains("Archive force"), "{other}");
        assert_eq!(player.get(&format!("/forces/{spare_id}/archive")).status(), 403);

        // Act: the confirm step, then the button.
        let (confirm, token) = owner.page(&format!("/forces/{spare_id}/archive"));
        assert!(confirm.contains("<h1>Archive Mistake?</h1>") && confirm.contains(">Archive force</button>"), "{confirm}");
        let version = spare["version"].to_string();
        let done = owner.post(&format!("/forces/{spare_id}/archive"), &[("csrf_token", &token), ("version", &version)]);

        // Assert: back on the campaign page, the force is out of the standings and the list.
        assert_eq!(done.status(), 303);
        assert_eq!(location(&done), format!("/campaigns/{}", t.world.campaign_id));
        let (campaign, token) = owner.page(&format!("/campaigns/{}", t.world.campaign_id));
        let standings = campaign.split("<h2>Standings</h2>").nth(1).unwrap().split("<h2>Battles</h2>").next().unwrap();
        assert!(!standings.contains("Mistake"), "{standings}");
        assert!(campaign.contains("Archived: "), "{campaign}");
        // Blue fights: the owner's archive is refused on the same page, in plain words.
        let battle = create_battle(app, &t);
        ok(post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &first_result(&t)));
        let version = get(app, &t.people.owner, &format!("/api/v1/forces/{}", t.blue_id()))["version"].to_string();
        let refused = owner.post(&format!("/forces/{}/archive", t.blue_id()), &[("csrf_token", &token), ("version", &version)]);
        assert_eq!(refused.status(), 409);
        let page = refused.text().unwrap();
        assert!(page.contains("only the campaign&#39;s organiser may archive it") || page.contains("only the campaign's organiser may archive it"), "{page}");
    }

    fn home_asks_the_person_who_must_confirm_a_result_and_the_organiser_who_referees(app: &TestApp) {
        // Arrange: Blue (owner) and Red (player) fought; the owner recorded a win.
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        let mut player = Browser::signed_in(app, &t.people.player.username);
        let mut owner = Browser::signed_in(app, &t.people.owner.username);
        let mut organiser = Browser::signed_in(app, &t.people.organiser.username);
        let (before, _) = organiser.page("/");
        assert!(before.contains("You referee Blue vs Red: waiting for the scenario and the result"), "{before}");
        ok(post(app, &t.people.owner, &format!("/api/v1/battles/{battle}/result"), &first_result(&t)));

        // Act
        let (player_home, _) = player.page("/");
        let (owner_home, _) = owner.page("/");
        let (organiser_home, _) = organiser.page("/");

        // Assert: the other side's owner and the refereeing organiser are asked, with a link to
        // the battle; whoever recorded it waits.
        let ask = format!(r#"<a class="title" href="/battles/{battle}">Confirm the result of Blue vs Red</a>"#);
        assert!(player_home.contains(&ask), "{player_home}");
        assert!(!player_home.contains("Waiting for the result to be confirmed"), "{player_home}");
        assert!(organiser_home.contains(&ask), "{organiser_home}");
        assert!(!owner_home.contains("Confirm the result of"), "{owner_home}");
        assert!(owner_home.contains("You recorded the result of Blue vs Red; the other side confirms it"), "{owner_home}");
        // The battle page's first block says who won, before and after the confirmation.
        let (battle_page, _) = player.page(&format!("/battles/{battle}"));
        assert!(battle_page.contains("Recorded: Blue won. The result waits for confirmation"), "{battle_page}");

        // Once confirmed nobody is asked any more.
        ok(post(app, &t.people.player, &format!("/api/v1/battles/{battle}/result/confirm"), &serde_json::json!({})));
        let (player_home, _) = player.page("/");
        let (organiser_home, _) = organiser.page("/");
        assert!(!player_home.contains("Confirm the result of") && player_home.contains("Waiting for the post-battle sequences"), "{player_home}");
        assert!(!organiser_home.contains("Confirm the result of"), "{organiser_home}");
        let (battle_page, _) = player.page(&format!("/battles/{battle}"));
        assert!(battle_page.contains("Blue won. Each force now runs its post-battle sequence"), "{battle_page}");
    }

    fn the_organiser_lists_and_revokes_open_invitations_and_a_reload_creates_none(app: &TestApp) {
        // Arrange
        let mut organiser = Browser::new(app);
        organiser.register("ingrid");
        let campaign = organiser.create_campaign("Long Winter");
        let (page, token) = organiser.page(&format!("/campaigns/{campaign}"));
        assert!(join_codes(&page).is_empty(), "no invitation yet: {page}");

        // Act: two invitations, then a reload.
        for _ in 0..2 {
            let created = organiser.post(&format!("/campaigns/{campaign}/invites"), &[("csrf_token", &token)]);
            assert_eq!(created.status(), 303);
            assert_eq!(location(&created), format!("/campaigns/{campaign}#invites"));
        }
        let (page, _) = organiser.page(&format!("/campaigns/{campaign}"));
        let (reloaded, token) = organiser.page(&format!("/campaigns/{campaign}"));

        // Assert: both listed with their links (to copy, share and scan), the same after a reload.
        let codes = join_codes(&page);
        assert_eq!(codes.len(), 2, "{page}");
        assert_eq!(join_codes(&reloaded), codes);
        for name in ["Copy link", "Share", "Revoke", "Create invite link"] {
            assert!(page.contains(&format!(">{name}</button>")), "{name}: {page}");
        }
        assert!(page.contains(r#"class="invite-url""#) && page.contains("<svg"), "{page}");
        // A player of the campaign sees none of it.
        let mut player = Browser::new(app);
        player.register("jonas");
        let (join, join_token) = player.page(&format!("/join/{}", codes[1]));
        assert!(join.contains("Join campaign"), "{join}");
        assert_eq!(player.post(&format!("/join/{}", codes[1]), &[("csrf_token", &join_token)]).status(), 303);
        let (player_view, player_token) = player.page(&format!("/campaigns/{campaign}"));
        assert!(join_codes(&player_view).is_empty() && !player_view.contains("Revoke"), "{player_view}");

        // Revoke the newest: its link stops working and leaves the list; the other stays. A
        // player cannot revoke.
        let revoke = form_action(&reloaded, "/revoke").unwrap();
        assert_eq!(player.post(&revoke, &[("csrf_token", &player_token)]).status(), 403);
        let revoked = organiser.post(&revoke, &[("csrf_token", &token)]);
        assert_eq!(revoked.status(), 303);
        let (after, _) = organiser.page(&format!("/campaigns/{campaign}"));
        assert_eq!(join_codes(&after), vec![codes[1].clone()], "{after}");
        let mut late = Browser::new(app);
        late.register("kira");
        assert_eq!(late.get(&format!("/join/{}", codes[0])).status(), 404);
    }
}
