//! Battle pages: the battle page and its live stream, starting a battle, its forms, the result and
//! the post-battle sequence, solo play, dice verification.

pub mod aftermath;
pub mod aftermath_steps;
pub mod dice;
pub mod events;
pub mod new;
pub mod page;
pub mod result;
pub mod solo;
pub mod steps;
pub mod table;
