//! `GET /api/v1/campaigns/{campaign_id}/settings`: house rules and service settings.

use actix_web::{HttpResponse, get, web};

use crate::AppState;
use crate::app::campaigns::settings;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};

use super::super::etag;
use super::SettingsResponse;

/// Reads a campaign's settings (members).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "get_campaign_settings",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The settings", body = SettingsResponse,
            headers(("ETag" = String, description = "The settings version"))),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot read settings", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/settings")]
pub async fn get_campaign_settings(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let view = settings::read_settings(&state, &user.caller(), &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(etag(view.version))
        .json(SettingsResponse::from(view)))
}
