//! `POST /api/v1/campaigns/{campaign_id}/invites`: the organiser creates an invitation code.

use actix_web::{HttpResponse, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::invites::{self, NewInvite};
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

/// A new invitation.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expires_in_seconds": 604800, "max_uses": 4}))]
pub struct CreateInviteRequest {
    /// Seconds until the code expires: 60 to 7 776 000 (90 days). Default 604 800 (7 days).
    pub expires_in_seconds: Option<i64>,
    /// How many people may join with the code (1 to 1000); absent for no limit.
    pub max_uses: Option<i32>,
}

/// A new invitation with its code, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedInviteResponse {
    /// The invitation id (to revoke it).
    pub id: String,
    /// The code to hand to players, 8 characters shown as `K7M2-QX9P` (read in any case, with
    /// or without the dash); they send it to `POST /api/v1/campaigns/join` or open `url`.
    pub code: String,
    /// The page that joins with this code: `{public address}/join/{code}` (a path when the
    /// server has no `FAD_PUBLIC_URL`).
    pub url: String,
    /// The campaign it joins.
    pub campaign_id: String,
    /// When the code stops working (RFC 3339 UTC).
    pub expires_at: DateTime<Utc>,
    /// How many times the code may be used; absent for no limit.
    pub max_uses: Option<i32>,
}

/// Creates an invitation code (organiser). The code is returned once and stored hashed.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "create_invite",
    security(("bearer" = [])),
    params(("campaign_id" = String, Path, description = "The campaign id")),
    request_body(content = CreateInviteRequest, description = "Optional; `{}` takes the defaults"),
    responses(
        (status = 201, description = "The invitation and its code", body = CreatedInviteResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the organiser may invite", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such campaign, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Expiry or use limit out of range", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/{campaign_id}/invites")]
pub async fn create_invite(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<CreateInviteRequest>,
) -> Result<HttpResponse, ApiError> {
    let CreateInviteRequest {
        expires_in_seconds,
        max_uses,
    } = body.into_inner();
    let input = NewInvite {
        expires_in_seconds,
        max_uses,
    };
    let created = invites::create_invite(&state, &user.caller(), &path, input).await?;
    let invite = created.invite;
    Ok(HttpResponse::Created().json(CreatedInviteResponse {
        id: invite.id,
        code: created.code,
        url: created.url,
        campaign_id: invite.campaign_id,
        expires_at: invite.expires_at.and_utc(),
        max_uses: invite.max_uses,
    }))
}
