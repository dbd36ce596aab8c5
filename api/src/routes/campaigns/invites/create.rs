//! `POST /api/v1/campaigns/{campaign_id}/invites`: the organiser creates an invitation code.

use actix_web::{HttpResponse, post, web};
use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::derived::invite_code_hash;
use crate::auth::secret::ShortCode;
use crate::auth::{AuthUser, Need, campaign_access};
use crate::error::{ApiError, FieldError, Problem};
use crate::extract::Json;
use crate::store::{self, invites::Invite};

/// Default lifetime of an invitation: 7 days.
pub const DEFAULT_EXPIRES_IN_SECONDS: i64 = 7 * 24 * 3600;
/// Longest lifetime of an invitation: 90 days.
pub const MAX_EXPIRES_IN_SECONDS: i64 = 90 * 24 * 3600;

/// A new invitation.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
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
    let campaign_id = path.into_inner();
    let CreateInviteRequest {
        expires_in_seconds,
        max_uses,
    } = body.into_inner();
    let mut errors = Vec::new();
    let expires_in = expires_in_seconds.unwrap_or(DEFAULT_EXPIRES_IN_SECONDS);
    if !(60..=MAX_EXPIRES_IN_SECONDS).contains(&expires_in) {
        errors.push(FieldError::new(
            "expires_in_seconds",
            format!("must be between 60 and {MAX_EXPIRES_IN_SECONDS}"),
        ));
    }
    if max_uses.is_some_and(|n| !(1..=1000).contains(&n)) {
        errors.push(FieldError::new("max_uses", "must be between 1 and 1000"));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let code = ShortCode::generate().map_err(|e| ApiError::Internal(e.into()))?;
    let normalized = ShortCode::normalize(&code).ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!("a generated code does not read back"))
    })?;
    let code_hash = invite_code_hash(state.jwt_secret.expose(), &normalized)?;
    let now = store::now();
    let invite = Invite {
        id: store::new_id(),
        campaign_id: campaign_id.clone(),
        code_hash,
        created_by: user.user_id.clone(),
        created_at: now,
        expires_at: now + TimeDelta::seconds(expires_in),
        max_uses,
        uses: 0,
        revoked_at: None,
    };
    let caller = user.caller();
    let stored = invite.clone();
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            Ok(store::invites::insert(conn, &stored)?)
        })
        .await?;
    tracing::info!(campaign.id = %invite.campaign_id, invite.id = %invite.id, "Created invite {}", invite.id);
    Ok(HttpResponse::Created().json(CreatedInviteResponse {
        id: invite.id,
        url: state.config.link(&format!("/join/{code}")),
        code,
        campaign_id: invite.campaign_id,
        expires_at: invite.expires_at.and_utc(),
        max_uses: invite.max_uses,
    }))
}
