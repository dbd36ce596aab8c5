//! The wakes of one process: for each battle, and each account or integration key, that has an
//! open stream, a counter that moves when it changed. A stream holds receivers for its battle
//! and its credential's owner and sleeps until one moves; nothing polls.
//!
//! The streams a change wakes share one read of what changed ([`Subscription::shared`]): the
//! first to ask for a battle's wake makes it, the others wait for that one, so a change costs
//! one database read per battle however many pages watch it.

use std::any::Any;
use std::collections::HashMap;
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures_util::future::{Either, select};
use tokio::sync::{OnceCell, watch};

/// What a wake is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// Something a viewer of this battle may see changed (its row, scenario or post-battle
    /// sequences).
    Battle(String),
    /// A credential of this account (or integration key) ended: streams opened with it check
    /// that theirs still works.
    Owner(String),
}

/// The prefix of a battle's key in a notification's payload.
const BATTLE_PREFIX: &str = "b:";
/// The prefix of an owner's key in a notification's payload.
const OWNER_PREFIX: &str = "o:";

impl Key {
    /// The key a notification's payload names (`b:<battle id>` or `o:<owner id>`), if any.
    pub fn from_payload(payload: &str) -> Option<Self> {
        if let Some(id) = payload.strip_prefix(BATTLE_PREFIX) {
            return Some(Self::Battle(id.to_owned()));
        }
        payload
            .strip_prefix(OWNER_PREFIX)
            .map(|id| Self::Owner(id.to_owned()))
    }
}

/// The value a wake's streams share: made once, by the first stream to ask.
type SharedValue = Arc<dyn Any + Send + Sync>;

/// One key's wakes and the value its latest wake shares.
#[derive(Debug)]
struct Channel {
    /// Counts the wakes.
    sender: watch::Sender<u64>,
    /// The shared value and the wake it belongs to.
    shared: Option<(u64, SharedValue)>,
}

impl Channel {
    fn new() -> Self {
        Self {
            sender: watch::channel(0).0,
            shared: None,
        }
    }

    fn wake(&self) {
        self.sender.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// Every wake of the process, shared by the workers, the database layer and the listener.
#[derive(Debug, Clone, Default)]
pub struct Hub {
    keys: Arc<Mutex<HashMap<Key, Channel>>>,
}

impl Hub {
    /// Wakes the streams waiting on `key` (none: nothing to do, nothing kept).
    pub fn wake(&self, key: &Key) {
        if let Some(channel) = self.lock().get(key) {
            channel.wake();
        }
    }

    /// Wakes every stream once (a lost notification cannot be told apart from none).
    pub fn wake_all(&self) {
        for channel in self.lock().values() {
            channel.wake();
        }
    }

    /// Keys with a stream waiting on them now.
    pub fn keys(&self) -> usize {
        self.lock().len()
    }

    /// Waits on `battle` and `owner` until dropped.
    pub fn subscribe(&self, battle: Key, owner: Key) -> Subscription {
        let mut keys = self.lock();
        let mut receiver = |key: &Key| {
            keys.entry(key.clone())
                .or_insert_with(Channel::new)
                .sender
                .subscribe()
        };
        let mut battle_rx = receiver(&battle);
        let owner_rx = receiver(&owner);
        let battle_wake = *battle_rx.borrow_and_update();
        Subscription {
            hub: self.clone(),
            battle: (battle, battle_rx),
            owner: (owner, owner_rx),
            battle_wake,
        }
    }

    /// The cell every stream woken by wake `wake` of `key` shares; a stream behind a newer
    /// wake gets a cell of its own (its read is then as fresh as its own would have been).
    fn shared<T: Send + Sync + 'static>(&self, key: &Key, wake: u64) -> Arc<OnceCell<T>> {
        let mut keys = self.lock();
        let Some(channel) = keys.get_mut(key) else {
            return Arc::new(OnceCell::new());
        };
        if let Some((at, value)) = &channel.shared {
            if *at == wake {
                if let Ok(cell) = Arc::clone(value).downcast::<OnceCell<T>>() {
                    return cell;
                }
            } else if at.wrapping_sub(wake) < u64::MAX / 2 {
                // The latest shared value is newer than this stream's wake.
                return Arc::new(OnceCell::new());
            }
        }
        let cell = Arc::new(OnceCell::new());
        channel.shared = Some((wake, Arc::clone(&cell) as SharedValue));
        cell
    }

    /// The map, even after a panic while it was held (every change to it is one step).
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Channel>> {
        self.keys.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What woke a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Woken {
    /// The battle changed.
    pub battle: bool,
    /// A credential of the owner ended.
    pub owner: bool,
}

/// One stream's wait on its battle and its owner; the keys go when their last stream does.
#[derive(Debug)]
pub struct Subscription {
    hub: Hub,
    battle: (Key, watch::Receiver<u64>),
    owner: (Key, watch::Receiver<u64>),
    /// The battle's wake this stream saw last.
    battle_wake: u64,
}

impl Subscription {
    /// Waits until the battle or the owner is woken, at most `limit`; `None` when the time ran
    /// out. Wakes that came while the stream was busy are not lost: they answer at once.
    pub async fn wait(&mut self, limit: Duration) -> Option<Woken> {
        // `changed` marks what it saw as seen: which one answered is told by the select, the
        // other one is asked.
        let battle_first = {
            let battle = pin!(self.battle.1.changed());
            let owner = pin!(self.owner.1.changed());
            let timer = pin!(actix_web::rt::time::sleep(limit));
            match select(select(battle, owner), timer).await {
                Either::Left((Either::Left(_), _)) => true,
                Either::Left((Either::Right(_), _)) => false,
                Either::Right(_) => return None,
            }
        };
        let battle = battle_first || seen(&mut self.battle.1);
        self.battle_wake = *self.battle.1.borrow();
        Some(Woken {
            battle,
            owner: !battle_first || seen(&mut self.owner.1),
        })
    }

    /// The value the streams woken by the same change of this battle share (the first to ask
    /// makes it, see [`OnceCell::get_or_init`]; every later wake gets a new one).
    pub fn shared<T: Send + Sync + 'static>(&self) -> Arc<OnceCell<T>> {
        self.hub.shared(&self.battle.0, self.battle_wake)
    }
}

/// Whether `receiver` moved since last seen, marking it seen.
fn seen(receiver: &mut watch::Receiver<u64>) -> bool {
    // The sender lives in the hub as long as this receiver does, so `has_changed` errs only
    // while the process is stopping; count that as a wake, the stream then ends.
    let moved = receiver.has_changed().unwrap_or(true);
    receiver.borrow_and_update();
    moved
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut keys = self.hub.lock();
        for key in [&self.battle.0, &self.owner.0] {
            // This subscription's receivers are still alive here: one left means ours.
            if keys
                .get(key)
                .is_some_and(|c| c.sender.receiver_count() <= 1)
            {
                keys.remove(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use super::*;

    /// Runs `wait`, at most `limit`.
    async fn within<F: Future>(limit: Duration, wait: F) -> Option<F::Output> {
        let (wait, timer) = (pin!(wait), pin!(actix_web::rt::time::sleep(limit)));
        match select(wait, timer).await {
            Either::Left((out, _)) => Some(out),
            Either::Right(_) => None,
        }
    }

    fn battle(id: &str) -> Key {
        Key::Battle(id.to_owned())
    }

    fn owner(id: &str) -> Key {
        Key::Owner(id.to_owned())
    }

    #[actix_web::test]
    async fn a_stream_wakes_only_for_its_battle_or_owner() {
        let hub = Hub::default();
        let mut one = hub.subscribe(battle("b1"), owner("u1"));
        let mut two = hub.subscribe(battle("b2"), owner("u2"));
        hub.wake(&battle("b1"));
        let short = Duration::from_millis(50);
        assert_eq!(
            one.wait(short).await,
            Some(Woken {
                battle: true,
                owner: false
            })
        );
        assert_eq!(
            two.wait(short).await,
            None,
            "another battle's stream slept on"
        );
        hub.wake(&owner("u2"));
        assert_eq!(
            two.wait(short).await,
            Some(Woken {
                battle: false,
                owner: true
            })
        );
        assert_eq!(one.wait(short).await, None, "a wake is answered once");
    }

    #[actix_web::test]
    async fn a_wake_while_busy_is_kept_and_wake_all_reaches_everyone() {
        let hub = Hub::default();
        let mut one = hub.subscribe(battle("b1"), owner("u1"));
        let mut two = hub.subscribe(battle("b2"), owner("u1"));
        // Woken before it waits (the stream was reading): answered at once.
        hub.wake(&battle("b1"));
        hub.wake(&battle("b1"));
        let at_once = within(Duration::from_millis(20), one.wait(Duration::from_secs(5))).await;
        assert!(matches!(at_once, Some(Some(w)) if w.battle));
        hub.wake_all();
        assert!(one.wait(Duration::from_millis(50)).await.is_some());
        assert!(two.wait(Duration::from_millis(50)).await.is_some());
    }

    #[actix_web::test]
    async fn keys_go_with_their_last_stream() {
        let hub = Hub::default();
        let one = hub.subscribe(battle("b1"), owner("u1"));
        let two = hub.subscribe(battle("b1"), owner("u2"));
        assert_eq!(hub.keys(), 3);
        drop(one);
        assert_eq!(hub.keys(), 2, "b1 still has a stream, u1 none");
        drop(two);
        assert_eq!(hub.keys(), 0);
        hub.wake(&battle("b1"));
        assert_eq!(hub.keys(), 0, "a wake with nobody waiting keeps nothing");
    }

    #[actix_web::test]
    async fn the_streams_of_one_wake_share_one_value_and_a_later_wake_gets_a_new_one() {
        let hub = Hub::default();
        let mut one = hub.subscribe(battle("b1"), owner("u1"));
        let mut two = hub.subscribe(battle("b1"), owner("u2"));
        let mut other = hub.subscribe(battle("b2"), owner("u1"));
        hub.wake(&battle("b1"));
        hub.wake(&battle("b2"));
        let short = Duration::from_millis(50);
        for s in [&mut one, &mut two, &mut other] {
            assert!(s.wait(short).await.is_some());
        }
        let made = std::sync::atomic::AtomicUsize::new(0);
        let make = || async {
            made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            7_u32
        };
        assert_eq!(*one.shared::<u32>().get_or_init(make).await, 7);
        assert_eq!(*two.shared::<u32>().get_or_init(make).await, 7);
        assert_eq!(
            made.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "one read for b1"
        );
        assert!(
            other.shared::<u32>().get().is_none(),
            "b2 shares nothing with b1"
        );
        // A new wake: a new value. A stream still behind it gets a cell of its own.
        hub.wake(&battle("b1"));
        assert!(one.wait(short).await.is_some());
        assert!(one.shared::<u32>().get().is_none());
        one.shared::<u32>().get_or_init(make).await;
        let behind = hub.shared::<u32>(&battle("b1"), one.battle_wake.wrapping_sub(1));
        assert!(
            behind.get().is_none(),
            "an older wake never gets the newer value"
        );
    }

    #[test]
    fn payloads_name_a_battle_or_an_owner() {
        assert_eq!(Key::from_payload("b:abc"), Some(battle("abc")));
        assert_eq!(Key::from_payload("o:u-1"), Some(owner("u-1")));
        assert_eq!(Key::from_payload("x:abc"), None);
    }
}
