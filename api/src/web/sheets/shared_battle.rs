//! `GET /sheets/shared/{token}`: a battle side's printable sheet through its share link (no
//! credentials), showing what that side may see now.

use actix_web::{HttpResponse, get, web};

use super::battle_sheet as sheet;
use crate::AppState;
use crate::app::sharing;
use crate::error::{ApiError, Problem};

use super::html;

/// A battle side's printable sheet through its share link.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_shared_battle_sheet",
    params(("token" = String, Path, description = "The token at the end of the share link")),
    responses(
        (status = 200, description = "The printable sheet, as that side sees it now", body = String, content_type = "text/html"),
        (status = 404, description = "No live share link with this token", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/sheets/shared/{token}")]
pub async fn get_shared_battle_sheet(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let seen = sharing::open_shared_battle_sheet(&state, &path.into_inner()).await?;
    Ok(html(sheet::render(&seen)))
}
