//! serde's and serde_json's messages in plain words. Their texts name Rust types ("expected
//! u8", "struct Force", "a sequence"); a client should read what to send instead. This is the
//! one place that reads those texts: every body, query and path error passes through here.

/// A data error of serde ("invalid type: string \"x\", expected u8") as a plain sentence
/// without the field ("must be a whole number from 0 to 255, not the text \"x\"").
pub fn data_message(raw: &str) -> String {
    let raw = strip_position(raw);
    if let Some(rest) = raw.strip_prefix("invalid type: ") {
        if let Some((got, expected)) = rest.split_once(", expected ") {
            return format!(
                "must be {}, not {}",
                expected_words(expected),
                got_words(got)
            );
        }
    }
    if let Some(rest) = raw.strip_prefix("invalid value: ") {
        if let Some((got, expected)) = rest.split_once(", expected ") {
            return format!(
                "must be {}, not {}",
                expected_words(expected),
                got_words(got)
            );
        }
    }
    if let Some(rest) = raw.strip_prefix("invalid length ") {
        if let Some((len, expected)) = rest.split_once(", expected ") {
            return format!(
                "must be {}, not a list of {len} item(s)",
                expected_words(expected)
            );
        }
    }
    if let Some(rest) = raw.strip_prefix("unknown variant `") {
        if let Some((value, rest)) = rest.split_once('`') {
            return format!("must be {}, not \"{value}\"", choices(rest));
        }
    }
    if let Some(rest) = raw.strip_prefix("unknown field `") {
        let name = rest.split('`').next().unwrap_or_default();
        return unknown_field(name);
    }
    if raw.starts_with("missing field `") {
        // The path points at the missing field itself.
        return REQUIRED.to_owned();
    }
    if let Some(rest) = raw.strip_prefix("duplicate field `") {
        let name = rest.split('`').next().unwrap_or_default();
        return format!("{name} is given twice; give it once");
    }
    if raw.starts_with("data did not match any variant of untagged enum") {
        return "does not have any of the accepted forms; see the API reference for this field"
            .to_owned();
    }
    if raw.starts_with("invalid length") {
        return "has the wrong number of items".to_owned();
    }
    // Our own types' messages (names, ids, dice) are already plain.
    raw.to_owned()
}

/// The message of a field the request does not take.
pub fn unknown_field(name: &str) -> String {
    format!("unknown field `{name}`: this request does not take it; remove it")
}

/// A missing field's message, without its name (the path names it).
pub const REQUIRED: &str = "is required; add it";

/// A syntax error of serde_json as a plain sentence saying where and what to do.
pub fn syntax_message(err: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let text = err.to_string();
    let what = strip_position(&text);
    let problem = match err.classify() {
        Category::Eof => "it ends too early (a closing quote, bracket or brace is missing)",
        _ if what.starts_with("trailing characters") => "there is more text after its end",
        _ if what.starts_with("key must be a string") => "an object key is not in double quotes",
        _ if what.starts_with("expected `,` or `}`") => "a comma or a closing brace is missing",
        _ if what.starts_with("expected `,` or `]`") => "a comma or a closing bracket is missing",
        _ if what.starts_with("expected `:`") => "a colon is missing after a key",
        _ if what.starts_with("expected ident") => "a word is not true, false or null",
        _ if what.starts_with("expected value") => "a value is missing or is not JSON",
        _ if what.starts_with("invalid escape") => "a text has an invalid escape sequence",
        _ if what.starts_with("control character") => {
            "a text holds a raw control character (escape it)"
        }
        _ if what.starts_with("number out of range") => "a number is too large",
        _ if what.starts_with("invalid number") => "a number is not written as JSON numbers are",
        _ if what.starts_with("recursion limit") => "it is nested too deeply",
        _ if what.contains("unicode") || what.contains("surrogate") => {
            "a text has an invalid \\u escape"
        }
        _ => "it is not well-formed",
    };
    if err.line() == 0 {
        format!("Malformed JSON: {problem}. Send one complete JSON document.")
    } else {
        format!(
            "Malformed JSON: {problem} (line {}, column {}). Send one complete JSON document.",
            err.line(),
            err.column()
        )
    }
}

/// serde_json appends " at line L column C"; the field path says where.
pub fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(index) => &message[..index],
        None => message,
    }
}

/// serde's "expected" part (a type's `expecting`) as what to send.
fn expected_words(expected: &str) -> String {
    let whole = |from: &str, to: &str| format!("a whole number from {from} to {to}");
    match expected {
        "u8" => whole("0", "255"),
        "u16" => whole("0", "65535"),
        "u32" => whole("0", "4294967295"),
        "u64" | "u128" | "usize" => "a whole number, 0 or more".to_owned(),
        "i8" => whole("-128", "127"),
        "i16" => whole("-32768", "32767"),
        "i32" => whole("-2147483648", "2147483647"),
        "i64" | "i128" | "isize" => "a whole number".to_owned(),
        "f32" | "f64" => "a number".to_owned(),
        "a boolean" => "true or false".to_owned(),
        "a string" | "a borrowed string" | "string" => "text in double quotes".to_owned(),
        "a character" | "char" => "a single character".to_owned(),
        "a sequence" | "a set" => "a list".to_owned(),
        "a map" => "an object".to_owned(),
        "unit" => "null".to_owned(),
        "option" => "a value or null".to_owned(),
        "variant identifier" | "field identifier" => "a name in double quotes".to_owned(),
        e if e.starts_with("struct ") || e.starts_with("internally tagged enum") => {
            "an object".to_owned()
        }
        e if e.starts_with("enum ") || e.starts_with("adjacently tagged enum") => {
            "one of the accepted names".to_owned()
        }
        e if e.starts_with("a tuple of size ") => {
            format!("a list of {} items", &e["a tuple of size ".len()..])
        }
        e if e.starts_with("tuple struct") || e.starts_with("a tuple") => "a list".to_owned(),
        e if e.starts_with("one of ") || e.starts_with('`') => choices(&format!(", expected {e}")),
        // A type's own description ("an RFC 3339 date and time", "1 to 8").
        e => e.to_owned(),
    }
}

/// serde's "got" part (`Unexpected`) in words.
fn got_words(got: &str) -> String {
    if let Some(text) = got.strip_prefix("string ") {
        return format!("the text {text}");
    }
    for prefix in ["integer `", "floating point `"] {
        if let Some(number) = got.strip_prefix(prefix) {
            return format!("the number {}", number.trim_end_matches('`'));
        }
    }
    if let Some(value) = got.strip_prefix("boolean `") {
        return value.trim_end_matches('`').to_owned();
    }
    if let Some(value) = got.strip_prefix("character `") {
        return format!("the character {}", value.trim_end_matches('`'));
    }
    match got {
        "null" | "unit value" => "null".to_owned(),
        "sequence" => "a list".to_owned(),
        "map" => "an object".to_owned(),
        "Option value" | "newtype struct" | "newtype variant" | "unit variant"
        | "tuple variant" | "struct variant" | "enum" => "a value of another kind".to_owned(),
        other => other.to_owned(),
    }
}

/// "`, expected one of `a`, `b`, `c`" (or "expected `a` or `b`") as "one of: a, b, c".
fn choices(rest: &str) -> String {
    let names: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    match names.as_slice() {
        [] => "an accepted name".to_owned(),
        [one] => format!("\"{one}\""),
        many => format!("one of: {}", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_texts_read_as_plain_words() {
        let cases = [
            (
                "invalid type: string \"x\", expected u8 at line 1 column 5",
                "must be a whole number from 0 to 255, not the text \"x\"",
            ),
            (
                "invalid value: integer `-1`, expected u32",
                "must be a whole number from 0 to 4294967295, not the number -1",
            ),
            (
                "invalid type: map, expected a sequence",
                "must be a list, not an object",
            ),
            (
                "invalid type: integer `3`, expected struct Unit",
                "must be an object, not the number 3",
            ),
            (
                "invalid type: null, expected a string",
                "must be text in double quotes, not null",
            ),
            (
                "unknown variant `elite`, expected one of `green`, `regular`, `veteran`",
                "must be one of: green, regular, veteran, not \"elite\"",
            ),
            (
                "unknown variant `x`, expected `basic` or `advanced`",
                "must be one of: basic, advanced, not \"x\"",
            ),
            ("missing field `name`", "is required; add it"),
            (
                "invalid length 3, expected a tuple of size 2",
                "must be a list of 2 items, not a list of 3 item(s)",
            ),
        ];
        for (raw, plain) in cases {
            assert_eq!(data_message(raw), plain, "{raw}");
        }
    }

    #[test]
    fn syntax_errors_say_where_and_what_to_do() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\":").unwrap_err();
        assert_eq!(
            syntax_message(&err),
            "Malformed JSON: it ends too early (a closing quote, bracket or brace is missing) (line 1, column 5). Send one complete JSON document."
        );
        let err = serde_json::from_str::<serde_json::Value>("{a:1}").unwrap_err();
        assert!(
            syntax_message(&err).contains("an object key is not in double quotes"),
            "{}",
            syntax_message(&err)
        );
    }
}
