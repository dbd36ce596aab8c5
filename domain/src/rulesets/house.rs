//! House rulesets (docs/rules.md §8.2): a club's ruleset as data. A document `extends` a
//! built-in ruleset and `set`s keys from a closed list ([`SETTABLE_KEYS`]); anything else (a new
//! step, a new rung, a computed effect) is a new family, which is code. [`build_house`] checks
//! the whole document and reports every problem at once, each at its own path, in plain words.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ListEntry, Reading, Ruleset, RulesetPin, canonical_json, sha256_hex};
use crate::campaign::PurchaseItem;
use crate::house_rules::HouseRules;
use crate::names::Named;
use crate::vocabulary::HOUSE_RULE_ROWS;

/// A house ruleset as a club writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct HouseDocument {
    /// `club/<slug>`: 3–40 lowercase letters, digits or dashes after `club/`.
    pub id: String,
    /// Its name, 1–80 characters.
    pub name: String,
    /// The built-in ruleset it changes.
    pub extends: RulesetPin,
    /// The keys it changes, each from the closed list, with its new value.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub set: BTreeMap<String, Value>,
    /// Its own readings (at most 40, each text at most 500 characters).
    #[serde(default)]
    pub readings: Vec<Reading>,
}

/// One problem with a house document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SetProblem {
    /// Where: `id`, `name`, `extends`, `set.<key>`, `readings[0].text`...
    pub path: String,
    /// What is wrong, in plain words.
    pub message: String,
}

impl SetProblem {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The kind of value a key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum KeyKind {
    /// A whole number in a range.
    WholeNumber {
        /// Smallest.
        min: u32,
        /// Largest.
        max: u32,
    },
    /// A d6 table: six rows, each a word of the table's rows ([`SettableKey::choices`]).
    D6Table,
    /// `true` or `false`.
    YesNo,
    /// An option switch's value: `true`/`false`, or one of [`SettableKey::choices`].
    OptionDefault,
    /// The names of a ladder's rungs, lowest first, as many as it has.
    LadderNames,
    /// Entries added to a list: `[{"name", "description", "points"}]`.
    ListAdditions,
}

/// A key a house ruleset may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettableKey {
    /// The key, e.g. `campaign.cp_per_platoon`.
    pub key: &'static str,
    /// What it changes, for people.
    pub label: &'static str,
    /// The value it takes.
    #[serde(flatten)]
    pub kind: KeyKind,
}

const fn key(key: &'static str, label: &'static str, kind: KeyKind) -> SettableKey {
    SettableKey { key, label, kind }
}

const CP: KeyKind = KeyKind::WholeNumber { min: 0, max: 10 };

/// Every key a house ruleset of the FAD family may set (a test checks it names every menu item,
/// option switch and ladder).
pub const SETTABLE_KEYS: &[SettableKey] = &[
    key(
        "campaign.cp_per_platoon",
        "Campaign points per platoon after each battle",
        CP,
    ),
    key(
        "campaign.pool_dice",
        "Dice in the reinforcement pool",
        KeyKind::WholeNumber { min: 1, max: 6 },
    ),
    key(
        "campaign.tables.replacement",
        "Infantry replacements table",
        KeyKind::D6Table,
    ),
    key(
        "campaign.tables.vehicle_replacement",
        "Vehicle replacements table",
        KeyKind::D6Table,
    ),
    key(
        "campaign.tables.quality_loss",
        "Quality loss table",
        KeyKind::D6Table,
    ),
    key(
        "campaign.tables.resolve_change",
        "Resolve change table",
        KeyKind::D6Table,
    ),
    key(
        "campaign.menu.improve_quality.cost",
        "Cost of improving Quality",
        CP,
    ),
    key(
        "campaign.menu.improve_resolve.cost",
        "Cost of improving Resolve",
        CP,
    ),
    key(
        "campaign.menu.extra_reinforcement_die.cost",
        "Cost of an extra reinforcement die",
        CP,
    ),
    key(
        "campaign.menu.return_lone_figure.cost",
        "Cost of returning a lone figure",
        CP,
    ),
    key(
        "campaign.menu.repair_vehicle.cost",
        "Cost of repairing a vehicle",
        CP,
    ),
    key(
        "campaign.menu.grant_personality.cost",
        "Cost of granting a personality",
        CP,
    ),
    key(
        "campaign.menu.improve_leadership.cost",
        "Cost of improving Leadership",
        CP,
    ),
    key(
        "campaign.menu.replace_vehicle.cost",
        "Cost of replacing a vehicle",
        CP,
    ),
    key(
        "campaign.menu.assign_trait.cost",
        "Cost of assigning a trait",
        CP,
    ),
    key(
        "campaign.menu.improve_quality.enabled",
        "Improving Quality is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.improve_resolve.enabled",
        "Improving Resolve is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.extra_reinforcement_die.enabled",
        "Extra reinforcement dice are sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.return_lone_figure.enabled",
        "Returning a lone figure is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.repair_vehicle.enabled",
        "Repairing a vehicle is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.grant_personality.enabled",
        "Granting a personality is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.improve_leadership.enabled",
        "Improving Leadership is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.replace_vehicle.enabled",
        "Replacing a vehicle is sold",
        KeyKind::YesNo,
    ),
    key(
        "campaign.menu.assign_trait.enabled",
        "Assigning a trait is sold",
        KeyKind::YesNo,
    ),
    key(
        "options.full_strength.default",
        "What full strength means",
        KeyKind::OptionDefault,
    ),
    key(
        "options.lone_figure_return.default",
        "When a lone figure returns",
        KeyKind::OptionDefault,
    ),
    key(
        "options.bank_campaign_points.default",
        "Unspent campaign points are banked",
        KeyKind::OptionDefault,
    ),
    key(
        "options.vehicle_resolve_change.default",
        "Every damaged vehicle rolls Resolve change",
        KeyKind::OptionDefault,
    ),
    key(
        "options.squad_leader_experience_purchasable.default",
        "Squad-leader experience can be bought",
        KeyKind::OptionDefault,
    ),
    key(
        "options.missions_hidden.default",
        "Missions are hidden",
        KeyKind::OptionDefault,
    ),
    key(
        "options.strict_one_marker_per_unit.default",
        "One marker for every unit",
        KeyKind::OptionDefault,
    ),
    key(
        "options.npf_recon_reading.default",
        "Which non-player forces send extra recon",
        KeyKind::OptionDefault,
    ),
    key(
        "options.squad_strength_roll.default",
        "Squad strength roll in basic generation",
        KeyKind::OptionDefault,
    ),
    key(
        "options.morale_modifier.default",
        "How a squad leader's Morale modifier applies",
        KeyKind::OptionDefault,
    ),
    key(
        "ladders.quality.names",
        "Names of the Quality ladder",
        KeyKind::LadderNames,
    ),
    key(
        "ladders.resolve.names",
        "Names of the Resolve ladder",
        KeyKind::LadderNames,
    ),
    key(
        "ladders.leadership.names",
        "Names of the Leadership ladder",
        KeyKind::LadderNames,
    ),
    key(
        "ladders.leader_experience.names",
        "Names of the squad-leader experience ladder",
        KeyKind::LadderNames,
    ),
    key(
        "ladders.aptitude.names",
        "Names of the aptitude ladder",
        KeyKind::LadderNames,
    ),
    key(
        "lists.personalities.add",
        "Personalities added",
        KeyKind::ListAdditions,
    ),
    key("lists.traits.add", "Traits added", KeyKind::ListAdditions),
];

/// The row words of each d6 table, in the order the rows read.
const REPLACEMENT_ROWS: &[&str] = &["no_replacements", "half_the_losses", "full_strength"];
const VEHICLE_REPLACEMENT_ROWS: &[&str] = &[
    "not_repaired_or_replaced",
    "repaired_not_replaced",
    "repaired_or_replaced",
];
const QUALITY_LOSS_ROWS: &[&str] = &["drops", "stays"];
const RESOLVE_CHANGE_ROWS: &[&str] = &["drops", "stays", "improves"];

/// Most readings a house ruleset carries.
pub const MAX_READINGS: usize = 40;
/// Longest reading text, in characters.
pub const MAX_READING_CHARS: usize = 500;
/// Most entries one list addition adds.
pub const MAX_LIST_ADDITIONS: usize = 50;

impl SettableKey {
    /// The key named `key`, if a house ruleset may set it.
    pub fn find(key: &str) -> Option<&'static SettableKey> {
        SETTABLE_KEYS.iter().find(|k| k.key == key)
    }

    /// The words a value may use: a d6 table's row words, an option's values (empty for a
    /// yes/no option and the other kinds).
    pub fn choices(&self) -> &'static [&'static str] {
        match self.key {
            "campaign.tables.replacement" => REPLACEMENT_ROWS,
            "campaign.tables.vehicle_replacement" => VEHICLE_REPLACEMENT_ROWS,
            "campaign.tables.quality_loss" => QUALITY_LOSS_ROWS,
            "campaign.tables.resolve_change" => RESOLVE_CHANGE_ROWS,
            k => option_switch(k)
                .and_then(|s| HOUSE_RULE_ROWS.iter().find(|r| r.name == s))
                .map_or(&[], |r| r.values),
        }
    }

    /// The key's value in `ruleset`, in the shape `set` takes.
    pub fn value_in(&self, ruleset: &Ruleset) -> Value {
        let t = &ruleset.tables;
        match self.key {
            "campaign.cp_per_platoon" => t.cp_per_platoon.into(),
            "campaign.pool_dice" => t.pool_dice.into(),
            "campaign.tables.replacement" => json(&t.replacement),
            "campaign.tables.vehicle_replacement" => json(&t.vehicle_replacement),
            "campaign.tables.quality_loss" => json(&t.quality_loss),
            "campaign.tables.resolve_change" => json(&t.resolve_change),
            k => {
                if let Some((item, field)) = menu_key(k) {
                    let row = t.menu_row(item);
                    return match field {
                        "cost" => row.map_or(Value::Null, |r| r.cost.into()),
                        _ => row.is_some_and(|r| r.enabled).into(),
                    };
                }
                if let Some(switch) = option_switch(k) {
                    return serde_json::to_value(ruleset.options)
                        .ok()
                        .and_then(|v| v.get(switch).cloned())
                        .unwrap_or(Value::Null);
                }
                if let Some(ladder) = ladder_key(k) {
                    return ruleset.ladder(ladder).map_or(Value::Null, |l| {
                        l.rungs
                            .iter()
                            .map(|r| Value::from(r.name.clone()))
                            .collect()
                    });
                }
                if let Some(list) = list_key(k) {
                    return ruleset.lists.get(list).map_or(Value::Null, |entries| {
                        entries
                            .iter()
                            .filter(|e| e.added)
                            .map(|e| {
                                serde_json::json!({
                                    "name": e.name, "description": e.description,
                                    "points": e.points.or(e.multiplier).unwrap_or(0.0)
                                })
                            })
                            .collect()
                    });
                }
                Value::Null
            }
        }
    }
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn menu_key(key: &str) -> Option<(PurchaseItem, &str)> {
    let rest = key.strip_prefix("campaign.menu.")?;
    let (item, field) = rest.rsplit_once('.')?;
    let item = PurchaseItem::ALL.iter().find(|i| i.name() == item)?;
    matches!(field, "cost" | "enabled").then_some((*item, field))
}

fn option_switch(key: &str) -> Option<&str> {
    key.strip_prefix("options.")?.strip_suffix(".default")
}

fn ladder_key(key: &str) -> Option<&str> {
    key.strip_prefix("ladders.")?.strip_suffix(".names")
}

fn list_key(key: &str) -> Option<&str> {
    key.strip_prefix("lists.")?.strip_suffix(".add")
}

/// Hex SHA-256 of the document's canonical JSON (sorted keys, no whitespace): the same on export
/// and import, whatever order or spacing the text had.
pub fn document_hash(doc: &HouseDocument) -> String {
    sha256_hex(&canonical_json(doc))
}

fn slug_ok(slug: &str) -> bool {
    (3..=40).contains(&slug.len())
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
}

fn chars_between(text: &str, min: usize, max: usize) -> bool {
    let n = text.trim().chars().count();
    (min..=max).contains(&n)
}

/// Builds version `version` of a house ruleset from `doc` on `parent` (the built-in ruleset its
/// `extends` names). Every problem is reported at once; on any, nothing is built.
pub fn build_house(
    parent: &Ruleset,
    doc: &HouseDocument,
    version: u32,
) -> Result<Ruleset, Vec<SetProblem>> {
    let mut problems = Vec::new();
    match doc.id.strip_prefix("club/") {
        Some(slug) if slug_ok(slug) => {}
        _ => problems.push(SetProblem::new(
            "id",
            "a house ruleset's id is club/ followed by 3 to 40 lowercase letters, digits or dashes, e.g. club/stockholm-fad",
        )),
    }
    if !chars_between(&doc.name, 1, 80) {
        problems.push(SetProblem::new("name", "a name has 1 to 80 characters"));
    }
    if !parent.builtin {
        problems.push(SetProblem::new(
            "extends",
            format!(
                "{} is a house ruleset; a house ruleset extends a built-in one",
                parent.name
            ),
        ));
    } else if doc.extends != parent.pin() {
        problems.push(SetProblem::new(
            "extends",
            format!("there is no built-in ruleset {}", doc.extends),
        ));
    }
    check_readings(&doc.readings, &mut problems);
    let mut child = parent.clone();
    for (name, value) in &doc.set {
        let path = format!("set.{name}");
        match SettableKey::find(name) {
            None => problems.push(SetProblem::new(
                path,
                format!(
                    "{name} is not a key a house ruleset can set; the keys are listed at /rules#8.2"
                ),
            )),
            Some(key) => {
                if let Err(message) = apply(&mut child, key, value) {
                    problems.push(SetProblem::new(path, message));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    child.id = doc.id.clone();
    child.version = version;
    child.name = doc.name.trim().to_owned();
    child.summary = format!("A house ruleset: {} with a club's changes.", parent.name);
    child.builtin = false;
    child.extends = Some(parent.pin());
    child.readings = doc.readings.clone();
    Ok(child)
}

fn check_readings(readings: &[Reading], problems: &mut Vec<SetProblem>) {
    if readings.len() > MAX_READINGS {
        problems.push(SetProblem::new(
            "readings",
            format!("a house ruleset has at most {MAX_READINGS} readings"),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, r) in readings.iter().enumerate() {
        let id_ok = (1..=20).contains(&r.id.len())
            && r.id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
        if !id_ok {
            problems.push(SetProblem::new(
                format!("readings[{i}].id"),
                "a reading's id has 1 to 20 letters, digits, dots or dashes, e.g. H1",
            ));
        } else if !seen.insert(r.id.to_ascii_lowercase()) {
            problems.push(SetProblem::new(
                format!("readings[{i}].id"),
                format!("two readings cannot share the id {}", r.id),
            ));
        }
        if !chars_between(&r.text, 1, MAX_READING_CHARS) {
            problems.push(SetProblem::new(
                format!("readings[{i}].text"),
                format!("a reading has 1 to {MAX_READING_CHARS} characters"),
            ));
        }
    }
}

fn whole_number(value: &Value, min: u32, max: u32) -> Result<u32, String> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("must be a whole number from {min} to {max}"))
}

fn d6_table<T: serde::de::DeserializeOwned>(
    value: &Value,
    words: &[&str],
) -> Result<[T; 6], String> {
    let one_of = || words.join(", ");
    let Some(rows) = value.as_array() else {
        return Err(format!(
            "a d6 table is a list of 6 rows, each one of: {}",
            one_of()
        ));
    };
    if rows.len() != 6 {
        return Err(format!(
            "a d6 table has 6 rows; this one has {}",
            rows.len()
        ));
    }
    let mut bad = Vec::new();
    let mut parsed = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let word = row.as_str().filter(|w| words.contains(w));
        match word.and_then(|w| serde_json::from_value::<T>(Value::from(w)).ok()) {
            Some(v) => parsed.push(v),
            None => bad.push((i + 1).to_string()),
        }
    }
    if !bad.is_empty() {
        return Err(format!(
            "row {} is not a row of this table; each row is one of: {}",
            bad.join(", "),
            one_of()
        ));
    }
    parsed
        .try_into()
        .map_err(|_| "a d6 table has 6 rows".to_owned())
}

/// Applies one key's value to `ruleset`; the error is the plain-words message.
fn apply(ruleset: &mut Ruleset, key: &SettableKey, value: &Value) -> Result<(), String> {
    let t = &mut ruleset.tables;
    let k = key.key;
    match k {
        "campaign.cp_per_platoon" => t.cp_per_platoon = whole_number(value, 0, 10)?,
        // At most 6, so it fits a u8.
        "campaign.pool_dice" => {
            t.pool_dice = u8::try_from(whole_number(value, 1, 6)?).unwrap_or(6);
        }
        "campaign.tables.replacement" => t.replacement = d6_table(value, key.choices())?,
        "campaign.tables.vehicle_replacement" => {
            t.vehicle_replacement = d6_table(value, key.choices())?;
        }
        "campaign.tables.quality_loss" => t.quality_loss = d6_table(value, key.choices())?,
        "campaign.tables.resolve_change" => t.resolve_change = d6_table(value, key.choices())?,
        _ => {
            if let Some((item, field)) = menu_key(k) {
                let Some(row) = t.menu.iter_mut().find(|r| r.item == item) else {
                    return Err(format!("{item} is not on this ruleset's menu"));
                };
                if field == "cost" {
                    row.cost = whole_number(value, 0, 10)?;
                } else {
                    row.enabled = value.as_bool().ok_or("must be true or false")?;
                }
            } else if let Some(switch) = option_switch(k) {
                ruleset.options = option_default(ruleset.options, switch, value, key.choices())?;
            } else if let Some(name) = ladder_key(k) {
                ladder_names(ruleset, name, value)?;
            } else if let Some(name) = list_key(k) {
                let Some(list) = ruleset.lists.get_mut(name) else {
                    return Err(format!("this ruleset has no list of {name}"));
                };
                let added = list_additions(value, list)?;
                list.retain(|e| !e.added);
                list.extend(added);
            } else {
                return Err("this key cannot be set on this ruleset".to_owned());
            }
        }
    }
    Ok(())
}

fn ladder_names(ruleset: &mut Ruleset, name: &str, value: &Value) -> Result<(), String> {
    let Some(ladder) = ruleset.ladders.iter_mut().find(|l| l.ladder == name) else {
        return Err(format!("this ruleset has no {name} ladder"));
    };
    let names =
        string_list(value).ok_or("the rung names are a list of names, lowest rung first")?;
    if names.len() != ladder.rungs.len() {
        return Err(format!(
            "ladders keep their rungs; a new rung is a new family: the {} ladder has {} rungs, and {} names were given",
            name.replace('_', " "),
            ladder.rungs.len(),
            names.len()
        ));
    }
    if names.iter().any(|n| !chars_between(n, 1, 40)) {
        return Err("a rung's name has 1 to 40 characters".to_owned());
    }
    let distinct: BTreeSet<String> = names.iter().map(|n| n.trim().to_lowercase()).collect();
    if distinct.len() != names.len() {
        return Err("two rungs cannot share a name".to_owned());
    }
    for (rung, n) in ladder.rungs.iter_mut().zip(names) {
        rung.name = n.trim().to_owned();
    }
    Ok(())
}

fn string_list(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

fn option_default(
    options: HouseRules,
    switch: &str,
    value: &Value,
    choices: &[&str],
) -> Result<HouseRules, String> {
    let expected = if choices.is_empty() {
        "must be true or false".to_owned()
    } else {
        format!("must be one of: {}", choices.join(", "))
    };
    let mut tree = serde_json::to_value(options).map_err(|_| expected.clone())?;
    let Some(slot) = tree.get_mut(switch) else {
        return Err(format!("{switch} is not an option of this ruleset"));
    };
    *slot = value.clone();
    serde_json::from_value(tree).map_err(|_| expected)
}

/// One entry a list addition adds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Addition {
    name: String,
    description: String,
    points: f64,
}

fn list_additions(value: &Value, existing: &[ListEntry]) -> Result<Vec<ListEntry>, String> {
    let shape = "each addition is {\"name\", \"description\", \"points\"}";
    let items: Vec<Addition> = serde_json::from_value(value.clone())
        .map_err(|_| format!("a list of additions; {shape}"))?;
    if items.len() > MAX_LIST_ADDITIONS {
        return Err(format!("at most {MAX_LIST_ADDITIONS} additions to a list"));
    }
    let mut taken: BTreeSet<String> = existing
        .iter()
        .filter(|e| !e.added)
        .map(|e| e.name.to_lowercase())
        .collect();
    let mut out = Vec::new();
    for (i, a) in items.into_iter().enumerate() {
        let n = i + 1;
        if !chars_between(&a.name, 1, 40) {
            return Err(format!("addition {n}: a name has 1 to 40 characters"));
        }
        if !chars_between(&a.description, 1, 200) {
            return Err(format!(
                "addition {n}: a description has 1 to 200 characters"
            ));
        }
        if !a.points.is_finite() || !(0.0..=1000.0).contains(&a.points) {
            return Err(format!("addition {n}: points are a number from 0 to 1000"));
        }
        let name = a.name.trim().to_owned();
        if !taken.insert(name.to_lowercase()) {
            return Err(format!("addition {n}: the list already has {name}"));
        }
        out.push(ListEntry {
            name,
            description: a.description.trim().to_owned(),
            points: Some(a.points),
            multiplier: None,
            added: true,
        });
    }
    Ok(out)
}

/// One changed key of a house ruleset against its parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Difference {
    /// The key (`campaign.tables.quality_loss`).
    pub key: String,
    /// What it is, for people.
    pub label: String,
    /// The parent's value, for people.
    pub before: String,
    /// The child's value, for people.
    pub after: String,
}

/// A value as people read it: words without underscores, yes/no, lists joined.
fn readable(value: &Value) -> String {
    match value {
        Value::Null => "none".to_owned(),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::String(s) => s.replace('_', " "),
        Value::Array(items) if items.is_empty() => "none".to_owned(),
        Value::Array(items) => items
            .iter()
            .map(|v| match v.get("name") {
                Some(name) => readable(name),
                None => readable(v),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// Every settable key whose value differs between `parent` and `child`, in the order of
/// [`SETTABLE_KEYS`].
pub fn differences(parent: &Ruleset, child: &Ruleset) -> Vec<Difference> {
    SETTABLE_KEYS
        .iter()
        .filter_map(|k| {
            let (before, after) = (k.value_in(parent), k.value_in(child));
            (before != after).then(|| Difference {
                key: k.key.to_owned(),
                label: k.label.to_owned(),
                before: readable(&before),
                after: readable(&after),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
