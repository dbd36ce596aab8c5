//! The OpenAPI document is enough to use the API: every request body has an example, and every
//! example works when sent as it is (only the path ids and `{placeholder}` ids filled in, after
//! the battle, scenario or aftermath is brought to the state the request needs), no schema a
//! client reads or sends is a bare object, and every documented request property is one the
//! server reads.

use std::collections::BTreeMap;

use crate::auth::{TestUser, register};
use crate::campaigns::{create_campaign, invite_code, join};
use crate::common::{TestApp, ok, send, unit_id};
use crate::forces::{create_force, small_roster};
use reqwest::Method;
use serde_json::{Map, Value, json};

const COMMITTED: &str = include_str!("../openapi/openapi.json");

/// One operation with a JSON request body.
struct Operation {
    id: String,
    method: Method,
    path: String,
    schema: Value,
    example: Option<Value>,
}

/// Resolves a local `$ref` (`#/components/schemas/X`) against the document.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(media) = op.pointer("/requestBody/content/application~1json") else {
                continue;
            };
            let schema = media["schema"].clone();
            let example = media
                .get("example")
                .cloned()
                .or_else(|| resolve(doc, &schema).get("example").cloned());
            out.push(Operation {
                id: op["operationId"].as_str().unwrap().to_owned(),
                method: method.to_uppercase().parse().unwrap(),
                path: path.clone(),
                schema,
                example,
            });
        }
    }
    out
}

/// The path with its `{name}` parameters filled from `ids`; `None` when one is unknown.
fn fill(path: &str, ids: &BTreeMap<&str, String>) -> Option<String> {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}')? + start;
        out.push_str(&rest[..start]);
        out.push_str(ids.get(&rest[start + 1..end])?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// A fresh campaign and force owned by `user`, as path ids (so each example meets version 1).
fn fresh_ids(app: &TestApp, user: &TestUser, n: usize) -> BTreeMap<&'static str, String> {
    let campaign = create_campaign(app, user, &format!("Examples {n}"));
    let campaign_id = campaign["id"].as_str().unwrap().to_owned();
    let force = create_force(app, user, &campaign_id, &small_roster("Blue"));
    BTreeMap::from([
        ("campaign_id", campaign_id),
        ("force_id", force["id"].as_str().unwrap().to_owned()),
    ])
}

fn served(app: &TestApp) -> Value {
    app.get("/api-docs/openapi.json").json().unwrap()
}

/// Whether a problem answer names an unknown (unread) field.
fn names_unknown_field(body: &Value) -> Option<String> {
    body["errors"]
        .as_array()?
        .iter()
        .find(|e| {
            let message = e["message"].as_str().unwrap_or_default();
            message.contains("unknown field") || message.contains("does not take")
        })
        .map(|e| e.to_string())
}

/// The property sets a body may have: one per `oneOf` variant, `allOf` parts merged.
fn property_sets(doc: &Value, schema: &Value) -> Vec<Map<String, Value>> {
    let schema = resolve(doc, schema);
    if let Some(parts) = schema["allOf"].as_array() {
        let mut sets = vec![Map::new()];
        for part in parts {
            let mut next = Vec::new();
            for set in &sets {
                for extra in property_sets(doc, part) {
                    let mut merged = set.clone();
                    merged.extend(extra);
                    next.push(merged);
                }
            }
            sets = next;
        }
        return sets;
    }
    if let Some(variants) = schema["oneOf"].as_array() {
        return variants
            .iter()
            .filter(|v| v["type"] != "null")
            .flat_map(|v| property_sets(doc, v))
            .collect();
    }
    let mut set = Map::new();
    if let Some(properties) = schema["properties"].as_object() {
        set.extend(properties.clone());
    }
    vec![set]
}

/// A value of the property's type: its example, the first of its enum, or a plain one.
fn sample(doc: &Value, schema: &Value) -> Value {
    let schema = resolve(doc, schema);
    if let Some(example) = schema.get("example") {
        return example.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(variants) = schema["oneOf"].as_array() {
        if variants.iter().any(|v| v["type"] == "null") {
            return Value::Null;
        }
        return sample(doc, &variants[0]);
    }
    let kind = match &schema["type"] {
        Value::Array(types) if types.iter().any(|t| t == "null") => return Value::Null,
        Value::Array(types) => types[0].clone(),
        other => other.clone(),
    };
    match kind.as_str() {
        Some("string") => json!("x"),
        Some("integer" | "number") => json!(1),
        Some("boolean") => json!(false),
        Some("array") => json!([]),
        _ => json!({}),
    }
}

#[test]
fn no_schema_is_a_bare_object() {
    fn walk(node: &Value, at: &str, bare: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                let is_object = match map.get("type") {
                    Some(Value::String(t)) => t == "object",
                    Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                    _ => false,
                };
                let described = map
                    .get("properties")
                    .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()))
                    || map
                        .get("additionalProperties")
                        .is_some_and(|a| a.is_object() || a == &Value::Bool(false))
                    || ["$ref", "oneOf", "allOf", "anyOf"]
                        .iter()
                        .any(|k| map.contains_key(*k));
                if is_object && !described {
                    bare.push(at.to_owned());
                }
                for (key, value) in map {
                    walk(value, &format!("{at}/{key}"), bare);
                }
            }
            Value::Array(items) => {
                for (i, value) in items.iter().enumerate() {
                    walk(value, &format!("{at}/{i}"), bare);
                }
            }
            _ => {}
        }
    }
    let doc: Value = serde_json::from_str(COMMITTED).unwrap();
    let mut bare = Vec::new();
    walk(&doc["paths"], "#/paths", &mut bare);
    walk(
        &doc["components"]["schemas"],
        "#/components/schemas",
        &mut bare,
    );
    assert!(bare.is_empty(), "schemas without properties: {bare:#?}");
}

#[test]
fn every_request_body_has_an_example() {
    let doc: Value = serde_json::from_str(COMMITTED).unwrap();
    let ops = operations(&doc);
    let without: Vec<String> = ops
        .iter()
        .filter(|o| o.example.is_none())
        .map(|o| format!("{} {} ({})", o.method, o.path, o.id))
        .collect();
    assert!(
        ops.len() >= 30,
        "only {} request bodies documented",
        ops.len()
    );
    assert!(
        without.is_empty(),
        "request bodies without an example:\n{}",
        without.join("\n")
    );
}

/// Every `{placeholder}` in the example's strings and object keys replaced from `subs`.
fn substitute(value: &Value, subs: &BTreeMap<String, String>) -> Value {
    let text = |s: &str| {
        subs.iter()
            .fold(s.to_owned(), |acc, (from, to)| acc.replace(from, to))
    };
    match value {
        Value::String(s) => Value::String(text(s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute(v, subs)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (text(k), substitute(v, subs)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Placeholders (`{name}`) the substitution did not know.
fn unfilled(value: &Value) -> Vec<String> {
    let in_text = |s: &str| {
        let open = s.find('{')?;
        s[open..]
            .find('}')
            .map(|close| s[open..=open + close].to_owned())
    };
    match value {
        Value::String(s) => in_text(s).into_iter().collect(),
        Value::Array(items) => items.iter().flat_map(unfilled).collect(),
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| in_text(k).into_iter().chain(unfilled(v)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The organiser and two players of one campaign, where the battle examples are played.
struct Club {
    organiser: TestUser,
    blue: TestUser,
    red: TestUser,
    campaign_id: String,
}

impl Club {
    fn new(app: &TestApp, organiser: TestUser) -> Self {
        let campaign = create_campaign(app, &organiser, "Examples: battles");
        let campaign_id = campaign["id"].as_str().unwrap().to_owned();
        let blue = register(app, "example-blue");
        let red = register(app, "example-red");
        for player in [&blue, &red] {
            let code = invite_code(app, &organiser, &campaign_id);
            assert_eq!(join(app, player, &code).status(), 201);
        }
        Self {
            organiser,
            blue,
            red,
            campaign_id,
        }
    }
}

/// Two fresh forces of the club (Blue: Alpha, Bravo; Red: Delta, Echo) and, once created, their
/// battle; `subs` fills the examples' placeholders from Blue's point of view.
struct Match {
    blue: String,
    red: String,
    subs: BTreeMap<String, String>,
    battle: String,
}

fn squads(name: &str, units: [&str; 2]) -> Value {
    let unit = |n: &str| {
        json!({"name": n, "kind": "squad", "quality": "regular", "resolve": "steady",
               "strength": 8, "starting_strength": 8, "armour": "improved",
               "basic_weapon": "assault_rifles"})
    };
    json!({"name": name, "platoons": [{"name": "1st Platoon",
           "units": [unit(units[0]), unit(units[1])]}]})
}

/// Mission dice for a side: every mission 1 except those given.
fn mission_dice(high: &[(&str, u8)]) -> Value {
    let missions = [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ];
    let dice: Map<String, Value> = missions
        .iter()
        .map(|m| {
            let v = high.iter().find(|(n, _)| n == m).map_or(1, |(_, v)| *v);
            ((*m).to_owned(), json!([v]))
        })
        .collect();
    Value::Object(dice)
}

impl Match {
    /// The forces only: the battle is the create example's to make.
    fn forces(app: &TestApp, club: &Club, n: usize) -> Self {
        let blue = create_force(
            app,
            &club.blue,
            &club.campaign_id,
            &squads(&format!("Blue {n}"), ["Alpha", "Bravo"]),
        );
        let red = create_force(
            app,
            &club.red,
            &club.campaign_id,
            &squads(&format!("Red {n}"), ["Delta", "Echo"]),
        );
        let subs = BTreeMap::from([
            (
                "{force_id}".to_owned(),
                blue["id"].as_str().unwrap().to_owned(),
            ),
            (
                "{opponent_force_id}".to_owned(),
                red["id"].as_str().unwrap().to_owned(),
            ),
            ("{unit_id}".to_owned(), unit_id(&blue, "Alpha")),
            ("{opponent_unit_id}".to_owned(), unit_id(&red, "Delta")),
        ]);
        Self {
            blue: blue["id"].as_str().unwrap().to_owned(),
            red: red["id"].as_str().unwrap().to_owned(),
            subs,
            battle: String::new(),
        }
    }

    /// Sends the documented example `id` to `path` as `user` (a step another example needs).
    #[track_caller]
    fn play(&self, app: &TestApp, ex: &Examples, id: &str, path: &str, user: &TestUser) -> Value {
        let body = substitute(&ex[id], &self.subs);
        ok(app.post_json_with_token(path, &body, &user.token))
    }

    /// Sends a fixed body to the battle's `path` as `user`.
    #[track_caller]
    fn post(&self, app: &TestApp, path: &str, body: &Value, user: &TestUser) -> Value {
        ok(app.post_json_with_token(
            &format!("/api/v1/battles/{}/{path}", self.battle),
            body,
            &user.token,
        ))
    }

    /// A battle created by the create example.
    fn created(app: &TestApp, club: &Club, ex: &Examples, n: usize) -> Self {
        let mut m = Self::forces(app, club, n);
        let path = format!("/api/v1/campaigns/{}/battles", club.campaign_id);
        let battle = m.play(app, ex, "create_battle", &path, &club.blue);
        m.battle = battle["id"].as_str().unwrap().to_owned();
        m
    }

    /// The result example recorded by Blue (pending Red's confirmation).
    fn recorded(app: &TestApp, club: &Club, ex: &Examples, n: usize) -> Self {
        let m = Self::created(app, club, ex, n);
        m.play(
            app,
            ex,
            "record_battle_result",
            &format!("/api/v1/battles/{}/result", m.battle),
            &club.blue,
        );
        m
    }

    /// Confirmed by Red: Blue's post-battle sequence is open.
    fn confirmed(app: &TestApp, club: &Club, ex: &Examples, n: usize) -> Self {
        let m = Self::recorded(app, club, ex, n);
        m.post(app, "result/confirm", &json!({}), &club.red);
        m
    }

    fn aftermath(&self, step: &str) -> String {
        format!(
            "/api/v1/battles/{}/aftermath/{}/{step}",
            self.battle, self.blue
        )
    }

    /// Blue's aftermath walked through the examples up to (not including) `upto`.
    fn aftermath_until(app: &TestApp, club: &Club, ex: &Examples, n: usize, upto: &str) -> Self {
        let m = Self::confirmed(app, club, ex, n);
        for (id, step) in [
            ("roll_aftermath", "roll"),
            ("purchase_aftermath", "purchases"),
            ("reinforce_aftermath", "reinforcements"),
        ] {
            if id == upto {
                break;
            }
            m.play(app, ex, id, &m.aftermath(step), &club.blue);
        }
        m
    }

    /// Red's orders: Offensive, Aggressive, with the table-edge die given.
    fn red_orders(&self, app: &TestApp, club: &Club, edge: u8) {
        let red = &self.red;
        self.post(
            app,
            "scenario/orders",
            &json!({"force_id": red, "stance": "offensive",
            "attitude": "aggressive", "dice": {"table_edge": {red.clone(): [edge]}}}),
            &club.red,
        );
    }

    /// Red's mission bonuses, with every mission die 1 except those given.
    fn red_bonuses(&self, app: &TestApp, club: &Club, missions: Value, high: &[(&str, u8)]) {
        self.post(
            app,
            "scenario/mission-bonuses",
            &json!({"force_id": self.red,
            "missions": missions, "dice": {"mission": mission_dice(high)}}),
            &club.red,
        );
    }

    fn ids(&self, club: &Club) -> BTreeMap<&'static str, String> {
        BTreeMap::from([
            ("campaign_id", club.campaign_id.clone()),
            ("battle_id", self.battle.clone()),
            ("force_id", self.blue.clone()),
        ])
    }
}

type Examples = BTreeMap<String, Value>;

/// What one example needs: its path ids, its placeholders and who sends it.
struct Prepared<'a> {
    ids: BTreeMap<&'static str, String>,
    subs: BTreeMap<String, String>,
    user: &'a TestUser,
}

/// Brings the server to the state where the example of `op` applies; `None` for the requests
/// that need only a fresh campaign and force.
fn prepare<'a>(
    app: &TestApp,
    club: &'a Club,
    ex: &Examples,
    op: &str,
    n: usize,
) -> Option<Prepared<'a>> {
    let scenario = |m: &Match| format!("/api/v1/battles/{}/scenario", m.battle);
    let (m, user) = match op {
        "create_battle" => (Match::forces(app, club, n), &club.blue),
        "record_battle_result" => (Match::created(app, club, ex, n), &club.blue),
        "confirm_battle_result" => (Match::recorded(app, club, ex, n), &club.red),
        // Corrections are the organiser's, here on a result not confirmed yet.
        "void_battle" | "reopen_battle" => (Match::recorded(app, club, ex, n), &club.organiser),
        "roll_aftermath" | "purchase_aftermath" | "reinforce_aftermath" | "finalize_aftermath" => {
            (Match::aftermath_until(app, club, ex, n, op), &club.blue)
        }
        "submit_scenario_orders" => (Match::created(app, club, ex, n), &club.blue),
        "submit_scenario_mission_bonuses" => {
            let m = Match::created(app, club, ex, n);
            m.play(
                app,
                ex,
                "submit_scenario_orders",
                &format!("{}/orders", scenario(&m)),
                &club.blue,
            );
            m.red_orders(app, club, 4);
            (m, &club.blue)
        }
        "declare_scenario_assault_target" => {
            // Blue rolls Assault 6 + 1 against Hold 1 + 2 + 2; Red (edge 4 + 3 against Blue's
            // 3 + 2) chooses the edge, which leaves Blue o1 and o6 as far objectives (S7).
            let m = Match::created(app, club, ex, n);
            m.play(
                app,
                ex,
                "submit_scenario_orders",
                &format!("{}/orders", scenario(&m)),
                &club.blue,
            );
            m.red_orders(app, club, 4);
            m.post(app, "scenario/mission-bonuses", &json!({"force_id": m.blue,
                "missions": ["assault", "patrol"], "dice": {"mission": mission_dice(&[("assault", 6)])}}), &club.blue);
            m.red_bonuses(app, club, json!(["strike", "sweep"]), &[("strike", 6)]);
            (m, &club.blue)
        }
        "submit_scenario_mission_choice" => {
            // A tie needs entered dice: Blue (Defensive, Passive) Hold 2 + 4 = Sweep 6 + 0;
            // Red rolls Sweep 6 + 3 (S9).
            let m = Match::created(app, club, ex, n);
            let (blue, alpha) = (m.blue.clone(), m.subs["{unit_id}"].clone());
            m.post(
                app,
                "scenario/orders",
                &json!({"force_id": blue, "stance": "defensive",
                "attitude": "passive", "recon_unit_ids": [alpha],
                "dice": {"table_edge": {blue.clone(): [6]}}}),
                &club.blue,
            );
            m.red_orders(app, club, 1);
            m.post(
                app,
                "scenario/mission-bonuses",
                &json!({"force_id": blue, "missions": [],
                "dice": {"mission": mission_dice(&[("hold", 2), ("sweep", 6)])}}),
                &club.blue,
            );
            m.red_bonuses(app, club, json!([]), &[("sweep", 6)]);
            (m, &club.blue)
        }
        "submit_scenario_recon_action" => {
            // The side whose recon turn it is acts (the one placing markers first, S16).
            let mut m = Match::created(app, club, ex, n);
            m.play(
                app,
                ex,
                "submit_scenario_orders",
                &format!("{}/orders", scenario(&m)),
                &club.blue,
            );
            m.red_orders(app, club, 4);
            m.play(
                app,
                ex,
                "submit_scenario_mission_bonuses",
                &format!("{}/mission-bonuses", scenario(&m)),
                &club.blue,
            );
            m.red_bonuses(app, club, json!(["strike", "sweep"]), &[("strike", 6)]);
            let view = ok(app.get_with_token(&scenario(&m), &club.organiser.token));
            assert_eq!(view["state"], "recon", "{view}");
            let turn = view["waiting_for"][0].as_str().unwrap().to_owned();
            let user = if turn == m.blue {
                &club.blue
            } else {
                &club.red
            };
            m.subs.insert("{force_id}".to_owned(), turn);
            (m, user)
        }
        // A side's owner shares its sheet, or takes back a link shared before.
        "share_battle_scenario_sheet" => (Match::created(app, club, ex, n), &club.blue),
        "revoke_battle_scenario_sheet" => {
            let m = Match::created(app, club, ex, n);
            m.post(
                app,
                "scenario/share",
                &json!({"force_id": m.blue}),
                &club.blue,
            );
            (m, &club.blue)
        }
        // Solo play: Blue against a non-player Militia whose first unit is `s2-u1`, set up;
        // a turn and casualties after the groups example; the same for a one-shot scenario.
        "put_battle_solo_groups" | "post_battle_solo_turn" | "post_battle_solo_casualties" => {
            return Some(solo_battle(app, club, ex, op, n));
        }
        "put_scenario_solo_groups"
        | "post_scenario_solo_turn"
        | "post_scenario_solo_casualties" => {
            return Some(solo_scenario(app, club, ex, op));
        }
        "join_campaign" => {
            let campaign = create_campaign(app, &club.organiser, "Examples: joining");
            let code = invite_code(app, &club.organiser, campaign["id"].as_str().unwrap());
            return Some(Prepared {
                ids: BTreeMap::new(),
                subs: BTreeMap::from([("{invite_code}".to_owned(), code)]),
                user: &club.blue,
            });
        }
        // The document lists paths in order: `create_ruleset` made the example's ruleset
        // (as the organiser) before its next version is written.
        "update_ruleset" => {
            return Some(Prepared {
                ids: BTreeMap::from([("slug", "stockholm-fad".to_owned())]),
                subs: BTreeMap::new(),
                user: &club.organiser,
            });
        }
        "transfer_organiser" => {
            let campaign = create_campaign(app, &club.organiser, "Examples: handing over");
            let campaign_id = campaign["id"].as_str().unwrap().to_owned();
            let code = invite_code(app, &club.organiser, &campaign_id);
            assert_eq!(join(app, &club.red, &code).status(), 201);
            return Some(Prepared {
                ids: BTreeMap::from([("campaign_id", campaign_id)]),
                subs: BTreeMap::from([("{member_user_id}".to_owned(), club.red.id.clone())]),
                user: &club.organiser,
            });
        }
        _ => return None,
    };
    Some(Prepared {
        ids: m.ids(club),
        subs: m.subs,
        user,
    })
}

/// The non-player Militia of the solo examples: its units are `s2-u1` and `s2-u2`.
fn militia() -> Value {
    json!({"name": "Militia", "units": [
        {"name": "Rifles", "kind": "squad", "quality": "regular", "strength": 6},
        {"name": "Gunners", "kind": "squad", "quality": "conscript", "strength": 4}]})
}

/// A battle of Blue against the Militia with its scenario ready (and, but for the groups
/// example, the groups example sent).
fn solo_battle<'a>(
    app: &TestApp,
    club: &'a Club,
    ex: &Examples,
    op: &str,
    n: usize,
) -> Prepared<'a> {
    let m = Match::forces(app, club, n);
    let battle = ok(app.post_json_with_token(
        &format!("/api/v1/campaigns/{}/battles", club.campaign_id),
        &json!({"sides": [{"force_id": m.blue}, {"non_player": militia()}]}),
        &club.blue.token,
    ));
    let battle = battle["id"].as_str().unwrap().to_owned();
    let scenario = format!("/api/v1/battles/{battle}/scenario");
    let token = &club.blue.token;
    ok(app.post_json_with_token(
        &format!("{scenario}/orders"),
        &json!({"force_id": m.blue, "stance": "neutral", "attitude": "cautious"}),
        token,
    ));
    let mut v = ok(app.post_json_with_token(
        &format!("{scenario}/mission-bonuses"),
        &json!({"force_id": m.blue, "missions": ["patrol", "sweep"],
                "dice": {"mission": mission_dice(&[("patrol", 6)])}}),
        token,
    ));
    for _ in 0..20 {
        if v["state"] == "ready" {
            break;
        }
        v = ok(app.post_json_with_token(
            &format!("{scenario}/recon-actions"),
            &json!({"force_id": m.blue, "action": "pass"}),
            token,
        ));
    }
    assert_eq!(v["state"], "ready", "{v}");
    let solo = format!("/api/v1/battles/{battle}/solo");
    if op != "put_battle_solo_groups" {
        ok(app.put_json_with_token(
            &format!("{solo}/groups"),
            &ex["put_battle_solo_groups"],
            token,
        ));
    }
    Prepared {
        ids: BTreeMap::from([("battle_id", battle), ("name", "Hill".to_owned())]),
        subs: BTreeMap::new(),
        user: &club.blue,
    }
}

/// A one-shot scenario of Blue's against the Militia (and the groups example sent, but for
/// the groups example itself).
fn solo_scenario<'a>(app: &TestApp, club: &'a Club, ex: &Examples, op: &str) -> Prepared<'a> {
    let mut npf = militia();
    npf["non_player"] = json!(true);
    let player = json!({"name": "Blue", "stance": "neutral", "attitude": "cautious",
        "units": [{"name": "Alpha", "kind": "squad", "resolve": "steady"}]});
    let created = app.post_json_with_token(
        "/api/v1/scenarios",
        &json!({"sides": [player, npf]}),
        &club.blue.token,
    );
    assert_eq!(created.status(), 201);
    let id = created.json::<Value>().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    if op != "put_scenario_solo_groups" {
        ok(app.put_json_with_token(
            &format!("/api/v1/scenarios/{id}/solo/groups"),
            &ex["put_scenario_solo_groups"],
            &club.blue.token,
        ));
    }
    Prepared {
        ids: BTreeMap::from([("scenario_id", id), ("name", "Hill".to_owned())]),
        subs: BTreeMap::new(),
        user: &club.blue,
    }
}

both_backends! {
    fn every_request_example_succeeds_as_documented(app: &TestApp) {
        let doc = served(app);
        let user = register(app, "example-organiser");
        let all = operations(&doc);
        let mut failures: Vec<String> = all
            .iter()
            .filter(|o| o.example.is_none())
            .map(|o| format!("{}: no request example", o.id))
            .collect();
        let mut ops: Vec<Operation> = all.into_iter().filter(|o| o.example.is_some()).collect();
        let examples: Examples = ops.iter().map(|o| (o.id.clone(), o.example.clone().unwrap())).collect();
        // Registration first: the login example logs in the account it creates.
        ops.sort_by_key(|o| (o.id != "register", o.id != "login"));
        let club = Club::new(app, user);
        for (n, op) in ops.iter().enumerate() {
            let prepared = prepare(app, &club, &examples, &op.id, n).unwrap_or_else(|| Prepared {
                ids: fresh_ids(app, &club.organiser, n),
                subs: BTreeMap::new(),
                user: &club.organiser,
            });
            let Some(path) = fill(&op.path, &prepared.ids) else {
                failures.push(format!("{}: no id for a parameter of {}", op.id, op.path));
                continue;
            };
            let body = substitute(op.example.as_ref().unwrap(), &prepared.subs);
            let unknown = unfilled(&body);
            if !unknown.is_empty() {
                failures.push(format!("{}: unknown placeholders {unknown:?}", op.id));
                continue;
            }
            let mut request = app.request(op.method.clone(), &path).json(&body);
            if !op.path.starts_with("/api/v1/auth/") {
                request = request.bearer_auth(&prepared.user.token);
            }
            let response = send(request);
            let status = response.status();
            if op.id == "create_webhook" {
                // The example's host is under `.example`, reserved never to resolve (RFC 2606),
                // and the server resolves a webhook's host when it is created (to refuse names
                // pointing at private addresses): the one refusal left must be that the host
                // cannot be found, naming `url`; every other part of the example is accepted.
                let text = response.text().unwrap();
                let problem: Value = serde_json::from_str(&text).unwrap_or_default();
                let expected = json!([{"field": "url", "message": "the host club.example cannot be found"}]);
                if status != 422 || problem["errors"] != expected {
                    failures.push(format!("{} {}: {status} {text}", op.method, op.path));
                }
                continue;
            }
            if !status.is_success() {
                failures.push(format!("{} {}: {status} {}", op.method, op.path, response.text().unwrap()));
            }
        }
        assert!(ops.len() >= 30, "only {} request examples", ops.len());
        assert!(failures.is_empty(), "examples refused:\n{}", failures.join("\n"));
    }

    fn every_documented_request_property_is_read(app: &TestApp) {
        let doc = served(app);
        let user = register(app, "property-organiser");
        let mut unread = Vec::new();
        let mut checked = 0;
        for (n, op) in operations(&doc).into_iter().enumerate() {
            let mut ids = fresh_ids(app, &user, n);
            for name in ["battle_id", "key_id", "user_id", "entry_id", "version"] {
                ids.insert(name, "no-such-id".to_owned());
            }
            let path = fill(&op.path, &ids).unwrap_or_else(|| op.path.clone());
            for set in property_sets(&doc, &op.schema) {
                if set.is_empty() {
                    continue;
                }
                let mut body = match &op.example {
                    Some(Value::Object(example)) => example.clone(),
                    _ => Map::new(),
                };
                // The example is one variant's: another variant (its tag differs) starts empty.
                let other_variant = set.iter().any(|(name, schema)| {
                    resolve(&doc, schema)["enum"]
                        .as_array()
                        .filter(|e| e.len() == 1)
                        .is_some_and(|tag| body.get(name).is_some_and(|v| *v != tag[0]))
                });
                if other_variant {
                    body = Map::new();
                }
                for (name, schema) in &set {
                    // A one-value enum is a variant's tag (`method`): it picks the variant.
                    let tag = resolve(&doc, schema)["enum"].as_array().filter(|e| e.len() == 1);
                    match tag {
                        Some(tag) => {
                            body.insert(name.clone(), tag[0].clone());
                        }
                        None => {
                            body.entry(name.clone()).or_insert_with(|| sample(&doc, schema));
                        }
                    }
                }
                let mut request = app.request(op.method.clone(), &path).json(&body);
                if !op.path.starts_with("/api/v1/auth/") {
                    request = request.bearer_auth(&user.token);
                }
                let response = send(request);
                checked += 1;
                if response.status() == 422 || response.status() == 400 {
                    let problem: Value = response.json().unwrap_or_default();
                    if let Some(error) = names_unknown_field(&problem) {
                        unread.push(format!("{} {}: {error}", op.method, op.path));
                    }
                }
            }
        }
        assert!(checked >= 20, "only {checked} bodies checked");
        assert!(unread.is_empty(), "documented but not read:\n{}", unread.join("\n"));
    }
}
