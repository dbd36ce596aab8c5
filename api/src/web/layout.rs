//! The page shell (head, site navigation, one `main`), form fields with their errors, and the
//! error summary every failed form starts with.

use fad_domain::dice::RollStep;
use fad_domain::names::Named;
use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::error::FieldError;

use crate::web::accounts::session::{CSRF_FIELD, FormKey};
use crate::web::assets;

/// htmx settings: no inline indicator styles (the CSP allows no inline style), and it keeps
/// the page's own `<title>` handling.
const HTMX_CONFIG: &str = r#"{"includeIndicatorStyles":false,"allowEval":false}"#;

/// A whole page: `title` names the subject (it is also the `h1` the body starts with).
pub fn page(state: &AppState, user: Option<&SessionUser>, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                meta name="htmx-config" content=(HTMX_CONFIG);
                title { (title) " · fad-campaign" }
                link rel="stylesheet" href=(assets::CSS_PATH.as_str());
                script src=(assets::HTMX_PATH) defer {}
                script src=(assets::APP_JS_PATH.as_str()) defer {}
                link rel="manifest" href="/manifest.webmanifest";
                link rel="icon" href=(assets::ICON_PATH) type="image/svg+xml";
                meta name="theme-color" content="#1f3d2b";
            }
            body {
                header.site {
                    // Boosted links swap the page body without a full reload; forms stay plain.
                    nav aria-label="Site" hx-boost="true" {
                        a href="/" { "Home" }
                        a href="/rules" { "Rules" }
                        @if let Some(user) = user {
                            span.who { "Signed in as " strong { (user.username) } }
                            form method="post" action="/logout" hx-boost="false" {
                                (csrf_input(state, &FormKey::session(user)))
                                button.link type="submit" { "Log out" }
                            }
                        } @else {
                            a href="/login" { "Log in" }
                            a href="/register" { "Create account" }
                        }
                    }
                }
                main.wrap id="main" {
                    (body)
                }
            }
        }
    }
}

/// The hidden CSRF field of a form.
pub fn csrf_input(state: &AppState, key: &FormKey) -> Markup {
    html! { input type="hidden" name=(CSRF_FIELD) value=(key.token(state)); }
}

/// The errors of a failed submission, by field.
#[derive(Debug, Default, Clone)]
pub struct Errors(pub Vec<FieldError>);

impl Errors {
    /// The message for `field`, if any.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|e| e.field == field)
            .map(|e| e.message.as_str())
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The summary at the top of a failed form: focused on load (so a screen reader announces
/// it), each message linking to its field. `labels` maps field names to their labels.
pub fn error_summary(errors: &Errors, labels: &[(&str, &str)]) -> Markup {
    html! {
        @if !errors.is_empty() {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title" {
                h2 id="error-summary-title" { "There is a problem" }
                ul {
                    @for error in &errors.0 {
                        @let label = labels.iter().find(|(f, _)| *f == error.field).map(|(_, l)| *l);
                        li {
                            @if let Some(label) = label {
                                a href={ "#" (field_id(&error.field)) } { (label) ": " (error.message) }
                            } @else if let Some(step) = dice_step(&error.field) {
                                (step) ": " (error.message)
                            } @else {
                                (error.message)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The roll a `dice.<step>.<subject>` field is for, in words ("Resolve change"): the field
/// itself is a key for programs, never shown to people.
fn dice_step(field: &str) -> Option<String> {
    let step = field.strip_prefix("dice.")?.split('.').next()?;
    RollStep::parse(step).ok().map(Named::title)
}

/// The id of the control of `field` (`platoons[0][units][1][name]` → `f-platoons-0--units--1--name`).
pub fn field_id(field: &str) -> String {
    format!(
        "f-{}",
        field
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
            .trim_end_matches('-')
    )
}

/// How a text field behaves.
#[derive(Debug, Clone, Copy, Default)]
pub struct Input<'a> {
    /// `type` attribute (default `text`).
    pub kind: &'a str,
    /// `autocomplete` attribute.
    pub autocomplete: Option<&'a str>,
    /// A hint under the label.
    pub hint: Option<&'a str>,
    /// `required`.
    pub required: bool,
    /// `maxlength`.
    pub max_length: Option<usize>,
}

/// A labelled text input, its hint and its error, with `value` kept.
pub fn text_field(
    name: &str,
    label: &str,
    value: &str,
    errors: &Errors,
    input: Input<'_>,
) -> Markup {
    let id = field_id(name);
    let error = errors.get(name);
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described = [
        input.hint.map(|_| hint_id.as_str()),
        error.map(|_| error_id.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    let kind = if input.kind.is_empty() {
        "text"
    } else {
        input.kind
    };
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(hint) = input.hint { span.hint id=(hint_id) { (hint) } }
            @if let Some(error) = error { span.error id=(error_id) { (error) } }
            input type=(kind) id=(id) name=(name) value=(value)
                autocomplete=[input.autocomplete]
                maxlength=[input.max_length]
                required[input.required]
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[(!described.is_empty()).then_some(described.as_str())];
        }
    }
}

/// A labelled multi-line input with its error, `value` kept.
pub fn textarea_field(
    name: &str,
    label: &str,
    value: &str,
    errors: &Errors,
    hint: Option<&str>,
    max_length: usize,
) -> Markup {
    let id = field_id(name);
    let error = errors.get(name);
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(hint) = hint { span.hint id={ (id) "-hint" } { (hint) } }
            @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
            textarea id=(id) name=(name) maxlength=(max_length)
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))] { (value) }
        }
    }
}

/// A labelled select of `(value, text)` options with `selected` kept, and its error.
pub fn select_field(
    name: &str,
    label: &str,
    options: &[(String, String)],
    selected: &str,
    errors: &Errors,
) -> Markup {
    let id = field_id(name);
    let error = errors.get(name);
    html! {
        div.field {
            label for=(id) { (label) }
            @if let Some(error) = error { span.error id={ (id) "-error" } { (error) } }
            select id=(id) name=(name)
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| format!("{id}-error"))] {
                @for (value, text) in options {
                    option value=(value) selected[value == selected] { (text) }
                }
            }
        }
    }
}

/// A short notice (after an action succeeded).
pub fn notice(text: &str) -> Markup {
    html! { p.notice role="status" { (text) } }
}

/// Text that must stay verbatim inside the page (pre-rendered markup from a trusted renderer).
pub fn trusted(markup: String) -> Markup {
    PreEscaped(markup)
}
