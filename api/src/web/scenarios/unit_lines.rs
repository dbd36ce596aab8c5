//! The generator page's quick unit list: one unit a line, typed on a phone at the table.
//!
//! A line is `name, kind` followed by any of a quality, a resolve, traits and a strength (a
//! number of figures), in any order, separated by commas: `Alpha Squad, squad, elite, steady, 8`
//! or `Sniper, sniper, infiltration`. Names and values are the rules' vocabulary, matched as the
//! JSON API matches them (case-insensitive, spaces or dashes for `_`). Blank lines are skipped.

use fad_domain::ladder::{Quality, Resolve};
use fad_domain::names::Named;
use fad_domain::roster::UnitKind;
use fad_domain::traits::Trait;

use crate::app::scenario_request::{InlineUnit, MAX_INLINE_UNITS};

/// Parsed units, with the line each came from (1-based) so later errors can name it.
#[derive(Debug, Default, PartialEq)]
pub struct UnitLines {
    /// The units in order.
    pub units: Vec<InlineUnit>,
    /// `lines[i]` is the line number of `units[i]`.
    pub lines: Vec<usize>,
}

/// Parses the text; every problem, each naming its line.
pub fn parse(text: &str) -> Result<UnitLines, Vec<String>> {
    let mut out = UnitLines::default();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(unit) => {
                out.units.push(unit);
                out.lines.push(n);
            }
            Err(problem) => problems.push(format!("line {n}: {problem}")),
        }
    }
    if out.units.len() > MAX_INLINE_UNITS {
        problems.push(format!("at most {MAX_INLINE_UNITS} units"));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

fn parse_line(line: &str) -> Result<InlineUnit, String> {
    let mut parts = line.split(',').map(str::trim);
    let name = parts.next().unwrap_or_default();
    if name.is_empty() {
        return Err("start with the unit's name".to_owned());
    }
    let Some(kind) = parts.next().filter(|k| !k.is_empty()) else {
        return Err(format!(
            "give the kind after the name and a comma (one of: {})",
            names::<UnitKind>()
        ));
    };
    let kind = UnitKind::parse(kind).map_err(|e| e.to_string())?;
    let mut unit = InlineUnit {
        name: name.to_owned(),
        kind,
        resolve: None,
        quality: None,
        strength: None,
        traits: Vec::new(),
    };
    for part in parts.filter(|p| !p.is_empty()) {
        if let Ok(figures) = part.parse::<u32>() {
            unit.strength = Some(figures);
        } else if let Ok(quality) = Quality::parse(part) {
            unit.quality = Some(quality);
        } else if let Ok(resolve) = Resolve::parse(part) {
            unit.resolve = Some(resolve);
        } else if let Ok(t) = Trait::parse(part) {
            unit.traits.push(t);
        } else {
            return Err(format!(
                "`{part}` is not a number of figures, a quality ({}), a resolve ({}) or a trait",
                names::<Quality>(),
                names::<Resolve>()
            ));
        }
    }
    Ok(unit)
}

/// The canonical names of a vocabulary, for messages and hints.
pub fn names<T: Named>() -> String {
    T::ALL
        .iter()
        .map(|v| v.name().replace('_', " "))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_takes_its_extras_in_any_order() {
        let parsed =
            parse("Alpha Squad, squad, elite, steady, 8\n\n  Bravo, Weapons Team, 3, reluctant \n")
                .unwrap();
        assert_eq!(parsed.lines, vec![1, 3]);
        let [alpha, bravo] = &parsed.units[..] else {
            panic!("two units: {parsed:?}");
        };
        assert_eq!(alpha.name, "Alpha Squad");
        assert_eq!(alpha.kind, UnitKind::Squad);
        assert_eq!(alpha.quality, Some(Quality::Elite));
        assert_eq!(alpha.resolve, Some(Resolve::Steady));
        assert_eq!(alpha.strength, Some(8));
        assert_eq!(bravo.kind, UnitKind::WeaponsTeam);
        assert_eq!(bravo.strength, Some(3));
        assert_eq!(bravo.resolve, Some(Resolve::Reluctant));
        assert_eq!(bravo.quality, None);
    }

    #[test]
    fn every_bad_line_is_named() {
        let problems = parse("Alpha\nBravo, tank\nCharlie, squad, wobbly").unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("line 1: give the kind"),
            "{problems:?}"
        );
        assert!(
            problems[1].starts_with("line 2: `tank` is not a unit"),
            "{problems:?}"
        );
        assert!(
            problems[2].starts_with("line 3: `wobbly` is not"),
            "{problems:?}"
        );
    }
}
