//! The FMA playtest draft (`003_1ae2e150fc991b15.txt`) reserves all rights and asks not to be put
//! on a website (docs/rules.md M12): no run of 8 consecutive words of it may appear in what the
//! service serves. The seed's 8-word shingles are stored hashed (first 16 hex digits of SHA-256
//! of the lower-cased words joined by one space), never as text.

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const RUN: usize = 8;

pub(crate) fn seed_shingles() -> BTreeSet<String> {
    std::fs::read_to_string(format!("{ROOT}/tests/golden/fma-seed-shingles.txt"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Words as the golden file counts them: runs of letters and digits, lower-cased.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

fn hash(run: &[String]) -> String {
    Sha256::digest(run.join(" ").as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The runs of `text` found among the seed's, as words (our own text, safe to print).
pub(crate) fn borrowed(text: &str, seed: &BTreeSet<String>) -> Vec<String> {
    words(text)
        .windows(RUN)
        .filter(|run| seed.contains(&hash(run)))
        .map(|run| run.join(" "))
        .collect()
}

#[test]
fn no_run_of_eight_seed_words_in_the_rules_the_openapi_document_or_the_ruleset() {
    let seed = seed_shingles();
    assert!(
        seed.len() > 9000,
        "the golden file holds {} shingles",
        seed.len()
    );
    let ruleset = fad_domain::rulesets::gzg_fma_1999::v1();
    let texts = [
        (
            "docs/rules.md (served at /rules)",
            std::fs::read_to_string(format!("{ROOT}/docs/rules.md")).unwrap(),
        ),
        (
            "openapi/openapi.json",
            std::fs::read_to_string(format!("{ROOT}/openapi/openapi.json")).unwrap(),
        ),
        (
            "the gzg-fma-1999 ruleset document",
            serde_json::to_string(&ruleset).unwrap(),
        ),
        (
            "its vocabulary",
            serde_json::to_string(&fad_domain::rulesets::ruleset_vocabulary(
                &ruleset,
                &ruleset.options,
            ))
            .unwrap(),
        ),
        (
            "its attribution",
            fad_domain::rulesets::gzg_fma_1999::ATTRIBUTION.to_owned(),
        ),
    ];
    for (name, text) in &texts {
        let found = borrowed(text, &seed);
        assert!(found.is_empty(), "{name} repeats the FMA draft: {found:?}");
    }
}

#[test]
fn the_shingle_hash_is_sha256_of_the_words_joined_by_a_space() {
    // Known SHA-256 of "abc"; words split on anything not a letter or digit.
    assert_eq!(hash(&["abc".to_owned()]), "ba7816bf8f01cfea");
    assert_eq!(words("A-b  C.d"), vec!["a", "b", "c", "d"]);
}
