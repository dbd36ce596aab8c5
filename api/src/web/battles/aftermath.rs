//! `/battles/{id}/aftermath/{force_id}`: one force's post-battle sequence, step by step in the
//! order players roll at the table (replacements, vehicle replacements, quality loss, unknown
//! Resolve, resolve change, the reinforcement pool), then the reinforcements, the purchases, a
//! summary and `Finalize`. Each roll step asks for exactly the dice the rules call for (the
//! sequence's `next_dice`), each an optional input: left empty, the server rolls. The state is
//! the server's, so the page can be left and resumed. Every form posts to a handler in
//! [`crate::web::battles::aftermath_steps`] that calls the same use case as the JSON API.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, web};
use fad_domain::campaign::changes::{UnitEvent, UnitSnapshot};
use fad_domain::campaign::vehicle_replacements::VehicleFate;
use fad_domain::campaign::{Purchase, PurchaseItem};
use fad_domain::dice::{RollSource, RollStep};
use fad_domain::lifecycle::{AftermathStage, BattleState};
use fad_domain::names::Named;
use fad_domain::traits::Trait;
use maud::{Markup, html};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battle_pages::{self, AftermathView};
use crate::app::battles::aftermath::finalize::FORGO_FIELD;

use crate::web::accounts::session::FormKey;
use crate::web::battles::result::{Fields, matchup, stage_words};
use crate::web::forces::roster::words;
use crate::web::layout::{self, Errors, csrf_input, error_summary, field_id};
use crate::web::{PageError, require_user, respond};

/// Empty purchase rows offered below the current purchases.
const BLANK_PURCHASE_ROWS: usize = 2;

/// Whether the sequence runs on FMA figures (docs/rules.md §11): two steps have other names.
fn on_figures(view: &AftermathView) -> bool {
    view.ruleset.family == fad_domain::rulesets::Family::Fma
}

/// The label of a roll step's die under the sequence's ruleset.
fn roll_label_in(view: &AftermathView, step: RollStep) -> &'static str {
    match step {
        RollStep::ResolveChange if on_figures(view) => "Motivation change roll",
        _ => roll_label(step),
    }
}

/// The label of a roll step's die: "Replacement roll".
fn roll_label(step: RollStep) -> &'static str {
    match step {
        RollStep::Casualty => "Casualty roll",
        RollStep::Replacement => "Replacement roll",
        RollStep::VehicleReplacement => "Vehicle replacement roll",
        RollStep::QualityLoss => "Quality loss roll",
        RollStep::UnknownResolve => "Resolve roll",
        RollStep::ResolveChange => "Resolve change roll",
        RollStep::Reinforcements => "Reinforcement pool roll",
        RollStep::ReinforcementsExtra => "Extra reinforcement die",
        _ => "Roll",
    }
}

/// A roll step's heading: what the players do at the table.
fn step_heading(view: &AftermathView, step: RollStep) -> &'static str {
    match step {
        RollStep::Casualty => "Casualties: each figure that was down",
        RollStep::ResolveChange if on_figures(view) => "Motivation change",
        RollStep::Replacement => "Replacements",
        RollStep::VehicleReplacement => "Vehicle replacements",
        RollStep::QualityLoss => "Quality loss",
        RollStep::UnknownResolve => "Unknown Resolve",
        RollStep::ResolveChange => "Resolve change",
        RollStep::Reinforcements => "The reinforcement pool",
        _ => "Roll",
    }
}

/// The name of a roll's subject: a unit's name, or the force's for the pool.
fn subject_name(view: &AftermathView, subject: &str) -> String {
    if subject == view.sequence.force_id {
        return view.role.force_name(subject).to_owned();
    }
    view.start
        .unit(subject)
        .or_else(|| view.outcome.as_ref().and_then(|o| o.roster.unit(subject)))
        .map_or_else(|| subject.to_owned(), |u| u.name.clone())
}

/// The field of one entered die: `dice.<step>.<subject>.<k>`; the errors name the roll without
/// the die (`dice.<step>.<subject>`), which is also the first die's id.
fn die_key(step: RollStep, subject: &str, k: usize) -> String {
    format!("dice.{step}.{subject}.{k}")
}

fn roll_key(step: RollStep, subject: &str) -> String {
    format!("dice.{step}.{subject}")
}

fn die_id(step: RollStep, subject: &str, k: usize) -> String {
    let id = field_id(&roll_key(step, subject));
    if k == 0 { id } else { format!("{id}-{k}") }
}

/// How many dice a roll takes ("2d6": 2).
fn dice_count(dice: &str) -> usize {
    dice.split_once('d')
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(1)
}

fn error_line(errors: &Errors, name: &str) -> Markup {
    html! {
        @if let Some(error) = errors.get(name) {
            span.error id={ (field_id(name)) "-error" } { (error) }
        }
    }
}

/// Errors of a form that belong to none of its fields, shown at its top.
fn loose_errors(errors: &Errors, prefixes: &[&str], known: &dyn Fn(&str) -> bool) -> Markup {
    html! {
        @for e in &errors.0 {
            @if prefixes.iter().any(|p| e.field.starts_with(p)) && !known(&e.field) {
                p.error { (e.message) }
            }
        }
    }
}

fn snapshot_value(s: &UnitSnapshot, what: &str) -> String {
    match what {
        "strength" => format!("{}/{}", s.strength, s.starting_strength),
        "quality" => words(s.quality.name()),
        "resolve" => s.resolve.map_or("none".to_owned(), |r| words(r.name())),
        "status" => match s.vehicle_state {
            Some(v) if s.status.name() == "active" => words(v.name()),
            _ => words(s.status.name()),
        },
        _ => String::new(),
    }
}

fn fate_words(fate: VehicleFate) -> &'static str {
    match fate {
        VehicleFate::Repaired => "repaired",
        VehicleFate::Replaced => "replaced",
        VehicleFate::StaysDamaged => "stays damaged",
        VehicleFate::Eliminated => "not replaced: eliminated",
    }
}

/// One event in words, with its die.
/// One event in the words of the sequence's ruleset: a figure's purchases and arrivals read in
/// the FMA playtest's words (docs/rules.md §11).
fn event_words_in(view: &AftermathView, event: &UnitEvent) -> String {
    match event {
        UnitEvent::Purchase { item, cost, .. } if on_figures(view) => format!(
            "bought {} for {cost} CP",
            words(fad_domain::rulesets::gzg_fma_1999::item_word(*item))
        ),
        UnitEvent::Formed { .. } if on_figures(view) => {
            "joined from the reinforcement pool".to_owned()
        }
        other => event_words(other),
    }
}

fn event_words(event: &UnitEvent) -> String {
    match event {
        UnitEvent::Losses {
            figures,
            vehicle_damage,
        } => match vehicle_damage {
            Some(damage) => format!("battle: {}", words(damage.name())),
            None => format!("battle: lost {figures} figure(s)"),
        },
        UnitEvent::Replacements { roll, figures } => {
            format!("replacement roll {roll}: {figures} figure(s) back")
        }
        UnitEvent::VehicleReplacement { roll, fate } => {
            format!("vehicle replacement roll {roll}: {}", fate_words(*fate))
        }
        UnitEvent::QualityLoss { roll, from, to } => format!(
            "quality loss roll {roll}: {} → {}",
            words(from.name()),
            words(to.name())
        ),
        UnitEvent::ResolveRolled { roll, to } => {
            format!("Resolve roll {roll}: {}", words(to.name()))
        }
        UnitEvent::ResolveChange { roll, from, to } => format!(
            "resolve change roll {roll}: {} → {}",
            words(from.name()),
            words(to.name())
        ),
        UnitEvent::Casualty { roll, casualty } => {
            format!("casualty roll {roll}: {}", words(casualty.name()))
        }
        UnitEvent::MotivationChange { roll, from, to } => {
            format!("Motivation change roll {roll}: {from} → {to}")
        }
        UnitEvent::Purchase {
            item,
            cost,
            personality,
            trait_,
        } => {
            let what = personality
                .map(|p| format!(" ({})", words(p.name())))
                .or_else(|| trait_.map(|t| format!(" ({})", words(t.name()))))
                .unwrap_or_default();
            format!("bought {}{what} for {cost} CP", words(item.name()))
        }
        UnitEvent::Reinforced { troopers } => format!("{troopers} reinforcement(s) joined"),
        UnitEvent::Formed { troopers } => {
            format!("formed from the pool with {troopers} trooper(s)")
        }
    }
}

/// Every unit that changed, battle start → now side by side, and what happened to it.
fn changes_list(view: &AftermathView) -> Markup {
    let Some(outcome) = &view.outcome else {
        return html! {};
    };
    html! {
        section aria-labelledby="changes" {
            h2 id="changes" { "What changed" }
            p.muted { "Each unit at the start of the battle → now." }
            @if outcome.changes.is_empty() {
                p.muted { "No unit changed." }
            } @else {
                // One card per unit: a table of six columns does not fit a phone.
                ul.cards {
                    @for change in &outcome.changes {
                        li {
                            h3 { (change.name) }
                            @if on_figures(view) {
                                (figure_change(view, &change.unit_id, change.before.is_none()))
                            } @else {
                            dl.stats {
                                @for (what, label) in [("strength", "Figures"), ("quality", "Quality"), ("resolve", "Resolve"), ("status", "Status")] {
                                    @let after = snapshot_value(&change.after, what);
                                    dt { (label) }
                                    dd {
                                        @match &change.before {
                                            Some(before) if snapshot_value(before, what) != after => {
                                                (snapshot_value(before, what)) " → " strong { (after) }
                                            }
                                            Some(_) => (after),
                                            None => { "new: " strong { (after) } }
                                        }
                                    }
                                }
                            }
                            }
                            ul {
                                @for event in &change.events { li { (event_words_in(view, event)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A figure's Experience, Motivation and standing at the start of the battle → now (M4, M6).
fn figure_change(view: &AftermathView, unit_id: &str, new: bool) -> Markup {
    use crate::web::forces::roster::{figure_grade, motivation_words};
    let standing = |u: &fad_domain::roster::Unit| -> String {
        match &u.fma {
            Some(p) if p.dead => "dead".to_owned(),
            _ if u.status == fad_domain::roster::UnitStatus::Eliminated => "out".to_owned(),
            _ => "fit".to_owned(),
        }
    };
    let line = |u: &fad_domain::roster::Unit| -> [String; 3] {
        match &u.fma {
            Some(p) => [figure_grade(p), motivation_words(p.motivation), standing(u)],
            None => [String::new(), String::new(), standing(u)],
        }
    };
    let after = view
        .outcome
        .as_ref()
        .and_then(|o| o.roster.unit(unit_id))
        .map(line);
    let before = if new {
        None
    } else {
        view.start.unit(unit_id).map(line)
    };
    let Some(after) = after else {
        return html! {};
    };
    html! {
        dl.stats {
            @for (k, label) in ["Experience", "Motivation", "Standing"].iter().enumerate() {
                dt { (label) }
                dd {
                    @match &before {
                        Some(b) if b[k] != after[k] => { (b[k]) " → " strong { (after[k]) } }
                        Some(_) => (after[k]),
                        None => { "new: " strong { (after[k]) } }
                    }
                }
            }
        }
    }
}

/// Every die of the sequence so far: the roll, its unit, the values and who rolled.
fn dice_table(view: &AftermathView) -> Markup {
    let Some(outcome) = &view.outcome else {
        return html! {};
    };
    html! {
        section aria-labelledby="dice" {
            h2 id="dice" { "Dice rolled" }
            @if outcome.rolls.is_empty() {
                p.muted { "No dice yet." }
            } @else {
                div.table-wrap {
                    table.dice {
                        thead { tr {
                            th scope="col" { "Roll" }
                            th scope="col" { "For" }
                            th.num scope="col" { "Dice" }
                        } }
                        tbody {
                            @for roll in &outcome.rolls {
                                tr {
                                    th scope="row" { (roll_label_in(view, roll.step)) }
                                    td { (subject_name(view, &roll.subject)) }
                                    td.num {
                                        (roll.values.iter().map(ToString::to_string).collect::<Vec<_>>().join(" + "))
                                        @if roll.values.len() > 1 { " = " (roll.total) }
                                        br;
                                        span.hint { (match roll.source { RollSource::Player => "entered", RollSource::Server => "by the server" }) }
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

/// The next roll step's form: one optional input per die the rules call for.
fn roll_form(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let sequence = &view.sequence;
    let Some(step) = sequence.next_step else {
        return html! {};
    };
    let action = format!(
        "/battles/{}/aftermath/{}/roll",
        sequence.battle_id, sequence.force_id
    );
    let known = |f: &str| {
        sequence
            .next_dice
            .iter()
            .any(|d| roll_key(d.step, &d.subject) == f)
    };
    html! {
        section aria-labelledby="roll" {
            h2 id="roll" { "Roll: " (step_heading(view, step)) }
            p { "Roll these at the table and enter each die, or leave a die empty and the server rolls it. "
                "A wrong value can be fixed here until you press Roll; after that only the organiser's reopening undoes it." }
            form.stack method="post" action=(action) novalidate {
                (csrf_input(state, &FormKey::session(user)))
                input type="hidden" name="step" value=(step.to_string());
                (loose_errors(errors, &["dice", "step"], &known))
                @for due in &sequence.next_dice {
                    @let name = due.unit_name.clone().unwrap_or_else(|| subject_name(view, &due.subject));
                    @let count = dice_count(&due.dice);
                    @let key = roll_key(due.step, &due.subject);
                    @let hint_id = format!("{}-hint", field_id(&key));
                    @let error = errors.get(&key);
                    @let described = if error.is_some() { format!("{hint_id} {}-error", field_id(&key)) } else { hint_id.clone() };
                    div.field {
                        @for k in 0..count {
                            @let label = if count == 1 {
                                format!("{} for {name}", roll_label_in(view, due.step))
                            } else {
                                format!("{} {} for {name}", roll_label_in(view, due.step), k + 1)
                            };
                            label for=(die_id(due.step, &due.subject, k)) { (label) }
                            @if k == 0 {
                                span.hint id=(hint_id) {
                                    (due.dice) ": " (due.why) ". "
                                    (if count == 1 { "Leave empty and the server rolls." } else { "Enter every die, or leave them all empty and the server rolls." })
                                }
                                (error_line(errors, &key))
                            }
                            input type="number" inputmode="numeric" min="1" max="6"
                                id=(die_id(due.step, &due.subject, k))
                                name=(die_key(due.step, &due.subject, k))
                                value=(fields.get(&die_key(due.step, &due.subject, k)).map_or("", String::as_str))
                                aria-invalid=[error.map(|_| "true")]
                                aria-describedby=(described);
                        }
                    }
                }
                div.actions { button type="submit" { "Roll" } }
            }
        }
    }
}

/// The new squad as the form shows it: name, troopers, platoon.
type SquadShown = (String, u32, String);

/// The allocation now in force, by unit, and the new squad, read from the sequence so far.
fn current_allocation(view: &AftermathView) -> (BTreeMap<String, u32>, Option<SquadShown>) {
    let mut by_unit = BTreeMap::new();
    let Some(outcome) = &view.outcome else {
        return (by_unit, None);
    };
    for change in &outcome.changes {
        for event in &change.events {
            if let UnitEvent::Reinforced { troopers } = event {
                *by_unit.entry(change.unit_id.clone()).or_insert(0) += troopers;
            }
        }
    }
    let squad = outcome
        .reinforcements
        .formed
        .as_ref()
        .map(|f| (f.name.clone(), f.troopers, f.platoon.clone()));
    (by_unit, squad)
}

fn reinforcements_form(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let sequence = &view.sequence;
    let Some(pending) = &sequence.pending else {
        return html! {};
    };
    let (current, squad) = current_allocation(view);
    let edited = fields.contains_key("reinforcements");
    let shown = |key: &str, stored: String| -> String {
        if edited {
            fields.get(key).cloned().unwrap_or_default()
        } else {
            stored
        }
    };
    let platoons: Vec<String> = view
        .outcome
        .as_ref()
        .map(|o| o.roster.platoons.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    let action = format!(
        "/battles/{}/aftermath/{}/reinforcements",
        sequence.battle_id, sequence.force_id
    );
    let squad_name = shown(
        "new_squad.name",
        squad.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
    );
    let squad_troopers = shown(
        "new_squad.troopers",
        squad.as_ref().map(|s| s.1.to_string()).unwrap_or_default(),
    );
    let squad_platoon = shown(
        "new_squad.platoon",
        squad.as_ref().map(|s| s.2.clone()).unwrap_or_default(),
    );
    let known = |f: &str| {
        f.starts_with("troopers.") || f.starts_with("new_squad.") || f.starts_with("figures.")
    };
    if on_figures(view) {
        return figure_reinforcements_form(state, user, view, fields, errors, &action);
    }
    html! {
        section aria-labelledby="reinforcements" {
            h2 id="reinforcements" { "Reinforcements" }
            p { "The pool has " strong { (pending.pool_total) } " trooper(s); "
                (pending.pool_allocated) " are allocated now. Troopers join multi-figure infantry units up to their establishment; "
                "at most one new squad of 5 to 8 may be formed. Troopers left over are lost. "
                "Extra reinforcement dice bought below add to the pool." }
            form.stack method="post" action=(action) novalidate {
                (csrf_input(state, &FormKey::session(user)))
                input type="hidden" name="reinforcements" value="1";
                (loose_errors(errors, &["allocations", "new_squad", "troopers"], &known))
                @for room in &pending.units {
                    @let key = format!("troopers.{}", room.unit_id);
                    @let given = current.get(&room.unit_id).copied().unwrap_or(0);
                    // The server's own allowance: room up to E, capped by what the pool has left.
                    @let most = room.may_assign;
                    @if room.may_receive > 0 {
                        div.field {
                            label for=(field_id(&key)) { "Troopers for " (room.name) }
                            span.hint id={ (field_id(&key)) "-hint" } {
                                "up to " (most)
                                @if most < room.may_receive { " (the pool's troopers not given elsewhere; the unit has room for " (room.may_receive) ")" }
                            }
                            (error_line(errors, &key))
                            input type="number" inputmode="numeric" min="0" max=(most)
                                id=(field_id(&key)) name=(key)
                                value=(shown(&key, if given > 0 { given.to_string() } else { String::new() }))
                                aria-invalid=[errors.get(&key).map(|_| "true")]
                                aria-describedby={ (field_id(&key)) "-hint" @if errors.get(&key).is_some() { " " (field_id(&key)) "-error" } };
                        }
                    }
                }
                fieldset.group {
                    legend { "A new squad (optional)" }
                    div.field {
                        label for=(field_id("new_squad.name")) { "New squad name" }
                        (error_line(errors, "new_squad.name"))
                        input type="text" maxlength="100" id=(field_id("new_squad.name")) name="new_squad.name" value=(squad_name)
                            aria-invalid=[errors.get("new_squad.name").map(|_| "true")];
                    }
                    div.field {
                        label for=(field_id("new_squad.troopers")) { "New squad troopers" }
                        span.hint { "5 to 8; leave empty for no new squad" }
                        (error_line(errors, "new_squad.troopers"))
                        input type="number" inputmode="numeric" min="5" max="8" id=(field_id("new_squad.troopers")) name="new_squad.troopers" value=(squad_troopers)
                            aria-invalid=[errors.get("new_squad.troopers").map(|_| "true")];
                    }
                    div.field {
                        label for=(field_id("new_squad.platoon")) { "New squad platoon" }
                        span.hint { "It takes the kit of the platoon's typical squad." }
                        (error_line(errors, "new_squad.platoon"))
                        select id=(field_id("new_squad.platoon")) name="new_squad.platoon"
                            aria-invalid=[errors.get("new_squad.platoon").map(|_| "true")] {
                            option value="" selected[squad_platoon.is_empty()] { "The first platoon with a squad" }
                            @for name in &platoons {
                                option value=(name) selected[*name == squad_platoon] { (name) }
                            }
                        }
                    }
                }
                div.actions { button type="submit" { "Save reinforcements" } }
            }
        }
    }
}

/// The reinforcement form of a force of figures (docs/rules.md §11, M7): new figures per team
/// up to its starting size, or one new team of 5 to 8.
fn figure_reinforcements_form(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    errors: &Errors,
    action: &str,
) -> Markup {
    use fad_domain::campaign::figures::team_room;
    let Some(pending) = &view.sequence.pending else {
        return html! {};
    };
    let Some(outcome) = &view.outcome else {
        return html! {};
    };
    let edited = fields.contains_key("reinforcements");
    let shown = |key: &str, stored: String| -> String {
        if edited {
            fields.get(key).cloned().unwrap_or_default()
        } else {
            stored
        }
    };
    // Figures the current allocation gave each team: those not on the battle-start roster.
    let given = |i: usize| -> u32 {
        outcome.roster.platoons.get(i).map_or(0, |team| {
            let new = team
                .units
                .iter()
                .filter(|u| view.start.unit(&u.id).is_none());
            u32::try_from(new.count()).unwrap_or(0)
        })
    };
    let formed = outcome.reinforcements.formed.as_ref();
    let team_name = shown(
        "new_squad.name",
        formed.map(|f| f.name.clone()).unwrap_or_default(),
    );
    let team_figures = shown(
        "new_squad.troopers",
        formed.map(|f| f.troopers.to_string()).unwrap_or_default(),
    );
    let known = |f: &str| f.starts_with("figures.") || f.starts_with("new_squad.");
    html! {
        section aria-labelledby="reinforcements" {
            h2 id="reinforcements" { "Reinforcements" }
            p { "The pool has " strong { (pending.pool_total) } " new figure(s); "
                (pending.pool_allocated) " are placed now. A new figure is Green with Motivation 3 and takes the place, armour and weapons "
                "of a dead figure of its team; a team takes as many as it has dead. Five to eight may form one new team instead. "
                "Figures left over are lost." }
            form.stack method="post" action=(action) novalidate {
                (csrf_input(state, &FormKey::session(user)))
                input type="hidden" name="reinforcements" value="1";
                (loose_errors(errors, &["teams", "allocations", "new_squad"], &known))
                @for (i, team) in outcome.roster.platoons.iter().enumerate() {
                    @if formed.is_none_or(|f| f.platoon != team.name) {
                        @let key = format!("figures.{i}");
                        @let now = given(i);
                        @let room = team_room(team) + now;
                        @if room > 0 {
                            div.field {
                                label for=(field_id(&key)) { "New figures for " (team.name) }
                                span.hint id={ (field_id(&key)) "-hint" } { "up to " (room) }
                                (error_line(errors, &key))
                                input type="number" inputmode="numeric" min="0" max=(room)
                                    id=(field_id(&key)) name=(key)
                                    value=(shown(&key, if now > 0 { now.to_string() } else { String::new() }))
                                    aria-invalid=[errors.get(&key).map(|_| "true")]
                                    aria-describedby={ (field_id(&key)) "-hint" @if errors.get(&key).is_some() { " " (field_id(&key)) "-error" } };
                            }
                        }
                    }
                }
                fieldset.group {
                    legend { "A new team (optional)" }
                    div.field {
                        label for=(field_id("new_squad.name")) { "New team name" }
                        (error_line(errors, "new_squad.name"))
                        input type="text" maxlength="100" id=(field_id("new_squad.name")) name="new_squad.name" value=(team_name)
                            aria-invalid=[errors.get("new_squad.name").map(|_| "true")];
                    }
                    div.field {
                        label for=(field_id("new_squad.troopers")) { "New team figures" }
                        span.hint { "5 to 8; leave empty for no new team" }
                        (error_line(errors, "new_squad.troopers"))
                        input type="number" inputmode="numeric" min="5" max="8" id=(field_id("new_squad.troopers")) name="new_squad.troopers" value=(team_figures)
                            aria-invalid=[errors.get("new_squad.troopers").map(|_| "true")];
                    }
                }
                div.actions { button type="submit" { "Save reinforcements" } }
            }
        }
    }
}

pub(in crate::web) fn purchase_key(row: usize, field: &str) -> String {
    format!("purchases[{row}][{field}]")
}

fn purchases_form(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let sequence = &view.sequence;
    let Some(pending) = &sequence.pending else {
        return html! {};
    };
    let stored: Vec<Purchase> = view
        .outcome
        .as_ref()
        .map(|o| o.purchases.iter().map(|p| p.purchase.clone()).collect())
        .unwrap_or_default();
    // The form's own marker: the rows shown are the ones sent (the stored ones otherwise).
    let edited = fields.contains_key("purchase_rows");
    let rows = if edited {
        fields
            .keys()
            .filter(|k| k.starts_with("purchases[") && k.ends_with("][item]"))
            .count()
    } else {
        stored.len() + BLANK_PURCHASE_ROWS
    };
    let value = |row: usize, field: &str| -> String {
        if edited {
            return fields
                .get(&purchase_key(row, field))
                .cloned()
                .unwrap_or_default();
        }
        let Some(p) = stored.get(row) else {
            return String::new();
        };
        match field {
            "item" => p.item.name().to_owned(),
            "unit_id" => p.unit_id.clone().unwrap_or_default(),
            "personality" => p
                .personality
                .map(|v| v.name().to_owned())
                .unwrap_or_default(),
            "trait" => p.trait_.map(|v| v.name().to_owned()).unwrap_or_default(),
            _ => String::new(),
        }
    };
    let units: Vec<(String, String)> = view
        .outcome
        .as_ref()
        .map(|o| {
            o.roster
                .units()
                .map(|u| (u.id.clone(), u.name.clone()))
                .collect()
        })
        .unwrap_or_default();
    let left = pending.cp_available.saturating_sub(pending.cp_spent);
    let action = format!(
        "/battles/{}/aftermath/{}/purchases",
        sequence.battle_id, sequence.force_id
    );
    // A row's field (`purchases[0][item]`), not the row as a whole (`purchases[0]`).
    let known = |f: &str| (f.starts_with("purchases[") && f.contains("][")) || f == "extra_dice";
    let select = |row: usize,
                  field: &str,
                  label: &str,
                  options: Vec<(String, String)>,
                  none: &str| {
        let key = purchase_key(row, field);
        let chosen = value(row, field);
        html! {
            div.field {
                label for=(field_id(&key)) { (label) }
                (error_line(errors, &key))
                select id=(field_id(&key)) name=(key) aria-invalid=[errors.get(&key).map(|_| "true")] {
                    option value="" selected[chosen.is_empty()] { (none) }
                    @for (v, text) in &options {
                        option value=(v) selected[*v == chosen] { (text) }
                    }
                }
            }
        }
    };
    // The campaign's ruleset prices the menu and says what it sells.
    let menu: Vec<_> = view
        .ruleset
        .tables
        .menu
        .iter()
        .filter(|row| row.enabled)
        .collect();
    // Under FMA the items read in its own words (improve experience, improve motivation).
    let figures = on_figures(view);
    let item_words = |item: PurchaseItem| -> String {
        if figures {
            words(fad_domain::rulesets::gzg_fma_1999::item_word(item))
        } else {
            words(item.name())
        }
    };
    let items: Vec<(String, String)> = menu
        .iter()
        .map(|row| {
            (
                row.item.name().to_owned(),
                format!("{} ({} CP)", item_words(row.item), row.cost),
            )
        })
        .collect();
    // The personalities this ruleset grants (FAD 5e's eleven, or another ruleset's list).
    let personalities: Vec<(String, String)> = view
        .ruleset
        .tables
        .grantable()
        .iter()
        .map(|p| (p.name().to_owned(), words(p.name())))
        .collect();
    let traits: Vec<(String, String)> = Trait::ALL
        .iter()
        .map(|t| (t.name().to_owned(), words(t.name())))
        .collect();
    html! {
        section aria-labelledby="purchases" {
            h2 id="purchases" { "Purchases" }
            dl.stats {
                dt { "Campaign points available" } dd { (pending.cp_available) }
                dt { "Spent on these purchases" } dd { (pending.cp_spent) }
                dt { "Left" } dd { (left) }
            }
            details {
                summary { "The experience menu of " (view.ruleset.name) }
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Item" } th.num scope="col" { "Cost (CP)" } } }
                        tbody {
                            @for row in &menu {
                                tr { th scope="row" { (item_words(row.item)) } td.num { (row.cost) } }
                            }
                        }
                    }
                }
            }
            form.stack method="post" action=(action) novalidate {
                (csrf_input(state, &FormKey::session(user)))
                input type="hidden" name="purchase_rows" value="1";
                (loose_errors(errors, &["purchases", "extra_dice", "dice"], &known))
                @for row in 0..rows {
                    fieldset.group {
                        legend { "Purchase " (row + 1) }
                        (select(row, "item", "Item", items.clone(), "nothing"))
                        (select(row, "unit_id", "Unit", units.clone(), "none (for an extra die)"))
                        @let extra_open = ["personality", "trait"].iter().any(|f| {
                            !value(row, f).is_empty() || errors.get(&purchase_key(row, f)).is_some()
                        });
                        // Only two items take these: folded away unless used (never sold to figures).
                        @if !figures { details open[extra_open] {
                            summary { "Personality or trait" }
                            (select(row, "personality", "Personality", personalities.clone(), "none (grant personality only)"))
                            (select(row, "trait", "Trait", traits.clone(), "none (assign trait only)"))
                        } }
                    }
                }
                div.field {
                    label for=(field_id("extra_dice")) { "Extra reinforcement dice" }
                    span.hint id={ (field_id("extra_dice")) "-hint" } { "One value per newly bought die, separated by spaces. Leave empty and the server rolls; dice already rolled are kept." }
                    (error_line(errors, "extra_dice"))
                    input type="text" inputmode="numeric" id=(field_id("extra_dice")) name="extra_dice"
                        value=(fields.get("extra_dice").map_or("", String::as_str))
                        aria-invalid=[errors.get("extra_dice").map(|_| "true")]
                        aria-describedby={ (field_id("extra_dice")) "-hint" };
                }
                p.hint { "Choose nothing in a row to leave it out; saving replaces the whole list." }
                div.actions { button type="submit" { "Save purchases" } }
            }
        }
    }
}

/// Campaign points and the pool, as they stand (or as finalized).
fn summary(view: &AftermathView) -> Markup {
    let Some(outcome) = &view.outcome else {
        return html! {};
    };
    let cp = &outcome.campaign_points;
    let pool = &outcome.reinforcements;
    let (group, to_groups, new_group, noun) = if on_figures(view) {
        (
            "team",
            "New figures to teams",
            "Figures in a new team",
            "Figures lost",
        )
    } else {
        (
            "platoon",
            "Troopers to units",
            "Troopers in a new squad",
            "Troopers lost",
        )
    };
    html! {
        section aria-labelledby="summary" {
            h2 id="summary" { "Summary" }
            dl.stats {
                dt { "Campaign points before" } dd { (cp.banked_before) }
                dt { "Earned (" (view.ruleset.tables.cp_per_platoon) " per " (group) ")" } dd { (cp.earned) }
                dt { "Spent" } dd { (cp.spent) }
                @if cp.forfeited > 0 { dt { "Forfeited (not banked)" } dd { (cp.forfeited) } }
                dt { "Balance after" } dd { (cp.balance) }
                @if !pool.dice.is_empty() {
                    dt { "Reinforcement pool" }
                    dd {
                        (pool.dice.iter().chain(&pool.extra_dice).map(ToString::to_string).collect::<Vec<_>>().join(" + "))
                        " = " (pool.total)
                    }
                    dt { (to_groups) } dd { (pool.allocated) }
                    dt { (new_group) } dd { (pool.new_squad) }
                    dt { (noun) } dd { (pool.lost) }
                }
            }
        }
    }
}

fn finalize_form(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    errors: &Errors,
) -> Markup {
    let sequence = &view.sequence;
    let lost = view.outcome.as_ref().map_or(0, |o| o.reinforcements.lost);
    let key = FORGO_FIELD;
    let checked = fields.get(key).is_some_and(|v| v == "1");
    html! {
        section aria-labelledby="finalize" {
            h2 id="finalize" { "Finalize" }
            p { "Finalizing commits the roster and the campaign points above. Afterwards only the organiser can undo it, by voiding the battle." }
            @if lost > 0 {
                p id="finalize-unassigned" {
                    strong { (lost) " reinforcement trooper(s) are not assigned." }
                    " Finalize refuses until they are "
                    a href="#reinforcements" { "assigned under Reinforcements" }
                    ", unless you give them up below."
                }
            }
            form method="post" action={ "/battles/" (sequence.battle_id) "/aftermath/" (sequence.force_id) "/finalize" } {
                (csrf_input(state, &FormKey::session(user)))
                (error_line(errors, key))
                @if lost > 0 {
                    div.check {
                        input type="checkbox" id=(field_id(key)) name=(key) value="1" checked[checked]
                            aria-invalid=[errors.get(key).map(|_| "true")];
                        label for=(field_id(key)) {
                            "Finalize without assigning " (lost) " reinforcement trooper(s): they are lost"
                        }
                    }
                }
                div.actions { button type="submit" { "Finalize" } }
            }
        }
    }
}

/// What a failed action shows: field errors, or a conflict's message.
#[derive(Debug, Default)]
pub(in crate::web) struct Failure {
    pub(in crate::web) errors: Errors,
    pub(in crate::web) conflict: Option<String>,
}

fn labels(view: &AftermathView) -> Vec<(String, String)> {
    let mut out = vec![
        (
            FORGO_FIELD.to_owned(),
            "Finalize without assigning reinforcements".to_owned(),
        ),
        ("new_squad.name".to_owned(), "New squad name".to_owned()),
        (
            "new_squad.troopers".to_owned(),
            "New squad troopers".to_owned(),
        ),
        (
            "new_squad.platoon".to_owned(),
            "New squad platoon".to_owned(),
        ),
        (
            "extra_dice".to_owned(),
            "Extra reinforcement dice".to_owned(),
        ),
    ];
    for due in &view.sequence.next_dice {
        let name = due
            .unit_name
            .clone()
            .unwrap_or_else(|| subject_name(view, &due.subject));
        out.push((
            roll_key(due.step, &due.subject),
            format!("{} for {name}", roll_label_in(view, due.step)),
        ));
    }
    if let Some(pending) = &view.sequence.pending {
        for room in &pending.units {
            out.push((
                format!("troopers.{}", room.unit_id),
                format!("Troopers for {}", room.name),
            ));
        }
    }
    out
}

pub(in crate::web) fn aftermath_page(
    state: &AppState,
    user: &SessionUser,
    view: &AftermathView,
    fields: &Fields,
    failure: &Failure,
) -> Markup {
    let sequence = &view.sequence;
    let force = view.role.force_name(&sequence.force_id).to_owned();
    let title = format!("After the battle: {force}");
    let may_act = view.role.may_run(&sequence.force_id)
        && matches!(
            view.battle.state,
            BattleState::Aftermath | BattleState::Complete
        );
    let mut label_list = labels(view);
    // Purchase rows are labelled by their number.
    for e in &failure.errors.0 {
        if let Some(rest) = e.field.strip_prefix("purchases[")
            && let Some((n, field)) = rest.split_once("][")
            && let Ok(n) = n.parse::<usize>()
        {
            label_list.push((
                e.field.clone(),
                format!("Purchase {}, {}", n + 1, words(field.trim_end_matches(']'))),
            ));
        }
    }
    let label_refs: Vec<(&str, &str)> = label_list
        .iter()
        .map(|(f, l)| (f.as_str(), l.as_str()))
        .collect();
    let stage = sequence.stage;
    let body = html! {
        h1 { (title) }
        @if let Some(message) = &failure.conflict {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                h2 { "That did not work" }
                p { (message) }
                p { "The page below shows the sequence as it is now." }
            }
        } @else {
            (error_summary(&failure.errors, &label_refs))
        }
        p { (matchup(&view.battle, &view.role)) ". " a href={ "/battles/" (sequence.battle_id) } { "Back to the battle" } }
        p { "Rules: " a href={ "/rules/" (view.ruleset.id) } { (view.ruleset.name) " (version " (view.ruleset.version) ")" } }
        nav aria-label="Steps" {
            ol.steps {
                li aria-current=[matches!(stage, AftermathStage::Open | AftermathStage::Rolling).then_some("step")] { "Rolls" }
                li aria-current=[(stage == AftermathStage::Rolled).then_some("step")] { "Reinforcements and purchases" }
                li aria-current=[(stage == AftermathStage::Finalized).then_some("step")] { "Finalized" }
            }
        }
        p { "Stage: " strong { (stage_words(stage)) } "." }
        @match view.battle.state {
            BattleState::Pending => p { "The result waits for confirmation; the rolls open once it is confirmed." }
            BattleState::Void => p { "This battle is void: its post-battle sequences are closed." }
            _ => @if !view.role.may_run(&sequence.force_id) { p.muted { "Only the force's owner or the organiser runs this sequence." } }
        }
        @if may_act && stage != AftermathStage::Finalized {
            @if sequence.next_step.is_some() {
                (roll_form(state, user, view, fields, &failure.errors))
            }
        }
        (changes_list(view))
        (dice_table(view))
        @if may_act && stage == AftermathStage::Rolled {
            (reinforcements_form(state, user, view, fields, &failure.errors))
            (purchases_form(state, user, view, fields, &failure.errors))
        }
        (summary(view))
        @if may_act && stage == AftermathStage::Rolled {
            (finalize_form(state, user, view, fields, &failure.errors))
        }
        @if stage == AftermathStage::Finalized {
            p { a href={ "/forces/" (sequence.force_id) } { "The roster of " (force) } }
        }
    };
    layout::page(state, Some(user), &title, body)
}

pub(in crate::web) type Ids = web::Path<(String, String)>;

/// `GET /battles/{id}/aftermath/{force_id}`.
#[get("/battles/{id}/aftermath/{force_id}")]
pub async fn show_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: Ids,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let (battle_id, force_id) = path.into_inner();
    let view = battle_pages::aftermath_view(&state, &user.user_id, &battle_id, &force_id).await?;
    Ok(respond(
        StatusCode::OK,
        aftermath_page(&state, &user, &view, &Fields::new(), &Failure::default()),
    ))
}
