//! The printable scenario sheet: HTML with every name escaped, a restrictive
//! CSP, the missions' victory conditions, an inline SVG map; readable by the creator or via the
//! share link; and it renders in headless Chromium (screenshot and DOM with the `<svg`).

use crate::auth::register;
use crate::common::{Backend, TestApp, assert_problem};
use serde_json::{Value, json};
use std::process::Command;

const EVIL: &str = "<script>alert(1)</script>";

fn body(share: bool) -> Value {
    let units = json!([
        {"name": EVIL, "kind": "squad", "resolve": "steady"},
        {"name": "Scouts & Co", "kind": "squad", "resolve": "steady"}
    ]);
    let all = |high: &str| {
        let mut d = serde_json::Map::new();
        for m in [
            "assault",
            "expand",
            "hold",
            "infiltrate",
            "interfere",
            "patrol",
            "strike",
            "sweep",
        ] {
            d.insert(m.into(), json!([if m == high { 6 } else { 1 }]));
        }
        Value::Object(d)
    };
    json!({"share": share, "narrative": true, "sides": [
        {"name": EVIL, "units": units, "stance": "defensive", "attitude": "passive",
         "recon_unit_ids": ["Scouts & Co"], "dice": {"mission": all("hold")}},
        {"name": "Blue Company", "units": units, "stance": "offensive", "attitude": "aggressive",
         "dice": {"mission": all("sweep")}}
    ]})
}

/// Creates a shared scenario; returns (creator token, id, sheet path).
fn shared(app: &TestApp) -> (String, String, String) {
    let user = register(app, "sheetmaker");
    let r = app.post_json_with_token("/api/v1/scenarios", &body(true), &user.token);
    assert_eq!(r.status(), 201, "{}", r.text().unwrap());
    let v: Value = r.json().unwrap();
    (
        user.token,
        v["id"].as_str().unwrap().to_owned(),
        v["share_url"].as_str().unwrap().to_owned(),
    )
}

both_backends! {
    fn the_sheet_is_escaped_locked_down_and_complete(app: &TestApp) {
        let (token, id, url) = shared(app);
        let r = app.get(&url);
        assert_eq!(r.status(), 200);
        let h = r.headers();
        assert!(h["content-type"].to_str().unwrap().starts_with("text/html"));
        assert_eq!(h["content-security-policy"].to_str().unwrap().split(';').next().unwrap(), "default-src 'none'");
        assert!(h["content-security-policy"].to_str().unwrap().contains("style-src 'unsafe-inline'"));
        assert_eq!(h["x-content-type-options"], "nosniff");
        let html = r.text().unwrap();
        assert!(!html.contains(EVIL), "unescaped name");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Scouts &amp; Co"));
        assert!(html.contains("<svg"), "map");
        assert!(html.contains("class=\"zone\""), "deployment zones");
        assert_eq!(html.matches("class=\"objective\"").count(), 6, "six objectives (S7)");
        // Defensive + Passive + Hold's bonus: field defences drawn in the zone.
        assert!(html.contains("class=\"defence\""));
        assert!(html.contains("@page { size: A4"));
        // §3.10: Hold's and Sweep's victory conditions are on the sheet.
        assert!(html.contains("Mission: hold") && html.contains("Mission: sweep"), "{html}");
        assert!(html.contains("15\""), "Hold's 15\" window");
        assert!(html.contains("Circumstances of war"));
        assert!(html.contains("Recon duty"));
        assert!(!html.contains("<script"), "no JavaScript");
        // The creator reads it by id with a token; others cannot.
        assert_eq!(app.get_with_token(&format!("/scenarios/{id}"), &token).status(), 200);
        let other = register(app, "someoneelse");
        assert_problem(app.get_with_token(&format!("/scenarios/{id}"), &other.token), 404);
        // Without credentials it is as unknown as another user's: only a scenario generated
        // signed out opens by its id alone.
        assert_eq!(app.get(&format!("/scenarios/{id}")).status(), 404);
        assert_problem(app.get(&format!("/scenarios/shared/{}", "ab".repeat(32))), 404);
    }
}

both_backends! {
    fn a_one_shot_scenario_gives_each_side_its_own_sheet(app: &TestApp) {
        let user = register(app, "sidesheets");
        // Not shared: the overview link is opt-in, the side sheets always there.
        // Rolled from a committed seed, so its server dice carry proofs.
        let commitment: Value = app.post_json_with_token("/api/v1/dice/commitments", &json!({}), &user.token).json().unwrap();
        let mut request = crate::sheet::body(false);
        request["dice_commitment_id"] = commitment["id"].clone();
        let r = app.post_json_with_token("/api/v1/scenarios", &request, &user.token);
        assert_eq!(r.status(), 201, "{}", r.text().unwrap());
        let v: Value = r.json().unwrap();
        assert!(v.get("share_url").is_none());
        let links: Vec<String> = serde_json::from_value(v["side_sheet_urls"].clone()).unwrap();
        assert_eq!(links.len(), 2, "{v}");
        assert_ne!(links[0], links[1]);
        let sheet = |url: &str| {
            let r = app.get(url);
            assert_eq!(r.status(), 200);
            assert!(r.headers()["content-security-policy"].to_str().unwrap().starts_with("default-src 'none'"));
            r.text().unwrap()
        };
        let first = sheet(&links[0]);
        assert!(first.contains("Sheet for &lt;script&gt;"), "the side is named, escaped");
        assert!(first.contains("Mission: hold"), "its own mission (§3.10)");
        assert!(!first.contains("Mission: sweep"), "the other side's mission stays secret");
        let second = sheet(&links[1]);
        assert!(second.contains("Sheet for Blue Company") && second.contains("Mission: sweep"));
        assert!(!second.contains("Mission: hold"));
        // Neither names the scenario's id; the creator's read gives the same links again.
        let id = v["id"].as_str().unwrap();
        assert!(!first.contains(id) && !second.contains(id));
        let again: Value = app.get_with_token(&format!("/api/v1/scenarios/{id}"), &user.token).json().unwrap();
        assert_eq!(again["side_sheet_urls"], v["side_sheet_urls"]);
        // Numbered contact markers on both sides' maps.
        assert!(first.contains("class=\"marker\""));
        // Server dice on the sheet carry their Verify link.
        assert!(first.contains("/dice/verify?seed="), "{first}");
        assert_problem(app.get(&format!("/scenarios/side/{}", "ab".repeat(32))), 404);
    }
}

both_backends! {
    fn a_battle_sheet_shows_its_side_and_only_what_the_rules_reveal_of_the_other(app: &TestApp) {
        let g = crate::battle_scenarios::ready_game(app);
        let path = format!("/api/v1/battles/{}/scenario/sheet", g.battle);
        let sheet = |token: &str| {
            let r = app.get_with_token(&path, token);
            assert_eq!(r.status(), 200);
            assert_eq!(r.headers()["x-content-type-options"], "nosniff");
            assert!(r.headers()["content-security-policy"].to_str().unwrap().starts_with("default-src 'none'"));
            r.text().unwrap()
        };
        let blue = sheet(&g.people.owner.token);
        assert!(blue.contains("Sheet for Blue"), "{blue}");
        assert!(blue.contains("Mission: hold") && blue.contains("15\""), "Blue's own mission (§3.10)");
        assert!(!blue.contains("Mission: strike"), "Red's mission is hidden from Blue (S11)");
        assert!(blue.contains("<svg") && blue.contains("class=\"zone\""));
        assert!(blue.contains("class=\"defence\""), "Blue's field defences on the map");
        assert!(blue.contains("Recon duty"));
        let red = sheet(&g.people.player.token);
        assert!(red.contains("Sheet for Red") && red.contains("Mission: strike"));
        assert!(!red.contains("Mission: hold"), "Blue's mission is hidden from Red");
        // The organiser referees: both; the key: neither.
        let both = sheet(&g.people.organiser.token);
        assert!(both.contains("Mission: hold") && both.contains("Mission: strike"));
        let r = crate::campaigns::get_with_api_key(app, &path, &g.world.key);
        assert_eq!(r.status(), 200);
        assert!(!r.text().unwrap().contains("Mission:"));
        // A side's owner may ask for its own side only.
        let r = app.get_with_token(&format!("{path}?force_id={}", g.red_id()), &g.people.owner.token);
        assert_problem(r, 403);
        assert_problem(app.get(&path), 401);
    }
}

/// Headless Chromium renders a battle's per-side sheet (fetched with the side's token and
/// opened from a file, since Chromium cannot send a Bearer header).
#[test]
fn the_battle_sheet_renders_in_headless_chromium() {
    let app = TestApp::spawn(Backend::Sqlite);
    let g = crate::battle_scenarios::ready_game(&app);
    let r = app.get_with_token(
        &format!("/api/v1/battles/{}/scenario/sheet", g.battle),
        &g.people.owner.token,
    );
    assert_eq!(r.status(), 200);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("battle-sheet.html");
    std::fs::write(&file, r.text().unwrap()).unwrap();
    let url = format!("file://{}", file.display());
    let shot = dir.path().join("battle-sheet.png");
    chromium(
        &url,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1240,1754".into(),
        ],
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 20_000, "screenshot is only {} bytes", png.len());
    let dom = String::from_utf8(chromium(&url, &["--dump-dom".into()]).stdout).unwrap();
    assert!(dom.contains("<svg"), "no <svg> in the DOM");
    assert!(dom.contains("Mission: hold"));
}

/// Runs headless Chromium on `url` with `extra` flags; panics when it fails.
fn chromium(url: &str, extra: &[String]) -> std::process::Output {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {chromium} (install Debian's chromium): {e}"));
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Headless Chromium renders the sheet: a non-trivial screenshot and a DOM with the SVG map.
/// CI installs Debian's `chromium` (`.ci/run`); set `CHROMIUM` to use another binary.
#[test]
fn the_sheet_renders_in_headless_chromium() {
    let app = TestApp::spawn(Backend::Sqlite);
    let (_, _, url) = shared(&app);
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("sheet.png");
    let run = |extra: &[String]| {
        let profile = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(&chromium);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(app.url(&url));
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {chromium} (install Debian's chromium): {e}"));
        assert!(
            out.status.success(),
            "chromium failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    run(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=1240,1754".into(),
    ]);
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 20_000, "screenshot is only {} bytes", png.len());
    if let Ok(keep) = std::env::var("FAD_SHEET_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    let dom = String::from_utf8(run(&["--dump-dom".into()]).stdout).unwrap();
    assert!(dom.contains("<svg"), "no <svg> in the DOM");
    assert!(dom.contains("Blue Company"));
    assert!(!dom.contains(EVIL));
}
