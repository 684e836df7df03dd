//! R2: setup by player count — the shuffled philosopher deck at the start position, the Sun on
//! it, `days` moon phases, k for special days. The shuffle is the initial asking order.

use super::params::Params;
use super::stacks::Path;
use crate::rng::Rng;

/// What R2 fixes for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub start: u8,
    pub days: u8,
    pub k: u8,
}

/// R2.1 for `n` players under `p` (checks E4).
pub fn setup_for(p: &Params, n: usize) -> Result<Setup, String> {
    let (start, days, k) = p.table(n)?;
    Ok(Setup { start, days, k })
}

/// R2.2: shuffle the n philosophers into one stack at the start (order[0] on top, asks first).
pub fn deal(n: usize, start: u8, rng: &mut Rng) -> (Path, [u8; 12]) {
    let mut order = [0u8; 12];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u8;
    }
    rng.shuffle(&mut order[..n]);
    (Path::new(&order[..n], start), order)
}
