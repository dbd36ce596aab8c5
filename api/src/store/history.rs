//! A force's history: every change to a roster, newest first, with time, actor,
//! cause (edit, battle, purchase, generation, ...), a per-unit diff, the rolls that made it and
//! the roster after it, so the force as of any entry can be read back.
//!
//! Entries are written only by [`super::forces`] in the same transaction as the roster change;
//! `(force_id, version)` is unique, so two writers can never both record the same version.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use fad_domain::dice::RollLog;
use fad_domain::roster::{Force as Roster, Unit};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::db::Db;
use crate::schema::force_history;

use super::forces::to_json;

/// Why a roster changed and who changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryCause {
    /// What kind of change: `create`, `edit`, `archive`, `import`, `generation`, `battle`,
    /// `aftermath`, `purchase`, `reinforcements`, `void`, ...
    pub kind: String,
    /// The battle, purchase or source id that caused it, when there is one.
    pub id: Option<String>,
    /// The user who made it; `None` for the service itself.
    pub actor_id: Option<String>,
    /// Why, in the user's words (an organiser's correction); kept in the entry's diff.
    pub reason: Option<String>,
}

impl HistoryCause {
    /// A cause without an id.
    pub fn new(kind: &str, actor_id: Option<&str>) -> Self {
        Self {
            kind: kind.to_owned(),
            id: None,
            actor_id: actor_id.map(str::to_owned),
            reason: None,
        }
    }

    /// The same cause with the user's reason.
    pub fn with_reason(mut self, reason: Option<String>) -> Self {
        self.reason = reason;
        self
    }

    /// The same cause naming `id` (a battle id, a purchase id, the source force).
    pub fn with_id(mut self, id: &str) -> Self {
        self.id = Some(id.to_owned());
        self
    }
}

/// One field's value before and after a change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FieldChange {
    /// The value before (`null` when absent).
    #[schema(value_type = Option<FieldValue>)]
    pub before: Value,
    /// The value after (`null` when absent).
    #[schema(value_type = Option<FieldValue>)]
    pub after: Value,
}

/// What a changed field holds: the kinds of value a roster's fields take. Stored and served as
/// the JSON value it is; this type names the kinds for the document (and the tests check that
/// every field of a unit is one of them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum FieldValue {
    /// A yes/no field (`linked_weapons`, ...).
    Flag(bool),
    /// A count or rating (`strength`, `jammer_rating`, ...).
    Count(i64),
    /// A name, or a word of a list (`name`, `quality`, `armour`, `status`, `platoon`, ...).
    Word(String),
    /// Words of a list (`traits`, `heavy_weapons`, a force's `platoons` by name, ...).
    Words(Vec<String>),
    /// A vehicle's profile (`vehicle`).
    Vehicle(fad_domain::roster::VehicleProfile),
    /// A one-page skirmish profile (`one_page`).
    OnePage(fad_domain::rulesets::one_page_skirmish::OnePageProfile),
    /// An FMA figure's profile (`fma`).
    Fma(fad_domain::rulesets::gzg_fma_1999::FmaProfile),
    /// The options of traits with several prices (`trait_options`).
    TraitOptions(fad_domain::points::TraitOptions),
}

/// How a unit changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitChangeKind {
    /// The unit is new.
    Added,
    /// The unit was taken off the roster.
    Removed,
    /// Some of its fields changed.
    Changed,
}

/// One unit's change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UnitDiff {
    /// The unit's stable id.
    pub unit_id: String,
    /// The unit's name (after the change; before it for a removed unit).
    pub name: String,
    /// Added, removed or changed.
    pub change: UnitChangeKind,
    /// Changed fields by name (`strength`, `quality`, `platoon`, ...); empty for added and
    /// removed units.
    pub fields: BTreeMap<String, FieldChange>,
}

/// What a roster change did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RosterDiff {
    /// Force-level fields that changed (`name`, `platoons` when platoons were added, removed
    /// or renamed).
    pub force: BTreeMap<String, FieldChange>,
    /// Per-unit changes, in roster order (removed units last).
    pub units: Vec<UnitDiff>,
    /// The reason given with the change (required for an organiser's correction of a roster
    /// locked after play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl RosterDiff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.force.is_empty() && self.units.is_empty()
    }
}

fn unit_fields(unit: &Unit, platoon: &str) -> serde_json::Map<String, Value> {
    let mut map = match serde_json::to_value(unit) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    map.insert("platoon".to_owned(), Value::String(platoon.to_owned()));
    map
}

fn units_with_platoon(roster: &Roster) -> Vec<(&Unit, &str)> {
    roster
        .platoons
        .iter()
        .flat_map(|p| p.units.iter().map(move |u| (u, p.name.as_str())))
        .collect()
}

/// The per-unit diff from `before` (`None` for a new force) to `after`, matching units by id.
pub fn diff(before: Option<&Roster>, after: &Roster) -> RosterDiff {
    let mut out = RosterDiff::default();
    let old_units = before.map(units_with_platoon).unwrap_or_default();
    if let Some(before) = before {
        if before.name != after.name {
            out.force.insert(
                "name".to_owned(),
                FieldChange {
                    before: Value::String(before.name.clone()),
                    after: Value::String(after.name.clone()),
                },
            );
        }
        let names = |r: &Roster| -> Value {
            Value::Array(
                r.platoons
                    .iter()
                    .map(|p| Value::String(p.name.clone()))
                    .collect(),
            )
        };
        if names(before) != names(after) {
            out.force.insert(
                "platoons".to_owned(),
                FieldChange {
                    before: names(before),
                    after: names(after),
                },
            );
        }
    }
    for (unit, platoon) in units_with_platoon(after) {
        match old_units.iter().find(|(u, _)| u.id == unit.id) {
            None => out.units.push(UnitDiff {
                unit_id: unit.id.clone(),
                name: unit.name.clone(),
                change: UnitChangeKind::Added,
                fields: BTreeMap::new(),
            }),
            // Unchanged (most units of most edits): nothing to write out and compare.
            Some((old, old_platoon)) if *old == unit && *old_platoon == platoon => {}
            Some((old, old_platoon)) => {
                let a = unit_fields(old, old_platoon);
                let b = unit_fields(unit, platoon);
                // A field missing on one side reads as null; only what differs is copied.
                let mut fields = BTreeMap::new();
                let null = Value::Null;
                let only_after = b.iter().filter(|(key, _)| !a.contains_key(*key));
                for (key, x) in a.iter().chain(only_after.map(|(key, _)| (key, &null))) {
                    let y = b.get(key).unwrap_or(&null);
                    if x != y {
                        fields.insert(
                            key.clone(),
                            FieldChange {
                                before: x.clone(),
                                after: y.clone(),
                            },
                        );
                    }
                }
                if !fields.is_empty() {
                    out.units.push(UnitDiff {
                        unit_id: unit.id.clone(),
                        name: unit.name.clone(),
                        change: UnitChangeKind::Changed,
                        fields,
                    });
                }
            }
        }
    }
    for (old, _) in &old_units {
        if after.unit(&old.id).is_none() {
            out.units.push(UnitDiff {
                unit_id: old.id.clone(),
                name: old.name.clone(),
                change: UnitChangeKind::Removed,
                fields: BTreeMap::new(),
            });
        }
    }
    out
}

/// A history row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = force_history)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct HistoryEntry {
    /// The entry id.
    pub id: String,
    /// The force.
    pub force_id: String,
    /// The force version this entry produced.
    pub version: i64,
    /// When (UTC).
    pub at: NaiveDateTime,
    /// Who; `None` for the service.
    pub actor_id: Option<String>,
    /// The kind of cause.
    pub cause_kind: String,
    /// The cause's id.
    pub cause_id: Option<String>,
    /// [`RosterDiff`] as JSON.
    pub diff: String,
    /// The roll log as JSON.
    pub rolls: String,
    /// The roster after the change, as a stored document; read it with
    /// [`HistoryEntry::roster`].
    pub snapshot: String,
}

impl HistoryEntry {
    /// The roster after the change.
    pub fn roster(&self) -> Result<Roster, super::doc::DocError> {
        super::doc::decode(&self.snapshot)
    }
}

/// Records one change. Called by [`super::forces`] inside the roster change's transaction.
#[expect(
    clippy::too_many_arguments,
    reason = "one column each, called from one module"
)]
pub fn append(
    conn: &mut Db,
    force_id: &str,
    version: i64,
    at: NaiveDateTime,
    cause: &HistoryCause,
    diff: &RosterDiff,
    rolls: &RollLog,
    snapshot: &Roster,
) -> QueryResult<()> {
    let snapshot = super::doc::encode(snapshot)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    append_stored(conn, force_id, version, at, cause, diff, rolls, snapshot)
}

/// [`append`] with the snapshot already in its stored form (the roster text the force row
/// was just given), so it is not written out twice.
#[expect(clippy::too_many_arguments, reason = "the history entry's columns")]
pub fn append_stored(
    conn: &mut Db,
    force_id: &str,
    version: i64,
    at: NaiveDateTime,
    cause: &HistoryCause,
    diff: &RosterDiff,
    rolls: &RollLog,
    snapshot: String,
) -> QueryResult<()> {
    let entry = HistoryEntry {
        id: super::new_id(),
        force_id: force_id.to_owned(),
        version,
        at,
        actor_id: cause.actor_id.clone(),
        cause_kind: cause.kind.clone(),
        cause_id: cause.id.clone(),
        diff: to_json(diff)?,
        rolls: to_json(rolls)?,
        snapshot,
    };
    crate::on_backend!(conn, |conn| diesel::insert_into(force_history::table)
        .values(&entry)
        .execute(conn)
        .map(|_| ()))
}

/// Up to `limit` entries of a force, newest first, older than version `before` when given
/// (versions are unique per force, so the version alone is the list's sort key).
pub fn list(
    conn: &mut Db,
    force_id: &str,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<HistoryEntry>> {
    let mut query = force_history::table
        .filter(force_history::force_id.eq(force_id))
        .select(HistoryEntry::as_select())
        .order(force_history::version.desc())
        .limit(limit)
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(force_history::version.lt(before));
    }
    query.load(conn)
}

/// One entry of a force.
pub fn find(conn: &mut Db, force_id: &str, entry_id: &str) -> QueryResult<Option<HistoryEntry>> {
    force_history::table
        .filter(force_history::force_id.eq(force_id))
        .filter(force_history::id.eq(entry_id))
        .select(HistoryEntry::as_select())
        .first(conn)
        .optional()
}

/// The entry that produced version `version` of a force.
pub fn find_by_version(
    conn: &mut Db,
    force_id: &str,
    version: i64,
) -> QueryResult<Option<HistoryEntry>> {
    force_history::table
        .filter(force_history::force_id.eq(force_id))
        .filter(force_history::version.eq(version))
        .select(HistoryEntry::as_select())
        .first(conn)
        .optional()
}

#[cfg(test)]
mod tests {
    use super::{Roster, UnitChangeKind, diff};
    use serde_json::Value;

    /// The kind of `FieldValue` a property schema of the document holds, if any.
    fn kind(doc: &Value, schema: &Value) -> Option<&'static str> {
        let schemas = &doc["components"]["schemas"];
        if let Some(reference) = schema["$ref"].as_str() {
            let name = reference.trim_start_matches("#/components/schemas/");
            return match name {
                "VehicleProfile" | "OnePageProfile" | "FmaProfile" | "TraitOptions" => {
                    Some("object")
                }
                _ => kind(doc, &schemas[name]),
            };
        }
        if let Some(variants) = schema["oneOf"].as_array() {
            let kinds: Vec<_> = variants
                .iter()
                .filter(|v| v["type"] != "null")
                .map(|v| kind(doc, v))
                .collect();
            return match kinds.as_slice() {
                [only] => *only,
                _ => None,
            };
        }
        let types: Vec<&str> = match &schema["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        match types.iter().find(|t| **t != "null").copied() {
            Some("boolean") => Some("flag"),
            Some("integer") => Some("count"),
            Some("string") => Some("word"),
            Some("array") => (kind(doc, &schema["items"]) == Some("word")).then_some("words"),
            _ => None,
        }
    }

    fn roster(units: Value) -> Roster {
        serde_json::from_value(serde_json::json!({
            "name": "Blue", "platoons": [{"name": "1st", "units": units}]
        }))
        .unwrap()
    }

    fn unit(id: &str, strength: u32, resolve: Option<&str>) -> Value {
        let mut unit = serde_json::json!({
            "id": id, "name": format!("Unit {id}"), "kind": "squad", "quality": "regular",
            "strength": strength, "starting_strength": 8,
        });
        if let Some(resolve) = resolve {
            unit["resolve"] = Value::from(resolve);
        }
        unit
    }

    #[test]
    fn a_diff_names_each_changed_field_once_with_both_values_and_skips_the_rest() {
        let before = roster(serde_json::json!([
            unit("a", 8, None),
            unit("b", 6, Some("steady")),
            unit("gone", 4, None),
        ]));
        let after = roster(serde_json::json!([
            unit("a", 5, Some("uncertain")),
            unit("b", 6, Some("steady")),
            unit("new", 5, None),
        ]));

        let diff = diff(Some(&before), &after);

        type Field<'a> = (&'a str, Value, Value);
        let seen: Vec<(&str, UnitChangeKind, Vec<Field>)> = diff
            .units
            .iter()
            .map(|u| {
                let fields = u
                    .fields
                    .iter()
                    .map(|(k, c)| (k.as_str(), c.before.clone(), c.after.clone()))
                    .collect();
                (u.unit_id.as_str(), u.change, fields)
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "a",
                    UnitChangeKind::Changed,
                    vec![
                        ("resolve", Value::Null, Value::from("uncertain")),
                        ("strength", Value::from(8), Value::from(5)),
                    ]
                ),
                ("new", UnitChangeKind::Added, vec![]),
                ("gone", UnitChangeKind::Removed, vec![]),
            ]
        );
        assert!(diff.force.is_empty());
    }

    #[test]
    fn every_unit_field_holds_a_kind_field_value_names() {
        let doc: Value = serde_json::from_str(&crate::openapi::document_json().unwrap()).unwrap();
        let unit = &doc["components"]["schemas"]["Unit"]["properties"];
        let properties = unit.as_object().unwrap();
        assert!(properties.len() > 20, "{unit}");
        for (name, schema) in properties {
            assert!(
                kind(&doc, schema).is_some(),
                "Unit.{name} holds a kind FieldChange does not document: {schema}"
            );
        }
    }
}
