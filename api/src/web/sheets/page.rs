//! The sheet's HTML: both sides' missions with their victory conditions and bonuses (docs/rules.md
//! §3.10, from [`fad_domain::scenario::missions::MISSION_DETAILS`]), recon points, contact
//! markers, recon duty, pre-battle events (§3.11), the narrative circumstances (§5) if rolled,
//! the map, and the roll log. Every value goes through maud's escaping.

use fad_domain::dice::Roll;
use fad_domain::narrative::Narrative;
use fad_domain::roster::Force;
use fad_domain::scenario::Scenario;
use fad_domain::scenario::missions::mission_detail;
use fad_domain::scenario::view::SideView;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Serialize;

use crate::routes::scenarios::ForceRef;
use crate::routes::scenarios::ScenarioDocument;
use fad_domain::scenario::Viewer;

use super::map;

/// Print-first CSS: A4 by default, margins and widths that also fit Letter.
const CSS: &str = r#"
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.35 Georgia, "DejaVu Serif", serif; color: #111; margin: 0 auto; max-width: 186mm; padding: 6mm; }
h1 { font-size: 17pt; margin: 0 0 2mm; } h2 { font-size: 13pt; margin: 4mm 0 2mm; border-bottom: 1px solid #999; }
h3 { font-size: 11pt; margin: 3mm 0 1mm; }
.meta { color: #555; font-size: 9pt; }
.banner { border: 2px solid #8a1c1c; padding: 2mm; font-weight: bold; margin: 2mm 0; }
.sides { display: flex; gap: 4mm; } .side { flex: 1 1 0; min-width: 0; border: 1px solid #bbb; padding: 2mm 3mm; }
table { border-collapse: collapse; width: 100%; font-size: 9.5pt; } td, th { border: 1px solid #ccc; padding: 0.6mm 1.5mm; text-align: left; vertical-align: top; }
th { background: #eee; } .map { width: 100%; max-height: 120mm; display: block; margin: 2mm auto; }
.side-0 h3 { color: #c0392b; } .side-1 h3 { color: #1f5fa8; }
.rolls { font-size: 8pt; } .rolls td { padding: 0.3mm 1mm; }
section { break-inside: avoid; page-break-inside: avoid; }
h1, h2, h3 { break-after: avoid; page-break-after: avoid; } .side { break-inside: avoid; page-break-inside: avoid; }
@media print { body { padding: 0; max-width: none; } .rolls-section { break-before: page; } }
.panel { font: 11pt/1.4 system-ui, sans-serif; border: 1px solid #999; padding: 2mm 3mm; margin: 2mm 0 4mm; overflow-wrap: anywhere; }
.panel p { margin: 1mm 0; } .panel a, .panel button { min-height: 44px; display: inline-flex; align-items: center; }
.panel button { font: inherit; padding: 0 4mm; cursor: pointer; } .panel form { display: inline; }
#solo form { display: block; } #solo .field { margin: 2mm 0; } #solo label { display: block; font-weight: 600; }
#solo input:not([type=checkbox]), #solo select { min-height: 44px; font: inherit; box-sizing: border-box; width: 100%; max-width: 24rem; }
#solo .check { display: flex; align-items: center; gap: 2mm; min-height: 44px; } #solo .check label { display: inline; font-weight: 400; }
#solo input[type=checkbox] { width: 22px; height: 22px; } #solo fieldset { margin: 2mm 0; } #solo ol.entries { list-style: none; padding: 0; }
#solo details > summary { min-height: 44px; display: flex; align-items: center; cursor: pointer; list-style: none; }
#solo details > summary::-webkit-details-marker { display: none; }
#solo details > summary::before { content: "\25B8"; display: inline-block; width: 1.2em; } #solo details[open] > summary::before { content: "\25BE"; }
#solo .error { color: #a00; display: block; }
@media print { .panel { display: none; } }
@media screen and (max-width: 40rem) { body { padding: 3mm; } .sides { flex-direction: column; } table { table-layout: fixed; } td, th { overflow-wrap: anywhere; } }
"#;

/// Snake-case enum values as words (`escalating_engagement` → `escalating engagement`).
fn label<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s.replace('_', " "),
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

fn unit_name(force: &Force, id: &str) -> String {
    force.unit(id).map_or_else(|| words(id), |u| u.name.clone())
}

/// A rules key in words (`not_prepared` → `not prepared`).
fn words(key: &str) -> String {
    key.replace('_', " ")
}

/// An objective as the map labels it: `o3` → `Objective 3`.
pub fn objective_name(id: &str) -> String {
    match id.strip_prefix('o') {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            format!("Objective {n}")
        }
        _ => format!("Objective {id}"),
    }
}

fn side_section(
    i: usize,
    side: &SideView,
    force_ref: Option<&ForceRef>,
    force: &Force,
    metric: bool,
) -> Markup {
    let name = force_ref.map_or(side.force_id.as_str(), |f| f.name.as_str());
    html! {
        section class={ "side side-" (i) } {
            h3 { (name) @if side.non_player { " (non-player force)" } }
            table {
                tr { th { "Stance" } td { (side.stance.as_ref().map(label).unwrap_or_default()) } }
                tr { th { "Attitude" } td { (side.attitude.as_ref().map(label).unwrap_or_default()) } }
                tr { th { "Recon points" } td { (side.recon_points.map(|r| r.to_string()).unwrap_or_default()) } }
                @if let Some(roll) = &side.table_edge_roll {
                    tr { th { "Table-edge roll" } td { (roll.total) " (d" "6: " (roll.die) ")" } }
                }
                tr { th { "Deployment zone" } td { (side.deployment_zone_inches.map(|z| map::distance(z, metric)).unwrap_or_default()) } }
                @if let Some(fd) = &side.field_defences {
                    tr { th { "Field defences" } td {
                        (fd.max_field_defences)
                        @if fd.max_field_defences > 0 { " (or " (fd.sets.len()) " Light Bunker(s))" }
                    } }
                }
                @if let Some(calls) = side.artillery_calls { tr { th { "Artillery calls" } td { (calls) } } }
                @if let Some(n) = side.under_fire_ignores { tr { th { "Under Fire ignored" } td { (n) } } }
                @if let Some(m) = &side.contact_markers {
                    tr { th { "Contact markers" } td { (m.true_markers) " true, " (m.dummy) " dummy" } }
                }
                @if let Some(n) = side.night_fighting_roll {
                    tr { th { "Night fighting" } td { "+" (n) " dummy markers (d6)" } }
                }
                @if let Some(b) = &side.mission_bonuses {
                    @if !b.is_empty() {
                        tr { th { "+1 bonuses" } td { (b.iter().map(label).collect::<Vec<_>>().join(", ")) } }
                    }
                }
            }
            @if let Some(mission) = side.mission {
                @let detail = mission_detail(mission);
                h3 { "Mission: " (label(&mission)) }
                p { strong { "Objective. " } (detail.objective) }
                @if let Some(target) = &side.assault_target { p { strong { "Target. " } (objective_name(target)) } }
                p { strong { "Victory. " } (detail.victory) }
                @if let Some(bonus) = &side.bonus {
                    p { strong { "Bonus. " }
                        @if !bonus.traits.is_empty() { (bonus.traits.iter().map(label).collect::<Vec<_>>().join(" + ")) " " }
                        @if bonus.field_defences > 0 { (bonus.field_defences) " field defences (or 1 Light Bunker) " }
                        @if bonus.artillery_calls > 0 { (bonus.artillery_calls) " off-board artillery call(s) " }
                        @if bonus.sniper { "a bonus sniper team" }
                    }
                }
                @if let Some(traits) = &side.bonus_traits {
                    @for t in traits {
                        @if let Some(unit) = &t.unit_id { p class="meta" { (label(&t.trait_)) " → " (t.unit_name.clone().unwrap_or_else(|| unit_name(force, unit))) } }
                    }
                }
                @if let Some(tied) = &side.tied_missions {
                    @if tied.len() > 1 { p class="meta" { "Tied top missions: " (tied.iter().map(label).collect::<Vec<_>>().join(", ")) } }
                }
            }
            @if let Some(totals) = &side.mission_totals {
                p class="meta" { "Mission totals: "
                    @for (k, (m, t)) in totals.iter().enumerate() {
                        @if k > 0 { ", " }
                        @if Some(*m) == side.mission || side.tied_missions.as_ref().is_some_and(|tied| tied.contains(m)) {
                            strong { (label(m)) " " (t) }
                        } @else { (label(m)) " " (t) }
                    }
                }
            }
            @if let Some(duty) = &side.recon_duty {
                @if !duty.is_empty() {
                    h3 { "Recon duty" }
                    ul { @for r in duty { li { (unit_name(force, &r.unit_id)) ": " (label(&r.outcome)) } } }
                }
            }
            @if let Some(events) = &side.pre_battle_events {
                h3 { "Pre-battle events" }
                @if events.is_empty() { p class="meta" { "None." } }
                ul { @for e in events {
                    li { strong { (unit_name(force, &e.unit_id)) ": " (words(&e.event)) } " — " (e.effect)
                        @if e.no_effect { " (no effect)" } }
                } }
            }
        }
    }
}

/// Renders the whole sheet of a one-shot scenario (its creator sees everything).
pub fn render(id: &str, created: &str, doc: &ScenarioDocument) -> String {
    render_with_panel(id, created, doc, None)
}

/// [`render`] for a share link: the same sheet, labelled without the scenario's id.
pub fn render_shared(created: &str, doc: &ScenarioDocument) -> String {
    render_sheet_with(
        &Sheet {
            label: "a shared scenario".to_owned(),
            created,
            scenario: &doc.scenario,
            viewer: Viewer::Everything,
            forces: &doc.forces,
            narrative: doc.narrative.as_ref(),
            rolls: &doc.rolls,
            seen_by: None,
        },
        None,
    )
}

/// Side `side`'s own sheet of a one-shot scenario: its secrets, and of the other side only
/// what the rules reveal.
pub fn render_side(created: &str, doc: &ScenarioDocument, side: usize) -> String {
    let name = doc
        .forces
        .get(side)
        .map_or_else(|| format!("Side {}", side + 1), |f| f.name.clone());
    render_sheet(&Sheet {
        label: "a one-shot scenario".to_owned(),
        created,
        scenario: &doc.scenario,
        viewer: Viewer::Side(side),
        forces: &doc.forces,
        narrative: doc.narrative.as_ref(),
        rolls: &doc.rolls,
        seen_by: Some(name),
    })
}

/// [`render`], with a screen-only `panel` (links and actions, never printed) under the title.
pub fn render_with_panel(
    _id: &str,
    created: &str,
    doc: &ScenarioDocument,
    panel: Option<Markup>,
) -> String {
    render_sheet_with(
        &Sheet {
            // The id is in the address; people read the sheet, not its key.
            label: "a one-shot scenario".to_owned(),
            created,
            scenario: &doc.scenario,
            viewer: Viewer::Everything,
            forces: &doc.forces,
            narrative: doc.narrative.as_ref(),
            rolls: &doc.rolls,
            seen_by: None,
        },
        panel,
    )
}

/// What a sheet shows, and to whom.
pub struct Sheet<'a> {
    /// What the sheet is of, for the meta line (`scenario <id>`, `battle <id>`).
    pub label: String,
    /// When it was generated or last changed, as text.
    pub created: &'a str,
    /// The machine state.
    pub scenario: &'a Scenario,
    /// Who looks: only what the rules reveal to it is shown ([`Scenario::view_for`]).
    pub viewer: Viewer,
    /// The sides' forces.
    pub forces: &'a [ForceRef],
    /// The narrative, if rolled.
    pub narrative: Option<&'a Narrative>,
    /// The roll log (filtered for the viewer here).
    pub rolls: &'a [Roll],
    /// The side the sheet is printed for, named in the heading.
    pub seen_by: Option<String>,
}

/// Renders a sheet as `sheet.viewer` may see it.
pub fn render_sheet(sheet: &Sheet<'_>) -> String {
    render_sheet_with(sheet, None)
}

/// [`render_sheet`] with a screen-only `panel` under the title.
pub fn render_sheet_with(sheet: &Sheet<'_>, panel: Option<Markup>) -> String {
    let view = sheet.scenario.view_for(sheet.viewer);
    let rolls = sheet.scenario.visible_rolls(sheet.rolls, sheet.viewer);
    let created = sheet.created;
    let id = &sheet.label;
    let names: [String; 2] = [0, 1].map(|i| {
        sheet
            .forces
            .get(i)
            .map_or_else(|| format!("Side {}", i + 1), |f| f.name.clone())
    });
    let name_of = |force_id: &str| {
        sheet
            .forces
            .iter()
            .find(|f| f.force_id == force_id)
            .map_or_else(|| force_id.to_owned(), |f| f.name.clone())
    };
    // A roll's subject is a unit, a force or a rules word (a mission): never shown as a key.
    let subject_name = |subject: &str| {
        sheet
            .scenario
            .sides
            .iter()
            .find_map(|s| s.force.unit(subject).map(|u| u.name.clone()))
            .or_else(|| {
                sheet
                    .forces
                    .iter()
                    .find(|f| f.force_id == subject)
                    .map(|f| f.name.clone())
            })
            .unwrap_or_else(|| words(subject))
    };
    let platoons = sheet
        .scenario
        .sides
        .iter()
        .map(|s| s.force.platoon_count())
        .max()
        .unwrap_or(1);
    let title = format!("{} vs {}", names[0], names[1]);
    // A battle of one-page skirmish forces is played in cm (docs/rules.md O8).
    let metric = sheet
        .scenario
        .sides
        .iter()
        .any(|s| s.force.units().any(|u| u.one_page.is_some()));
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Scenario: " (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                main {
                h1 { "Scenario: " (title) }
                @if let Some(panel) = panel { div class="panel" { (panel) } }
                @if let Some(side) = &sheet.seen_by { p class="banner" { "Sheet for " (side) ": the other side is shown only as far as the rules have revealed it." } }
                p class="meta" { "Generated " (created) " · " (id) " · table "
                    @if metric { (map::distance(map::table_width(platoons), true)) "×" (map::distance(map::DEPTH, true)) }
                    @else { (map::table_width(platoons) / 12) "'×" (map::DEPTH / 12) "'" } }
                @if view.night_fighting {
                    p class="banner" { "Night fighting: each side adds 1d6 dummy contact markers (docs/rules.md §3.6)." }
                }
                @if view.escalating_engagement {
                    p class="banner" { "Escalating Engagement: both sides rolled the same mission. Orders are cancelled; recon forces have collided (docs/rules.md §3.10, S19)." }
                }
                section {
                    (map::render(&view, &names, platoons, metric))
                    table {
                        @if let Some(c) = &view.table_edge_chooser { tr { th { "Chooses the table edge" } td { (name_of(c)) } } }
                        @if let Some(f) = &view.first_to_place_markers { tr { th { "Places markers first" } td { (name_of(f)) } } }
                        @if let Some(e) = &view.random_player_edge { tr { th { "Player's random edge" } td { (label(e)) } } }
                        @for b in &view.marker_placement { tr { th { "Marker placement" } td { (name_of(&b.force_id)) ": " (b.count) } } }
                        @if let Some(setup) = &view.escalating_setup {
                            tr { th { "Places the first unit" } td { (name_of(&setup.first_to_place)) } }
                            @for (f, n) in &setup.entering_per_turn { tr { th { "Enter per turn" } td { (name_of(f)) ": " (n) } } }
                        }
                    }
                    p class="meta" { "Objectives (ringed: needed by a mission): "
                        @for o in &view.objectives {
                            (objective_name(&o.id)) " placed by " (name_of(&o.placed_by))
                            @if !o.needed_by.is_empty() { " — needed by " (o.needed_by.iter().map(|f| name_of(f)).collect::<Vec<_>>().join(", ")) }
                            "; "
                        }
                    }
                }
                h2 { "Sides" }
                div class="sides" {
                    @for (i, side) in view.sides.iter().enumerate() {
                        @if let Some(state) = sheet.scenario.sides.get(i) {
                            (side_section(i, side, sheet.forces.get(i), &state.force, metric))
                        }
                    }
                }
                @if let Some(n) = sheet.narrative {
                    section {
                        h2 { "Circumstances of war" }
                        table {
                            tr { th { "Sector" } td { (label(&n.circumstances)) } }
                            tr { th { "Intensity" } td { (label(&n.intensity)) } }
                            tr { th { "Region" } td { (label(&n.region)) } }
                            @for f in &n.forces { tr { th { (name_of(&f.force_id)) } td { (label(&f.nature)) } } }
                        }
                    }
                }
                section class="rolls-section" {
                    h2 { "Roll log" }
                    table class="rolls" {
                        tr { th { "#" } th { "Step" } th { "Side" } th { "Subject" } th { "Dice" } th { "Values" } th { "By" } }
                        @for (k, r) in rolls.iter().enumerate() {
                            tr {
                                td { (k + 1) } td { (label(&r.step)) }
                                td { (r.force_id.as_deref().map(&name_of).unwrap_or_default()) }
                                td { (subject_name(&r.subject)) } td { (r.dice) }
                                td { (r.values.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")) }
                                td { (label(&r.source))
                                    @if let Some(href) = crate::app::dice::verify_path(r) { " · " a href=(href) { "Verify" } } }
                            }
                        }
                    }
                }
                }
            }
        }
    };
    markup.into_string()
}
