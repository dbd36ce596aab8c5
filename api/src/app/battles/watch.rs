//! What a viewer of a battle can see has changed: a short signature of the versions that move
//! exactly when something this viewer sees moves, for the battle page's live updates.
//!
//! The parts: the battle row's `version` (moves with every public change: results, corrections,
//! public scenario steps; never with a side's secret choice, see
//! [`super::lock_battle_quietly`]), the viewer's own scenario version
//! ([`super::scenario::versions`]: a side's secret choice bumps only that side's and the
//! referee's counters) and each post-battle sequence's stage and version (public to members).
//! A shared counter would tell the opponent that a secret choice was made; these do not.
//!
//! Also the live streams' slots ([`StreamSlots`]): capped per process, per account and per
//! client address, so one account cannot take every stream.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};

use crate::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::store::aftermath as rows;

use fad_domain::scenario::Viewer;
use serde::{Deserialize, Serialize};

use super::scenario::read::{Seen, seen_by};
use super::scenario::versions::ViewVersions;

/// What one viewer of a battle watches: their signature now, and which viewer they are (what
/// [`BattleSight::signature`] picks for them at the battle's next change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watched {
    /// The signature of what they see now.
    pub signature: String,
    /// Their sight of the battle's scenario.
    pub viewer: Viewer,
}

/// The signature of what `caller` sees of battle `battle_id` now (members of its campaign; 404
/// for anyone else, as the battle read).
pub async fn view_signature(
    state: &AppState,
    caller: Caller,
    battle_id: String,
) -> Result<Watched, ApiError> {
    state
        .db
        .read(move |conn| {
            // Authorizes as the battle read does (404 for anyone but members). No stored
            // scenario reads as version 0, the same as a stored one this viewer has seen
            // nothing of: the first secret choice stores the row. Read the same way in both
            // cases, so the time taken tells nothing either.
            let seen = seen_by(conn, &caller, &battle_id, None)?;
            Ok(Watched {
                signature: signature_of(conn, &seen)?,
                viewer: seen.viewer,
            })
        })
        .await
}

/// The signature of what `seen`'s viewer sees, inside the transaction that read `seen`.
pub fn signature_of(conn: &mut crate::db::Db, seen: &Seen) -> Result<String, ApiError> {
    Ok(signature(
        seen.battle_version,
        seen.version,
        &aftermath_part(conn, &seen.battle_id)?,
    ))
}

/// The signature's text: the battle's public version, the viewer's own scenario version, the
/// post-battle sequences' stages and versions.
fn signature(battle_version: i64, own_version: i64, aftermath: &str) -> String {
    format!("b{battle_version}.{own_version}.{aftermath}")
}

/// The signature of what `seen`'s viewer sees, from the battle's sequence stages already read
/// in the same transaction.
pub fn signature_with_stages(seen: &Seen, stages: &[rows::SequenceStage]) -> String {
    signature(seen.battle_version, seen.version, &stages_part(stages))
}

/// The post-battle sequences' part of a signature: stages and versions only, no documents
/// read or decoded.
fn aftermath_part(conn: &mut crate::db::Db, battle_id: &str) -> Result<String, ApiError> {
    Ok(stages_part(&rows::stages_for_battle(conn, battle_id)?))
}

fn stages_part(stages: &[rows::SequenceStage]) -> String {
    stages
        .iter()
        .map(|r| format!("{}:{}", r.stage.as_str(), r.version))
        .collect::<Vec<_>>()
        .join(",")
}

/// Every viewer's versions of a battle at one moment: read once when the battle changes and
/// shared by all its open streams, each of which then picks its own viewer's signature. It holds
/// every side's version, so it never leaves the server: only [`BattleSight::signature`] of the
/// stream's own viewer is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleSight {
    battle_version: i64,
    /// Each viewer's scenario version (`None`: no scenario stored, every viewer at 0).
    scenario: Option<ViewVersions>,
    aftermath: String,
}

impl BattleSight {
    /// The signature `viewer` sees (as [`view_signature`] gives it).
    pub fn signature(&self, viewer: Viewer) -> String {
        let own = self.scenario.map_or(0, |v| v.of(viewer));
        signature(self.battle_version, own, &self.aftermath)
    }
}

/// Only the per-viewer versions of a stored scenario document: the rest of it is skipped, not
/// decoded into the machine state.
#[derive(Debug, Serialize, Deserialize)]
struct VersionsOnly {
    #[serde(default)]
    view_versions: Option<ViewVersions>,
}

impl crate::store::doc::StoredDoc for VersionsOnly {
    const KIND: &'static str = "battle scenario versions";
}

/// What every viewer of battle `battle_id` sees now, in one read (`None`: the battle is gone).
/// No access check: only for streams whose viewer passed [`view_signature`]'s, and whose
/// access, when it changes, wakes them through their owner (they then check again).
pub async fn battle_sight(
    state: &AppState,
    battle_id: String,
) -> Result<Option<BattleSight>, ApiError> {
    state
        .db
        .read(move |conn| {
            let Some(battle) = crate::store::battles::find_by_id(conn, &battle_id)? else {
                return Ok(None);
            };
            let scenario = crate::store::battle_scenarios::find::<VersionsOnly>(conn, &battle_id)?
                .map(|row| {
                    row.document
                        .view_versions
                        .unwrap_or_else(|| ViewVersions::all(row.version))
                });
            Ok(Some(BattleSight {
                battle_version: battle.version,
                scenario,
                aftermath: aftermath_part(conn, &battle_id)?,
            }))
        })
        .await
}

/// Caps on open live streams (`FAD_MAX_STREAMS*`): the whole process, one account, one
/// client address (an IPv6 address counts by its /64, which one subscriber usually holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams the process serves at once.
    pub total: usize,
    /// Streams one account may hold open.
    pub per_account: usize,
    /// Streams one client address may hold open.
    pub per_address: usize,
}

/// Why a stream was not opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamRefusal {
    /// Every slot of the process is taken.
    Full,
    /// This account holds its cap.
    Account,
    /// This address holds its cap.
    Address,
}

/// Who holds how many open streams.
#[derive(Debug, Default)]
struct Holders {
    total: usize,
    accounts: HashMap<String, usize>,
    addresses: HashMap<IpAddr, usize>,
}

impl Holders {
    fn release(&mut self, account: &str, address: IpAddr) {
        self.total = self.total.saturating_sub(1);
        release_one(&mut self.accounts, account);
        release_one(&mut self.addresses, &address);
    }
}

/// One fewer for `key`; the entry goes when none is left (the maps stay as small as the set
/// of holders).
fn release_one<K, Q>(counts: &mut HashMap<K, usize>, key: &Q)
where
    K: std::borrow::Borrow<Q> + Eq + std::hash::Hash,
    Q: Eq + std::hash::Hash + ?Sized,
{
    if let Some(n) = counts.get_mut(key) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            counts.remove(key);
        }
    }
}

/// The live-stream slots of the process, shared by every worker.
#[derive(Debug, Clone)]
pub struct StreamSlots {
    limits: StreamLimits,
    holders: Arc<Mutex<Holders>>,
}

impl StreamSlots {
    /// Empty slots under `limits`.
    pub fn new(limits: StreamLimits) -> Self {
        Self {
            limits,
            holders: Arc::default(),
        }
    }

    /// A slot for `account` at `address`, or why not. The slot is given back when the
    /// returned [`StreamSlot`] is dropped (the stream ended or the browser went away).
    pub fn take(&self, account: &str, address: IpAddr) -> Result<StreamSlot, StreamRefusal> {
        let address = address_key(address);
        let mut holders = lock(&self.holders);
        let by_account = holders.accounts.get(account).copied().unwrap_or(0);
        let by_address = holders.addresses.get(&address).copied().unwrap_or(0);
        if by_account >= self.limits.per_account {
            return Err(StreamRefusal::Account);
        }
        if by_address >= self.limits.per_address {
            return Err(StreamRefusal::Address);
        }
        if holders.total >= self.limits.total {
            return Err(StreamRefusal::Full);
        }
        holders.total += 1;
        *holders.accounts.entry(account.to_owned()).or_default() += 1;
        *holders.addresses.entry(address).or_default() += 1;
        Ok(StreamSlot {
            holders: Arc::clone(&self.holders),
            account: account.to_owned(),
            address,
        })
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        lock(&self.holders).total
    }
}

/// The address a cap counts: an IPv4 address (also inside IPv6) as it is, an IPv6 address by
/// its /64.
fn address_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(Ipv6Addr::from(segments))
            }
        },
    }
}

/// The counts, even if a holder panicked while holding the lock (they stay consistent: every
/// change is one step).
fn lock(holders: &Mutex<Holders>) -> std::sync::MutexGuard<'_, Holders> {
    holders.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One open stream's slot; dropping it gives the slot back.
#[derive(Debug)]
pub struct StreamSlot {
    holders: Arc<Mutex<Holders>>,
    account: String,
    address: IpAddr,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        lock(&self.holders).release(&self.account, self.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: StreamLimits = StreamLimits {
        total: 3,
        per_account: 2,
        per_address: 2,
    };

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, last))
    }

    #[test]
    fn an_account_at_its_cap_is_refused_while_another_gets_a_slot() {
        let slots = StreamSlots::new(LIMITS);
        let first = slots.take("a", v4(1)).unwrap();
        let _second = slots.take("a", v4(2)).unwrap();
        assert_eq!(slots.take("a", v4(3)).unwrap_err(), StreamRefusal::Account);
        let _other = slots.take("b", v4(3)).unwrap();
        assert_eq!(slots.take("c", v4(4)).unwrap_err(), StreamRefusal::Full);
        drop(first);
        assert_eq!(slots.open(), 2);
        assert!(
            slots.take("a", v4(4)).is_ok(),
            "a dropped slot is free again"
        );
    }

    #[test]
    fn an_address_counts_across_accounts_and_ipv6_by_its_64() {
        let slots = StreamSlots::new(LIMITS);
        let one: IpAddr = "2001:db8::1".parse().unwrap();
        let two: IpAddr = "2001:db8::2:3".parse().unwrap();
        let _a = slots.take("a", one).unwrap();
        let _b = slots.take("b", two).unwrap();
        assert_eq!(slots.take("c", one).unwrap_err(), StreamRefusal::Address);
        let mapped: IpAddr = "::ffff:192.0.2.9".parse().unwrap();
        let _c = slots.take("c", mapped).unwrap();
        assert_eq!(address_key(mapped), v4(9));
    }
}
