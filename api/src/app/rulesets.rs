//! Rulesets: the built-in ones (in the binary) and house rulesets (a club's document that
//! extends a built-in one, stored one row per version). Listing, reading, writing house
//! rulesets, and [`load`], which every use case calls with its campaign's pin.

use std::sync::Arc;

use fad_domain::house_rules::HouseRules;
use fad_domain::rulesets::{
    self, HouseDocument, Ruleset, RulesetPin, RulesetVocabulary, SetProblem,
};

use crate::AppState;
use crate::app::authorization::{Need, campaign_access, campaign_not_found, person};
use crate::auth::Caller;
use crate::db::Db;
use crate::error::{ApiError, FieldError};
use crate::store::campaigns::{self, CampaignSettings};
use crate::store::rulesets::{self as rows, StoredRuleset};
use crate::store::{self};

/// The prefix every house ruleset's id carries, so it never collides with a built-in one.
pub const HOUSE_PREFIX: &str = "club/";

/// A ruleset a request or a form names: its id, and a version or the newest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The ruleset's id.
    pub id: String,
    /// Its version; `None` is the newest.
    pub version: Option<u32>,
}

/// A ruleset as a list shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Its hash: the built-in value's, or the stored house document's.
    pub hash: String,
    /// Whether the caller may change it (its owner).
    pub owned: bool,
}

/// A ruleset read in full.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The ruleset, built.
    pub ruleset: Ruleset,
    /// Its hash.
    pub hash: String,
    /// The house document, for a house ruleset.
    pub document: Option<HouseDocument>,
    /// The parent (for a house ruleset): what its differences are against.
    pub parent: Option<Ruleset>,
    /// Whether the caller owns it.
    pub owned: bool,
}

/// 404 for a ruleset that does not exist or the caller may not see (the same answer).
pub fn ruleset_not_found() -> ApiError {
    ApiError::NotFound("No such ruleset.".to_owned())
}

fn internal(e: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(e.into())
}

/// The version as stored (a house ruleset's versions are small).
fn stored_version(version: u32) -> i64 {
    i64::from(version)
}

fn domain_version(version: i64) -> Result<u32, ApiError> {
    u32::try_from(version).map_err(internal)
}

/// The house document of a stored row.
pub fn document_of(row: &StoredRuleset) -> Result<HouseDocument, ApiError> {
    serde_json::from_str(&row.document).map_err(internal)
}

/// Builds the ruleset a stored row holds, with its parent.
fn build_row(row: &StoredRuleset) -> Result<(Ruleset, HouseDocument, Ruleset), ApiError> {
    let document = document_of(row)?;
    let parent = rulesets::builtin(&document.extends.id, Some(document.extends.version))
        .ok_or_else(|| {
            internal(anyhow::anyhow!(
                "house ruleset {} extends an unknown ruleset",
                row.id
            ))
        })?;
    let ruleset = rulesets::build_house(&parent, &document, domain_version(row.version)?).map_err(
        |problems| {
            internal(anyhow::anyhow!(
                "stored house ruleset {}@{} no longer builds: {problems:?}",
                row.id,
                row.version
            ))
        },
    )?;
    Ok((ruleset, document, parent))
}

/// The ruleset a campaign's pin names: a built-in one, or a stored house ruleset (archived
/// ones included: a campaign keeps the rules it chose).
pub fn load(conn: &mut Db, pin: &RulesetPin) -> Result<Arc<Ruleset>, ApiError> {
    if let Some(builtin) = rulesets::shared_builtin(&pin.id, Some(pin.version)) {
        return Ok(builtin);
    }
    let row = rows::find(conn, &pin.id, Some(stored_version(pin.version)))?.ok_or_else(|| {
        internal(anyhow::anyhow!(
            "a campaign pins {}@{}, which is not stored",
            pin.id,
            pin.version
        ))
    })?;
    Ok(Arc::new(build_row(&row)?.0))
}

/// The pins of the campaigns `user_id` belongs to.
fn member_pins(conn: &mut Db, user_id: &str) -> Result<Vec<RulesetPin>, ApiError> {
    rows::member_campaign_settings(conn, user_id)?
        .iter()
        .map(|text| {
            serde_json::from_str::<CampaignSettings>(text)
                .map(|s| s.ruleset)
                .map_err(internal)
        })
        .collect()
}

/// Whether `user_id` may see and use the house ruleset `id`: its owner, or a member of a
/// campaign that pins a version of it.
fn may_use(conn: &mut Db, user_id: Option<&str>, row: &StoredRuleset) -> Result<bool, ApiError> {
    let Some(user_id) = user_id else {
        return Ok(false);
    };
    if row.owner == user_id {
        return Ok(true);
    }
    Ok(member_pins(conn, user_id)?
        .iter()
        .any(|pin| pin.id == row.id))
}

/// Whether any campaign pins any version of `id`.
fn pinned_anywhere(conn: &mut Db, id: &str) -> Result<bool, ApiError> {
    for text in rows::settings_mentioning(conn, id)? {
        let settings: CampaignSettings = serde_json::from_str(&text).map_err(internal)?;
        if settings.ruleset.id == id {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Resolves a requested ruleset (`id`, and a version or the newest) for `user_id`: a built-in
/// one, or a house ruleset the caller may use. 422 at `field` otherwise.
pub fn resolve(
    conn: &mut Db,
    user_id: Option<&str>,
    id: &str,
    version: Option<u32>,
    field: &str,
) -> Result<Ruleset, ApiError> {
    if let Some(builtin) = rulesets::builtin(id, version) {
        return Ok(builtin);
    }
    if rulesets::builtin(id, None).is_some() {
        let latest = rulesets::builtin(id, None).map_or(1, |r| r.version);
        return Err(ApiError::validation(
            field,
            format!(
                "{id} has no version {}; its newest is {latest}",
                version.unwrap_or(0)
            ),
        ));
    }
    let row = rows::find(conn, id, version.map(stored_version))?;
    match row {
        Some(row) if may_use(conn, user_id, &row)? => {
            if row.archived && user_id != Some(row.owner.as_str()) {
                return Err(ApiError::validation(field, format!("{id} is archived")));
            }
            Ok(build_row(&row)?.0)
        }
        _ => Err(ApiError::validation(
            field,
            format!(
                "no ruleset {id}{} that you may use; GET /api/v1/rulesets lists them",
                match version {
                    Some(v) => format!(" version {v}"),
                    None => String::new(),
                }
            ),
        )),
    }
}

/// Every ruleset the caller may see: the built-in ones, then (signed in) the house rulesets it
/// owns and those its campaigns pin, each at its newest version.
pub async fn list(state: &AppState, caller: Option<Caller>) -> Result<Vec<Listed>, ApiError> {
    let mut out: Vec<Listed> = rulesets::builtins()
        .into_iter()
        .map(|ruleset| Listed {
            hash: ruleset.hash(),
            ruleset,
            owned: false,
        })
        .collect();
    let Some(user_id) = caller.as_ref().and_then(Caller::user_id).map(str::to_owned) else {
        return Ok(out);
    };
    let house = state
        .db
        .read(move |conn| {
            let mut listed = Vec::new();
            let own = rows::list_for_owner(conn, &user_id)?;
            let mut seen: Vec<String> = own.iter().map(|r| r.id.clone()).collect();
            for row in own {
                let (ruleset, ..) = build_row(&row)?;
                listed.push(Listed {
                    ruleset,
                    hash: row.hash.clone(),
                    owned: true,
                });
            }
            let mut others: Vec<String> = member_pins(conn, &user_id)?
                .into_iter()
                .filter(|pin| rulesets::builtin(&pin.id, None).is_none())
                .map(|pin| pin.id)
                .filter(|id| !seen.contains(id))
                .collect();
            others.sort();
            others.dedup();
            seen.extend(others.iter().cloned());
            for row in rows::list_ids(conn, &others)? {
                if listed.iter().any(|l: &Listed| l.ruleset.id == row.id) {
                    continue; // an older version of one already listed
                }
                let (ruleset, ..) = build_row(&row)?;
                listed.push(Listed {
                    ruleset,
                    hash: row.hash.clone(),
                    owned: false,
                });
            }
            Ok(listed)
        })
        .await?;
    out.extend(house);
    Ok(out)
}

/// One ruleset at `version` (default: newest). House rulesets: their owner and the members of
/// a campaign that pins one of their versions; anyone else gets 404.
pub async fn read(
    state: &AppState,
    caller: Option<Caller>,
    id: String,
    version: Option<u32>,
) -> Result<Read, ApiError> {
    if let Some(ruleset) = rulesets::builtin(&id, version) {
        return Ok(Read {
            hash: ruleset.hash(),
            ruleset,
            document: None,
            parent: None,
            owned: false,
        });
    }
    if rulesets::builtin(&id, None).is_some() {
        return Err(ruleset_not_found());
    }
    let user_id = caller.as_ref().and_then(Caller::user_id).map(str::to_owned);
    state
        .db
        .read(move |conn| {
            let row = rows::find(conn, &id, version.map(stored_version))?
                .ok_or_else(ruleset_not_found)?;
            if !may_use(conn, user_id.as_deref(), &row)? {
                return Err(ruleset_not_found());
            }
            let (ruleset, document, parent) = build_row(&row)?;
            Ok(Read {
                ruleset,
                hash: row.hash.clone(),
                document: Some(document),
                parent: Some(parent),
                owned: user_id.as_deref() == Some(row.owner.as_str()),
            })
        })
        .await
}

/// The pinned ruleset's vocabulary of a campaign, with its house-rule options applied
/// (members and the campaign's integration keys).
pub async fn campaign_rules(
    state: &AppState,
    caller: &Caller,
    campaign_id: &str,
) -> Result<(RulesetPin, RulesetVocabulary), ApiError> {
    let (caller, campaign_id) = (caller.clone(), campaign_id.to_owned());
    state
        .db
        .read(move |conn| {
            campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let campaign =
                campaigns::find_by_id(conn, &campaign_id)?.ok_or_else(campaign_not_found)?;
            let settings = campaign.settings().map_err(internal)?;
            let ruleset = load(conn, &settings.ruleset)?;
            let vocabulary = rulesets::ruleset_vocabulary(&ruleset, &settings.house_rules);
            Ok((settings.ruleset, vocabulary))
        })
        .await
}

/// A new version keeps its id: the path's slug must be the document's.
fn check_path(document: &HouseDocument, slug: Option<&str>) -> Vec<FieldError> {
    match slug {
        Some(slug) if document.id != format!("{HOUSE_PREFIX}{slug}") => vec![FieldError::new(
            "id",
            format!("the path names {HOUSE_PREFIX}{slug}; a new version keeps its id"),
        )],
        _ => Vec::new(),
    }
}

/// 3–40 of `a-z`, `0-9` and `-`, not starting or ending with `-` (as the rules check a
/// document's id).
pub fn valid_slug(slug: &str) -> bool {
    (3..=40).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
}

/// The 422 of the rules' own problems with a document, each at its path.
fn set_problems(problems: Vec<SetProblem>) -> ApiError {
    ApiError::Validation(
        problems
            .into_iter()
            .map(|p| FieldError::new(p.path, p.message))
            .collect(),
    )
}

/// Checks a whole document: its fields, its size, its parent and every key it sets; returns
/// the parent and the built ruleset at `version`.
fn validate(
    state: &AppState,
    document: &HouseDocument,
    slug: Option<&str>,
    version: u32,
) -> Result<(Ruleset, String, String), ApiError> {
    let mut errors = check_path(document, slug);
    let text = serde_json::to_string(document).map_err(internal)?;
    if let Err(ApiError::Validation(mut size)) =
        state.config.quotas.check_ruleset_size("set", text.len())
    {
        errors.append(&mut size);
    }
    let Some(parent) = rulesets::builtin(&document.extends.id, Some(document.extends.version))
    else {
        errors.push(FieldError::new(
            "extends",
            format!(
                "a house ruleset extends a built-in one ({}); {}@{} is none",
                rulesets::builtins()
                    .iter()
                    .map(|r| format!("{}@{}", r.id, r.version))
                    .collect::<Vec<_>>()
                    .join(", "),
                document.extends.id,
                document.extends.version
            ),
        ));
        return Err(ApiError::Validation(errors));
    };
    let built = rulesets::build_house(&parent, document, version);
    match (built, errors.is_empty()) {
        (Ok(ruleset), true) => Ok((ruleset, text, rulesets::document_hash(document))),
        (Ok(_), false) => Err(ApiError::Validation(errors)),
        (Err(problems), _) => {
            let ApiError::Validation(mut more) = set_problems(problems) else {
                return Err(ApiError::Validation(errors));
            };
            errors.append(&mut more);
            Err(ApiError::Validation(errors))
        }
    }
}

/// Creates a house ruleset at version 1 (signed in). 409 when the id is taken; the account's
/// quota and the document's size are 422.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    document: HouseDocument,
) -> Result<StoredRuleset, ApiError> {
    let user_id = person(caller)?.to_owned();
    let (ruleset, text, hash) = validate(state, &document, None, 1)?;
    let row = StoredRuleset {
        id: document.id.clone(),
        version: 1,
        owner: user_id.clone(),
        name: document.name.clone(),
        family: family_name(&ruleset),
        document: text,
        hash,
        created_at: store::now(),
        archived: false,
    };
    let stored = row.clone();
    let quotas = state.config.quotas;
    state
        .db
        .transaction(move |conn| {
            quotas.check_rulesets(conn, &user_id)?;
            if rows::find(conn, &stored.id, None)?.is_some() {
                return Err(ApiError::Conflict(format!(
                    "A ruleset {} exists already; choose another id, or send a new version of \
                     yours with PUT.",
                    stored.id
                )));
            }
            rows::insert(conn, &stored)?;
            Ok(())
        })
        .await?;
    tracing::info!(ruleset.id = %row.id, "Created house ruleset {}", row.id);
    Ok(row)
}

/// The family's name as stored.
pub fn family_name(ruleset: &Ruleset) -> String {
    serde_json::to_value(ruleset.family)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Writes version n+1 of the house ruleset `club/<slug>` (its owner), guarded by `If-Match`
/// (the version it is based on). Campaigns stay on the version they pinned.
pub async fn update(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    if_match: Option<String>,
    document: HouseDocument,
) -> Result<StoredRuleset, ApiError> {
    let user_id = person(caller)?.to_owned();
    let id = format!("{HOUSE_PREFIX}{slug}");
    // Optional: a new version never overwrites one, so without it the edit is simply next.
    let precondition = if_match
        .as_deref()
        .map(|m| crate::precondition::Precondition::new(None, Some(m), "ruleset"))
        .transpose();
    let (who, lookup) = (caller.clone(), slug.to_owned());
    // 404/403 before 422 before 409/412.
    let current = state
        .db
        .run(move |conn| authorize_owner(conn, &who, &lookup))
        .await?;
    let next = domain_version(current.version)? + 1;
    let (ruleset, text, hash) = validate(state, &document, Some(slug), next)?;
    let precondition = precondition?;
    let row = StoredRuleset {
        id: id.clone(),
        version: stored_version(next),
        owner: user_id.clone(),
        name: document.name.clone(),
        family: family_name(&ruleset),
        document: text,
        hash,
        created_at: store::now(),
        archived: current.archived,
    };
    let stored = row.clone();
    state
        .db
        .transaction(move |conn| {
            let newest = rows::find(conn, &id, None)?.ok_or_else(ruleset_not_found)?;
            if let Some(precondition) = precondition {
                precondition.check(newest.version)?;
            }
            if newest.version + 1 != stored.version {
                return Err(crate::precondition::stale("ruleset", newest.version));
            }
            rows::insert(conn, &stored).map_err(|e| match e {
                diesel::result::Error::DatabaseError(
                    diesel::result::DatabaseErrorKind::UniqueViolation,
                    _,
                ) => crate::precondition::stale("ruleset", newest.version + 1),
                other => other.into(),
            })
        })
        .await?;
    tracing::info!(ruleset.id = %row.id, version = row.version, "New version of house ruleset {}", row.id);
    Ok(row)
}

/// The newest version of `club/<slug>` when the caller owns it: 404 when the caller may not see
/// it, 403 when it may see it but not change it.
pub fn authorize_owner(
    conn: &mut Db,
    caller: &Caller,
    slug: &str,
) -> Result<StoredRuleset, ApiError> {
    let user_id = person(caller)?;
    let row =
        rows::find(conn, &format!("{HOUSE_PREFIX}{slug}"), None)?.ok_or_else(ruleset_not_found)?;
    if row.owner == user_id {
        return Ok(row);
    }
    if may_use(conn, Some(user_id), &row)? {
        return Err(ApiError::Forbidden(
            "Only the ruleset's owner may change it.".to_owned(),
        ));
    }
    Err(ruleset_not_found())
}

/// Deletes (archives) the house ruleset `club/<slug>` (its owner): refused with 409 while any
/// campaign pins any of its versions, since a campaign keeps the rules it chose.
pub async fn delete(state: &AppState, caller: &Caller, slug: &str) -> Result<(), ApiError> {
    let id = format!("{HOUSE_PREFIX}{slug}");
    let (caller, slug) = (caller.clone(), slug.to_owned());
    state
        .db
        .transaction(move |conn| {
            let row = authorize_owner(conn, &caller, &slug)?;
            if row.archived {
                return Err(ruleset_not_found());
            }
            if pinned_anywhere(conn, &id)? {
                return Err(ApiError::Conflict(format!(
                    "A campaign plays under {id}, so it stays: a campaign keeps the rules it chose."
                )));
            }
            rows::archive(conn, &id)?;
            Ok(())
        })
        .await
}

/// The house-rule defaults a new campaign under `ruleset` takes.
pub fn default_options(ruleset: &Ruleset) -> HouseRules {
    ruleset.options
}

/// A ruleset a request chooses: its id (the newest version) or `{"id", "version"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum RulesetChoice {
    /// The id: its newest version.
    #[schema(example = "fad5e")]
    Id(String),
    /// The id at one version.
    Pinned {
        /// The ruleset's id.
        id: String,
        /// Its version; omitted, the newest.
        version: Option<u32>,
    },
}

impl From<RulesetChoice> for Choice {
    fn from(choice: RulesetChoice) -> Self {
        match choice {
            RulesetChoice::Id(id) => Choice { id, version: None },
            RulesetChoice::Pinned { id, version } => Choice { id, version },
        }
    }
}
