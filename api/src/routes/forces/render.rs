//! The JSON body of a force (`ForceResponse`) without re-deriving the roster part on every read.
//!
//! Reading a force is dominated by turning its stored roster text into the response roster:
//! parsing every unit, computing the points and serializing it all again. That part depends on
//! nothing but the stored text (and this binary's points rules), so [`RenderedRosters`] keeps
//! it per force next to the exact text it came from. A read whose stored text is byte-for-byte
//! the remembered one reuses it; any other text is rendered afresh. Points are still computed
//! from the stored roster (never stored themselves), and several server processes sharing one
//! database can never see another's stale entry: the text comparison is the whole key.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use serde::Serialize;

use fad_domain::rulesets::{Family, RulesetPin};

use crate::app::forces::ruled::ForceRules;
use crate::error::ApiError;
use crate::store::forces;

use super::RosterResponse;

/// How many bytes of remembered rosters (stored text plus rendered JSON) one process keeps.
/// About 100 forces of 20 units; past it, entries are dropped to make room.
pub const BUDGET_BYTES: usize = 4 << 20;

/// A value derived from one stored roster text.
#[derive(Debug)]
struct Entry<V> {
    /// The stored roster text it was derived from.
    stored: String,
    value: Arc<V>,
    /// The stored text's length plus the value's size as its maker reported it.
    bytes: usize,
}

#[derive(Debug)]
struct Inner<V> {
    by_force: HashMap<String, Entry<V>>,
    bytes: usize,
}

/// Values derived from nothing but a force's stored roster text (the JSON roster part, the
/// roster page's sections), by force id, each kept next to the exact text it came from and
/// reused while a read finds that text unchanged; shared by every worker. See the module docs.
#[derive(Debug)]
pub struct ByStoredRoster<V> {
    inner: Arc<Mutex<Inner<V>>>,
}

impl<V> Default for ByStoredRoster<V> {
    fn default() -> Self {
        Self {
            inner: Arc::new(Mutex::new(Inner {
                by_force: HashMap::new(),
                bytes: 0,
            })),
        }
    }
}

impl<V> Clone for ByStoredRoster<V> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<V> ByStoredRoster<V> {
    /// The value for `force`'s stored roster: remembered when its text is unchanged, else
    /// `derive`d (which answers the value and its size in bytes) and remembered.
    pub fn get_or_derive(
        &self,
        force: &forces::Force,
        derive: impl FnOnce(&forces::Force) -> Result<(V, usize), ApiError>,
    ) -> Result<Arc<V>, ApiError> {
        // A poisoned lock only means a panic elsewhere; the map itself is always consistent.
        let remembered = {
            let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inner
                .by_force
                .get(&force.id)
                .filter(|e| e.stored == force.roster)
                .map(|e| Arc::clone(&e.value))
        };
        if let Some(value) = remembered {
            return Ok(value);
        }
        let (value, size) = derive(force)?;
        let value = Arc::new(value);
        let entry = Entry {
            stored: force.roster.clone(),
            value: Arc::clone(&value),
            bytes: force.roster.len() + size,
        };
        if entry.bytes <= BUDGET_BYTES / 4 {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let Inner { by_force, bytes } = &mut *inner;
            if let Some(old) = by_force.remove(&force.id) {
                *bytes -= old.bytes;
            }
            while *bytes + entry.bytes > BUDGET_BYTES {
                let Some(victim) = by_force.keys().next().cloned() else {
                    break;
                };
                if let Some(old) = by_force.remove(&victim) {
                    *bytes -= old.bytes;
                }
            }
            *bytes += entry.bytes;
            by_force.insert(force.id.clone(), entry);
        }
        Ok(value)
    }
}

/// Rendered rosters by force id: `"name":…,"points":…,"platoons":[…]`, the middle of a
/// `ForceResponse`.
#[derive(Debug, Default, Clone)]
pub struct RenderedRosters {
    cache: ByStoredRoster<String>,
}

impl RenderedRosters {
    /// The roster part of `force`'s response, from memory when its stored text is unchanged.
    fn roster_fields(&self, force: &forces::Force) -> Result<Arc<String>, ApiError> {
        self.cache.get_or_derive(force, |force| {
            let rendered = render_roster_fields(force)?;
            let size = rendered.len();
            Ok((rendered, size))
        })
    }

    /// The `ForceResponse` JSON of a stored force under its campaign's rules: where the
    /// roster reads as under FAD 5e from the cache, else serialized afresh (the ruleset can
    /// change, the stored text not).
    pub fn force_json_under(
        &self,
        force: &forces::Force,
        owner_name: Option<&str>,
        rules: &ForceRules,
    ) -> Result<String, ApiError> {
        if rules.reads_as_fad5e() {
            return self.force_json(force, owner_name, rules);
        }
        let mut response = super::ForceResponse::under(force.clone(), rules)?;
        response.owner_name = owner_name.map(str::to_owned);
        to_json(&response)
    }

    /// The `ForceResponse` JSON of a stored force whose roster reads as under FAD 5e, byte for
    /// byte what serializing [`super::ForceResponse::under`] gives.
    fn force_json(
        &self,
        force: &forces::Force,
        owner_name: Option<&str>,
        rules: &ForceRules,
    ) -> Result<String, ApiError> {
        let roster = self.roster_fields(force)?;
        let head = to_json(&Head {
            id: &force.id,
            campaign_id: &force.campaign_id,
            owner_id: &force.owner_id,
            owner_name,
            ruleset: rules.ruleset.pin(),
            family: rules.ruleset.family,
        })?;
        let tail = to_json(&Tail {
            version: force.version,
            archived: force.archived_at.is_some(),
            archived_at: force.archived_at.map(|t| t.and_utc()),
            created_at: force.created_at.and_utc(),
            updated_at: force.updated_at.and_utc(),
        })?;
        // `{head}` + `,` + roster + `,` + `{tail}`, each without its inner braces.
        let head = head.strip_suffix('}').unwrap_or(&head);
        let tail = tail.strip_prefix('{').unwrap_or(&tail);
        let mut body = String::with_capacity(head.len() + roster.len() + tail.len() + 2);
        body.push_str(head);
        body.push(',');
        body.push_str(&roster);
        body.push(',');
        body.push_str(tail);
        Ok(body)
    }
}

/// The fields of `ForceResponse` before the roster's.
#[derive(Serialize)]
struct Head<'a> {
    id: &'a str,
    campaign_id: &'a str,
    owner_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner_name: Option<&'a str>,
    ruleset: RulesetPin,
    family: Family,
}

/// The fields of `ForceResponse` after the roster's.
#[derive(Serialize)]
struct Tail {
    version: i64,
    archived: bool,
    #[serde(serialize_with = "rfc3339_or_null")]
    archived_at: Option<DateTime<Utc>>,
    #[serde(serialize_with = "rfc3339")]
    created_at: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339")]
    updated_at: DateTime<Utc>,
}

/// A time as chrono's `Serialize` writes it (RFC 3339, `Z`, the fraction digits it needs),
/// put together as a string first: chrono writes it a character at a time through
/// serde_json's escaping, which cost a force read 5,000 instructions for its two times.
fn rfc3339<S: serde::Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
}

fn rfc3339_or_null<S: serde::Serializer>(
    at: &Option<DateTime<Utc>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => rfc3339(at, s),
        None => s.serialize_none(),
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.into()))
}

/// `"name":…,"points":…,"platoons":[…]` for a stored roster.
fn render_roster_fields(force: &forces::Force) -> Result<String, ApiError> {
    let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
    let json = to_json(&RosterResponse::new(roster))?;
    Ok(json
        .strip_prefix('{')
        .and_then(|j| j.strip_suffix('}'))
        .unwrap_or(&json)
        .to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::forces::ForceResponse;
    use chrono::NaiveDate;

    fn force(id: &str, roster: serde_json::Value, archived: bool) -> forces::Force {
        let at = NaiveDate::from_ymd_opt(2026, 3, 4)
            .unwrap()
            .and_hms_micro_opt(5, 6, 7, 890_123)
            .unwrap();
        forces::Force {
            id: id.to_owned(),
            campaign_id: "c\"1".to_owned(),
            owner_id: "o1".to_owned(),
            name: "Alpha".to_owned(),
            roster: roster.to_string(),
            version: 3,
            archived_at: archived.then_some(at),
            created_at: at,
            updated_at: at,
        }
    }

    fn roster(name: &str, strength: u32) -> serde_json::Value {
        let unit = |id: &str| {
            serde_json::json!({"id": id, "name": format!("Squad {id}"), "kind": "squad",
                "quality": "elite", "resolve": "steady", "strength": strength,
                "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles",
                "traits": ["brave", "fast"]})
        };
        serde_json::json!({"name": name, "platoons": [
            {"name": "One", "units": [unit("a"), unit("b")]},
            {"name": "Two \u{e9}", "units": [unit("c")]}]})
    }

    fn expected(force: &forces::Force) -> String {
        serde_json::to_string(&ForceResponse::new(force.clone()).unwrap()).unwrap()
    }

    #[test]
    fn the_body_is_the_serialized_force_response_and_follows_every_change() {
        let cache = RenderedRosters::default();
        for archived in [false, true] {
            let first = force("f1", roster("Alpha \"A\"", 8), archived);
            assert_eq!(
                cache
                    .force_json(&first, None, &ForceRules::fad5e())
                    .unwrap(),
                expected(&first)
            );
            // Remembered: the same text answers the same body.
            assert_eq!(
                cache
                    .force_json(&first, None, &ForceRules::fad5e())
                    .unwrap(),
                expected(&first)
            );
            // A changed roster under the same id and version is rendered afresh.
            let changed = force("f1", roster("Alpha \"A\"", 5), archived);
            assert_ne!(expected(&changed), expected(&first));
            assert_eq!(
                cache
                    .force_json(&changed, None, &ForceRules::fad5e())
                    .unwrap(),
                expected(&changed)
            );
        }
    }

    #[test]
    fn a_remembered_roster_is_answered_under_the_campaigns_own_pin() {
        let cache = RenderedRosters::default();
        let f = force("f1", roster("Alpha", 8), false);
        let mut house = ForceRules::fad5e();
        let pinned = std::sync::Arc::make_mut(&mut house.ruleset);
        pinned.id = "club/three-points".to_owned();
        pinned.version = 2;
        cache
            .force_json_under(&f, None, &ForceRules::fad5e())
            .unwrap();
        let body = cache.force_json_under(&f, Some("Ann"), &house).unwrap();
        let mut want = ForceResponse::under(f, &house).unwrap();
        want.owner_name = Some("Ann".to_owned());
        assert_eq!(body, serde_json::to_string(&want).unwrap());
        assert!(
            body.contains(r#""ruleset":{"id":"club/three-points","version":2},"family":"fad""#),
            "{body}"
        );
    }

    #[test]
    fn memory_stays_within_the_budget() {
        let cache = RenderedRosters::default();
        let mut name = String::new();
        for i in 0..2000 {
            name.push('x');
            let f = force(&format!("f{i}"), roster(&name, 8), false);
            assert_eq!(
                cache.force_json(&f, None, &ForceRules::fad5e()).unwrap(),
                expected(&f)
            );
        }
        let inner = cache.cache.inner.lock().unwrap();
        let held: usize = inner.by_force.values().map(|e| e.bytes).sum();
        assert_eq!(held, inner.bytes);
        assert!(inner.bytes <= BUDGET_BYTES, "{}", inner.bytes);
        assert!(!inner.by_force.is_empty());
    }

    #[test]
    fn an_unreadable_roster_is_an_internal_error() {
        let cache = RenderedRosters::default();
        let mut f = force("f1", roster("A", 8), false);
        f.roster = "{".to_owned();
        assert!(matches!(
            cache.force_json(&f, None, &ForceRules::fad5e()),
            Err(ApiError::Internal(_))
        ));
    }
}
