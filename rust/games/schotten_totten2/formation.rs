//! R8 formations: kinds, the kind a section recognises, strength and comparison.

use super::cards::{colour, value};
use super::wall::Cond;

/// R8.4 kind ranks.
pub const SUM: i32 = 0;
pub const RUN: i32 = 1;
pub const COLOUR: i32 = 2;
pub const SAME: i32 = 3;
pub const COLOUR_RUN: i32 = 4;

pub const KIND_NAMES: [&str; 5] = ["sum", "run", "colour", "same_strength", "colour_run"];

/// Which kinds a set of cards satisfies (R8.1): (one colour, all values equal, a run).
#[inline]
pub fn satisfied(cards: &[u8]) -> (bool, bool, bool) {
    let c0 = colour(cards[0]);
    let v0 = value(cards[0]);
    let mut one_colour = true;
    let mut same = true;
    let mut vals = 0u16;
    let (mut lo, mut hi) = (v0, v0);
    for &c in cards {
        one_colour &= colour(c) == c0;
        same &= value(c) == v0;
        vals |= 1 << value(c);
        lo = lo.min(value(c));
        hi = hi.max(value(c));
    }
    let distinct = vals.count_ones() as usize == cards.len();
    let run = distinct && (hi - lo) as usize == cards.len() - 1;
    (one_colour, same, run)
}

/// R8.2–R8.3: the kind a section with `cond` recognises for a formation satisfying
/// (one colour, same, run). `keep` is `rules.restricted_keeps_colour_run` (R8.3.1).
#[inline]
pub fn recognised(one_colour: bool, same: bool, run: bool, cond: Cond, keep: bool) -> i32 {
    let cr = one_colour && run;
    match cond {
        Cond::Any => {
            if cr {
                COLOUR_RUN
            } else if same {
                SAME
            } else if one_colour {
                COLOUR
            } else if run {
                RUN
            } else {
                SUM
            }
        }
        Cond::Plus | Cond::Minus => SUM,
        Cond::Colour => {
            if cr && keep {
                COLOUR_RUN
            } else if one_colour {
                COLOUR
            } else {
                SUM
            }
        }
        Cond::Run => {
            if cr && keep {
                COLOUR_RUN
            } else if run {
                RUN
            } else {
                SUM
            }
        }
        Cond::Same => {
            if same {
                SAME
            } else {
                SUM
            }
        }
    }
}

/// R8.4 the strength key: kind rank first, then the total (negated on a "−" section), as one
/// integer (higher is stronger). Totals are at most 44, so `kind * 100 + 50 ± total` orders.
#[inline]
pub fn key(kind: i32, total: i32, cond: Cond) -> i32 {
    kind * 100 + if cond == Cond::Minus { 50 - total } else { 50 + total }
}

/// The kind of a strength key.
pub fn kind_of(key: i32) -> i32 {
    key.div_euclid(100)
}

/// Strength of a formation (non-empty) at a section with `cond`.
#[inline]
pub fn strength(cards: &[u8], cond: Cond, keep: bool) -> i32 {
    let (c, s, r) = satisfied(cards);
    let total: i32 = cards.iter().map(|&x| value(x) as i32).sum();
    key(recognised(c, s, r, cond, keep), total, cond)
}

/// R8.5–R8.6: does formation A (complete at step `a_at`) beat B (complete at `b_at`)?
pub fn beats(a: &[u8], a_at: u32, b: &[u8], b_at: u32, cond: Cond, keep: bool) -> bool {
    let (ka, kb) = (strength(a, cond, keep), strength(b, cond, keep));
    ka > kb || (ka == kb && a_at < b_at)
}
