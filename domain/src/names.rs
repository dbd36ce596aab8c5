//! Named enumerations: every rule vocabulary (docs/rules.md §1) is a closed set of `snake_case` names.
//!
//! One macro gives each enumeration the same behaviour: a canonical name, accepted aliases (the
//! source's own alternative spellings, docs/rules.md F18), `ALL` in table order, `FromStr` whose error
//! names the wrong value and lists the accepted ones, and serde through those names.

use std::fmt;

/// A name that is not one of an enumeration's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
// People read this too (a typed-in one-shot force, a form): the names in words, which parsing
// accepts as well ("command squad" for `command_squad`).
#[error(
    "`{value}` is not a {}; use one of: {}",
    kind.replace('_', " "),
    accepted.iter().map(|a| a.replace('_', " ")).collect::<Vec<_>>().join(", ")
)]
pub struct UnknownName {
    /// Which enumeration was parsed (`quality`, `trait`, ...).
    pub kind: &'static str,
    /// The value that was given.
    pub value: String,
    /// Every canonical name the enumeration accepts.
    pub accepted: Vec<&'static str>,
}

/// Behaviour shared by every named enumeration.
pub trait Named: Sized + Copy + 'static {
    /// The enumeration's own name, used in error messages.
    const KIND: &'static str;
    /// Every value, in the order of its docs/rules.md table.
    const ALL: &'static [Self];
    /// The canonical `snake_case` name.
    fn name(self) -> &'static str;
    /// Other spellings accepted on input.
    fn aliases(self) -> &'static [&'static str] {
        &[]
    }
    /// The value's documentation lines, as written in its table (see [`Named::description`]).
    fn doc_lines(self) -> &'static [&'static str] {
        &[]
    }
    /// A one-line description of the value, from its table.
    fn description(self) -> String {
        self.doc_lines()
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// The name in words for people: `resolve_change` reads "resolve change".
    fn words(self) -> String {
        self.name().replace('_', " ")
    }
    /// The name in words starting with a capital: `resolve_change` reads "Resolve change".
    fn title(self) -> String {
        let words = self.words();
        let mut chars = words.chars();
        chars.next().map_or_else(String::new, |first| {
            first.to_uppercase().chain(chars).collect()
        })
    }
    /// Parses a canonical name or an alias (case-insensitive, spaces and dashes as `_`).
    fn parse(value: &str) -> Result<Self, UnknownName> {
        // Stored documents and this service's own answers hold canonical names: found without
        // building a normalised copy (a roster's read parses several names per unit).
        if let Some(exact) = Self::ALL.iter().copied().find(|v| v.name() == value) {
            return Ok(exact);
        }
        let wanted = normalise(value);
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == wanted || v.aliases().iter().any(|a| *a == wanted))
            .ok_or_else(|| UnknownName {
                kind: Self::KIND,
                value: value.to_owned(),
                accepted: Self::ALL.iter().map(|v| v.name()).collect(),
            })
    }
}

fn normalise(value: &str) -> String {
    value
        .trim()
        .chars()
        .map(|c| match c {
            ' ' | '-' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The OpenAPI schema of a named enumeration: a string, one of the canonical names.
#[cfg(feature = "openapi")]
pub fn enum_schema<T: Named>() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(format!("A {} name.", T::KIND.replace('_', " "))))
        .enum_values(Some(T::ALL.iter().map(|v| v.name())))
        .into()
}

/// Formats through the canonical name.
pub struct DisplayName<T>(pub T);

impl<T: Named> fmt::Display for DisplayName<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// Declares a named enumeration: `named_enum! { /// doc  pub enum X("kind") { A = "a" ["alias"], ... } }`.
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $ty:ident($kind:literal) {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $name:literal $([$($alias:literal),*])? ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $ty {
            $( $(#[doc = $vdoc])* $variant ),+
        }

        impl $crate::names::Named for $ty {
            const KIND: &'static str = $kind;
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
            fn aliases(self) -> &'static [&'static str] {
                match self { $(Self::$variant => &[$($($alias),*)?]),+ }
            }
            fn doc_lines(self) -> &'static [&'static str] {
                match self { $(Self::$variant => &[$($vdoc),*]),+ }
            }
        }

        // The document lists the canonical names only; aliases stay an input courtesy.
        #[cfg(feature = "openapi")]
        impl ::utoipa::PartialSchema for $ty {
            fn schema() -> ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema> {
                $crate::names::enum_schema::<Self>()
            }
        }

        #[cfg(feature = "openapi")]
        impl ::utoipa::ToSchema for $ty {}

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::names::Named::name(*self))
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <Self as $crate::names::Named>::parse(s)
            }
        }

        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::names::Named::name(*self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let raw = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                <Self as $crate::names::Named>::parse(&raw).map_err(::serde::de::Error::custom)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    named_enum! {
        /// A test enumeration.
        pub enum Colour("colour") { Red = "red" ["crimson"], DarkBlue = "dark_blue" }
    }

    #[test]
    fn parses_canonical_names_aliases_and_loose_spelling() {
        assert_eq!(Colour::parse("red"), Ok(Colour::Red));
        assert_eq!(Colour::parse("Crimson"), Ok(Colour::Red));
        assert_eq!(Colour::parse("Dark Blue"), Ok(Colour::DarkBlue));
        assert_eq!(Colour::parse("dark-blue"), Ok(Colour::DarkBlue));
    }

    #[test]
    fn unknown_name_lists_the_accepted_values() {
        let err = Colour::parse("green").unwrap_err();
        assert_eq!(
            err.to_string(),
            "`green` is not a colour; use one of: red, dark blue"
        );
    }

    #[test]
    fn serde_uses_the_canonical_name() {
        assert_eq!(
            serde_json::to_string(&Colour::DarkBlue).unwrap(),
            "\"dark_blue\""
        );
        let back: Colour = serde_json::from_str("\"crimson\"").unwrap();
        assert_eq!(back, Colour::Red);
        let err = serde_json::from_str::<Colour>("\"green\"").unwrap_err();
        assert!(err.to_string().contains("use one of: red, dark blue"));
    }
}
