//! Solo play of a one-shot scenario's non-player side (docs/rules.md `solo`), for its creator:
//! the same requests as a battle's ([`crate::routes::battles::solo`]) under
//! `/api/v1/scenarios/{scenario_id}`. See [`crate::app::battles::solo`].

use actix_web::{HttpRequest, HttpResponse, get, post, put, web};

use crate::AppState;
use crate::app::battles::solo::{
    self as app, CasualtiesRequest, CasualtyResponse, GroupsRequest, SoloResponse, Target,
    TurnRequest, TurnResponse,
};
use crate::auth::{AuthUser, Caller};
use crate::error::{ApiError, Problem};
use crate::routes::battles::solo::handle;

/// Reads a one-shot scenario's solo play: the non-player force's units, the groups, the turn log and the
/// solo rolls. Its creator only.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "get_scenario_solo",
    security(("bearer" = [])),
    params(("scenario_id" = String, Path, description = "The one-shot scenario id")),
    responses(
        (status = 200, description = "The non-player side's groups, their state and the turn log", body = SoloResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, or the caller did not create it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The scenario has no non-player side", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios/{scenario_id}/solo")]
pub async fn get_scenario_solo(
    caller: Caller,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<SoloResponse>, ApiError> {
    let target = Target::Scenario(path.into_inner());
    Ok(web::Json(app::read_solo(&state, caller, target).await?))
}

/// Sets the non-player side's groups (before the first turn): each at most a platoon, with an
/// Approach, an optional objective and rallying point, and a Discipline (default: the worst
/// Quality target of its units). Its creator only. Honours
/// `Idempotency-Key`.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "put_scenario_solo_groups",
    security(("bearer" = [])),
    params(
        ("scenario_id" = String, Path, description = "The one-shot scenario id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = GroupsRequest,
    responses(
        (status = 200, description = "The solo play with the new groups", body = SoloResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, or the caller did not create it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side, a turn has been played, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A group over a platoon, a unit in two groups or not in the force, an empty group, a blank or repeated name, a Discipline outside 2–5, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/scenarios/{scenario_id}/solo/groups")]
pub async fn put_scenario_groups(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    handle::groups(
        &state,
        &user,
        Target::Scenario(path.into_inner()),
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
    tag = "scenarios",
    operation_id = "post_scenario_solo_turn",
    security(("bearer" = [])),
    params(
        ("scenario_id" = String, Path, description = "The one-shot scenario id"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = TurnRequest,
    responses(
        (status = 200, description = "What each group does this turn, with the rolls", body = TurnResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario, or the caller did not create it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side, no groups yet, or a stale version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Dice for no group, not three dice of 1–6, an arrived group that is not falling back, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/scenarios/{scenario_id}/solo/turns")]
pub async fn post_scenario_turn(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    handle::turn(
        &state,
        &user,
        Target::Scenario(path.into_inner()),
        &req,
        &body,
    )
    .await
}

/// Adds figures to a group's casualties; once half the group are casualties its Discipline
/// worsens one step (never past 5+). Honours `Idempotency-Key`.
#[utoipa::path(
    tag = "scenarios",
    operation_id = "post_scenario_solo_casualties",
    security(("bearer" = [])),
    params(
        ("scenario_id" = String, Path, description = "The one-shot scenario id"),
        ("name" = String, Path, description = "The group's name"),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 200, pattern = "^[ -~]*[!-~][ -~]*$", description = "Replays the first response for the same key and body (1 to 200 visible ASCII characters)"),
    ),
    request_body = CasualtiesRequest,
    responses(
        (status = 200, description = "The group with its running casualties", body = CasualtyResponse),
        (status = 401, description = "No or invalid credentials", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Integration key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such scenario or group", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No non-player side", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No figures, more than the group has left, or a reused Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = "4XX", description = "Malformed request", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/scenarios/{scenario_id}/solo/groups/{name}/casualties")]
pub async fn post_scenario_casualties(
    user: AuthUser,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (scenario_id, name) = path.into_inner();
    handle::casualties(
        &state,
        &user,
        Target::Scenario(scenario_id),
        name,
        &req,
        &body,
    )
    .await
}
