//! The names and links of an event, filled in when it is appended: a bot posting "your turn"
//! needs the campaign's, forces' and owners' names and a page to open, not ids alone. Only
//! what a campaign's integration key may read is filled in (names shown on the campaign page),
//! never a side's secret.

use std::collections::HashMap;

use diesel::prelude::*;

use crate::db::Db;
use crate::schema::{battles, campaigns, forces, users, webhooks};
use crate::store::events::{EventData, EventForce, EventLinks};
use crate::store::users::shown;

/// Name a non-player side has when its set-up gave none.
const NON_PLAYER_NAME: &str = "Non-player force";

/// A force's name and its owner's shown name, by force id.
fn force_names(conn: &mut Db, ids: &[&str]) -> QueryResult<HashMap<String, (String, String)>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, String, String, Option<String>)> =
        crate::on_backend!(conn, |conn| forces::table
            .inner_join(users::table.on(users::id.eq(forces::owner_id)))
            .filter(forces::id.eq_any(ids))
            .select((
                forces::id,
                forces::name,
                users::username,
                users::display_name,
            ))
            .load(conn))?;
    Ok(rows
        .into_iter()
        .map(|(id, name, username, display)| (id, (name, shown(username, display))))
        .collect())
}

/// What an append reads of the event's campaign and battle, in one statement.
struct Context {
    /// The campaign's name and settings (`None`: the campaign is gone).
    campaign: Option<(String, String)>,
    /// The battle's sides as stored.
    sides: Option<String>,
    /// Whether an enabled webhook of the campaign may want the event.
    listened: bool,
}

fn context(conn: &mut Db, campaign_id: &str, battle_id: Option<&str>) -> QueryResult<Context> {
    let campaign = || campaigns::table.filter(campaigns::id.eq(campaign_id));
    let (name, settings, sides, listened): (Option<String>, Option<String>, Option<String>, bool) =
        crate::on_backend!(conn, |conn| diesel::select((
            campaign().select(campaigns::name).single_value(),
            campaign().select(campaigns::settings).single_value(),
            battles::table
                .filter(battles::id.eq(battle_id.unwrap_or_default()))
                .select(battles::sides)
                .single_value(),
            diesel::dsl::exists(
                webhooks::table
                    .filter(webhooks::campaign_id.eq(campaign_id))
                    .filter(webhooks::disabled_at.is_null()),
            ),
        ))
        .get_result(conn))?;
    Ok(Context {
        campaign: name.zip(settings),
        sides: battle_id.and(sides),
        listened,
    })
}

/// The battle's sides as stored: a player side's force id or a non-player side's name. Only
/// `force_id` and `non_player.name` are read; a non-player side's stance stays unread.
fn battle_sides(sides: Option<&str>) -> Vec<(Option<String>, String)> {
    let parsed: Vec<serde_json::Value> = sides
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default();
    parsed
        .iter()
        .map(|side| {
            let force = side["force_id"].as_str().map(str::to_owned);
            let name = side["non_player"]["name"]
                .as_str()
                .unwrap_or(NON_PLAYER_NAME)
                .to_owned();
            (force, name)
        })
        .collect()
}

/// Fills the names and links of `data` from the database (inside the appending transaction);
/// answers whether an enabled webhook of the campaign may want the event (read on the way).
pub fn fill(conn: &mut Db, data: &mut EventData) -> QueryResult<bool> {
    let Context {
        campaign,
        sides,
        listened,
    } = context(conn, &data.campaign_id, data.battle_id.as_deref())?;
    if let Some((name, settings)) = campaign {
        data.campaign_name = Some(name);
        data.ruleset = Some(
            serde_json::from_str::<crate::store::campaigns::CampaignSettings>(&settings)
                .map(|s| s.ruleset)
                .unwrap_or_default(),
        );
    }
    let sides = battle_sides(sides.as_deref());
    let mut ids: Vec<&str> = sides.iter().filter_map(|(f, _)| f.as_deref()).collect();
    if let Some(force) = data.force_id.as_deref() {
        ids.push(force);
    }
    let waiting: Vec<String> = data
        .waiting_for
        .iter()
        .flatten()
        .filter_map(|w| w.force_id.clone())
        .collect();
    ids.extend(waiting.iter().map(String::as_str));
    let names = force_names(conn, &ids)?;
    let named = |id: &str| EventForce {
        force_id: Some(id.to_owned()),
        force_name: names.get(id).map(|n| n.0.clone()).unwrap_or_default(),
        owner_name: names.get(id).map(|n| n.1.clone()),
        non_player: false,
    };
    data.sides = sides
        .iter()
        .map(|(force, name)| match force {
            Some(id) => named(id),
            None => EventForce {
                force_name: name.clone(),
                non_player: true,
                ..EventForce::default()
            },
        })
        .collect();
    if let Some(waiting) = data.waiting_for.as_mut() {
        for side in waiting.iter_mut() {
            if let Some(id) = side.force_id.clone() {
                *side = named(&id);
            }
        }
    }
    if let Some((name, owner)) = data.force_id.as_deref().and_then(|id| names.get(id)) {
        data.force_name = Some(name.clone());
        data.owner_name = Some(owner.clone());
    }
    if let Some(user) = data.user_id.as_deref() {
        let found: Option<(String, Option<String>)> = users::table
            .filter(users::id.eq(user))
            .select((users::username, users::display_name))
            .first(conn)
            .optional()?;
        data.member_name = found.map(|(u, d)| shown(u, d));
    }
    data.links = Some(EventLinks::paths(data));
    Ok(listened)
}
