//! Force pages: the roster and its cards, adding, editing (the editor and its form), archiving,
//! history and ledger.

pub mod archive;
pub mod edit;
pub mod editor;
pub mod figure_form;
pub mod form;
pub mod history;
pub mod new;
pub mod roster;
