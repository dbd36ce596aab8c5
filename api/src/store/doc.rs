//! Stored JSON documents: one encoder and one decoder for every JSON column that holds a
//! domain value (rosters, post-battle sequences, scenario documents), so no caller parses
//! stored text by hand and a decode failure is one [`DocError`] naming the document kind, its
//! format version and the path of the bad value.
//!
//! Formats: a document without a `"v"` field is format 1, the full serde form written before
//! formats were numbered. Format 2 adds `"v": 2` at the top and leaves out every unit field
//! that holds its serde default (a unit is about a quarter of its full size), so rosters and
//! everything that embeds them shrink. Loading accepts every format up to the kind's
//! [`StoredDoc::VERSION`]; [`StoredDoc::upgrade`] is where a renamed or restructured field gets
//! its conversion when a kind's version is raised, so old rows keep loading.
//!
//! [`Json`] is the typed column: a row field `Json<T>` reads and writes through this module on
//! both backends.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Text;
use diesel::sqlite::Sqlite;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::db::MultiBackend;

/// The field that carries a document's format version.
pub const VERSION_FIELD: &str = "v";

/// A domain value stored as a JSON document.
pub trait StoredDoc: Serialize + DeserializeOwned {
    /// What the document is, for logs (`"roster"`, `"aftermath state"`).
    const KIND: &'static str;
    /// The format written today; every format from 1 up to it loads.
    const VERSION: u32 = 2;

    /// Brings `value` (its `"v"` removed), stored in format `version`, to today's shape.
    /// Formats 1 and 2 differ only in omitted defaults, which serde fills in, so there is
    /// nothing to do yet.
    fn upgrade(_value: &mut Map<String, Value>, _version: u32) -> Result<(), String> {
        Ok(())
    }
}

impl StoredDoc for fad_domain::roster::Force {
    const KIND: &'static str = "roster";
}

impl StoredDoc for fad_domain::campaign::Aftermath {
    const KIND: &'static str = "aftermath state";
}

impl StoredDoc for fad_domain::campaign::sequence::Outcome {
    const KIND: &'static str = "aftermath outcome";
}

/// A stored document that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    /// The text is not a document of this kind in the format it claims.
    #[error("stored {kind} document (format {version}) does not decode: {message}")]
    Decode {
        /// The document kind.
        kind: &'static str,
        /// The format it claims (1 when it names none).
        version: u32,
        /// What is wrong, with the path of the offending value.
        message: String,
    },
    /// The document is from a newer server.
    #[error("stored {kind} document has format {version}; this server reads up to {known}")]
    Newer {
        /// The document kind.
        kind: &'static str,
        /// Its format.
        version: u32,
        /// The newest this server reads.
        known: u32,
    },
    /// The value cannot be written.
    #[error("{kind} document does not encode: {message}")]
    Encode {
        /// The document kind.
        kind: &'static str,
        /// Why.
        message: String,
    },
}

/// `doc` as stored text in today's format.
pub fn encode<T: StoredDoc>(doc: &T) -> Result<String, DocError> {
    encode_without(doc, &[])
}

/// `doc` as stored text without the top-level fields `omitted` (a kind that stores part of
/// itself elsewhere leaves it out here).
pub fn encode_without<T: StoredDoc>(doc: &T, omitted: &[&str]) -> Result<String, DocError> {
    super::doc_compact::to_string(doc, T::VERSION, omitted).map_err(|e| DocError::Encode {
        kind: T::KIND,
        message: e.to_string(),
    })
}

/// Whether `text` starts the way today's encoder starts a document of format `version`
/// (`{"v":2,`): such text decodes straight into `T`, which ignores the `"v"`.
pub(super) fn in_format(text: &str, version: u32) -> bool {
    let Some(rest) = text.strip_prefix(r#"{"v":"#) else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[..digits].parse() == Ok(version)
        && matches!(rest.as_bytes().get(digits), Some(b',' | b'}'))
}

/// The document stored as `text`, in any format up to today's.
pub fn decode<T: StoredDoc>(text: &str) -> Result<T, DocError> {
    // Today's format needs no upgrade and no edit: read it without a `Value` tree. Any error
    // is reported by the general path, which names the path of the bad value.
    if in_format(text, T::VERSION) {
        if let Ok(doc) = serde_json::from_str(text) {
            return Ok(doc);
        }
    }
    decode_with(text, |_| {})
}

/// The document stored as `text`, in any format, with `edit` applied to its top-level fields
/// after any upgrade (a kind that stores part of itself elsewhere puts it back here).
pub fn decode_with<T: StoredDoc>(
    text: &str,
    edit: impl FnOnce(&mut Map<String, Value>),
) -> Result<T, DocError> {
    let fail = |version: u32, message: String| DocError::Decode {
        kind: T::KIND,
        version,
        message,
    };
    let mut map = match serde_json::from_str(text).map_err(|e| fail(1, e.to_string()))? {
        Value::Object(map) => map,
        _ => return Err(fail(1, "not a JSON object".to_owned())),
    };
    let version = match map.remove(VERSION_FIELD) {
        None => 1,
        Some(v) => v
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .filter(|v| *v >= 1)
            .ok_or_else(|| fail(1, format!("bad format version {v}")))?,
    };
    if version > T::VERSION {
        return Err(DocError::Newer {
            kind: T::KIND,
            version,
            known: T::VERSION,
        });
    }
    T::upgrade(&mut map, version).map_err(|m| fail(version, m))?;
    edit(&mut map);
    serde_path_to_error::deserialize(Value::Object(map)).map_err(|e| {
        let path = e.path().to_string();
        fail(version, format!("at `{path}`: {}", e.into_inner()))
    })
}

/// The format version of stored `text` (1 when it names none); `None` if it is not a JSON
/// object.
pub fn version_of(text: &str) -> Option<u32> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(map) => Some(
            map.get(VERSION_FIELD)
                .and_then(Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(1),
        ),
        _ => None,
    }
}

/// A typed JSON column: reads and writes `T` through [`decode`] and [`encode`].
#[derive(Debug, Clone, PartialEq, AsExpression, FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct Json<T>(pub T);

impl<T: StoredDoc> FromSql<Text, Sqlite> for Json<T> {
    fn from_sql(bytes: <Sqlite as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        let text = <String as FromSql<Text, Sqlite>>::from_sql(bytes)?;
        Ok(Self(decode(&text)?))
    }
}

impl<T: StoredDoc> FromSql<Text, Pg> for Json<T> {
    fn from_sql(bytes: <Pg as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        let text = std::str::from_utf8(bytes.as_bytes())?;
        Ok(Self(decode(text)?))
    }
}

impl<T: StoredDoc + 'static> FromSql<Text, MultiBackend> for Json<T> {
    fn from_sql(bytes: <MultiBackend as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        bytes.from_sql::<Self, Text>()
    }
}

impl<T: StoredDoc + std::fmt::Debug> ToSql<Text, Sqlite> for Json<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        out.set_value(encode(&self.0)?);
        Ok(IsNull::No)
    }
}

impl<T: StoredDoc + std::fmt::Debug> ToSql<Text, Pg> for Json<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        use std::io::Write;
        out.write_all(encode(&self.0)?.as_bytes())?;
        Ok(IsNull::No)
    }
}

impl<T: StoredDoc + std::fmt::Debug + Send + Sync + 'static> ToSql<Text, MultiBackend> for Json<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
        out.set_value((Text, self));
        Ok(IsNull::No)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fad_domain::roster::{Force, Platoon, Unit};

    fn force() -> Force {
        Force {
            name: "Red".into(),
            platoons: vec![Platoon {
                name: "1st".into(),
                units: vec![Unit {
                    id: "u1".into(),
                    name: "Alpha".into(),
                    strength: 6,
                    starting_strength: 8,
                    resolve: None,
                    jammer_rating: 2,
                    ..Unit::default()
                }],
            }],
        }
    }

    #[test]
    fn a_roster_round_trips_in_format_2_without_its_defaults() {
        let text = encode(&force()).unwrap();
        assert_eq!(version_of(&text), Some(2));
        assert!(!text.contains("heavy_weapons"), "{text}");
        assert!(
            !text.contains("\"resolve\""),
            "None is the serde default: {text}"
        );
        assert!(
            !text.contains("armour"),
            "light is the serde default: {text}"
        );
        assert!(text.contains("\"jammer_rating\":2"), "{text}");
        assert_eq!(decode::<Force>(&text).unwrap(), force());
    }

    #[test]
    fn format_1_loads() {
        let text = serde_json::to_string(&force()).unwrap();
        assert_eq!(version_of(&text), Some(1));
        assert_eq!(decode::<Force>(&text).unwrap(), force());
    }

    #[test]
    fn a_bad_document_names_its_kind_version_and_path() {
        let err = decode::<Force>(
            r#"{"v":2,"name":"Red","platoons":[{"name":"x","units":[{"id":"a"}]}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("roster document (format 2)"), "{err}");
        assert!(err.contains("platoons[0].units[0]"), "{err}");
        let newer = decode::<Force>(r#"{"v":9,"name":"Red","platoons":[]}"#).unwrap_err();
        assert!(
            matches!(newer, DocError::Newer { version: 9, .. }),
            "{newer}"
        );
    }
}
