//! Solo play of a battle's non-player side (docs/rules.md `solo`): `PUT .../solo/groups`,
//! `POST .../solo/turns`, `POST .../solo/groups/{name}/casualties` and `GET .../solo`, under
//! `/api/v1/battles/{battle_id}`. See [`crate::app::battles::solo`]; the same paths for a
//! one-shot scenario are in [`crate::routes::scenarios::solo`], which uses [`handle`] too.

use actix_web::{HttpRequest, HttpResponse, get, post, put, web};

use crate::AppState;
use crate::app::battles::solo::{
    self as app, CasualtiesRequest, CasualtyResponse, GroupsRequest, SoloResponse, Target,
    TurnRequest, TurnResponse,
};
use crate::app::idempotency::Write;
use crate::auth::{AuthUser, Caller};
use crate::error::{ApiError, Problem};

use super::{idempotency_key, parse_body, render};

/// One write: parse the body, honour `Idempotency-Key`, call the use case, render.
pub mod handle {
    use super::*;

    /// `PUT .../solo/groups`.
    pub async fn groups(
        state: &AppState,
        user: &AuthUser,
        target: Target,
        req: &HttpRequest,
        body: &[u8],
    ) -> Result<HttpResponse, ApiError> {
        let key = idempotency_key(req)?;
        let request: GroupsRequest = crate::extract::parse_json(body)?;
        let write = Write::new(&user.user_id, format!("PUT {}", req.path()), key, body);
        render(&app::set_groups(state, user, target, request, write).await?)
    }

    /// `POST .../solo/turns`.
    pub async fn turn(
        state: &AppState,
        user: &AuthUser,
        target: Target,
        req: &HttpRequest,
        body: &[u8],
    ) -> Result<HttpResponse, ApiError> {
        let key = idempotency_key(req)?;
        let request: TurnRequest = parse_body(body)?;
        let write = Write::new(&user.user_id, format!("POST {}", req.path()), key, body);
        render(&app::play_turn(state, user, target, request, write).await?)
    }

    /// `POST .../solo/groups/{name}/casualties`.
    pub async fn casualties(
        state: &AppState,
        user: &AuthUser,
        target: Target,
        name: String,
        req: &HttpRequest,
        body: &[u8],
    ) -> Result<HttpResponse, ApiError> {
        let key = idempotency_key(req)?;
        let request: CasualtiesRequest = crate::extract::parse_json(body)?;
        let write = Write::new(&user.user_id, format!("POST {}", req.path()), key, body);
        render(&app::add_casualties(state, user, target, name, request, write).await?)
    }
}

/// Reads a battle's solo play: the non-player force's units, the groups, the turn log and the
/// solo rolls. Members and the campaign's integration keys may read it.
#[utoipa::path(
    tag = "battles",
    operation_id = "get_battle_solo",
    security(("bearer" = []), ("api_key" = [])),
    params(("battle_id" = String, Path, description = "The battle id")),
    responses(
        (status = 200, description = "The non-player side's groups, their state and the turn log", body = SoloResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The battle has no non-player side", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/battles/{battle_id}/solo")]
pub async fn get_solo(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<SoloResponse>, ApiError> {
    let target = Target::Battle(path.into_inner());
    Ok(web::Json(app::read_solo(&state, caller, target).await?))
}

/// Sets the non-player side's groups (before the first turn): each at most a platoon, with an
/// Approach, an optional objective and rallying point, and a Discipline (default: the worst
/// Quality target of its units). The battle's players and the organiser. Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "put_battle_solo_groups",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = GroupsRequest,
    responses(
        (status = 200, description = "The solo play with the new groups", body = SoloResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller neither plays the battle nor organises the campaign", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side, the scenario is not set up, the battle has a result, a turn has been played, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A group over a platoon, a unit in two groups or not in the force, an empty group, a blank or repeated name, a Discipline outside 2–5, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/battles/{battle_id}/solo/groups")]
pub async fn put_groups(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    handle::groups(
        &state,
        &user,
        Target::Battle(path.into_inner()),
        &req,
        &body,
    )
    .await
}

/// Starts the next turn: every group that tests takes its Discipline Test on 3d6 (entered
/// under `dice.discipline.<group name>`, or rolled by the service) and the answer says what
/// each group does. Groups named in `arrived` have reached their defensible position and test
/// again. Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "post_battle_solo_turn",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = TurnRequest,
    responses(
        (status = 200, description = "What each group does this turn, with the rolls", body = TurnResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller neither plays the battle nor organises the campaign", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle, or the caller may not read it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side, the scenario is not set up, the battle has a result, no groups yet, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Dice for no group, not three dice of 1–6, an arrived group that is not falling back, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/solo/turns")]
pub async fn post_turn(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    handle::turn(
        &state,
        &user,
        Target::Battle(path.into_inner()),
        &req,
        &body,
    )
    .await
}

/// Adds figures to a group's casualties; once half the group are casualties its Discipline
/// worsens one step (never past 5+). Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "battles",
    operation_id = "post_battle_solo_casualties",
    security(("bearer" = [])),
    params(
        ("battle_id" = String, Path, description = "The battle id"),
        ("name" = String, Path, description = "The group's name"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = CasualtiesRequest,
    responses(
        (status = 200, description = "The group with its running casualties", body = CasualtyResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key, or the caller neither plays the battle nor organises the campaign", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such battle or group", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side, the scenario is not set up, or the battle has a result", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No figures, more than the group has left, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/battles/{battle_id}/solo/groups/{name}/casualties")]
pub async fn post_casualties(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, name) = path.into_inner();
    handle::casualties(&state, &user, Target::Battle(battle_id), name, &req, &body).await
}
