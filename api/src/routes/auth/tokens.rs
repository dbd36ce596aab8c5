//! `/api/v1/me/tokens`: the caller's personal access tokens for bots (create, list, revoke).
//! Managing tokens takes a sign-in: a personal access token gets 403 here, so a leaked token
//! cannot make itself a successor.

use actix_web::{HttpMessage, HttpRequest, HttpResponse, delete, get, post, web};

use crate::AppState;
use crate::app::tokens::{self, CreatedToken, NewToken, TokenView};
use crate::auth::AuthUser;
use crate::auth::caller::ViaToken;
use crate::error::{ApiError, Problem};
use crate::extract::Json;

fn signed_in(req: &HttpRequest) -> Result<(), ApiError> {
    match req.extensions().get::<ViaToken>() {
        Some(_) => Err(ApiError::Forbidden(
            "Personal access tokens are managed after signing in, not with a token.".to_owned(),
        )),
        None => Ok(()),
    }
}

/// Makes a personal access token for a bot that acts for the caller. The token is in this
/// answer only.
#[utoipa::path(
    tag = "auth",
    operation_id = "create_token",
    security(("bearer" = [])),
    request_body = NewToken,
    responses(
        (status = 201, description = "The token, shown once", body = CreatedToken),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "An integration key or a personal access token", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Too many live tokens", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad name, scope list or lifetime", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/me/tokens")]
pub async fn create_token(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    body: Json<NewToken>,
) -> Result<HttpResponse, ApiError> {
    signed_in(&req)?;
    let created = tokens::create(&state, &user.user_id, body.into_inner()).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Cache-Control", "no-store"))
        .json(created))
}

/// The caller's live tokens (not revoked, not expired), newest first, without the tokens.
#[utoipa::path(
    tag = "auth",
    operation_id = "list_tokens",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The live tokens", body = Vec<TokenView>),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "An integration key or a personal access token", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/me/tokens")]
pub async fn list_tokens(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<Vec<TokenView>>, ApiError> {
    signed_in(&req)?;
    Ok(web::Json(tokens::list(&state, &user.user_id).await?))
}

/// Revokes one of the caller's tokens: it gets 401 from then on. Revoking twice is harmless.
#[utoipa::path(
    tag = "auth",
    operation_id = "revoke_token",
    security(("bearer" = [])),
    params(("token_id" = String, Path, description = "The token id")),
    responses(
        (status = 204, description = "The token is revoked"),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "An integration key or a personal access token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such token of the caller", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/me/tokens/{token_id}")]
pub async fn revoke_token(
    req: HttpRequest,
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    signed_in(&req)?;
    tokens::revoke(&state, &user.user_id, &path.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
