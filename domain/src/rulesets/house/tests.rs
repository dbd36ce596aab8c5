use serde_json::json;

use super::*;
use crate::campaign::quality_loss::QualityLoss;
use crate::campaign::replacements::InfantryReplacement;
use crate::campaign::resolve_change::ResolveChange;
use crate::campaign::vehicle_replacements::VehicleReplacement;
use crate::house_rules::FullStrength;

fn doc(set: Value) -> HouseDocument {
    serde_json::from_value(json!({
        "id": "club/stockholm-fad",
        "name": "Stockholm club FAD",
        "extends": {"id": "fad5e", "version": 1},
        "set": set,
    }))
    .unwrap()
}

fn build(set: Value) -> Result<Ruleset, Vec<SetProblem>> {
    build_house(&Ruleset::fad5e(), &doc(set), 1)
}

/// The single problem of a document, as (path, message).
fn problem(set: Value) -> (String, String) {
    let problems = build(set).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    (problems[0].path.clone(), problems[0].message.clone())
}

#[test]
fn the_design_example_builds_with_exactly_its_changes() {
    let r = build(json!({
        "campaign.cp_per_platoon": 3,
        "campaign.tables.quality_loss": ["drops","stays","stays","stays","stays","stays"],
        "campaign.menu.assign_trait.cost": 3,
        "lists.personalities.add": [{"name": "scrounger", "description": "finds kit", "points": 1}],
        "options.bank_campaign_points.default": false
    }))
    .unwrap();
    assert_eq!(r.tables.cp_per_platoon, 3);
    assert_eq!(r.tables.quality_loss[0], QualityLoss::Drops);
    assert_eq!(r.tables.quality_loss[1], QualityLoss::Stays);
    assert_eq!(r.tables.cost(PurchaseItem::AssignTrait), 3);
    assert!(!r.options.bank_campaign_points);
    let added: Vec<_> = r.lists.personalities.iter().filter(|e| e.added).collect();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0].name, "scrounger");
    assert_eq!(r.pin(), RulesetPin::new("club/stockholm-fad", 1));
    assert_eq!(r.extends, Some(RulesetPin::default()));
    assert!(!r.builtin);
    assert_eq!(r.family, super::super::Family::Fad);
    assert_eq!(r.decisions, Ruleset::fad5e().decisions);
    let keys: Vec<String> = differences(&Ruleset::fad5e(), &r)
        .into_iter()
        .map(|d| d.key)
        .collect();
    assert_eq!(
        keys,
        [
            "campaign.cp_per_platoon",
            "campaign.tables.quality_loss",
            "campaign.menu.assign_trait.cost",
            "options.bank_campaign_points.default",
            "lists.personalities.add"
        ]
    );
}

#[test]
fn differences_read_as_words_with_before_and_after() {
    let r = build(json!({
        "campaign.tables.quality_loss": ["drops","stays","stays","stays","stays","stays"],
        "campaign.menu.repair_vehicle.enabled": false,
        "options.full_strength.default": "battle_start",
        "ladders.quality.names": ["Green", "Trained", "Veteran", "Elite"],
    }))
    .unwrap();
    let d = differences(&Ruleset::fad5e(), &r);
    let got: Vec<(&str, &str, &str)> = d
        .iter()
        .map(|d| (d.key.as_str(), d.before.as_str(), d.after.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "campaign.tables.quality_loss",
                "drops, drops, stays, stays, stays, stays",
                "drops, stays, stays, stays, stays, stays"
            ),
            ("campaign.menu.repair_vehicle.enabled", "yes", "no"),
            (
                "options.full_strength.default",
                "establishment",
                "battle start"
            ),
            (
                "ladders.quality.names",
                "Rabble, Conscript, Regular, Elite",
                "Green, Trained, Veteran, Elite"
            ),
        ]
    );
    assert_eq!(d[0].label, "Quality loss table");
    assert_eq!(r.options.full_strength, FullStrength::BattleStart);
    assert!(differences(&Ruleset::fad5e(), &Ruleset::fad5e()).is_empty());
}

#[test]
fn a_table_without_six_rows_is_refused_at_its_key() {
    let (path, message) = problem(json!({
        "campaign.tables.quality_loss": ["drops","stays","stays","stays","stays"]
    }));
    assert_eq!(path, "set.campaign.tables.quality_loss");
    assert!(message.starts_with("a d6 table has 6 rows"), "{message}");
}

#[test]
fn a_row_outside_the_steps_vocabulary_is_refused_naming_the_words() {
    let (path, message) = problem(json!({
        "campaign.tables.resolve_change": ["drops","stays","stays","stays","improves","full_strength"]
    }));
    assert_eq!(path, "set.campaign.tables.resolve_change");
    assert_eq!(
        message,
        "row 6 is not a row of this table; each row is one of: drops, stays, improves"
    );
    let (_, not_a_list) = problem(json!({"campaign.tables.replacement": "full_strength"}));
    assert!(not_a_list.contains("list of 6 rows"), "{not_a_list}");
}

#[test]
fn every_table_accepts_its_own_words() {
    let r = build(json!({
        "campaign.tables.replacement": ["no_replacements","half_the_losses","half_the_losses","full_strength","full_strength","full_strength"],
        "campaign.tables.vehicle_replacement": ["not_repaired_or_replaced","repaired_not_replaced","repaired_not_replaced","repaired_or_replaced","repaired_or_replaced","repaired_or_replaced"],
        "campaign.tables.resolve_change": ["drops","stays","stays","stays","improves","improves"],
    }))
    .unwrap();
    assert_eq!(r.tables.replacement[3], InfantryReplacement::FullStrength);
    assert_eq!(
        r.tables.vehicle_replacement[1],
        VehicleReplacement::RepairedNotReplaced
    );
    assert_eq!(r.tables.resolve_change[3], ResolveChange::Stays);
}

#[test]
fn the_row_words_are_the_words_the_tables_serialize_to() {
    let t = crate::campaign::CampaignTables::fad5e();
    for (key, rows) in [
        ("campaign.tables.replacement", json(&t.replacement)),
        (
            "campaign.tables.vehicle_replacement",
            json(&t.vehicle_replacement),
        ),
        ("campaign.tables.quality_loss", json(&t.quality_loss)),
        ("campaign.tables.resolve_change", json(&t.resolve_change)),
    ] {
        let words = SettableKey::find(key).unwrap().choices();
        let used: BTreeSet<&str> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(used, words.iter().copied().collect(), "{key}");
    }
}

#[test]
fn numbers_are_whole_and_in_range() {
    for (key, bad) in [
        ("campaign.cp_per_platoon", json!(11)),
        ("campaign.cp_per_platoon", json!(-1)),
        ("campaign.cp_per_platoon", json!(2.5)),
        ("campaign.cp_per_platoon", json!("3")),
        ("campaign.pool_dice", json!(0)),
        ("campaign.pool_dice", json!(7)),
        ("campaign.menu.assign_trait.cost", json!(11)),
    ] {
        let (path, message) = problem(json!({ key: bad }));
        assert_eq!(path, format!("set.{key}"));
        assert!(
            message.starts_with("must be a whole number from"),
            "{message}"
        );
    }
    let r = build(json!({"campaign.cp_per_platoon": 0, "campaign.pool_dice": 6, "campaign.menu.improve_quality.cost": 10})).unwrap();
    assert_eq!((r.tables.cp_per_platoon, r.tables.pool_dice), (0, 6));
    assert_eq!(r.tables.cost(PurchaseItem::ImproveQuality), 10);
}

#[test]
fn unknown_keys_and_wrong_types_are_problems_not_panics() {
    let problems = build(json!({
        "campaign.foo": 1,
        "campaign.menu.fly.cost": 1,
        "campaign.menu.assign_trait.enabled": "no",
        "options.missions_hidden.default": "yes",
        "options.full_strength.default": "whatever",
        "ladders.quality.names": "Green",
        "lists.traits.add": [{"name": "x"}],
    }))
    .unwrap_err();
    let got: Vec<(&str, &str)> = problems
        .iter()
        .map(|p| (p.path.as_str(), p.message.as_str()))
        .collect();
    assert_eq!(got.len(), 7, "{got:?}");
    assert!(
        got[0].0 == "set.campaign.foo" && got[0].1.contains("not a key a house ruleset can set")
    );
    assert_eq!(got[1].0, "set.campaign.menu.assign_trait.enabled");
    assert_eq!(got[1].1, "must be true or false");
    assert!(got[2].0 == "set.campaign.menu.fly.cost" && got[2].1.contains("not a key"));
    assert_eq!(got[3].0, "set.ladders.quality.names");
    assert_eq!(got[4].0, "set.lists.traits.add");
    assert_eq!(
        got[5],
        (
            "set.options.full_strength.default",
            "must be one of: establishment, battle_start"
        )
    );
    assert_eq!(
        got[6],
        (
            "set.options.missions_hidden.default",
            "must be true or false"
        )
    );
}

#[test]
fn ladders_keep_their_rungs() {
    let (path, message) = problem(
        json!({"ladders.quality.names": ["Green", "Trained", "Veteran", "Elite", "Legend"]}),
    );
    assert_eq!(path, "set.ladders.quality.names");
    assert!(
        message.starts_with("ladders keep their rungs; a new rung is a new family"),
        "{message}"
    );
    let (_, twice) = problem(json!({"ladders.resolve.names": ["A", "B", "b", "C"]}));
    assert_eq!(twice, "two rungs cannot share a name");
    let (_, empty) = problem(json!({"ladders.resolve.names": ["A", " ", "C", "D"]}));
    assert_eq!(empty, "a rung's name has 1 to 40 characters");
}

#[test]
fn list_additions_are_checked_entry_by_entry() {
    let (path, taken) =
        problem(json!({"lists.traits.add": [{"name": "Tough", "description": "d", "points": 1}]}));
    assert_eq!(path, "set.lists.traits.add");
    assert_eq!(taken, "addition 1: the list already has Tough");
    let (_, points) =
        problem(json!({"lists.traits.add": [{"name": "Lucky", "description": "d", "points": -1}]}));
    assert!(
        points.contains("points are a number from 0 to 1000"),
        "{points}"
    );
    let (_, twice) = problem(json!({"lists.personalities.add": [
        {"name": "Cook", "description": "d", "points": 1},
        {"name": "cook", "description": "d", "points": 1}
    ]}));
    assert_eq!(twice, "addition 2: the list already has cook");
    let (_, extra) = problem(
        json!({"lists.personalities.add": [{"name": "Cook", "description": "d", "points": 1, "colour": "red"}]}),
    );
    assert!(
        extra.contains("{\"name\", \"description\", \"points\"}"),
        "{extra}"
    );
}

#[test]
fn id_name_extends_and_readings_are_checked_all_at_once() {
    let mut d = doc(json!({}));
    d.id = "stockholm".into();
    d.name = " ".into();
    d.extends = RulesetPin::new("fad5e", 9);
    d.readings = vec![
        Reading {
            id: "H1".into(),
            text: "ok".into(),
        },
        Reading {
            id: "h1".into(),
            text: "x".repeat(501),
        },
        Reading {
            id: "has space".into(),
            text: "fine".into(),
        },
    ];
    let problems = build_house(&Ruleset::fad5e(), &d, 1).unwrap_err();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "id",
            "name",
            "extends",
            "readings[1].id",
            "readings[1].text",
            "readings[2].id"
        ]
    );
    assert!(problems[0].message.contains("club/"));
    d.readings = (0..41)
        .map(|i| Reading {
            id: format!("H{i}"),
            text: "t".into(),
        })
        .collect();
    d.id = "club/ok-slug".into();
    d.name = "n".into();
    d.extends = RulesetPin::default();
    let problems = build_house(&Ruleset::fad5e(), &d, 1).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].path, "readings");
}

#[test]
fn slugs_are_lowercase_three_to_forty() {
    for ok in ["abc", "stockholm-fad", "a1b", &"x".repeat(40)] {
        assert!(slug_ok(ok), "{ok}");
    }
    for bad in [
        "ab",
        "Stockholm",
        "a_b",
        "-ab",
        "ab-",
        "a b",
        &"x".repeat(41),
        "åäö",
    ] {
        assert!(!slug_ok(bad), "{bad}");
    }
}

#[test]
fn a_house_ruleset_cannot_extend_another() {
    let house = build(json!({})).unwrap();
    let mut d = doc(json!({}));
    d.extends = house.pin();
    let problems = build_house(&house, &d, 1).unwrap_err();
    assert_eq!(problems[0].path, "extends");
    assert!(problems[0].message.contains("extends a built-in one"));
}

#[test]
fn unknown_document_fields_are_refused() {
    let got = serde_json::from_value::<HouseDocument>(json!({
        "id": "club/abc", "name": "n", "extends": {"id": "fad5e", "version": 1},
        "set": {}, "colour": "red"
    }));
    assert!(got.is_err());
}

#[test]
fn the_document_hash_ignores_key_order_and_spacing() {
    let a: HouseDocument = serde_json::from_str(
        r#"{"id":"club/abc","name":"n","extends":{"id":"fad5e","version":1},"set":{"campaign.pool_dice":3,"campaign.cp_per_platoon":1}}"#,
    )
    .unwrap();
    let b: HouseDocument = serde_json::from_str(
        r#"{ "set": { "campaign.cp_per_platoon": 1, "campaign.pool_dice": 3 },
            "extends": { "version": 1, "id": "fad5e" }, "name": "n", "id": "club/abc", "readings": [] }"#,
    )
    .unwrap();
    assert_eq!(document_hash(&a), document_hash(&b));
    let mut c = a.clone();
    c.name = "m".into();
    assert_ne!(document_hash(&a), document_hash(&c));
    assert_eq!(document_hash(&a).len(), 64);
}

#[test]
fn settable_keys_name_every_menu_item_switch_and_ladder() {
    let keys: BTreeSet<&str> = SETTABLE_KEYS.iter().map(|k| k.key).collect();
    assert_eq!(keys.len(), SETTABLE_KEYS.len(), "a key is listed twice");
    for item in PurchaseItem::ALL {
        assert!(keys.contains(format!("campaign.menu.{item}.cost").as_str()));
        assert!(keys.contains(format!("campaign.menu.{item}.enabled").as_str()));
    }
    let options = serde_json::to_value(HouseRules::default()).unwrap();
    for switch in options.as_object().unwrap().keys() {
        assert!(
            keys.contains(format!("options.{switch}.default").as_str()),
            "{switch}"
        );
    }
    for ladder in &Ruleset::fad5e().ladders {
        assert!(keys.contains(format!("ladders.{}.names", ladder.ladder).as_str()));
    }
    // Every key has a value in FAD 5e, and setting it to that value changes nothing.
    let fad = Ruleset::fad5e();
    let mut set = BTreeMap::new();
    for k in SETTABLE_KEYS {
        let v = k.value_in(&fad);
        assert!(!v.is_null(), "{}", k.key);
        assert!(!k.label.is_empty());
        set.insert(k.key.to_owned(), v);
    }
    let mut d = doc(json!({}));
    d.set = set;
    let same = build_house(&fad, &d, 1).unwrap();
    assert!(differences(&fad, &same).is_empty());
    assert_eq!(same.tables, fad.tables);
    assert_eq!(same.options, fad.options);
}
