//! Forms with nested names in serde_qs's bracket notation (`platoons[0][units][2][name]`,
//! `losses[1][figures_lost]`): read into typed records by serde_qs, and the request paths the
//! application layer names problems by (`losses[1].figures_lost`) turned into those names, so
//! each problem shows beside its control.

use serde::de::DeserializeOwned;

/// A form whose names do not nest (`platoons[0]` given both as a value and as a record, an
/// index that is not a number): the form comes back with this sentence, nothing is guessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableForm;

impl UnreadableForm {
    /// The sentence the form shows.
    pub const MESSAGE: &str = "The form could not be read; reload the page and try again.";
}

/// Nesting deep enough for every form here (platoons → i → units → j → vehicle → crew).
const MAX_DEPTH: usize = 6;

fn config() -> serde_qs::Config {
    serde_qs::Config::new()
        .max_depth(MAX_DEPTH)
        .use_form_encoding(true)
}

/// Reads an `application/x-www-form-urlencoded` body.
pub fn read_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, UnreadableForm> {
    config().deserialize_bytes(body).map_err(|_| UnreadableForm)
}

/// Reads a form already taken apart into its pairs (by actix's `Form` extractor).
pub fn read_pairs<T: DeserializeOwned>(pairs: &[(String, String)]) -> Result<T, UnreadableForm> {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    read_body(body.as_bytes())
}

/// The form name of the field a request path names:
/// `platoons[0].units[1].traits[2]` → `platoons[0][units][1][traits][2]`.
pub fn form_name(request_path: &str) -> String {
    let mut segments = request_path.split('.');
    let mut name = segments.next().unwrap_or_default().to_owned();
    for segment in segments {
        let (head, indices) = segment.split_at(segment.find('[').unwrap_or(segment.len()));
        name.push_str(&format!("[{head}]{indices}"));
    }
    name
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Loss {
        unit_id: String,
        #[serde(default)]
        figures_lost: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Losses {
        #[serde(default)]
        losses: BTreeMap<usize, Loss>,
    }

    #[test]
    fn pairs_nest_by_their_brackets_in_index_order() {
        let pairs = [
            ("losses[10][unit_id]", "c"),
            ("losses[2][unit_id]", "b"),
            ("losses[2][figures_lost]", "3"),
            ("csrf_token", "ignored"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let read: Losses = read_pairs(&pairs).unwrap();
        let ids: Vec<(usize, &str, &str)> = read
            .losses
            .iter()
            .map(|(i, l)| (*i, l.unit_id.as_str(), l.figures_lost.as_str()))
            .collect();
        assert_eq!(ids, [(2, "b", "3"), (10, "c", "")]);
    }

    #[test]
    fn names_that_do_not_nest_are_refused() {
        for body in [
            "losses=1&losses%5B0%5D%5Bunit_id%5D=a",
            "losses%5Bx%5D%5Bunit_id%5D=a",
        ] {
            assert_eq!(
                read_body::<Losses>(body.as_bytes()).err(),
                Some(UnreadableForm),
                "{body}"
            );
        }
    }

    #[test]
    fn a_request_path_reads_as_the_form_name_of_its_field() {
        assert_eq!(form_name("name"), "name");
        assert_eq!(form_name("platoons[1]"), "platoons[1]");
        assert_eq!(
            form_name("losses[1].figures_lost"),
            "losses[1][figures_lost]"
        );
        assert_eq!(
            form_name("platoons[0].units[1].traits[2]"),
            "platoons[0][units][1][traits][2]"
        );
        assert_eq!(
            form_name("platoons[0].units[2].vehicle.crew"),
            "platoons[0][units][2][vehicle][crew]"
        );
    }
}
