//! The roster editor's controls, shared by `/forces/{id}/edit` and the build form of
//! `/campaigns/{id}/forces/new`: the force name, each platoon with its units and every unit
//! field (see [`crate::web::forces::form::FIELDS`]), points per unit, platoon and force, buttons to
//! add and remove units and platoons, and each problem the roster check finds beside its field.

use maud::{Markup, html};
use serde_json::Value;

use crate::app::forces::roster::{PointsPreview, RosterRequest, preview_points};
use crate::error::FieldError;
use crate::web::nested_form::form_name;

use crate::web::forces::form::{
    Field, Group, Options, RESTRICTIONS, Widget, fields_of, platoon_key, unit_key, value_at,
};
use crate::web::forces::roster::{points, words};
use crate::web::layout::{Errors, Input, field_id, select_field, text_field};

fn unit_prefix(i: usize, j: usize) -> String {
    format!("platoons[{i}][units][{j}]")
}

fn unit_name(unit: &Value) -> String {
    match unit.get("name").and_then(Value::as_str).map(str::trim) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => "unnamed unit".to_owned(),
    }
}

fn platoon_name(roster: &RosterRequest, i: usize) -> String {
    match roster.platoons.get(i).map(|p| p.name.trim()) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => format!("platoon {}", i + 1),
    }
}

/// Every field of the form with the label the error summary names it by.
pub fn labels(roster: &RosterRequest) -> Vec<(String, String)> {
    let mut out = vec![
        ("name".to_owned(), "Force name".to_owned()),
        ("reason".to_owned(), "Reason".to_owned()),
        ("version".to_owned(), "Version".to_owned()),
    ];
    for (i, platoon) in roster.platoons.iter().enumerate() {
        let pname = platoon_name(roster, i);
        out.push((platoon_key(i), format!("Name of platoon {pname}")));
        for (j, unit) in platoon.units.iter().enumerate() {
            let name = unit_name(unit);
            out.push((unit_prefix(i, j), format!("{name} ({pname})")));
            for f in fields_of(unit) {
                out.push((unit_key(i, j, f.path), format!("{} of {name}", f.label)));
            }
        }
    }
    out
}

/// The problems of a refused roster, each moved to the control that shows it (the check names
/// request paths, the form its bracketed names): an entry of a list to the list, a member of a
/// missing object to its nearest control, a unit's or a platoon's own problem to the unit or
/// the platoon's name.
pub fn map_errors(roster: &RosterRequest, errors: Vec<FieldError>) -> Errors {
    let known: Vec<String> = labels(roster).into_iter().map(|(k, _)| k).collect();
    let resolve = |path: &str| -> String {
        let field = form_name(path);
        let field = field.as_str();
        if known.iter().any(|k| k == field) {
            return field.to_owned();
        }
        // `traits[2]` → `traits`.
        let mut stem = field;
        while let Some(open) = stem.rfind('[').filter(|_| stem.ends_with(']')) {
            stem = &stem[..open];
            if known.iter().any(|k| k == stem) {
                return stem.to_owned();
            }
        }
        let best = known
            .iter()
            .filter(|k| {
                field.len() > k.len()
                    && field.starts_with(k.as_str())
                    && field.as_bytes()[k.len()] == b'['
            })
            .max_by_key(|k| k.len());
        match best {
            Some(k) => k.clone(),
            None if field.starts_with("platoons[") && !field.contains("][") => {
                format!("{field}[name]")
            }
            None => field.to_owned(),
        }
    };
    Errors(
        errors
            .into_iter()
            .map(|e| FieldError::new(resolve(&e.field), e.message))
            .collect(),
    )
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

fn list_of(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(text_of).collect(),
        Value::Null => Vec::new(),
        other => vec![text_of(other)],
    }
}

fn with_none(options: &Options, none: Option<&str>) -> Options {
    none.map(|text| (String::new(), text.to_owned()))
        .into_iter()
        .chain(options.iter().cloned())
        .collect()
}

/// The error line of `key`, if any.
fn error_line(errors: &Errors, key: &str) -> Markup {
    html! {
        @if let Some(message) = errors.get(key) {
            span.error id={ (field_id(key)) "-error" } { (message) }
        }
    }
}

fn control(f: &Field, key: &str, unit: &Value, errors: &Errors) -> Markup {
    let value = value_at(unit, f.path);
    let id = field_id(key);
    let invalid = errors.get(key).map(|_| "true");
    let described = errors.get(key).map(|_| format!("{id}-error"));
    let hint = f.hint.map(str::to_owned).or_else(|| {
        let last = f.path.rsplit('.').next().unwrap_or(f.path);
        RESTRICTIONS.get(last).cloned()
    });
    match f.widget {
        Widget::Text => text_field(
            key,
            f.label,
            &text_of(value),
            errors,
            Input {
                max_length: Some(100),
                required: true,
                hint: f.hint,
                ..Input::default()
            },
        ),
        Widget::OptText => text_field(
            key,
            f.label,
            &text_of(value),
            errors,
            Input {
                max_length: Some(100),
                hint: f.hint,
                ..Input::default()
            },
        ),
        Widget::NumberChoice(options) => html! {
            (select_field(key, f.label, options(), &text_of(value), errors))
            @if let Some(hint) = f.hint { p.hint { (hint) } }
        },
        Widget::Number(_) | Widget::OptNumber(false) => text_field(
            key,
            f.label,
            &text_of(value),
            errors,
            Input {
                kind: "number",
                hint: f.hint,
                ..Input::default()
            },
        ),
        Widget::OptNumber(true) => text_field(
            key,
            f.label,
            &text_of(value),
            errors,
            Input {
                hint: f.hint,
                ..Input::default()
            },
        ),
        Widget::Choice(options, none) => html! {
            (select_field(key, f.label, &with_none(options(), none), &text_of(value), errors))
            @if let Some(hint) = f.hint { p.hint { (hint) } }
        },
        Widget::Flag => html! {
            div.check {
                input type="checkbox" id=(id) name=(key) value="on" checked[value.as_bool() == Some(true)]
                    aria-invalid=[invalid] aria-describedby=[described.as_deref()];
                label for=(id) { (f.label) }
                (error_line(errors, key))
            }
            @if let Some(hint) = f.hint { p.hint { (hint) } }
        },
        // Checkboxes, not a multiple select: a phone has no Ctrl key, and every choice shows.
        Widget::Set(options) => {
            let chosen = list_of(value);
            html! {
                fieldset.chips id=(id) aria-invalid=[invalid] aria-describedby=[described.as_deref()] {
                    legend { (f.label) }
                    @if let Some(h) = &hint { p.hint { (h) } }
                    (error_line(errors, key))
                    div.chip-grid {
                        @for (n, (v, text)) in options().iter().enumerate() {
                            @let option_id = format!("{id}-{n}");
                            div.check {
                                input type="checkbox" id=(option_id) name=(key) value=(v) checked[chosen.contains(v)];
                                label for=(option_id) { (text) }
                            }
                        }
                    }
                }
            }
        }
        Widget::List(options) => {
            let mut entries = list_of(value);
            // One empty entry to add another; saving or "Update points" brings the next.
            entries.push(String::new());
            let choices = with_none(options(), Some("none"));
            html! {
                fieldset.list id=(id) aria-invalid=[invalid] aria-describedby=[described.as_deref()] {
                    legend { (plural(f.label)) }
                    @if let Some(h) = &hint { p.hint { (h) } }
                    (error_line(errors, key))
                    @for (n, entry) in entries.iter().enumerate() {
                        @let entry_id = format!("{id}-{n}");
                        div.field {
                            label for=(entry_id) { (f.label) " " (n + 1) }
                            select id=(entry_id) name=(key) {
                                @for (v, text) in &choices {
                                    option value=(v) selected[v == entry] { (text) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A list's heading: "Personality" → "Personalities", "Bot" → "Bots".
fn plural(label: &str) -> String {
    match label.strip_suffix('y') {
        Some(stem) => format!("{stem}ies"),
        None => format!("{label}s"),
    }
}

/// What the unit has in `group`, in a few words for the section's summary ("flame thrower,
/// tough"), so closed sections still show the unit's gear.
fn group_summary(unit: &Value, group: Group) -> String {
    let mut parts: Vec<String> = Vec::new();
    for f in fields_of(unit).iter().filter(|f| f.group == group) {
        let value = value_at(unit, f.path);
        match (f.widget, value) {
            (Widget::Flag, Value::Bool(true)) => parts.push(f.label.to_lowercase()),
            (Widget::Set(_) | Widget::List(_), Value::Array(items)) => {
                parts.extend(items.iter().map(|v| words(&text_of(v))));
            }
            (Widget::Choice(..), Value::String(s)) if !s.is_empty() => parts.push(words(s)),
            (Widget::OptText, Value::String(s)) if !s.is_empty() => parts.push(s.clone()),
            (Widget::Number(Some(d)), Value::Number(n)) if n.as_u64() != Some(u64::from(d)) => {
                parts.push(format!("{} {n}", f.label.to_lowercase()));
            }
            (Widget::OptNumber(_), Value::Number(n)) => {
                parts.push(format!("{} {n}", f.label.to_lowercase()));
            }
            _ => {}
        }
    }
    let text = parts.join(", ");
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(79).collect::<String>())
    } else {
        text
    }
}

fn unit_markup(
    i: usize,
    j: usize,
    unit: &Value,
    unit_points: Option<f64>,
    errors: &Errors,
) -> Markup {
    let prefix = unit_prefix(i, j);
    let name = unit_name(unit);
    // A figure's first weapon shows as its own fields (`fma.weapon`).
    let shown = crate::web::forces::figure_form::with_weapon_fields(unit);
    let unit = &shown;
    let fields = fields_of(unit);
    // Sections a figure has no field in are left out.
    let groups: Vec<Group> = Group::ALL
        .iter()
        .copied()
        .filter(|g| *g != Group::Basics && fields.iter().any(|f| f.group == *g))
        .collect();
    let has_error = |group: Group| {
        fields
            .iter()
            .filter(|f| f.group == group)
            .any(|f| errors.get(&unit_key(i, j, f.path)).is_some())
    };
    html! {
        fieldset.panel.unit id=(field_id(&prefix)) {
            legend {
                (name)
                // A figure is unpriced (M9): no points to show.
                @if !crate::web::forces::figure_form::is_figure(unit) {
                    " · "
                    @match unit_points {
                        Some(p) => { (points(p)) " points" }
                        None => { "points once every field reads" }
                    }
                }
            }
            (error_line(errors, &prefix))
            @if let Some(id) = unit.get("id").and_then(Value::as_str).filter(|id| !id.is_empty()) {
                input type="hidden" name=(unit_key(i, j, "id")) value=(id);
            }
            @for f in fields.iter().filter(|f| f.group == Group::Basics) {
                (control(f, &unit_key(i, j, f.path), unit, errors))
            }
            @for group in &groups {
                @let in_use = group_summary(unit, *group);
                // Closed unless it holds a problem: the summary says what is in it.
                details.group open[has_error(*group)] {
                    summary {
                        (group.title())
                        @if !in_use.is_empty() { span.muted.summary-text { " · " (in_use) } }
                    }
                    div.group-body {
                        @for f in fields.iter().filter(|f| f.group == *group) {
                            (control(f, &unit_key(i, j, f.path), unit, errors))
                        }
                    }
                }
            }
            div.actions {
                button.secondary type="submit" name="action" value={ "remove_unit:" (i) ":" (j) } { "Remove " (name) }
            }
        }
    }
}

/// The editor's controls (inside the page's form): the force name, every platoon and unit,
/// points, and the add, remove and "Update points" buttons. `preview` is the points of
/// `roster` (see [`preview_points`]).
/// `action` is the form's address: the add buttons post to it with the new unit's or
/// platoon's anchor, so the page comes back where the person was working.
pub fn editor(roster: &RosterRequest, errors: &Errors, action: &str) -> Markup {
    let preview: PointsPreview = preview_points(roster);
    let figures = crate::web::forces::figure_form::any_figure(
        roster.platoons.iter().flat_map(|p| p.units.iter()),
    );
    // Figures are unpriced (docs/rules.md M9), and their groups are teams.
    let (group, add_group) = if figures {
        ("Team", "Add a team")
    } else {
        ("Platoon", "Add a platoon")
    };
    html! {
        // The first submit button is the one Enter presses: it saves, never removes a unit.
        button.default-submit type="submit" name="action" value="save" tabindex="-1" aria-hidden="true" { "Save" }
        (text_field("name", "Force name", &roster.name, errors, Input {
            max_length: Some(100),
            required: true,
            ..Input::default()
        }))
        @if figures {
            p.total { "Unpriced: the FMA playtest's costings are not among the rules texts." }
        } @else {
            p.total { "Total: " strong { (points(preview.force)) " points" } }
        }
        @for (i, platoon) in roster.platoons.iter().enumerate() {
            section.platoon aria-labelledby={ "platoon-" (i) } {
                h2 id={ "platoon-" (i) } {
                    (platoon_name(roster, i))
                    @if !figures { " · " (points(preview.platoons.get(i).copied().unwrap_or(0.0))) " points" }
                }
                (text_field(&platoon_key(i), &format!("{group} name"), &platoon.name, errors, Input {
                    max_length: Some(100),
                    required: true,
                    ..Input::default()
                }))
                @for (j, unit) in platoon.units.iter().enumerate() {
                    @let p = preview.units.get(i).and_then(|u| u.get(j)).copied().flatten();
                    (unit_markup(i, j, unit, p, errors))
                }
                div.actions {
                    button.secondary type="submit" name="action" value={ "add_unit:" (i) }
                        formaction={ (action) "#" (field_id(&unit_prefix(i, platoon.units.len()))) } {
                            @if figures { "Add a figure to " } @else { "Add a unit to " } (platoon_name(roster, i)) }
                    button.secondary type="submit" name="action" value={ "remove_platoon:" (i) } { "Remove " (group.to_lowercase()) " " (platoon_name(roster, i)) }
                }
            }
        }
        div.actions {
            button.secondary type="submit" name="action" value="add_platoon"
                formaction={ (action) "#platoon-" (roster.platoons.len()) } { (add_group) }
            button.secondary type="submit" name="action" value="update" { @if figures { "Update" } @else { "Update points" } }
        }
    }
}
