//! The OpenAPI document is enough to use the API: every request example works when sent as it
//! is (only the path ids filled in), no schema a client reads or sends is a bare object, and
//! every documented request property is one the server reads.

use std::collections::BTreeMap;

use crate::auth::{TestUser, register};
use crate::campaigns::create_campaign;
use crate::common::{TestApp, send};
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
fn request_examples_cover_the_main_requests() {
    let doc: Value = serde_json::from_str(COMMITTED).unwrap();
    let with: Vec<String> = operations(&doc)
        .into_iter()
        .filter(|o| o.example.is_some())
        .map(|o| o.id)
        .collect();
    for id in [
        "register",
        "login",
        "create_campaign",
        "create_force",
        "replace_force",
        "generate_force",
        "import_force",
        "create_scenario",
    ] {
        assert!(
            with.iter().any(|w| w == id),
            "{id} has no request example: {with:?}"
        );
    }
}

both_backends! {
    fn every_request_example_succeeds_as_documented(app: &TestApp) {
        let doc = served(app);
        let user = register(app, "example-organiser");
        let mut ops: Vec<Operation> =
            operations(&doc).into_iter().filter(|o| o.example.is_some()).collect();
        // Registration first: the login example logs in the account it creates.
        ops.sort_by_key(|o| (o.id != "register", o.id != "login"));
        let mut failures = Vec::new();
        for (n, op) in ops.iter().enumerate() {
            let ids = fresh_ids(app, &user, n);
            let Some(path) = fill(&op.path, &ids) else {
                failures.push(format!("{}: no id for a parameter of {}", op.id, op.path));
                continue;
            };
            let mut request = app.request(op.method.clone(), &path).json(op.example.as_ref().unwrap());
            if !op.path.starts_with("/api/v1/auth/") {
                request = request.bearer_auth(&user.token);
            }
            let response = send(request);
            let status = response.status();
            if !status.is_success() {
                failures.push(format!("{} {}: {status} {}", op.method, op.path, response.text().unwrap()));
            }
        }
        assert!(ops.len() >= 8, "only {} request examples", ops.len());
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
