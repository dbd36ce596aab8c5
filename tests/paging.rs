//! Paging of every list: `limit` 1–100 (default 50), the
//! `next` cursor sent back as `after`, stable while rows are inserted, bad input a 400 naming
//! the parameter; the same for integration keys. On both backends.

use std::collections::HashSet;

use crate::campaigns::{People, World, create_campaign, get_with_api_key, invite_code};
use crate::common::{TestApp, assert_problem};
use crate::forces::{create_force, small_roster};
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Who reads a list.
#[derive(Debug, Clone, Copy)]
enum Reader<'a> {
    /// A person's access token.
    Token(&'a str),
    /// The campaign's integration key.
    Key(&'a str),
}

fn get(app: &TestApp, reader: Reader<'_>, path: &str) -> Response {
    match reader {
        Reader::Token(token) => app.get_with_token(path, token),
        Reader::Key(key) => get_with_api_key(app, path, key),
    }
}

/// `path` with `query` added to its query string.
fn with_query(path: &str, query: &str) -> String {
    let separator = if path.contains('?') { '&' } else { '?' };
    format!("{path}{separator}{query}")
}

#[track_caller]
fn page(app: &TestApp, reader: Reader<'_>, path: &str, query: &str) -> Value {
    let url = with_query(path, query);
    let response = get(app, reader, &url);
    let status = response.status();
    let text = response.text().unwrap();
    assert_eq!(status, 200, "GET {url}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A list's item identity: its id, or the user, force or battle it stands for.
fn ident(item: &Value) -> String {
    ["id", "user_id", "force_id"]
        .iter()
        .find_map(|k| item[k].as_str())
        .or_else(|| item["battle"]["id"].as_str())
        .unwrap_or_else(|| panic!("no id in {item}"))
        .to_owned()
}

/// Follows `next` from the first page, `limit` items a page; returns the item ids and the
/// number of pages.
#[track_caller]
fn walk(
    app: &TestApp,
    reader: Reader<'_>,
    path: &str,
    field: &str,
    limit: u32,
) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    let mut after = String::new();
    for pages in 1..1000 {
        let body = page(app, reader, path, &format!("limit={limit}{after}"));
        let items = body[field]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no {field}: {body}"));
        assert!(items.len() <= limit as usize, "{path}: {body}");
        ids.extend(items.iter().map(ident));
        match &body["next"] {
            Value::Null => return (ids, pages),
            Value::String(next) => {
                assert_eq!(
                    items.len(),
                    limit as usize,
                    "{path}: a full page before `next`"
                );
                after = format!("&after={next}");
            }
            other => panic!("{path}: next is {other}"),
        }
    }
    panic!("{path}: no end")
}

/// A campaign with a few of everything: 3 campaigns for the organiser, 3 members, 3 invites,
/// 2 keys, 3 forces, 2 battles, and a force (returned) with 3 history and 3 ledger entries.
fn populated(app: &TestApp) -> (People, World, String) {
    let people = People::register(app);
    let world = World::build(app, &people);
    create_campaign(app, &people.organiser, "Second");
    create_campaign(app, &people.organiser, "Third");
    let green = create_force(
        app,
        &people.owner,
        &world.campaign_id,
        &small_roster("Green"),
    );
    let green = green["id"].as_str().unwrap().to_owned();
    create_force(
        app,
        &people.owner,
        &world.campaign_id,
        &small_roster("Grey"),
    );
    let force_path = format!("/api/v1/forces/{green}");
    for name in ["Renamed once", "Renamed twice"] {
        let force = page(app, Reader::Token(&people.owner.token), &force_path, "");
        let body =
            json!({"version": force["version"], "name": name, "platoons": force["platoons"]});
        let edited = app.put_json_with_token(&force_path, &body, &people.owner.token);
        assert_eq!(edited.status(), 200, "{}", edited.text().unwrap());
    }
    for amount in [1, 2, 3] {
        adjust(app, &people, &green, amount);
    }
    (people, world, green)
}

#[track_caller]
fn adjust(app: &TestApp, people: &People, force_id: &str, amount: i64) -> Value {
    let response = app.post_json_with_token(
        &format!("/api/v1/forces/{force_id}/ledger"),
        &json!({"kind": "earned", "amount": amount}),
        &people.organiser.token,
    );
    assert_eq!(response.status(), 201);
    response.json().unwrap()
}

/// Every list as (path, the field holding its items, whether the integration key reads it),
/// with the history and ledger of `force`.
fn lists(world: &World, f: &str) -> Vec<(String, &'static str, bool)> {
    let c = &world.campaign_id;
    vec![
        ("/api/v1/campaigns".to_owned(), "campaigns", false),
        (format!("/api/v1/campaigns/{c}/members"), "members", true),
        (format!("/api/v1/campaigns/{c}/invites"), "invites", false),
        (format!("/api/v1/campaigns/{c}/api-keys"), "api_keys", false),
        (format!("/api/v1/campaigns/{c}/forces"), "forces", true),
        (format!("/api/v1/campaigns/{c}/battles"), "battles", true),
        (format!("/api/v1/campaigns/{c}/timeline"), "entries", true),
        (format!("/api/v1/campaigns/{c}/standings"), "forces", true),
        (format!("/api/v1/forces/{f}/history"), "entries", true),
        (format!("/api/v1/forces/{f}/ledger"), "entries", true),
    ]
}

both_backends! {
    fn every_list_walks_in_pages_with_each_item_once_in_order_for_people_and_keys(app: &TestApp) {
        // Arrange
        let (people, world, force) = populated(app);
        let organiser = Reader::Token(&people.organiser.token);

        for (path, field, key_reads) in lists(&world, &force) {
            // Act
            let (all, pages) = walk(app, organiser, &path, field, 100);
            let (by_one, one_pages) = walk(app, organiser, &path, field, 1);
            let (by_two, two_pages) = walk(app, organiser, &path, field, 2);

            // Assert
            assert_eq!(pages, 1, "{path}");
            assert!(all.len() >= 2, "{path}: {all:?}");
            assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "{path}: {all:?}");
            assert_eq!(by_one, all, "{path} by one");
            assert_eq!(one_pages, all.len(), "{path}");
            assert_eq!(by_two, all, "{path} by two");
            assert_eq!(two_pages, all.len().div_ceil(2), "{path}");
            if key_reads {
                let (with_key, _) = walk(app, Reader::Key(&world.key), &path, field, 1);
                assert_eq!(with_key, all, "{path} with the integration key");
            }
        }
    }

    fn items_inserted_between_pages_neither_repeat_nor_hide_others(app: &TestApp) {
        // Arrange
        let (people, world, force) = populated(app);
        let organiser = Reader::Token(&people.organiser.token);
        let ledger = format!("/api/v1/forces/{force}/ledger");
        let invites = format!("/api/v1/campaigns/{}/invites", world.campaign_id);
        let forces = format!("/api/v1/campaigns/{}/forces", world.campaign_id);
        let before: Vec<_> = [(&ledger, "entries"), (&invites, "invites"), (&forces, "forces")]
            .map(|(path, field)| walk(app, organiser, path, field, 100).0)
            .into();

        // Act: read one page of two, insert, read on.
        let rest = |path: &str, field: &str, insert: &dyn Fn() -> String| {
            let first = page(app, organiser, path, "limit=2");
            let inserted = insert();
            let mut ids: Vec<String> = first[field].as_array().unwrap().iter().map(ident).collect();
            let mut next = first["next"].as_str().unwrap().to_owned();
            loop {
                let body = page(app, organiser, path, &format!("limit=2&after={next}"));
                ids.extend(body[field].as_array().unwrap().iter().map(ident));
                match body["next"].as_str() {
                    Some(more) => next = more.to_owned(),
                    None => return (ids, inserted),
                }
            }
        };
        let (ledger_ids, entry) = rest(&ledger, "entries", &|| {
            let ledger = adjust(app, &people, &force, 7);
            ident(ledger["entries"].as_array().unwrap().last().unwrap())
        });
        let (invite_ids, _) = rest(&invites, "invites", &|| {
            invite_code(app, &people.organiser, &world.campaign_id);
            String::new()
        });
        let (force_ids, force) = rest(&forces, "forces", &|| {
            ident(&create_force(app, &people.owner, &world.campaign_id, &small_roster("Late")))
        });

        // Assert: oldest-first lists show the new item last; the newest-first invitation list
        // shows it on no later page (it sorts before the cursor); no item repeats or goes missing.
        let mut ledger_expected = before[0].clone();
        ledger_expected.push(entry);
        assert_eq!(ledger_ids, ledger_expected);
        assert_eq!(invite_ids, before[1]);
        let mut forces_expected = before[2].clone();
        forces_expected.push(force);
        assert_eq!(force_ids, forces_expected);
    }

    fn lists_default_to_50_items_and_the_ledger_totals_stay_whole(app: &TestApp) {
        // Arrange: 51 ledger entries of 1 CP each on a fresh force.
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = create_force(app, &people.owner, &world.campaign_id, &small_roster("Rich"));
        let force_id = force["id"].as_str().unwrap();
        let mut answer = Value::Null;
        for _ in 0..51 {
            answer = adjust(app, &people, force_id, 1);
        }
        let path = format!("/api/v1/forces/{force_id}/ledger");

        // Act
        let first = page(app, Reader::Token(&people.owner.token), &path, "");
        let next = first["next"].as_str().unwrap();
        let second = page(app, Reader::Key(&world.key), &path, &format!("after={next}"));

        // Assert
        let seqs = |body: &Value| -> Vec<i64> {
            body["entries"].as_array().unwrap().iter().map(|e| e["seq"].as_i64().unwrap()).collect()
        };
        assert_eq!(seqs(&first), (1..=50).collect::<Vec<_>>());
        assert_eq!(seqs(&second), [51]);
        assert!(second["next"].is_null(), "{second}");
        for body in [&first, &second, &answer] {
            assert_eq!((&body["balance"], &body["earned"], &body["spent"]), (&json!(51), &json!(51), &json!(0)), "{body}");
        }
        assert_eq!(seqs(&answer).len(), 50, "the adjustment answers the ledger's first page");
        assert!(answer["next"].is_string());
    }

    fn a_bad_limit_or_cursor_is_a_400_naming_the_parameter_on_every_list(app: &TestApp) {
        // Arrange: a real cursor of the battle list, and a second campaign of the same people.
        let (people, world, force) = populated(app);
        let other = World::build(app, &people);
        let organiser = Reader::Token(&people.organiser.token);
        let battles = format!("/api/v1/campaigns/{}/battles", world.campaign_id);
        let cursor = page(app, organiser, &battles, "limit=1")["next"].as_str().unwrap().to_owned();
        let middle = cursor.len() / 2;
        let flipped = if &cursor[middle..=middle] == "A" { "B" } else { "A" };
        let tampered = format!("{}{flipped}{}", &cursor[..middle], &cursor[middle + 1..]);
        let other_members = format!("/api/v1/campaigns/{}/members", other.campaign_id);
        let other_cursor = page(app, organiser, &other_members, "limit=1")["next"].as_str().unwrap().to_owned();

        let bad = [
            ("limit=0".to_owned(), "limit"),
            ("limit=101".to_owned(), "limit"),
            ("limit=abc".to_owned(), "limit"),
            ("limit=-1".to_owned(), "limit"),
            ("limit=2.5".to_owned(), "limit"),
            ("after=not-a-cursor".to_owned(), "after"),
            (format!("after={tampered}"), "after"),
            (format!("after={cursor}x"), "after"),
        ];
        for (path, _, _) in lists(&world, &force) {
            for (query, field) in &bad {
                // Act
                let response = get(app, organiser, &with_query(&path, query));

                // Assert
                let problem = assert_problem(response, 400);
                assert_eq!(problem["errors"][0]["field"], *field, "{path}?{query}: {problem}");
                let detail = problem["detail"].as_str().unwrap();
                assert!(detail.starts_with(&format!("{field} ")), "{path}?{query}: {detail}");
                if *field == "limit" {
                    assert_eq!(detail, "limit must be a whole number from 1 to 100.");
                }
            }
        }
        // A cursor is refused by another list, even one with the same order, and by the same
        // list of another campaign; it still works where it came from.
        let timeline = format!("/api/v1/campaigns/{}/timeline", world.campaign_id);
        let members = format!("/api/v1/campaigns/{}/members", world.campaign_id);
        for (path, after) in [(&timeline, &cursor), (&members, &other_cursor)] {
            let problem = assert_problem(get(app, organiser, &with_query(path, &format!("after={after}"))), 400);
            assert_eq!(problem["errors"][0]["field"], "after", "{path}: {problem}");
        }
        page(app, organiser, &battles, &format!("after={cursor}"));
        page(app, Reader::Key(&world.key), &battles, &format!("after={cursor}"));
    }
}
