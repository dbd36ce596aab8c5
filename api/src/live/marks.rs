//! What the running transaction touched, for SQLite's in-process wakes: the store marks a
//! battle (or an owner whose credential ended) as it writes, and the database layer takes the
//! marks when the transaction is over ([`take`]) and wakes the hub only if it committed.
//!
//! A transaction runs on one thread from `BEGIN` to `COMMIT`, so the marks are the thread's.
//! On PostgreSQL the same writes notify through triggers; the marks are then dropped unused.

use std::cell::RefCell;

use super::Key;

thread_local! {
    static MARKED: RefCell<Vec<Key>> = const { RefCell::new(Vec::new()) };
}

fn mark(key: Key) {
    MARKED.with(|marked| {
        let mut marked = marked.borrow_mut();
        if !marked.contains(&key) {
            marked.push(key);
        }
    });
}

/// Battle `battle_id` changed in what its viewers may see.
pub fn battle(battle_id: &str) {
    mark(Key::Battle(battle_id.to_owned()));
}

/// A credential of `owner_id` (an account or an integration key) ended.
pub fn owner(owner_id: &str) {
    mark(Key::Owner(owner_id.to_owned()));
}

/// The marks made on this thread since the last `take`, clearing them.
pub fn take() -> Vec<Key> {
    MARKED.with(|marked| std::mem::take(&mut *marked.borrow_mut()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_taken_once_and_without_repeats() {
        take();
        battle("b1");
        battle("b1");
        owner("u1");
        assert_eq!(
            take(),
            vec![Key::Battle("b1".to_owned()), Key::Owner("u1".to_owned())]
        );
        assert!(take().is_empty());
    }
}
