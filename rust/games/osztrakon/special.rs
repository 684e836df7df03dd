//! R9: special days. The symbol at the Sun's position at the start of a day (R9.1, R10.3) sets
//! the day's rule; the layout of symbols is the open `rules.special_layout` (R9.5).

use super::params::{RULE_BETRAYAL, RULE_CORRUPTION, RULE_DIVINATION, RULE_NONE};

/// The symbol at `pos` under layout `layout` (index into `params::LAYOUTS`), start `start`.
pub fn symbol(layout: u8, pos: u8, start: u8) -> u8 {
    match layout {
        0 => RULE_NONE,
        1 => match pos {
            4 | 13 => RULE_CORRUPTION,
            7 | 16 => RULE_DIVINATION,
            10 => RULE_BETRAYAL,
            _ => RULE_NONE,
        },
        2..=4 if pos > start => [RULE_CORRUPTION, RULE_DIVINATION, RULE_BETRAYAL][(layout - 2) as usize],
        _ => RULE_NONE,
    }
}
