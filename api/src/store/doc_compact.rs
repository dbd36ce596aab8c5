//! Writes a stored document in format 2 straight to JSON text: `"v"` first, then the value as
//! serde writes it, except that every unit leaves out the fields holding their serde default.
//! A serializer adapter does the leaving out while serde_json writes, so no
//! `serde_json::Value` tree is built (building and walking one cost most of a post-battle step).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;

use fad_domain::roster::Unit;
use serde::ser::{
    self, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant,
    SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use serde_json::value::RawValue;

use super::default_probe::{SimpleDefault, is_default};

/// The name serde gives the unit struct; every value serialized under it is a unit.
const UNIT_STRUCT: &str = "Unit";

/// `doc` as JSON text: `{"v":version,` then its fields but `omitted`, units compacted. The
/// document must serialize as a struct or a map.
pub fn to_string<T: Serialize + ?Sized>(
    doc: &T,
    version: u32,
    omitted: &[&str],
) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(4096);
    doc.serialize(TopLevel {
        inner: &mut serde_json::Serializer::new(&mut out),
        version,
        omitted,
    })?;
    // serde_json writes only UTF-8.
    String::from_utf8(out).map_err(ser::Error::custom)
}

/// A unit field's default as serde_json writes it, and its form for the probe.
type Default = (Vec<u8>, SimpleDefault);

/// Every unit field in the order serde writes them, each with its serde default (`None` for
/// the required ones). Derived from the serde attributes themselves: the smallest unit that
/// decodes, serialized again, shows every default (each field's exact text, kept through
/// `RawValue`); the fields it was given are the required ones. If that ever stops decoding,
/// units are written in full (still loadable).
static UNIT_FIELDS: LazyLock<Vec<(String, Option<Default>)>> = LazyLock::new(|| {
    let required = serde_json::json!({
        "id": "", "name": "", "kind": "squad", "quality": "regular",
        "strength": 0, "starting_strength": 0,
    });
    let Ok(unit) = serde_json::from_value::<Unit>(required.clone()) else {
        return Vec::new();
    };
    let Ok(text) = serde_json::to_string(&unit) else {
        return Vec::new();
    };
    let Ok(fields) = serde_json::from_str::<HashMap<String, &RawValue>>(&text) else {
        return Vec::new();
    };
    let mut fields: Vec<(usize, String, Option<Default>)> = fields
        .into_iter()
        .map(|(k, v)| {
            // Where serde wrote it: the order fields arrive in (a wrong guess only costs a
            // search, see `field_default`).
            let at = text.find(&format!("\"{k}\":")).unwrap_or(usize::MAX);
            let default = required.get(&k).is_none().then(|| {
                let bytes = v.get().as_bytes().to_vec();
                let simple = SimpleDefault::of(&bytes);
                (bytes, simple)
            });
            (at, k, default)
        })
        .collect();
    fields.sort_by_key(|(at, _, _)| *at);
    fields.into_iter().map(|(_, k, d)| (k, d)).collect()
});

/// The default of unit field `key`, looked for first at `next` (fields arrive in order), which
/// then moves past it.
fn field_default(key: &str, next: &mut usize) -> Option<&'static Default> {
    let fields = &*UNIT_FIELDS;
    let at = match fields.get(*next) {
        Some((name, _)) if name == key => *next,
        _ => fields.iter().position(|(name, _)| name == key)?,
    };
    *next = at + 1;
    fields[at].1.as_ref()
}

thread_local! {
    /// Where a unit field is written to be compared with its default, reused.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Whether `value` of unit field `key` is that field's serde default (`next`: see
/// [`field_default`]).
fn holds_default<T: Serialize + ?Sized>(key: &str, value: &T, next: &mut usize) -> bool {
    let Some((default, simple)) = field_default(key, next) else {
        return false;
    };
    if let Some(decided) = is_default(value, simple) {
        return decided;
    }
    SCRATCH.with(|scratch| {
        let Ok(mut scratch) = scratch.try_borrow_mut() else {
            return false;
        };
        scratch.clear();
        serde_json::to_writer(&mut *scratch, value).is_ok() && scratch.as_slice() == default
    })
}

/// The document itself: a struct or map, written with `"v"` first.
struct TopLevel<'o, S> {
    inner: S,
    version: u32,
    omitted: &'o [&'o str],
}

fn not_an_object<E: ser::Error>() -> E {
    E::custom("a stored document must be a JSON object")
}

/// The top-level struct or map: its fields compacted, `omitted` ones left out.
struct TopFields<'o, S> {
    inner: S,
    omitted: &'o [&'o str],
}

impl<S: SerializeStruct> SerializeStruct for TopFields<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        if self.omitted.contains(&key) {
            return self.inner.skip_field(key);
        }
        self.inner.serialize_field(key, &Compact(value))
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        self.inner.skip_field(key)
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        self.inner.end()
    }
}

impl<S: SerializeMap> SerializeMap for TopFields<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        self.inner.serialize_key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        self.inner.serialize_value(&Compact(value))
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        self.inner.end()
    }
}

/// Every kind of value that is not a struct or map, refused at the top level.
macro_rules! refuse {
    ($($name:ident($($arg:ty),*);)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            Err(not_an_object())
        })*
    };
}

impl<'o, S: Serializer> Serializer for TopLevel<'o, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = ser::Impossible<S::Ok, S::Error>;
    type SerializeTuple = ser::Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = ser::Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = ser::Impossible<S::Ok, S::Error>;
    type SerializeMap = TopFields<'o, S::SerializeMap>;
    type SerializeStruct = TopFields<'o, S::SerializeStruct>;
    type SerializeStructVariant = ser::Impossible<S::Ok, S::Error>;

    refuse! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none();
        serialize_unit(); serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_an_object())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_an_object())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_an_object())
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let mut inner = self.inner.serialize_map(len.map(|n| n + 1))?;
        inner.serialize_entry(crate::store::doc::VERSION_FIELD, &self.version)?;
        Ok(TopFields {
            inner,
            omitted: self.omitted,
        })
    }
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let mut inner = self.inner.serialize_struct(name, len + 1)?;
        inner.serialize_field(crate::store::doc::VERSION_FIELD, &self.version)?;
        Ok(TopFields {
            inner,
            omitted: self.omitted,
        })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        Err(not_an_object())
    }
}

/// A value serialized with its units compacted.
struct Compact<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> Serialize for Compact<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Compacting(serializer))
    }
}

/// The serializer adapter: passes everything through, wrapping nested values so units at any
/// depth are compacted.
struct Compacting<S>(S);

/// A compound being written, its elements wrapped.
struct Nested<S>(S);

macro_rules! pass {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name(self, $($arg: $ty),*) -> Result<Self::Ok, Self::Error> {
            self.0.$name($($arg),*)
        })*
    };
}

impl<S: Serializer> Serializer for Compacting<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Nested<S::SerializeSeq>;
    type SerializeTuple = Nested<S::SerializeTuple>;
    type SerializeTupleStruct = Nested<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Nested<S::SerializeTupleVariant>;
    type SerializeMap = Nested<S::SerializeMap>;
    type SerializeStruct = UnitOr<S::SerializeStruct>;
    type SerializeStructVariant = Nested<S::SerializeStructVariant>;

    pass! {
        serialize_bool(v: bool); serialize_i8(v: i8); serialize_i16(v: i16);
        serialize_i32(v: i32); serialize_i64(v: i64); serialize_i128(v: i128);
        serialize_u8(v: u8); serialize_u16(v: u16); serialize_u32(v: u32);
        serialize_u64(v: u64); serialize_u128(v: u128); serialize_f32(v: f32);
        serialize_f64(v: f64); serialize_char(v: char); serialize_str(v: &str);
        serialize_bytes(v: &[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Compact(value))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Compact(value))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Compact(value))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Nested)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Nested)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Nested)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Nested)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Nested)
    }
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let inner = self.0.serialize_struct(name, len)?;
        Ok(if name == UNIT_STRUCT {
            UnitOr::Unit(inner, 0)
        } else {
            UnitOr::Other(inner)
        })
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(Nested)
    }
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The compounds whose elements are written one after another: each element wrapped.
macro_rules! nested_elements {
    ($($trait:ident::$method:ident),*) => {$(
        impl<S: $trait> $trait for Nested<S> {
            type Ok = S::Ok;
            type Error = S::Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
                self.0.$method(&Compact(value))
            }
            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    )*};
}

nested_elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<S: SerializeMap> SerializeMap for Nested<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        self.0.serialize_key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&Compact(value))
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

impl<S: SerializeStructVariant> SerializeStructVariant for Nested<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        self.0.serialize_field(key, &Compact(value))
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        self.0.skip_field(key)
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

/// A struct being written: a unit, whose fields holding their default are skipped, or any
/// other.
enum UnitOr<S> {
    /// With where the next field is expected among the unit's fields.
    Unit(S, usize),
    Other(S),
}

impl<S: SerializeStruct> SerializeStruct for UnitOr<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        match self {
            Self::Unit(inner, next) => {
                if holds_default(key, value, next) {
                    inner.skip_field(key)
                } else {
                    inner.serialize_field(key, &Compact(value))
                }
            }
            Self::Other(inner) => inner.serialize_field(key, &Compact(value)),
        }
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        match self {
            Self::Unit(inner, _) | Self::Other(inner) => inner.skip_field(key),
        }
    }
    fn end(self) -> Result<S::Ok, S::Error> {
        match self {
            Self::Unit(inner, _) | Self::Other(inner) => inner.end(),
        }
    }
}
