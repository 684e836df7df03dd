//! ketharmad — a fast, deterministic simulator of the Kétharmad card game.
//!
//! The engine (`engine`, `cards`, `bots`, `batch`) is plain Rust; `py` is the only module that
//! touches PyO3 and is compiled only with the `python` feature (maturin turns it on).

pub mod batch;
pub mod bots;
pub mod cards;
pub mod engine;
pub mod games;
pub mod harness;
pub mod learn;
pub mod rng;

#[cfg(feature = "python")]
mod py;

/// The card data file shipped with the package (also used by `cargo test`).
pub const DEFAULT_CARD_DATA: &str = include_str!("../python/ketharmad/data/cards.toml");
