//! Whether a value serializes to a given simple JSON default (`null`, `false`, `0`, `[]` or a
//! plain string) without writing it: most unit fields hold one of those, and writing each one
//! out to compare the bytes cost more than writing the document. Anything else is undecided,
//! and the caller compares bytes.

use std::fmt;

use serde::ser::{self, Impossible, Serialize, Serializer};

/// A field's default as serde_json writes it, in the forms the probe decides on.
#[derive(Debug, Clone, PartialEq)]
pub enum SimpleDefault {
    /// `null`.
    Null,
    /// `false`.
    False,
    /// `0`.
    Zero,
    /// `[]`.
    EmptySeq,
    /// A string with nothing escaped (a unit variant's name).
    Str(String),
    /// Anything else: compare the written bytes.
    Other,
}

impl SimpleDefault {
    /// The form of `json`, a default as serde_json wrote it.
    pub fn of(json: &[u8]) -> Self {
        match json {
            b"null" => Self::Null,
            b"false" => Self::False,
            b"0" => Self::Zero,
            b"[]" => Self::EmptySeq,
            [b'"', inner @ .., b'"'] if !inner.iter().any(|b| matches!(b, b'"' | b'\\')) => {
                std::str::from_utf8(inner).map_or(Self::Other, |s| Self::Str(s.to_owned()))
            }
            _ => Self::Other,
        }
    }
}

/// Whether `value` serializes exactly as `default`; `None` when the probe cannot tell.
pub fn is_default<T: Serialize + ?Sized>(value: &T, default: &SimpleDefault) -> Option<bool> {
    if *default == SimpleDefault::Other {
        return None;
    }
    match value.serialize(Probe(default)) {
        Ok(decided) | Err(Undecided::Decided(decided)) => Some(decided),
        Err(Undecided::Unknown) => None,
    }
}

/// How a compound value ends the probe: already decided by its length or kind, or unknown.
#[derive(Debug)]
enum Undecided {
    Decided(bool),
    Unknown,
}

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("undecided")
    }
}

impl std::error::Error for Undecided {}

impl ser::Error for Undecided {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Self::Unknown
    }
}

struct Probe<'d>(&'d SimpleDefault);

impl Probe<'_> {
    /// A compound value (object, tuple, non-empty or unsized sequence) is never one of the
    /// simple defaults but `[]`.
    fn compound<C>(&self) -> Result<C, Undecided> {
        Err(Undecided::Decided(false))
    }
}

impl<'d> Serializer for Probe<'d> {
    type Ok = bool;
    type Error = Undecided;
    type SerializeSeq = Impossible<bool, Undecided>;
    type SerializeTuple = Impossible<bool, Undecided>;
    type SerializeTupleStruct = Impossible<bool, Undecided>;
    type SerializeTupleVariant = Impossible<bool, Undecided>;
    type SerializeMap = Impossible<bool, Undecided>;
    type SerializeStruct = Impossible<bool, Undecided>;
    type SerializeStructVariant = Impossible<bool, Undecided>;

    fn serialize_bool(self, v: bool) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::False && !v)
    }
    fn serialize_i8(self, v: i8) -> Result<bool, Undecided> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<bool, Undecided> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<bool, Undecided> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::Zero && v == 0)
    }
    fn serialize_u8(self, v: u8) -> Result<bool, Undecided> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<bool, Undecided> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<bool, Undecided> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::Zero && v == 0)
    }
    fn serialize_f32(self, _: f32) -> Result<bool, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_f64(self, _: f64) -> Result<bool, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_char(self, _: char) -> Result<bool, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_str(self, v: &str) -> Result<bool, Undecided> {
        Ok(matches!(self.0, SimpleDefault::Str(s) if s == v))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<bool, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_none(self) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<bool, Undecided> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<bool, Undecided> {
        Ok(*self.0 == SimpleDefault::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<bool, Undecided> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<bool, Undecided> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool, Undecided> {
        self.compound()
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, Undecided> {
        match len {
            Some(len) => Err(Undecided::Decided(
                *self.0 == SimpleDefault::EmptySeq && len == 0,
            )),
            None => Err(Undecided::Unknown),
        }
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Undecided> {
        Err(Undecided::Unknown)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Undecided> {
        self.compound()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Undecided> {
        self.compound()
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Undecided> {
        self.compound()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Undecided> {
        self.compound()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// The probe agrees with the written bytes on every simple default and value kind.
    #[test]
    fn the_probe_agrees_with_the_written_json() {
        fn check<T: Serialize>(value: T, default: &str) {
            let written = serde_json::to_vec(&value).unwrap() == default.as_bytes();
            let probed = is_default(&value, &SimpleDefault::of(default.as_bytes()));
            assert!(
                probed.is_none_or(|p| p == written),
                "{default} vs {}",
                serde_json::to_string(&value).unwrap()
            );
        }
        #[derive(Serialize)]
        enum Armour {
            #[serde(rename = "light")]
            Light,
            #[serde(rename = "heavy")]
            Heavy,
        }
        #[derive(Serialize, Default)]
        struct Options {
            flag: bool,
        }
        for default in [
            "null",
            "false",
            "0",
            "[]",
            "\"light\"",
            "{\"flag\":false}",
            "\"\"",
        ] {
            check(None::<u8>, default);
            check(Some(0u8), default);
            check(Some(Armour::Light), default);
            check(false, default);
            check(true, default);
            check(0u32, default);
            check(3u8, default);
            check(0i64, default);
            check(Vec::<u8>::new(), default);
            check(vec![1u8], default);
            check(Armour::Light, default);
            check(Armour::Heavy, default);
            check("light", default);
            check("", default);
            check(Options::default(), default);
            check((), default);
        }
        assert_eq!(is_default(&None::<u8>, &SimpleDefault::Null), Some(true));
        assert_eq!(
            is_default(&Vec::<u8>::new(), &SimpleDefault::EmptySeq),
            Some(true)
        );
        assert_eq!(
            is_default(&vec![1u8], &SimpleDefault::EmptySeq),
            Some(false)
        );
        assert_eq!(
            is_default(&Armour::Light, &SimpleDefault::of(b"\"light\"")),
            Some(true)
        );
        assert_eq!(
            is_default(&Options::default(), &SimpleDefault::of(b"{}")),
            None
        );
    }
}
