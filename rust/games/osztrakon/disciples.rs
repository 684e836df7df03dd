//! R8: disciples. Eligible (R8.1): top of a stack on the path, laurel side up, behind the Sun.
//! Declarations are simultaneous and the one farthest from the temple wins (R8.2, engine
//! resolution); in the sequential decision interface the eligible are asked farthest first and
//! the first to declare is the disciple (equivalent: a nearer one's answer only matters when
//! every farther one passed). Declaring turns the card for good (R8.3). On success the disciple
//! moves D positions but not past the Sun (R8.4, `rules.disciple_cap_at_sun`), after the asker.

use super::stacks::{Path, NONE};

/// The eligible philosophers, farthest from the temple first, into `out`; returns the count.
pub fn eligible(path: &Path, laurel: u16, sun: u8, out: &mut [u8; 12]) -> usize {
    let mut k = 0;
    for p in 1..sun {
        let s = path.top[p as usize];
        if s != NONE && laurel & (1 << s) != 0 {
            out[k] = s;
            k += 1;
        }
    }
    k
}

/// R8.4: move the disciple (at the top of his stack) D positions, capped at the Sun's position
/// when `cap`. Returns (from, to).
pub fn move_disciple(path: &mut Path, disciple: u8, d: u32, sun: u8, cap: bool, temple: u8) -> (u8, u8) {
    let from = path.pos[disciple as usize];
    let mut to = from as u32 + d;
    if cap {
        to = to.min(sun as u32);
    }
    // without the cap he still stays on the path (the asker, ahead of him, ends the game first)
    to = to.min(temple as u32 - 1);
    let s = path.pop(from);
    debug_assert_eq!(s, disciple);
    path.push(disciple, to as u8);
    (from, to as u8)
}
