//! Who may do what, for the use cases: the campaign policy ([`campaign_access`]) plus the
//! checks shared by several areas.

pub use crate::auth::policy::{CampaignAccess, Need, campaign_access, campaign_not_found};

use crate::auth::Caller;
use crate::auth::caller::key_refused;
use crate::auth::policy::access_with_membership;
use crate::db::Db;
use crate::error::ApiError;
use crate::store::forces;

/// The user id of a caller that must be a person: integration keys are read-only (403).
pub fn person(caller: &Caller) -> Result<&str, ApiError> {
    caller.user_id().ok_or_else(key_refused)
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

/// [`authorize_force`] for a read that also answers the owner's shown name (display name, else
/// username) and the campaign's settings (JSON), in the same one statement.
pub fn authorize_named_force_read(
    conn: &mut Db,
    caller: &Caller,
    force_id: &str,
) -> Result<(forces::Force, String, String), ApiError> {
    let (force, membership, (username, display_name), settings) =
        forces::find_named(conn, force_id, caller.user_id().unwrap_or_default())?
            .ok_or_else(force_not_found)?;
    access_with_membership(caller, &force.campaign_id, Need::Read, membership).map_err(
        |e| match e {
            ApiError::NotFound(_) => force_not_found(),
            other => other,
        },
    )?;
    Ok((
        force,
        crate::store::users::shown(username, display_name),
        settings,
    ))
}
