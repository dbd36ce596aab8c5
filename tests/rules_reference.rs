//! The rules reference the project owns: `docs/rules.md`, served as `/rules`. Every rule id the
//! code cites (`C9`, `S11`, `F3`, `§3.10`) must have an anchor there, so a citation in a
//! message, a sheet or the OpenAPI text always leads somewhere.

use crate::common::*;
use std::collections::BTreeSet;
use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The anchors (`<a id="…">`) of docs/rules.md.
pub(crate) fn anchors() -> BTreeSet<String> {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/rules.md")).unwrap();
    text.split("<a id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// Rule ids cited in `text`: `C`, `S` or `F` and one or two digits as a whole word, and `§`
/// with a section number (anchored without the `§`).
pub(crate) fn cited_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let chars: Vec<char> = text.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    for (i, &c) in chars.iter().enumerate() {
        let starts_word = i == 0 || !is_word(chars[i - 1]);
        if matches!(c, 'C' | 'S' | 'F') && starts_word {
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .collect();
            let end = i + 1 + digits.len();
            let ends_word = chars.get(end).is_none_or(|&n| !is_word(n));
            if (1..=2).contains(&digits.len()) && ends_word {
                ids.insert(format!("{c}{digits}"));
            }
        }
        if c == '§' {
            let number: String = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit() || **d == '.')
                .collect();
            let number = number.trim_end_matches('.');
            if !number.is_empty() {
                ids.insert(number.to_owned());
            }
        }
    }
    ids
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rule_id_the_code_cites_has_an_anchor_in_the_rules_reference() {
    // Arrange
    let anchors = anchors();
    let mut files = Vec::new();
    for dir in ["api/src", "domain/src"] {
        rust_files(&Path::new(ROOT).join(dir), &mut files);
    }
    // Act
    let mut missing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for id in cited_ids(&text) {
            if !anchors.contains(&id) {
                missing.push(format!("{id} in {}", file.display()));
            }
        }
    }
    // Assert
    assert!(
        anchors.len() > 100,
        "docs/rules.md has only {} anchors",
        anchors.len()
    );
    assert!(
        missing.is_empty(),
        "rule ids cited without an anchor in docs/rules.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn cited_ids_finds_rule_ids_and_sections_only() {
    let ids = cited_ids("see C9, S11 and §3.10. Not ACC1, C123, F1x or S; also §2.");
    let expected: BTreeSet<String> = ["C9", "S11", "3.10", "2"].map(str::to_owned).into();
    assert_eq!(ids, expected);
}

#[test]
fn rules_page_serves_the_reference_with_an_anchor_per_id_and_revalidates() {
    // Arrange
    let app = TestApp::spawn(Backend::Sqlite);
    // Act
    let response = app.get("/rules");
    // Assert
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(headers.contains_key("content-security-policy"));
    let etag = headers["etag"].to_str().unwrap().to_owned();
    let page = response.text().unwrap();
    assert_eq!(page.matches("<h1").count(), 1, "one h1");
    assert!(page.contains("<main>"));
    for id in anchors() {
        assert!(
            page.contains(&format!("id=\"{id}\"")),
            "anchor {id} on /rules"
        );
    }
    assert!(page.contains("<table>"), "tables are rendered as tables");
    let again = app
        .request(reqwest::Method::GET, "/rules")
        .header("if-none-match", &etag)
        .send()
        .unwrap();
    assert_eq!(again.status(), 304);
}
