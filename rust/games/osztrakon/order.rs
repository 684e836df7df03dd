//! R4: turn order within a day. The next asker is the top of the Sun's stack (R3.2, R4.3: a
//! disciple landing on it asks next); an empty Sun position sends the pile back and the Sun
//! backwards (R3.4); no stack behind it ends the day (R10).

use super::stacks::{Path, NONE};

/// The next asker, or None when the day is over.
pub fn next_asker(path: &mut Path) -> Option<u8> {
    if !path.advance_sun() {
        return None;
    }
    let s = path.top[path.sun as usize];
    debug_assert!(s != NONE);
    Some(s)
}
