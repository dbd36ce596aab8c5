//! Force pages: `/forces/{id}` (the roster with every stat and points) and `/forces/{id}/cards`
//! (printable unit cards). Adding a force is [`crate::web::forces::new`].

use std::collections::BTreeMap;
use std::sync::LazyLock;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use fad_domain::kit::VehicleState;
use fad_domain::ladder::BreakPoint;
use fad_domain::names::Named;
use fad_domain::roster::UnitStatus;
use maud::{Markup, PreEscaped, html};
use serde_json::Value;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::force_pages::{self, ForceView, StoredForceView};
use crate::app::forces::response::{RosterResponse, UnitResponse};
use crate::error::ApiError;

use crate::web::layout;
use crate::web::rules::reference::RULES_MARKDOWN;
use crate::web::{PageError, require_user, respond};

/// A stored name in words: `heavy_weapon` → `heavy weapon`.
pub(in crate::web) fn words(text: &str) -> String {
    text.replace('_', " ")
}

/// A value of a unit field in words.
pub(in crate::web) fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => words(s),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items
            .iter()
            .map(value_text)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !is_empty(v))
            .map(|(k, v)| format!("{} {}", words(k), value_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Null => String::new(),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Bool(true) => false,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_empty),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
    }
}

/// Every stat a unit has, in the stored order, leaving out what is empty.
fn stats(unit: &UnitResponse) -> Vec<(String, String)> {
    let Ok(Value::Object(map)) = serde_json::to_value(&unit.unit) else {
        return Vec::new();
    };
    let one_page = unit.unit.one_page.is_some();
    if let Some(profile) = &unit.unit.fma {
        return figure_stats(unit, profile);
    }
    map.iter()
        .filter(|(k, v)| !matches!(k.as_str(), "id" | "name") && !is_empty(v))
        .filter(|(k, _)| !(one_page && k.as_str() == "armour"))
        .map(|(k, v)| match (one_page, k.as_str()) {
            // Stored on FAD's rungs and fields (O1, O2); shown in the game's own words.
            (true, "quality") => (
                "training".to_owned(),
                words(
                    fad_domain::rulesets::one_page_skirmish::Training::of(unit.unit.quality).name(),
                ),
            ),
            (true, "strength") => ("bases".to_owned(), value_text(v)),
            (true, "starting_strength") => ("starting bases".to_owned(), value_text(v)),
            (true, "one_page") => ("profile".to_owned(), value_text(v)),
            _ => (words(k), value_text(v)),
        })
        .collect()
}

/// An FMA figure's stats in the game's own words (docs/rules.md §11), never FAD's fields.
fn figure_stats(
    unit: &UnitResponse,
    profile: &fad_domain::rulesets::gzg_fma_1999::FmaProfile,
) -> Vec<(String, String)> {
    let mut out = vec![
        ("experience".to_owned(), figure_grade(profile)),
        (
            "motivation".to_owned(),
            motivation_words(profile.motivation),
        ),
        ("armour".to_owned(), armour_words(profile)),
    ];
    if let Some(role) = profile.role {
        out.push(("role".to_owned(), role.title()));
    }
    for weapon in &profile.weapons {
        out.push(("weapon".to_owned(), weapon.summary()));
    }
    out.push((
        "status".to_owned(),
        figure_status(&unit.unit, profile).to_owned(),
    ));
    out
}

/// "Veteran · d10": the grade and the quality die it gives (M2).
pub(in crate::web) fn figure_grade(
    profile: &fad_domain::rulesets::gzg_fma_1999::FmaProfile,
) -> String {
    format!("{} · {}", profile.experience.title(), profile.quality_die())
}

/// "2 (average)" (M3).
pub(in crate::web) fn motivation_words(level: u8) -> String {
    match fad_domain::rulesets::gzg_fma_1999::Motivation::of_level(level) {
        Some(m) => format!("{level} ({})", m.title().to_lowercase()),
        None => level.to_string(),
    }
}

/// "d6 (light)", "1 (non-combatant)", with toughness where it raises the die.
fn armour_words(profile: &fad_domain::rulesets::gzg_fma_1999::FmaProfile) -> String {
    use fad_domain::rulesets::gzg_fma_1999::Toughness;
    let mut text = format!(
        "{} ({})",
        profile.armour_value(),
        profile.armour.title().to_lowercase()
    );
    if profile.toughness != Toughness::Normal {
        text.push_str(&format!(", {}", profile.toughness.title().to_lowercase()));
    }
    text
}

/// Where the figure stands after its battles (M4, M7).
fn figure_status(
    unit: &fad_domain::roster::Unit,
    profile: &fad_domain::rulesets::gzg_fma_1999::FmaProfile,
) -> &'static str {
    match (profile.dead, profile.replaced, unit.status) {
        (true, true, _) => "dead; a new figure has taken his place",
        (true, false, _) => "dead",
        (false, _, UnitStatus::Eliminated) => "seriously wounded, out",
        _ => "fit",
    }
}

/// Points as people read them; "unpriced" where the ruleset prices nothing.
pub(in crate::web) fn points(value: impl Into<Option<f64>>) -> String {
    let Some(value) = value.into() else {
        return "unpriced".to_owned();
    };
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Points in words: "12 points", or "unpriced" for a roster whose ruleset has no points (O7).
pub(in crate::web) fn points_words(value: Option<f64>) -> String {
    value.map_or_else(
        || "unpriced".to_owned(),
        |v| format!("{} points", points(v)),
    )
}

/// What the force page shows of a roster: derived from the stored text alone, so
/// [`AppState::roster_pages`] keeps it while that text is unchanged (parsing, points and these
/// sections are most of the page's cost).
#[derive(Debug)]
pub struct RosterPage {
    name: String,
    points: String,
    /// [`roster_sections`], rendered.
    sections: String,
}

impl RosterPage {
    /// Parses and renders a stored roster; answers the page part and its size in bytes.
    fn derive(force: &crate::store::forces::Force) -> Result<(Self, usize), ApiError> {
        let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
        let roster = RosterResponse::new(roster);
        let page = Self {
            points: roster.points.map_or_else(|| "Unpriced".to_owned(), points),
            sections: roster_sections(&roster).into_string(),
            name: roster.name,
        };
        let size = page.name.len() + page.points.len() + page.sections.len();
        Ok((page, size))
    }
}

fn force_markup(
    state: &AppState,
    user: &SessionUser,
    force: &StoredForceView,
    roster: &RosterPage,
) -> Markup {
    let id = &force.force.id;
    let body = html! {
        h1 { (roster.name) }
        dl.stats {
            dt { "Owner" } dd { (force.owner) }
            dt { "Points" } dd { (roster.points) }
            dt { "Campaign points" } dd { (force.campaign_points) }
            @if force.force.archived_at.is_some() { dt { "Status" } dd { "Archived" } }
        }
        div.actions {
            @if force.can_edit { a.button href={ "/forces/" (id) "/edit" } { "Edit roster" } }
            a.button href={ "/forces/" (id) "/cards" } { "Unit cards" }
            a href={ "/forces/" (id) "/history" } { "History" }
            a href={ "/forces/" (id) "/ledger" } { "Campaign points ledger" }
            a href={ "/campaigns/" (force.force.campaign_id) } { "Back to the campaign" }
            @if force.can_edit && force.force.archived_at.is_none() {
                a href={ "/forces/" (id) "/archive" } { "Archive force" }
            }
        }
        (PreEscaped(roster.sections.as_str()))
    };
    layout::page(state, Some(user), &roster.name, body)
}

/// The platoons and units of a roster with every stat and points (the force page and the
/// roster as of a history entry).
pub(in crate::web) fn roster_sections(roster: &RosterResponse) -> Markup {
    html! {
        @for platoon in &roster.platoons {
            section aria-labelledby={ "p-" (slug(&platoon.name)) } {
                h2 id={ "p-" (slug(&platoon.name)) } { (platoon.name) " · " (points_words(platoon.points)) }
                div.roster-grid {
                    @for unit in &platoon.units {
                        div {
                            (unit_card(None, unit))
                            details.every-stat {
                                summary { "Every stat of " (unit.unit.name) }
                                dl.stats {
                                    @for (name, value) in stats(unit) {
                                        dt { (name) } dd { (value) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn slug(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// `GET /forces/{id}`.
#[get("/forces/{id}")]
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    // The session and the force in one trip to the database: this is the page people open
    // most, at the table.
    let signed_in = match crate::web::accounts::session::cookie(
        &req,
        crate::web::accounts::session::SESSION_COOKIE,
    ) {
        Some(cookie) => force_pages::read_stored_force_for_session(&state, &cookie, &path).await?,
        None => None,
    };
    let Some((user, force)) = signed_in else {
        return Err(PageError::SignIn(req.uri().path().to_owned()));
    };
    let roster = state
        .roster_pages
        .get_or_derive(&force.force, RosterPage::derive)?;
    Ok(respond(
        StatusCode::OK,
        force_markup(&state, &user, &force, &roster),
    ))
}

/// The one-line effect of each personality, read from the rules reference's table (§1.12),
/// by lower-case name.
static PERSONALITY_EFFECTS: LazyLock<BTreeMap<String, String>> = LazyLock::new(|| {
    section_rows("### §1.12")
        .into_iter()
        .filter_map(|cells| {
            let name = cells.first()?.split(" (").next()?.trim().to_lowercase();
            Some((name, format!("{} points; {}", cells.get(1)?, cells.get(2)?)))
        })
        .collect()
});

/// The multiplier of each trait from the rules reference's table (§1.13), by lower-case name.
static TRAIT_MULTIPLIERS: LazyLock<BTreeMap<String, String>> = LazyLock::new(|| {
    let mut out = BTreeMap::new();
    for cells in section_rows("### §1.13") {
        for pair in cells.chunks(2) {
            let [name, factor] = pair else { continue };
            let name: String = name
                .split(['(', '/'])
                .next()
                .unwrap_or_default()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == ' ')
                .collect();
            let name = name.trim().to_lowercase();
            if !name.is_empty() && !factor.is_empty() {
                out.insert(name, format!("×{factor}"));
            }
        }
    }
    out
});

/// The body rows of the first table after `heading` in the rules reference.
fn section_rows(heading: &str) -> Vec<Vec<String>> {
    section_table(heading).1
}

/// The header and body rows of the first table after `heading` in the rules reference.
fn section_table(heading: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let Some(start) = RULES_MARKDOWN.find(heading) else {
        return (Vec::new(), Vec::new());
    };
    let mut rows = RULES_MARKDOWN[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect::<Vec<String>>()
        });
    let header = rows.next().unwrap_or_default();
    (header, rows.skip(1).collect())
}

/// A weapon's name reduced to its letters and digits, lower case: the rules tables' "Auto
/// Cannon – Light" and the roster's `auto_cannon_light` meet as `autocannonlight`.
fn weapon_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Each weapon's profile as the rules reference's tables give it (§1.7 small arms, §1.8 support
/// weapons, §1.9 heavy weapons): range, fire or damage values, anti-tank and the rest, by
/// [`weapon_key`]. Points and crew are left to the unit's own lines.
static WEAPON_PROFILES: LazyLock<BTreeMap<String, String>> = LazyLock::new(|| {
    let mut out = BTreeMap::new();
    for heading in ["### §1.7", "### §1.8", "### §1.9"] {
        let (header, rows) = section_table(heading);
        for cells in rows {
            let Some(name) = cells.first() else { continue };
            let profile: Vec<String> = header
                .iter()
                .zip(&cells)
                .skip(1)
                .filter(|(column, value)| {
                    !value.is_empty()
                        && !column.starts_with("Points")
                        && !matches!(column.as_str(), "Crew" | "Note")
                })
                .map(|(column, value)| format!("{} {value}", short_column(column)))
                .collect();
            if profile.is_empty() {
                continue;
            }
            let profile = profile.join(" · ");
            let short = name.split('(').next().unwrap_or_default();
            for key in [weapon_key(name), weapon_key(short)] {
                out.entry(key).or_insert_with(|| profile.clone());
            }
        }
    }
    out
});

/// A rules table's column as a card abbreviates it (the rules card gives the legend).
fn short_column(column: &str) -> &str {
    match column {
        "Range ×base" => "Range",
        "Range band" => "Range",
        "Fire Effect" | "FE" => "FE",
        "Anti-tank" => "AT",
        other => other,
    }
}

/// One weapon line of a card: its name, its traits and its profile from the rules tables.
fn weapon_row(name: &str, traits: &[String]) -> Markup {
    html! {
        tr {
            th scope="row" { (name) @if !traits.is_empty() { " (" (traits.join(", ")) ")" } }
            td { (WEAPON_PROFILES.get(&weapon_key(name)).map_or("see the rules reference", String::as_str)) }
        }
    }
}

fn key(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        Ok(other) => value_text(&other),
        Err(_) => String::new(),
    }
}

fn break_text(point: BreakPoint) -> String {
    match point {
        BreakPoint::Casualties(n) => format!("breaks at {n} casualty"),
        BreakPoint::Percent(p) => format!("breaks at {p}% lost"),
    }
}

/// A unit's card: the stats a player reads first in a fixed order (Quality, Resolve, strength
/// now and starting, armour, weapons with their profiles), then the leader, mobility, traits
/// and personalities with their effects; status and damage as badges.
fn unit_card(platoon: Option<&str>, unit: &UnitResponse) -> Markup {
    let u = &unit.unit;
    if let Some(profile) = &u.one_page {
        return one_page_card(platoon, unit, profile);
    }
    if let Some(profile) = &u.fma {
        return figure_card(platoon, unit, profile);
    }
    let quality = u.quality.row();
    let titles = |traits: &[fad_domain::points::gear::WeaponTrait]| -> Vec<String> {
        traits.iter().map(|t| t.title()).collect()
    };
    html! {
        article.card {
            // On the roster the platoon is the heading above; a printed card names it.
            @if platoon.is_some() { h2 { (u.name) } } @else { h3 { (u.name) } }
            p { @if let Some(platoon) = platoon { (platoon) " · " } (u.kind.title()) " · " strong { (points_words(unit.points)) }
                @if u.status != UnitStatus::Active { " " span.badge { (u.status.title()) } }
                @if let Some(state) = u.vehicle_state { @if state != VehicleState::Operational { " " span.badge { (state.title()) } } }
            }
            table {
                tbody {
                    tr { th scope="row" { "Quality" } td { (u.quality.title()) ", tests on " (quality.test_target) "+" } }
                    @if let Some(resolve) = u.resolve {
                        tr { th scope="row" { "Resolve" } td { (resolve.title()) ", " (break_text(resolve.row().break_point)) } }
                    }
                    tr { th scope="row" { "Strength" } td { strong { (u.strength) " / " (u.starting_strength) } " (now / starting)" } }
                    tr { th scope="row" { "Armour" } td { (u.armour.title()) } }
                    @if let Some(experience) = u.leader_experience {
                        tr { th scope="row" { "Squad leader" } td { (experience.title()) ", " (experience.description()) } }
                    }
                    @if let Some(leadership) = u.leadership {
                        tr { th scope="row" { "Leadership" } td { (leadership.title())
                            // The ladder's first rung has no effect to print.
                            @if leadership.description().starts_with('+') { ", " (leadership.description()) } } }
                    }
                    @if let Some(vehicle) = &u.vehicle {
                        tr { th scope="row" { "Mobility" } td { (vehicle.mobility.title()) } }
                    }
                }
            }
            @if u.basic_weapon.is_some() || !u.support_weapons.is_empty() || !u.heavy_weapons.is_empty() {
                table.weapons {
                    caption { "Weapons" }
                    tbody {
                        @if let Some(w) = u.basic_weapon {
                            (weapon_row(&w.title(), &titles(&u.basic_weapon_traits)))
                        }
                        @for w in &u.support_weapons { (weapon_row(&w.title(), &titles(&u.support_weapon_traits))) }
                        @for w in &u.heavy_weapons { (weapon_row(&w.title(), &titles(&u.heavy_weapon_traits))) }
                    }
                }
            }
            div.ticks role="img" aria-label={ (u.strength) " of " (u.starting_strength) " figures: casualty boxes" } {
                @for k in 0..u.starting_strength.min(40) {
                    @if k < u.strength { span.tick {} } @else { span.tick.lost {} }
                }
            }
            @if !u.traits.is_empty() || !u.personalities.is_empty() {
                ul {
                    @for t in &u.traits {
                        @let name = key(t);
                        li { strong { (words(&name)) } @if let Some(m) = TRAIT_MULTIPLIERS.get(&words(&name).to_lowercase()) { " (" (m) ")" } }
                    }
                    @for p in &u.personalities {
                        @let name = key(p);
                        li { strong { (words(&name)) } @if let Some(effect) = PERSONALITY_EFFECTS.get(&words(&name).to_lowercase()) { ": " (effect) } }
                    }
                }
            }
        }
    }
}

/// A one-page skirmish unit's card (docs/rules.md §10): training with its rating, bases now and
/// starting, armour with the hits it ignores, force projection by range.
fn one_page_card(
    platoon: Option<&str>,
    unit: &UnitResponse,
    profile: &fad_domain::rulesets::one_page_skirmish::OnePageProfile,
) -> Markup {
    use fad_domain::rulesets::one_page_skirmish::Training;
    let u = &unit.unit;
    let training = Training::of(u.quality);
    let (what, noun) = if u.kind == fad_domain::roster::UnitKind::Vehicle {
        ("Vehicles", "models")
    } else {
        ("Infantry", "bases")
    };
    let fp = &profile.force_projection;
    html! {
        article.card {
            @if platoon.is_some() { h2 { (u.name) } } @else { h3 { (u.name) } }
            p { @if let Some(platoon) = platoon { (platoon) " · " } (what) " · " strong { (points_words(unit.points)) }
                @if u.status != UnitStatus::Active { " " span.badge { (u.status.title()) } }
            }
            p.line { (training.title()) " (" (training.rating()) ") · " (u.strength) " " (noun) " · " (profile.armour.title()) " · " (fp.summary()) }
            table {
                tbody {
                    tr { th scope="row" { "Training" } td { (training.title()) ", rated " (training.rating()) } }
                    tr { th scope="row" { "Bases" } td { strong { (u.strength) " / " (u.starting_strength) } " (now / starting)" } }
                    tr { th scope="row" { "Armour" } td { (profile.armour.title()) ", ignores " (profile.armour.ignores()) " hits" } }
                    @if profile.carried_bases > 0 {
                        tr { th scope="row" { "Carries" } td { (profile.carried_bases) " infantry bases" } }
                    }
                }
            }
            table.weapons {
                caption { "Force projection, dice per base" }
                thead { tr { th scope="col" { "Point blank" } th scope="col" { "Short" } th scope="col" { "Medium" } th scope="col" { "Long" } th scope="col" { "Very long" } th scope="col" { "Anti-tank" } } }
                tbody { tr { @for d in fp.dice() { td.num { (d) } } td.num { (fp.at) } } }
            }
            div.ticks role="img" aria-label={ (u.strength) " of " (u.starting_strength) " " (noun) ": casualty boxes" } {
                @for k in 0..u.starting_strength.min(40) {
                    @if k < u.strength { span.tick {} } @else { span.tick.lost {} }
                }
            }
        }
    }
}

/// An FMA figure's card (docs/rules.md §11): the marker, the grade with its quality die,
/// Motivation, armour and each weapon's bands and impact.
fn figure_card(
    platoon: Option<&str>,
    unit: &UnitResponse,
    profile: &fad_domain::rulesets::gzg_fma_1999::FmaProfile,
) -> Markup {
    let u = &unit.unit;
    let status = figure_status(u, profile);
    html! {
        article.card {
            @if platoon.is_some() { h2 { (u.name) } } @else { h3 { (u.name) } }
            p { @if let Some(platoon) = platoon { (platoon) " · " } "Figure" @if let Some(role) = profile.role { " · " (role.title()) } " · " strong { (points_words(unit.points)) }
                @if status != "fit" { " " span.badge { (status) } }
            }
            p.line { (profile.marker()) " · " (profile.quality_die()) " · Armour " (profile.armour_value())
                @for w in &profile.weapons { " · " (w.summary()) } }
            table {
                tbody {
                    tr { th scope="row" { "Experience" } td { (figure_grade(profile)) } }
                    tr { th scope="row" { "Motivation" } td { (motivation_words(profile.motivation)) } }
                    tr { th scope="row" { "Armour" } td { (armour_words(profile)) } }
                }
            }
            // A list, not a four-column table: a card must fit a phone.
            @if !profile.weapons.is_empty() {
                ul {
                    @for w in &profile.weapons {
                        li { strong { (w.name) } ": range "
                            (w.bands.iter().map(|b| b.inches.to_string()).collect::<Vec<_>>().join("/")) "″, firepower "
                            (w.bands.iter().map(|b| b.firepower.to_string()).collect::<Vec<_>>().join("/"))
                            ", impact " (w.impact) @if w.impact_multiplier > 1 { "x" (w.impact_multiplier) } }
                    }
                }
            }
        }
    }
}

fn cards_markup(state: &AppState, user: &SessionUser, force: &ForceView) -> Markup {
    let roster = &force.roster;
    let units: Vec<(&str, &UnitResponse)> = roster
        .platoons
        .iter()
        .flat_map(|p| p.units.iter().map(|u| (p.name.as_str(), u)))
        .collect();
    let mut qualities: Vec<_> = units.iter().map(|(_, u)| u.unit.quality).collect();
    qualities.sort_by_key(key);
    qualities.dedup();
    let mut traits: Vec<String> = units
        .iter()
        .flat_map(|(_, u)| u.unit.traits.iter().map(key))
        .collect();
    traits.sort();
    traits.dedup();
    let mut personalities: Vec<String> = units
        .iter()
        .flat_map(|(_, u)| u.unit.personalities.iter().map(key))
        .collect();
    personalities.sort();
    personalities.dedup();
    let title = format!("{} · unit cards", roster.name);
    let body = html! {
        h1 { (title) }
        p.no-print { "Print this page (A4 or Letter); each card stays whole on one page. " a href={ "/forces/" (force.id) } { "Back to the roster" } }
        div.deck {
            article.card {
                h2 { (roster.name) }
                p { "Owner: " (force.owner) " · Campaign points: " (force.campaign_points) }
                table {
                    tbody {
                        @for platoon in &roster.platoons {
                            tr { th scope="row" { (platoon.name) } td.num { (platoon.points.map_or_else(|| "unpriced".to_owned(), points)) } }
                        }
                        tr { th scope="row" { "Total points" } td.num { strong { (roster.points.map_or_else(|| "unpriced".to_owned(), points)) } } }
                    }
                }
            }
            @for (platoon, unit) in &units { (unit_card(Some(platoon), unit)) }
            @if units.iter().any(|(_, u)| u.unit.fma.is_some()) {
                article.card {
                    h2 { "Reading a figure" }
                    p { "The marker: grade and Motivation (VET 2 is a Veteran at Motivation 2; lower is better). "
                        "Then the quality die, the armour value and each weapon's three range bands in inches with their firepower dice and its impact die. "
                        a href="/rules/gzg-fma-1999" { "The FMA playtest's rules page" } " has the tables." }
                }
            } @else {
            article.card {
                h2 { "Rules this force uses" }
                p { "Weapons: Range in base ranges (×) or as a band, FE fire effect, AT anti-tank (NA: none), Blast radius; rules reference §1.7 to §1.9." }
                ul {
                    @for q in &qualities {
                        @let row = q.row();
                        li { strong { (words(&key(q))) } ": Quality tests on " (row.test_target) "+, coherency " (row.coherency_inches) "″, base range " (row.base_range_inches) "″" }
                    }
                    @for name in &personalities {
                        li { strong { (words(name)) } ": " (PERSONALITY_EFFECTS.get(&words(name).to_lowercase()).map_or("see the rules reference", String::as_str)) }
                    }
                    @for name in &traits {
                        li { strong { (words(name)) } " " (TRAIT_MULTIPLIERS.get(&words(name).to_lowercase()).map_or("", String::as_str)) " — rules reference §1.13" }
                    }
                }
            }
            }
        }
    };
    layout::page(state, Some(user), &title, body)
}

/// `GET /forces/{id}/cards`: printable cards.
#[get("/forces/{id}/cards")]
pub async fn cards(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let force = force_pages::read_force(&state, &user.user_id, &path).await?;
    Ok(respond(StatusCode::OK, cards_markup(&state, &user, &force)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_reference_tables_give_every_personality_an_effect_and_traits_a_multiplier() {
        assert_eq!(PERSONALITY_EFFECTS.len(), 11, "{:?}", *PERSONALITY_EFFECTS);
        assert!(PERSONALITY_EFFECTS["medic"].contains("wounded"));
        assert_eq!(TRAIT_MULTIPLIERS["tough"], "×1.2");
        assert!(TRAIT_MULTIPLIERS.len() >= 60, "{}", TRAIT_MULTIPLIERS.len());
    }
}
