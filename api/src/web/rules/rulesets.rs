//! Ruleset pages: `/rules/{id}` (and `/rules/club/{slug}`) renders any ruleset from its data
//! (ladders, each d6 table's six rows, the menu with costs, option defaults, readings with
//! anchors), a house ruleset as its changes from its parent with the changed rows marked; and
//! the organiser's form for a house ruleset (`/rulesets/new`, `/rulesets/club/{slug}/edit`),
//! one control per key, never raw JSON.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use fad_domain::rulesets::{
    self, HouseDocument, KeyKind, Reading, Ruleset, RulesetPin, SETTABLE_KEYS, SettableKey,
    differences, ruleset_vocabulary,
};
use maud::{Markup, html};
use serde_json::Value;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::rulesets::{self as app, HOUSE_PREFIX, Read};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};

use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::forces::form::{Fields, first, read_fields};
use crate::web::forces::roster::words;
use crate::web::layout::{self, Errors, Input, csrf_input, error_summary, field_id, text_field};
use crate::web::{PageError, require_user, respond, see_other};

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn caller(user: &SessionUser) -> Caller {
    Caller::User {
        user_id: user.user_id.clone(),
    }
}

/// A JSON value as people read it.
fn readable(value: &Value) -> String {
    match value {
        Value::Null => "none".to_owned(),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::String(s) => words(s),
        other => other.to_string(),
    }
}

/// "changed" beside a row that differs from the parent (in words, not colour alone).
fn marked(changed: bool) -> Markup {
    html! { @if changed { mark { "changed" } } }
}

fn ruleset_markup(read: &Read) -> Markup {
    let ruleset = &read.ruleset;
    let vocab = ruleset_vocabulary(ruleset, &ruleset.options);
    let parent_vocab = read
        .parent
        .as_ref()
        .map(|p| ruleset_vocabulary(p, &p.options));
    let parent = parent_vocab.as_ref();
    let changes = read
        .parent
        .as_ref()
        .map(|p| differences(p, ruleset))
        .unwrap_or_default();
    html! {
        h1 { (ruleset.name) }
        p { (ruleset.summary) }
        dl.facts {
            dt { "Version" } dd { (ruleset.version) }
            @if let Some(parent) = &read.parent {
                dt { "Extends" } dd { a href={ "/rules/" (parent.id) } { (parent.name) " (version " (parent.version) ")" } }
            } @else {
                dt { "Source" } dd { (ruleset.sources.join(", ")) }
            }
        }
        @if read.owned {
            p { a href={ "/rulesets/" (ruleset.id) "/edit" } { "Edit these house rules" } " (a new version; campaigns keep theirs)" }
        }
        @if let Some(parent) = &read.parent {
            h2 id="changes" { "Changes from " (parent.name) }
            @if changes.is_empty() {
                p { "None: the same numbers as " (parent.name) "." }
            } @else {
                div.table-wrap tabindex="0" role="region" aria-label="Changes from the parent ruleset" { table {
                    thead { tr { th scope="col" { "What" } th scope="col" { (parent.name) } th scope="col" { "Here" } } }
                    tbody { @for d in &changes {
                        tr.changed { th scope="row" { (d.label) } td { (d.before) } td { (d.after) " " (marked(true)) } }
                    } }
                } }
            }
        }
        h2 id="campaign-points" { "Campaign points" }
        @let cp_changed = read.parent.as_ref().is_some_and(|p| p.tables.cp_per_platoon != ruleset.tables.cp_per_platoon);
        p.changed[cp_changed] { (ruleset.tables.cp_per_platoon) " campaign points per platoon after each battle. " (marked(cp_changed)) }
        h2 id="tables" { "Post-battle tables" }
        @for step in &vocab.roll_steps {
            @let key = serde_json::to_value(step.step).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            @let before = parent.and_then(|p| p.roll_steps.iter().find(|s| s.step == step.step));
            h3 id={ "table-" (key) } { (step.label) " (" (step.die) ")" }
            @if step.rows.is_empty() {
                @let changed = before.is_some_and(|b| b.die != step.die);
                p.changed[changed] { "The pool: " (step.die) ", its total the troopers to assign. " (marked(changed)) }
            } @else {
                div.table-wrap tabindex="0" role="region" aria-label=(step.label) { table {
                    thead { tr { th scope="col" { "Die" } th scope="col" { "Result" } th scope="col" { span.visually-hidden { "Changed" } } } }
                    tbody { @for (i, row) in step.rows.iter().enumerate() {
                        @let changed = before.is_some_and(|b| b.rows.get(i) != Some(row));
                        tr.changed[changed] id={ "t-" (key) "-" (i + 1) } {
                            th scope="row" { (i + 1) } td { (capitalised(&words(row))) } td { (marked(changed)) }
                        }
                    } }
                } }
            }
        }
        h2 id="menu" { "Experience menu" }
        div.table-wrap tabindex="0" role="region" aria-label="Experience menu" { table {
            thead { tr { th scope="col" { "Purchase" } th scope="col" { "Cost" } th scope="col" { "Sold" } th scope="col" { "What it does" } } }
            tbody { @for item in &vocab.menu {
                @let before = parent.and_then(|p| p.menu.iter().find(|m| m.item == item.item));
                @let changed = before.is_some_and(|b| b.cost != item.cost || b.enabled != item.enabled);
                @let name = serde_json::to_value(item.item).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
                tr.changed[changed] id={ "m-" (name) } {
                    th scope="row" { (capitalised(&words(&name))) }
                    td { (item.cost) " CP " (marked(changed)) }
                    td { @if item.enabled { "yes" } @else { "no" } }
                    td { (item.limits) }
                }
            } }
        } }
        h2 id="ladders" { "Ladders" }
        @for ladder in &vocab.ladders {
            @let before = read.parent.as_ref().and_then(|p| p.ladder(&ladder.ladder));
            h3 { (capitalised(&words(&ladder.ladder))) }
            @if let Some(meaning) = &ladder.number_meaning { p.hint { "Number: " (meaning) } }
            div.table-wrap tabindex="0" role="region" aria-label=(capitalised(&words(&ladder.ladder))) { table {
                thead { tr { th scope="col" { "Rung" } th scope="col" { "Number" } } }
                tbody { @for (i, rung) in ladder.rungs.iter().enumerate() {
                    @let changed = before.is_some_and(|b| b.rungs.get(i).map(|r| &r.name) != Some(&rung.name));
                    tr.changed[changed] {
                        th scope="row" { (capitalised(&words(&rung.name))) " " (marked(changed)) }
                        td { @if let Some(n) = rung.number { (n) } @else { "–" } }
                    }
                } }
            } }
        }
        h2 id="options" { "Options a campaign starts with" }
        div.table-wrap tabindex="0" role="region" aria-label="Options" { table {
            thead { tr { th scope="col" { "Option" } th scope="col" { "Default" } } }
            tbody { @for option in &vocab.options {
                @let before = parent.and_then(|p| p.options.iter().find(|o| o.name == option.name));
                @let changed = before.is_some_and(|b| b.default != option.default);
                tr.changed[changed] {
                    th scope="row" { (option.description) " " a href={ "/rules#" (option.rules_id) } { "(" (option.rules_id) ")" } }
                    td { (readable(&option.default)) " " (marked(changed)) }
                }
            } }
        } }
        @if ruleset.lists.personalities != fad5e_personalities() {
            h2 id="personalities" { "Personalities" }
            ul { @for p in &ruleset.lists.personalities {
                li { strong { (capitalised(&words(&p.name))) } ": " (p.description) }
            } }
        }
        @if !vocab.readings.is_empty() {
            h2 id="readings" { "Readings" }
            @for r in &vocab.readings {
                p id=(r.id) {
                    strong { (r.id) } " " (r.text)
                    // A built-in ruleset's readings are also in the rules reference, with anchors.
                    @if ruleset.builtin { " " a href={ "/rules#" (r.id) } { "(" (r.id) " in the rules reference)" } }
                }
            }
        }
        p.muted { "The full rules text of FAD 5e and the service's settled readings: " a href="/rules" { "the rules reference" } "." }
    }
}

/// FAD 5e's personalities, which its page and its house rulesets' pages leave unlisted.
fn fad5e_personalities() -> Vec<fad_domain::rulesets::ListEntry> {
    fad_domain::rulesets::Ruleset::fad5e().lists.personalities
}

async fn ruleset_page(
    req: &HttpRequest,
    state: &AppState,
    id: String,
) -> Result<HttpResponse, PageError> {
    let user = session::signed_in(req, state).await?;
    let version = req.uri().query().and_then(|q| {
        url::form_urlencoded::parse(q.as_bytes())
            .find(|(k, _)| k == "version")
            .and_then(|(_, v)| v.parse::<u32>().ok())
    });
    let read = app::read(state, user.as_ref().map(caller), id, version).await?;
    let title = read.ruleset.name.clone();
    Ok(respond(
        StatusCode::OK,
        layout::page(state, user.as_ref(), &title, ruleset_markup(&read)),
    ))
}

/// `GET /rules/{id}`: a built-in ruleset's page.
#[get("/rules/{id}")]
pub async fn builtin_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    ruleset_page(&req, &state, path.into_inner()).await
}

/// `GET /rules/club/{slug}`: a house ruleset's page (its owner, and members of a campaign that
/// plays it).
#[get("/rules/club/{slug}")]
pub async fn house_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    ruleset_page(&req, &state, format!("{HOUSE_PREFIX}{}", path.into_inner())).await
}

// The form.

/// The form's values, by control name, as the ruleset `base` has them.
fn values_of(base: &Ruleset) -> BTreeMap<String, String> {
    let mut values = BTreeMap::new();
    for key in SETTABLE_KEYS {
        let value = key.value_in(base);
        match key.kind {
            KeyKind::LadderNames => {
                for (i, name) in value.as_array().into_iter().flatten().enumerate() {
                    values.insert(
                        format!("{}.{}", key.key, i + 1),
                        name.as_str().unwrap_or_default().to_owned(),
                    );
                }
            }
            KeyKind::ListAdditions => {
                let lines: Vec<String> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| {
                        format!(
                            "{} | {} | {}",
                            a["name"].as_str().unwrap_or_default(),
                            a["description"].as_str().unwrap_or_default(),
                            a["points"].as_f64().unwrap_or_default()
                        )
                    })
                    .collect();
                values.insert(key.key.to_owned(), lines.join("\n"));
            }
            KeyKind::D6Table => {
                if let Value::Array(rows) = value {
                    for (i, row) in rows.iter().enumerate() {
                        values.insert(
                            format!("{}.{}", key.key, i + 1),
                            row.as_str().unwrap_or_default().to_owned(),
                        );
                    }
                }
            }
            KeyKind::YesNo => {
                if value == Value::Bool(true) {
                    values.insert(key.key.to_owned(), "on".to_owned());
                }
            }
            KeyKind::OptionDefault => {
                let text = match value {
                    Value::Bool(true) => "yes".to_owned(),
                    Value::Bool(false) => "no".to_owned(),
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                values.insert(key.key.to_owned(), text);
            }
            _ => {
                values.insert(key.key.to_owned(), readable(&value));
            }
        }
    }
    values.insert("readings".to_owned(), String::new());
    values
}

/// The value `key` takes from the submitted `values`, in the shape `set` takes; a list of
/// additions that does not read is the plain sentence to show beside it.
fn submitted_value(key: &SettableKey, values: &BTreeMap<String, String>) -> Result<Value, String> {
    let text = |name: &str| values.get(name).map(String::as_str).unwrap_or_default();
    Ok(match key.kind {
        KeyKind::WholeNumber { .. } => {
            let raw = text(key.key).trim();
            raw.parse::<u64>()
                .map_or_else(|_| Value::String(raw.to_owned()), Value::from)
        }
        KeyKind::D6Table => Value::Array(
            (1..=6)
                .filter_map(|i| values.get(&format!("{}.{i}", key.key)))
                .map(|row| Value::String(row.clone()))
                .collect(),
        ),
        KeyKind::YesNo => Value::Bool(values.contains_key(key.key)),
        KeyKind::OptionDefault => match text(key.key) {
            "yes" => Value::Bool(true),
            "no" => Value::Bool(false),
            other => Value::String(other.to_owned()),
        },
        KeyKind::LadderNames => {
            // One field per rung, numbered from 1; a ladder the parent lacks has none.
            let names: Vec<Value> = (1..)
                .map_while(|i| values.get(&format!("{}.{i}", key.key)))
                .map(|name| Value::String(name.trim().to_owned()))
                .collect();
            if names.is_empty() {
                Value::Null
            } else {
                Value::Array(names)
            }
        }
        KeyKind::ListAdditions => Value::Array(parse_additions(text(key.key))?),
    })
}

/// Additions typed one a line as `name | what it does | points`.
fn parse_additions(text: &str) -> Result<Vec<Value>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, line)| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            let [name, description, points] = parts[..] else {
                return Err(format!(
                    "line {}: write the name, what it does and its points, split by | (Sniper | Hits on 5+ at any range | 5)",
                    i + 1
                ));
            };
            let points: f64 = points.parse().map_err(|_| {
                format!("line {}: the points are a number, not \"{points}\"", i + 1)
            })?;
            Ok(serde_json::json!({"name": name, "description": description, "points": points}))
        })
        .collect()
}

/// Readings typed one a line as `H1: text`.
fn parse_readings(text: &str) -> Result<Vec<Reading>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let (id, text) = line.split_once(':').ok_or_else(|| {
                format!(
                    "write each reading as its id, a colon and the text (H1: ...), not \"{line}\""
                )
            })?;
            Ok(Reading {
                id: id.trim().to_owned(),
                text: text.trim().to_owned(),
            })
        })
        .collect()
}

fn readings_text(readings: &[Reading]) -> String {
    readings
        .iter()
        .map(|r| format!("{}: {}", r.id, r.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The submitted form as a house document: only the keys that differ from the parent are set.
fn document_of(
    values: &BTreeMap<String, String>,
    slug: &str,
    parent: &Ruleset,
) -> Result<HouseDocument, ApiError> {
    let mut set = BTreeMap::new();
    for key in SETTABLE_KEYS {
        let value = submitted_value(key, values).map_err(|m| ApiError::validation(key.key, m))?;
        if value != key.value_in(parent) {
            set.insert(key.key.to_owned(), value);
        }
    }
    let readings = parse_readings(values.get("readings").map_or("", String::as_str))
        .map_err(|m| ApiError::validation("readings", m))?;
    Ok(HouseDocument {
        id: format!("{HOUSE_PREFIX}{}", slug.trim()),
        name: values.get("name").cloned().unwrap_or_default(),
        extends: parent.pin(),
        set,
        readings,
    })
}

/// Where the rules' problems show on the form: `set.<key>` beside its control, `id` beside
/// the slug, a reading's problem beside the readings.
fn form_errors(errors: Vec<FieldError>) -> Errors {
    Errors(
        errors
            .into_iter()
            .map(|e| {
                let field = if let Some(key) = e.field.strip_prefix("set.") {
                    key.to_owned()
                } else if e.field == "id" {
                    "slug".to_owned()
                } else if e.field.starts_with("readings") {
                    "readings".to_owned()
                } else {
                    e.field
                };
                FieldError::new(field, e.message)
            })
            .collect(),
    )
}

/// What the form edits.
struct FormPage<'a> {
    /// `None`: a new ruleset; `Some(slug)`: the next version of `club/<slug>`.
    editing: Option<&'a str>,
    parent: &'a Ruleset,
    values: &'a BTreeMap<String, String>,
    errors: &'a Errors,
}

fn labels() -> Vec<(&'static str, &'static str)> {
    let mut labels = vec![
        ("slug", "Id"),
        ("name", "Name"),
        ("extends", "Built on"),
        ("readings", "Readings"),
    ];
    labels.extend(SETTABLE_KEYS.iter().map(|k| (k.key, k.label)));
    labels
}

fn key_control(key: &SettableKey, page: &FormPage<'_>) -> Markup {
    let value = |name: &str| page.values.get(name).cloned().unwrap_or_default();
    let errors = page.errors;
    match key.kind {
        KeyKind::WholeNumber { min, max } => {
            let hint = format!("A whole number from {min} to {max}.");
            text_field(
                key.key,
                key.label,
                &value(key.key),
                errors,
                Input {
                    kind: "text",
                    hint: Some(&hint),
                    max_length: Some(3),
                    ..Input::default()
                },
            )
        }
        KeyKind::D6Table => {
            let id = field_id(key.key);
            let error = errors.get(key.key);
            html! {
                fieldset.group id=(id) aria-describedby=[error.map(|_| format!("{id}-error"))] {
                    legend { (key.label) }
                    @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
                    @for i in 1..=6 {
                        @let name = format!("{}.{i}", key.key);
                        @let row_id = field_id(&name);
                        @let chosen = value(&name);
                        div.field.inline {
                            label for=(row_id) { "Die " (i) }
                            select id=(row_id) name=(name) {
                                @for choice in key.choices() {
                                    option value=(choice) selected[*choice == chosen] { (capitalised(&words(choice))) }
                                }
                            }
                        }
                    }
                }
            }
        }
        KeyKind::YesNo => {
            let id = field_id(key.key);
            html! {
                div.field {
                    div.check {
                        input type="checkbox" id=(id) name=(key.key) value="on" checked[page.values.contains_key(key.key)];
                        label for=(id) { (key.label) }
                    }
                    @if let Some(e) = errors.get(key.key) { span.error id={ (id) "-error" } { (e) } }
                }
            }
        }
        KeyKind::OptionDefault => {
            let choices = key.choices();
            let options: Vec<(String, String)> = if choices.is_empty() {
                vec![
                    ("yes".to_owned(), "Yes".to_owned()),
                    ("no".to_owned(), "No".to_owned()),
                ]
            } else {
                choices
                    .iter()
                    .map(|c| ((*c).to_owned(), capitalised(&words(c))))
                    .collect()
            };
            layout::select_field(key.key, key.label, &options, &value(key.key), errors)
        }
        KeyKind::LadderNames => {
            let Some(ladder) = ladder_of(key).and_then(|name| page.parent.ladder(name)) else {
                return html! {};
            };
            let id = field_id(key.key);
            let error = errors.get(key.key);
            html! {
                fieldset.group id=(id) aria-describedby=[error.map(|_| format!("{id}-error"))] {
                    legend { (key.label) }
                    p.hint { "Lowest rung first; a ladder keeps its rungs and numbers, only their names change." }
                    @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
                    @for (i, rung) in ladder.rungs.iter().enumerate() {
                        @let name = format!("{}.{}", key.key, i + 1);
                        @let row_id = field_id(&name);
                        div.field.inline {
                            label for=(row_id) { "Rung " (i + 1) " (" (rung.name) ")" }
                            input type="text" id=(row_id) name=(name) value=(value(&name)) maxlength="40";
                        }
                    }
                }
            }
        }
        KeyKind::ListAdditions => layout::textarea_field(
            key.key,
            key.label,
            &value(key.key),
            errors,
            Some(
                "Optional: one a line as its name, what it does and its points, split by | (Sniper | Hits on 5+ at any range | 5).",
            ),
            8000,
        ),
    }
}

/// The ladder a `ladders.<ladder>.names` key renames.
fn ladder_of(key: &SettableKey) -> Option<&'static str> {
    key.key.strip_prefix("ladders.")?.strip_suffix(".names")
}

fn form_markup(state: &AppState, user: &SessionUser, page: &FormPage<'_>) -> Markup {
    let (title, action) = match page.editing {
        None => ("Write house rules".to_owned(), "/rulesets/new".to_owned()),
        Some(slug) => (
            format!("Edit house rules club/{slug}"),
            format!("/rulesets/club/{slug}/edit"),
        ),
    };
    let labels = labels();
    let value = |name: &str| page.values.get(name).cloned().unwrap_or_default();
    let group = |prefix: &str| {
        SETTABLE_KEYS
            .iter()
            .filter(|k| k.key.starts_with(prefix))
            .collect::<Vec<_>>()
    };
    let builtins: Vec<(String, String)> = rulesets::builtins()
        .into_iter()
        .map(|r| {
            (
                format!("{}@{}", r.id, r.version),
                format!("{} (version {})", r.name, r.version),
            )
        })
        .collect();
    let extends = format!("{}@{}", page.parent.id, page.parent.version);
    let body = html! {
        h1 { (title) }
        p { "House rules change the numbers of " (page.parent.name) " for your campaigns. Each save is a new version; a campaign keeps the version it chose." }
        (error_summary(page.errors, &labels))
        form.stack method="post" action=(action) novalidate {
            (csrf_input(state, &FormKey::session(user)))
            @if page.editing.is_none() {
                (layout::select_field("extends", "Built on", &builtins, &extends, page.errors))
                (text_field("slug", "Id", &value("slug"), page.errors, Input {
                    required: true, max_length: Some(40),
                    hint: Some("3 to 40 lowercase letters, digits or dashes; the rules live at /rules/club/<id>."),
                    ..Input::default()
                }))
            } @else {
                input type="hidden" name="extends" value=(extends);
            }
            (text_field("name", "Name", &value("name"), page.errors, Input {
                required: true, max_length: Some(80),
                hint: Some("1 to 80 characters, e.g. Stockholm club FAD."),
                ..Input::default()
            }))
            fieldset.group {
                legend { "Campaign points and the reinforcement pool" }
                (key_control(&SETTABLE_KEYS[0], page))
                (key_control(&SETTABLE_KEYS[1], page))
            }
            h2 { "Post-battle tables" }
            p.hint { "What each face of the die does." }
            @for key in group("campaign.tables.") { (key_control(key, page)) }
            h2 { "Experience menu" }
            @for key in group("campaign.menu.") { (key_control(key, page)) }
            h2 { "Options a campaign starts with" }
            @for key in group("options.") { (key_control(key, page)) }
            h2 { "Names of the ladders' rungs" }
            @for key in group("ladders.") { (key_control(key, page)) }
            h2 { "Additions to the lists" }
            @for key in group("lists.") { (key_control(key, page)) }
            (layout::textarea_field("readings", "Readings", &value("readings"), page.errors,
                Some("Optional: how your club reads a rule, one a line as its id, a colon and the text (H1: Quality drops only on a 1)."), 20000))
            div.actions { button type="submit" { "Save house rules" } }
        }
    };
    layout::page(state, Some(user), &title, body)
}

fn form_values(fields: &Fields) -> BTreeMap<String, String> {
    fields
        .iter()
        .filter(|(name, _)| name.as_str() != CSRF_FIELD)
        .filter_map(|(name, values)| values.first().map(|v| (name.clone(), v.clone())))
        .collect()
}

fn parent_of(values: &BTreeMap<String, String>) -> Result<Ruleset, ApiError> {
    let (id, version) = values
        .get("extends")
        .and_then(|v| v.split_once('@'))
        .and_then(|(id, v)| Some((id.to_owned(), v.parse::<u32>().ok()?)))
        .unwrap_or_else(|| {
            let pin = RulesetPin::default();
            (pin.id, pin.version)
        });
    rulesets::builtin(&id, Some(version))
        .ok_or_else(|| ApiError::validation("extends", "choose one of the listed rulesets"))
}

/// `GET /rulesets/new`: the form, filled with FAD 5e's numbers.
#[get("/rulesets/new")]
pub async fn new_form(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let parent = Ruleset::fad5e();
    let values = values_of(&parent);
    let page = FormPage {
        editing: None,
        parent: &parent,
        values: &values,
        errors: &Errors::default(),
    };
    Ok(respond(StatusCode::OK, form_markup(&state, &user, &page)))
}

/// `POST /rulesets/new`: creates the house ruleset and opens its page; on a problem, the form
/// again with what was typed and each problem beside its control.
#[post("/rulesets/new")]
pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        first(&fields, CSRF_FIELD),
    )
    .map_err(|_| PageError::Refused)?;
    let values = form_values(&fields);
    let parent = parent_of(&values)?;
    let slug = values.get("slug").cloned().unwrap_or_default();
    let result = match document_of(&values, &slug, &parent) {
        Ok(document) => app::create(&state, &caller(&user), document).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(row) => Ok(see_other(&format!("/rules/{}", row.id))),
        Err(ApiError::Validation(errors)) => {
            let errors = form_errors(errors);
            let page = FormPage {
                editing: None,
                parent: &parent,
                values: &values,
                errors: &errors,
            };
            Ok(respond(
                StatusCode::UNPROCESSABLE_ENTITY,
                form_markup(&state, &user, &page),
            ))
        }
        Err(ApiError::Conflict(message)) => {
            let errors = Errors(vec![FieldError::new("slug", message)]);
            let page = FormPage {
                editing: None,
                parent: &parent,
                values: &values,
                errors: &errors,
            };
            Ok(respond(
                StatusCode::CONFLICT,
                form_markup(&state, &user, &page),
            ))
        }
        Err(other) => Err(other.into()),
    }
}

/// The newest version the person owns, with its parent and document (404 otherwise).
async fn owned(
    state: &AppState,
    user: &SessionUser,
    slug: &str,
) -> Result<(Read, Ruleset, HouseDocument), ApiError> {
    let read = app::read(
        state,
        Some(caller(user)),
        format!("{HOUSE_PREFIX}{slug}"),
        None,
    )
    .await?;
    if !read.owned {
        return Err(ApiError::Forbidden(
            "Only the ruleset's owner may change it.".to_owned(),
        ));
    }
    let parent = read.parent.clone().ok_or_else(app::ruleset_not_found)?;
    let document = read.document.clone().ok_or_else(app::ruleset_not_found)?;
    Ok((read, parent, document))
}

/// `GET /rulesets/club/{slug}/edit`: the form, filled with the newest version.
#[get("/rulesets/club/{slug}/edit")]
pub async fn edit_form(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let slug = path.into_inner();
    let (read, parent, document) = owned(&state, &user, &slug).await?;
    let mut values = values_of(&read.ruleset);
    values.insert("name".to_owned(), document.name.clone());
    values.insert("readings".to_owned(), readings_text(&document.readings));
    let page = FormPage {
        editing: Some(&slug),
        parent: &parent,
        values: &values,
        errors: &Errors::default(),
    };
    Ok(respond(StatusCode::OK, form_markup(&state, &user, &page)))
}

/// `POST /rulesets/club/{slug}/edit`: saves the next version.
#[post("/rulesets/club/{slug}/edit")]
pub async fn save(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    session::check_form(
        &req,
        &state,
        &FormKey::session(&user),
        first(&fields, CSRF_FIELD),
    )
    .map_err(|_| PageError::Refused)?;
    let slug = path.into_inner();
    let (read, parent, _) = owned(&state, &user, &slug).await?;
    let values = form_values(&fields);
    let result = match document_of(&values, &slug, &parent) {
        Ok(document) => {
            let if_match = Some(format!("\"{}\"", read.ruleset.version));
            app::update(&state, &caller(&user), &slug, if_match, document).await
        }
        Err(e) => Err(e),
    };
    match result {
        Ok(row) => Ok(see_other(&format!("/rules/{}", row.id))),
        Err(ApiError::Validation(errors)) => {
            let errors = form_errors(errors);
            let page = FormPage {
                editing: Some(&slug),
                parent: &parent,
                values: &values,
                errors: &errors,
            };
            Ok(respond(
                StatusCode::UNPROCESSABLE_ENTITY,
                form_markup(&state, &user, &page),
            ))
        }
        Err(other) => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_of_fad5e_builds_an_empty_document_and_a_change_sets_only_its_key() {
        let parent = Ruleset::fad5e();
        let mut values = values_of(&parent);
        values.insert("name".to_owned(), "Club".to_owned());
        let same = document_of(&values, "club-x", &parent).unwrap();
        values.insert("campaign.cp_per_platoon".to_owned(), "3".to_owned());
        values.insert(
            "campaign.tables.quality_loss.2".to_owned(),
            "stays".to_owned(),
        );
        let changed = document_of(&values, "club-x", &parent).unwrap();

        assert!(same.set.is_empty(), "{:?}", same.set);
        assert_eq!(changed.set.len(), 2, "{:?}", changed.set);
        assert_eq!(changed.set["campaign.cp_per_platoon"], Value::from(3));
        assert_eq!(changed.set["campaign.tables.quality_loss"][1], "stays");
        assert_eq!(changed.id, "club/club-x");
    }

    #[test]
    fn ladder_names_and_list_additions_are_set_from_their_own_fields_and_read_back() {
        let parent = Ruleset::fad5e();
        let rungs = parent.ladder("quality").unwrap().rungs.len();
        let mut values = values_of(&parent);
        values.insert("name".to_owned(), "Club".to_owned());
        values.insert(
            "ladders.quality.names.1".to_owned(),
            " Greenhorn ".to_owned(),
        );
        values.insert(
            "lists.personalities.add".to_owned(),
            "Sniper | Hits on 5+ at any range | 5\n\n".to_owned(),
        );
        let doc = document_of(&values, "club-x", &parent).unwrap();
        assert_eq!(doc.set.len(), 2, "{:?}", doc.set);
        let names = doc.set["ladders.quality.names"].as_array().unwrap();
        assert_eq!((names.len(), names[0].as_str()), (rungs, Some("Greenhorn")));
        assert_eq!(
            doc.set["lists.personalities.add"],
            serde_json::json!([{"name": "Sniper", "description": "Hits on 5+ at any range", "points": 5.0}])
        );
        // The house ruleset's own values fill the form again and give the same document.
        let house = fad_domain::rulesets::house::build_house(&parent, &doc, 1).unwrap();
        let again = document_of(&values_of(&house), "club-x", &parent).unwrap();
        assert_eq!(again.set, doc.set);
    }

    #[test]
    fn an_addition_that_does_not_read_is_a_sentence_beside_its_field() {
        let parent = Ruleset::fad5e();
        let mut values = values_of(&parent);
        for (text, says) in [
            ("Sniper, 5", "split by |"),
            ("Sniper | x | lots", "\"lots\""),
        ] {
            values.insert("lists.traits.add".to_owned(), text.to_owned());
            let Err(ApiError::Validation(errors)) = document_of(&values, "club-x", &parent) else {
                panic!("{text} was read");
            };
            assert_eq!(errors[0].field, "lists.traits.add");
            assert!(errors[0].message.contains(says), "{}", errors[0].message);
        }
    }

    #[test]
    fn readings_are_one_a_line_with_an_id() {
        let parsed = parse_readings("H1: Quality drops only on a 1.\n\n H2 : x").unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(
            (parsed[1].id.as_str(), parsed[1].text.as_str()),
            ("H2", "x")
        );
        assert!(parse_readings("no colon").is_err());
    }

    #[test]
    fn the_rules_problems_land_beside_their_controls() {
        let errors = form_errors(vec![
            FieldError::new("set.campaign.tables.quality_loss", "six rows"),
            FieldError::new("id", "bad"),
            FieldError::new("readings[0].text", "long"),
        ]);
        assert_eq!(errors.get("campaign.tables.quality_loss"), Some("six rows"));
        assert_eq!(errors.get("slug"), Some("bad"));
        assert_eq!(errors.get("readings"), Some("long"));
    }
}
