//! `GET /api/v1/campaigns/{campaign_id}/invites`: the organiser lists invitations.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::invites;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::paging::{Page, PageParams};

use super::InviteResponse;

/// A page of a campaign's invitations.
#[derive(Debug, Serialize, ToSchema)]
pub struct InviteList {
    /// Newest first.
    pub invites: Vec<InviteResponse>,
    /// Pass as `after` to read the next page; `null` on the last page.
    pub next: Option<String>,
}

/// Lists a campaign's invitations, newest first, each with its code and link (organiser).
#[utoipa::path(
    tag = "campaigns",
    operation_id = "list_invites",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id"), PageParams),
    responses(
        (status = 200, description = "The invitations", body = InviteList),
        (status = 400, description = "A bad `limit` or `after`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may list invitations", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/campaigns/{campaign_id}/invites")]
pub async fn list_invites(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    page: Page,
) -> Result<web::Json<InviteList>, ApiError> {
    let listed = invites::list_invites(&state, &user.caller(), &path, page).await?;
    let now = crate::store::now();
    Ok(web::Json(InviteList {
        invites: listed
            .items
            .into_iter()
            .map(|invite| {
                // A code that no longer works is not handed out again.
                let link = invite
                    .is_usable(now)
                    .then(|| invites::invite_link(&state, &invite))
                    .flatten();
                let mut response = InviteResponse::from(invite);
                if let Some((code, url)) = link {
                    response.code = Some(code);
                    response.url = Some(url);
                }
                response
            })
            .collect(),
        next: listed.next,
    }))
}
