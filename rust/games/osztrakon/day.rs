//! R10: end of a day — the Sun to the stack nearest the temple (R10.1), the Moon covers one
//! more phase (R10.2; after the last the game ends), the day's rule from the symbol there
//! (R10.3, R9.1).

use super::special::symbol;
use super::stacks::Path;

/// Close day `day` (1-based). Returns Some(rule of the next day) or None when the game is over.
pub fn end_of_day(path: &mut Path, day: u8, days: u8, temple: u8, layout: u8, start: u8) -> Option<u8> {
    if let Some(f) = path.front(temple) {
        path.sun = f;
    }
    if day >= days {
        return None;
    }
    Some(symbol(layout, path.sun, start))
}
