//! Campaign pages: the campaign itself, invitations, the organiser's settings, the timeline and
//! the public standings embed.

pub mod campaign;
pub mod invites;
pub mod settings;
pub mod standings_embed;
pub mod timeline;
