//! The OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]` attributes. One
//! [`configure`] registers every route for both `serve` and `fad-campaign openapi`, so the
//! served document, the printed one and `openapi/openapi.json` cannot drift apart unnoticed
//! (the black-box drift test compares them).

mod tidy;

use crate::error::{FieldError, Problem};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

/// Security scheme name for `Authorization: Bearer <JWT or API key>`; use it in handlers as
/// `security(("bearer" = []))`.
pub const BEARER: &str = "bearer";
/// Security scheme name for the `X-Api-Key` header (campaign integration keys).
pub const API_KEY: &str = "api_key";

/// The static part of the document: info, tags, shared schemas, security schemes.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "fad-campaign",
        description = "Campaigns, forces, battles and scenarios for the Fast And Dirty \
                       miniatures wargame. Errors are application/problem+json (RFC 9457)."
    ),
    components(schemas(Problem, FieldError, crate::store::events::EventData)),
    modifiers(&SecuritySchemes),
    tags(
        (name = "health", description = "Liveness and readiness probes"),
        (name = "auth", description = "Accounts and tokens"),
        (name = "campaigns", description = "Campaigns, membership, invites, API keys, standings"),
        (name = "forces", description = "Forces (rosters) and their history"),
        (name = "battles", description = "Battles, results and the post-battle sequence"),
        (name = "scenarios", description = "Scenario generation"),
        (name = "odds", description = "Exact mission odds (public)"),
        (name = "dice", description = "Verifiable server dice: commitments and verification (public)"),
        (name = "rules", description = "The rules reference (public)"),
        (name = "webhooks", description = "Signed webhooks of a campaign and their delivery log"),
    )
)]
pub struct ApiDoc;

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("An access token from login, or a campaign API key."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            API_KEY,
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-Api-Key",
                "A campaign's read-only integration key.",
            ))),
        );
    }
}

/// Registers every route of the service: the probes, the JSON API under `/api/v1` (with the
/// battle sheet, the API's one HTML answer, rendered by the pages' sheet module), then the
/// pages and the printable sheets. The two skins never import each other; they meet here.
pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    crate::routes::configure(cfg);
    cfg.service(
        utoipa_actix_web::scope(crate::routes::API_BASE)
            .configure(crate::routes::configure_api)
            .service(crate::web::sheets::battle_sheet::get_scenario_sheet),
    );
    // The pages before the sheets: `/scenarios/new` must win over the sheet's
    // `/scenarios/{scenario_id}`.
    crate::web::configure(cfg);
    crate::web::sheets::configure(cfg);
}

/// The full document, exactly as served at `/api-docs/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_app, mut api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
    finish(&mut api);
    api
}

/// What the handlers' attributes cannot say: the `Idempotency-Key` of every write and the
/// `webhooks` section. Both the served and the printed document go through it.
pub fn finish(api: &mut utoipa::openapi::OpenApi) {
    document_idempotency_keys(api);
    crate::webhooks::document::document(api);
    tidy::tidy(api);
}

/// The document as served at `/api-docs/openapi.json`: [`document_json`]'s text, so the two
/// cannot differ.
pub fn served(api: &utoipa::openapi::OpenApi) -> serde_json::Value {
    api.to_pretty_json()
        .ok()
        .and_then(|json| serde_json::from_str(&tidy::text(&json)).ok())
        .unwrap_or_else(|| serde_json::to_value(api).unwrap_or_default())
}

/// Declares the `Idempotency-Key` header on every write under `/api/v1` that does not already
/// (one middleware honours it for all: [`crate::idempotent`]), but the three that take none.
pub fn document_idempotency_keys(api: &mut utoipa::openapi::OpenApi) {
    use actix_web::http::Method;
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::{
        ContentBuilder, ObjectBuilder, Ref, RefOr, Required, ResponseBuilder, Type,
    };
    for (path, item) in api.paths.paths.iter_mut() {
        if !path.starts_with(crate::routes::API_BASE) {
            continue;
        }
        let writes = [
            (Method::POST, &mut item.post),
            (Method::PUT, &mut item.put),
            (Method::PATCH, &mut item.patch),
            (Method::DELETE, &mut item.delete),
        ];
        for (method, operation) in writes {
            let Some(operation) = operation.as_mut() else {
                continue;
            };
            if crate::idempotent::takes_no_key(&method, path) {
                continue;
            }
            let parameters = operation.parameters.get_or_insert_with(Vec::new);
            let declared = parameters.iter().any(|p| {
                matches!(p, RefOr::T(p) if p.parameter_in == ParameterIn::Header
                    && p.name.eq_ignore_ascii_case("Idempotency-Key"))
            });
            if !declared {
                parameters.push(RefOr::T(
                    ParameterBuilder::new()
                        .name("Idempotency-Key")
                        .parameter_in(ParameterIn::Header)
                        .required(Required::False)
                        .description(Some(
                            "Replays the first answer for the same key and body (with \
                             `Idempotent-Replayed: true`), kept 48 hours; another body is 422",
                        ))
                        .schema(Some(
                            ObjectBuilder::new()
                                .schema_type(Type::String)
                                .min_length(Some(1))
                                .max_length(Some(crate::store::idempotency::MAX_KEY_LEN))
                                .pattern(Some("^[!-~]+$")),
                        ))
                        .build(),
                ));
            }
            // A malformed key is refused before anything runs.
            operation
                .responses
                .responses
                .entry("400".to_owned())
                .or_insert_with(|| {
                    RefOr::T(
                        ResponseBuilder::new()
                            .description("A malformed `Idempotency-Key` header or request")
                            .content(
                                "application/problem+json",
                                ContentBuilder::new()
                                    .schema(Some(Ref::from_schema_name("Problem")))
                                    .build(),
                            )
                            .build(),
                    )
                });
        }
    }
}

/// The document as pretty JSON with a trailing newline (the format of `openapi/openapi.json`).
pub fn document_json() -> anyhow::Result<String> {
    let mut text = tidy::text(&document().to_pretty_json()?);
    text.push('\n');
    Ok(text)
}
