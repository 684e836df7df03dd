//! Learned bots (issue 26): position features read off the card numbers, a small dense
//! network and its file format, and the recording of self-play positions to train it on.
//! Training itself is Python (`ketharmad.learn`); inference is here, with no Python in the loop.

pub mod choices;
pub mod ketharmad_actions;
pub mod ketharmad_features;
pub mod mlp;
pub mod positions;

pub use mlp::Mlp;
