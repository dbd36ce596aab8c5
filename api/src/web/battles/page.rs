//! The battle page, `/battles/{id}`: shared by both players and the organiser. It shows the
//! battle and its scenario exactly as the JSON API shows this person
//! ([`crate::app::battles::page::read_page`]: one read of the battle, its scenario and rosters), and
//! the forms of the sides they act for ([`crate::web::battles::steps`] handles them). A small
//! script ([`crate::web::battles::events`], `battle.js`) reloads the page's content when something this
//! person can see changes; without scripts a reload shows it.

use std::collections::{BTreeMap, HashMap};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use fad_domain::lifecycle::BattleState;
use fad_domain::names::Named;
use fad_domain::odds::MissionOdds;
use fad_domain::orders::{Attitude, Mission, Stance};
use fad_domain::scenario::recon_phase::ReconPrompt;
use fad_domain::scenario::view::SideView;
use fad_domain::scenario::{ScenarioState, ScenarioView};
use fad_domain::traits::Trait;
use maud::{Markup, html};
use serde_json::Value;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battles::scenario::BattleScenarioResponse;
use crate::app::battles::scenario::non_player;
use crate::app::battles::{BattleResponse, page};
use crate::auth::Caller;

use crate::web::accounts::session::FormKey;
use crate::web::assets;
use crate::web::battles::new::capitalised;
use crate::web::forces::roster::{value_text, words};
use crate::web::layout::{self, Errors, csrf_input, field_id};
use crate::web::{PageError, require_user, respond};

/// Everything the page shows, read for one person.
pub struct BattleView {
    /// The battle as this person may see it.
    pub battle: BattleResponse,
    /// Its scenario as this person may see it (with the version their forms carry).
    pub scenario: BattleScenarioResponse,
    /// Unit names by id, of the player forces (rosters are open to the campaign's members).
    pub unit_names: HashMap<String, String>,
    /// The units of each force this person acts for: `(force id, [(unit id, name)])`.
    pub my_units: Vec<(String, Vec<(String, String)>)>,
    /// What the live updates compare with (see [`crate::app::battles::watch::view_signature`]).
    pub signature: String,
    /// The result, its confirmation and the post-battle sequences ([`crate::web::battles::result::panel`]),
    /// once there is something to record or show.
    pub result_panel: Option<Markup>,
    /// The Solo panel, for a battle against a non-player force ([`crate::web::battles::solo`]).
    pub solo_panel: Option<Markup>,
}

/// The caller of a signed-in person.
pub fn caller(user: &SessionUser) -> Caller {
    Caller::User {
        user_id: user.user_id.clone(),
    }
}

/// Reads the page's data for `user`.
pub async fn load(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
) -> Result<BattleView, PageError> {
    // One read: the signature, the battle, its scenario and the rosters are one snapshot, so
    // the live updates compare with exactly what the page shows.
    let read = page::read_page(state, &user.user_id, battle_id).await?;
    let (signature, battle, scenario) = (read.signature, read.battle, read.scenario);
    let (role, solo) = (read.role, read.solo);
    let mut unit_names = HashMap::new();
    let mut my_units = Vec::new();
    let player_forces = battle.sides.iter().filter_map(|s| s.force_id.as_deref());
    for (force_id, stored) in player_forces.zip(read.forces) {
        // Names only: read from the stored roster without the rest of it.
        let units = stored
            .force
            .unit_names()
            .map_err(|e| crate::error::ApiError::Internal(e.into()))?;
        unit_names.extend(units.iter().cloned());
        if scenario.acting_for.iter().any(|f| f == force_id) {
            my_units.push((force_id.to_owned(), units));
        }
    }
    // A non-player side's units are named in its description (ids `s<side>-u<n>`).
    for (i, side) in battle.sides.iter().enumerate() {
        if let Some(parsed) = side
            .non_player
            .as_ref()
            .and_then(|np| non_player::parse(i, np).ok())
        {
            unit_names.extend(parsed.force.units().map(|u| (u.id.clone(), u.name.clone())));
        }
    }
    // Recording a result belongs after the scenario; from then on the panel shows it.
    let result_panel = if battle.state != BattleState::Scenario
        || scenario.scenario.state == ScenarioState::Ready
    {
        let csrf = csrf_input(state, &FormKey::session(user));
        Some(crate::web::battles::result::panel(&battle, &role, &csrf))
    } else {
        None
    };
    let solo_panel = solo
        .map(|solo| crate::web::battles::solo::battle_markup(state, user, battle_id, &solo, None));
    Ok(BattleView {
        battle,
        scenario,
        unit_names,
        my_units,
        signature,
        result_panel,
        solo_panel,
    })
}

/// Which form a submission came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKind {
    /// Stance, attitude, recon duty.
    Orders,
    /// Two mission bonuses.
    Bonuses,
    /// The pick among tied missions.
    Choice,
    /// A recon action.
    Recon,
    /// The Assault target.
    Assault,
}

/// A submission shown again: its input kept, with its problems or the odds asked for.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The form.
    pub kind: FormKind,
    /// The scenario side it was for.
    pub side: usize,
    /// The submitted fields by name.
    pub fields: BTreeMap<String, String>,
    /// Problems by field key ([`key`]); unknown keys show in the summary only.
    pub errors: Errors,
    /// The battle changed meanwhile: what the form was refused for.
    pub stale: Option<String>,
}

/// The error key of field `name` of side `side`'s forms.
pub fn key(side: usize, name: &str) -> String {
    format!("s{side}-{name}")
}

/// The odds charts the page shows, by scenario side, computed before rendering.
pub type Charts = HashMap<usize, MissionOdds>;

/// A stored word as a label: `escalating_engagement` → `Escalating engagement`.
pub fn label(text: &str) -> String {
    capitalised(&words(text))
}

pub(in crate::web) fn side_name(view: &BattleView, i: usize) -> String {
    view.scenario
        .forces
        .get(i)
        .map_or_else(|| format!("Side {}", i + 1), |f| f.name.clone())
}

pub(in crate::web) fn name_of_force(view: &BattleView, force_id: &str) -> String {
    view.scenario
        .forces
        .iter()
        .find(|f| f.force_id == force_id)
        .map_or_else(|| force_id.to_owned(), |f| f.name.clone())
}

/// The page's title: the two sides.
fn title(view: &BattleView) -> String {
    format!("{} vs {}", side_name(view, 0), side_name(view, 1))
}

/// The side a map key names by its id (per-side counts, units placed per side): its name.
fn side_key_name(view: &BattleView, key: &str) -> Option<String> {
    view.scenario
        .forces
        .iter()
        .find(|f| f.force_id == key)
        .map(|f| f.name.clone())
        .or_else(|| {
            view.scenario
                .scenario
                .sides
                .iter()
                .position(|sd| sd.force_id == key)
                .map(|i| side_name(view, i))
        })
}

/// Replaces unit ids and force ids in a rendered value by their names.
fn named_text(view: &BattleView, value: &Value) -> String {
    fn rename(view: &BattleView, value: &Value) -> Value {
        match value {
            Value::String(s) => {
                if let Some(name) = view.unit_names.get(s) {
                    return Value::String(name.clone());
                }
                if let Some(force) = view.scenario.forces.iter().find(|f| &f.force_id == s) {
                    return Value::String(force.name.clone());
                }
                value.clone()
            }
            Value::Array(items) => Value::Array(items.iter().map(|v| rename(view, v)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| {
                        let k = side_key_name(view, k).unwrap_or_else(|| k.clone());
                        (k, rename(view, v))
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    match (value, rename(view, value)) {
        // A word of the rules reads as a label; a name stays as its owner wrote it.
        (Value::String(before), Value::String(after))
            if *before == after && after.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
        {
            label(&after)
        }
        (_, renamed) => value_text(&renamed),
    }
}

/// A value for a `dd`: a list of records (events, bonus traits, marker counts) as a list, one
/// record a line, each field as "Label: value", so it reads on a phone; anything else as
/// [`named_text`] has it.
fn named(view: &BattleView, value: &Value) -> Markup {
    fn record(view: &BattleView, map: &serde_json::Map<String, Value>) -> String {
        map.iter()
            .filter(|(_, v)| !is_blank(v) && **v != Value::Bool(false))
            .map(|(k, v)| {
                let key = k
                    .strip_suffix("_ids")
                    .or_else(|| k.strip_suffix("_id"))
                    .unwrap_or(k);
                let key = side_key_name(view, k).unwrap_or_else(|| label(key));
                format!("{key}: {}", named_text(view, v))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
    match value {
        Value::Array(items) if items.iter().any(Value::is_object) => html! {
            ul.records {
                @for item in items {
                    li { @if let Value::Object(map) = item { (record(view, map)) } @else { (named_text(view, item)) } }
                }
            }
        },
        Value::Object(map) if map.values().any(|v| v.is_object() || v.is_array()) => html! {
            ul.records {
                @for (key, item) in map.iter().filter(|(_, v)| !is_blank(v)) {
                    li {
                        (named_text(view, &Value::String(key.clone()))) ": "
                        @if let Value::Object(inner) = item { (record(view, inner)) } @else { (named_text(view, item)) }
                    }
                }
            }
        },
        Value::Object(map) => html! { (record(view, map)) },
        other => html! { (named_text(view, other)) },
    }
}

/// What a side's view may hold, with labels, in the order of the steps.
const SIDE_FIELDS: &[(&str, &str)] = &[
    ("stance", "Stance"),
    ("attitude", "Attitude"),
    ("recon_points", "Recon points"),
    ("recon_unit_ids", "On recon duty"),
    ("table_edge_roll", "Table edge roll"),
    ("deployment_zone_inches", "Deployment zone (inches)"),
    ("field_defences", "Field defences"),
    ("mission_bonuses", "Mission bonuses"),
    ("mission_rolls", "Mission rolls"),
    ("mission_totals", "Mission totals"),
    ("tied_missions", "Tied missions"),
    ("mission", "Mission"),
    ("bonus", "Mission bonus"),
    ("bonus_traits", "Bonus traits"),
    ("assault_target", "Assault target"),
    ("artillery_calls", "Artillery calls"),
    ("under_fire_ignores", "Under Fire conditions ignored"),
    ("night_fighting_roll", "Night fighting roll"),
    ("contact_markers", "Contact markers"),
    ("contact_marker_total", "Contact markers placed"),
    ("recon_duty", "Recon duty"),
    ("dispersion", "Dispersion"),
    ("pre_battle_events", "Pre-battle events"),
];

/// Nothing to show: absent, or an empty list or map.
fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

fn state_text(state: ScenarioState) -> &'static str {
    match state {
        ScenarioState::Orders => "Orders: each side picks stance, attitude and recon duty",
        ScenarioState::MissionBonuses => "Mission bonuses: each side may add +1 to two missions",
        ScenarioState::MissionChoice => "Mission choice: a side picks among its tied missions",
        ScenarioState::Recon => "Recon: the sides spend recon points",
        ScenarioState::Ready => "Ready: the battle can start",
    }
}

/// The battle's state as the label reads it: a scenario whose steps are done is ready to
/// play, and a battle with a result is played, never "ready" again.
fn battle_state_text(state: BattleState, scenario: ScenarioState) -> &'static str {
    match state {
        BattleState::Scenario if scenario == ScenarioState::Ready => {
            "Ready to play: record the result after the game"
        }
        BattleState::Scenario => "Setting up the scenario",
        BattleState::Pending => "Played: the result waits for confirmation",
        BattleState::Aftermath => "Played: the post-battle sequences are under way",
        BattleState::Complete => "Finished",
        BattleState::Void => "Void: the organiser undid this battle",
    }
}

fn side_section(view: &BattleView, i: usize, side: &SideView) -> Markup {
    let mine = view.scenario.acting_for.contains(&side.force_id);
    let json = serde_json::to_value(side).unwrap_or(Value::Null);
    let empty = Value::Null;
    html! {
        section.panel.side aria-labelledby={ "side-" (i) "-title" } {
            h3 id={ "side-" (i) "-title" } {
                (side_name(view, i))
                @if mine { " " span.badge { "yours" } }
                @if side.non_player { " " span.badge { "non-player" } }
            }
            dl.facts {
                @if mine || view.scenario.scenario.state > ScenarioState::Orders {
                    dt { "Orders" } dd { @if side.orders_submitted { "in" } @else { "not yet" } }
                }
                @for (field, text) in SIDE_FIELDS {
                    @let raw = json.get(*field).unwrap_or(&empty);
                    @if !is_blank(raw) && !named_text(view, raw).is_empty() {
                        dt { (text) }
                        dd { (named(view, raw)) }
                    }
                }
            }
        }
    }
}

fn scenario_section(view: &BattleView) -> Markup {
    let sc: &ScenarioView = &view.scenario.scenario;
    let waiting: Vec<String> = sc
        .waiting_for
        .iter()
        .map(|f| name_of_force(view, f))
        .collect();
    let general = serde_json::to_value(sc).unwrap_or(Value::Null);
    html! {
        section aria-labelledby="scenario-title" {
            h2 id="scenario-title" { "Scenario" }
            p.step { strong { "Step: " }
                @if view.battle.state == BattleState::Scenario { (state_text(sc.state)) }
                @else { "Done: the battle has been played" } }
            @if !waiting.is_empty() {
                p { "Waiting for " (waiting.join(" and ")) "." }
            }
            @if let Some(prompt) = sc.recon_prompt {
                p { @match prompt {
                    ReconPrompt::Turn => "It is their turn: move, reveal or pass.",
                    ReconPrompt::Block => "They may block the recon point just spent, or pass.",
                } }
            }
            @if sc.night_fighting { p { "Night fighting." } }
            @if sc.escalating_engagement { p { strong { "Escalating Engagement." } } }
            dl.facts {
                @for (field, text) in [("table_edge_chooser", "Chooses the table edge"), ("first_to_place_markers", "Places markers first"), ("random_player_edge", "Random player edge"), ("marker_placement", "Marker placement"), ("escalating_setup", "Escalating Engagement set-up")] {
                    @if let Some(value) = general.get(field).filter(|v| !is_blank(v)) {
                        dt { (text) } dd { (named(view, value)) }
                    }
                }
            }
            div.sides {
                @for (i, side) in sc.sides.iter().enumerate() { (side_section(view, i, side)) }
            }
            @if !sc.objectives.is_empty() {
                h3 { "Objectives" }
                ul {
                    @for o in &sc.objectives {
                        li { strong { "Objective " (crate::web::battles::table::objective_number(&o.id)) } ": placed by " (name_of_force(view, &o.placed_by))
                            @for (force, sector) in &o.sector {
                                "; " (words(&serde_json::to_value(sector).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default())) " for " (name_of_force(view, force))
                            }
                            @if !o.needed_by.is_empty() {
                                "; needed by " (o.needed_by.iter().map(|f| name_of_force(view, f)).collect::<Vec<_>>().join(", "))
                            }
                        }
                    }
                }
            }
            @if let Some(recon) = &sc.recon {
                h3 { "Recon" }
                p { "Recon points left: "
                    (recon.recon_points_left.iter().map(|(f, n)| format!("{} {n}", name_of_force(view, f))).collect::<Vec<_>>().join(", ")) }
                @if !recon.log.is_empty() {
                    ol {
                        @for line in &recon.log {
                            li { (name_of_force(view, &line.force_id)) ": "
                                (named_text(view, &serde_json::to_value(line.action).unwrap_or(Value::Null)))
                                @if !line.markers.is_empty() { " (" (line.markers.join(", ")) ")" }
                                @if let Some(roll) = line.roll { ", rolled " (roll) }
                                " → " (named_text(view, &serde_json::to_value(line.result).unwrap_or(Value::Null)))
                                @if line.automatic { " (automatic)" }
                            }
                        }
                    }
                }
            }
            @if !view.scenario.rolls.is_empty() {
                details.rolls {
                    summary { "Dice rolled (" (view.scenario.rolls.len()) ")" }
                    div.table-wrap {
                        table {
                            thead { tr { th scope="col" { "Step" } th scope="col" { "For" } th scope="col" { "Dice" } th.num scope="col" { "Values" } th scope="col" { "By" } } }
                            tbody {
                                @for roll in &view.scenario.rolls {
                                    tr {
                                        td { (label(&roll.step.to_string())) }
                                        td { (named_text(view, &Value::String(roll.subject.clone()))) }
                                        td { (roll.dice) }
                                        td.num { (roll.values.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")) }
                                        td {
                                            (named_text(view, &serde_json::to_value(roll.source).unwrap_or(Value::Null)))
                                            @if let Some(link) = crate::web::battles::dice::verify_link(roll) { " · " (link) }
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
}

/// The value a field of side `side`'s form `kind` shows: what was submitted when this is the
/// form shown again, else `saved`.
fn shown(
    attempt: Option<&Attempt>,
    kind: FormKind,
    side: usize,
    name: &str,
    saved: &str,
) -> String {
    match attempt {
        Some(a) if a.kind == kind && a.side == side => {
            a.fields.get(name).cloned().unwrap_or_default()
        }
        _ => saved.to_owned(),
    }
}

fn errors_of(attempt: Option<&Attempt>, kind: FormKind, side: usize) -> Errors {
    match attempt {
        Some(a) if a.kind == kind && a.side == side => a.errors.clone(),
        _ => Errors::default(),
    }
}

/// A labelled select whose control id is side-specific and whose name is the form's.
fn select(
    side: usize,
    name: &str,
    label: &str,
    options: &[(String, String)],
    selected: &str,
    errors: &Errors,
    odds: Option<&str>,
) -> Markup {
    let key = key(side, name);
    let id = field_id(&key);
    let error = errors.get(&key);
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
            select id=(id) name=(name)
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))]
                hx-get=[odds.map(|_| "/odds")]
                hx-trigger=[odds.map(|_| "change")]
                hx-target=[odds.map(|_| format!("#odds-{side}"))]
                hx-include=[odds] {
                @for (value, text) in options {
                    option value=(value) selected[value == selected] { (text) }
                }
            }
        }
    }
}

/// An optional die: a number input that may stay empty for the server to roll.
fn die(side: usize, name: &str, label: &str, value: &str, errors: &Errors) -> Markup {
    let key = key(side, name);
    let id = field_id(&key);
    let error = errors.get(&key);
    html! {
        div.field.die {
            label for=(id) { (label) }
            @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
            input type="number" id=(id) name=(name) value=(value) min="1" max="6" inputmode="numeric"
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))];
        }
    }
}

fn options<T: Named>(none: Option<&str>) -> Vec<(String, String)> {
    none.map(|text| (String::new(), text.to_owned()))
        .into_iter()
        .chain(
            T::ALL
                .iter()
                .map(|v| (v.name().to_owned(), label(v.name()))),
        )
        .collect()
}

fn mission_options(none: &str, missions: &[Mission]) -> Vec<(String, String)> {
    std::iter::once((String::new(), none.to_owned()))
        .chain(
            missions
                .iter()
                .map(|m| (m.name().to_owned(), label(m.name()))),
        )
        .collect()
}

/// The exact odds as a bar chart: one `meter` per mission, with the percentage as text.
pub fn odds_chart(odds: &MissionOdds) -> Markup {
    let percent = |p: f64| format!("{:.1} %", p * 100.0);
    html! {
        table.odds {
            caption { "Chance of each mission at step 5" }
            tbody {
                @for m in &odds.missions {
                    @let id = format!("odds-{}", m.mission.name());
                    tr {
                        th scope="row" id=(id) { (label(m.mission.name())) }
                        td { meter min="0" max="1" value=(format!("{:.4}", m.chance.probability)) aria-labelledby=(id) { (percent(m.chance.probability)) } }
                        td.num { (percent(m.chance.probability)) }
                    }
                }
                tr {
                    th scope="row" { "A tie (you pick)" }
                    td {}
                    td.num { (percent(odds.tie.probability)) }
                }
            }
        }
    }
}

fn odds_box(side: usize, charts: &Charts, prompt: &str) -> Markup {
    html! {
        div.odds-box id={ "odds-" (side) } aria-live="polite" {
            @if let Some(odds) = charts.get(&side) { (odds_chart(odds)) } @else { p.muted { (prompt) } }
        }
    }
}

fn form_summary(attempt: Option<&Attempt>, kind: FormKind, side: usize) -> Markup {
    let errors = errors_of(attempt, kind, side);
    html! {
        @if !errors.is_empty() {
            ul.form-errors {
                @for e in &errors.0 { li.error { (e.message) } }
            }
        }
    }
}

fn orders_form(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
    charts: &Charts,
) -> Markup {
    let sc = &view.scenario.scenario;
    let me = &sc.sides[side];
    let kind = FormKind::Orders;
    let errors = errors_of(attempt, kind, side);
    let saved = |v: Option<String>| v.unwrap_or_default();
    let stance = shown(
        attempt,
        kind,
        side,
        "stance",
        &saved(me.stance.map(|s| s.name().to_owned())),
    );
    let attitude = shown(
        attempt,
        kind,
        side,
        "attitude",
        &saved(me.attitude.map(|s| s.name().to_owned())),
    );
    let recon: Vec<String> = match attempt {
        Some(a) if a.kind == kind && a.side == side => a
            .fields
            .iter()
            .filter(|(k, _)| k.starts_with("recon."))
            .map(|(k, _)| k["recon.".len()..].to_owned())
            .collect(),
        _ => me.recon_unit_ids.clone().unwrap_or_default(),
    };
    let units = view
        .my_units
        .iter()
        .find(|(f, _)| *f == me.force_id)
        .map(|(_, u)| u.as_slice())
        .unwrap_or_default();
    let include = format!(
        "#{}, #{}",
        field_id(&key(side, "stance")),
        field_id(&key(side, "attitude"))
    );
    html! {
        form.stack.step-form method="post" action={ "/battles/" (view.battle.id) "/orders" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="force_id" value=(me.force_id);
            input type="hidden" name="version" value=(view.scenario.version);
            (form_summary(attempt, kind, side))
            @if me.orders_submitted {
                p.notice role="status" { "Your orders are in. You may change them until the other side has given theirs." }
            }
            div.pick-odds {
                div {
                    (select(side, "stance", "Stance", &options::<Stance>(Some("Choose a stance")), &stance, &errors, Some(&include)))
                    (select(side, "attitude", "Attitude", &options::<Attitude>(Some("Choose an attitude")), &attitude, &errors, Some(&include)))
                }
                (odds_box(side, charts, "Pick a stance and an attitude to see each mission's chance."))
            }
            fieldset {
                legend { "Recon duty" }
                @if let Some(e) = errors.get(&key(side, "recon")) { span.error { (e) } }
                @if units.is_empty() { p.muted { "No units." } }
                @for (id, name) in units {
                    @let control = field_id(&format!("{}-recon-{id}", key(side, "")));
                    div.check {
                        input type="checkbox" id=(control) name={ "recon." (id) } value="on" checked[recon.contains(id)];
                        label for=(control) { (name) }
                    }
                }
            }
            details.dice open[errors.0.iter().any(|e| e.field.contains("table_edge") || e.field.contains("night_fighting"))] {
                summary { "Dice rolled at the table (optional)" }
                p.hint { "Leave a die empty and the server rolls it." }
                (die(side, "table_edge", "Table edge roll", &shown(attempt, kind, side, "table_edge", ""), &errors))
                @if sc.night_fighting {
                    (die(side, "night_fighting", "Night fighting roll", &shown(attempt, kind, side, "night_fighting", ""), &errors))
                }
            }
            div.actions {
                button type="submit" { "Submit orders" }
                button.secondary type="submit" name="show" value="odds" { "Show odds" }
            }
        }
    }
}

fn bonuses_form(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
    charts: &Charts,
) -> Markup {
    let me = &view.scenario.scenario.sides[side];
    let kind = FormKind::Bonuses;
    let errors = errors_of(attempt, kind, side);
    let saved = me.mission_bonuses.clone().unwrap_or_default();
    let saved_at = |i: usize| {
        saved
            .get(i)
            .map(|m| m.name().to_owned())
            .unwrap_or_default()
    };
    let first = shown(attempt, kind, side, "first_bonus", &saved_at(0));
    let second = shown(attempt, kind, side, "second_bonus", &saved_at(1));
    let choices = mission_options("None", &Mission::ROLLED);
    let (stance_id, attitude_id) = (
        field_id(&key(side, "bonus-stance")),
        field_id(&key(side, "bonus-attitude")),
    );
    let include = format!(
        "#{stance_id}, #{attitude_id}, #{}, #{}",
        field_id(&key(side, "first_bonus")),
        field_id(&key(side, "second_bonus"))
    );
    html! {
        form.stack.step-form method="post" action={ "/battles/" (view.battle.id) "/mission-bonuses" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="force_id" value=(me.force_id);
            input type="hidden" name="version" value=(view.scenario.version);
            input type="hidden" id=(stance_id) name="stance" value=(me.stance.map(|s| s.name()).unwrap_or_default());
            input type="hidden" id=(attitude_id) name="attitude" value=(me.attitude.map(|s| s.name()).unwrap_or_default());
            (form_summary(attempt, kind, side))
            @if me.mission_bonuses_submitted {
                p.notice role="status" { "Your mission bonuses are in. You may change them until the other side has given theirs." }
            }
            p.hint { "None, or +1 to two different missions." }
            div.pick-odds {
                div {
                    (select(side, "first_bonus", "First mission bonus", &choices, &first, &errors, Some(&include)))
                    (select(side, "second_bonus", "Second mission bonus", &choices, &second, &errors, Some(&include)))
                }
                (odds_box(side, charts, "The odds show once your stance and attitude are known."))
            }
            (bonus_units_fieldset(view, side, attempt, &errors))
            details.dice open[errors.0.iter().any(|e| e.field.contains("mission-"))] {
                summary { "Mission dice rolled at the table (optional)" }
                p.hint { "One d6 per mission; leave a die empty and the server rolls it." }
                @for m in Mission::ROLLED {
                    @let name = format!("mission-{}", m.name());
                    (die(side, &name, &format!("Mission roll for {}", label(m.name())), &shown(attempt, kind, side, &name, ""), &errors))
                }
            }
            div.actions {
                button type="submit" { "Submit mission bonuses" }
                button.secondary type="submit" name="show" value="odds" { "Show odds" }
            }
        }
    }
}

/// The optional unit for each mission-bonus trait (§3.10, "traits to assign as you wish"):
/// one select per trait a bonus can grant, "Service's choice" by default (the fixed order).
fn bonus_units_fieldset(
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
    errors: &Errors,
) -> Markup {
    let me = &view.scenario.scenario.sides[side];
    let kind = FormKind::Bonuses;
    let units = view
        .my_units
        .iter()
        .find(|(f, _)| *f == me.force_id)
        .map(|(_, u)| u.as_slice())
        .unwrap_or_default();
    let mut choices = vec![(String::new(), "Service's choice".to_owned())];
    choices.extend(units.iter().cloned());
    let saved = |t: Trait| {
        me.bonus_units
            .as_ref()
            .and_then(|b| b.get(&t))
            .cloned()
            .unwrap_or_default()
    };
    let open = errors.0.iter().any(|e| e.field.contains("bonus-"));
    html! {
        details.bonus-units open[open] {
            summary { "Units for the bonus traits (optional)" }
            p.hint { "Your mission's bonus traits go to the units you name here; a trait left to the service goes by the fixed order of the rules reference (S12)." }
            @for t in Trait::MISSION_BONUS_TRAITS {
                @let name = format!("bonus-{}", t.name());
                (select(side, &name, &format!("Unit for {}", label(t.name())), &choices, &shown(attempt, kind, side, &name, &saved(t)), errors, None))
            }
        }
    }
}

fn choice_form(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
) -> Markup {
    let me = &view.scenario.scenario.sides[side];
    let kind = FormKind::Choice;
    let errors = errors_of(attempt, kind, side);
    let tied = me.tied_missions.clone().unwrap_or_default();
    let picked = shown(attempt, kind, side, "mission", "");
    html! {
        form.stack.step-form method="post" action={ "/battles/" (view.battle.id) "/mission-choice" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="force_id" value=(me.force_id);
            input type="hidden" name="version" value=(view.scenario.version);
            (form_summary(attempt, kind, side))
            p { "Your highest mission totals tie: pick one." }
            (select(side, "mission", "Mission", &mission_options("Choose a mission", &tied), &picked, &errors, None))
            div.actions { button type="submit" { "Choose mission" } }
        }
    }
}

fn recon_forms(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    prompt: ReconPrompt,
    attempt: Option<&Attempt>,
) -> Markup {
    let me = &view.scenario.scenario.sides[side];
    let kind = FormKind::Recon;
    let errors = errors_of(attempt, kind, side);
    let action = format!("/battles/{}/recon", view.battle.id);
    let hidden = |act: &str| {
        html! {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="force_id" value=(me.force_id);
            input type="hidden" name="version" value=(view.scenario.version);
            input type="hidden" name="action" value=(act);
        }
    };
    // Markers are picked by the numbers the sheet and the "At the table now" block give them;
    // before the sides have counted their markers a label is typed.
    let pick = |name: &str, label_text: &str, own: bool, optional: bool| {
        let choices = crate::web::battles::table::marker_choices(view, side, own);
        if choices.is_empty() {
            return None;
        }
        let blank = if optional { "None" } else { "Choose a marker" };
        let options: Vec<(String, String)> = std::iter::once((String::new(), blank.to_owned()))
            .chain(choices)
            .collect();
        let picked = shown(attempt, kind, side, name, "");
        Some(select(
            side, name, label_text, &options, &picked, &errors, None,
        ))
    };
    let text = |name: &str, label_text: &str| {
        let key = key(side, name);
        let id = field_id(&key);
        let error = errors.get(&key);
        html! {
            div.field {
                label for=(id) { (label_text) }
                @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
                input type="text" id=(id) name=(name) maxlength="100" value=(shown(attempt, kind, side, name, ""))
                    aria-invalid=[error.map(|_| "true")]
                    aria-describedby=[error.map(|_| format!("{id}-error"))];
            }
        }
    };
    html! {
        (form_summary(attempt, kind, side))
        @match prompt {
            ReconPrompt::Turn => {
                p { "Your turn: spend a recon point to move or reveal, or pass." }
                form.stack.step-form method="post" action=(action) novalidate {
                    (hidden("move"))
                    (pick("marker_1", "First marker moved", true, false).unwrap_or_else(|| text("marker_1", "First marker moved")))
                    (pick("marker_2", "Second marker moved", true, true).unwrap_or_else(|| text("marker_2", "Second marker moved")))
                    div.actions { button type="submit" { "Move markers" } }
                }
                form.stack.step-form method="post" action=(action) novalidate {
                    (hidden("reveal"))
                    (pick("marker", "Enemy marker revealed", false, false).unwrap_or_else(|| text("marker", "Enemy marker revealed")))
                    div.actions { button type="submit" { "Reveal marker" } }
                }
            }
            ReconPrompt::Block => {
                p { "The other side spent a recon point: block it (1 RP, 4+ on a d6) or let it pass." }
                form.stack.step-form method="post" action=(action) novalidate {
                    (hidden("block"))
                    (die(side, "recon_block", "Block roll", &shown(attempt, kind, side, "recon_block", ""), &errors))
                    p.hint { "Leave the die empty and the server rolls it." }
                    div.actions { button type="submit" { "Block" } }
                }
            }
        }
        form method="post" action=(action) {
            (hidden("pass"))
            div.actions { button.secondary type="submit" { "Pass" } }
        }
    }
}

fn assault_form(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
) -> Markup {
    let me = &view.scenario.scenario.sides[side];
    let kind = FormKind::Assault;
    let errors = errors_of(attempt, kind, side);
    let far: Vec<(String, String)> =
        std::iter::once((String::new(), "Choose an objective".to_owned()))
            .chain(
                view.scenario
                    .scenario
                    .objectives
                    .iter()
                    .filter(|o| {
                        o.sector
                            .get(&me.force_id)
                            .and_then(|s| serde_json::to_value(s).ok())
                            .is_some_and(|v| v == "far")
                    })
                    .map(|o| {
                        (
                            o.id.clone(),
                            format!(
                                "Objective {}",
                                crate::web::battles::table::objective_number(&o.id)
                            ),
                        )
                    }),
            )
            .collect();
    let picked = shown(attempt, kind, side, "objective_id", "");
    html! {
        form.stack.step-form method="post" action={ "/battles/" (view.battle.id) "/assault-target" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="force_id" value=(me.force_id);
            input type="hidden" name="version" value=(view.scenario.version);
            (form_summary(attempt, kind, side))
            p { "Your mission is Assault: declare which of your two far objectives is the target (secret like the mission)." }
            (select(side, "objective_id", "Assault target", &far, &picked, &errors, None))
            div.actions { button type="submit" { "Declare target" } }
        }
    }
}

/// The forms of side `side`, which this person acts for, at the scenario's current step.
fn side_forms(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    side: usize,
    attempt: Option<&Attempt>,
    charts: &Charts,
) -> Markup {
    let sc = &view.scenario.scenario;
    let me = &sc.sides[side];
    let waits = sc.waiting_for.contains(&me.force_id);
    let open = view.battle.state == BattleState::Scenario;
    let assault = open && me.mission == Some(Mission::Assault) && me.assault_target.is_none();
    html! {
        section.panel.forms aria-labelledby={ "forms-" (side) "-title" } {
            h3 id={ "forms-" (side) "-title" } { "For " (side_name(view, side)) }
            @if !open {
                p.muted { "The scenario is closed: the battle has a result." }
            } @else if view.battle.ruleset.id == fad_domain::rulesets::gzg_fma_1999::ID {
                // FMA figures: no scenario is generated (docs/rules.md M11).
                p { "No scenario is generated for FMA playtest battles: "
                    (fad_domain::rulesets::gzg_fma_1999::NO_SCENARIO_SENTENCE) "." }
            } @else {
                @match sc.state {
                    ScenarioState::Orders => { (orders_form(state, user, view, side, attempt, charts)) }
                    ScenarioState::MissionBonuses => { (bonuses_form(state, user, view, side, attempt, charts)) }
                    ScenarioState::MissionChoice if waits && me.tied_missions.as_ref().is_some_and(|t| t.len() > 1) => {
                        (choice_form(state, user, view, side, attempt))
                    }
                    ScenarioState::Recon if waits => {
                        @if let Some(prompt) = sc.recon_prompt { (recon_forms(state, user, view, side, prompt, attempt)) }
                    }
                    ScenarioState::Ready => { p { "The scenario is ready: play the battle." } }
                    _ => { p.muted { "Nothing to do for this side now; the page updates when the other side acts." } }
                }
                @if assault { (assault_form(state, user, view, side, attempt)) }
            }
        }
    }
}

fn sheets_section(state: &AppState, user: &SessionUser, view: &BattleView) -> Markup {
    html! {
        @if !view.scenario.acting_for.is_empty() {
            section aria-labelledby="sheets-title" {
                h2 id="sheets-title" { "Printable sheets" }
                p.muted { "Each side's sheet shows what that side may see when it is opened. Its link needs no sign-in: hand it only to that side." }
                div.actions {
                    @for force_id in &view.scenario.acting_for {
                        form method="post" action={ "/battles/" (view.battle.id) "/sheet" } {
                            (csrf_input(state, &FormKey::session(user)))
                            input type="hidden" name="force_id" value=(force_id);
                            button.secondary type="submit" { "Sheet for " (name_of_force(view, force_id)) }
                        }
                    }
                }
            }
        }
    }
}

/// The whole page for `user`. `attempt` is a form shown again; `charts` the odds to show.
pub fn render(
    state: &AppState,
    user: &SessionUser,
    view: &BattleView,
    attempt: Option<&Attempt>,
    charts: &Charts,
) -> Markup {
    let title = title(view);
    let sc = &view.scenario.scenario;
    let mine: Vec<usize> = (0..sc.sides.len())
        .filter(|i| view.scenario.acting_for.contains(&sc.sides[*i].force_id))
        .collect();
    let summary_errors: Vec<&crate::error::FieldError> = attempt
        .map(|a| a.errors.0.iter().collect())
        .unwrap_or_default();
    let body = html! {
        div id="battle" data-events={ "/battles/" (view.battle.id) "/events" } data-signature=(view.signature) {
            h1 { (title) }
            @if let Some(attempt) = attempt {
                @if let Some(stale) = &attempt.stale {
                    div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                        h2 { "The battle changed meanwhile" }
                        p { (stale) }
                        p { "Nothing was saved. The page below shows the battle as it is now (step: " (state_text(sc.state)) "); your input is kept where the form still applies." }
                    }
                } @else if !summary_errors.is_empty() {
                    div.errors id="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title" {
                        h2 id="error-summary-title" { "There is a problem" }
                        ul {
                            @for e in &summary_errors {
                                li { a href={ "#" (field_id(&e.field)) } { (e.message) } }
                            }
                        }
                    }
                }
            }
            p { a href={ "/campaigns/" (view.battle.campaign_id) } { "Back to the campaign" } }
            p { strong { "State: " } (battle_state_text(view.battle.state, view.scenario.scenario.state))
                @if view.battle.night_fighting { " · night fighting" } }
            p.live-status.muted id="live-status" role="status" {}
            (crate::web::battles::table::at_the_table(view))
            @if !mine.is_empty() && view.battle.state == BattleState::Scenario {
                section aria-labelledby="yours-title" {
                    h2 id="yours-title" { "Your part" }
                    @for side in &mine { (side_forms(state, user, view, *side, attempt, charts)) }
                }
            }
            @if let Some(panel) = &view.solo_panel { (panel) }
            @if let Some(panel) = &view.result_panel { (panel) }
            (scenario_section(view))
            (sheets_section(state, user, view))
        }
        script src=(assets::BATTLE_JS_PATH.as_str()) defer {}
    };
    layout::page(state, Some(user), &title, body)
}

/// The odds to chart for each side this person acts for, from `attempt`'s picks or what the
/// side has saved.
pub fn chart_queries(
    view: &BattleView,
    attempt: Option<&Attempt>,
) -> Vec<(usize, fad_domain::odds::OddsQuery)> {
    let sc = &view.scenario.scenario;
    let mut out = Vec::new();
    for (i, side) in sc.sides.iter().enumerate() {
        if !view.scenario.acting_for.contains(&side.force_id) {
            continue;
        }
        let fields = attempt.filter(|a| a.side == i).map(|a| &a.fields);
        let pick = |name: &str| fields.and_then(|f| f.get(name)).map(String::as_str);
        let query = match sc.state {
            ScenarioState::Orders => {
                let stance = pick("stance")
                    .and_then(|s| Stance::parse(s).ok())
                    .or(side.stance);
                let attitude = pick("attitude")
                    .and_then(|s| Attitude::parse(s).ok())
                    .or(side.attitude);
                stance
                    .zip(attitude)
                    .map(|(stance, attitude)| fad_domain::odds::OddsQuery {
                        stance,
                        attitude,
                        bonuses: None,
                    })
            }
            ScenarioState::MissionBonuses => {
                let bonuses: Vec<Mission> = match fields {
                    Some(_) => ["first_bonus", "second_bonus"]
                        .iter()
                        .filter_map(|n| pick(n).and_then(|m| Mission::parse(m).ok()))
                        .collect(),
                    None => side.mission_bonuses.clone().unwrap_or_default(),
                };
                side.stance.zip(side.attitude).map(|(stance, attitude)| {
                    fad_domain::odds::OddsQuery {
                        stance,
                        attitude,
                        bonuses: fad_domain::odds::MissionBonuses::from_slice(&bonuses)
                            .ok()
                            .flatten(),
                    }
                })
            }
            _ => None,
        };
        if let Some(query) = query {
            out.push((i, query));
        }
    }
    out
}

/// Computes the charts for `queries` (off the async workers: a first computation enumerates
/// every dice outcome).
pub async fn charts(
    queries: Vec<(usize, fad_domain::odds::OddsQuery)>,
) -> Result<Charts, PageError> {
    if queries.is_empty() {
        return Ok(Charts::new());
    }
    let charts = web::block(move || {
        queries
            .into_iter()
            .map(|(i, q)| (i, crate::app::odds::cached_odds(q)))
            .collect::<Charts>()
    })
    .await
    .map_err(|e| crate::error::ApiError::Internal(anyhow::anyhow!("{e}")))?;
    Ok(charts)
}

/// Renders the page for `user` with `attempt`, at `status`.
pub async fn page(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
    attempt: Option<&Attempt>,
    status: StatusCode,
) -> Result<HttpResponse, PageError> {
    let view = load(state, user, battle_id).await?;
    let charts = charts(chart_queries(&view, attempt)).await?;
    Ok(respond(
        status,
        render(state, user, &view, attempt, &charts),
    ))
}

/// `GET /battles/{id}`.
#[get("/battles/{id}")]
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    page(&state, &user, &path, None, StatusCode::OK).await
}
