//! `POST /api/v1/campaigns/join`: join a campaign as a player with an invitation code.

use actix_web::{HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::auth::derived::invite_code_hash;
use crate::auth::secret::{ShortCode, hash_secret};
use crate::auth::{AuthRateLimited, AuthUser};
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::routes::campaigns::members::MemberResponse;
use crate::store::{self, invites, memberships, memberships::Membership, memberships::Role, users};

/// An invitation code.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinCampaignRequest {
    /// The code the organiser handed out: `K7M2-QX9P` in any case, with or without the dash
    /// (older 40-digit codes work too).
    pub code: String,
}

/// Joins a campaign as a `player`. Unknown, expired, revoked and used-up codes all get 404.
/// Attempts count against the address's sign-in quota (429 with `Retry-After` beyond it), which
/// keeps short codes out of reach of guessing.
#[utoipa::path(
    tag = "campaigns",
    operation_id = "join_campaign",
    security(("bearer" = [])),
    request_body = JoinCampaignRequest,
    responses(
        (status = 201, description = "The new membership", body = MemberResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration keys are read-only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No usable invitation with this code", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The caller is already a member", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many attempts from this address; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/campaigns/join")]
pub async fn join_campaign(
    _limit: AuthRateLimited,
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<JoinCampaignRequest>,
) -> Result<HttpResponse, ApiError> {
    let code = body.into_inner().code;
    let code_hash = match ShortCode::normalize(&code) {
        Some(short) => invite_code_hash(state.jwt_secret.expose(), &short)?,
        None => hash_secret(code.trim()),
    };
    let now = store::now();
    let (membership, names) = state
        .db
        .transaction(move |conn| {
            // One answer for every unusable code: no hint about which codes once existed.
            let unusable = || ApiError::NotFound("No usable invitation with this code.".to_owned());
            let invite = invites::find_by_code_hash(conn, &code_hash)?.ok_or_else(unusable)?;
            if memberships::find(conn, &invite.campaign_id, &user.user_id)?.is_some() {
                return Err(ApiError::Conflict(
                    "You are already a member of this campaign.".to_owned(),
                ));
            }
            if !invites::claim_use(conn, &invite.id, now)? {
                return Err(unusable());
            }
            let membership = Membership::new(&invite.campaign_id, &user.user_id, Role::Player, now);
            memberships::insert(conn, &membership)?;
            let account = users::find_by_id(conn, &user.user_id)?
                .ok_or_else(|| ApiError::Unauthorized("Unknown user.".to_owned()))?;
            Ok((membership, (account.username, account.display_name)))
        })
        .await?;
    tracing::info!(campaign.id = %membership.campaign_id, user.id = %membership.user_id, "User {} joined campaign {}", membership.user_id, membership.campaign_id);
    Ok(HttpResponse::Created().json(MemberResponse::new(membership, names)))
}
