//! Backup and restore: `fad-campaign export` and `import` move a whole
//! campaign SQLite → PostgreSQL → SQLite; every export of the moved campaign is byte-identical
//! to the first, and the servers on the copies answer exactly as the original. Refusals (a
//! second import, a truncated document, an unknown format version, a document the database
//! rejects half-way) change nothing; credentials never leave the database.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use diesel::prelude::*;
use serde_json::{Value, json};

use crate::auth::{PASSWORD, TestUser};
use crate::campaigns::{People, World};
use crate::common::{Backend, TestApp, TestDb, command, unit_id};

/// Runs `fad-campaign ARGS` against `db_url` (stdin closed) and returns what it did.
pub(crate) fn run(args: &[&str], db_url: &str) -> Output {
    command(args)
        .env("DATABASE_URL", db_url)
        .stdin(Stdio::null())
        .output()
        .expect("running fad-campaign")
}

#[track_caller]
pub(crate) fn succeeded(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "exit {:?}\nstdout: {stdout}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[track_caller]
pub(crate) fn failed(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !output.status.success(),
        "expected a failure; stdout: {}\nstderr: {stderr}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_ne!(output.status.code(), Some(0));
    stderr
}

/// `fad-campaign set-password --username USERNAME` on `db_url`, the password on stdin.
fn set_password(db_url: &str, username: &str, password: &str) {
    let mut child = command(&["set-password", "--username", username])
        .env("DATABASE_URL", db_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{password}\n").as_bytes())
        .unwrap();
    succeeded(&child.wait_with_output().unwrap());
}

/// Exports `campaign_id` from `db_url` into `dir/name` and returns the document's text.
pub(crate) fn export(dir: &Path, name: &str, db_url: &str, campaign_id: &str) -> String {
    let path = dir.join(name);
    let output = run(
        &[
            "export",
            "--campaign",
            campaign_id,
            "--output",
            path.to_str().unwrap(),
        ],
        db_url,
    );
    succeeded(&output);
    std::fs::read_to_string(&path).unwrap()
}

pub(crate) fn import(db_url: &str, path: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["import", "--input", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args, db_url)
}

pub(crate) fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Asserts two exports are the same bytes, showing the first differing line (they are long).
#[track_caller]
fn assert_same(left: &str, right: &str, what: &str) {
    if left == right {
        return;
    }
    let line = left
        .lines()
        .zip(right.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(left.lines().count().min(right.lines().count()));
    panic!(
        "{what}: the exports differ at line {}:\n  {}\n  {}",
        line + 1,
        left.lines().nth(line).unwrap_or("<end>"),
        right.lines().nth(line).unwrap_or("<end>")
    );
}

#[track_caller]
fn ok(app: &TestApp, path: &str, token: &str) -> Value {
    let response = app.get_with_token(path, token);
    let status = response.status();
    let text = response.text().unwrap();
    assert!(status.is_success(), "GET {path}: {status}: {text}");
    serde_json::from_str(&text).unwrap()
}

#[track_caller]
fn post(app: &TestApp, user: &TestUser, path: &str, body: &Value) -> Value {
    let response = app.post_json_with_token(path, body, &user.token);
    let status = response.status();
    let text = response.text().unwrap();
    assert!(status.is_success(), "POST {path}: {status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A campaign with everything a backup must carry: members, an invitation, keys, three forces
/// (one archived), a finalized battle with server rolls (history, ledger, aftermath), a battle
/// still in its aftermath, and a scenario generated from a stored force.
struct Source {
    people: People,
    world: World,
    forces: Vec<String>,
    battle_id: String,
    solo_battle_id: String,
    scenario_id: String,
    private_scenario_id: String,
}

fn build(app: &TestApp) -> Source {
    let people = People::register(app);
    let world = World::build(app, &people);
    let c = world.campaign_id.clone();
    let blue = ok(
        app,
        &format!("/api/v1/forces/{}", world.force_id),
        &people.owner.token,
    );
    let red = crate::forces::create_force(
        app,
        &people.player,
        &c,
        &crate::forces::small_roster("Red Force"),
    );
    let red_id = red["id"].as_str().unwrap().to_owned();
    let spare = crate::forces::create_force(
        app,
        &people.player,
        &c,
        &crate::forces::small_roster("Spare"),
    );
    let spare_id = spare["id"].as_str().unwrap().to_owned();
    post(
        app,
        &people.player,
        &format!("/api/v1/forces/{spare_id}/archive"),
        &json!({"version": spare["version"]}),
    );

    let battle = post(
        app,
        &people.owner,
        &format!("/api/v1/campaigns/{c}/battles"),
        // At night: the set-up options must survive the round trip too.
        &json!({"sides": [{"force_id": world.force_id}, {"force_id": red_id}], "night_fighting": true}),
    );
    assert_eq!(battle["night_fighting"], true, "{battle}");
    let battle_id = battle["id"].as_str().unwrap().to_owned();
    let result = json!({"outcome": "win", "winner_force_id": world.force_id, "losses": [
        {"unit_id": unit_id(&blue, "Alpha"), "figures_lost": 3, "eliminated": false, "vehicle_damage": null},
        {"unit_id": unit_id(&red, "Alpha"), "figures_lost": 8, "eliminated": true, "vehicle_damage": null}
    ]});
    post(
        app,
        &people.owner,
        &format!("/api/v1/battles/{battle_id}/result"),
        &result,
    );
    post(
        app,
        &people.player,
        &format!("/api/v1/battles/{battle_id}/result/confirm"),
        &json!({}),
    );
    for (user, force) in [(&people.owner, &world.force_id), (&people.player, &red_id)] {
        for step in ["roll", "finalize"] {
            post(
                app,
                user,
                &format!("/api/v1/battles/{battle_id}/aftermath/{force}/{step}"),
                &crate::fleet::step_body(step),
            );
        }
    }
    let done = ok(
        app,
        &format!("/api/v1/battles/{battle_id}"),
        &people.owner.token,
    );
    assert_eq!(done["state"], "complete");

    // The world's scenario battle (against a non-player force) has the owner's secret orders.
    post(
        app,
        &people.owner,
        &format!(
            "/api/v1/battles/{}/scenario/orders",
            world.scenario_battle_id
        ),
        &json!({"force_id": world.force_id, "stance": "defensive", "attitude": "passive"}),
    );

    let stored = json!({"sides": [
        {"force_id": world.force_id, "stance": "neutral", "attitude": "cautious"},
        {"force_id": red_id, "stance": "defensive", "attitude": "passive"}
    ]});
    let scenario = post(app, &people.owner, "/api/v1/scenarios", &stored);
    let inline = json!({"sides": [
        {"name": "Inline", "stance": "neutral", "attitude": "cautious", "units": [
            {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
            {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}]},
        {"name": "Bandits", "non_player": true, "stance": "neutral", "attitude": "cautious", "units": [
            {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
            {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}]}
    ]});
    let private = post(app, &people.owner, "/api/v1/scenarios", &inline);

    // A battle against a non-player Militia in solo play: groups and one turn.
    let solo = post(
        app,
        &people.owner,
        &format!("/api/v1/campaigns/{c}/battles"),
        &json!({"sides": [{"force_id": world.force_id}, {"non_player": crate::solo::militia()}]}),
    );
    let solo_battle_id = solo["id"].as_str().unwrap().to_owned();
    crate::solo::play_to_ready(app, &people.owner.token, &solo_battle_id);
    let groups = json!({"groups": [{"name": "Hill", "units": ["s2-u3"], "approach": "hold"}]});
    let r = app.put_json_with_token(
        &format!("/api/v1/battles/{solo_battle_id}/solo/groups"),
        &groups,
        &people.owner.token,
    );
    assert_eq!(r.status(), 200);
    post(
        app,
        &people.owner,
        &format!("/api/v1/battles/{solo_battle_id}/solo/turns"),
        &json!({"dice": {"discipline": {"Hill": [2, 5, 6]}}}),
    );
    Source {
        solo_battle_id,
        forces: vec![world.force_id.clone(), red_id, spare_id],
        people,
        world,
        battle_id,
        scenario_id: scenario["id"].as_str().unwrap().to_owned(),
        private_scenario_id: private["id"].as_str().unwrap().to_owned(),
    }
}

/// Every read of the campaign's data, as (path, the user who may read it).
fn reads(s: &Source) -> Vec<(String, &TestUser)> {
    let c = &s.world.campaign_id;
    let organiser = &s.people.organiser;
    let mut out = vec![
        (format!("/api/v1/campaigns/{c}"), organiser),
        (format!("/api/v1/campaigns/{c}/settings"), organiser),
        (format!("/api/v1/campaigns/{c}/members"), organiser),
        (format!("/api/v1/campaigns/{c}/invites"), organiser),
        (
            format!("/api/v1/campaigns/{c}/forces?include_archived=true"),
            organiser,
        ),
        (format!("/api/v1/campaigns/{c}/battles"), organiser),
        (format!("/api/v1/campaigns/{c}/timeline"), organiser),
        (format!("/api/v1/campaigns/{c}/standings"), organiser),
        (format!("/api/v1/battles/{}", s.battle_id), organiser),
        (format!("/api/v1/battles/{}", s.world.battle_id), organiser),
        (
            format!("/api/v1/battles/{}/solo", s.solo_battle_id),
            organiser,
        ),
        (
            format!("/api/v1/battles/{}/scenario", s.world.scenario_battle_id),
            &s.people.owner,
        ),
        (
            format!("/api/v1/battles/{}/scenario", s.world.scenario_battle_id),
            &s.people.player,
        ),
        (
            format!("/api/v1/scenarios/{}", s.scenario_id),
            &s.people.owner,
        ),
        ("/api/v1/campaigns".to_owned(), &s.people.player),
    ];
    for force in &s.forces {
        for suffix in ["", "/history", "/ledger", "/export"] {
            out.push((format!("/api/v1/forces/{force}{suffix}"), organiser));
        }
        out.push((
            format!("/api/v1/battles/{}/aftermath/{force}", s.battle_id),
            organiser,
        ));
    }
    out
}

#[track_caller]
fn same_answers(s: &Source, a: &TestApp, b: &TestApp) -> usize {
    let mut compared = 0;
    for (path, user) in reads(s) {
        let response = a.get_with_token(&path, &user.token);
        let status = response.status();
        let left = response.text().unwrap();
        let right = b.get_with_token(&path, &user.token);
        assert_eq!(status, right.status(), "{path}");
        let right = right.text().unwrap();
        let parse = |t: &str| {
            let mut v = serde_json::from_str::<Value>(t).unwrap_or(Value::String(t.into()));
            without_commitments(&mut v);
            v
        };
        assert_eq!(parse(&left), parse(&right), "GET {path} differs");
        compared += 1;
    }
    compared
}

/// Leaves out the offered dice commitments: an unused seed never leaves its server (backups do
/// not carry them), so the copy offers its own for the next roll.
fn without_commitments(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("dice_commitment");
            map.remove("dice_commitments");
            map.values_mut().for_each(without_commitments);
        }
        Value::Array(items) => items.iter_mut().for_each(without_commitments),
        _ => {}
    }
}

fn login_status(app: &TestApp, username: &str, password: &str) -> u16 {
    app.post_json(
        "/api/v1/auth/login",
        &json!({"username": username, "password": password}),
    )
    .status()
    .as_u16()
}

#[test]
fn a_campaign_moves_sqlite_to_postgres_and_back_losslessly_and_refusals_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let source = TestApp::spawn(Backend::Sqlite);
    let mut s = build(&source);
    let c = s.world.campaign_id.clone();

    // Export from SQLite while the server runs.
    let first = export(dir.path(), "sqlite.json", source.db.url(), &c);
    let doc: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(doc["format"], "fad-campaign/campaign-export");
    assert_eq!(doc["format_version"], 1);
    let count = |table: &str| doc[table].as_array().unwrap().len();
    assert_eq!(
        count("users"),
        3,
        "organiser, player, owner (not the outsider)"
    );
    assert_eq!(count("memberships"), 3);
    // As many rows as the API lists (the shared World grows as issues add to it).
    let listed = |path: String| {
        let body = ok(&source, &path, &s.people.organiser.token);
        let (_, items) = body
            .as_object()
            .unwrap()
            .iter()
            .find(|(name, _)| *name != "next")
            .unwrap();
        items.as_array().unwrap().len()
    };
    assert_eq!(
        count("invites"),
        listed(format!("/api/v1/campaigns/{c}/invites"))
    );
    assert_eq!(
        count("forces"),
        listed(format!(
            "/api/v1/campaigns/{c}/forces?include_archived=true"
        ))
    );
    assert_eq!(count("forces"), 3);
    assert_eq!(
        count("battles"),
        listed(format!("/api/v1/campaigns/{c}/battles"))
    );
    assert!(count("battle_aftermaths") >= 3);
    assert!(count("battle_scenarios") >= 1);
    assert_eq!(count("solo_states"), 1);
    assert!(count("force_history") >= 6, "{}", count("force_history"));
    assert_eq!(
        count("force_ledger"),
        2,
        "one earned entry per finalized force"
    );
    let scenario_ids: Vec<&str> = doc["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        scenario_ids,
        [s.scenario_id.as_str()],
        "not the inline-only one"
    );
    assert_ne!(s.private_scenario_id, s.scenario_id);
    // Stored JSON columns are strings in the document (kept byte for byte), so quotes are
    // escaped inside them.
    assert!(
        first.contains(r#"\"source\":\"server\""#),
        "the roll logs are in"
    );
    // No credentials: no password hash or key hash of the source database appears anywhere.
    {
        use fad_api::schema::{api_keys, users};
        let mut conn = source.db.connect();
        let hashes: Vec<String> = users::table
            .select(users::password_hash)
            .load(&mut conn)
            .unwrap();
        let keys: Vec<String> = api_keys::table
            .select(api_keys::key_hash)
            .load(&mut conn)
            .unwrap();
        assert_eq!((hashes.len(), keys.len()), (4, 2));
        for secret in hashes.iter().chain(&keys) {
            assert!(!first.contains(secret.as_str()), "a credential leaked");
        }
        assert!(!first.contains("password_hash") && !first.contains("key_hash"));
    }

    // SQLite → PostgreSQL.
    let pg = TestDb::new(Backend::Postgres);
    let imported = succeeded(&import(pg.url(), &dir.path().join("sqlite.json"), &[]));
    assert!(
        imported.contains("accounts created without a usable password"),
        "{imported}"
    );
    let second = export(dir.path(), "pg.json", pg.url(), &c);
    assert_same(&first, &second, "SQLite → PostgreSQL");

    // Refusals leave the copy exactly as it was.
    let again = failed(&import(pg.url(), &dir.path().join("sqlite.json"), &[]));
    assert!(again.contains("already exists"), "{again}");
    let truncated = write(dir.path(), "truncated.json", &first[..first.len() / 2]);
    let message = failed(&import(pg.url(), &truncated, &["--replace"]));
    assert!(
        message.contains("not a complete JSON document"),
        "{message}"
    );
    let newer = write(
        dir.path(),
        "v2.json",
        &first.replacen("\"format_version\": 1", "\"format_version\": 2", 1),
    );
    let message = failed(&import(pg.url(), &newer, &["--replace"]));
    assert!(
        message.contains("unsupported export format version 2"),
        "{message}"
    );
    // Valid to the checks, refused by the database on the last ledger row: the replace (which
    // deleted the campaign first) rolls back with everything else.
    let mut broken: Value = serde_json::from_str(&first).unwrap();
    let ledger = broken["force_ledger"].as_array_mut().unwrap();
    ledger.last_mut().unwrap()["balance"] = json!(-1);
    let broken = write(dir.path(), "broken.json", &broken.to_string());
    let message = failed(&import(pg.url(), &broken, &["--replace"]));
    assert!(message.contains("nothing was written"), "{message}");
    assert_same(
        &first,
        &export(dir.path(), "pg2.json", pg.url(), &c),
        "after refusals",
    );
    // --replace with a good document replaces it (same content, same bytes).
    succeeded(&import(
        pg.url(),
        &dir.path().join("sqlite.json"),
        &["--replace"],
    ));
    assert_same(
        &first,
        &export(dir.path(), "pg3.json", pg.url(), &c),
        "after --replace",
    );

    // The server on the PostgreSQL copy answers like the original (same ids, same tokens).
    let on_pg = TestApp::spawn_on(pg, &[]);
    let compared = same_answers(&s, &source, &on_pg);
    assert!(compared >= 25, "{compared}");
    let keys = ok(
        &on_pg,
        &format!("/api/v1/campaigns/{c}/api-keys"),
        &s.people.organiser.token,
    );
    assert_eq!(
        keys,
        json!({"api_keys": [], "next": null}),
        "integration keys are not exported"
    );
    // Created accounts cannot log in until an administrator sets a password.
    assert_eq!(login_status(&on_pg, "player", PASSWORD), 401);
    set_password(on_pg.db.url(), "player", "plum kettle orbit saffron");
    assert_eq!(
        login_status(&on_pg, "player", "plum kettle orbit saffron"),
        200
    );
    // The new password, set by another process, refuses the player's older tokens within the
    // server's recheck time (a second); a new one reads as before.
    let refused_by = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while on_pg
        .get_with_token("/api/v1/me", &s.people.player.token)
        .status()
        != 401
    {
        assert!(
            std::time::Instant::now() < refused_by,
            "an old token outlived set-password"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    s.people.player.token = crate::auth::login(&on_pg, "player", "plum kettle orbit saffron");
    assert_eq!(login_status(&on_pg, "owner", PASSWORD), 401);

    // PostgreSQL → SQLite.
    let lite = TestDb::new(Backend::Sqlite);
    succeeded(&import(lite.url(), &dir.path().join("pg.json"), &[]));
    assert_same(
        &first,
        &export(dir.path(), "sqlite2.json", lite.url(), &c),
        "PostgreSQL → SQLite",
    );
    let message = failed(&import(lite.url(), &broken, &["--replace"]));
    assert!(message.contains("nothing was written"), "{message}");
    assert_same(
        &first,
        &export(dir.path(), "sqlite3.json", lite.url(), &c),
        "SQLite after a refused --replace",
    );
    // The credentials generation is not exported: the same password change on this copy lets
    // the player's new token read both.
    set_password(lite.url(), "player", "plum kettle orbit saffron");
    let on_lite = TestApp::spawn_on(lite, &[]);
    same_answers(&s, &on_pg, &on_lite);
}

#[test]
fn a_bad_document_into_an_empty_database_leaves_no_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let source = TestApp::spawn(Backend::Sqlite);
    let people = People::register(&source);
    let world = World::build(&source, &people);
    let text = export(dir.path(), "doc.json", source.db.url(), &world.campaign_id);
    let mut broken: Value = serde_json::from_str(&text).unwrap();
    broken["battles"][0]["version"] = json!("one");
    let path = write(dir.path(), "bad.json", &broken.to_string());

    let target = TestDb::new(Backend::Postgres);
    drop(target.migrated());
    let message = failed(&import(target.url(), &path, &[]));

    assert!(message.contains("battles[0].version"), "{message}");
    let missing = failed(&run(
        &["export", "--campaign", &world.campaign_id],
        target.url(),
    ));
    assert!(missing.contains("does not exist"), "{missing}");
}

#[test]
fn accounts_are_matched_by_name_and_missing_ones_are_created_locked() {
    // Arrange: the campaign on SQLite; a PostgreSQL service where `Player` already has an
    // account (another id, another password, the name in another case).
    let dir = tempfile::tempdir().unwrap();
    let source = TestApp::spawn(Backend::Sqlite);
    let people = People::register(&source);
    let world = World::build(&source, &people);
    let c = world.campaign_id.clone();
    // The organiser voids a battle: the correction names them inside the battle's JSON.
    let voided = source.post_json_with_token(
        &format!("/api/v1/battles/{}/void", world.battle_id),
        &json!({"reason": "never played"}),
        &people.organiser.token,
    );
    assert_eq!(voided.status(), 200, "{}", voided.text().unwrap());
    export(dir.path(), "doc.json", source.db.url(), &c);
    let target = TestApp::spawn(Backend::Postgres);
    let register = |name: &str| {
        let response = target.post_json(
            "/api/v1/auth/register",
            &json!({"username": name, "password": "harbour lantern quiz velvet"}),
        );
        assert_eq!(response.status(), 201);
        response.json::<Value>().unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let local_id = register("Player");
    let local_organiser = register("organiser");
    assert_ne!(local_id, people.player.id);

    // Act: import while the target service runs.
    let output = succeeded(&import(target.db.url(), &dir.path().join("doc.json"), &[]));

    // Assert
    assert!(
        output.contains("existing accounts used (matched by name): organiser, Player"),
        "{output}"
    );
    assert!(output.contains("NAME`): owner"), "{output}");
    let token = crate::auth::login(&target, "player", "harbour lantern quiz velvet");
    let mine = ok(&target, "/api/v1/campaigns", &token);
    assert!(
        mine["campaigns"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == c.as_str()),
        "the local Player is a member: {mine}"
    );
    let members = ok(&target, &format!("/api/v1/campaigns/{c}/members"), &token);
    assert!(members.to_string().contains(&local_id), "{members}");
    assert!(
        !members.to_string().contains(&people.player.id),
        "{members}"
    );
    assert_eq!(login_status(&target, "owner", PASSWORD), 401);
    let organiser = crate::auth::login(&target, "organiser", "harbour lantern quiz velvet");
    let battle = ok(
        &target,
        &format!("/api/v1/battles/{}", world.battle_id),
        &organiser,
    );
    assert_eq!(battle["state"], "void");
    assert_eq!(
        battle["corrections"][0]["by"], local_organiser,
        "the correction names the local organiser: {battle}"
    );
    let campaign = ok(&target, &format!("/api/v1/campaigns/{c}"), &organiser);
    assert_eq!(campaign["role"], "organiser", "{campaign}");
    // The created accounts keep their ids: the old tokens (same secret) still work.
    ok(
        &target,
        &format!("/api/v1/forces/{}", world.force_id),
        &people.owner.token,
    );
    let moved = export(dir.path(), "moved.json", target.db.url(), &c);
    assert!(moved.contains(&local_id) && !moved.contains(&people.player.id));
    assert!(moved.contains(&local_organiser) && !moved.contains(&people.organiser.id));
}
