//! Player names on battles: each player side's `owner_name`, for every battle of a response in
//! one statement (no look-up per battle or side), and the ruleset each is played under.

use std::collections::HashMap;

use crate::db::Db;
use crate::error::ApiError;
use crate::store::{forces, users};

use super::BattleResponse;

/// Fills `owner_name` on the player sides of `battles`, and each battle's `ruleset` (its
/// campaign's: read once per campaign, and a response's battles share one).
pub fn name_sides(conn: &mut Db, battles: &mut [BattleResponse]) -> Result<(), ApiError> {
    let mut pins: HashMap<String, fad_domain::rulesets::RulesetPin> = HashMap::new();
    for battle in battles.iter_mut() {
        if !pins.contains_key(&battle.campaign_id) {
            let pin = crate::store::campaigns::ruleset_pin(conn, &battle.campaign_id)?;
            pins.insert(battle.campaign_id.clone(), pin);
        }
        battle.ruleset = pins[&battle.campaign_id].clone();
    }
    let ids: Vec<&str> = battles
        .iter()
        .flat_map(|b| b.sides.iter().filter_map(|s| s.force_id.as_deref()))
        .collect();
    let names: HashMap<String, String> = forces::owner_names(conn, &ids)?
        .into_iter()
        .map(|(id, (username, display_name))| (id, users::shown(username, display_name)))
        .collect();
    for side in battles.iter_mut().flat_map(|b| b.sides.iter_mut()) {
        side.owner_name = side.force_id.as_ref().and_then(|id| names.get(id).cloned());
    }
    Ok(())
}
