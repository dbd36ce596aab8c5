//! Tidies the generated document for code generators and readers: components named after a
//! Rust container (`Vec`, `BTreeMap`, from type aliases) get the names of what they hold; a
//! body that may be left out (`Option<T>`: a `oneOf` with `null`) is a plain `T` body with
//! `required: false`, which generated clients make optional; and descriptions written for
//! rustdoc read as API text (`None` is `null`, intra-doc links lose their Rust paths,
//! `docs/rules.md §3.10` is the served `/rules#3.10`). utoipa's types do not read back what
//! they write, so the text changes are made on the document's JSON text.

use utoipa::openapi::schema::{SchemaType, Type};
use utoipa::openapi::{OpenApi, RefOr, Required, Schema};

/// Generic component names and what they hold.
const RENAMES: [(&str, &str); 2] = [("Vec", "RollLog"), ("BTreeMap", "EnteredDice")];

/// The typed changes: component names and optional bodies.
pub fn tidy(api: &mut OpenApi) {
    if let Some(components) = api.components.as_mut() {
        for (from, to) in RENAMES {
            if components.schemas.contains_key(to) {
                continue;
            }
            if let Some(schema) = components.schemas.remove(from) {
                components.schemas.insert(to.to_owned(), schema);
            }
        }
    }
    for item in api.paths.paths.values_mut() {
        let operations = [
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in operations.into_iter().flatten() {
            if let Some(RefOr::T(body)) = operation.request_body.as_mut() {
                let mut optional = false;
                for content in body.content.values_mut() {
                    if let RefOr::T(content) = content
                        && let Some(schema) = content.schema.as_mut()
                        && let Some(plain) = without_null(schema)
                    {
                        *schema = plain;
                        optional = true;
                    }
                }
                if optional {
                    body.required = Some(Required::False);
                }
            }
        }
    }
}

/// `T` of a `oneOf: [T, null]`.
fn without_null(schema: &RefOr<Schema>) -> Option<RefOr<Schema>> {
    let RefOr::T(Schema::OneOf(one_of)) = schema else {
        return None;
    };
    let is_null = |s: &RefOr<Schema>| matches!(s, RefOr::T(Schema::Object(o)) if o.schema_type == SchemaType::Type(Type::Null));
    match one_of.items.as_slice() {
        [a, b] if is_null(b) => Some(a.clone()),
        [a, b] if is_null(a) => Some(b.clone()),
        _ => None,
    }
}

/// The text changes, on the document's JSON text: references to renamed components, and
/// descriptions as API text.
pub fn text(json: &str) -> String {
    let mut text = json.to_owned();
    for (from, to) in RENAMES {
        text = text.replace(
            &format!("\"#/components/schemas/{from}\""),
            &format!("\"#/components/schemas/{to}\""),
        );
    }
    describe(&text)
}

/// Text as API text.
pub fn describe(text: &str) -> String {
    let text = text
        .replace("`None`", "`null`")
        .replace("The docs/rules.md anchor", "The `/rules` anchor");
    rules_links(&strip_rust_links(&text))
}

/// `[`name`](some::path)` → `` `name` ``; web links and plain brackets stay.
fn strip_rust_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        let (before, after) = rest.split_at(start);
        let Some(end) = after.find(')') else { break };
        let target = &after[2..end];
        let rusty = target.contains("::") && !target.contains('/');
        match (rusty, before.rfind('[')) {
            (true, Some(open)) => {
                out.push_str(&before[..open]);
                out.push_str(&before[open + 1..]);
            }
            _ => {
                out.push_str(before);
                out.push_str(&after[..=end]);
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `docs/rules.md §3.10` → `/rules#3.10`, `docs/rules.md S12` → `/rules#S12`.
fn rules_links(text: &str) -> String {
    const CITE: &str = "docs/rules.md ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(CITE) {
        out.push_str(&rest[..at]);
        let after = &rest[at + CITE.len()..];
        // An id ends at a space, punctuation or the end of the JSON string (a quote or an
        // escape such as `\n`).
        let id_len = after
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | ',' | ';' | ':' | '"' | '\\'))
            .unwrap_or(after.len());
        let id = after[..id_len].trim_end_matches('.');
        let bare = id.strip_prefix('§').unwrap_or(id);
        if bare.is_empty() {
            out.push_str(CITE);
            rest = after;
            continue;
        }
        out.push_str("/rules#");
        out.push_str(bare);
        rest = &after[id.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_citations_become_served_anchors() {
        assert_eq!(
            describe("as in docs/rules.md §3.10, and docs/rules.md S12."),
            "as in /rules#3.10, and /rules#S12."
        );
        assert_eq!(describe("(docs/rules.md §4.1)."), "(/rules#4.1).");
        assert_eq!(
            describe(r#""docs/rules.md §3.3\nnext""#),
            r#""/rules#3.3\nnext""#
        );
    }

    #[test]
    fn rust_words_become_api_words() {
        assert_eq!(
            describe("see [`roll`](super::basic::roll)); `None` is 1"),
            "see `roll`); `null` is 1"
        );
        assert_eq!(
            describe("a [link](https://x.example/a)"),
            "a [link](https://x.example/a)"
        );
        assert_eq!(describe("units: [Unit]"), "units: [Unit]");
    }

    #[test]
    fn renamed_components_are_renamed_where_referenced() {
        assert_eq!(
            text(r##"{"$ref": "#/components/schemas/Vec", "x": "#/components/schemas/Vector"}"##),
            r##"{"$ref": "#/components/schemas/RollLog", "x": "#/components/schemas/Vector"}"##
        );
    }

    #[test]
    fn a_body_that_may_be_left_out_is_optional() {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder};
        let schema: RefOr<Schema> = OneOfBuilder::new()
            .item(utoipa::openapi::Ref::from_schema_name("C"))
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .into();
        assert!(matches!(without_null(&schema), Some(RefOr::Ref(_))));
        let plain: RefOr<Schema> = ObjectBuilder::new().into();
        assert!(without_null(&plain).is_none());
    }
}
