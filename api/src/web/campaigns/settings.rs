//! The organiser's settings page, `/campaigns/{id}/settings`: the house rules (every switch of
//! the rules' vocabulary with its default and text) and the campaign's service settings,
//! integration keys (created with the secret shown once, revoked) and webhooks (created with
//! the secret shown once, a test ping, disabled, deleted, each with its delivery log at
//! `/campaigns/{id}/webhooks/{hook_id}`). Organiser only: a player gets 403, others 404. Every
//! form carries the CSRF token.

use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use fad_domain::house_rules::HouseRules;
use fad_domain::vocabulary::vocabulary;
use maud::{Markup, html};
use serde_json::{Map, Value};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::campaigns::api_keys::{self, CreatedApiKey};
use crate::app::campaigns::settings::{self, SettingsChanges, SettingsView};
use crate::app::webhooks::{self, CreatedWebhook, DeliveryAction, NewWebhook, WebhookView};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::paging::Page;
use crate::store::api_keys::ApiKey;
use crate::store::events::EventType;

use crate::web::accounts::TokenForm;
use crate::web::accounts::session::{self, CSRF_FIELD, FormKey};
use crate::web::forces::form::{Fields, first, read_fields};
use crate::web::forces::roster::words;
use crate::web::layout::{self, Errors, Input, csrf_input, error_summary, notice, text_field};
use crate::web::{PageError, require_user, respond, see_other};

/// The campaign's own settings beside the house rules (field, label, text, default).
const SERVICE_SETTINGS: &[(&str, &str, &str, &str)] = &[
    (
        "results_need_confirmation",
        "Results need confirmation",
        "A recorded result waits for the other side (or the organiser) to confirm it; off, it counts at once.",
        "on",
    ),
    (
        "lock_rosters_after_play",
        "Lock rosters after play",
        "Once a force has fought, raising its Quality, Resolve, strength or points is the organiser's alone, with a reason.",
        "on",
    ),
    (
        "public_standings",
        "Publish the standings",
        "Anyone may see the standings (forces, owners' names, results) without signing in, on a page a club site can frame.",
        "off",
    ),
];

/// What the page shows besides the stored state.
#[derive(Default)]
struct Extra {
    /// The submitted house-rule form (on a refused save).
    fields: Option<Fields>,
    errors: Errors,
    stale: bool,
    new_key: Option<CreatedApiKey>,
    new_hook: Option<CreatedWebhook>,
    done: Option<&'static str>,
}

/// Everything the organiser sees on the page.
struct Data {
    settings: SettingsView,
    keys: Vec<ApiKey>,
    hooks: Vec<WebhookView>,
}

fn caller(user: &SessionUser) -> Caller {
    Caller::User {
        user_id: user.user_id.clone(),
    }
}

async fn load(
    state: &AppState,
    req: &HttpRequest,
    user: &SessionUser,
    id: &str,
) -> Result<Data, PageError> {
    let caller = caller(user);
    // The organiser-only read first: a player learns nothing more than "not allowed".
    let hooks = webhooks::list_webhooks(state, &caller, id).await?;
    let page = Page::extract(req).await?;
    let keys = api_keys::list_api_keys(state, &caller, id, page)
        .await?
        .items;
    let settings = settings::read_settings(state, &caller, id).await?;
    Ok(Data {
        settings,
        keys,
        hooks,
    })
}

fn stored_value(settings: &SettingsView, name: &str) -> Value {
    let mut all = serde_json::to_value(settings.settings.house_rules).unwrap_or(Value::Null);
    if let (Value::Object(map), Ok(Value::Object(service))) =
        (&mut all, serde_json::to_value(&settings.settings))
    {
        for (k, v) in service {
            if k != "house_rules" {
                map.insert(k, v);
            }
        }
    }
    all.get(name).cloned().unwrap_or(Value::Null)
}

fn house_rules_form(
    state: &AppState,
    user: &SessionUser,
    id: &str,
    data: &Data,
    extra: &Extra,
) -> Markup {
    let vocab = vocabulary();
    let defaults = serde_json::to_value(HouseRules::default()).unwrap_or(Value::Null);
    // A refused form shows what was submitted; otherwise the stored settings.
    let is_on = |name: &str| match &extra.fields {
        Some(fields) => first(fields, name).is_some(),
        None => stored_value(&data.settings, name).as_bool() == Some(true),
    };
    let chosen = |name: &str| match &extra.fields {
        Some(fields) => first(fields, name).unwrap_or_default().to_owned(),
        None => stored_value(&data.settings, name)
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    };
    html! {
        form.stack method="post" action={ "/campaigns/" (id) "/settings" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            input type="hidden" name="version" value=(data.settings.version);
            @for rule in &vocab.house_rules {
                @let name = rule.term.name;
                @let field_id = layout::field_id(name);
                @let default = defaults.get(name).cloned().unwrap_or(Value::Null);
                @let hint = format!("{} Default: {}.", rule.term.description, match &default {
                    Value::Bool(true) => "on".to_owned(),
                    Value::Bool(false) => "off".to_owned(),
                    other => words(other.as_str().unwrap_or_default()),
                });
                @if rule.values.is_empty() {
                    div.field {
                        div.check {
                            input type="checkbox" id=(field_id) name=(name) value="on" checked[is_on(name)]
                                aria-describedby={ (field_id) "-hint" };
                            label for=(field_id) { (capitalised(&words(name))) }
                        }
                        span.hint id={ (field_id) "-hint" } { (hint) " " a href=(rule.term.rules_url) { "Rules " (rule.term.rules_id) } }
                        @if let Some(e) = extra.errors.get(name) { span.error { (e) } }
                    }
                } @else {
                    @let options: Vec<(String, String)> = rule.values.iter().map(|v| ((*v).to_owned(), words(v))).collect();
                    (layout::select_field(name, &capitalised(&words(name)), &options, &chosen(name), &extra.errors))
                    p.hint { (hint) " " a href=(rule.term.rules_url) { "Rules " (rule.term.rules_id) } }
                }
            }
            @for (name, label, text, default) in SERVICE_SETTINGS {
                @let field_id = layout::field_id(name);
                div.field {
                    div.check {
                        input type="checkbox" id=(field_id) name=(name) value="on" checked[is_on(name)]
                            aria-describedby={ (field_id) "-hint" };
                        label for=(field_id) { (label) }
                    }
                    span.hint id={ (field_id) "-hint" } { (text) " Default: " (default) "." }
                }
            }
            div.actions { button type="submit" { "Save house rules" } }
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn when(time: Option<chrono::NaiveDateTime>) -> String {
    time.map_or_else(
        || "never".to_owned(),
        |t| t.format("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

fn keys_section(
    state: &AppState,
    user: &SessionUser,
    id: &str,
    data: &Data,
    extra: &Extra,
) -> Markup {
    html! {
        @if let Some(created) = &extra.new_key {
            section.panel aria-labelledby="new-key-title" {
                h3 id="new-key-title" tabindex="-1" autofocus { "New key: " (created.key.name) }
                p { "Copy the key now: it is shown only this once." }
                p { code.secret { (created.secret) } }
            }
        }
        @let live: Vec<&ApiKey> = data.keys.iter().filter(|k| k.revoked_at.is_none()).collect();
        @if live.is_empty() {
            p.muted { "No integration keys. Club sites read standings and battles with one (see the API documentation at " a href="/docs/" { "/docs/" } ")." }
        } @else {
            ul.cards {
                @for key in live {
                    li {
                        strong { (key.name) } " " code { (key.key_prefix) "…" }
                        p.muted { "Created " (when(Some(key.created_at))) " · last used " (when(key.last_used_at)) }
                        form method="post" action={ "/campaigns/" (id) "/api-keys/" (key.id) "/revoke" } {
                            (csrf_input(state, &FormKey::session(user)))
                            button.secondary type="submit" { "Revoke " (key.name) }
                        }
                    }
                }
            }
        }
        form.stack method="post" action={ "/campaigns/" (id) "/api-keys" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            (text_field("key_name", "Key name", "", &extra.errors, Input {
                max_length: Some(100),
                hint: Some("Who uses it, e.g. \"club website\"."),
                required: true,
                ..Input::default()
            }))
            div.actions { button type="submit" { "Create API key" } }
        }
    }
}

fn hooks_section(
    state: &AppState,
    user: &SessionUser,
    id: &str,
    data: &Data,
    extra: &Extra,
) -> Markup {
    let chosen: Vec<String> = extra
        .fields
        .as_ref()
        .and_then(|f| f.get("events").cloned())
        .unwrap_or_default();
    let kept = |name: &str| {
        extra
            .fields
            .as_ref()
            .and_then(|f| first(f, name))
            .unwrap_or_default()
            .to_owned()
    };
    html! {
        @if let Some(created) = &extra.new_hook {
            section.panel aria-labelledby="new-hook-title" {
                h3 id="new-hook-title" tabindex="-1" autofocus { "New webhook: " (created.url) }
                p { "Copy the signing secret now: it is shown only this once. Verify each delivery's signature with it." }
                p { code.secret { (created.secret) } }
            }
        }
        @if data.hooks.is_empty() {
            p.muted { "No webhooks." }
        } @else {
            ul.cards {
                @for hook in &data.hooks {
                    li {
                        strong { (hook.url) }
                        @if let Some(d) = &hook.description { p { (d) } }
                        p.muted { "Events: " (hook.events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", ")) }
                        @if let Some(at) = hook.disabled_at {
                            p { span.badge { "Disabled" } " since " (at.format("%Y-%m-%d %H:%M UTC")) @if let Some(r) = &hook.disabled_reason { ": " (r) } }
                        }
                        p {
                            "Last delivery: "
                            @match &hook.last_delivery {
                                Some(d) => { (d.status) @if let Some(code) = d.status_code { " (HTTP " (code) ")" } }
                                None => { "none yet" }
                            }
                            " · " a href={ "/campaigns/" (id) "/webhooks/" (hook.id) } { "Delivery log" }
                        }
                        div.actions {
                            @if hook.disabled_at.is_none() {
                                form method="post" action={ "/campaigns/" (id) "/webhooks/" (hook.id) "/test" } {
                                    (csrf_input(state, &FormKey::session(user)))
                                    button.secondary type="submit" { "Send test ping" }
                                }
                            }
                            @if hook.disabled_at.is_none() {
                                form method="post" action={ "/campaigns/" (id) "/webhooks/" (hook.id) "/disable" } {
                                    (csrf_input(state, &FormKey::session(user)))
                                    button.secondary type="submit" { "Disable webhook" }
                                }
                            }
                            form method="post" action={ "/campaigns/" (id) "/webhooks/" (hook.id) "/delete" } {
                                (csrf_input(state, &FormKey::session(user)))
                                button.secondary type="submit" { "Delete webhook" }
                            }
                        }
                    }
                }
            }
        }
        form.stack method="post" action={ "/campaigns/" (id) "/webhooks" } novalidate {
            (csrf_input(state, &FormKey::session(user)))
            (text_field("url", "URL", &kept("url"), &extra.errors, Input {
                kind: "url",
                max_length: Some(2000),
                hint: Some("Where to send each event (https)."),
                required: true,
                ..Input::default()
            }))
            fieldset id=(layout::field_id("events")) {
                legend { "Event types" }
                @if let Some(e) = extra.errors.get("events") { p.error { (e) } }
                @for event in EventType::ALL.iter().filter(|e| **e != EventType::Ping) {
                    @let name = event.as_str();
                    @let field_id = format!("f-event-{}", name.replace('.', "-"));
                    div.check {
                        input type="checkbox" id=(field_id) name="events" value=(name) checked[chosen.iter().any(|c| c == name)];
                        label for=(field_id) { (name) }
                    }
                }
            }
            (text_field("description", "Description", &kept("description"), &extra.errors, Input {
                max_length: Some(200),
                hint: Some("Optional: a note for you."),
                ..Input::default()
            }))
            div.actions { button type="submit" { "Create webhook" } }
        }
    }
}

const LABELS: &[(&str, &str)] = &[
    ("key_name", "Key name"),
    ("url", "URL"),
    ("events", "Event types"),
    ("description", "Description"),
    ("version", "Version"),
];

fn settings_markup(
    state: &AppState,
    user: &SessionUser,
    id: &str,
    data: &Data,
    extra: &Extra,
) -> Markup {
    let title = "Campaign settings";
    let body = html! {
        h1 { (title) }
        @if extra.stale {
            div.errors id="error-summary" role="alert" tabindex="-1" autofocus {
                h2 { "Someone changed the settings meanwhile" }
                p { "Below are the settings as they are now, with your choices kept; save again to apply them." }
            }
        } @else {
            (error_summary(&extra.errors, LABELS))
        }
        @if let Some(done) = extra.done { (notice(done)) }
        p { a href={ "/campaigns/" (id) } { "Back to the campaign" } }
        h2 { "House rules" }
        (house_rules_form(state, user, id, data, extra))
        h2 { "API keys" }
        (keys_section(state, user, id, data, extra))
        h2 { "Webhooks" }
        (hooks_section(state, user, id, data, extra))
    };
    layout::page(state, Some(user), title, body)
}

async fn render(
    state: &AppState,
    req: &HttpRequest,
    user: &SessionUser,
    id: &str,
    status: StatusCode,
    extra: Extra,
) -> Result<HttpResponse, PageError> {
    let data = load(state, req, user, id).await?;
    Ok(respond(
        status,
        settings_markup(state, user, id, &data, &extra),
    ))
}

fn done_message(query: &str) -> Option<&'static str> {
    match query {
        "saved=1" => Some("House rules saved."),
        "revoked=1" => Some("The key is revoked; it no longer works."),
        "pinged=1" => Some("A test ping is on its way; its delivery shows in the log."),
        "deleted=1" => Some("The webhook and its delivery log are deleted."),
        "disabled=1" => Some("The webhook is disabled: nothing more is sent to it."),
        _ => None,
    }
}

/// `GET /campaigns/{id}/settings`.
#[get("/campaigns/{id}/settings")]
pub async fn settings_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let extra = Extra {
        done: done_message(req.query_string()),
        ..Extra::default()
    };
    render(&state, &req, &user, &path, StatusCode::OK, extra).await
}

fn checked_form(
    req: &HttpRequest,
    state: &AppState,
    user: &SessionUser,
    token: Option<&str>,
) -> Result<(), PageError> {
    session::check_form(req, state, &FormKey::session(user), token).map_err(|_| PageError::Refused)
}

/// The settings the house-rule form describes.
fn submitted_settings(
    fields: &Fields,
) -> Result<crate::store::campaigns::CampaignSettings, ApiError> {
    let mut rules = Map::new();
    for rule in vocabulary().house_rules {
        let value = if rule.values.is_empty() {
            Value::Bool(first(fields, rule.term.name).is_some())
        } else {
            Value::String(first(fields, rule.term.name).unwrap_or_default().to_owned())
        };
        rules.insert(rule.term.name.to_owned(), value);
    }
    let house_rules: HouseRules = serde_json::from_value(Value::Object(rules)).map_err(|e| {
        ApiError::validation(
            "house_rules",
            format!("choose one of the listed values ({e})"),
        )
    })?;
    let flag = |name: &str| first(fields, name).is_some();
    Ok(crate::store::campaigns::CampaignSettings {
        house_rules,
        results_need_confirmation: flag("results_need_confirmation"),
        lock_rosters_after_play: flag("lock_rosters_after_play"),
        public_standings: flag("public_standings"),
        // Kept from the stored settings by the use case.
        ruleset: Default::default(),
    })
}

/// `POST /campaigns/{id}/settings`: saves the house rules and service settings.
#[post("/campaigns/{id}/settings")]
pub async fn save_settings(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    checked_form(&req, &state, &user, first(&fields, CSRF_FIELD))?;
    let version = first(&fields, "version").and_then(|v| v.parse::<i64>().ok());
    let result = match submitted_settings(&fields) {
        Ok(settings) => {
            let changes = SettingsChanges {
                version,
                if_match: None,
                settings,
            };
            settings::update_settings(&state, &caller(&user), &path, changes).await
        }
        Err(e) => Err(e),
    };
    let failed = |errors: Errors, stale: bool| Extra {
        fields: Some(fields.clone()),
        errors,
        stale,
        ..Extra::default()
    };
    match result {
        Ok(_) => Ok(see_other(&format!("/campaigns/{path}/settings?saved=1"))),
        Err(ApiError::Validation(errors)) => {
            let extra = failed(Errors(errors), false);
            render(
                &state,
                &req,
                &user,
                &path,
                StatusCode::UNPROCESSABLE_ENTITY,
                extra,
            )
            .await
        }
        Err(ApiError::Conflict(_) | ApiError::BadRequest { .. }) if version.is_some() => {
            let extra = failed(Errors::default(), true);
            render(&state, &req, &user, &path, StatusCode::CONFLICT, extra).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /campaigns/{id}/api-keys`: a new key, its secret shown once.
#[post("/campaigns/{id}/api-keys")]
pub async fn create_key(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    checked_form(&req, &state, &user, first(&fields, CSRF_FIELD))?;
    let name = first(&fields, "key_name").unwrap_or_default();
    match api_keys::create_api_key(&state, &caller(&user), &path, name).await {
        Ok(created) => {
            let extra = Extra {
                new_key: Some(created),
                ..Extra::default()
            };
            render(&state, &req, &user, &path, StatusCode::CREATED, extra).await
        }
        Err(ApiError::Validation(errors)) => {
            let errors = errors
                .into_iter()
                .map(|e| {
                    FieldError::new(
                        if e.field == "name" {
                            "key_name".to_owned()
                        } else {
                            e.field
                        },
                        e.message,
                    )
                })
                .collect();
            let extra = Extra {
                errors: Errors(errors),
                ..Extra::default()
            };
            render(
                &state,
                &req,
                &user,
                &path,
                StatusCode::UNPROCESSABLE_ENTITY,
                extra,
            )
            .await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /campaigns/{id}/api-keys/{key_id}/revoke`.
#[post("/campaigns/{id}/api-keys/{key_id}/revoke")]
pub async fn revoke_key(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    checked_form(&req, &state, &user, form.csrf_token())?;
    let (id, key_id) = path.into_inner();
    api_keys::revoke_api_key(&state, &caller(&user), &id, &key_id).await?;
    Ok(see_other(&format!("/campaigns/{id}/settings?revoked=1")))
}

/// `POST /campaigns/{id}/webhooks`: a new webhook, its secret shown once.
#[post("/campaigns/{id}/webhooks")]
pub async fn create_hook(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields = read_fields(&body);
    checked_form(&req, &state, &user, first(&fields, CSRF_FIELD))?;
    let input = NewWebhook {
        url: first(&fields, "url").unwrap_or_default().to_owned(),
        events: fields.get("events").cloned().unwrap_or_default(),
        description: first(&fields, "description").map(str::to_owned),
    };
    match webhooks::create_webhook(&state, &caller(&user), &path, input).await {
        Ok(created) => {
            let extra = Extra {
                new_hook: Some(created),
                ..Extra::default()
            };
            render(&state, &req, &user, &path, StatusCode::CREATED, extra).await
        }
        Err(ApiError::Validation(errors)) => {
            // `events[2]` is shown on the event list; a campaign's limit beside the URL.
            let errors = errors
                .into_iter()
                .map(|e| {
                    let field = match e.field.as_str() {
                        f if f.starts_with("events") => "events".to_owned(),
                        "campaign_id" => "url".to_owned(),
                        f => f.to_owned(),
                    };
                    FieldError::new(field, e.message)
                })
                .collect();
            let extra = Extra {
                fields: Some(fields.clone()),
                errors: Errors(errors),
                ..Extra::default()
            };
            render(
                &state,
                &req,
                &user,
                &path,
                StatusCode::UNPROCESSABLE_ENTITY,
                extra,
            )
            .await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /campaigns/{id}/webhooks/{hook_id}/test`: queues a ping.
#[post("/campaigns/{id}/webhooks/{hook_id}/test")]
pub async fn test_hook(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    checked_form(&req, &state, &user, form.csrf_token())?;
    let (id, hook_id) = path.into_inner();
    webhooks::test_webhook(&state, &caller(&user), &id, &hook_id).await?;
    Ok(see_other(&format!("/campaigns/{id}/settings?pinged=1")))
}

/// `POST /campaigns/{id}/webhooks/{hook_id}/disable`.
#[post("/campaigns/{id}/webhooks/{hook_id}/disable")]
pub async fn disable_hook(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    checked_form(&req, &state, &user, form.csrf_token())?;
    let (id, hook_id) = path.into_inner();
    webhooks::disable_webhook(&state, &caller(&user), &id, &hook_id).await?;
    Ok(see_other(&format!("/campaigns/{id}/settings?disabled=1")))
}

/// `POST /campaigns/{id}/webhooks/{hook_id}/delete`.
#[post("/campaigns/{id}/webhooks/{hook_id}/delete")]
pub async fn delete_hook(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    checked_form(&req, &state, &user, form.csrf_token())?;
    let (id, hook_id) = path.into_inner();
    webhooks::delete_webhook(&state, &caller(&user), &id, &hook_id).await?;
    Ok(see_other(&format!("/campaigns/{id}/settings?deleted=1")))
}

/// `GET /campaigns/{id}/webhooks/{hook_id}`: the delivery log, newest first, paged.
#[get("/campaigns/{id}/webhooks/{hook_id}")]
pub async fn deliveries_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let (id, hook_id) = path.into_inner();
    let page = Page::extract(&req)
        .await?
        .keyset("webhook-deliveries", &hook_id)?;
    let (deliveries, next) =
        webhooks::list_deliveries(&state, &caller(&user), &id, &hook_id, page).await?;
    let title = "Webhook deliveries";
    let body = html! {
        h1 { (title) }
        p { a href={ "/campaigns/" (id) "/settings" } { "Back to the settings" } }
        @if deliveries.is_empty() {
            p.muted { "No deliveries yet." }
        } @else {
            div.table-wrap {
                table {
                    thead { tr { th scope="col" { "Event" } th scope="col" { "Status" } th.num scope="col" { "Attempts" } th scope="col" { "Last attempt" } th scope="col" { "Actions" } } }
                    tbody {
                        @for d in &deliveries {
                            tr {
                                th scope="row" { (d.event_type) br; span.muted { (d.created_at.format("%Y-%m-%d %H:%M UTC")) } }
                                td {
                                    (d.status)
                                    @if let Some(code) = d.last_status_code { " (HTTP " (code) ")" }
                                    @if let Some(e) = &d.last_error { br; span.muted { (e) } }
                                    @if let Some(why) = &d.waiting { br; span.muted { "Waits: " (why) } }
                                }
                                td.num { (d.attempts) }
                                td { (d.last_attempt_at.map_or_else(|| "—".to_owned(), |t| t.format("%Y-%m-%d %H:%M UTC").to_string())) }
                                td {
                                    div.actions {
                                        @if d.status == "pending" || d.status == "failed" {
                                            form method="post" action={ "/campaigns/" (id) "/webhooks/" (hook_id) "/deliveries/" (d.id) "/retry" } {
                                                (csrf_input(&state, &FormKey::session(&user)))
                                                button.secondary type="submit" { "Retry now" }
                                            }
                                        }
                                        @if d.status == "pending" {
                                            form method="post" action={ "/campaigns/" (id) "/webhooks/" (hook_id) "/deliveries/" (d.id) "/skip" } {
                                                (csrf_input(&state, &FormKey::session(&user)))
                                                button.secondary type="submit" { "Skip" }
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
        @if let Some(next) = next {
            p { a href={ "/campaigns/" (id) "/webhooks/" (hook_id) "?after=" (crate::web::encode_query(&next)) } { "More" } }
        }
    };
    Ok(respond(
        StatusCode::OK,
        layout::page(&state, Some(&user), title, body),
    ))
}

/// `POST /campaigns/{id}/webhooks/{hook_id}/deliveries/{delivery_id}/retry`: sends it now.
#[post("/campaigns/{id}/webhooks/{hook_id}/deliveries/{delivery_id}/retry")]
pub async fn retry_delivery(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    act_on_delivery(req, state, path, form, DeliveryAction::Retry).await
}

/// `POST /campaigns/{id}/webhooks/{hook_id}/deliveries/{delivery_id}/skip`: never sends it.
#[post("/campaigns/{id}/webhooks/{hook_id}/deliveries/{delivery_id}/skip")]
pub async fn skip_delivery(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    act_on_delivery(req, state, path, form, DeliveryAction::Skip).await
}

/// Both delivery buttons: the use case, then back to the log.
async fn act_on_delivery(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
    form: web::Form<TokenForm>,
    action: DeliveryAction,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    checked_form(&req, &state, &user, form.csrf_token())?;
    let (id, hook_id, delivery_id) = path.into_inner();
    webhooks::act_on_delivery(&state, &caller(&user), &id, &hook_id, &delivery_id, action).await?;
    Ok(see_other(&format!("/campaigns/{id}/webhooks/{hook_id}")))
}
