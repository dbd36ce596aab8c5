//! The campaign's story as players read it: battle lists and the timeline
//! say who won by force and owner; a reopened result and a void appear in the timeline with
//! the organiser's reason; the standings show campaign points earned and the balance apart,
//! the balance agreeing with each force's ledger. Pages and API, both backends.

use crate::battles::{Table, create_battle, first_result, get, ok, post, record_and_confirm};
use crate::common::TestApp;
use crate::corrections::play_first_battle;
use crate::web_pages::Browser;
use serde_json::{Value, json};

/// The story page's text as one string (tags kept, so a phrase can be found whole).
fn timeline_page(app: &TestApp, t: &Table) -> String {
    let mut browser = Browser::signed_in(app, &t.people.player.username);
    browser
        .page(&format!("/campaigns/{}/timeline", t.world.campaign_id))
        .0
}

fn campaign_page(app: &TestApp, t: &Table) -> String {
    let mut browser = Browser::signed_in(app, &t.people.player.username);
    browser
        .page(&format!("/campaigns/{}", t.world.campaign_id))
        .0
}

fn standing_row(app: &TestApp, t: &Table, force: &str) -> Value {
    let standings = get(
        app,
        &t.people.organiser,
        &format!("/api/v1/campaigns/{}/standings", t.world.campaign_id),
    );
    standings["forces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["force_id"] == force)
        .unwrap()
        .clone()
}

both_backends! {
    fn story_battle_lists_and_the_timeline_say_who_won_by_force_and_owner(app: &TestApp) {
        // Arrange: Blue (the owner's) beats Red; a second battle is drawn.
        let t = Table::new(app);
        let won = create_battle(app, &t);
        record_and_confirm(app, &t, &won);
        let drawn = create_battle(app, &t);
        ok(post(app, &t.people.owner, &format!("/api/v1/battles/{drawn}/result"),
            &json!({"outcome": "draw", "losses": []})));

        // Act
        let campaign = campaign_page(app, &t);
        let timeline = timeline_page(app, &t);

        // Assert: in words, by force name and owner, never an id.
        let blue_won = format!("Blue ({}) won", t.people.owner.username);
        assert!(campaign.contains(&blue_won), "campaign page: {campaign}");
        assert!(campaign.contains("Draw"), "campaign page: {campaign}");
        assert!(timeline.contains(&blue_won), "timeline: {timeline}");
        assert!(timeline.contains("Draw"), "timeline: {timeline}");
        assert!(!timeline.contains(t.blue_id()) || timeline.contains(&format!("/forces/{}", t.blue_id())));
    }

    fn story_a_reopened_result_and_a_void_appear_in_the_timeline_with_the_reason(app: &TestApp) {
        // Arrange: one result recorded then reopened, another battle voided.
        let t = Table::new(app);
        let reopened = create_battle(app, &t);
        ok(post(app, &t.people.owner, &format!("/api/v1/battles/{reopened}/result"), &first_result(&t)));
        let voided = create_battle(app, &t);

        // Act
        ok(post(app, &t.people.organiser, &format!("/api/v1/battles/{reopened}/reopen"),
            &json!({"reason": "wrong losses entered"})));
        ok(post(app, &t.people.organiser, &format!("/api/v1/battles/{voided}/void"),
            &json!({"reason": "played with last week's rosters"})));
        let timeline = timeline_page(app, &t);

        // Assert: the reopening names the result it took back, and both give the reason.
        let reopen_line = format!("the organiser reopened the result (Blue ({}) won)", t.people.owner.username);
        assert!(timeline.contains(&reopen_line), "timeline: {timeline}");
        assert!(timeline.contains("wrong losses entered"), "timeline: {timeline}");
        assert!(timeline.contains("was voided."), "timeline: {timeline}");
        assert!(timeline.contains("played with last week&#39;s rosters")
            || timeline.contains("played with last week's rosters"), "timeline: {timeline}");
    }

    fn story_standings_show_campaign_points_earned_and_the_balance_apart(app: &TestApp) {
        // Arrange: one finalized battle; Blue earns 2 and spends 2, Red earns 2 and keeps them.
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        play_first_battle(app, &t, &battle);

        // Act
        let blue = standing_row(app, &t, t.blue_id());
        let red = standing_row(app, &t, t.red_id());
        let page = campaign_page(app, &t);

        // Assert: the API keeps `campaign_points` and adds both named figures; the balance is
        // the ledger's.
        for (row, force) in [(&blue, t.blue_id()), (&red, t.red_id())] {
            let ledger = get(app, &t.people.organiser, &format!("/api/v1/forces/{force}/ledger"));
            assert_eq!(row["campaign_points_balance"], ledger["balance"], "{row}");
            assert_eq!(row["campaign_points_earned"], row["campaign_points"], "{row}");
        }
        assert_eq!((blue["campaign_points_earned"].as_i64(), blue["campaign_points_balance"].as_i64()), (Some(2), Some(0)));
        assert_eq!((red["campaign_points_earned"].as_i64(), red["campaign_points_balance"].as_i64()), (Some(2), Some(2)));
        assert!(page.contains("Campaign points earned"), "{page}");
        assert!(page.contains("Campaign points balance"), "{page}");
        let blue_row = page.split(&format!("/forces/{}\"", t.blue_id())).nth(1).unwrap();
        let blue_row = blue_row.split("</tr>").next().unwrap();
        assert!(blue_row.contains("<td class=\"num\">2</td><td class=\"num\">0</td>"), "{blue_row}");
    }
}
