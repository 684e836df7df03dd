//! R1.1 siege cards: colour × value, each exactly once. A card id is `colour * 12 + value`
//! (values 0..=11, colours 0..5), so every deck fits one `u64` bitset whatever the
//! `rules.colours` / `rules.max_value` parameters say.

/// Card id stride per colour.
pub const STRIDE: u8 = 12;
/// Most colours (R1.1).
pub const MAX_COLOURS: u8 = 5;
/// Number of card ids (bits of a card set).
pub const CARD_IDS: usize = (MAX_COLOURS * STRIDE) as usize;

pub const COLOUR_NAMES: [&str; 5] = ["red", "blue", "green", "yellow", "purple"];

#[inline]
pub fn card(colour: u8, value: u8) -> u8 {
    colour * STRIDE + value
}
#[inline]
pub fn colour(c: u8) -> u8 {
    c / STRIDE
}
#[inline]
pub fn value(c: u8) -> u8 {
    c % STRIDE
}

/// "red 10".
pub fn name(c: u8) -> String {
    format!("{} {}", COLOUR_NAMES[colour(c) as usize], value(c))
}

/// The set of every card of a deck of `colours` colours, values 0..=`max_value`.
pub fn full_set(colours: u8, max_value: u8) -> u64 {
    let mut s = 0u64;
    for c in 0..colours {
        for v in 0..=max_value {
            s |= 1u64 << card(c, v);
        }
    }
    s
}

/// Iterate the card ids of a set, lowest first.
#[inline]
pub fn iter(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(c)
        }
    })
}
