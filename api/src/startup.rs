//! Start-up: `serve` (configuration, migrations, the HTTP server until a signal) and the
//! application it serves ([`build_app`]).

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName};
use actix_web::{App, HttpServer};
use anyhow::Context;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::AppState;
use crate::config::{Config, ServeArgs};
use crate::db::{Database, PoolOptions};
use crate::middleware::RouteTable;
use crate::{
    app, auth, check_order, db, extract, idempotent, live, middleware, openapi, web, webhooks,
};

/// `fad-campaign serve`: validates the configuration, migrates, then serves until SIGINT or
/// SIGTERM, letting in-flight requests finish.
pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = Arc::new(Config::from_serve_args(args)?);
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        database = %config.database_url,
        "fad-campaign {} starting on {}",
        env!("CARGO_PKG_VERSION"),
        config.database_url
    );
    let mut conn = config.database_url.establish()?;
    db::run_migrations(&mut conn)?;
    drop(conn);
    let options = PoolOptions {
        max_size: config.db_pool_size,
        connection_timeout: Duration::from_secs(config.db_timeout_secs),
    };
    let db = Database::connect(&config.database_url, options)?;
    // Every live stream holds a socket: make room for FAD_MAX_STREAMS of them, or say why not.
    live::files::check(config.streams.total);
    if db.backend() == db::Backend::Postgres {
        // Changes committed by any process on this database wake this process's streams.
        live::listen::spawn(config.database_url.clone(), db.hub().clone())
            .context("cannot start the live-update listener thread")?;
    }
    // Delivery runs beside the HTTP server, on its own thread: never inside a request.
    webhooks::worker::spawn(db.clone(), config.webhooks.clone())
        .context("cannot start the webhook delivery thread")?;
    app::scenarios::expiry::spawn(
        db.clone(),
        std::time::Duration::from_secs(config.oneshot_sweep_secs),
    )
    .context("cannot start the scenario sweep thread")?;
    let state = AppState::new(db, config);
    actix_web::rt::System::new().block_on(serve_until_signal(state))
}

async fn serve_until_signal(state: AppState) -> anyhow::Result<()> {
    let config = state.config.clone();
    let app_state = state.clone();
    let mut server = HttpServer::new(move || build_app(app_state.clone()))
        .disable_signals()
        // A client that closes its end has gone (browsers never half-close): stop serving it
        // at once, so a live stream and its slot end with the tab, not at the next write.
        .h1_allow_half_closed(false)
        .shutdown_timeout(30);
    if let Some(workers) = config.workers {
        server = server.workers(workers);
    }
    // Blocking tasks are database work, which waits for a pooled connection, and short CPU
    // work (password hashing, odds). More threads per worker than connections would mostly park
    // on the pool: context switches, and memory (a stack and a malloc arena each). tokio's
    // default allows hundreds.
    server = server.worker_max_blocking_threads(config.db_pool_size.max(2) as usize);
    let server = server
        .bind(config.bind)
        .with_context(|| format!("cannot listen on {} (FAD_BIND / --bind)", config.bind))?;
    for addr in server.addrs() {
        // Tests and scripts read this line to learn the port when binding to port 0.
        println!("listening on http://{addr}");
        tracing::info!("listening on http://{addr}");
    }
    std::io::stdout().flush().context("writing to stdout")?;
    let running = server.run();
    let handle = running.handle();
    let stopping = state.clone();
    actix_web::rt::spawn(async move {
        let signal = shutdown_signal().await;
        tracing::info!("{signal} received: finishing in-flight requests, then stopping");
        // Live-update streams would otherwise hold the stop for their whole lifetime.
        web::battles::events::close_streams(stopping.db.hub());
        handle.stop(true).await;
    });
    running.await.context("HTTP server failed")?;
    tracing::info!("stopped");
    Ok(())
}

/// Waits for SIGINT or SIGTERM and names the one that came.
async fn shutdown_signal() -> &'static str {
    use futures_util::future::{Either, select};
    let ctrl_c = Box::pin(actix_web::rt::signal::ctrl_c());
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                let term = Box::pin(async move { term.recv().await });
                match select(ctrl_c, term).await {
                    Either::Left(_) => "SIGINT",
                    Either::Right(_) => "SIGTERM",
                }
            }
            Err(err) => {
                tracing::warn!("cannot listen for SIGTERM ({err}); only SIGINT stops the server");
                let _ = ctrl_c.await;
                "SIGINT"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
        "SIGINT"
    }
}

/// The application: routes from [`openapi::configure`], the OpenAPI document at
/// `/api-docs/openapi.json`, Swagger UI at `/docs/`, extractor configs that answer in
/// problem+json, the 404/405 fallback, CORS and the request middleware.
pub fn build_app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let limit = state.config.body_limit;
    let cors = cors(&state.config.cors_origins);
    let (app, api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::ApiDoc::openapi())
        .app_data(actix_web::web::Data::new(state))
        .app_data(extract::json_config(limit))
        .app_data(extract::payload_config(limit))
        .app_data(web::form_config(limit))
        .app_data(extract::path_config())
        .app_data(extract::query_config())
        .configure(openapi::configure)
        .split_for_parts();
    let mut api = api;
    openapi::finish(&mut api);
    let routes = RouteTable::from_openapi(&api);
    let security = auth::SecurityTable::from_openapi(&api);
    app.app_data(actix_web::web::Data::new(security))
        .service(
            SwaggerUi::new("/docs/{_:.*}")
                .external_url_unchecked("/api-docs/openapi.json", openapi::served(&api)),
        )
        .service(actix_web::web::redirect("/docs", "/docs/"))
        .default_service(actix_web::web::to(move |req| {
            middleware::fallback(req, routes.clone())
        }))
        // Innermost: a write's Idempotency-Key, once its caller is known.
        .wrap(actix_web::middleware::from_fn(
            idempotent::idempotent_writes,
        ))
        // A write's body errors only for a caller allowed to make it (credential → permission
        // → body → state).
        .wrap(actix_web::middleware::from_fn(
            check_order::permission_before_body,
        ))
        // Authentication runs after CORS preflights, before routing and extractors.
        .wrap(actix_web::middleware::from_fn(auth::gate::authenticate))
        .wrap(cors)
        .wrap(actix_web::middleware::from_fn(middleware::request_context))
}

/// CORS from `FAD_CORS_ORIGINS`. Mismatched origins are not blocked server-side (browsers
/// enforce CORS; other clients send no `Origin`); they just get no CORS headers.
fn cors(origins: &[String]) -> Cors {
    let base = Cors::default()
        .allow_any_method()
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::IF_MATCH,
            HeaderName::from_static("x-api-key"),
            HeaderName::from_static("idempotency-key"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            middleware::REQUEST_ID_HEADER,
            idempotent::REPLAYED_HEADER,
        ])
        .max_age(3600)
        .block_on_origin_mismatch(false);
    if origins.iter().any(|o| o == "*") {
        base.allow_any_origin()
    } else {
        origins
            .iter()
            .fold(base, |cors, origin| cors.allowed_origin(origin))
    }
}

#[cfg(test)]
mod tests {
    //! The request-body error paths, in-process with the real middleware and extractor
    //! configs (no JSON route exists in the skeleton itself).

    use super::*;
    use crate::config::{Cli, Command};
    use actix_web::{HttpResponse, test};
    use clap::Parser;
    use serde_json::{Value, json};

    #[derive(serde::Deserialize)]
    struct Body {
        name: String,
        #[expect(dead_code, reason = "present to be validated")]
        count: u8,
    }

    #[derive(serde::Deserialize)]
    struct Query {
        #[expect(dead_code, reason = "present to be validated")]
        count: u8,
    }

    async fn ours(body: extract::Json<Body>) -> HttpResponse {
        HttpResponse::Ok().body(body.into_inner().name)
    }

    async fn actix_json(body: actix_web::web::Json<Body>) -> HttpResponse {
        HttpResponse::Ok().body(body.into_inner().name)
    }

    async fn query(_: actix_web::web::Query<Query>) -> HttpResponse {
        HttpResponse::Ok().finish()
    }

    fn state(dir: &std::path::Path) -> AppState {
        let url = format!("sqlite://{}", dir.join("t.sqlite3").display());
        let data = dir.display().to_string();
        let cli = Cli::try_parse_from([
            "fad-campaign",
            "serve",
            "--database-url",
            &url,
            "--data-dir",
            &data,
            "--jwt-secret",
            "0123456789abcdef0123456789abcdef",
            "--body-limit",
            "64",
            "--cors-origins",
            "https://club.example",
        ])
        .unwrap();
        let Command::Serve(args) = cli.command else {
            panic!("serve")
        };
        let config = Arc::new(Config::from_serve_args(args).unwrap());
        let db = Database::connect(&config.database_url, PoolOptions::default()).unwrap();
        AppState::new(db, config)
    }

    async fn call(
        app: &impl actix_web::dev::Service<
            actix_http::Request,
            Response = ServiceResponse<impl MessageBody>,
            Error = actix_web::Error,
        >,
        path: &str,
        content_type: &str,
        body: &str,
    ) -> (u16, String, Value) {
        let request = test::TestRequest::post()
            .uri(path)
            .insert_header(("content-type", content_type))
            .set_payload(body.to_owned())
            .to_request();
        let response = test::call_service(app, request).await;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let bytes = test::read_body(response).await;
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, content_type, value)
    }

    #[actix_web::test]
    async fn body_errors_are_problem_json_for_our_and_actix_json_extractors() {
        let dir = tempfile::tempdir().unwrap();
        let app = test::init_service(
            build_app(state(dir.path()))
                .route("/ours", actix_web::web::post().to(ours))
                .route("/actix", actix_web::web::post().to(actix_json))
                .route("/query", actix_web::web::post().to(query)),
        )
        .await;
        let json = "application/json";
        let big = format!(r#"{{"name":"{}","count":1}}"#, "x".repeat(100));
        for path in ["/ours", "/actix"] {
            let cases = [
                (json, r#"{"name":"#, 400),
                ("text/plain", r#"{"name":"a","count":1}"#, 415),
                ("", r#"{"name":"a","count":1}"#, 415),
                (json, big.as_str(), 413),
                (json, r#"{"name":"a","count":"x"}"#, 422),
                (json, r#"{"name":"a","count":1}"#, 200),
            ];
            for (content_type, body, expected) in cases {
                let (status, got_type, problem) = call(&app, path, content_type, body).await;
                assert_eq!(status, expected, "{path} {content_type} {body}: {problem}");
                if expected != 200 {
                    assert_eq!(got_type, "application/problem+json", "{path} {body}");
                    assert_eq!(problem["status"], expected, "{problem}");
                }
            }
        }
        let (_, _, problem) = call(&app, "/ours", json, r#"{"name":"a","count":"x"}"#).await;
        assert_eq!(
            problem,
            json!({
                "type": "/problems/validation",
                "title": "Unprocessable Entity",
                "status": 422,
                "detail": "count: must be a whole number from 0 to 255, not the text \"x\".",
                "errors": [{"field": "count", "message": "must be a whole number from 0 to 255, not the text \"x\""}]
            })
        );
        let (status, got_type, problem) = call(&app, "/query?count=x", json, "").await;
        assert_eq!(
            (status, got_type.as_str()),
            (400, "application/problem+json"),
            "{problem}"
        );
    }

    #[actix_web::test]
    async fn configured_cors_origin_gets_cors_headers() {
        let dir = tempfile::tempdir().unwrap();
        let app = test::init_service(build_app(state(dir.path()))).await;
        let request = test::TestRequest::get()
            .uri("/health")
            .insert_header(("origin", "https://club.example"))
            .to_request();
        let response = test::call_service(&app, request).await;
        assert_eq!(
            response
                .headers()
                .get("access-control-allow-origin")
                .unwrap(),
            "https://club.example"
        );
        let other = test::TestRequest::get()
            .uri("/health")
            .insert_header(("origin", "https://evil.example"))
            .to_request();
        let response = test::call_service(&app, other).await;
        assert_eq!(response.status(), 200);
        assert!(
            response
                .headers()
                .get("access-control-allow-origin")
                .is_none()
        );
    }
}
