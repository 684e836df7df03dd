//! Schotten Totten 2's position features (issue 26): what one seat sees, as numbers read off
//! the cards (values, colours), the formations (R8.4 strength keys) and the rule parameters
//! (section sizes and conditions, hand size, cauldrons, `rules.damages_to_win`), never card
//! identities, so a model still reads a game whose parameters a designer changed. Layout:
//! `NAMES` (`st2-v1`), `LEN` floats.
//!
//! Blocks: the game and the seat (`GLOBAL` = 22 features, the first 11 public), then one block
//! of `PER_SECTION` = 10 features per wall section in display order (`wall::SECTION_IDS`),
//! named `<section>_<feature>` (`SECTION`). `my`/`opp` are the seat's own side and the other
//! one. Everything is public except the seat's own hand (`hand_*` and `<section>_my_hand_best`);
//! the unseen pool both seats reason over is the public one of the claim proof (R9.3.1: the
//! deck and both hands, every card neither on the table nor discarded).
//!
//! Strength keys (`formation::key`: kind rank × 100 + 50 ± the total, higher is stronger on
//! every section, a "−" section included) are read as key / 500, 0 for none.
//!
//! Game and seat (in order):
//! - `attacker`: 1 when the seat is the Attacker (seat 0), 0 for the Defender;
//! - `to_move`: 1 when the seat is the one to move;
//! - `phase_prep`: 1 in the preparation step (R4 step 1: the Defender's cauldrons), 0 in the play;
//! - `turn`: the turn number / 50;
//! - `deck_left`: cards left in the deck / the deck's size (`rules.colours` × values);
//! - `last_turn`: 1 in the Attacker's last turn (R7.3);
//! - `cauldrons_left`: the Defender's cauldrons left / `rules.cauldrons` (0 without any);
//! - `damaged`: damaged sections / `rules.damages_to_win`;
//! - `decided_mine`, `decided_opp`: sections decided for the seat / for the other (`decided`
//!   below) / 7;
//! - `opp_hand`: cards in the other seat's hand / `rules.hand_size`;
//! - `hand_count`: cards in the seat's hand / `rules.hand_size`;
//! - `hand_sum`: their total value / (`rules.hand_size` × `rules.max_value`);
//! - `hand_max`, `hand_min`: the highest and lowest value / `rules.max_value` (0 when empty);
//! - `hand_same_max`: the most cards of one value / `rules.colours`;
//! - `hand_cancel`: cards of value 0 or `rules.max_value` (R6.3 cancels) / `rules.hand_size`,
//!   0 without `rules.zero_eleven`;
//! - `hand_colour_1` … `hand_colour_5`: the number of cards of each colour, most first (colours
//!   are interchangeable), / `rules.hand_size`.
//!
//! Per section (`SECTION`):
//! - `damaged`: 1 when it shows its damaged side;
//! - `cap`: cards per side of the face it shows / 4;
//! - `cond_sum`: its face ranks sums only ("+" or "−");
//! - `cond_restricted`: its face recognises one kind only (a damaged Colour, Run or Same face);
//! - `my_cards`, `opp_cards`: cards on each side / `cap`;
//! - `my_best`, `opp_best`: the strongest key each side can still reach with the unseen pool
//!   (R9.5, `proof::best_key`; a complete side's own key; 0 when it cannot be completed);
//! - `my_hand_best`: the strongest key the seat's side reaches with its hand alone (0 when the
//!   hand cannot complete it);
//! - `decided`: +1 when the cards alone decide the section for the seat (its side is complete and
//!   the other side is beaten or cannot reach more than a tie, R8.5–R8.6, R9.3), −1 when they
//!   decide it for the other side, 0 while it is open (oil and R6.3 cancels aside).

use crate::games::schotten_totten2::cards::{colour, iter, value};
use crate::games::schotten_totten2::formation::strength;
use crate::games::schotten_totten2::proof::best_key;
use crate::games::schotten_totten2::state::{Phase, Side, State, ATTACKER};
use crate::games::schotten_totten2::wall::Cond;

/// The feature layout's name in model files.
pub const LAYOUT: &str = "st2-v1";

/// Features of the game and the seat, before the sections.
pub const GLOBAL: usize = 22;
/// Features per wall section.
pub const PER_SECTION: usize = 10;
/// The per-section feature names (each prefixed by the section's id).
pub const SECTION: [&str; PER_SECTION] = ["damaged", "cap", "cond_sum", "cond_restricted", "my_cards", "opp_cards", "my_best", "opp_best", "my_hand_best", "decided"];
/// The number of features.
pub const LEN: usize = GLOBAL + 7 * PER_SECTION;

/// The scale of strength keys (`formation::key` is below 500).
pub const KEY_SCALE: f32 = 500.0;

macro_rules! names {
    ([$($g:literal),*], [$($sec:literal),*]) => {
        [
            $($g,)*
            $(
                concat!($sec, "_damaged"),
                concat!($sec, "_cap"),
                concat!($sec, "_cond_sum"),
                concat!($sec, "_cond_restricted"),
                concat!($sec, "_my_cards"),
                concat!($sec, "_opp_cards"),
                concat!($sec, "_my_best"),
                concat!($sec, "_opp_best"),
                concat!($sec, "_my_hand_best"),
                concat!($sec, "_decided"),
            )*
        ]
    };
}

/// Every feature's name, in order.
pub const NAMES: [&str; LEN] = names!(
    [
        "attacker",
        "to_move",
        "phase_prep",
        "turn",
        "deck_left",
        "last_turn",
        "cauldrons_left",
        "damaged",
        "decided_mine",
        "decided_opp",
        "opp_hand",
        "hand_count",
        "hand_sum",
        "hand_max",
        "hand_min",
        "hand_same_max",
        "hand_cancel",
        "hand_colour_1",
        "hand_colour_2",
        "hand_colour_3",
        "hand_colour_4",
        "hand_colour_5"
    ],
    ["left_ditch", "left_tower", "left_wall", "gate", "right_wall", "right_tower", "right_ditch"]
);

/// A strength key as a feature (key / 500; 0 for none).
#[inline]
pub fn key01(k: Option<i32>) -> f32 {
    k.map_or(0.0, |k| k as f32 / KEY_SCALE)
}

/// The strongest key `cards` (a side at section `sec`) can reach with the cards of `pool`
/// (R9.5), or None when the pool cannot complete it.
#[inline]
pub fn best(s: &State, sec: usize, cards: &[u8], pool: u64) -> Option<i32> {
    let f = s.face(sec);
    best_key(cards, pool, f.cards as usize, f.cond, s.p.keep_colour_run, s.p.colours, s.p.max_value)
}

/// Whether the cards alone decide section `sec` between side `mine` and side `theirs` with the
/// unseen `pool`: +1 for `mine` (complete, and `theirs` is complete and weaker or completed
/// later at equal strength, or cannot reach more than `mine`'s key: a tie goes to the side
/// completed first, R8.5–R8.6), −1 for `theirs` (the same the other way round), 0 open.
pub fn decided(s: &State, sec: usize, mine: &Side, theirs: &Side, pool: u64) -> f32 {
    let f = s.face(sec);
    let keep = s.p.keep_colour_run;
    match (mine.n == f.cards, theirs.n == f.cards) {
        (true, true) => {
            let (a, b) = (strength(mine.cards(), f.cond, keep), strength(theirs.cards(), f.cond, keep));
            if a > b || (a == b && mine.done < theirs.done) {
                1.0
            } else {
                -1.0
            }
        }
        (true, false) => match best(s, sec, theirs.cards(), pool) {
            Some(k) if k > strength(mine.cards(), f.cond, keep) => 0.0,
            _ => 1.0,
        },
        (false, true) => match best(s, sec, mine.cards(), pool) {
            Some(k) if k > strength(theirs.cards(), f.cond, keep) => 0.0,
            _ => -1.0,
        },
        (false, false) => 0.0,
    }
}

/// Seat `seat`'s features of state `s` into `out` (`LEN` of them).
pub fn features(s: &State, seat: usize, out: &mut [f32]) {
    let out = &mut out[..LEN];
    out.fill(0.0);
    let p = &s.p;
    let opp = 1 - seat;
    let pool = s.unseen();
    let hand = s.hands[seat];
    let hs = p.hand_size.max(1) as f32;
    let mv = p.max_value.max(1) as f32;
    out[0] = (seat == ATTACKER) as u8 as f32;
    out[1] = (s.to_move() == Some(seat)) as u8 as f32;
    out[2] = (s.phase == Phase::Prep) as u8 as f32;
    out[3] = s.turn as f32 / 50.0;
    out[4] = s.deck_len as f32 / p.deck_size().max(1) as f32;
    out[5] = s.last_turn as u8 as f32;
    out[6] = if p.cauldrons > 0 { s.cauldrons as f32 / p.cauldrons as f32 } else { 0.0 };
    out[7] = s.damaged.count_ones() as f32 / p.damages_to_win.max(1) as f32;
    out[10] = s.hands[opp].count_ones() as f32 / hs;
    // the seat's own hand
    let (mut sum, mut hi, mut lo, mut cancel) = (0u32, 0u8, u8::MAX, 0u32);
    let mut per_value = [0u8; 12];
    let mut per_colour = [0u8; 5];
    for c in iter(hand) {
        let v = value(c);
        sum += v as u32;
        hi = hi.max(v);
        lo = lo.min(v);
        per_value[v as usize] += 1;
        per_colour[colour(c) as usize] += 1;
        cancel += (p.zero_eleven && (v == 0 || v == p.max_value)) as u32;
    }
    per_colour.sort_unstable_by(|a, b| b.cmp(a));
    out[11] = hand.count_ones() as f32 / hs;
    out[12] = sum as f32 / (hs * mv);
    if hand != 0 {
        out[13] = hi as f32 / mv;
        out[14] = lo as f32 / mv;
    }
    out[15] = *per_value.iter().max().unwrap_or(&0) as f32 / p.colours.max(1) as f32;
    out[16] = cancel as f32 / hs;
    for (o, &n) in out[17..22].iter_mut().zip(&per_colour) {
        *o = n as f32 / hs;
    }
    // the sections
    let (mut mine, mut theirs) = (0u32, 0u32);
    for sec in 0..7 {
        let row = &mut out[GLOBAL + sec * PER_SECTION..GLOBAL + (sec + 1) * PER_SECTION];
        let f = s.face(sec);
        let cap = f.cards as f32;
        let (me, them) = (&s.sides[seat][sec], &s.sides[opp][sec]);
        row[0] = (s.damaged >> sec & 1) as f32;
        row[1] = cap / 4.0;
        row[2] = matches!(f.cond, Cond::Plus | Cond::Minus) as u8 as f32;
        row[3] = matches!(f.cond, Cond::Colour | Cond::Run | Cond::Same) as u8 as f32;
        row[4] = me.n as f32 / cap;
        row[5] = them.n as f32 / cap;
        row[6] = key01(best(s, sec, me.cards(), pool));
        row[7] = key01(best(s, sec, them.cards(), pool));
        row[8] = key01(best(s, sec, me.cards(), hand));
        let d = decided(s, sec, me, them, pool);
        row[9] = d;
        mine += (d > 0.0) as u32;
        theirs += (d < 0.0) as u32;
    }
    out[8] = mine as f32 / 7.0;
    out[9] = theirs as f32 / 7.0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::schotten_totten2::wall::SECTION_IDS;

    #[test]
    fn the_section_names_match_the_layout() {
        for (i, id) in SECTION_IDS.iter().enumerate() {
            for (k, f) in SECTION.iter().enumerate() {
                assert_eq!(NAMES[GLOBAL + i * PER_SECTION + k], format!("{id}_{f}"));
            }
        }
        assert_eq!(NAMES[GLOBAL - 1], "hand_colour_5");
    }
}
