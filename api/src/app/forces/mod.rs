//! Forces (rosters, docs/rules.md §1 and §4): create, read, list, replace, archive.
//!
//! Access: members of the campaign read; the force's owner or the organiser write; integration
//! keys read; outsiders get 404 ([`crate::app::authorization::authorize_force`]).

pub mod generate;
pub mod history;
pub mod markers;
pub mod response;
pub mod roster;
pub mod ruled;

use fad_domain::dice::RollLog;
use fad_domain::roster::Force as Roster;
use fad_domain::roster_lock;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{
    CampaignAccess, Need, authorize_force, authorize_named_force_read, campaign_access, person,
};
use crate::auth::Caller;
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::paging::Page;
use crate::store::events::{self, Event, EventType};
use crate::store::{self, aftermath, campaigns, forces, history::HistoryCause};

use roster::{IdMode, RosterRequest, parse_roster};

/// A stored force with its owner's shown name (display name, else username), as reads answer it.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedForce {
    /// The stored force.
    pub force: forces::Force,
    /// Its owner's display name, or else username.
    pub owner_name: String,
}

/// A force's new roster, replacing the old one whole.
#[derive(Debug, Clone)]
pub struct ForceEdit {
    /// The version the change is based on (a form's hidden field, a request's `version`).
    pub version: Option<i64>,
    /// The text of an `If-Match` header, if one came.
    pub if_match: Option<String>,
    /// The new roster; units keep their ids, new units come without one.
    pub roster: RosterRequest,
    /// Why (up to 500 characters); the organiser must give one to raise a roster locked
    /// after play.
    pub reason: Option<String>,
}

/// The longest reason an edit may carry.
const REASON_MAX_CHARS: usize = 500;

fn checked_reason(reason: Option<String>) -> Result<Option<String>, ApiError> {
    let reason = reason
        .map(|r| r.trim().to_owned())
        .filter(|r| !r.is_empty());
    if reason
        .as_ref()
        .is_some_and(|r| r.chars().count() > REASON_MAX_CHARS)
    {
        return Err(ApiError::validation(
            "reason",
            format!("at most {REASON_MAX_CHARS} characters"),
        ));
    }
    Ok(reason)
}

/// What an edit is recorded as: a plain edit, or the organiser's correction of a roster locked
/// after play (a raise by anyone else is refused with 422 naming each raise).
fn edit_cause(
    conn: &mut Db,
    force: &forces::Force,
    access: &CampaignAccess,
    raised: Vec<FieldError>,
    reason: Option<String>,
    actor: &str,
) -> Result<HistoryCause, ApiError> {
    let edit = |reason| Ok(HistoryCause::new("edit", Some(actor)).with_reason(reason));
    if raised.is_empty() {
        return edit(reason);
    }
    let settings = campaigns::find_by_id(conn, &force.campaign_id)?
        .map(|c| c.settings())
        .transpose()
        .map_err(|e| ApiError::Internal(e.into()))?
        .unwrap_or_default();
    if !settings.lock_rosters_after_play || !aftermath::has_fought(conn, &force.id)? {
        return edit(reason);
    }
    if !access.is_organiser() {
        return Err(ApiError::Validation(raised));
    }
    match reason {
        Some(reason) => Ok(HistoryCause::new("correction", Some(actor)).with_reason(Some(reason))),
        None => Err(ApiError::validation(
            "reason",
            "this edit raises a roster locked after play: as the organiser, give a reason; it is recorded as a correction in the force's history",
        )),
    }
}

/// The ruleset the campaign `campaign_id` plays (the caller's access is already checked).
pub fn campaign_ruleset(
    conn: &mut Db,
    campaign_id: &str,
) -> Result<std::sync::Arc<fad_domain::rulesets::Ruleset>, ApiError> {
    let settings = campaigns::find_by_id(conn, campaign_id)?
        .map(|c| c.settings())
        .transpose()
        .map_err(|e| ApiError::Internal(e.into()))?
        .unwrap_or_default();
    crate::app::rulesets::load(conn, &settings.ruleset)
}

/// Stores a validated roster as a new force of `campaign_id` owned by the caller, in one
/// transaction with its first history entry (`cause`, with the `rolls` that made it).
pub async fn store_new_force(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    roster: Roster,
    cause: HistoryCause,
    rolls: RollLog,
) -> Result<forces::Force, ApiError> {
    let owner_id = person(caller)?.to_owned();
    let now = store::now();
    let force = forces::Force {
        id: store::new_id(),
        campaign_id: campaign_id.to_owned(),
        owner_id,
        name: roster.name.clone(),
        roster: store::forces::roster_text(&roster)?,
        version: 1,
        archived_at: None,
        created_at: now,
        updated_at: now,
    };
    let (caller, stored) = (caller.clone(), force.clone());
    let quotas = state.config.quotas;
    state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &stored.campaign_id, Need::Write)?;
            roster::check_family(&roster, &*campaign_ruleset(conn, &stored.campaign_id)?)?;
            quotas.check_forces(conn, &stored.campaign_id)?;
            forces::insert(conn, &stored, &roster, &cause, &rolls)?;
            events::append(conn, &Event::force_created(&stored.campaign_id, &stored.id))
        })
        .await?;
    tracing::info!(force.id = %force.id, "Created force {}", force.id);
    Ok(force)
}

/// What a roster of `campaign_id` may hold under its ruleset (read before the roster, which is
/// checked before anything is written).
async fn campaign_limits(
    state: &AppState,
    campaign_id: &str,
) -> Result<fad_domain::validation::RulesetLimits, ApiError> {
    let id = campaign_id.to_owned();
    state
        .db
        .read(move |conn| Ok(ruled::ForceRules::of_campaign(conn, &id)?.limits()))
        .await
}

/// Creates a force from a roster a player wrote (every unit gets a fresh id).
pub async fn create_force(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    roster: RosterRequest,
) -> Result<forces::Force, ApiError> {
    let actor = person(caller)?.to_owned();
    let limits = campaign_limits(state, campaign_id).await?;
    let roster = parse_roster(roster, IdMode::Renew, None, &limits)?;
    let cause = HistoryCause::new("create", Some(&actor));
    store_new_force(state, caller, campaign_id, roster, cause, Vec::new()).await
}

/// The export format's name.
pub const EXPORT_FORMAT: &str = "fad-force";
/// The export format's version.
pub const EXPORT_FORMAT_VERSION: u32 = 1;

/// A force exported from this or another campaign, to import as a new force.
#[derive(Debug, Clone)]
pub struct ForceImport {
    /// The format's name, [`EXPORT_FORMAT`], if given.
    pub format: Option<String>,
    /// The format's version, [`EXPORT_FORMAT_VERSION`], if given.
    pub format_version: Option<u32>,
    /// The roster (every unit gets a fresh id).
    pub roster: RosterRequest,
}

/// Imports an exported force as a new force of the caller.
pub async fn import_force(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    import: ForceImport,
) -> Result<forces::Force, ApiError> {
    let actor = person(caller)?.to_owned();
    let ForceImport {
        format,
        format_version,
        roster,
    } = import;
    if format.as_deref().is_some_and(|f| f != EXPORT_FORMAT) {
        return Err(ApiError::validation(
            "format",
            format!("must be `{EXPORT_FORMAT}`"),
        ));
    }
    if format_version.is_some_and(|v| v != EXPORT_FORMAT_VERSION) {
        return Err(ApiError::validation(
            "format_version",
            format!("must be {EXPORT_FORMAT_VERSION}"),
        ));
    }
    let limits = campaign_limits(state, campaign_id).await?;
    let roster = parse_roster(roster, IdMode::Renew, None, &limits)?;
    let cause = HistoryCause::new("import", Some(&actor));
    store_new_force(state, caller, campaign_id, roster, cause, Vec::new()).await
}

/// Reads a force (members and the campaign's integration keys).
pub async fn read_force(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
) -> Result<forces::Force, ApiError> {
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    let (force, _) = state
        .db
        .run(move |conn| authorize_force(conn, &caller, &force_id, Need::Read))
        .await?;
    Ok(force)
}

/// Reads a force with its owner's shown name and the rules its campaign reads it under
/// (members and the campaign's integration keys): one statement, so no transaction, under a
/// built-in ruleset (a house ruleset's version is read too; a stored version never changes).
pub async fn read_named_force(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
) -> Result<(NamedForce, ruled::ForceRules), ApiError> {
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    state
        .db
        .run(move |conn| {
            let (force, owner_name, settings) =
                authorize_named_force_read(conn, &caller, &force_id)?;
            let rules = ruled::ForceRules::of_settings(conn, &settings)?;
            Ok((NamedForce { force, owner_name }, rules))
        })
        .await
}

/// Lists a campaign's forces with their owners' shown names, oldest first, a page at a time;
/// archived ones only when asked.
pub async fn list_forces(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    include_archived: bool,
    page: Page,
) -> Result<Listed<NamedForce>, ApiError> {
    let page = page.keyset("forces", campaign_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let rows = state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            Ok(forces::list_for_campaign(
                conn,
                &campaign_id,
                include_archived,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(f, _)| (f.created_at, f.id.clone()))?;
    let items = rows
        .into_iter()
        .map(|(force, (username, display_name))| NamedForce {
            force,
            owner_name: store::users::shown(username, display_name),
        })
        .collect();
    Ok(Listed { items, next })
}

/// Archives a force (its owner before its first battle, the organiser any time): it becomes
/// read-only and leaves the standings and the campaign's lists.
pub async fn archive_force(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    version: Option<i64>,
    if_match: Option<String>,
) -> Result<forces::Force, ApiError> {
    let actor = person(caller)?.to_owned();
    let precondition = Precondition::new(version, if_match.as_deref(), "force")?;
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    let now = store::now();
    let updated = state
        .db
        .transaction(move |conn| {
            let (current, access) = authorize_force(conn, &caller, &force_id, Need::Write)?;
            let expected = precondition.check(current.version)?;
            if current.archived_at.is_some() {
                return Err(archived());
            }
            // A force made by mistake goes quietly; one that fought is part of the campaign's
            // story, so only the organiser takes it out.
            if !access.is_organiser() && aftermath::has_fought(conn, &force_id)? {
                return Err(ApiError::Conflict(
                    "This force has fought a battle, so only the campaign's organiser may archive it."
                        .to_owned(),
                ));
            }
            let cause = HistoryCause::new("archive", Some(&actor));
            forces::archive_if_version(conn, &force_id, expected, &cause, now)?
                .ok_or_else(|| stale(expected + 1))
        })
        .await?;
    tracing::info!(force.id = %updated.id, "Archived force {}", updated.id);
    Ok(updated)
}

/// Replaces a force's roster (its owner or the organiser), guarded by its version. Once the
/// force has fought in a campaign that locks rosters after play, a raise needs the organiser
/// with a reason (docs/rules.md C26).
pub async fn replace_force(
    state: &AppState,
    caller: &Caller,
    force_id: &str,
    edit: ForceEdit,
) -> Result<forces::Force, ApiError> {
    let actor = person(caller)?.to_owned();
    let ForceEdit {
        version,
        if_match,
        roster: request,
        reason,
    } = edit;
    let reason = checked_reason(reason)?;
    let precondition = Precondition::new(version, if_match.as_deref(), "force")?;
    let (caller, force_id) = (caller.clone(), force_id.to_owned());
    let now = store::now();
    let updated = state
        .db
        .transaction(move |conn| {
            let (current, access) = authorize_force(conn, &caller, &force_id, Need::Write)?;
            let expected = precondition.check(current.version)?;
            if current.archived_at.is_some() {
                return Err(archived());
            }
            let before = current.roster().map_err(|e| ApiError::Internal(e.into()))?;
            let rules = ruled::ForceRules::of_campaign(conn, &current.campaign_id)?;
            let roster = parse_roster(request, IdMode::Replace, Some(&before), &rules.limits())?;
            roster::check_family(&roster, &rules.ruleset)?;
            let raised = roster_lock::raises(&before, &roster)
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect();
            let cause = edit_cause(conn, &current, &access, raised, reason, &actor)?;
            let updated = forces::replace_roster_if_version(
                conn,
                &force_id,
                expected,
                &roster,
                &cause,
                &Vec::new(),
                now,
            )?
            .ok_or_else(|| stale(expected + 1))?;
            let mut event = Event::force(
                EventType::ForceRosterChanged,
                &updated.campaign_id,
                &updated.id,
            );
            event.data.version = Some(updated.version);
            events::append(conn, &event)?;
            Ok(updated)
        })
        .await?;
    tracing::info!(force.id = %updated.id, "Replaced force {}", updated.id);
    Ok(updated)
}

pub use crate::precondition::Precondition;

/// 409 for a force that changed meanwhile.
pub fn stale(current: i64) -> ApiError {
    crate::precondition::stale("force", current)
}

/// 409 for a write to an archived force.
pub fn archived() -> ApiError {
    ApiError::Conflict("The force is archived; it can no longer change.".to_owned())
}
