//! `GET /api/v1/campaigns/{campaign_id}/api-keys`: the organiser lists integration keys.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::api_keys;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::ApiKeyResponse;

/// A page of a campaign's keys.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiKeyList {
    /// Newest first.
    pub api_keys: Vec<ApiKeyResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Lists a campaign's integration keys (revoked ones too), without the keys (organiser).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_api_keys",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "The keys", body = ApiKeyList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may list keys", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/api-keys")]
pub async fn list_api_keys(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<ApiKeyList>, ApiError> {
    let listed = api_keys::list_api_keys(&state, &user.caller(), &path, page).await?;
    Ok(web::Json(ApiKeyList {
        api_keys: listed.items.into_iter().map(ApiKeyResponse::from).collect(),
        next: listed.next,
    }))
}
