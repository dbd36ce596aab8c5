//! Who won, in words, for lists and the story: "Alpha Company (Ann) won" or "Draw", by the
//! sides' names and owners, never an id.

/// The outcome of a result in words. `outcome` is `win` or `draw`; `winner_force_id` the
/// winning force (absent when the non-player side won); `sides` each side's force id (absent
/// for a non-player side) with its label ("Alpha Company (Ann)").
pub fn who_won(
    outcome: &str,
    winner_force_id: Option<&str>,
    sides: &[(Option<String>, String)],
) -> String {
    if outcome == "draw" {
        return "Draw".to_owned();
    }
    let winner = sides
        .iter()
        .find(|(force, _)| force.as_deref() == winner_force_id)
        .map_or("The winning side", |(_, label)| label.as_str());
    format!("{winner} won")
}

/// A side's label: the force's name with its owner's, when known.
pub fn side_label(force_name: &str, owner_name: Option<&str>) -> String {
    match owner_name {
        Some(owner) if !owner.is_empty() => format!("{force_name} ({owner})"),
        _ => force_name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_winner_or_a_draw() {
        let sides = vec![
            (Some("f1".to_owned()), "Alpha (Ann)".to_owned()),
            (None, "Raiders".to_owned()),
        ];
        assert_eq!(who_won("win", Some("f1"), &sides), "Alpha (Ann) won");
        assert_eq!(who_won("win", None, &sides), "Raiders won");
        assert_eq!(who_won("draw", None, &sides), "Draw");
    }
}
