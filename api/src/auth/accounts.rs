//! The accounts this process has seen, with their credentials generation
//! (`users.credentials_version`), so that a valid access token costs one look-up per account
//! and [`RECHECK`] rather than one per request.
//!
//! An entry is trusted for [`RECHECK`] only: a password changed through another process of the
//! service refuses the account's older tokens here within that time (the process that changed
//! it updates its own entry at once). Accounts are never deleted while the service runs; a
//! database restored from a backup is served by a new process, which starts empty: tokens of
//! accounts the backup lacks get 401.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a remembered generation is trusted before the database is asked again.
pub const RECHECK: Duration = Duration::from_secs(1);

/// At most this many accounts are remembered; the map starts over when full (each forgotten
/// account costs one more look-up).
const CAPACITY: usize = 10_000;

/// A bounded map of account ids known to exist, with their credentials generation.
#[derive(Debug, Clone, Default)]
pub struct KnownAccounts(Arc<Mutex<HashMap<String, (i64, Instant)>>>);

impl KnownAccounts {
    /// The credentials generation of `user_id`, if it was read within [`RECHECK`].
    pub fn version(&self, user_id: &str) -> Option<i64> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(user_id)
            .filter(|(_, seen)| seen.elapsed() < RECHECK)
            .map(|(version, _)| *version)
    }

    /// Remembers that `user_id` exists with credentials generation `version`, as of now.
    pub fn insert(&self, user_id: &str, version: i64) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CAPACITY {
            map.clear();
        }
        map.insert(user_id.to_owned(), (version, Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_versions_and_starts_over_when_full() {
        let known = KnownAccounts::default();
        assert_eq!(known.version("a"), None);
        known.insert("a", 3);
        assert_eq!(known.version("a"), Some(3));
        known.insert("a", 4);
        assert_eq!(known.version("a"), Some(4));
        for i in 0..CAPACITY {
            known.insert(&i.to_string(), 0);
        }
        assert_eq!(known.version("a"), None);
        assert_eq!(known.version(&(CAPACITY - 1).to_string()), Some(0));
    }

    #[test]
    fn a_remembered_version_expires_after_the_recheck_time() {
        let known = KnownAccounts::default();
        known.insert("a", 1);
        let stale = Instant::now()
            .checked_sub(RECHECK)
            .unwrap_or_else(Instant::now);
        known.0.lock().unwrap().get_mut("a").unwrap().1 = stale;
        assert_eq!(known.version("a"), None);
    }
}
