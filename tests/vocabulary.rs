//! `GET /api/v1/rules`: the rules vocabulary. Public and cacheable; its words are exactly the
//! document's enums, and every word is accepted where the API takes it.

use crate::auth::register;
use crate::campaigns::create_campaign;
use crate::common::{TestApp, send};
use reqwest::Method;
use serde_json::{Value, json};

fn vocabulary(app: &TestApp) -> Value {
    let response = app.get("/api/v1/rules");
    assert_eq!(response.status(), 200);
    response.json().unwrap()
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A one-unit roster.
fn roster(unit: Value) -> Value {
    json!({"name": "Vocabulary", "platoons": [{"name": "1st Platoon", "units": [unit]}]})
}

fn squad(strength: u32) -> Value {
    json!({"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
           "strength": strength, "starting_strength": strength, "armour": "improved",
           "basic_weapon": "assault_rifles"})
}

fn with(mut unit: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        unit[k] = v.clone();
    }
    unit
}

both_backends! {
    fn the_vocabulary_is_public_cacheable_and_linked_to_the_rules(app: &TestApp) {
        let response = app.get("/api/v1/rules");
        assert_eq!(response.status(), 200);
        let etag = response.headers()["etag"].to_str().unwrap().to_owned();
        let cache = response.headers()["cache-control"].to_str().unwrap().to_owned();
        assert!(cache.contains("public"), "{cache}");
        let body: Value = response.json().unwrap();
        let again = send(app.request(Method::GET, "/api/v1/rules").header("If-None-Match", &etag));
        assert_eq!(again.status(), 304);
        let quality = body["quality"].as_array().unwrap();
        assert_eq!(names(&body["quality"]), ["rabble", "conscript", "regular", "elite"]);
        assert_eq!(quality[0]["test_target"], 5);
        assert_eq!(quality[3]["test_target"], 2);
        assert_eq!(quality[0]["rules_url"], "/rules#1.1");
        let anchors = app.get("/rules").text().unwrap();
        for (list, entries) in body.as_object().unwrap() {
            let Some(entries) = entries.as_array() else { continue };
            for entry in entries {
                let id = entry["rules_id"].as_str().unwrap();
                assert!(anchors.contains(&format!("id=\"{id}\"")), "{list}: no anchor {id}");
                assert!(!entry["description"].as_str().unwrap().is_empty());
            }
        }
        let rolled: Vec<&Value> =
            body["missions"].as_array().unwrap().iter().filter(|m| m["rolled"] == true).collect();
        assert_eq!(rolled.len(), 8);
        assert!(rolled.iter().all(|m| !m["objective"].as_str().unwrap().is_empty()));
    }

    fn the_document_enums_are_the_vocabulary(app: &TestApp) {
        let body = vocabulary(app);
        // A word another built-in ruleset of the FAD family adds (the basic and advanced
        // rules' `regular` squad leader, `anti_armour_expert`) is documented after FAD 5e's.
        let other: Value = app.get("/api/v1/rulesets/fad-basic-advanced").json().unwrap();
        let family_names = |list: &str| {
            let mut all = names(&body[list]);
            for extra in names(&other[list]) {
                if !all.contains(&extra) {
                    all.push(extra);
                }
            }
            all
        };
        let doc: Value = app.get("/api-docs/openapi.json").json().unwrap();
        let schemas = &doc["components"]["schemas"];
        for (schema, list) in [
            ("Quality", "quality"),
            ("Resolve", "resolve"),
            ("Leadership", "leadership"),
            ("LeaderExperience", "leader_experience"),
            ("Aptitude", "aptitude"),
            ("UnitKind", "unit_kinds"),
            ("Armour", "armour"),
            ("BasicWeapon", "basic_weapons"),
            ("SupportWeapon", "support_weapons"),
            ("HeavyWeapon", "heavy_weapons"),
            ("Mobility", "mobility"),
            ("Trait", "traits"),
            ("Personality", "personalities"),
            ("PurchaseItem", "experience_menu"),
            ("Mission", "missions"),
            ("Stance", "stances"),
            ("Attitude", "attitudes"),
        ] {
            let documented: Vec<String> = schemas[schema]["enum"]
                .as_array()
                .unwrap_or_else(|| panic!("{schema} is not an enum"))
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(documented, family_names(list), "{schema}");
        }
        let settings = &body["house_rules"];
        assert_eq!(names(settings).len(), body["house_rule_defaults"].as_object().unwrap().len());
    }

    fn every_word_is_accepted_where_the_api_takes_it(app: &TestApp) {
        let body = vocabulary(app);
        let user = register(app, "vocabulary-user");
        let mut refused = Vec::new();
        let mut campaign_id = String::new();
        let mut count = 0;
        let mut try_unit = |word: &str, unit: Value| {
            // A campaign holds at most 200 forces: a new one every 100 words.
            if count % 100 == 0 {
                let campaign = create_campaign(app, &user, &format!("Vocabulary {count}"));
                campaign_id = campaign["id"].as_str().unwrap().to_owned();
            }
            count += 1;
            let response = app.post_json_with_token(
                &format!("/api/v1/campaigns/{campaign_id}/forces"),
                &roster(unit),
                &user.token,
            );
            if response.status() != 201 {
                refused.push(format!("{word}: {}", response.text().unwrap()));
            }
        };
        for q in names(&body["quality"]) {
            try_unit(&q, with(squad(6), json!({"quality": q})));
        }
        for r in names(&body["resolve"]) {
            try_unit(&r, with(squad(6), json!({"resolve": r})));
        }
        let captain = json!({"name": "Captain", "kind": "character", "quality": "regular",
            "resolve": "steady", "strength": 1, "starting_strength": 1, "armour": "improved",
            "basic_weapon": "assault_rifles"});
        for l in names(&body["leadership"]) {
            try_unit(&l, with(captain.clone(), json!({"leadership": l})));
        }
        for e in names(&body["leader_experience"]) {
            try_unit(&e, with(squad(6), json!({"leader_experience": e})));
        }
        for a in names(&body["aptitude"]) {
            try_unit(&a, json!({"name": "Seer", "kind": "psionic", "quality": "regular",
                "resolve": "steady", "strength": 1, "starting_strength": 1, "armour": "improved",
                "aptitude": a, "psionic_strength": 3}));
        }
        for a in names(&body["armour"]) {
            try_unit(&a, with(squad(6), json!({"armour": a})));
        }
        for w in names(&body["basic_weapons"]) {
            try_unit(&w, with(squad(6), json!({"basic_weapon": w})));
        }
        for w in body["support_weapons"].as_array().unwrap() {
            let powered = !w["restrictions"].as_array().unwrap().is_empty();
            let armour = if powered { "heavy_powered" } else { "improved" };
            try_unit(w["name"].as_str().unwrap(), with(squad(6), json!({"armour": armour, "support_weapons": [w["name"]]})));
        }
        for w in body["heavy_weapons"].as_array().unwrap() {
            let crew = w["crew"].as_u64().unwrap().max(1);
            try_unit(w["name"].as_str().unwrap(), json!({"name": "Gun", "kind": "weapons_team",
                "quality": "regular", "resolve": "steady", "strength": crew, "starting_strength": crew,
                "basic_weapon": "assault_carbines", "heavy_weapons": [w["name"]]}));
        }
        for m in names(&body["mobility"]) {
            try_unit(&m, json!({"name": "Rhino", "kind": "vehicle", "quality": "regular",
                "resolve": null, "strength": 1, "starting_strength": 1,
                "vehicle": {"mobility": m, "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3}}));
        }
        for t in body["traits"].as_array().unwrap() {
            let lone = !t["restrictions"].as_array().unwrap().is_empty();
            try_unit(t["name"].as_str().unwrap(), with(squad(if lone { 1 } else { 6 }), json!({"traits": [t["name"]]})));
        }
        for p in names(&body["personalities"]) {
            try_unit(&p, with(squad(6), json!({"personalities": [p]})));
        }
        for k in names(&body["unit_kinds"]) {
            let unit = match k.as_str() {
                "vehicle" => json!({"name": "Rhino", "kind": "vehicle", "quality": "regular",
                    "resolve": null, "strength": 1, "starting_strength": 1,
                    "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3}}),
                "weapons_team" | "off_board_artillery" => json!({"name": "Gun", "kind": k,
                    "quality": "regular", "resolve": "steady", "strength": 3, "starting_strength": 3,
                    "basic_weapon": "assault_carbines", "heavy_weapons": ["cannon_light"]}),
                "character" | "sniper" | "psionic" => with(squad(1), json!({"kind": k})),
                _ => with(squad(6), json!({"kind": k})),
            };
            try_unit(&k, unit);
        }
        // Missions, stances and attitudes: the odds endpoint takes each (bonuses in pairs).
        let stances = names(&body["stances"]);
        let attitudes = names(&body["attitudes"]);
        let rolled: Vec<String> = body["missions"].as_array().unwrap().iter()
            .filter(|m| m["rolled"] == true)
            .map(|m| m["name"].as_str().unwrap().to_owned())
            .collect();
        for (i, pair) in rolled.chunks(2).enumerate() {
            let (s, a) = (&stances[i % stances.len()], &attitudes[i % attitudes.len()]);
            let response = app.get(&format!(
                "/api/v1/odds/missions?stance={s}&attitude={a}&bonus={}&bonus={}", pair[0], pair[1]));
            if response.status() != 200 {
                refused.push(format!("{s}/{a}/{pair:?}: {}", response.text().unwrap()));
            }
        }
        // House rules: a campaign takes each switch at each of its values.
        for rule in body["house_rules"].as_array().unwrap() {
            let values: Vec<Value> = match rule["values"].as_array().unwrap().as_slice() {
                [] => vec![json!(true), json!(false)],
                values => values.to_vec(),
            };
            for value in values {
                let name = rule["name"].as_str().unwrap();
                let response = app.post_json_with_token(
                    "/api/v1/campaigns",
                    &json!({"name": format!("{name} {value}"), "house_rules": {name: value}}),
                    &user.token,
                );
                if response.status() != 201 {
                    refused.push(format!("{name}={value}: {}", response.text().unwrap()));
                }
            }
        }
        assert!(refused.is_empty(), "refused words:\n{}", refused.join("\n"));
    }
}
