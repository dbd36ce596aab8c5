//! `GET /api/v1/campaigns/{campaign_id}/members`.

use actix_web::{get, web};

use crate::AppState;
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, Problem};
use crate::store::memberships;

use super::MemberResponse;

/// Lists a campaign's members, organiser first (members only).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_members",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    responses(
        (status = 200, description = "The members", body = Vec<MemberResponse>),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys cannot list members", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/members")]
pub async fn list_members(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<Vec<MemberResponse>>, ApiError> {
    let campaign_id = path.into_inner();
    let caller = user.caller();
    let rows = state
        .db
        .run(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(memberships::list_with_usernames(conn, &campaign_id)?)
        })
        .await?;
    Ok(web::Json(
        rows.into_iter()
            .map(|(m, name)| MemberResponse::new(m, name))
            .collect(),
    ))
}
