//! The accounts this process has seen exist, so that a valid access token costs one look-up per
//! account rather than one per request.
//!
//! Accounts are never deleted while the service runs (no endpoint or command removes one), so a
//! positive answer stays true. A database restored from a backup is served by a new process,
//! which starts with an empty set: tokens of accounts the backup lacks get 401.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// At most this many ids are remembered; the set starts over when full (each forgotten account
/// costs one more look-up).
const CAPACITY: usize = 10_000;

/// A bounded set of account ids known to exist.
#[derive(Debug, Clone, Default)]
pub struct KnownAccounts(Arc<Mutex<HashSet<String>>>);

impl KnownAccounts {
    /// Whether `user_id` was seen to exist.
    pub fn contains(&self, user_id: &str) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(user_id)
    }

    /// Remembers that `user_id` exists.
    pub fn insert(&self, user_id: &str) {
        let mut set = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if set.len() >= CAPACITY {
            set.clear();
        }
        set.insert(user_id.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_ids_and_starts_over_when_full() {
        let known = KnownAccounts::default();
        assert!(!known.contains("a"));
        known.insert("a");
        assert!(known.contains("a"));
        for i in 0..CAPACITY {
            known.insert(&i.to_string());
        }
        assert!(!known.contains("a"));
        assert!(known.contains(&(CAPACITY - 1).to_string()));
    }
}
