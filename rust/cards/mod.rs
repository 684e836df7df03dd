//! Cards as data: the card-data model, the TOML loader, the parameter registry and the
//! closed effect vocabulary. Nothing here knows about a game in progress.

pub mod decks;
pub mod effects;
pub mod formats;
pub mod loader;
pub mod model;
pub mod params;

pub use decks::Deck;
pub use effects::*;
pub use formats::FormatSpec;
pub use loader::{load_raw, RawDb};
pub use model::*;
pub use params::{build_db, registry, ParamInfo, ParamKind, ParamValue, Rules};
