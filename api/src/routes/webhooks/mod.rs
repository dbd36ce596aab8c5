//! Webhooks of a campaign (organiser only), under `/api/v1/campaigns/{campaign_id}/webhooks`:
//! parse, call [`crate::app::webhooks`], render JSON.

use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;
use crate::app::webhooks::{
    self as app, CreatedWebhook, DeliveryAction, DeliveryView, NewWebhook, WebhookView,
};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::paging::{Page, PageParams};

/// Registers the webhook routes (paths relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create_webhook)
        .service(list_webhooks)
        .service(delete_webhook)
        .service(test_webhook)
        .service(disable_webhook)
        .service(list_deliveries)
        .service(retry_delivery)
        .service(skip_delivery);
}

/// A new webhook.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://club.example/hooks/fad", "events": ["battle.result_confirmed", "force.created"], "description": "Club news feed"}))]
pub struct CreateWebhookRequest {
    /// Where to deliver: `https://` to a public address (at most 2000 characters).
    #[schema(example = "https://club.example/hooks/fad")]
    pub url: String,
    /// The event types to deliver, e.g. `["battle.result_confirmed", "force.created"]`.
    #[schema(value_type = Vec<crate::store::events::EventType>)]
    pub events: Vec<String>,
    /// A note, at most 200 characters.
    #[serde(default)]
    pub description: Option<String>,
}

/// A campaign's webhooks.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    /// Oldest first; without secrets.
    pub webhooks: Vec<WebhookView>,
}

/// A page of a webhook's deliveries.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    /// Newest first.
    pub deliveries: Vec<DeliveryView>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Creates a webhook (organiser). The answer carries the signing secret, shown only once.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "create_webhook",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body = CreateWebhookRequest,
    responses(
        (status = 201, description = "The webhook with its secret, shown once", body = CreatedWebhook),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A URL that is not https:// or points at a loopback, private or link-local address, an unknown event type, or the campaign has its most webhooks (`FAD_MAX_WEBHOOKS_PER_CAMPAIGN`)", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/webhooks")]
pub async fn create_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let input = NewWebhook {
        url: body.url,
        events: body.events,
        description: body.description,
    };
    let created = app::create_webhook(&state, &user.caller(), &path.into_inner(), input).await?;
    Ok(HttpResponse::Created().json(created))
}

/// Lists the campaign's webhooks without secrets, each with its last delivery (organiser).
#[utoipa::path(
    tag = "webhooks",
    operation_id = "list_webhooks",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The webhooks", body = WebhookList),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/webhooks")]
pub async fn list_webhooks(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<WebhookList>, ApiError> {
    let webhooks = app::list_webhooks(&state, &user.caller(), &path.into_inner()).await?;
    Ok(web::Json(WebhookList { webhooks }))
}

/// Deletes a webhook and its delivery log (organiser).
#[utoipa::path(
    tag = "webhooks",
    operation_id = "delete_webhook",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
    ),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or webhook", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/campaigns/{campaign_id}/webhooks/{hook_id}")]
pub async fn delete_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, hook_id) = path.into_inner();
    app::delete_webhook(&state, &user.caller(), &campaign_id, &hook_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Queues a signed `ping` for the webhook (organiser); its delivery shows in the log.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "test_webhook",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
    ),
    responses(
        (status = 202, description = "The ping is queued"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or webhook", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The webhook is disabled", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/webhooks/{hook_id}/test")]
pub async fn test_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, hook_id) = path.into_inner();
    app::test_webhook(&state, &user.caller(), &campaign_id, &hook_id).await?;
    Ok(HttpResponse::Accepted().finish())
}

/// Disables the webhook (organiser): nothing more is sent to it and its pending deliveries
/// fail; it stays listed with its log (`disabled_at`, `disabled_reason`) until deleted.
/// Disabling it again changes nothing.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "disable_webhook",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
    ),
    responses(
        (status = 204, description = "Disabled"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or webhook", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/webhooks/{hook_id}/disable")]
pub async fn disable_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (campaign_id, hook_id) = path.into_inner();
    app::disable_webhook(&state, &user.caller(), &campaign_id, &hook_id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A webhook's deliveries, newest first, with each one's attempts and last answer (organiser).
#[utoipa::path(
    tag = "webhooks",
    operation_id = "list_webhook_deliveries",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
        PageParams,
    ),
    responses(
        (status = 200, description = "The deliveries", body = DeliveryList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign or webhook", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/webhooks/{hook_id}/deliveries")]
pub async fn list_deliveries(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    page: Page,
) -> Result<web::Json<DeliveryList>, ApiError> {
    let (campaign_id, hook_id) = path.into_inner();
    let page = page.keyset("webhook-deliveries", &hook_id)?;
    let (deliveries, next) =
        app::list_deliveries(&state, &user.caller(), &campaign_id, &hook_id, page).await?;
    Ok(web::Json(DeliveryList { deliveries, next }))
}

/// Sends a delivery now (organiser): a pending one waiting for its next retry, or one given up
/// (`failed`), which becomes pending again. It still goes out in its webhook's order (a ping
/// goes at once). Answers the delivery with why it waits, if it does.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "retry_webhook_delivery",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
        ("delivery_id" = String, Path, description = "The delivery id"),
    ),
    responses(
        (status = 200, description = "The delivery as it is now", body = DeliveryView),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, webhook or delivery", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A delivered or skipped delivery, one being sent this moment, or a disabled webhook", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/webhooks/{hook_id}/deliveries/{delivery_id}/retry")]
pub async fn retry_delivery(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<DeliveryView>, ApiError> {
    let (campaign_id, hook_id, delivery_id) = path.into_inner();
    let delivery = app::act_on_delivery(
        &state,
        &user.caller(),
        &campaign_id,
        &hook_id,
        &delivery_id,
        DeliveryAction::Retry,
    )
    .await?;
    Ok(web::Json(delivery))
}

/// Skips a pending delivery (organiser): it is not sent, its status becomes `skipped`, and the
/// webhook's later events stop waiting for it.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "skip_webhook_delivery",
    security(("bearer" = [])),
    params(
        ("campaign_id" = String, Path, description = "The campaign id"),
        ("hook_id" = String, Path, description = "The webhook id"),
        ("delivery_id" = String, Path, description = "The delivery id"),
    ),
    responses(
        (status = 200, description = "The delivery as it is now", body = DeliveryView),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may manage webhooks", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, webhook or delivery", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A delivery that is not pending (delivered, given up or skipped), one being sent this moment, or a disabled webhook", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/webhooks/{hook_id}/deliveries/{delivery_id}/skip")]
pub async fn skip_delivery(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<DeliveryView>, ApiError> {
    let (campaign_id, hook_id, delivery_id) = path.into_inner();
    let delivery = app::act_on_delivery(
        &state,
        &user.caller(),
        &campaign_id,
        &hook_id,
        &delivery_id,
        DeliveryAction::Skip,
    )
    .await?;
    Ok(web::Json(delivery))
}
