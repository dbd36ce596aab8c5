//! `GET /api/v1/campaigns`: the caller's campaigns.

use actix_web::{get, web};

use crate::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::store::campaigns;
use crate::store::memberships::Role;

use super::CampaignResponse;

/// Lists the campaigns the caller belongs to, newest first.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_campaigns",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's campaigns", body = Vec<CampaignResponse>),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot list campaigns", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns")]
pub async fn list_campaigns(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<CampaignResponse>>, ApiError> {
    let rows = state
        .db
        .run(move |conn| Ok(campaigns::list_for_user(conn, &user.user_id)?))
        .await?;
    let campaigns = rows
        .into_iter()
        .map(|(campaign, role)| CampaignResponse::new(campaign, Role::from_stored(&role)))
        .collect::<Result<_, _>>()?;
    Ok(web::Json(campaigns))
}
