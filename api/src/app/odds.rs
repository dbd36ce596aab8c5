//! Exact mission odds for one side's picks (docs/rules.md §3.5, S8, S9), computed by the rules
//! crate ([`fad_domain::odds`]) once per distinct query and kept: the JSON endpoint and the
//! battle page's odds chart both read them here.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use fad_domain::odds::{MissionOdds, OddsQuery, mission_odds};

/// The odds for `query` (at most 3 × 3 × 29 distinct queries, each computed on first use).
/// Blocking: the first computation enumerates every dice outcome, so call it off the async
/// workers (`web::block`).
pub fn cached_odds(query: OddsQuery) -> MissionOdds {
    static CACHE: OnceLock<Mutex<HashMap<OddsQuery, MissionOdds>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    // A poisoned lock only means another computation panicked; the map is still valid.
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&query) {
        return hit.clone();
    }
    let odds = mission_odds(query);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(query, odds.clone());
    odds
}
