//! The sheet's SVG map of the table (docs/rules.md §3.4, S7; S000 › SCENARIO GENERATION): the two
//! player edges, each side's deployment zone by stance, the three equal depth thirds (S7), the
//! six objective markers in their sectors (those a visible mission needs ringed), and each
//! side's field defences drawn in its deployment zone.
//!
//! The table is 4'×4' for a platoon and "wider for larger forces" (§3 overview): the sheet adds
//! 2' of width per extra platoon of the larger force, up to 8'. Side 1 deploys from the south
//! (bottom) edge and side 2 from the north; the players choose the real edges at the table.

use fad_domain::scenario::ScenarioView;
use fad_domain::scenario::objectives::Sector;
use maud::{Markup, html};

/// Table depth in inches (4').
pub const DEPTH: u32 = 48;
/// SVG units per inch.
const SCALE: u32 = 10;

/// Table width in inches for the larger force's platoon count P.
pub fn table_width(platoons: u32) -> u32 {
    (48 + 24 * platoons.max(1).saturating_sub(1)).min(96)
}

const SIDE_COLOURS: [&str; 2] = ["#c0392b", "#1f5fa8"];

/// Draws the map.
/// A distance as the sheet prints it: FAD 5e's inches, or for a one-page skirmish battle the
/// same distance × 5/6 in cm (docs/rules.md O8).
pub fn distance(inches: u32, metric: bool) -> String {
    if metric {
        format!(
            "{} cm",
            fad_domain::rulesets::one_page_skirmish::scaled_cm(inches)
        )
    } else {
        format!("{inches}\"")
    }
}

/// Draws the map; `metric` prints its distances in cm (docs/rules.md O8).
pub fn render(view: &ScenarioView, names: &[String; 2], platoons: u32, metric: bool) -> Markup {
    let w = table_width(platoons) * SCALE;
    let d = DEPTH * SCALE;
    let third = d / 3;
    let margin = 40;
    let vb = format!("-{margin} -{margin} {} {}", w + 2 * margin, d + 2 * margin);
    let zone = |i: usize| -> u32 {
        view.sides
            .get(i)
            .and_then(|s| s.deployment_zone_inches)
            .unwrap_or(0)
            .min(DEPTH / 2)
            * SCALE
    };
    let defences = |i: usize| -> u32 {
        view.sides
            .get(i)
            .and_then(|s| s.field_defences.as_ref())
            .map_or(0, |f| f.max_field_defences)
    };
    let markers = |i: usize| -> u32 {
        view.sides.get(i).map_or(0, |s| {
            s.contact_markers
                .map(|m| m.total())
                .or(s.contact_marker_total)
                .unwrap_or(0)
        })
    };
    // Objectives: in side 1's sector, spread across the width in placement order.
    let side0 = view
        .sides
        .first()
        .map(|s| s.force_id.clone())
        .unwrap_or_default();
    let objectives: Vec<(u32, u32, String, bool)> = view
        .objectives
        .iter()
        .map(|o| {
            let row = match o.sector.get(&side0) {
                Some(Sector::Near) => 2,
                Some(Sector::Middle) => 1,
                _ => 0,
            };
            let placed_by_first = o.placed_by == side0;
            // Each side places one marker per third, so a column per placer never collides.
            let x = if placed_by_first { w / 4 } else { 3 * w / 4 };
            let y = row * third + third / 2;
            (x, y, o.id.clone(), !o.needed_by.is_empty())
        })
        .collect();
    html! {
        svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox=(vb) role="img"
            aria-label={ "Table map, " (distance(w / SCALE, metric)) " by " (distance(d / SCALE, metric)) } {
            title { "Table map: " (w / SCALE / 12) "' × " (d / SCALE / 12) "'" }
            rect x="0" y="0" width=(w) height=(d) fill="#f4f1e8" stroke="#333" stroke-width="3" {}
            // Deployment zones: side 1 at the south edge, side 2 at the north.
            @if zone(0) > 0 {
                rect class="zone" x="0" y=(d - zone(0)) width=(w) height=(zone(0))
                    fill=(SIDE_COLOURS[0]) fill-opacity="0.15" stroke=(SIDE_COLOURS[0]) stroke-dasharray="8 4" {}
                text x="8" y=(d - zone(0) + 22) font-size="18" fill=(SIDE_COLOURS[0]) {
                    (names[0]) " deployment zone " (distance(zone(0) / SCALE, metric))
                }
            }
            @if zone(1) > 0 {
                rect class="zone" x="0" y="0" width=(w) height=(zone(1))
                    fill=(SIDE_COLOURS[1]) fill-opacity="0.15" stroke=(SIDE_COLOURS[1]) stroke-dasharray="8 4" {}
                text x="8" y=(zone(1) - 8) font-size="18" fill=(SIDE_COLOURS[1]) {
                    (names[1]) " deployment zone " (distance(zone(1) / SCALE, metric))
                }
            }
            // The three equal thirds (S7), named from side 1's edge.
            line x1="0" y1=(third) x2=(w) y2=(third) stroke="#777" stroke-dasharray="4 6" {}
            line x1="0" y1=(2 * third) x2=(w) y2=(2 * third) stroke="#777" stroke-dasharray="4 6" {}
            @for (k, label) in ["far / near", "middle", "near / far"].iter().enumerate() {
                text x=(w - 8) y=(k as u32 * third + third / 2) font-size="16" fill="#555" text-anchor="end" {
                    (label)
                }
            }
            // Field defences: a row of trench sections inside each zone.
            @for i in 0..2usize {
                @for n in 0..defences(i) {
                    @let x = w / 2 - (defences(i) * 50) / 2 + n * 50;
                    @let y = if i == 0 { d - zone(0).max(60) / 2 } else { zone(1).max(60) / 2 };
                    rect class="defence" x=(x) y=(y - 5) width="40" height="10" fill="#6b4f2a" {}
                }
            }
            // Contact markers, numbered as the battle page's recon forms pick them: a row of
            // squares along each side's own edge, to copy onto the tokens.
            @for i in 0..2usize {
                @for (x, y, n) in marker_slots(markers(i), w, d, i) {
                    rect class="marker" x=(x - 14) y=(y - 14) width="28" height="28" fill="#fff" stroke=(SIDE_COLOURS[i]) stroke-width="3" {}
                    text x=(x) y=(y + 6) font-size="16" text-anchor="middle" fill=(SIDE_COLOURS[i]) { (n) }
                }
            }
            // Objectives.
            @for (x, y, id, needed) in &objectives {
                circle class="objective" cx=(x) cy=(y) r="16" fill="#fff" stroke="#222" stroke-width=(if *needed { 5 } else { 2 }) {}
                text x=(x) y=(y + 6) font-size="16" text-anchor="middle" { (id.trim_start_matches('o')) }
            }
            // Edges.
            text x=(w / 2) y=(d + 30) font-size="20" text-anchor="middle" fill=(SIDE_COLOURS[0]) { (names[0]) " edge" }
            text x=(w / 2) y="-14" font-size="20" text-anchor="middle" fill=(SIDE_COLOURS[1]) { (names[1]) " edge" }
        }
    }
}

/// Where side `side`'s numbered markers go: rows of squares 36 units apart in the right half
/// of its own edge (side 1 the south, side 2 the north; the zone's label takes the left), the
/// next row further in.
fn marker_slots(count: u32, w: u32, d: u32, side: usize) -> Vec<(u32, u32, u32)> {
    let per_row = ((w / 2).saturating_sub(20) / 36).max(1);
    (0..count.min(60))
        .map(|k| {
            let (row, col) = (k / per_row, k % per_row);
            let x = w - 34 - (per_row - 1 - col) * 36;
            let y = if side == 0 {
                d - 24 - row * 36
            } else {
                24 + row * 36
            };
            (x, y, k + 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_numbered_from_one_along_each_edge() {
        // A 4' table (480 units) holds 6 a row in its right half.
        let south = marker_slots(3, 480, 480, 0);
        assert_eq!(south, [(266, 456, 1), (302, 456, 2), (338, 456, 3)]);
        let north = marker_slots(2, 480, 480, 1);
        assert_eq!(north, [(266, 24, 1), (302, 24, 2)]);
        let many = marker_slots(7, 480, 480, 0);
        assert_eq!(many[5], (446, 456, 6));
        assert_eq!(
            many[6],
            (266, 420, 7),
            "the 7th starts the next row further in"
        );
    }
}
