//! Campaigns and their settings (house rules plus service settings, stored as JSON text).
//!
//! Settings follow docs/rules.md §6: every (config) item defaults to its settled reading
//! ([`fad_domain::house_rules::HouseRules`]).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use fad_domain::house_rules::HouseRules;
use fad_domain::rulesets::RulesetPin;
use serde::{Deserialize, Serialize};

use crate::db::Db;
use crate::schema::{battles, campaigns, memberships};
use crate::store::CreatedKey;

/// A campaign's settings: the ruleset it plays, the house rules and how the service runs the
/// campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignSettings {
    /// docs/rules.md §6 config items.
    pub house_rules: HouseRules,
    /// Whether a reported battle result waits for the other side (or the organiser) to confirm
    /// it (true) or is confirmed at once (false).
    pub results_need_confirmation: bool,
    /// Whether a force that has fought a battle keeps its roster: outside the post-battle
    /// sequence, edits that raise Quality, Resolve, strength or points need the organiser,
    /// who gives a reason (true), or the owner may edit freely (false).
    pub lock_rosters_after_play: bool,
    /// The ruleset the campaign plays, pinned at one version. A campaign stored before
    /// rulesets existed has none in its text and reads as FAD 5e version 1 (its row is never
    /// rewritten for that).
    pub ruleset: RulesetPin,
    /// Whether anyone may read the standings, without signing in: the embeddable page and the
    /// public JSON (off by default).
    pub public_standings: bool,
}

impl Default for CampaignSettings {
    fn default() -> Self {
        Self {
            house_rules: HouseRules::default(),
            results_need_confirmation: true,
            lock_rosters_after_play: true,
            ruleset: RulesetPin::default(),
            public_standings: false,
        }
    }
}

/// A campaign row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = campaigns)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct Campaign {
    /// The campaign id (UUID text).
    pub id: String,
    /// Its name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// [`CampaignSettings`] as JSON; read it with [`Campaign::settings`].
    pub settings: String,
    /// Optimistic-concurrency version of the name and description, starting at 1.
    pub version: i64,
    /// The user who created it.
    pub created_by: String,
    /// Creation time (UTC).
    pub created_at: NaiveDateTime,
    /// Last change (UTC).
    pub updated_at: NaiveDateTime,
    /// Optimistic-concurrency version of the settings, starting at 1: separate from
    /// `version`, so a rename never makes a settings edit stale, nor the other way round.
    pub settings_version: i64,
}

impl Campaign {
    /// The parsed settings. Fields missing from older rows take their defaults.
    pub fn settings(&self) -> Result<CampaignSettings, serde_json::Error> {
        serde_json::from_str(&self.settings)
    }
}

/// Inserts a campaign.
pub fn insert(conn: &mut Db, campaign: &Campaign) -> QueryResult<()> {
    diesel::insert_into(campaigns::table)
        .values(campaign)
        .execute(conn)
        .map(|_| ())
}

/// The ruleset campaign `id` plays (FAD 5e version 1 for a campaign that is not there or has
/// none in its settings). One small read: only the settings column.
pub fn ruleset_pin(conn: &mut Db, id: &str) -> QueryResult<RulesetPin> {
    let settings: Option<String> = campaigns::table
        .find(id)
        .select(campaigns::settings)
        .first(conn)
        .optional()?;
    Ok(settings
        .and_then(|text| serde_json::from_str::<CampaignSettings>(&text).ok())
        .map(|s| s.ruleset)
        .unwrap_or_default())
}

/// The campaign with id `id`. Authorize first: this does not check membership.
pub fn find_by_id(conn: &mut Db, id: &str) -> QueryResult<Option<Campaign>> {
    crate::on_backend!(conn, |conn| campaigns::table
        .find(id)
        .select(Campaign::as_select())
        .first(conn)
        .optional())
}

/// Up to `limit` of the campaigns `user_id` belongs to, with the stored role, newest first
/// (ties by id), after the campaign whose key is `after`.
pub fn list_for_user(
    conn: &mut Db,
    user_id: &str,
    after: Option<&CreatedKey>,
    limit: i64,
) -> QueryResult<Vec<(Campaign, String)>> {
    let mut query = campaigns::table
        .inner_join(memberships::table)
        .filter(memberships::user_id.eq(user_id))
        .order((campaigns::created_at.desc(), campaigns::id.asc()))
        .select((Campaign::as_select(), memberships::role))
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            campaigns::created_at
                .lt(at)
                .or(campaigns::created_at.eq(at).and(campaigns::id.gt(id))),
        );
    }
    query.load(conn)
}

/// Replaces the settings when the stored settings version is `expected_version`; returns the
/// updated campaign, or `None` when the version is stale (or the campaign is gone).
pub fn update_settings_if_version(
    conn: &mut Db,
    id: &str,
    expected_version: i64,
    settings: &CampaignSettings,
    now: NaiveDateTime,
) -> QueryResult<Option<Campaign>> {
    let json = serde_json::to_string(settings)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let changed = diesel::update(
        campaigns::table
            .filter(campaigns::id.eq(id))
            .filter(campaigns::settings_version.eq(expected_version)),
    )
    .set((
        campaigns::settings.eq(json),
        campaigns::settings_version.eq(expected_version + 1),
        campaigns::updated_at.eq(now),
    ))
    .execute(conn)?;
    if changed == 0 {
        Ok(None)
    } else {
        find_by_id(conn, id)
    }
}

/// Sets name and description when the stored version is `expected_version`; returns the
/// updated campaign, or `None` when the version is stale (or the campaign is gone).
pub fn update_details_if_version(
    conn: &mut Db,
    id: &str,
    expected_version: i64,
    name: &str,
    description: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<Option<Campaign>> {
    let changed = diesel::update(
        campaigns::table
            .filter(campaigns::id.eq(id))
            .filter(campaigns::version.eq(expected_version)),
    )
    .set((
        campaigns::name.eq(name),
        campaigns::description.eq(description),
        campaigns::version.eq(expected_version + 1),
        campaigns::updated_at.eq(now),
    ))
    .execute(conn)?;
    if changed == 0 {
        Ok(None)
    } else {
        find_by_id(conn, id)
    }
}

/// Writes the settings text with a new ruleset pin and moves the campaign's `version` on (the
/// pin is part of the campaign, changed by `PATCH`); the settings' own version stays, since
/// their house rules did not change. `None` when the version is stale.
pub fn update_ruleset_if_version(
    conn: &mut Db,
    id: &str,
    expected_version: i64,
    settings: &CampaignSettings,
    now: NaiveDateTime,
) -> QueryResult<Option<Campaign>> {
    let json = serde_json::to_string(settings)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let changed = diesel::update(
        campaigns::table
            .filter(campaigns::id.eq(id))
            .filter(campaigns::version.eq(expected_version)),
    )
    .set((
        campaigns::settings.eq(json),
        campaigns::version.eq(expected_version + 1),
        campaigns::updated_at.eq(now),
    ))
    .execute(conn)?;
    if changed == 0 {
        Ok(None)
    } else {
        find_by_id(conn, id)
    }
}

/// How many battles the campaign has (void ones included).
pub fn battle_count(conn: &mut Db, id: &str) -> QueryResult<i64> {
    battles::table
        .filter(battles::campaign_id.eq(id))
        .count()
        .get_result(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_to_settled_readings_and_confirmation() {
        let settings: CampaignSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(settings, CampaignSettings::default());
        assert_eq!(settings.house_rules, HouseRules::default());
        assert!(settings.results_need_confirmation);
        assert!(settings.ruleset.is_fad5e_v1());
    }
}
