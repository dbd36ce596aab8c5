//! The web pages against the real binary: accounts and sessions (cookie flags, logout and
//! password change revoke on the server, the JSON API ignores the cookie), CSRF refusals that
//! apply nothing, bad input re-rendered with the input kept, campaign creation, invitations
//! and joining, who sees what, and the static assets.

use std::collections::HashMap;

use reqwest::Method;
use reqwest::blocking::{Client, Response};
use reqwest::redirect::Policy;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::common::{TestApp, send};

pub(crate) const PASSWORD: &str = "correct horse battery staple";

/// A browser without scripts: keeps its cookies, never follows redirects by itself.
pub(crate) struct Browser<'a> {
    pub(crate) app: &'a TestApp,
    client: Client,
    pub(crate) cookies: HashMap<String, String>,
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Self {
        Self {
            app,
            client: Client::builder()
                .redirect(Policy::none())
                .timeout(std::time::Duration::from_secs(30))
                .build()
                .unwrap(),
            cookies: HashMap::new(),
        }
    }

    pub(crate) fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep_cookies(&mut self, response: &Response) {
        for value in response.headers().get_all("set-cookie") {
            let text = value.to_str().unwrap();
            let (pair, _) = text.split_once(';').unwrap_or((text, ""));
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || text.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
    }

    pub(crate) fn get(&mut self, path: &str) -> Response {
        let response = send(
            self.client
                .get(self.app.url(path))
                .header("cookie", self.cookie_header()),
        );
        self.keep_cookies(&response);
        response
    }

    /// Fetches `path`, returns its body and the form token in it.
    pub(crate) fn page(&mut self, path: &str) -> (String, String) {
        let response = self.get(path);
        assert_eq!(response.status(), 200, "GET {path}");
        let body = response.text().unwrap();
        let token = token_in(&body).unwrap_or_default();
        (body, token)
    }

    pub(crate) fn post_with(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        headers: &[(&str, &str)],
    ) -> Response {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        let mut request = self
            .client
            .request(Method::POST, self.app.url(path))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", self.cookie_header())
            .body(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = send(request);
        self.keep_cookies(&response);
        response
    }

    /// A same-origin browser POST (as Chromium sends it).
    pub(crate) fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let origin = self.app.base_url().to_owned();
        self.post_with(
            path,
            fields,
            &[("origin", &origin), ("sec-fetch-site", "same-origin")],
        )
    }

    /// A browser with `username` signed in through the login form.
    pub(crate) fn signed_in(app: &'a TestApp, username: &str) -> Self {
        let mut browser = Self::new(app);
        browser.login(username);
        browser
    }

    /// Signs `username` in through the login form.
    pub(crate) fn login(&mut self, username: &str) {
        let (_, token) = self.page("/login");
        let response = self.post(
            "/login",
            &[
                ("csrf_token", &token),
                ("username", username),
                ("password", PASSWORD),
            ],
        );
        assert_eq!(response.status(), 303, "login {username}");
    }

    pub(crate) fn register(&mut self, username: &str) {
        let (_, token) = self.page("/register");
        let response = self.post(
            "/register",
            &[
                ("csrf_token", &token),
                ("username", username),
                ("password", PASSWORD),
            ],
        );
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        assert!(self.cookies.contains_key("fad_session"));
    }

    pub(crate) fn create_campaign(&mut self, name: &str) -> String {
        let (_, token) = self.page("/campaigns/new");
        let response = self.post(
            "/campaigns/new",
            &[("csrf_token", &token), ("name", name), ("description", "")],
        );
        assert_eq!(response.status(), 303);
        location(&response)
            .strip_prefix("/campaigns/")
            .unwrap()
            .to_owned()
    }
}

pub(crate) fn token_in(body: &str) -> Option<String> {
    let start = body.find(r#"name="csrf_token" value=""#)? + r#"name="csrf_token" value=""#.len();
    Some(body[start..].split('"').next()?.to_owned())
}

pub(crate) fn location(response: &Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

pub(crate) fn bearer(app: &TestApp, username: &str) -> String {
    let response = app.post_json(
        "/api/v1/auth/login",
        &json!({"username": username, "password": PASSWORD}),
    );
    assert_eq!(response.status(), 200);
    response.json::<serde_json::Value>().unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned()
}

both_backends! {
    fn register_sets_a_strict_session_cookie_that_logout_revokes(app: &TestApp) {
        let mut browser = Browser::new(app);
        let (home, _) = browser.page("/");
        assert!(home.contains("Create an account") && home.contains("<main"), "{home}");
        let (_, token) = browser.page("/register");
        assert!(browser.cookies.contains_key("fad_form"), "the form cookie ties the token");
        let response = browser.post(
            "/register",
            &[("csrf_token", &token), ("username", "alice"), ("password", PASSWORD), ("next", "/")],
        );
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), "/");
        let cookie = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .find(|c| c.starts_with("fad_session="))
            .unwrap();
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(cookie.contains(flag), "{cookie}");
        }
        assert!(!cookie.contains("Secure"), "plain http: {cookie}");
        let session = browser.cookies["fad_session"].clone();

        let (home, token) = browser.page("/");
        assert!(home.contains("Your campaigns") && home.contains("alice"), "{home}");
        assert!(home.contains("Log out"));

        // The JSON API takes bearer tokens only: the cookie alone is 401.
        let me = send(
            app.request(Method::GET, "/api/v1/me")
                .header("cookie", format!("fad_session={session}")),
        );
        assert_eq!(me.status(), 401);

        // Logout without the token is refused and the session lives on.
        assert_eq!(browser.post("/logout", &[]).status(), 403);
        assert!(browser.page("/").0.contains("Your campaigns"));
        let response = browser.post("/logout", &[("csrf_token", &token)]);
        assert_eq!(response.status(), 303);
        assert!(!browser.cookies.contains_key("fad_session"), "the cookie is cleared");
        // The old cookie value no longer signs anybody in: the server ended the session.
        browser.cookies.insert("fad_session".to_owned(), session);
        let (home, _) = browser.page("/");
        assert!(home.contains("Create an account") && !home.contains("alice"), "{home}");
        let response = browser.get("/campaigns/new");
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), "/login?next=/campaigns/new");
    }

    fn state_changing_forms_without_a_good_token_or_from_elsewhere_are_refused(app: &TestApp) {
        let mut browser = Browser::new(app);
        browser.register("bob");
        let (_, token) = browser.page("/campaigns/new");
        let fields = |t: &'static str| vec![("csrf_token", t), ("name", "Refused"), ("description", "")];
        assert_eq!(browser.post("/campaigns/new", &fields("")[1..]).status(), 403, "missing token");
        assert_eq!(browser.post("/campaigns/new", &fields("0000")).status(), 403, "wrong token");
        let good = [("csrf_token", token.as_str()), ("name", "Refused"), ("description", "")];
        let evil = browser.post_with("/campaigns/new", &good, &[("origin", "https://evil.example")]);
        assert_eq!(evil.status(), 403, "foreign Origin");
        let cross = browser.post_with("/campaigns/new", &good, &[("sec-fetch-site", "cross-site")]);
        assert_eq!(cross.status(), 403, "cross-site fetch");
        let body = cross.text().unwrap();
        assert!(body.contains("Nothing was changed"), "{body}");
        // Another browser's token does not fit this session.
        let mut other = Browser::new(app);
        other.register("carol");
        let (_, other_token) = other.page("/campaigns/new");
        let stolen = [("csrf_token", other_token.as_str()), ("name", "Refused"), ("description", "")];
        assert_eq!(browser.post("/campaigns/new", &stolen).status(), 403);
        // Nothing was created.
        let list = app.get_with_token("/api/v1/campaigns", &bearer(app, "bob"));
        let list: serde_json::Value = list.json().unwrap();
        assert_eq!(list["campaigns"].as_array().map(Vec::len), Some(0), "{list}");
        // Login forms carry a token too.
        let mut anonymous = Browser::new(app);
        let response = anonymous.post("/login", &[("username", "bob"), ("password", PASSWORD)]);
        assert_eq!(response.status(), 403);
        assert!(!anonymous.cookies.contains_key("fad_session"));
        // With the token it works.
        assert_eq!(browser.post("/campaigns/new", &good).status(), 303);
    }

    fn bad_input_gets_the_form_again_with_the_input_kept(app: &TestApp) {
        let mut browser = Browser::new(app);
        let (_, token) = browser.page("/register");
        let response = browser.post(
            "/register",
            &[("csrf_token", &token), ("username", "dora"), ("password", "short")],
        );
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#), "{body}");
        assert!(body.contains(r#"value="dora""#), "username kept: {body}");
        assert!(body.contains(r#"aria-invalid="true""#));
        assert!(!body.contains("short\""), "the password is never echoed");
        browser.register("dora");
        let (_, token) = browser.page("/campaigns/new");
        let response = browser.post(
            "/campaigns/new",
            &[("csrf_token", &token), ("name", "   "), ("description", "Kept text")],
        );
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains("Kept text") && body.contains("There is a problem"), "{body}");
        // A wrong password says so beside the field, the same for an unknown name.
        let mut again = Browser::new(app);
        let (_, token) = again.page("/login");
        let wrong = again.post("/login", &[("csrf_token", &token), ("username", "dora"), ("password", "not it at all")]);
        assert_eq!(wrong.status(), 401);
        let wrong = wrong.text().unwrap();
        let unknown = again.post("/login", &[("csrf_token", &token), ("username", "nobody"), ("password", "not it at all")]);
        assert_eq!(unknown.status(), 401);
        assert!(wrong.contains("Invalid username or password.") && unknown.text().unwrap().contains("Invalid username or password."));
        // Login comes back to where it was asked for; never to another site.
        let ok = again.post("/login", &[("csrf_token", &token), ("username", "dora"), ("password", PASSWORD), ("next", "//evil.example/")]);
        assert_eq!(ok.status(), 303);
        assert_eq!(location(&ok), "/");
    }

    fn an_invitation_link_lets_a_second_player_join(app: &TestApp) {
        let mut organiser = Browser::new(app);
        organiser.register("erin");
        let campaign = organiser.create_campaign("Long Winter");
        let (page, token) = organiser.page(&format!("/campaigns/{campaign}"));
        assert!(page.contains("<h1>Long Winter</h1>") && page.contains("Create invite link"), "{page}");
        let response = organiser.post(&format!("/campaigns/{campaign}/invites"), &[("csrf_token", &token)]);
        // Redirect after post: the campaign page lists the invitation, and a reload of it
        // creates nothing.
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), format!("/campaigns/{campaign}#invites"));
        let (page, _) = organiser.page(&format!("/campaigns/{campaign}"));
        assert!(page.contains("<svg"), "a QR code");
        let (again, _) = organiser.page(&format!("/campaigns/{campaign}"));
        assert_eq!(again.matches("Invitation link ").count(), 1, "a reload lists the one invitation: {again}");
        let start = page.find("/join/").unwrap() + "/join/".len();
        let code: String = page[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        assert!(code.len() >= 8, "{code}");

        // Signed out: log in or register first, and come back.
        let mut player = Browser::new(app);
        let (join, _) = player.page(&format!("/join/{code}"));
        assert!(join.contains("Long Winter") && !join.contains("Join campaign"), "{join}");
        let back = format!("/join/{code}");
        assert!(join.contains(&format!("/register?next={back}")), "{join}");
        let (_, token) = player.page(&format!("/register?next={back}"));
        let response = player.post(
            "/register",
            &[("csrf_token", &token), ("username", "finn"), ("password", PASSWORD), ("next", &back)],
        );
        assert_eq!(location(&response), back);
        let (join, token) = player.page(&back);
        assert!(join.contains("Join campaign"), "{join}");
        let response = player.post(&back, &[("csrf_token", &token)]);
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), format!("/campaigns/{campaign}"));
        let (page, _) = player.page(&format!("/campaigns/{campaign}"));
        assert!(page.contains("erin") && page.contains("finn"), "{page}");
        // A player sees no organiser controls, invitations or keys.
        assert!(!page.contains("Create invite link") && !page.contains("API keys"), "{page}");
        assert!(!page.contains(&code));
        // Home lists the campaign with the role.
        let (home, _) = player.page("/");
        assert!(home.contains("Long Winter") && home.contains("Player"), "{home}");

        // An outsider gets 404, as from the JSON API; an unknown code too.
        let mut outsider = Browser::new(app);
        outsider.register("gail");
        assert_eq!(outsider.get(&format!("/campaigns/{campaign}")).status(), 404);
        assert_eq!(outsider.get("/join/not-a-code").status(), 404);
    }

    fn changing_the_password_ends_every_session(app: &TestApp) {
        let mut first = Browser::new(app);
        first.register("hana");
        let mut second = Browser::new(app);
        let (_, token) = second.page("/login");
        let response = second.post("/login", &[("csrf_token", &token), ("username", "hana"), ("password", PASSWORD)]);
        assert_eq!(response.status(), 303);
        let (_, token) = first.page("/account");
        let response = first.post(
            "/account/password",
            &[("csrf_token", &token), ("current_password", "wrong wrong wrong"), ("new_password", "another long passphrase here")],
        );
        assert_eq!(response.status(), 422);
        assert!(second.page("/").0.contains("Your campaigns"), "a failed change ends nothing");
        let response = first.post(
            "/account/password",
            &[("csrf_token", &token), ("current_password", PASSWORD), ("new_password", "another long passphrase here")],
        );
        assert_eq!(response.status(), 303);
        assert!(!first.page("/").0.contains("Your campaigns"));
        assert!(!second.page("/").0.contains("Your campaigns"), "the other session ended too");
    }

    fn assets_are_versioned_and_cached_and_htmx_is_the_pinned_file(app: &TestApp) {
        let mut browser = Browser::new(app);
        let (home, _) = browser.page("/");
        let css = home.split(r#"rel="stylesheet" href=""#).nth(1).unwrap().split('"').next().unwrap().to_owned();
        assert!(css.starts_with("/static/app-") && css.ends_with(".css"), "{css}");
        let response = browser.get(&css);
        assert_eq!(response.status(), 200);
        assert!(response.headers()["cache-control"].to_str().unwrap().contains("immutable"));
        let response = browser.get("/static/htmx-2.0.11.min.js");
        assert_eq!(response.status(), 200);
        let bytes = response.bytes().unwrap();
        assert_eq!(
            hex::encode(Sha256::digest(&bytes)),
            "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"
        );
        assert_eq!(browser.get("/static/app-000000000000.css").status(), 404);
        // Pages are never cached and load nothing from elsewhere.
        let response = browser.get("/");
        assert_eq!(response.headers()["cache-control"], "no-store");
        let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
    }
}

/// An organiser with a campaign, a player who joined it through an invitation and generated a
/// force on the page, and an outsider; answers the force id.
pub(crate) fn campaign_with_a_force<'a>(
    app: &'a TestApp,
    names: [&str; 3],
) -> (Browser<'a>, Browser<'a>, Browser<'a>, String) {
    let [organiser_name, player_name, outsider_name] = names;
    let mut organiser = Browser::new(app);
    organiser.register(organiser_name);
    let campaign = organiser.create_campaign("Ledger Test");
    let (_, token) = organiser.page(&format!("/campaigns/{campaign}"));
    let created = organiser.post(
        &format!("/campaigns/{campaign}/invites"),
        &[("csrf_token", &token)],
    );
    assert_eq!(created.status(), 303);
    let (page, _) = organiser.page(&format!("/campaigns/{campaign}"));
    let start = page.find("/join/").unwrap() + "/join/".len();
    let code: String = page[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let mut player = Browser::new(app);
    player.register(player_name);
    let (_, token) = player.page(&format!("/join/{code}"));
    assert_eq!(
        player
            .post(&format!("/join/{code}"), &[("csrf_token", &token)])
            .status(),
        303
    );
    let new_force = format!("/campaigns/{campaign}/forces/new");
    let (_, token) = player.page(&new_force);
    let response = player.post(
        &new_force,
        &[
            ("csrf_token", &token),
            ("name", "Iron Column"),
            ("platoons", "1"),
        ],
    );
    assert_eq!(response.status(), 303, "{}", response.text().unwrap());
    let force = location(&response)
        .strip_prefix("/forces/")
        .unwrap()
        .to_owned();
    let mut outsider = Browser::new(app);
    outsider.register(outsider_name);
    (organiser, player, outsider, force)
}

fn balance_of(app: &TestApp, username: &str, force: &str) -> i64 {
    let ledger = app.get_with_token(
        &format!("/api/v1/forces/{force}/ledger"),
        &bearer(app, username),
    );
    assert_eq!(ledger.status(), 200);
    ledger.json::<serde_json::Value>().unwrap()["balance"]
        .as_i64()
        .unwrap()
}

both_backends! {
    fn a_member_reads_a_forces_history_and_the_roster_as_of_each_entry(app: &TestApp) {
        let (_, mut player, mut outsider, force) = campaign_with_a_force(app, ["ivan", "jade", "kurt"]);
        let (roster, _) = player.page(&format!("/forces/{force}"));
        let history = format!("/forces/{force}/history");
        assert!(roster.contains(&format!(r#"href="{history}""#)), "linked from the roster: {roster}");
        assert!(roster.contains(&format!(r#"href="/forces/{force}/ledger""#)), "{roster}");
        let (page, _) = player.page(&history);
        assert!(page.contains("<h1>Iron Column · history</h1>"), "{page}");
        assert!(page.contains("Version 1 · generation") && page.contains("by jade"), "{page}");
        assert!(page.contains("Added <strong>"), "what changed: {page}");
        assert!(page.contains(" UTC</time>"), "when: {page}");
        assert!(!page.contains(">More<"), "one entry, one page: {page}");
        let start = page.find(&format!("{history}/")).unwrap();
        let entry: String = page[start..].chars().take_while(|c| *c != '"').collect();
        let (as_of, _) = player.page(&entry);
        assert!(as_of.contains("<h1>Iron Column as of version 1</h1>"), "{as_of}");
        assert!(as_of.contains(" points</h2>") && as_of.contains("<dt>Points</dt>"), "{as_of}");
        // Outsiders and unknown entries get 404; signed-out people go to the login page.
        assert_eq!(outsider.get(&history).status(), 404);
        assert_eq!(outsider.get(&entry).status(), 404);
        assert_eq!(player.get(&format!("{history}/no-such-entry")).status(), 404);
        assert_eq!(Browser::new(app).get(&history).status(), 303);
        // A cursor this list never gave is a plain page, not a crash.
        assert_eq!(player.get(&format!("{history}?after=junk")).status(), 400);
    }

    fn the_roster_page_answers_each_reader_from_one_read(app: &TestApp) {
        // The page reads the session and the force in one statement; each way it can come out.
        let (mut organiser, mut player, mut outsider, force) = campaign_with_a_force(app, ["olga", "pete", "quin"]);
        let path = format!("/forces/{force}");
        let (mine, _) = player.page(&path);
        assert!(mine.contains("<h1>Iron Column</h1>") && mine.contains("Edit roster"), "{mine}");
        assert!(mine.contains("<dt>Owner</dt><dd>pete</dd>"), "{mine}");
        let (theirs, _) = organiser.page(&path);
        assert!(theirs.contains("<h1>Iron Column</h1>"), "{theirs}");
        assert_eq!(outsider.get(&path).status(), 404, "an outsider learns nothing");
        assert_eq!(player.get("/forces/no-such-force").status(), 404);
        // Signed out, whether the force exists or not: sign in first.
        for path in [path.clone(), "/forces/no-such-force".to_owned()] {
            let response = Browser::new(app).get(&path);
            assert_eq!(response.status(), 303, "{path}");
            assert_eq!(location(&response), format!("/login?next={path}"));
        }
        // A session ended by logging out no longer reads the page.
        let session = player.cookies["fad_session"].clone();
        let (_, token) = player.page("/");
        assert_eq!(player.post("/logout", &[("csrf_token", &token)]).status(), 303);
        player.cookies.insert("fad_session".to_owned(), session);
        let response = player.get(&path);
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), format!("/login?next={path}"));
    }

    fn the_ledger_shows_every_point_and_only_the_organiser_adjusts_it(app: &TestApp) {
        let (mut organiser, mut player, mut outsider, force) = campaign_with_a_force(app, ["lena", "milo", "nora"]);
        let ledger = format!("/forces/{force}/ledger");
        let (page, token) = player.page(&ledger);
        assert!(page.contains("<h1>Iron Column · campaign points</h1>"), "{page}");
        assert!(!page.contains("Adjust points"), "a player gets no adjustment form: {page}");
        let fields = |t: &str| vec![("csrf_token".to_owned(), t.to_owned()), ("kind".to_owned(), "earned".to_owned()), ("amount".to_owned(), "3".to_owned()), ("note".to_owned(), "Painting prize".to_owned())];
        let post = |b: &mut Browser, f: Vec<(String, String)>| {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(a, c)| (a.as_str(), c.as_str())).collect();
            b.post(&ledger, &pairs)
        };
        assert_eq!(post(&mut player, fields(&token)).status(), 403, "organiser only");
        assert_eq!(outsider.get(&ledger).status(), 404);
        let (_, outsider_token) = outsider.page("/");
        assert_eq!(post(&mut outsider, fields(&outsider_token)).status(), 404);

        let (page, token) = organiser.page(&ledger);
        assert!(page.contains("Adjust points") && page.contains(r#"name="amount""#), "{page}");
        // Without the token, or with another person's: refused, nothing written.
        assert_eq!(post(&mut organiser, fields("")).status(), 403);
        let (_, player_token) = player.page(&ledger);
        assert_eq!(post(&mut organiser, fields(&player_token)).status(), 403);
        assert_eq!(balance_of(app, "lena", &force), 0);
        // Bad input: the form again, the input kept, the error beside the field.
        let mut bad = fields(&token);
        bad[2].1 = "lots".to_owned();
        let response = post(&mut organiser, bad);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#) && body.contains(r#"id="f-amount-error""#), "{body}");
        assert!(body.contains(r#"value="lots""#) && body.contains(r#"value="Painting prize""#), "{body}");
        // Spending more than the balance says so beside the amount.
        let mut overspend = fields(&token);
        overspend[1].1 = "spent".to_owned();
        let response = post(&mut organiser, overspend);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains("Not enough campaign points"), "{body}");
        assert!(body.contains(r#"<option value="spent" selected>"#), "{body}");
        assert_eq!(balance_of(app, "lena", &force), 0);
        // A good adjustment lands in the ledger with its reason and running balance.
        let response = post(&mut organiser, fields(&token));
        assert_eq!(response.status(), 303);
        assert_eq!(location(&response), format!("{ledger}?adjusted=1"));
        let mut second = fields(&token);
        second[3].1 = "Scenario write-up".to_owned();
        assert_eq!(post(&mut organiser, second).status(), 303);
        assert_eq!(balance_of(app, "lena", &force), 6);
        let (page, _) = player.page(&ledger);
        assert!(page.contains("adjustment: Painting prize") && page.contains("lena"), "{page}");
        assert!(page.contains("<dt>Balance</dt><dd>6</dd>"), "{page}");
        // The roster page reads the balance in the same statement as the force.
        let (roster_page, _) = player.page(&format!("/forces/{force}"));
        assert!(roster_page.contains("<dt>Campaign points</dt><dd>6</dd>"), "{roster_page}");
        // Paged: the "More" link carries the cursor to the next entry.
        let (first, _) = player.page(&format!("{ledger}?limit=1"));
        assert!(first.contains("Painting prize") && !first.contains("Scenario write-up"), "{first}");
        let start = first.find(&format!("{ledger}?after=")).unwrap();
        let more: String = first[start..].chars().take_while(|c| *c != '"').collect();
        let (rest, _) = player.page(&more.replace("&amp;", "&"));
        assert!(rest.contains("Scenario write-up") && !rest.contains("Painting prize"), "{rest}");
        assert!(rest.contains("<td class=\"num\">6</td>"), "running balance: {rest}");
    }
}

both_backends! {
    fn the_owner_edits_the_roster_with_selects_and_a_stale_form_says_so(app: &TestApp) {
        let (mut organiser, mut player, mut outsider, force) = campaign_with_a_force(app, ["olaf", "pia", "quin"]);
        let edit = format!("/forces/{force}/edit");
        let (roster, _) = player.page(&format!("/forces/{force}"));
        assert!(roster.contains(&format!(r#"href="{edit}""#)), "{roster}");
        let (form, token) = player.page(&edit);
        assert!(form.contains("<h1>Edit Iron Column</h1>") && form.contains(r#"name="version" value="1""#), "{form}");
        for select in ["quality", "resolve", "armour", "basic-weapon"] {
            assert!(form.contains(&format!(r#"<select id="f-platoons-0--units--0--{select}""#)), "{select}: {form}");
        }
        assert!(form.contains(r#"<option value="elite""#), "the rules' qualities: {form}");
        assert_eq!(outsider.get(&edit).status(), 404);
        // The whole form as a browser sends it, with these fields changed.
        let opened = crate::web_editor::form_fields(&form, &edit);
        let pairs = |t: &str, version: &str, strength: &str| {
            let mut fields: Vec<(String, String)> = opened
                .iter()
                .filter(|(n, _)| !["csrf_token", "version", "name", "platoons[0][units][0][strength]"].contains(&n.as_str()))
                .cloned()
                .collect();
            fields.extend([
                ("csrf_token".to_owned(), t.to_owned()),
                ("version".to_owned(), version.to_owned()),
                ("name".to_owned(), "Iron Column Mk II".to_owned()),
                ("platoons[0][units][0][strength]".to_owned(), strength.to_owned()),
            ]);
            fields
        };
        let post = |b: &mut Browser, f: Vec<(String, String)>| {
            let f: Vec<(&str, &str)> = f.iter().map(|(a, c)| (a.as_str(), c.as_str())).collect();
            b.post(&edit, &f)
        };
        assert_eq!(post(&mut player, pairs("", "1", "1")).status(), 403, "no token");
        // Bad input: the form again, the input kept, the error beside the field.
        let response = post(&mut player, pairs(&token, "1", "many"));
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-platoons-0--units--0--strength-error""#), "{body}");
        assert!(body.contains(r#"value="many""#) && body.contains(r#"value="Iron Column Mk II""#), "{body}");
        // A good edit is saved as version 2 and shows in the history.
        let response = post(&mut player, pairs(&token, "1", "1"));
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let (roster, _) = player.page(&format!("/forces/{force}"));
        assert!(roster.contains("<h1>Iron Column Mk II</h1>"), "{roster}");
        let (history, _) = player.page(&format!("/forces/{force}/history"));
        assert!(history.contains("Version 2 · edit") && history.contains("strength:"), "{history}");
        // The organiser's form opened at version 1 is stale now: it says so, keeps the input.
        let (_, organiser_token) = organiser.page(&edit);
        let response = post(&mut organiser, pairs(&organiser_token, "1", "2"));
        assert_eq!(response.status(), 409);
        let body = response.text().unwrap();
        assert!(body.contains("Someone changed this force meanwhile") && body.contains(r#"name="version" value="2""#), "{body}");
        let (history, _) = player.page(&format!("/forces/{force}/history"));
        assert!(!history.contains("Version 3"), "nothing saved: {history}");
    }
}

#[test]
fn the_session_cookie_is_secure_behind_https_and_logins_share_the_rate_limit() {
    let app = TestApp::spawn_with(
        crate::common::Backend::Sqlite,
        &[
            ("FAD_PUBLIC_URL", "https://club.example"),
            ("FAD_AUTH_RATE_PER_MINUTE", "1"),
            ("FAD_AUTH_RATE_BURST", "2"),
        ],
    );
    let mut browser = Browser::new(&app);
    let (_, token) = browser.page("/register");
    let response = browser.post_with(
        "/register",
        &[
            ("csrf_token", &token),
            ("username", "ivan"),
            ("password", PASSWORD),
        ],
        &[
            ("origin", "https://club.example"),
            ("sec-fetch-site", "same-origin"),
        ],
    );
    assert_eq!(response.status(), 303, "the public origin is this site");
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("fad_session="))
        .unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
    let mut other = Browser::new(&app);
    let (_, token) = other.page("/login");
    let response = other.post(
        "/login",
        &[
            ("csrf_token", &token),
            ("username", "ivan"),
            ("password", "wrong"),
        ],
    );
    assert_eq!(response.status(), 401);
    let response = other.post(
        "/login",
        &[
            ("csrf_token", &token),
            ("username", "ivan"),
            ("password", "wrong"),
        ],
    );
    assert_eq!(
        response.status(),
        429,
        "the JSON login's limit: two attempts, then wait"
    );
    let body = response.text().unwrap();
    assert!(
        body.contains("Too many attempts") && body.contains(r#"value="ivan""#),
        "{body}"
    );
}
