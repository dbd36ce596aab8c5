//! Reading one campaign into a [`Document`], from one consistent snapshot.
//!
//! Rows are sorted in Rust (by byte order or by natural keys), not by the database, so the
//! document does not depend on a backend's collation: the same data gives the same bytes from
//! SQLite and from PostgreSQL.

use std::collections::BTreeSet;

use anyhow::{Context, anyhow, bail};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{
    battle_aftermaths, battle_scenarios, battles, campaigns, force_history, force_ledger, forces,
    invites, memberships, scenarios, solo_states, users,
};
use crate::store::battles::Correction;

use super::document::{
    AftermathRecord, BattleRecord, BattleScenarioRecord, CampaignRecord, Document, FORMAT,
    FORMAT_VERSION, ForceRecord, HistoryRecord, InviteRecord, LedgerRecord, MembershipRecord,
    ScenarioRecord, SoloStateRecord, UserRecord,
};

/// Reads campaign `campaign_id` and everything that belongs to it. Runs its own read-only
/// transaction (repeatable read on PostgreSQL; SQLite's read transactions are snapshots), so
/// a server writing meanwhile cannot make the document inconsistent.
pub fn export_campaign(conn: &mut Db, campaign_id: &str) -> anyhow::Result<Document> {
    conn.transaction(|conn| {
        if let Db::Pg(pg) = conn {
            pg.batch_execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                .context("starting a snapshot transaction")?;
        }
        read_campaign(conn, campaign_id)
    })
}

fn read_campaign(conn: &mut Db, campaign_id: &str) -> anyhow::Result<Document> {
    let campaign: CampaignRecord = campaigns::table
        .find(campaign_id)
        .select(CampaignRecord::as_select())
        .first(conn)
        .optional()
        .context("reading the campaign")?
        .ok_or_else(|| anyhow!("campaign {campaign_id} does not exist in this database"))?;

    let mut memberships: Vec<MembershipRecord> = memberships::table
        .filter(memberships::campaign_id.eq(campaign_id))
        .select(MembershipRecord::as_select())
        .load(conn)
        .context("reading memberships")?;
    memberships.sort_by(|a, b| (a.joined_at, &a.user_id).cmp(&(b.joined_at, &b.user_id)));

    let mut invites: Vec<InviteRecord> = invites::table
        .filter(invites::campaign_id.eq(campaign_id))
        .select(InviteRecord::as_select())
        .load(conn)
        .context("reading invitations")?;
    invites.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));

    let campaign_forces = || {
        forces::table
            .filter(forces::campaign_id.eq(campaign_id))
            .select(forces::id)
    };
    let mut forces: Vec<ForceRecord> = forces::table
        .filter(forces::campaign_id.eq(campaign_id))
        .select(ForceRecord::as_select())
        .load(conn)
        .context("reading forces")?;
    forces.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));

    let mut force_history: Vec<HistoryRecord> = force_history::table
        .filter(force_history::force_id.eq_any(campaign_forces()))
        .select(HistoryRecord::as_select())
        .load(conn)
        .context("reading force history")?;
    force_history.sort_by(|a, b| (&a.force_id, a.version).cmp(&(&b.force_id, b.version)));

    let mut force_ledger: Vec<LedgerRecord> = force_ledger::table
        .filter(force_ledger::force_id.eq_any(campaign_forces()))
        .select(LedgerRecord::as_select())
        .load(conn)
        .context("reading ledgers")?;
    force_ledger.sort_by(|a, b| (&a.force_id, a.seq).cmp(&(&b.force_id, b.seq)));

    let mut battles: Vec<BattleRecord> = battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .select(BattleRecord::as_select())
        .load(conn)
        .context("reading battles")?;
    battles.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));

    let campaign_battles = battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .select(battles::id);
    let mut battle_aftermaths: Vec<AftermathRecord> = battle_aftermaths::table
        .filter(battle_aftermaths::battle_id.eq_any(campaign_battles))
        .select(AftermathRecord::as_select())
        .load(conn)
        .context("reading aftermaths")?;
    battle_aftermaths.sort_by(|a, b| (&a.battle_id, &a.force_id).cmp(&(&b.battle_id, &b.force_id)));

    let campaign_battles = battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .select(battles::id);
    let mut battle_scenarios: Vec<BattleScenarioRecord> = battle_scenarios::table
        .filter(battle_scenarios::battle_id.eq_any(campaign_battles))
        .select(BattleScenarioRecord::as_select())
        .load(conn)
        .context("reading battle scenarios")?;
    battle_scenarios.sort_by(|a, b| a.battle_id.cmp(&b.battle_id));

    let campaign_battles = battles::table
        .filter(battles::campaign_id.eq(campaign_id))
        .select(battles::id);
    let mut solo_states: Vec<SoloStateRecord> = solo_states::table
        .filter(solo_states::battle_id.eq_any(campaign_battles.nullable()))
        .select(SoloStateRecord::as_select())
        .load(conn)
        .context("reading solo play")?;
    solo_states.sort_by(|a, b| a.owner_id.cmp(&b.owner_id));

    // Accounts named by any row so far; scenario creators are among them (below).
    let mut user_ids: BTreeSet<String> = BTreeSet::new();
    user_ids.insert(campaign.created_by.clone());
    user_ids.extend(memberships.iter().map(|m| m.user_id.clone()));
    user_ids.extend(invites.iter().map(|i| i.created_by.clone()));
    user_ids.extend(forces.iter().map(|f| f.owner_id.clone()));
    user_ids.extend(force_history.iter().filter_map(|h| h.actor_id.clone()));
    user_ids.extend(force_ledger.iter().filter_map(|l| l.actor_id.clone()));
    for battle in &battles {
        user_ids.insert(battle.created_by.clone());
        user_ids.extend(battle.result_by.iter().cloned());
        user_ids.extend(battle.confirmed_by.iter().cloned());
        // The organiser who voided or reopened it, named inside the JSON.
        let corrections: Vec<Correction> = serde_json::from_str(&battle.corrections)
            .with_context(|| format!("battle {} holds invalid corrections", battle.id))?;
        user_ids.extend(corrections.into_iter().map(|c| c.by));
    }

    let force_ids: BTreeSet<&str> = forces.iter().map(|f| f.id.as_str()).collect();
    let scenarios = campaign_scenarios(conn, &user_ids, &force_ids)?;
    user_ids.extend(scenarios.iter().filter_map(|s| s.created_by.clone()));

    let mut users = Vec::with_capacity(user_ids.len());
    for id in &user_ids {
        let user: UserRecord = users::table
            .find(id)
            .select(UserRecord::as_select())
            .first(conn)
            .optional()
            .context("reading accounts")?
            .ok_or_else(|| anyhow!("the campaign names account {id}, which does not exist"))?;
        users.push(user);
    }
    users.sort_by(|a, b| (&a.username, &a.id).cmp(&(&b.username, &b.id)));

    let ruleset = house_ruleset(conn, &campaign.settings)?;
    Ok(Document {
        ruleset,
        format: FORMAT.to_owned(),
        format_version: FORMAT_VERSION,
        campaign,
        users,
        memberships,
        invites,
        forces,
        force_history,
        force_ledger,
        battles,
        battle_aftermaths,
        battle_scenarios,
        scenarios,
        solo_states,
    })
}

/// The house ruleset the campaign's settings pin, if it pins one.
fn house_ruleset(
    conn: &mut Db,
    settings: &str,
) -> anyhow::Result<Option<super::document::RulesetRecord>> {
    let settings: crate::store::campaigns::CampaignSettings =
        serde_json::from_str(settings).context("reading the campaign's settings")?;
    let pin = settings.ruleset;
    if fad_domain::rulesets::builtin(&pin.id, Some(pin.version)).is_some() {
        return Ok(None);
    }
    let row = crate::store::rulesets::find(conn, &pin.id, Some(i64::from(pin.version)))
        .context("reading the campaign's ruleset")?
        .ok_or_else(|| anyhow::anyhow!("the campaign pins {pin}, which is not stored"))?;
    Ok(Some(super::document::RulesetRecord {
        document: serde_json::from_str(&row.document).context("reading the ruleset's document")?,
        id: row.id,
        version: row.version,
        family: row.family,
        hash: row.hash,
        created_at: row.created_at,
    }))
}

/// One-shot scenarios that used a stored force of the campaign. Only someone who could read the
/// force (a member, so an account already named) can have generated one, so candidates are
/// the scenarios of those accounts; the document's `forces[].force_id` decides.
fn campaign_scenarios(
    conn: &mut Db,
    user_ids: &BTreeSet<String>,
    force_ids: &BTreeSet<&str>,
) -> anyhow::Result<Vec<ScenarioRecord>> {
    let mut out = Vec::new();
    for user_id in user_ids {
        let rows: Vec<ScenarioRecord> = scenarios::table
            .filter(scenarios::created_by.eq(user_id))
            .select(ScenarioRecord::as_select())
            .load(conn)
            .context("reading scenarios")?;
        for row in rows {
            if uses_a_force(&row, force_ids)? {
                out.push(row);
            }
        }
    }
    out.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(out)
}

fn uses_a_force(row: &ScenarioRecord, force_ids: &BTreeSet<&str>) -> anyhow::Result<bool> {
    let document: serde_json::Value = serde_json::from_str(&row.document)
        .with_context(|| format!("scenario {} holds invalid JSON", row.id))?;
    let Some(forces) = document.get("forces").and_then(|f| f.as_array()) else {
        bail!("scenario {} has no `forces` list", row.id);
    };
    Ok(forces.iter().any(|force| {
        force.get("stored").and_then(serde_json::Value::as_bool) == Some(true)
            && force
                .get("force_id")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|id| force_ids.contains(id))
    }))
}
