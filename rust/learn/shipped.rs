//! The models shipped with the package (issue 26; `scripts/train_models.py` trains them on
//! the packaged draft card set): built into the library, so `"learned"` without a model file
//! plays the shipped policy everywhere (batches, the harness, the CLI). A model file given as
//! a knob replaces it.

use super::Mlp;
use std::sync::{Arc, OnceLock};

/// The shipped policy's file (python/ketharmad/data/models/ketharmad-policy.khnn).
const POLICY: &[u8] = include_bytes!("../../python/ketharmad/data/models/ketharmad-policy.khnn");
/// The shipped value model's file (python/ketharmad/data/models/ketharmad-value.khnn).
const VALUE: &[u8] = include_bytes!("../../python/ketharmad/data/models/ketharmad-value.khnn");

fn load(cell: &'static OnceLock<Result<Arc<Mlp>, String>>, bytes: &[u8], name: &str) -> Result<Arc<Mlp>, String> {
    cell.get_or_init(|| Mlp::parse(bytes, name).map(Arc::new)).clone()
}

/// Schotten Totten 2's shipped policy (python/ketharmad/data/models/st2-policy.khnn).
const ST2_POLICY: &[u8] = include_bytes!("../../python/ketharmad/data/models/st2-policy.khnn");

/// Schotten Totten 2's shipped value model (python/ketharmad/data/models/st2-value.khnn).
const ST2_VALUE: &[u8] = include_bytes!("../../python/ketharmad/data/models/st2-value.khnn");

/// The shipped value model of harness game `game` (`value=shipped` on its search), None for a
/// game without one.
pub fn value_of(game: &str) -> Option<Result<Arc<Mlp>, String>> {
    static ST2: OnceLock<Result<Arc<Mlp>, String>> = OnceLock::new();
    match game {
        "ketharmad" => Some(value()),
        "schotten_totten_2" => Some(load(&ST2, ST2_VALUE, "shipped:st2-value.khnn")),
        _ => None,
    }
}

/// The shipped policy of harness game `game` (the generic `learned` agent's default model),
/// None for a game without one.
pub fn policy_of(game: &str) -> Option<Result<Arc<Mlp>, String>> {
    static ST2: OnceLock<Result<Arc<Mlp>, String>> = OnceLock::new();
    match game {
        "schotten_totten_2" => Some(load(&ST2, ST2_POLICY, "shipped:st2-policy.khnn")),
        _ => None,
    }
}

/// Kétharmad's shipped policy (the `learned` bot's default model).
pub fn policy() -> Result<Arc<Mlp>, String> {
    static CELL: OnceLock<Result<Arc<Mlp>, String>> = OnceLock::new();
    load(&CELL, POLICY, "shipped:ketharmad-policy.khnn")
}

/// Kétharmad's shipped value model (`value=shipped` on `ismcts`).
pub fn value() -> Result<Arc<Mlp>, String> {
    static CELL: OnceLock<Result<Arc<Mlp>, String>> = OnceLock::new();
    load(&CELL, VALUE, "shipped:ketharmad-value.khnn")
}
