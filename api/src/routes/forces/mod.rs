//! Forces (rosters, API.md › Forces; docs/rules.md §1 and §4), under `/api/v1`: create, read, list,
//! replace, archive, history, ledger, generation, export and import.
//!
//! A roster is validated by [`fad_domain::validation::validate_force`] (every problem in one
//! 422, nothing stored), its points come from [`fad_domain::points`] (docs/rules.md §4.3) and are
//! computed on every read, never stored or accepted. Unit ids are stable: the server assigns
//! them on create and keeps them on every edit.
//!
//! Access: members of the campaign read; the force's owner or the organiser write; integration
//! keys read; outsiders get 404.

pub mod archive;
pub mod create;
pub mod export;
pub mod generate;
pub mod history;
pub mod import;
pub mod ledger;
pub mod list;
pub mod lock;
pub mod read;
pub mod render;
pub mod update;

use std::collections::HashSet;

use actix_web::http::header::{ETag, EntityTag, HeaderMap, IF_MATCH};
use chrono::{DateTime, Utc};
use fad_domain::points::{force_points, platoon_points, round_points, unit_points};
use fad_domain::roster::{Force as Roster, Platoon, Unit};
use fad_domain::validation::validate_force;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::{Caller, CampaignAccess, Need, access_with_membership};
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::extract::deserialize_strict;
use crate::store::{self, forces};

/// Registers this resource's handlers (paths are relative to `/api/v1`). `generate` and
/// `import` come before any `{force_id}`-style route so the literal paths win.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(generate::generate_force)
        .service(import::import_force)
        .service(create::create_force)
        .service(list::list_forces)
        .service(read::get_force)
        .service(update::replace_force)
        .service(archive::archive_force)
        .service(history::list_force_history)
        .service(history::get_force_history_entry)
        .service(ledger::get_force_ledger)
        .service(ledger::add_ledger_entry)
        .service(export::export_force);
}

/// A unit as clients send and receive it (API.md `Unit`). Documentation only: requests are
/// read into [`fad_domain::roster::Unit`], which also accepts the point-value gear fields
/// (`abilities`, `munitions`, `grenades`, `gadgets`, `bots`, `armour_addons`, …).
#[derive(Debug, ToSchema)]
#[expect(dead_code, reason = "schema only")]
pub struct UnitSchema {
    /// Stable id across edits and battles, assigned by the server. Creating, importing or
    /// generating a force gives every unit a fresh id (any id sent is ignored). Replacing a
    /// force (`PUT /forces/{id}`) keeps the ids of that force's own units; omit `id` for a new
    /// unit; an id that is not one of that force's units, or that two units share, is refused
    /// with 422 naming `platoons[i].units[j].id`.
    id: Option<String>,
    /// Name.
    name: String,
    /// `squad`, `command_squad`, `weapons_team`, `vehicle`, `character`, `sniper`, `psionic`,
    /// `off_board_artillery`.
    kind: String,
    /// `untrained`, `conscript`, `regular`, `veteran`, `elite`, `legendary` (docs/rules.md §1).
    quality: String,
    /// Resolve, or `null` when unknown (Unknown Resolve option).
    resolve: Option<String>,
    /// Current figures.
    strength: u32,
    /// Establishment strength (E): replacements never exceed it.
    starting_strength: u32,
    /// Armour type (`light`, `medium`, `heavy`, `powered`, …).
    armour: String,
    /// Basic weapon, if any.
    basic_weapon: Option<String>,
    /// Support weapons.
    support_weapons: Vec<String>,
    /// Heavy weapons (weapons teams, vehicles).
    heavy_weapons: Vec<String>,
    /// Traits (`snake_case` names).
    traits: Vec<String>,
    /// Personalities (characters).
    personalities: Vec<String>,
    /// Leadership (characters and command squads).
    leadership: Option<String>,
    /// Branch of a character.
    branch: Option<String>,
    /// Leader experience.
    leader_experience: Option<String>,
    /// Aptitude (psionics).
    aptitude: Option<String>,
    /// Psionic strength (psionics).
    psionic_strength: Option<u32>,
    /// Vehicle profile (vehicles only): `{mobility, armour: {front, side, rear}, crew,
    /// multi_role_crew, passengers, passenger_fired_weapons}`.
    #[schema(value_type = Option<Object>)]
    vehicle: Option<Value>,
    /// `operational`, `damaged` or `destroyed` (vehicles only).
    vehicle_state: Option<String>,
    /// `active` or `eliminated`.
    status: String,
    /// Output only: the unit's points (docs/rules.md §4.3), computed by the server; ignored on
    /// input.
    points: Option<f64>,
}

/// A platoon in a request.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlatoonRequest {
    /// Name.
    pub name: String,
    /// Units. `points` is ignored; `id` is optional (see the endpoint).
    #[schema(value_type = Vec<UnitSchema>)]
    pub units: Vec<Value>,
    /// Output only (ignored): the platoon's points.
    #[serde(default)]
    pub points: Option<f64>,
}

/// A roster as clients send it: `{name, platoons: [{name, units: [Unit]}]}`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct RosterRequest {
    /// The force's name.
    pub name: String,
    /// Its platoons.
    pub platoons: Vec<PlatoonRequest>,
}

/// How request unit ids are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdMode {
    /// Replacement: ids must be the force's own, each once; missing ids are new units.
    Replace,
    /// Create or import: every id is the server's. A client-chosen id could copy another
    /// force's unit and draw that unit's battle losses onto this one.
    Renew,
}

/// Reads a roster request into the domain roster and validates it: every problem (bad types,
/// unknown enum values with the accepted ones, rule violations) in one 422.
pub fn parse_roster(
    request: RosterRequest,
    mode: IdMode,
    existing: Option<&Roster>,
) -> Result<Roster, ApiError> {
    let mut errors = Vec::new();
    let known: HashSet<&str> = existing
        .map(|r| r.units().map(|u| u.id.as_str()).collect())
        .unwrap_or_default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut platoons = Vec::new();
    for (i, platoon) in request.platoons.into_iter().enumerate() {
        let mut units = Vec::new();
        for (j, raw) in platoon.units.into_iter().enumerate() {
            let path = format!("platoons[{i}].units[{j}]");
            let Value::Object(mut map) = raw else {
                errors.push(FieldError::new(path, "must be an object"));
                continue;
            };
            map.remove("points");
            let given = match map.get("id") {
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(Value::String(_)) => None,
                Some(_) => {
                    errors.push(FieldError::new(format!("{path}.id"), "must be a string"));
                    continue;
                }
            };
            let id = match (mode, given) {
                (IdMode::Renew, _) | (_, None) => store::new_id(),
                (IdMode::Replace, Some(id)) if !known.contains(id.as_str()) => {
                    errors.push(FieldError::new(
                        format!("{path}.id"),
                        "no unit of this force has this id; omit `id` for a new unit",
                    ));
                    continue;
                }
                (IdMode::Replace, Some(id)) if seen.contains(&id) => {
                    errors.push(FieldError::new(
                        format!("{path}.id"),
                        "another unit of this roster has the same id; each unit appears once",
                    ));
                    continue;
                }
                (IdMode::Replace, Some(id)) => id,
            };
            seen.insert(id.clone());
            map.insert("id".to_owned(), Value::String(id));
            match deserialize_strict::<_, Unit>(Value::Object(map)) {
                Ok(unit) => units.push(unit),
                Err(err) => errors.extend(err.into_field_errors(&path)),
            }
        }
        platoons.push(Platoon {
            name: platoon.name,
            units,
        });
    }
    let roster = Roster {
        name: request.name,
        platoons,
    };
    // Rule problems are only meaningful once every unit could be read.
    if errors.is_empty()
        && let Err(problems) = validate_force(&roster)
    {
        errors.extend(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message)),
        );
    }
    if errors.is_empty() {
        Ok(roster)
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// A unit with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UnitResponse {
    /// The unit (API.md `Unit`).
    #[serde(flatten)]
    #[schema(inline, value_type = UnitSchema)]
    pub unit: Unit,
    /// Its points (docs/rules.md §4.3), 2 decimals.
    pub points: f64,
}

/// A platoon with its points.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlatoonResponse {
    /// Name.
    pub name: String,
    /// Its points: the sum of its units', 2 decimals.
    pub points: f64,
    /// Units.
    pub units: Vec<UnitResponse>,
}

/// A roster with points at every level.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RosterResponse {
    /// The force's name.
    pub name: String,
    /// The force's points, 2 decimals.
    pub points: f64,
    /// Platoons.
    pub platoons: Vec<PlatoonResponse>,
}

impl RosterResponse {
    /// The roster with its points.
    pub fn new(roster: Roster) -> Self {
        let points = round_points(force_points(&roster));
        Self {
            name: roster.name,
            points,
            platoons: roster
                .platoons
                .into_iter()
                .map(|p| PlatoonResponse {
                    name: p.name.clone(),
                    points: round_points(platoon_points(&p)),
                    units: p
                        .units
                        .into_iter()
                        .map(|u| UnitResponse {
                            points: round_points(unit_points(&u)),
                            unit: u,
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A force as members see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ForceResponse {
    /// The force id.
    pub id: String,
    /// The campaign.
    pub campaign_id: String,
    /// The owner's user id.
    pub owner_id: String,
    /// The owner's display name (or username); in reads (`GET` of a force and of the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_name: Option<String>,
    /// The force's name.
    pub name: String,
    /// Its points (docs/rules.md §4.3), 2 decimals.
    pub points: f64,
    /// Platoons with their units and points.
    pub platoons: Vec<PlatoonResponse>,
    /// Optimistic-concurrency version (also the `ETag`).
    pub version: i64,
    /// Whether it is archived (read-only).
    pub archived: bool,
    /// When it was archived.
    pub archived_at: Option<DateTime<Utc>>,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

impl ForceResponse {
    /// The response for a stored force.
    pub fn new(force: forces::Force) -> Result<Self, ApiError> {
        let roster = force.roster().map_err(|e| ApiError::Internal(e.into()))?;
        let RosterResponse {
            name,
            points,
            platoons,
        } = RosterResponse::new(roster);
        Ok(Self {
            id: force.id,
            campaign_id: force.campaign_id,
            owner_id: force.owner_id,
            owner_name: None,
            name,
            points,
            platoons,
            version: force.version,
            archived: force.archived_at.is_some(),
            archived_at: force.archived_at.map(|t| t.and_utc()),
            created_at: force.created_at.and_utc(),
            updated_at: force.updated_at.and_utc(),
        })
    }
}

/// The `ETag` of a force version: `"<version>"`.
pub fn etag(version: i64) -> ETag {
    ETag(EntityTag::new_strong(version.to_string()))
}

/// The 404 for a force the caller may not see (or that does not exist).
pub fn force_not_found() -> ApiError {
    ApiError::NotFound("No such force.".to_owned())
}

/// Loads force `force_id` and checks the caller may do `need` with it: read for members and
/// keys; write for its owner or the organiser. Outsiders get 404. Runs one query: the force
/// with the caller's membership of its campaign.
pub fn authorize_force(
    conn: &mut Db,
    caller: &Caller,
    force_id: &str,
    need: Need,
) -> Result<(forces::Force, CampaignAccess), ApiError> {
    let found = match caller {
        Caller::User { user_id } => forces::find_with_membership(conn, force_id, user_id)?,
        Caller::ApiKey { .. } => forces::find_by_id(conn, force_id)?.map(|force| (force, None)),
    };
    let (force, membership) = found.ok_or_else(force_not_found)?;
    let access = access_with_membership(caller, &force.campaign_id, need, membership).map_err(
        |e| match e {
            ApiError::NotFound(_) => force_not_found(),
            other => other,
        },
    )?;
    if need != Need::Read && !access.is_user_or_organiser(&force.owner_id) {
        return Err(ApiError::Forbidden(
            "Only the force's owner or the campaign's organiser may change it.".to_owned(),
        ));
    }
    Ok((force, access))
}

/// [`authorize_force`] for a read that also answers the owner's shown name, in the same one
/// statement.
pub fn authorize_named_force_read(
    conn: &mut Db,
    caller: &Caller,
    force_id: &str,
) -> Result<(forces::Force, String), ApiError> {
    let (force, membership, (username, display_name)) =
        forces::find_named(conn, force_id, caller.user_id().unwrap_or_default())?
            .ok_or_else(force_not_found)?;
    access_with_membership(caller, &force.campaign_id, Need::Read, membership).map_err(
        |e| match e {
            ApiError::NotFound(_) => force_not_found(),
            other => other,
        },
    )?;
    Ok((force, crate::store::users::shown(username, display_name)))
}

/// The version an edit is based on: the body's `version` and/or `If-Match: "<n>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precondition {
    /// `version` from the body.
    pub version: Option<i64>,
    /// The version named by `If-Match`.
    pub if_match: Option<i64>,
}

impl Precondition {
    /// Reads `If-Match` next to the body's `version`. 422 when neither is given; 412 when
    /// `If-Match` names no version of ours.
    pub fn read(headers: &HeaderMap, version: Option<i64>) -> Result<Self, ApiError> {
        let if_match = match headers.get(IF_MATCH) {
            None => None,
            Some(value) => Some(
                value
                    .to_str()
                    .ok()
                    .map(|v| v.trim().trim_start_matches("W/").trim_matches('"'))
                    .and_then(|v| v.parse::<i64>().ok())
                    .ok_or_else(if_match_failed)?,
            ),
        };
        if version.is_none() && if_match.is_none() {
            return Err(ApiError::Validation(vec![FieldError::new(
                "version",
                "send the version the change is based on (or an If-Match header)",
            )]));
        }
        Ok(Self { version, if_match })
    }

    /// The version to update from, after checking it against `current`: 409 for a stale
    /// `version`, 412 for a stale `If-Match`.
    pub fn check(self, current: i64) -> Result<i64, ApiError> {
        if self.version.is_some_and(|v| v != current) {
            return Err(stale(current));
        }
        if self.if_match.is_some_and(|v| v != current) {
            return Err(if_match_failed());
        }
        Ok(current)
    }
}

/// 409 for a force that changed meanwhile.
pub fn stale(current: i64) -> ApiError {
    ApiError::Conflict(format!("The force changed: its version is now {current}."))
}

fn if_match_failed() -> ApiError {
    ApiError::PreconditionFailed("If-Match does not match the force's current version.".to_owned())
}

/// 409 for a write to an archived force.
pub fn archived() -> ApiError {
    ApiError::Conflict("The force is archived; it can no longer change.".to_owned())
}
