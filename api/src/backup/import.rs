//! Reading and checking a [`Document`], and writing it into a database in one transaction.
//!
//! The document is checked completely before anything is written (format and version, every
//! reference inside it, every JSON column against the type the service reads it as), so a
//! document the server could not serve is refused with the path of the first problem. The
//! database's constraints are the second line: any failure rolls the whole import back.

use fad_domain::lifecycle::{AftermathStage, BattleState};
use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, anyhow, bail};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use serde::de::DeserializeOwned;

use crate::app::battles::{BattleResult, Side};
use crate::app::scenarios::document::ScenarioDocument;
use crate::auth::password::hash_password;
use crate::db::Db;
use crate::schema::{
    battle_aftermaths, battle_scenarios, battles, campaigns, force_history, force_ledger, forces,
    invites, memberships, scenarios, solo_states,
};
use crate::store::battles::Correction;
use crate::store::campaigns::CampaignSettings;
use crate::store::doc::{self, StoredDoc};
use crate::store::history::RosterDiff;
use crate::store::{self, users};

use super::document::{Document, FORMAT, FORMAT_VERSION, ScenarioRecord};

/// How to import.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImportOptions {
    /// Replace a campaign with the same id in the target (deleting it and everything it owns
    /// first, in the same transaction). Without it such an import is refused.
    pub replace: bool,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSummary {
    /// The campaign id (as exported).
    pub campaign_id: String,
    /// The campaign name.
    pub campaign_name: String,
    /// Whether an existing campaign with this id was replaced.
    pub replaced: bool,
    /// Accounts that already existed in the target (matched by name).
    pub matched_accounts: Vec<String>,
    /// Accounts created without a usable password.
    pub created_accounts: Vec<String>,
    /// Rows written per table.
    pub rows: Vec<(&'static str, usize)>,
}

/// Parses an export: first the format and its version (so an unknown version gets that
/// message, not a field error), then the whole document, then [`check`].
pub fn parse_document(text: &str) -> anyhow::Result<Document> {
    let value: serde_json::Value = serde_json::from_str(text)
        .context("the input is not a complete JSON document (truncated or not an export?)")?;
    let format = value.get("format").and_then(serde_json::Value::as_str);
    if format != Some(FORMAT) {
        bail!(
            "the input is not a fad-campaign campaign export (`format` is {}, expected \
             \"{FORMAT}\")",
            value
                .get("format")
                .map_or("missing".to_owned(), ToString::to_string)
        );
    }
    match value
        .get("format_version")
        .and_then(serde_json::Value::as_u64)
    {
        Some(v) if v == u64::from(FORMAT_VERSION) => {}
        Some(v) => bail!(
            "unsupported export format version {v}: this fad-campaign {} reads version \
             {FORMAT_VERSION}",
            env!("CARGO_PKG_VERSION")
        ),
        None => bail!("the export has no valid `format_version`"),
    }
    let document: Document = serde_path_to_error::deserialize(value)
        .map_err(|e| anyhow!("invalid export at `{}`: {}", e.path(), e.inner()))?;
    check(&document)?;
    Ok(document)
}

fn parse_json<T: DeserializeOwned>(text: &str, at: impl FnOnce() -> String) -> anyhow::Result<T> {
    serde_json::from_str(text).map_err(|e| anyhow!("invalid export at `{}`: {e}", at()))
}

/// A stored document, in any format the server reads (an export copies the stored text).
fn parse_doc<T: StoredDoc>(text: &str, at: impl FnOnce() -> String) -> anyhow::Result<T> {
    doc::decode(text).map_err(|e| anyhow!("invalid export at `{}`: {e}", at()))
}

/// Checks what the database cannot: references inside the document and JSON columns.
fn check(doc: &Document) -> anyhow::Result<()> {
    let campaign_id = doc.campaign.id.as_str();
    let settings =
        parse_json::<CampaignSettings>(&doc.campaign.settings, || "campaign.settings".into())?;
    check_ruleset(doc, &settings.ruleset)?;
    let users: BTreeSet<&str> = doc.users.iter().map(|u| u.id.as_str()).collect();
    let mut names = BTreeSet::new();
    for (i, user) in doc.users.iter().enumerate() {
        crate::auth::password::validate_username(&user.username)
            .map_err(|e| anyhow!("invalid export at `users[{i}].username`: {e}"))?;
        if !names.insert(user.username.to_lowercase()) {
            bail!(
                "invalid export at `users[{i}]`: the name {} is listed twice",
                user.username
            );
        }
    }
    let user = |id: &str, at: String| -> anyhow::Result<()> {
        if users.contains(id) {
            Ok(())
        } else {
            Err(anyhow!(
                "invalid export at `{at}`: account {id} is not in `users`"
            ))
        }
    };
    let same_campaign = |id: &str, at: String| -> anyhow::Result<()> {
        if id == campaign_id {
            Ok(())
        } else {
            Err(anyhow!(
                "invalid export at `{at}`: campaign {id} is not the exported campaign"
            ))
        }
    };
    user(&doc.campaign.created_by, "campaign.created_by".into())?;
    for (i, m) in doc.memberships.iter().enumerate() {
        same_campaign(&m.campaign_id, format!("memberships[{i}].campaign_id"))?;
        user(&m.user_id, format!("memberships[{i}].user_id"))?;
        if !matches!(m.role.as_str(), "organiser" | "player") {
            bail!(
                "invalid export at `memberships[{i}].role`: unknown role {}",
                m.role
            );
        }
    }
    for (i, invite) in doc.invites.iter().enumerate() {
        same_campaign(&invite.campaign_id, format!("invites[{i}].campaign_id"))?;
        user(&invite.created_by, format!("invites[{i}].created_by"))?;
    }
    let force_ids: BTreeSet<&str> = doc.forces.iter().map(|f| f.id.as_str()).collect();
    for (i, force) in doc.forces.iter().enumerate() {
        same_campaign(&force.campaign_id, format!("forces[{i}].campaign_id"))?;
        user(&force.owner_id, format!("forces[{i}].owner_id"))?;
        parse_doc::<fad_domain::roster::Force>(&force.roster, || format!("forces[{i}].roster"))?;
    }
    let force = |id: &str, at: String| -> anyhow::Result<()> {
        if force_ids.contains(id) {
            Ok(())
        } else {
            Err(anyhow!(
                "invalid export at `{at}`: force {id} is not in `forces`"
            ))
        }
    };
    for (i, h) in doc.force_history.iter().enumerate() {
        force(&h.force_id, format!("force_history[{i}].force_id"))?;
        if let Some(actor) = &h.actor_id {
            user(actor, format!("force_history[{i}].actor_id"))?;
        }
        parse_json::<RosterDiff>(&h.diff, || format!("force_history[{i}].diff"))?;
        parse_json::<fad_domain::dice::RollLog>(&h.rolls, || format!("force_history[{i}].rolls"))?;
        parse_doc::<fad_domain::roster::Force>(&h.snapshot, || {
            format!("force_history[{i}].snapshot")
        })?;
    }
    for (i, l) in doc.force_ledger.iter().enumerate() {
        force(&l.force_id, format!("force_ledger[{i}].force_id"))?;
        if let Some(actor) = &l.actor_id {
            user(actor, format!("force_ledger[{i}].actor_id"))?;
        }
        if !matches!(l.kind.as_str(), "earned" | "spent") {
            bail!(
                "invalid export at `force_ledger[{i}].kind`: unknown kind {}",
                l.kind
            );
        }
    }
    let battle_ids: BTreeSet<&str> = doc.battles.iter().map(|b| b.id.as_str()).collect();
    // Each battle's player forces: every force a battle's rows name must be one of them.
    let mut battle_sides: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (i, b) in doc.battles.iter().enumerate() {
        same_campaign(&b.campaign_id, format!("battles[{i}].campaign_id"))?;
        user(&b.created_by, format!("battles[{i}].created_by"))?;
        for (column, id) in [
            ("result_by", &b.result_by),
            ("confirmed_by", &b.confirmed_by),
        ] {
            if let Some(id) = id {
                user(id, format!("battles[{i}].{column}"))?;
            }
        }
        b.state
            .parse::<BattleState>()
            .map_err(|e| anyhow!("invalid export at `battles[{i}].state`: {e}"))?;
        let sides: Vec<Side> = parse_json(&b.sides, || format!("battles[{i}].sides"))?;
        let mut side_forces = BTreeSet::new();
        for (j, side) in sides.iter().enumerate() {
            if let Some(id) = &side.force_id {
                force(id, format!("battles[{i}].sides[{j}].force_id"))?;
                side_forces.insert(id.clone());
            }
        }
        battle_sides.insert(b.id.as_str(), side_forces);
        let corrections: Vec<Correction> =
            parse_json(&b.corrections, || format!("battles[{i}].corrections"))?;
        for (j, correction) in corrections.iter().enumerate() {
            user(&correction.by, format!("battles[{i}].corrections[{j}].by"))?;
        }
        parse_json::<crate::store::battles::BattleOptions>(&b.options, || {
            format!("battles[{i}].options")
        })?;
        if let Some(result) = &b.result {
            let result: BattleResult = parse_json(result, || format!("battles[{i}].result"))?;
            let sides = &battle_sides[b.id.as_str()];
            let on_a_side = |id: &str, at: String| -> anyhow::Result<()> {
                if sides.contains(id) {
                    Ok(())
                } else {
                    Err(anyhow!(
                        "invalid export at `{at}`: force {id} is not a side of battle {}",
                        b.id
                    ))
                }
            };
            if let Some(winner) = &result.winner_force_id {
                on_a_side(winner, format!("battles[{i}].result.winner_force_id"))?;
            }
            for (j, loss) in result.losses.iter().enumerate() {
                on_a_side(
                    &loss.force_id,
                    format!("battles[{i}].result.losses[{j}].force_id"),
                )?;
            }
        }
    }
    let side_of = |battle_id: &str, force_id: &str, at: String| -> anyhow::Result<()> {
        if battle_sides
            .get(battle_id)
            .is_some_and(|sides| sides.contains(force_id))
        {
            Ok(())
        } else {
            Err(anyhow!(
                "invalid export at `{at}`: force {force_id} is not a side of battle {battle_id}"
            ))
        }
    };
    for (i, a) in doc.battle_aftermaths.iter().enumerate() {
        if !battle_ids.contains(a.battle_id.as_str()) {
            bail!("invalid export at `battle_aftermaths[{i}].battle_id`: not in `battles`");
        }
        force(&a.force_id, format!("battle_aftermaths[{i}].force_id"))?;
        side_of(
            &a.battle_id,
            &a.force_id,
            format!("battle_aftermaths[{i}].force_id"),
        )?;
        a.stage
            .parse::<AftermathStage>()
            .map_err(|e| anyhow!("invalid export at `battle_aftermaths[{i}].stage`: {e}"))?;
        parse_doc::<fad_domain::roster::Force>(&a.battle_start, || {
            format!("battle_aftermaths[{i}].battle_start")
        })?;
        if let Some(after_rolls) = &a.after_rolls {
            parse_doc::<fad_domain::roster::Force>(after_rolls, || {
                format!("battle_aftermaths[{i}].after_rolls")
            })?;
        }
        if let Some(state) = &a.state {
            crate::store::aftermath::state_from(state, &a.battle_start, a.after_rolls.as_deref())
                .map_err(|e| anyhow!("invalid export at `battle_aftermaths[{i}].state`: {e}"))?;
        }
        if let Some(outcome) = &a.outcome {
            parse_doc::<fad_domain::campaign::sequence::Outcome>(outcome, || {
                format!("battle_aftermaths[{i}].outcome")
            })?;
        }
    }
    for (i, s) in doc.battle_scenarios.iter().enumerate() {
        if !battle_ids.contains(s.battle_id.as_str()) {
            bail!("invalid export at `battle_scenarios[{i}].battle_id`: not in `battles`");
        }
        let document: crate::app::battles::scenario::BattleScenarioDocument =
            parse_doc(&s.document, || format!("battle_scenarios[{i}].document"))?;
        for (j, named) in document.forces.iter().enumerate() {
            if named.stored {
                side_of(
                    &s.battle_id,
                    &named.force_id,
                    format!("battle_scenarios[{i}].document.forces[{j}].force_id"),
                )?;
            }
        }
    }
    for (i, s) in doc.solo_states.iter().enumerate() {
        if s.battle_id.as_deref() != Some(s.owner_id.as_str()) || s.scenario_id.is_some() {
            bail!(
                "invalid export at `solo_states[{i}]`: a battle's solo play has `owner_id` and `battle_id` equal and no `scenario_id`"
            );
        }
        if !battle_ids.contains(s.owner_id.as_str()) {
            bail!("invalid export at `solo_states[{i}].battle_id`: not in `battles`");
        }
        parse_doc::<fad_domain::solo::SoloState>(&s.document, || {
            format!("solo_states[{i}].document")
        })?;
    }
    for (i, s) in doc.scenarios.iter().enumerate() {
        let Some(creator) = &s.created_by else {
            bail!("invalid export at `scenarios[{i}].created_by`: missing");
        };
        user(creator, format!("scenarios[{i}].created_by"))?;
        let document: ScenarioDocument =
            parse_doc(&s.document, || format!("scenarios[{i}].document"))?;
        // The export holds exactly the scenarios that used a force of the campaign.
        if !document
            .forces
            .iter()
            .any(|f| f.stored && force_ids.contains(f.force_id.as_str()))
        {
            bail!(
                "invalid export at `scenarios[{i}].document.forces`: the scenario uses no force \
                 of this campaign"
            );
        }
    }
    Ok(())
}

/// The pinned ruleset is a built-in one, or the house ruleset the document carries whole: same
/// id and version, a document that hashes to its hash and still builds on its parent.
fn check_ruleset(doc: &Document, pin: &fad_domain::rulesets::RulesetPin) -> anyhow::Result<()> {
    use fad_domain::rulesets::{build_house, builtin, document_hash};
    if builtin(&pin.id, Some(pin.version)).is_some() {
        if doc.ruleset.is_some() {
            bail!("invalid export at `ruleset`: the campaign plays the built-in {pin}");
        }
        return Ok(());
    }
    let Some(record) = &doc.ruleset else {
        bail!(
            "invalid export at `ruleset`: the campaign plays {pin}, which the export does not carry"
        );
    };
    if record.id != pin.id || record.version != i64::from(pin.version) {
        bail!(
            "invalid export at `ruleset`: it is {} version {}, the campaign plays {pin}",
            record.id,
            record.version
        );
    }
    let hash = document_hash(&record.document);
    if hash != record.hash {
        bail!(
            "invalid export at `ruleset.hash`: the document hashes to {hash}, not {}; it was changed after export",
            record.hash
        );
    }
    let extends = &record.document.extends;
    let parent = builtin(&extends.id, Some(extends.version)).ok_or_else(|| {
        anyhow!("invalid export at `ruleset.document.extends`: no built-in ruleset {extends}")
    })?;
    build_house(&parent, &record.document, pin.version).map_err(|problems| {
        anyhow!(
            "invalid export at `ruleset.document`: {}",
            problems
                .iter()
                .map(|p| format!("{}: {}", p.path, p.message))
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    Ok(())
}

/// Recreates the pinned house ruleset under the campaign's organiser (the account its
/// `created_by` became). The same version already stored under that account with the same hash
/// is used as it is; under another account, or with other content, the import is refused: a
/// campaign never plays another account's rules.
fn write_ruleset(conn: &mut Db, doc: &Document, owner: &str) -> anyhow::Result<()> {
    let Some(record) = &doc.ruleset else {
        return Ok(());
    };
    let stored = store::rulesets::find(conn, &record.id, Some(record.version))
        .context("looking for the ruleset")?;
    if let Some(stored) = stored {
        if stored.owner == owner && stored.hash == record.hash {
            return Ok(());
        }
        bail!(
            "the ruleset {} version {} exists in this database with other content or another \
             owner; nothing was imported",
            record.id,
            record.version
        );
    }
    let row = store::rulesets::StoredRuleset {
        id: record.id.clone(),
        version: record.version,
        owner: owner.to_owned(),
        name: record.document.name.trim().to_owned(),
        family: record.family.clone(),
        document: serde_json::to_string(&record.document).context("writing the ruleset")?,
        hash: record.hash.clone(),
        created_at: record.created_at,
        archived: false,
    };
    store::rulesets::insert(conn, &row).context("writing the ruleset")?;
    Ok(())
}

/// Writes `doc` into the database behind `conn` in one transaction: all of it or nothing.
/// Refuses (changing nothing) when the campaign exists, unless `options.replace`.
pub fn import_document(
    conn: &mut Db,
    doc: &Document,
    options: ImportOptions,
) -> anyhow::Result<ImportSummary> {
    match conn {
        Db::Pg(_) => conn.transaction(|conn| write_document(conn, doc, options)),
        // `BEGIN IMMEDIATE` takes the write lock before the first read: a deferred transaction
        // that reads and then writes fails outright (SQLITE_BUSY_SNAPSHOT) when a running server
        // commits in between, whereas waiting for the lock is covered by the busy timeout.
        Db::Sqlite(_) => {
            conn.batch_execute("BEGIN IMMEDIATE")
                .context("starting the import transaction")?;
            let written = write_document(conn, doc, options).and_then(|summary| {
                conn.batch_execute("COMMIT")
                    .context("committing the import")?;
                Ok(summary)
            });
            if written.is_err() {
                // Nothing to undo if BEGIN's transaction already ended; the error that matters
                // is the one being returned.
                let _ = conn.batch_execute("ROLLBACK");
            }
            written
        }
    }
}

fn write_document(
    conn: &mut Db,
    doc: &Document,
    options: ImportOptions,
) -> anyhow::Result<ImportSummary> {
    let id = doc.campaign.id.as_str();
    check_against_database(conn, doc, options)?;
    let existing = store::campaigns::find_by_id(conn, id).context("looking for the campaign")?;
    let replaced = match existing {
        Some(existing) if !options.replace => bail!(
            "campaign {id} (\"{}\") already exists in this database; nothing was imported \
             (pass --replace to replace it and everything it owns)",
            existing.name
        ),
        Some(_) => {
            // Memberships, invitations, keys, forces (with history, ledger and aftermaths) and
            // battles go with it: their foreign keys cascade.
            diesel::delete(campaigns::table.find(id))
                .execute(conn)
                .context("deleting the campaign being replaced")?;
            true
        }
        None => false,
    };

    let mut matched_accounts = Vec::new();
    let mut created_accounts = Vec::new();
    let mut user_map: BTreeMap<&str, String> = BTreeMap::new();
    for user in &doc.users {
        let target =
            match users::find_by_username(conn, &user.username).context("looking up accounts")? {
                Some(found) => {
                    matched_accounts.push(found.username);
                    found.id
                }
                None => {
                    let id_taken = users::find_by_id(conn, &user.id)
                        .context("looking up accounts")?
                        .is_some();
                    let new = users::User {
                        id: if id_taken {
                            store::new_id()
                        } else {
                            user.id.clone()
                        },
                        username: user.username.clone(),
                        username_lower: user.username.to_lowercase(),
                        password_hash: unusable_password_hash()?,
                        created_at: user.created_at,
                        display_name: user.display_name.clone(),
                    };
                    users::insert(conn, &new)
                        .with_context(|| format!("creating account {}", user.username))?;
                    created_accounts.push(new.username);
                    new.id
                }
            };
        user_map.insert(user.id.as_str(), target);
    }
    let map = |id: &str| -> anyhow::Result<String> {
        user_map
            .get(id)
            .cloned()
            .ok_or_else(|| anyhow!("account {id} is not in `users`"))
    };
    let map_opt = |id: &Option<String>| -> anyhow::Result<Option<String>> {
        id.as_deref().map(map).transpose()
    };

    let mut campaign = doc.campaign.clone();
    campaign.created_by = map(&campaign.created_by)?;
    write_ruleset(conn, doc, &campaign.created_by)?;
    diesel::insert_into(campaigns::table)
        .values(&campaign)
        .execute(conn)
        .context("writing the campaign")?;

    for row in &doc.memberships {
        let mut row = row.clone();
        row.user_id = map(&row.user_id)?;
        diesel::insert_into(memberships::table)
            .values(&row)
            .execute(conn)
            .context("writing memberships")?;
    }
    for row in &doc.invites {
        let mut row = row.clone();
        row.created_by = map(&row.created_by)?;
        diesel::insert_into(invites::table)
            .values(&row)
            .execute(conn)
            .context("writing invitations")?;
    }
    for row in &doc.forces {
        let mut row = row.clone();
        row.owner_id = map(&row.owner_id)?;
        diesel::insert_into(forces::table)
            .values(&row)
            .execute(conn)
            .with_context(|| format!("writing force {}", row.id))?;
    }
    for row in &doc.force_history {
        let mut row = row.clone();
        row.actor_id = map_opt(&row.actor_id)?;
        diesel::insert_into(force_history::table)
            .values(&row)
            .execute(conn)
            .context("writing force history")?;
    }
    for row in &doc.force_ledger {
        let mut row = row.clone();
        row.actor_id = map_opt(&row.actor_id)?;
        diesel::insert_into(force_ledger::table)
            .values(&row)
            .execute(conn)
            .context("writing ledgers")?;
    }
    for row in &doc.battles {
        let mut row = row.clone();
        row.created_by = map(&row.created_by)?;
        row.result_by = map_opt(&row.result_by)?;
        row.confirmed_by = map_opt(&row.confirmed_by)?;
        row.corrections = map_corrections(&row.corrections, &map)?;
        diesel::insert_into(battles::table)
            .values(&row)
            .execute(conn)
            .with_context(|| format!("writing battle {}", row.id))?;
    }
    for row in &doc.battle_aftermaths {
        diesel::insert_into(battle_aftermaths::table)
            .values(row)
            .execute(conn)
            .context("writing aftermaths")?;
    }
    for row in &doc.battle_scenarios {
        diesel::insert_into(battle_scenarios::table)
            .values(row)
            .execute(conn)
            .context("writing battle scenarios")?;
    }
    for row in &doc.solo_states {
        diesel::insert_into(solo_states::table)
            .values(row)
            .execute(conn)
            .context("writing solo play")?;
    }
    let mut scenario_rows = 0;
    for row in &doc.scenarios {
        let mut row = row.clone();
        row.created_by = row.created_by.as_deref().map(&map).transpose()?;
        if write_scenario(conn, &row, options.replace)? {
            scenario_rows += 1;
        }
    }

    Ok(ImportSummary {
        campaign_id: doc.campaign.id.clone(),
        campaign_name: doc.campaign.name.clone(),
        replaced,
        matched_accounts,
        created_accounts,
        rows: vec![
            ("memberships", doc.memberships.len()),
            ("invites", doc.invites.len()),
            ("forces", doc.forces.len()),
            ("force_history", doc.force_history.len()),
            ("force_ledger", doc.force_ledger.len()),
            ("battles", doc.battles.len()),
            ("battle_aftermaths", doc.battle_aftermaths.len()),
            ("battle_scenarios", doc.battle_scenarios.len()),
            ("scenarios", scenario_rows),
            ("solo_states", doc.solo_states.len()),
        ],
    })
}

/// Checks, before anything is written, that the document touches nothing of this database but
/// its own campaign: a force, battle or invitation id that exists must be the campaign's own
/// (else it belongs to another campaign), and a one-shot scenario already stored with other
/// content may be replaced only when `--replace` is given, its creator is the account the
/// document's creator is matched to, and it uses a force of this campaign. (The database's
/// keys would refuse most of these too, but only half-way and with a less useful message.)
fn check_against_database(
    conn: &mut Db,
    doc: &Document,
    options: ImportOptions,
) -> anyhow::Result<()> {
    let campaign_id = doc.campaign.id.as_str();
    let owned_elsewhere = |found: Vec<(String, String)>, what: &str| -> anyhow::Result<()> {
        match found.into_iter().find(|(_, owner)| owner != campaign_id) {
            Some((id, _)) => bail!(
                "{what} {id} of the document belongs to another campaign in this database; \
                 nothing was imported"
            ),
            None => Ok(()),
        }
    };
    let force_ids: Vec<&str> = doc.forces.iter().map(|f| f.id.as_str()).collect();
    let found = forces::table
        .filter(forces::id.eq_any(&force_ids))
        .select((forces::id, forces::campaign_id))
        .load(conn)
        .context("reading forces")?;
    owned_elsewhere(found, "force")?;
    let battle_ids: Vec<&str> = doc.battles.iter().map(|b| b.id.as_str()).collect();
    let found = battles::table
        .filter(battles::id.eq_any(&battle_ids))
        .select((battles::id, battles::campaign_id))
        .load(conn)
        .context("reading battles")?;
    owned_elsewhere(found, "battle")?;
    let invite_ids: Vec<&str> = doc.invites.iter().map(|i| i.id.as_str()).collect();
    let found = invites::table
        .filter(invites::id.eq_any(&invite_ids))
        .select((invites::id, invites::campaign_id))
        .load(conn)
        .context("reading invitations")?;
    owned_elsewhere(found, "invitation")?;

    // The accounts the document's creators are matched to (an account created by the import
    // owns nothing yet).
    let mut matched: BTreeMap<&str, String> = BTreeMap::new();
    for user in &doc.users {
        if let Some(found) =
            users::find_by_username(conn, &user.username).context("looking up accounts")?
        {
            matched.insert(user.id.as_str(), found.id);
        }
    }
    let campaign_forces: BTreeSet<&str> = force_ids.iter().copied().collect();
    for row in &doc.scenarios {
        let existing: Option<ScenarioRecord> = scenarios::table
            .find(&row.id)
            .select(ScenarioRecord::as_select())
            .first(conn)
            .optional()
            .context("reading scenarios")?;
        let Some(existing) = existing else { continue };
        let creator = row
            .created_by
            .as_deref()
            .and_then(|id| matched.get(id))
            .cloned();
        let mut mapped = row.clone();
        mapped.created_by.clone_from(&creator);
        if existing == mapped {
            continue;
        }
        if !options.replace {
            bail!(
                "scenario {} already exists in this database with other content; nothing was \
                 imported (pass --replace to overwrite it)",
                row.id
            );
        }
        let same_creator = creator.is_some() && existing.created_by == creator;
        if !same_creator || !uses_a_force_of(&existing, &campaign_forces) {
            bail!(
                "scenario {} exists in this database but is not this campaign's (another \
                 account's, or it uses none of the campaign's forces); --replace replaces only \
                 the campaign's own rows, so nothing was imported",
                row.id
            );
        }
    }
    Ok(())
}

/// Whether a stored one-shot scenario used one of `forces` (unreadable: no).
fn uses_a_force_of(row: &ScenarioRecord, forces: &BTreeSet<&str>) -> bool {
    doc::decode::<ScenarioDocument>(&row.document).is_ok_and(|document| {
        document
            .forces
            .iter()
            .any(|f| f.stored && forces.contains(f.force_id.as_str()))
    })
}

/// The corrections JSON with each organiser (`by`) mapped to the target's account. Unchanged
/// text when no id changes, so a move into a fresh database stays byte-for-byte.
fn map_corrections(
    text: &str,
    map: &impl Fn(&str) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let mut corrections: Vec<Correction> =
        serde_json::from_str(text).context("reading battle corrections")?;
    let mut changed = false;
    for correction in &mut corrections {
        let target = map(&correction.by)?;
        if target != correction.by {
            correction.by = target;
            changed = true;
        }
    }
    if !changed {
        return Ok(text.to_owned());
    }
    serde_json::to_string(&corrections).context("writing battle corrections")
}

/// Writes a one-shot scenario; returns whether a row was written. Scenarios belong to their
/// creator, so one may already be there (exported with another campaign it also used): the
/// same row is left as it is; a different row with the same id is an error unless replacing.
fn write_scenario(conn: &mut Db, row: &ScenarioRecord, replace: bool) -> anyhow::Result<bool> {
    let existing: Option<ScenarioRecord> = scenarios::table
        .find(&row.id)
        .select(ScenarioRecord::as_select())
        .first(conn)
        .optional()
        .context("reading scenarios")?;
    match existing {
        Some(existing) if existing == *row => return Ok(false),
        Some(_) if !replace => bail!(
            "scenario {} already exists in this database with other content; nothing was \
             imported (pass --replace to overwrite it)",
            row.id
        ),
        Some(_) => {
            diesel::delete(scenarios::table.find(&row.id))
                .execute(conn)
                .context("deleting a scenario being replaced")?;
        }
        None => {}
    }
    diesel::insert_into(scenarios::table)
        .values(row)
        .execute(conn)
        .with_context(|| format!("writing scenario {}", row.id))?;
    Ok(true)
}

/// The Argon2 hash of 32 random bytes nobody ever sees: a well-formed hash (login takes the
/// usual time and fails) that no password matches.
fn unusable_password_hash() -> anyhow::Result<String> {
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| anyhow!("no system randomness: {e}"))?;
    Ok(hash_password(&hex::encode(secret))?)
}
