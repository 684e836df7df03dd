//! Learned bots (issue 26): position features read off the card numbers, a small dense
//! network and its file format, and the recording of self-play positions to train it on.
//! Training itself is Python (`ketharmad.learn`); inference is here, with no Python in the loop.
//! Features: Kétharmad's (`ketharmad_features`, `ketharmad_actions`) and Schotten Totten 2's
//! (`st2_features`, `st2_actions`).

pub mod choices;
pub mod ketharmad_actions;
pub mod ketharmad_features;
pub mod mlp;
pub mod positions;
pub mod shipped;
pub mod st2_actions;
pub mod st2_features;

pub use mlp::Mlp;

/// The hash a model records of the card set it was trained on: every card definition (its
/// numbers, keywords and effects), the rules, the decks and the Newsfeed of the resolved set
/// (`CardDb`, its parameter overrides applied), through their debug form, so any edit a
/// designer makes changes it. A change of those structs in a new build changes every hash
/// (the shipped models then warn until retrained). A model playing a set of another hash warns (the
/// bindings), it does not fail: its features read the numbers, so it may still play well.
pub fn card_set_hash(db: &crate::cards::CardDb) -> u64 {
    let text = format!("{:?}|{:?}|{:?}|{:?}", db.cards, db.rules, db.decks, db.newsfeed);
    crate::cards::loader::fnv1a(&text)
}
