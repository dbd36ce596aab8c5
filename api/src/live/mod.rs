//! Live updates pushed, not polled: a committed change wakes the open streams of the battle it
//! touched (and of the account whose credential it ended), in this process and in every other
//! process on the same PostgreSQL database.
//!
//! - [`hub`]: the streams of this process wait on their battle's wake, keyed by battle id.
//! - PostgreSQL: triggers on the tables a viewer's signature reads call `pg_notify` (delivered
//!   at commit, to every process); one listener connection per process ([`listen`]) feeds the
//!   hub, and wakes every stream once when it reconnects (a notification may have been lost).
//! - SQLite (one process per database file): the store marks what a transaction touched
//!   ([`marks`]) and the database layer wakes the hub once the transaction has committed.
//!
//! A wake says only "look again": each stream then reads its own viewer's signature, so a
//! side's secret choice still tells the opponent nothing.

pub mod files;
pub mod hub;
pub mod listen;
pub mod marks;

pub use hub::{Hub, Key, Subscription, Woken};
