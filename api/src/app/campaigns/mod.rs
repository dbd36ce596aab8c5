//! Campaigns: create, read, list and update one, plus (in the submodules) its settings,
//! members, invitations, integration keys and standings.

pub mod api_keys;
pub mod invites;
pub mod members;
pub mod settings;
pub mod standings;

use fad_domain::house_rules::HouseRules;

use crate::AppState;
use crate::app::Listed;
use crate::app::authorization::{Need, campaign_access, campaign_not_found, person};
use crate::app::rulesets::{self, Choice};
use crate::auth::Caller;
use crate::error::{ApiError, FieldError};
use crate::paging::Page;
use crate::store::campaigns::{self, Campaign, CampaignSettings};
use crate::store::memberships::{self, Membership, Role};
use crate::store::{self};

/// A campaign as one member sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignView {
    /// The stored campaign.
    pub campaign: Campaign,
    /// Its settings, read from the stored document.
    pub settings: CampaignSettings,
    /// The caller's role in it; `None` for an integration key.
    pub role: Option<Role>,
}

impl CampaignView {
    /// The view of `campaign` for a member with `role` (`None`: an integration key).
    pub fn new(campaign: Campaign, role: Option<Role>) -> Result<Self, ApiError> {
        let settings = campaign
            .settings()
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok(Self {
            campaign,
            settings,
            role,
        })
    }
}

/// A new campaign, as a form or a request fills it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewCampaign {
    /// 1–100 characters after trimming.
    pub name: String,
    /// Up to 2000 characters; blank means none.
    pub description: Option<String>,
    /// House rules; `None` takes the settled readings.
    pub house_rules: Option<HouseRules>,
    /// Whether results wait for confirmation (default true).
    pub results_need_confirmation: Option<bool>,
    /// Whether rosters lock after a force's first battle (default true).
    pub lock_rosters_after_play: Option<bool>,
    /// The ruleset; `None` is FAD 5e at its newest version.
    pub ruleset: Option<Choice>,
}

/// Changes to a campaign's name or description; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CampaignChanges {
    /// The version the change is based on (a form's hidden field, a request's `version`).
    pub version: Option<i64>,
    /// The text of an `If-Match` header, if one came (see [`Precondition::new`]).
    pub if_match: Option<String>,
    /// A new name.
    pub name: Option<String>,
    /// A new description; `Some("")` removes it.
    pub description: Option<String>,
    /// Another ruleset: only while the campaign has no battles, and another family only while
    /// it has no forces.
    pub ruleset: Option<Choice>,
}

pub use crate::precondition::Precondition;

/// The 409 of a versioned write that lost a race after its check.
fn changed_meanwhile() -> ApiError {
    ApiError::Conflict("The campaign changed meanwhile.".to_owned())
}

/// Checks a campaign name: 1–100 characters after trimming. Returns the trimmed name.
pub fn validate_name(name: &str) -> Result<String, String> {
    let trimmed = name.trim();
    match trimmed.chars().count() {
        0 => Err("must not be empty".to_owned()),
        1..=100 => Ok(trimmed.to_owned()),
        _ => Err("must have at most 100 characters".to_owned()),
    }
}

/// Checks a description: at most 2000 characters; blank becomes `None`.
pub fn validate_description(description: Option<String>) -> Result<Option<String>, String> {
    match description
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty())
    {
        Some(d) if d.chars().count() > 2000 => Err("must have at most 2000 characters".to_owned()),
        other => Ok(other),
    }
}

/// Creates a campaign; the caller becomes its organiser.
pub async fn create_campaign(
    state: &AppState,
    caller: &Caller,
    input: NewCampaign,
) -> Result<CampaignView, ApiError> {
    let user_id = person(caller)?.to_owned();
    let NewCampaign {
        name,
        description,
        house_rules,
        results_need_confirmation,
        lock_rosters_after_play,
        ruleset,
    } = input;
    let mut errors = Vec::new();
    let name = validate_name(&name)
        .map_err(|m| errors.push(FieldError::new("name", m)))
        .ok();
    let description = validate_description(description)
        .map_err(|m| errors.push(FieldError::new("description", m)))
        .ok();
    let (Some(name), Some(description)) = (name, description) else {
        return Err(ApiError::Validation(errors));
    };
    let choice = ruleset.unwrap_or_else(|| Choice {
        id: fad_domain::rulesets::RulesetPin::default().id,
        version: None,
    });
    let now = store::now();
    let quotas = state.config.quotas;
    let (campaign, settings) = state
        .db
        .transaction(move |conn| {
            // A house ruleset brings its own house-rule defaults.
            let ruleset =
                rulesets::resolve(conn, Some(&user_id), &choice.id, choice.version, "ruleset")?;
            let defaults = CampaignSettings::default();
            let settings = CampaignSettings {
                house_rules: house_rules.unwrap_or_else(|| rulesets::default_options(&ruleset)),
                results_need_confirmation: results_need_confirmation
                    .unwrap_or(defaults.results_need_confirmation),
                lock_rosters_after_play: lock_rosters_after_play
                    .unwrap_or(defaults.lock_rosters_after_play),
                ruleset: ruleset.pin(),
                public_standings: defaults.public_standings,
            };
            let campaign = Campaign {
                id: store::new_id(),
                name,
                description,
                settings: serde_json::to_string(&settings)
                    .map_err(|e| ApiError::Internal(e.into()))?,
                version: 1,
                created_by: user_id.clone(),
                created_at: now,
                updated_at: now,
                settings_version: 1,
            };
            quotas.check_campaigns(conn, &user_id)?;
            campaigns::insert(conn, &campaign)?;
            let organiser = Membership::new(&campaign.id, &user_id, Role::Organiser, now);
            memberships::insert(conn, &organiser)?;
            Ok((campaign, settings))
        })
        .await?;
    tracing::info!(campaign.id = %campaign.id, "Created campaign {}", campaign.id);
    Ok(CampaignView {
        campaign,
        settings,
        role: Some(Role::Organiser),
    })
}

/// Reads a campaign: members, and the campaign's integration keys (which have no role);
/// outsiders get 404, as if it did not exist.
pub async fn read_campaign(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<CampaignView, ApiError> {
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let (campaign, role) = state
        .db
        .run(move |conn| {
            let access = campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let campaign =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            Ok((campaign, access.role))
        })
        .await?;
    CampaignView::new(campaign, role)
}

/// Lists the campaigns the caller belongs to, newest first, a page at a time.
pub async fn list_campaigns(
    state: &AppState,
    caller: &Caller,
    page: Page,
) -> Result<Listed<CampaignView>, ApiError> {
    let user_id = person(caller)?.to_owned();
    let page = page.keyset("campaigns", &user_id)?;
    let (after, fetch) = (page.after.clone(), page.fetch());
    let rows = state
        .db
        .run(move |conn| {
            Ok(campaigns::list_for_user(
                conn,
                &user_id,
                after.as_ref(),
                fetch,
            )?)
        })
        .await?;
    let (rows, next) = page.finish(rows, |(c, _)| (c.created_at, c.id.clone()))?;
    let items = rows
        .into_iter()
        .map(|(campaign, role)| CampaignView::new(campaign, Some(Role::from_stored(&role))))
        .collect::<Result<_, _>>()?;
    Ok(Listed { items, next })
}

/// Renames a campaign or changes its description (organiser). A stale `version` gets 409 and
/// a stale `If-Match` 412; neither changes anything.
pub async fn update_campaign(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
    changes: CampaignChanges,
) -> Result<CampaignView, ApiError> {
    person(caller)?;
    let CampaignChanges {
        version,
        if_match,
        name,
        description,
        ruleset,
    } = changes;
    let mut errors = Vec::new();
    let name = match name.map(|n| validate_name(&n)) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(m)) => {
            errors.push(FieldError::new("name", m));
            None
        }
    };
    let description = match description.map(|d| validate_description(Some(d))) {
        None => None,
        Some(Ok(d)) => Some(d),
        Some(Err(m)) => {
            errors.push(FieldError::new("description", m));
            None
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let precondition = Precondition::new(version, if_match.as_deref(), "campaign")?;
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    let now = store::now();
    let updated = state
        .db
        .transaction(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Organiser)?;
            let current =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            precondition.check(current.version)?;
            let only_ruleset = ruleset.is_some() && name.is_none() && description.is_none();
            if let Some(choice) = ruleset {
                change_ruleset(conn, &caller, &current, &choice, now)?;
            }
            let current =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            if only_ruleset {
                return Ok(current);
            }
            let name = name.unwrap_or_else(|| current.name.clone());
            let description = description.unwrap_or_else(|| current.description.clone());
            campaigns::update_details_if_version(
                conn,
                &campaign_id,
                current.version,
                &name,
                description.as_deref(),
                now,
            )?
            .ok_or_else(changed_meanwhile)
        })
        .await?;
    tracing::info!(campaign.id = %updated.id, "Updated campaign {}", updated.id);
    CampaignView::new(updated, Some(Role::Organiser))
}

/// 409 when a force of the campaign does not hold under `ruleset` (another ruleset of the same
/// family can limit what a roster holds: personalities, squad leaders, vehicle Resolve), naming
/// each such force and its first problem, so nothing is pinned under forces it refuses.
fn refuse_rosters_that_break(
    conn: &mut crate::db::Db,
    campaign_id: &str,
    ruleset: &fad_domain::rulesets::Ruleset,
) -> Result<(), ApiError> {
    if ruleset.family != fad_domain::rulesets::Family::Fad {
        // The other families check a roster by their own unit model, whatever the ruleset.
        return Ok(());
    }
    let limits = ruleset.limits();
    let forces = store::forces::list_for_campaign(conn, campaign_id, false, None, i64::MAX)?;
    let broken: Vec<String> = forces
        .iter()
        .filter_map(|(force, _)| {
            let roster = force.roster().ok()?;
            let problems = fad_domain::validation::validate_force_under(&roster, &limits).err()?;
            let first = problems.first()?;
            let unit = unit_named_by(&roster, &first.field)
                .map_or_else(String::new, |name| format!("{name}: "));
            Some(format!("{} ({unit}{})", force.name, first.message))
        })
        .collect();
    if broken.is_empty() {
        return Ok(());
    }
    Err(ApiError::Conflict(format!(
        "These forces do not hold under {}: {}. Change their rosters first, then the ruleset.",
        ruleset.name,
        broken.join("; ")
    )))
}

/// The name of the unit a problem's field (`platoons[0].units[2].personality`) is about.
fn unit_named_by<'a>(roster: &'a fad_domain::roster::Force, field: &str) -> Option<&'a str> {
    let index = |after: &str| -> Option<usize> {
        let rest = field.split(after).nth(1)?;
        rest.split(']').next()?.parse().ok()
    };
    let platoon = roster.platoons.get(index("platoons[")?)?;
    Some(platoon.units.get(index("units[")?)?.name.as_str())
}

/// Pins the campaign to another ruleset, inside the caller's transaction: 422 for a ruleset
/// the caller may not use, 409 once the campaign has a battle (the rules it was played under
/// stay), or a force when the family changes (a roster is written in its family's terms).
/// The same pin again changes nothing.
fn change_ruleset(
    conn: &mut crate::db::Db,
    caller: &Caller,
    current: &Campaign,
    choice: &Choice,
    now: chrono::NaiveDateTime,
) -> Result<(), ApiError> {
    let ruleset = rulesets::resolve(
        conn,
        caller.user_id(),
        &choice.id,
        choice.version,
        "ruleset",
    )?;
    let mut settings = current
        .settings()
        .map_err(|e| ApiError::Internal(e.into()))?;
    let pin = ruleset.pin();
    if pin == settings.ruleset {
        return Ok(());
    }
    let battles = campaigns::battle_count(conn, &current.id)?;
    if battles > 0 {
        return Err(ApiError::Conflict(format!(
            "The campaign has {battles} battle(s), played under {}; its ruleset changes only \
             before the first battle.",
            settings.ruleset.id
        )));
    }
    let pinned = rulesets::load(conn, &settings.ruleset)?;
    if pinned.family != ruleset.family && store::quotas::forces_in_campaign(conn, &current.id)? > 0
    {
        return Err(ApiError::Conflict(format!(
            "The campaign's forces are written for {}; a ruleset of another family is chosen \
             only before the first force.",
            pinned.name
        )));
    }
    refuse_rosters_that_break(conn, &current.id, &ruleset)?;
    settings.ruleset = pin;
    campaigns::update_ruleset_if_version(conn, &current.id, current.version, &settings, now)?
        .ok_or_else(changed_meanwhile)?;
    Ok(())
}
