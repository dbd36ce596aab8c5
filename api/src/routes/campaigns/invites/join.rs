//! `POST /api/v1/campaigns/join`: join a campaign as a player with an invitation code.

use std::net::{IpAddr, Ipv4Addr};

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::app::campaigns::members;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::Json;
use crate::routes::campaigns::members::MemberResponse;

/// An invitation code.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "{invite_code}"}))]
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
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<JoinCampaignRequest>,
) -> Result<HttpResponse, ApiError> {
    let code = body.into_inner().code;
    // The TCP peer, as for sign-in (behind a proxy every client shares its address).
    let client = req
        .peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
    let member = members::join_campaign(&state, &user.caller(), client, &code).await?;
    Ok(HttpResponse::Created().json(MemberResponse::from(member)))
}
