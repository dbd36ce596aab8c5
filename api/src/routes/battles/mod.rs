//! Routes for battles, results and the post-battle sequence (docs/rules.md §2), under
//! `/api/v1`. Handlers live one per file in this directory and are registered in [`configure`];
//! they parse, call [`crate::app::battles`] and render. This module holds what they share.
//!

pub mod aftermath;
pub mod confirm;
pub mod create;
pub mod list;
pub mod read;
pub mod reopen;
pub mod result;
pub mod scenario;
pub mod solo;
pub mod timeline;
pub mod void;

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use utoipa_actix_web::service_config::ServiceConfig;

use crate::AppState;
use crate::app::idempotency;
use crate::db::Db;
use crate::error::ApiError;

/// Registers this resource's handlers (paths are relative to `/api/v1`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(create::create_battle)
        .service(list::list_battles)
        .service(read::get_battle)
        .service(result::record_result)
        .service(confirm::confirm_result)
        .service(void::void_battle)
        .service(reopen::reopen_battle)
        .service(timeline::get_timeline)
        .service(aftermath::read::get_aftermath)
        .service(aftermath::roll::roll_aftermath)
        .service(aftermath::reinforcements::reinforce_aftermath)
        .service(aftermath::purchases::purchase_aftermath)
        .service(aftermath::finalize::finalize_aftermath)
        .service(scenario::read::get_scenario)
        .service(scenario::share::share_sheet)
        .service(scenario::share::revoke_sheet)
        .service(scenario::orders::submit_orders)
        .service(scenario::missions::submit_mission_bonuses)
        .service(scenario::choice::submit_mission_choice)
        .service(scenario::recon::submit_recon_action)
        .service(scenario::assault::declare_assault_target)
        .service(solo::get_solo)
        .service(solo::put_groups)
        .service(solo::post_turn)
        .service(solo::post_casualties);
}

/// A body with no fields: empty, or `{}`.
#[derive(Debug, Default, Deserialize)]
pub struct EmptyBody {}

// Written by hand: the derive cannot say "no properties at all" (`additionalProperties: false`).
impl utoipa::PartialSchema for EmptyBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("A body with no fields: empty, or `{}`."))
            .additional_properties(Some(
                AdditionalProperties::<utoipa::openapi::schema::Schema>::FreeForm(false),
            ))
            .into()
    }
}

impl utoipa::ToSchema for EmptyBody {}

pub use crate::app::battles::{
    AftermathSummary, BattleResponse, BattleResult, RecordedLoss, Side, authorize_battle,
    battle_not_found, lock_authorized, lock_battle, lock_battle_quietly, owned_forces,
    player_forces, problems, to_value, touch_battle,
};

/// Reads the `Idempotency-Key` header (at most 200 characters).
pub fn idempotency_key(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    idempotency::key(req.headers())
}

/// Runs a write in one transaction, honouring `Idempotency-Key` (see
/// [`crate::app::idempotency`]), and renders its JSON answer.
pub async fn idempotent<F>(
    state: &AppState,
    user_id: &str,
    scope: String,
    key: Option<String>,
    body: &[u8],
    work: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(&mut Db) -> Result<(StatusCode, Value), ApiError> + Send + 'static,
{
    let write = idempotency::Write::new(user_id, scope, key, body);
    render(&idempotency::run(state, write, work).await?)
}

/// Renders a write's answer as JSON with its status.
pub fn render<T: Serialize>(answer: &idempotency::Answer<T>) -> Result<HttpResponse, ApiError> {
    let mut response = HttpResponse::build(answer.status)
        .content_type(ContentType::json())
        .body(answer.to_text()?);
    if answer.kept.is_some() {
        response
            .extensions_mut()
            .insert(crate::idempotent::AnswerKept);
    }
    Ok(response)
}

/// Parses a JSON body; an empty body reads as `{}`.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        crate::extract::parse_json(b"{}")
    } else {
        crate::extract::parse_json(body)
    }
}
