//! Quotas no real club reaches but an abuser would: forces per campaign, campaigns per account
//! (422), battles per campaign per day and one-shot scenarios per account per hour (429 with
//! `Retry-After`), signed-out scenarios per client address per hour (429 too) and webhooks per
//! campaign (422). Each check counts in the database inside the write's transaction, so the
//! service's stateless processes share them; a check and its insert run in one transaction.
//!
//! Every check first takes its scope's lock ([`serialize`]): on PostgreSQL two transactions of
//! read committed both count 2 of 3 and both insert, so parallel requests stored more than the
//! limit; with the lock the second one counts after the first one's insert has committed.

use chrono::{Duration, NaiveDateTime};

use crate::db::Db;
use crate::error::ApiError;
use crate::store::{self, quotas};

/// What a quota counts within; each has its own lock namespace (the key is the id or hash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Forces of one campaign.
    CampaignForces,
    /// Campaigns one account created.
    AccountCampaigns,
    /// Battles of one campaign.
    CampaignBattles,
    /// One-shot scenarios of one account.
    AccountScenarios,
    /// Signed-out scenarios of one client address (its keyed hash).
    AddressScenarios,
    /// Webhooks of one campaign.
    CampaignWebhooks,
    /// Dice commitments issued to one client address (its keyed hash).
    AddressDiceCommitments,
    /// House rulesets of one account.
    AccountRulesets,
}

impl Scope {
    /// The advisory lock namespace (distinct from the event outbox's, `0x000f_ade7`).
    fn namespace(self) -> i32 {
        0x000f_ad00
            + match self {
                Self::CampaignForces => 1,
                Self::AccountCampaigns => 2,
                Self::CampaignBattles => 3,
                Self::AccountScenarios => 4,
                Self::AddressScenarios => 5,
                Self::CampaignWebhooks => 6,
                Self::AddressDiceCommitments => 7,
                Self::AccountRulesets => 8,
            }
    }
}

/// Serializes the count and the insert of one quota's scope until the caller's transaction
/// ends (PostgreSQL's advisory transaction lock; SQLite's single writer already does). Every
/// quota check calls it before counting.
pub fn serialize(conn: &mut Db, scope: Scope, key: &str) -> Result<(), ApiError> {
    Ok(quotas::lock(conn, scope.namespace(), key)?)
}

/// 422 when the campaign already has `limit` webhooks (`FAD_MAX_WEBHOOKS_PER_CAMPAIGN`).
pub fn check_webhooks(conn: &mut Db, campaign_id: &str, limit: u32) -> Result<(), ApiError> {
    serialize(conn, Scope::CampaignWebhooks, campaign_id)?;
    if store::webhooks::count_for_campaign(conn, campaign_id)? >= i64::from(limit) {
        return Err(ApiError::validation(
            "campaign_id",
            format!("a campaign has at most {limit} webhooks; delete one first"),
        ));
    }
    Ok(())
}

/// The configured limits (`FAD_MAX_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    /// Forces per campaign, archived ones included.
    pub forces_per_campaign: u32,
    /// Campaigns an account may create.
    pub campaigns_per_account: u32,
    /// Battles a campaign may create in any 24 hours.
    pub battles_per_campaign_per_day: u32,
    /// One-shot scenarios an account may generate in any hour.
    pub scenarios_per_account_per_hour: u32,
    /// One-shot scenarios one client address may generate signed out in any hour.
    pub anonymous_scenarios_per_address_per_hour: u32,
    /// House rulesets an account may hold (each id counts once, archived ones included).
    pub rulesets_per_account: u32,
    /// Largest house-ruleset document, in bytes of JSON.
    pub ruleset_bytes: u32,
}

impl Default for Quotas {
    fn default() -> Self {
        Self {
            forces_per_campaign: 200,
            campaigns_per_account: 100,
            battles_per_campaign_per_day: 500,
            scenarios_per_account_per_hour: 200,
            anonymous_scenarios_per_address_per_hour: 30,
            rulesets_per_account: 10,
            ruleset_bytes: 64 * 1024,
        }
    }
}

impl Quotas {
    /// 422 when the campaign already has its most forces.
    pub fn check_forces(&self, conn: &mut Db, campaign_id: &str) -> Result<(), ApiError> {
        serialize(conn, Scope::CampaignForces, campaign_id)?;
        let limit = self.forces_per_campaign;
        if quotas::forces_in_campaign(conn, campaign_id)? >= i64::from(limit) {
            return Err(ApiError::validation(
                "campaign_id",
                format!("a campaign has at most {limit} forces (archived ones included)"),
            ));
        }
        Ok(())
    }

    /// 422 when the account has created its most campaigns.
    pub fn check_campaigns(&self, conn: &mut Db, user_id: &str) -> Result<(), ApiError> {
        serialize(conn, Scope::AccountCampaigns, user_id)?;
        let limit = self.campaigns_per_account;
        if quotas::campaigns_created_by(conn, user_id)? >= i64::from(limit) {
            return Err(ApiError::validation(
                "account",
                format!("an account may create at most {limit} campaigns"),
            ));
        }
        Ok(())
    }

    /// 429 when the campaign has created its most battles in the last 24 hours.
    pub fn check_battles(&self, conn: &mut Db, campaign_id: &str) -> Result<(), ApiError> {
        serialize(conn, Scope::CampaignBattles, campaign_id)?;
        let limit = self.battles_per_campaign_per_day;
        let window = Duration::days(1);
        let now = store::now();
        if let Some(filling) =
            quotas::nth_newest_battle_since(conn, campaign_id, now - window, limit)?
        {
            return Err(ApiError::TooManyRequests {
                detail: format!("A campaign may create at most {limit} battles per day."),
                retry_after_secs: retry_after(now, filling, window),
            });
        }
        Ok(())
    }

    /// 429 when the account has generated its most one-shot scenarios in the last hour.
    pub fn check_scenarios(&self, conn: &mut Db, user_id: &str) -> Result<(), ApiError> {
        serialize(conn, Scope::AccountScenarios, user_id)?;
        let limit = self.scenarios_per_account_per_hour;
        let window = Duration::hours(1);
        let now = store::now();
        if let Some(filling) =
            quotas::nth_newest_scenario_since(conn, user_id, now - window, limit)?
        {
            return Err(ApiError::TooManyRequests {
                detail: format!("An account may generate at most {limit} scenarios per hour."),
                retry_after_secs: retry_after(now, filling, window),
            });
        }
        Ok(())
    }
}

impl Quotas {
    /// 422 when the account already holds its most house rulesets
    /// (`FAD_MAX_RULESETS_PER_ACCOUNT`); a new version of one it holds does not count.
    pub fn check_rulesets(&self, conn: &mut Db, user_id: &str) -> Result<(), ApiError> {
        serialize(conn, Scope::AccountRulesets, user_id)?;
        let limit = self.rulesets_per_account;
        if store::rulesets::count_for_owner(conn, user_id)? >= i64::from(limit) {
            return Err(ApiError::validation(
                "account",
                format!("an account may hold at most {limit} house rulesets"),
            ));
        }
        Ok(())
    }

    /// 422 at `field` when a house-ruleset document is larger than `FAD_MAX_RULESET_BYTES`.
    pub fn check_ruleset_size(&self, field: &str, bytes: usize) -> Result<(), ApiError> {
        let limit = self.ruleset_bytes;
        if bytes > usize::try_from(limit).unwrap_or(usize::MAX) {
            return Err(ApiError::validation(
                field,
                format!("a house ruleset is at most {limit} bytes of JSON; this one has {bytes}"),
            ));
        }
        Ok(())
    }

    /// 429 when the client address (`client_hash`, its keyed hash) has generated its most
    /// one-shot scenarios signed out in the last hour.
    pub fn check_anonymous_scenarios(
        &self,
        conn: &mut Db,
        client_hash: &str,
    ) -> Result<(), ApiError> {
        serialize(conn, Scope::AddressScenarios, client_hash)?;
        let limit = self.anonymous_scenarios_per_address_per_hour;
        let window = Duration::hours(1);
        let now = store::now();
        if let Some(filling) =
            quotas::nth_newest_anonymous_scenario_since(conn, client_hash, now - window, limit)?
        {
            return Err(ApiError::TooManyRequests {
                detail: format!(
                    "Without an account, one address may generate at most {limit} scenarios per \
                     hour. Log in, or try again later."
                ),
                retry_after_secs: retry_after(now, filling, window),
            });
        }
        Ok(())
    }
}

/// Whole seconds until `filling`, the write that filled the quota (the limit-th newest in the
/// window), leaves the window and frees a place (at least 1).
fn retry_after(now: NaiveDateTime, filling: NaiveDateTime, window: Duration) -> u64 {
    let wait = filling + window - now;
    let secs = (wait.num_milliseconds() + 999) / 1000;
    u64::try_from(secs).unwrap_or(0).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_when_the_filling_write_leaves_the_window() {
        let now = NaiveDateTime::default() + Duration::days(2);
        let hour = Duration::hours(1);
        let oldest = now - Duration::minutes(59) - Duration::milliseconds(500);
        // 60 min − 59 min 0.5 s = 59.5 s, rounded up.
        assert_eq!(retry_after(now, oldest, hour), 60);
        assert_eq!(retry_after(now, now, hour), 3600);
        assert_eq!(retry_after(now, now - hour, hour), 1);
    }
}
