//! Hardening of the web app's own surfaces: the join page spends the join quota,
//! return paths stay on this site, live streams are capped per account and address and free
//! their slot when the browser goes, hidden choices leave the opponent's view untouched, share
//! links and signed-out scenarios, and forms over the body limit come back as forms.

use std::time::{Duration, Instant};

use reqwest::blocking::{Client, Response};
use serde_json::json;

use crate::auth::register;
use crate::battle_scenarios::Game;
use crate::campaigns::{create_campaign, invite_code, join};
use crate::common::{Backend, TestApp, assert_problem, send};
use crate::web_pages::{Browser, location};

/// The join page with a rate limit of `burst` attempts (and one a minute after).
fn limited_app(backend: Backend, burst: &str) -> TestApp {
    TestApp::spawn_with(
        backend,
        &[
            ("FAD_AUTH_RATE_PER_MINUTE", "1"),
            ("FAD_AUTH_RATE_BURST", burst),
        ],
    )
}

/// `GET /join/{code}` signed out spends the API join's per-address budget, and
/// a wrong code gets the API's one answer (404, the same words).
fn join_page_spends_the_join_budget(backend: Backend) {
    // Arrange: 5 attempts per address; registering through the API spends 2 (it signs in).
    let app = limited_app(backend, "5");
    let organiser = register(&app, "organiser");
    let campaign = create_campaign(&app, &organiser, "Long Winter");
    let code = invite_code(&app, &organiser, campaign["id"].as_str().unwrap());
    let mut guesser = Browser::new(&app);

    // Act: two wrong guesses and the right code on the page, one wrong guess through the API.
    let wrong = guesser.get("/join/0000-0000");
    let wrong_status = wrong.status();
    let wrong_text = wrong.text().unwrap();
    let api_wrong = join(&app, &organiser, "0000-0001");
    let right = guesser.get(&format!("/join/{code}"));
    let spent = guesser.get("/join/0000-0002");

    // Assert: a wrong code says what the API says and no more; the fifth attempt is refused.
    assert_eq!(wrong_status, 404, "{wrong_text}");
    let api_detail = assert_problem(api_wrong, 404)["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(wrong_text.contains(&api_detail), "{wrong_text}");
    assert_eq!(right.status(), 200);
    assert!(right.text().unwrap().contains("Long Winter"));
    assert_eq!(spent.status(), 429);
    let retry_after: u64 = spent.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    // The API shares the budget the page spent.
    assert_problem(join(&app, &organiser, &code), 429);
}

#[test]
fn c_join_page_spends_the_join_budget_sqlite() {
    join_page_spends_the_join_budget(Backend::Sqlite);
}

#[test]
fn c_join_page_spends_the_join_budget_postgres() {
    join_page_spends_the_join_budget(Backend::Postgres);
}

/// Return paths that must fall back to the home page: other hosts however spelled, whitespace
/// and control characters (raw or percent-encoded), backslashes, no leading slash.
const HOSTILE_NEXT: &[&str] = &[
    "/%09/evil.example",
    "/%0A/evil.example",
    "/%0D%0A/evil.example",
    "/%01",
    "/%7F",
    "%2F%2Fevil.example",
    "//evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/%2509/evil.example",
    "/%252F/evil.example",
    "/%20/evil.example",
    "/+/evil.example",
    "/%C2%A0/evil.example",
    "https://evil.example",
    "evil.example",
    "/%E2%80%8B",
    "",
];

both_backends! {
    /// `next` on `/login` (signed in and out) and on the login form is only ever
    /// a plain path of this site; anything else goes home, never a 500.
    fn login_next_is_only_a_same_site_path(app: &TestApp) {
        let mut browser = Browser::new(app);
        browser.register("alice");
        let mut anonymous = Browser::new(app);
        for next in HOSTILE_NEXT {
            // `+` is a space in a query; the others are as written.
            let path = format!("/login?next={next}");
            let signed_in = browser.get(&path);
            assert_eq!(signed_in.status(), 303, "{next}");
            assert_eq!(location(&signed_in), "/", "signed in, next={next}");
            let form = anonymous.get(&path);
            assert_eq!(form.status(), 200, "{next}");
            let body = form.text().unwrap();
            assert!(body.contains(r#"name="next" value="/""#), "signed out, next={next}: {body}");
        }
        // The login form's own `next` field (a few: each sign-in hashes a password).
        for next in ["/%09/evil.example", "/%5Cevil.example", "/%2509/evil.example"] {
            let (_, token) = anonymous.page("/login");
            let decoded: String = url::form_urlencoded::parse(format!("n={next}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
                .unwrap();
            let posted = anonymous.post(
                "/login",
                &[("csrf_token", &token), ("username", "alice"), ("password", crate::web_pages::PASSWORD), ("next", &decoded)],
            );
            assert_eq!(posted.status(), 303, "{next}");
            assert_eq!(location(&posted), "/", "posted next={next:?}");
            anonymous.cookies.remove("fad_session");
        }
        // A plain path of this site, with its query, is kept.
        let kept = browser.get("/login?next=%2Fjoin%2FK7M2-QX9P%3Fx%3D1");
        assert_eq!(location(&kept), "/join/K7M2-QX9P?x=1");
    }
}

/// Opens `path` as an event stream for `browser`'s session on a connection of its own; the
/// connection closes when the response is dropped.
fn open_stream(browser: &Browser<'_>, path: &str) -> Response {
    send(
        Client::builder()
            .build()
            .unwrap()
            .get(browser.app.url(path))
            .header("cookie", browser.cookie_header()),
    )
}

/// one account holds at most its cap of live streams while another account
/// still gets one, and a stream whose browser went away frees its slot at once.
fn streams_are_capped_per_account_and_freed_on_disconnect(backend: Backend) {
    // Arrange: two streams per account (every test client shares one address, whose cap is
    // higher).
    let app = TestApp::spawn_with(backend, &[("FAD_MAX_STREAMS_PER_ACCOUNT", "2")]);
    let g = Game::new(&app);
    let blue = Browser::signed_in(&app, &g.people.owner.username);
    let red = Browser::signed_in(&app, &g.people.player.username);
    let events = format!("/battles/{}/events", g.battle);

    // Act: Blue opens three, Red one.
    let first = open_stream(&blue, &events);
    let second = open_stream(&blue, &events);
    let third = open_stream(&blue, &events);
    let other = open_stream(&red, &events);

    // Assert: Blue's third is refused with a time to retry; Red's is served.
    assert_eq!(first.status(), 200);
    assert_eq!(second.status(), 200);
    assert_eq!(third.status(), 429);
    assert!(third.headers().contains_key("retry-after"));
    assert_eq!(other.status(), 200);
    // Blue's browser closes one: its slot is free again well before any keep-alive write.
    drop(first);
    let closed = Instant::now();
    loop {
        let again = open_stream(&blue, &events);
        if again.status() == 200 {
            break;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(2),
            "the closed stream still holds its slot"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(second);
}

#[test]
fn streams_are_capped_per_account_and_freed_on_disconnect_sqlite() {
    streams_are_capped_per_account_and_freed_on_disconnect(Backend::Sqlite);
}

#[test]
fn streams_are_capped_per_account_and_freed_on_disconnect_postgres() {
    streams_are_capped_per_account_and_freed_on_disconnect(Backend::Postgres);
}

both_backends! {
    /// a side's share link made by the organiser (a referee) stops opening once
    /// the side's owner has left the campaign.
    fn a_referees_share_link_stops_when_the_sides_owner_leaves(app: &TestApp) {
        // Arrange: the organiser shares Blue's side; Blue's owner is a member.
        let g = Game::new(app);
        let shared = app.post_json_with_token(
            &format!("/api/v1/battles/{}/scenario/share", g.battle),
            &json!({"force_id": g.blue_id()}),
            &g.people.organiser.token,
        );
        assert!(shared.status().is_success(), "{}", shared.text().unwrap());
        let link = shared.json::<serde_json::Value>().unwrap()["url"].as_str().unwrap().to_owned();
        assert_eq!(app.get(&link).status(), 200);

        // Act: Blue's owner leaves.
        let left = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/leave", g.world.campaign_id),
            &json!({}),
            &g.people.owner.token,
        );
        assert_eq!(left.status(), 204, "{}", left.text().unwrap());

        // Assert: the link opens nothing; Red's side, whose owner stays, still shares.
        assert_eq!(app.get(&link).status(), 404);
        let red = app.post_json_with_token(
            &format!("/api/v1/battles/{}/scenario/share", g.battle),
            &json!({"force_id": g.red_id()}),
            &g.people.organiser.token,
        );
        let red = red.json::<serde_json::Value>().unwrap()["url"].as_str().unwrap().to_owned();
        assert_eq!(app.get(&red).status(), 200);
    }
}

/// `n` unit lines of about 45 characters each.
fn unit_lines(n: usize) -> String {
    (1..=n)
        .map(|i| format!("Alpha Squad {i:03}, squad, regular, steady, 8"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The generator form of `browser` with both sides typed in.
fn generator_fields(token: &str, side1: String, side2: String) -> Vec<(String, String)> {
    [
        ("csrf_token", token.to_owned()),
        ("side1_name", "Red Company".to_owned()),
        ("side1_units", side1),
        ("side1_stance", "offensive".to_owned()),
        ("side1_attitude", "aggressive".to_owned()),
        ("side2_name", "Blue Company".to_owned()),
        ("side2_units", side2),
        ("side2_stance", "neutral".to_owned()),
        ("side2_attitude", "cautious".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

fn post_fields(browser: &mut Browser<'_>, path: &str, fields: &[(String, String)]) -> Response {
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    browser.post(path, &pairs)
}

/// The `maxlength` of the field named `name` on `page`.
fn maxlength_of(page: &str, name: &str) -> usize {
    let at = page
        .find(&format!(r#"name="{name}""#))
        .unwrap_or_else(|| panic!("no field {name}"));
    let tag_start = page[..at].rfind('<').unwrap();
    let tag = &page[tag_start..at + page[at..].find('>').unwrap()];
    let start = tag
        .find(r#"maxlength=""#)
        .unwrap_or_else(|| panic!("{name} has no maxlength: {tag}"))
        + r#"maxlength=""#.len();
    tag[start..].split('"').next().unwrap().parse().unwrap()
}

both_backends! {
    /// a generator form over actix's 16 KiB form default (201 lines a side,
    /// within the page's maxlength) comes back as the form with the error beside the field;
    /// a form at every field's maxlength, in the widest characters a browser encodes, fits the
    /// server's limit.
    fn a_large_web_form_comes_back_as_the_form(app: &TestApp) {
        let mut browser = Browser::new(app);
        let (page, token) = browser.page("/scenarios/new");
        let units_max = maxlength_of(&page, "side1_units");
        let too_many = unit_lines(201);
        assert!(too_many.len() < units_max, "within the page's maxlength");

        // 201 lines a side: over 16 KiB as a form, one unit too many.
        let fields = generator_fields(&token, too_many.clone(), too_many);
        let response = post_fields(&mut browser, "/scenarios/new", &fields);
        assert_eq!(response.status(), 422);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-side1-units-error""#) && body.contains("at most 200 units"), "{body}");

        // Every field at its maxlength in three-byte characters (nine bytes each once
        // encoded): the form is read and answered as a form.
        let wide = |name: &str| "\u{2014}".repeat(maxlength_of(&page, name));
        let fields = generator_fields(&token, wide("side1_units"), wide("side2_units"))
            .into_iter()
            .map(|(k, v)| if k.ends_with("_name") { let w = wide(&k); (k, w) } else { (k, v) })
            .collect::<Vec<_>>();
        let response = post_fields(&mut browser, "/scenarios/new", &fields);
        assert_eq!(response.status(), 422, "{}", response.text().unwrap_or_default());

        // A unit list longer than the page allows, sent by something other than the page, is
        // refused beside its field.
        let fields = generator_fields(&token, "x".repeat(units_max + 1), unit_lines(2));
        let response = post_fields(&mut browser, "/scenarios/new", &fields);
        assert_eq!(response.status(), 422);
        assert!(response.text().unwrap().contains(&format!("at most {units_max} characters")));
    }
}

/// a form over the server's body limit (`FAD_BODY_LIMIT`, here 8 KiB) is an
/// HTML page in plain words (413), never problem+json, for the pages read by field and the
/// roster forms read whole alike.
fn a_form_over_the_body_limit_is_a_page(backend: Backend) {
    let app = TestApp::spawn_with(backend, &[("FAD_BODY_LIMIT", "8192")]);
    let mut browser = Browser::new(&app);
    browser.register("alice");
    let campaign = browser.create_campaign("Long Winter");
    let (_, token) = browser.page("/scenarios/new");
    let big = "x".repeat(12 * 1024);
    for path in [
        "/scenarios/new".to_owned(),
        format!("/campaigns/{campaign}/forces/new"),
    ] {
        let response = browser.post(&path, &[("csrf_token", &token), ("side1_units", &big)]);
        assert_eq!(response.status(), 413, "{path}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.starts_with("text/html"),
            "{path}: {content_type}"
        );
        let body = response.text().unwrap();
        assert!(
            body.contains("larger than this server accepts (8 KiB)")
                && body.contains("Nothing was saved"),
            "{path}: {body}"
        );
    }
}

#[test]
fn a_form_over_the_body_limit_is_a_page_sqlite() {
    a_form_over_the_body_limit_is_a_page(Backend::Sqlite);
}

#[test]
fn a_form_over_the_body_limit_is_a_page_postgres() {
    a_form_over_the_body_limit_is_a_page(Backend::Postgres);
}
