//! The one-shot generator page `/scenarios/new` (signed out and signed in), its sheet with the
//! share link and `Keep`, the per-address limit, expiry and the sweep; and the campaign story
//! page `/campaigns/{id}/timeline` (paging, members only).

use std::time::{Duration, Instant};

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use reqwest::blocking::Response;
use serde_json::Value;

use crate::auth::register;
use crate::campaigns::create_campaign;
use crate::common::{Backend, Fixture, TestApp};
use crate::forces::{create_force, small_roster};
use crate::web_pages::{Browser, location};

/// The generator form, filled in by a scripts-off browser.
trait Generate {
    fn generate(&mut self, extra: &[(&str, &str)]) -> Response;
}

impl Generate for Browser<'_> {
    /// Fills the generator with two typed-in sides (Side 2 a non-player force) and posts it.
    fn generate(&mut self, extra: &[(&str, &str)]) -> Response {
        let (_, token) = self.page("/scenarios/new");
        let mut fields = vec![
            ("csrf_token", token.as_str()),
            ("side1_name", "Red Company"),
            (
                "side1_units",
                "Alpha Squad, squad, regular, steady, 8\nBravo Team, weapons team",
            ),
            ("side1_stance", "offensive"),
            ("side1_attitude", "aggressive"),
            ("side2_name", "Raiders"),
            ("side2_units", "Raider Band, squad, conscript, 10"),
            ("side2_non_player", "on"),
            ("side2_stance", ""),
            ("side2_attitude", ""),
            ("narrative", "on"),
        ];
        for (key, value) in extra {
            fields.retain(|(k, _)| k != key);
            fields.push((key, value));
        }
        self.post("/scenarios/new", &fields)
    }
}

/// The id a successful generation redirected to.
#[track_caller]
fn generated(response: Response) -> String {
    assert_eq!(response.status(), 303, "{}", response.text().unwrap());
    location(&response)
        .strip_prefix("/scenarios/")
        .unwrap()
        .to_owned()
}

/// The share path (`/scenarios/shared/<token>`) shown on a sheet.
fn share_path(sheet: &str) -> String {
    let start = sheet.find("/scenarios/shared/").expect("a share link");
    sheet[start..].split('"').next().unwrap().to_owned()
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn scenario_count(app: &TestApp) -> i64 {
    diesel::sql_query("SELECT COUNT(*) AS n FROM scenarios")
        .get_result::<Count>(&mut app.db.connect())
        .unwrap()
        .n
}

#[derive(QueryableByName)]
struct Expiry {
    #[diesel(sql_type = diesel::sql_types::Nullable<Text>)]
    created_by: Option<String>,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    expires: bool,
}

/// (creator, whether it has an expiry) of scenario `id`.
fn ownership(app: &TestApp, id: &str) -> (Option<String>, bool) {
    let row = diesel::sql_query(
        "SELECT created_by, (expires_at IS NOT NULL) AS expires \
         FROM scenarios WHERE id = $1",
    )
    .bind::<Text, _>(id)
    .get_result::<Expiry>(&mut app.db.connect())
    .unwrap();
    (row.created_by, row.expires)
}

/// Moves scenario `id`'s expiry into the past.
fn expire(app: &TestApp, id: &str) {
    let n =
        diesel::sql_query("UPDATE scenarios SET expires_at = '2001-01-01 00:00:00' WHERE id = $1")
            .bind::<Text, _>(id)
            .execute(&mut app.db.connect())
            .unwrap();
    assert_eq!(n, 1);
}

both_backends! {
    fn signed_out_generation_lands_on_the_sheet_with_its_share_link(app: &TestApp) {
        // Arrange
        let mut browser = Browser::new(app);
        let (page, _) = browser.page("/scenarios/new");
        assert!(page.contains("<main") && page.contains("Generate scenario"), "{page}");
        assert!(page.contains("no account needed"), "{page}");
        assert!(browser.cookies.contains_key("fad_form"), "the form cookie ties the token");
        // Act
        let id = generated(browser.generate(&[]));
        // Assert
        let (sheet, _) = browser.page(&format!("/scenarios/{id}"));
        assert!(sheet.contains("Scenario: Red Company vs Raiders"), "{sheet}");
        assert!(sheet.contains("A sheet for each side") && sheet.matches("/scenarios/side/").count() >= 2, "{sheet}");
        assert!(sheet.contains("This sheet shows both sides' secrets"), "{sheet}");
        assert!(sheet.contains("Log in to keep it") && sheet.contains("deleted on"), "{sheet}");
        assert!(sheet.contains("Circumstances of war"), "the narrative was asked for");
        // Anyone with the share link (or the id) reads it, without cookies.
        let shared = app.get(&share_path(&sheet));
        assert_eq!(shared.status(), 200);
        assert_eq!(app.get(&format!("/scenarios/{id}")).status(), 200);
        // Nobody owns it, so the account API does not list it as anybody's.
        let someone = register(app, "someone");
        let r = app.get_with_token(&format!("/api/v1/scenarios/{id}"), &someone.token);
        assert_eq!(r.status(), 404);
        assert_eq!(ownership(app, &id), (None, true));
    }
}

both_backends! {
    fn a_bad_form_comes_back_with_its_errors_and_the_input_kept(app: &TestApp) {
        // Arrange
        let mut browser = Browser::new(app);
        // Act: a unit kind that does not exist, and Side 2 a player force without a stance.
        let response = browser.generate(&[
            ("side1_units", "Alpha Squad, squad\nBig Gun, tank"),
            ("side2_non_player", ""),
        ]);
        // Assert
        assert_eq!(response.status(), 422);
        let page = response.text().unwrap();
        assert!(page.contains(r#"id="error-summary""#), "{page}");
        assert!(page.contains("line 2: `tank` is not a unit"), "{page}");
        assert!(page.contains("choose the stance"), "{page}");
        assert!(page.contains("Alpha Squad, squad\nBig Gun, tank"), "the units are kept: {page}");
        assert!(page.contains(r#"value="Red Company""#), "the name is kept");
        assert_eq!(scenario_count(app), 0, "nothing stored");

        // A rule the use case checks (too many figures) names its line too.
        let response = browser.generate(&[("side1_units", "\nAlpha Squad, squad, 999")]);
        assert_eq!(response.status(), 422);
        let page = response.text().unwrap();
        assert!(page.contains("line 2: strength"), "{page}");
        assert_eq!(scenario_count(app), 0);
    }
}

both_backends! {
    fn the_generator_refuses_forms_without_a_valid_token(app: &TestApp) {
        // Arrange
        let mut browser = Browser::new(app);
        let (_, token) = browser.page("/scenarios/new");
        let fields = [
            ("side1_name", "Red"), ("side1_units", "A, squad"),
            ("side1_stance", "neutral"), ("side1_attitude", "cautious"),
            ("side2_name", "Blue"), ("side2_units", "B, squad"),
            ("side2_stance", "neutral"), ("side2_attitude", "cautious"),
        ];
        // Act + Assert: no token, a wrong token, a cross-site post with the right token.
        assert_eq!(browser.post("/scenarios/new", &fields).status(), 403);
        let mut wrong = fields.to_vec();
        wrong.push(("csrf_token", "00"));
        assert_eq!(browser.post("/scenarios/new", &wrong).status(), 403);
        let mut right = fields.to_vec();
        right.push(("csrf_token", &token));
        let cross = browser.post_with(
            "/scenarios/new",
            &right,
            &[("origin", "https://evil.example"), ("sec-fetch-site", "cross-site")],
        );
        assert_eq!(cross.status(), 403);
        // Another browser's token does not fit this browser's form cookie.
        let mut other = Browser::new(app);
        other.page("/scenarios/new");
        assert_eq!(other.post("/scenarios/new", &right).status(), 403);
        assert_eq!(scenario_count(app), 0, "nothing stored");
        assert_eq!(browser.post("/scenarios/new", &right).status(), 303);
    }
}

/// A server that lets one address generate two scenarios an hour signed out and sweeps every
/// second.
struct TightLimits(TestApp);

impl Fixture for TightLimits {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[
                ("FAD_MAX_ONESHOTS_PER_ADDRESS_PER_HOUR", "2"),
                ("FAD_ONESHOT_SWEEP_SECS", "1"),
            ],
        ))
    }
}

both_backends! {
    fn signed_out_generation_stops_at_the_address_limit_with_a_429_page(limits: &TightLimits) {
        // Arrange
        let app = &limits.0;
        let mut browser = Browser::new(app);
        generated(browser.generate(&[]));
        generated(browser.generate(&[]));
        // Act
        let response = browser.generate(&[]);
        // Assert
        assert_eq!(response.status(), 429);
        let wait: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=3600).contains(&wait), "{wait}");
        let page = response.text().unwrap();
        assert!(page.contains("Too many scenarios") && page.contains("Try again in"), "{page}");
        assert!(page.contains("<main"), "a page, not an error body");
        assert_eq!(scenario_count(app), 2);
        // A signed-in person counts against the account, not the address.
        register(app, "member");
        browser.login("member");
        generated(browser.generate(&[]));
    }
}

both_backends! {
    fn an_expired_scenario_answers_404_and_the_sweep_deletes_it(limits: &TightLimits) {
        // Arrange
        let app = &limits.0;
        let mut browser = Browser::new(app);
        let id = generated(browser.generate(&[]));
        let (sheet, _) = browser.page(&format!("/scenarios/{id}"));
        let share = share_path(&sheet);
        let token = share.rsplit('/').next().unwrap().to_owned();
        // Act
        expire(app, &id);
        // Assert: gone at once everywhere, before the sweep.
        let page = browser.get(&format!("/scenarios/{id}"));
        assert_eq!(page.status(), 404);
        assert!(page.text().unwrap().contains("<main"), "browsers get a page");
        assert_eq!(app.get(&share).status(), 404);
        let api = app.get(&format!("/api/v1/scenarios/shared/{token}"));
        assert_eq!(api.status(), 404);
        // The sweep (every second here) deletes the row.
        let deadline = Instant::now() + Duration::from_secs(15);
        while scenario_count(app) > 0 {
            assert!(Instant::now() < deadline, "the sweep never deleted the expired scenario");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

both_backends! {
    fn a_signed_in_person_keeps_a_signed_out_scenario(app: &TestApp) {
        // Arrange: generated signed out; the same browser signs in and opens the sheet.
        let mut browser = Browser::new(app);
        let id = generated(browser.generate(&[]));
        let sheet_path = format!("/scenarios/{id}");
        let keeper = register(app, "keeper");
        browser.login("keeper");
        let mut anonymous = Browser::new(app);
        let (sheet, token) = browser.page(&sheet_path);
        assert!(sheet.contains(">Keep</button>"), "{sheet}");
        // Act: without the token nothing happens; with it the scenario is kept.
        assert_eq!(browser.post(&format!("{sheet_path}/keep"), &[]).status(), 403);
        assert_eq!(ownership(app, &id), (None, true));
        let response = browser.post(&format!("{sheet_path}/keep"), &[("csrf_token", &token)]);
        // Assert
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), sheet_path);
        assert_eq!(ownership(app, &id), (Some(keeper.id.clone()), false));
        let (sheet, _) = browser.page(&sheet_path);
        assert!(sheet.contains("Saved in your account") && !sheet.contains("deleted on"), "{sheet}");
        // Now it is the keeper's: in their API list, no longer open by id to others, and the
        // share link still works.
        let list: Value = app.get_with_token("/api/v1/scenarios", &keeper.token).json().unwrap();
        assert_eq!(list["scenarios"][0]["id"], id.as_str());
        assert_eq!(anonymous.get(&sheet_path).status(), 404);
        assert_eq!(app.get(&share_path(&sheet)).status(), 200);
        // Keeping it again is harmless; someone else cannot take it.
        let (_, token) = browser.page("/scenarios/new");
        assert_eq!(browser.post(&format!("{sheet_path}/keep"), &[("csrf_token", &token)]).status(), 303);
        register(app, "taker");
        let mut taker = Browser::new(app);
        taker.login("taker");
        let (_, token) = taker.page("/scenarios/new");
        assert_eq!(taker.post(&format!("{sheet_path}/keep"), &[("csrf_token", &token)]).status(), 404);
        assert_eq!(ownership(app, &id), (Some(keeper.id), false));
    }
}

both_backends! {
    fn a_signed_in_person_picks_a_stored_force_and_keeps_the_scenario(app: &TestApp) {
        // Arrange
        let owner = register(app, "owner");
        let campaign = create_campaign(app, &owner, "Long Winter");
        let campaign_id = campaign["id"].as_str().unwrap();
        let force = create_force(app, &owner, campaign_id, &small_roster("Iron Guard"));
        let force_id = force["id"].as_str().unwrap();
        let mut browser = Browser::new(app);
        browser.login("owner");
        let (page, _) = browser.page("/scenarios/new");
        assert!(page.contains("Side 1 stored force") && page.contains("Iron Guard"), "{page}");
        assert!(!page.contains("no account needed"));
        // Act
        let id = generated(browser.generate(&[("side1_force", force_id), ("side1_units", "")]));
        // Assert
        let (sheet, _) = browser.page(&format!("/scenarios/{id}"));
        assert!(sheet.contains("Scenario: Iron Guard vs Raiders"), "{sheet}");
        assert!(sheet.contains("Saved in your account") && !sheet.contains(">Keep</button>"));
        assert_eq!(ownership(app, &id), (Some(owner.id.clone()), false));
        let api = app.get_with_token(&format!("/api/v1/scenarios/{id}"), &owner.token);
        assert_eq!(api.status(), 200);
        // Another person's force cannot be picked by id.
        register(app, "stranger");
        let mut stranger = Browser::new(app);
        stranger.login("stranger");
        let response = stranger.generate(&[("side1_force", force_id)]);
        assert_eq!(response.status(), 422);
        assert!(response.text().unwrap().contains("Side 1 stored force"));
    }
}

/// Entries on a story page.
fn entries(page: &str) -> usize {
    page.matches(r#"<li class="panel">"#).count()
}

/// The `before` cursor of a story page's "Older entries" link, if any.
fn older(page: &str) -> Option<String> {
    let marker = "/timeline?before=";
    let start = page.find(marker)? + marker.len();
    Some(page[start..].split('"').next()?.to_owned())
}

both_backends! {
    fn the_campaign_story_pages_newest_first_for_members_only(app: &TestApp) {
        // Arrange: 27 forces, each a `force.created` event.
        let organiser = register(app, "organiser");
        let campaign = create_campaign(app, &organiser, "Long Winter");
        let id = campaign["id"].as_str().unwrap().to_owned();
        for n in 1..=27 {
            create_force(app, &organiser, &id, &small_roster(&format!("Force {n:02}")));
        }
        let mut browser = Browser::new(app);
        browser.login("organiser");
        let (campaign_page, _) = browser.page(&format!("/campaigns/{id}"));
        assert!(campaign_page.contains(&format!("/campaigns/{id}/timeline")), "linked from the campaign");
        // Act
        let (first, _) = browser.page(&format!("/campaigns/{id}/timeline"));
        // Assert
        assert_eq!(entries(&first), 25, "{first}");
        let newest = first.find("Force 27").unwrap();
        assert!(newest < first.find("Force 26").unwrap(), "newest first");
        assert!(!first.contains("Force 02"), "{first}");
        assert!(first.contains(r#"href="/forces/"#) && first.contains("<time datetime="));
        let before = older(&first).expect("a link to older entries");
        let (second, _) = browser.page(&format!("/campaigns/{id}/timeline?before={before}"));
        assert!(second.contains("Force 02") && second.contains("Force 01"), "{second}");
        assert!(!second.contains("Force 03"), "no entry twice");
        assert_eq!(older(&second), None, "the last page");
        assert_eq!(browser.get(&format!("/campaigns/{id}/timeline?before=soon")).status(), 400);

        // Not a member: 404 as for a campaign that does not exist; signed out: log in first.
        register(app, "outsider");
        let mut outsider = Browser::new(app);
        outsider.login("outsider");
        assert_eq!(outsider.get(&format!("/campaigns/{id}/timeline")).status(), 404);
        let signed_out = Browser::new(app).get(&format!("/campaigns/{id}/timeline"));
        assert_eq!(signed_out.status(), 303);
        assert!(location(&signed_out).starts_with("/login?next="));
    }
}

both_backends! {
    /// `Keep` belongs to the browser that generated a scenario signed out (its
    /// claim cookie), not to whoever holds the id or the link; the shared page shows no id.
    fn s9_only_the_generating_browser_keeps_a_signed_out_scenario(app: &TestApp) {
        // Arrange: generated signed out; the claim cookie is scoped to the scenario's pages.
        let mut creator = Browser::new(app);
        let response = creator.generate(&[]);
        let claim = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .find(|c| c.starts_with("fad_claim="))
            .expect("a claim cookie");
        let id = generated(response);
        let sheet_path = format!("/scenarios/{id}");
        for flag in [format!("Path={sheet_path};"), "HttpOnly".to_owned(), "SameSite=Lax".to_owned()] {
            assert!(claim.contains(&flag), "{claim}");
        }
        let (sheet, _) = creator.page(&sheet_path);
        let shared = app.get(&share_path(&sheet));
        assert_eq!(shared.status(), 200);
        let shared = shared.text().unwrap();

        // Act: someone else, signed in with the id, tries to keep it.
        register(app, "taker");
        let mut taker = Browser::new(app);
        taker.login("taker");
        let (taker_sheet, token) = taker.page(&sheet_path);
        let taken = taker.post(&format!("{sheet_path}/keep"), &[("csrf_token", &token)]);

        // Assert: the shared page names no id; the taker sees no Keep and is refused.
        assert!(!shared.contains(&id), "the shared page shows the id: {shared}");
        assert!(!taker_sheet.contains(">Keep</button>"), "{taker_sheet}");
        assert_eq!(taken.status(), 403);
        assert_eq!(ownership(app, &id), (None, true));
        // The creator's browser, once signed in, keeps it.
        let keeper = register(app, "keeper");
        creator.login("keeper");
        let (sheet, token) = creator.page(&sheet_path);
        assert!(sheet.contains(">Keep</button>"), "{sheet}");
        let kept = creator.post(&format!("{sheet_path}/keep"), &[("csrf_token", &token)]);
        assert_eq!(kept.status(), 303);
        assert_eq!(ownership(app, &id), (Some(keeper.id), false));
    }
}
