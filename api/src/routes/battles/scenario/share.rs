//! `POST /api/v1/battles/{battle_id}/scenario/share` and `DELETE` on the same path: a side's
//! share link to its printable sheet ([`crate::app::sharing`]).

use actix_web::{HttpResponse, delete, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::app::sharing;
use crate::auth::AuthUser;
use crate::error::{ApiError, Problem};
use crate::extract::{Json, parse_json};

/// Which side's sheet to share.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"force_id": "{force_id}"}))]
pub struct ShareRequest {
    /// The side: one of the battle's player forces.
    pub force_id: String,
}

/// A side's share link.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShareLinkResponse {
    /// The link to the side's printable sheet, for anyone who holds it (no sign-in), showing
    /// what that side may see when it is opened. The same link until it is revoked.
    pub url: String,
}

/// Which side's link to revoke, when not in the body.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RevokeQuery {
    /// The side whose link to revoke (or send `{"force_id": …}` as the body).
    pub force_id: Option<String>,
}

/// Shares a side's printable sheet: answers its link, the same one on every call until it is
/// revoked.
#[utoipa::path(
    tag = "battles",
    operation_id = "share_battle_scenario_sheet",
    security(("bearer" = [])),
    params(("battle_id" = String, Path, description = "The battle id")),
    request_body = ShareRequest,
    responses(
        (status = 201, description = "A new link", body = ShareLinkResponse),
        (status = 200, description = "The side's existing link", body = ShareLinkResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the force's owner, or an organiser who plays neither side, may share its sheet; integration keys never", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`force_id` is not a player side of this battle", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/scenario/share")]
pub async fn share_sheet(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: Json<ShareRequest>,
) -> Result<HttpResponse, ApiError> {
    let link = sharing::share_battle_sheet(
        &state,
        &user.caller(),
        &path.into_inner(),
        &body.into_inner().force_id,
    )
    .await?;
    let mut response = if link.created {
        HttpResponse::Created()
    } else {
        HttpResponse::Ok()
    };
    Ok(response
        .insert_header(("Cache-Control", "no-store"))
        .json(ShareLinkResponse { url: link.url }))
}

/// Revokes a side's share link: it answers 404 from then on. Revoking a side with no link
/// changes nothing.
#[utoipa::path(
    tag = "battles",
    operation_id = "revoke_battle_scenario_sheet",
    security(("bearer" = [])),
    params(("battle_id" = String, Path, description = "The battle id"), RevokeQuery),
    request_body(content = ShareRequest, description = "The side, unless given as `?force_id=`"),
    responses(
        (status = 204, description = "The side has no share link now"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the force's owner, or an organiser who plays neither side, may revoke its link; integration keys never", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller is not a member", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`force_id` is missing, or not a player side of this battle", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/battles/{battle_id}/scenario/share")]
pub async fn revoke_sheet(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<RevokeQuery>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let from_body = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        Some(parse_json::<ShareRequest>(&body)?.force_id)
    };
    let force_id = match (from_body, query.into_inner().force_id) {
        (Some(a), Some(b)) if a != b => {
            return Err(ApiError::validation(
                "force_id",
                "differs between the body and the query string; send it once",
            ));
        }
        (Some(id), _) | (None, Some(id)) => id,
        (None, None) => {
            return Err(ApiError::validation(
                "force_id",
                "is required: the side whose link to revoke",
            ));
        }
    };
    sharing::revoke_battle_sheet(&state, &user.caller(), &path.into_inner(), &force_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
