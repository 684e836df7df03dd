//! Kétharmad's position features (issue 26): what one seat sees, as numbers read off the
//! cards (Influence, Credibility, costs) and the rule parameters (starting Support, the
//! Scandal threshold), never card identities, so a model trained on one card set still reads
//! a set whose numbers a designer changed. Layout: `NAMES`, documented in docs/learning.md.
//!
//! Blocks: the game (3), the seat itself (`me_*`, 13), its strongest opponent (`foe_*`, the
//! living opponent with the most Support, 13), every living opponent together (`foes_*`, 4),
//! and the seat's own hand (`hand_*`, 7). Everything is public except the seat's own hand.

use crate::cards::CardType;
use crate::engine::{Game, SeatView};

/// The feature layout's name in model files.
pub const LAYOUT: &str = "ketharmad-v1";

const SEAT: [&str; 13] =
    ["alive", "support", "scandal", "hand_size", "deck_size", "figures", "influence", "credibility", "attack_power", "ready_figures", "bases", "others_in_play", "oblivion"];

/// Every feature's name, in order.
pub const NAMES: [&str; 40] = [
    "round",
    "to_move",
    "seats",
    "me_alive",
    "me_support",
    "me_scandal",
    "me_hand_size",
    "me_deck_size",
    "me_figures",
    "me_influence",
    "me_credibility",
    "me_attack_power",
    "me_ready_figures",
    "me_bases",
    "me_others_in_play",
    "me_oblivion",
    "foe_alive",
    "foe_support",
    "foe_scandal",
    "foe_hand_size",
    "foe_deck_size",
    "foe_figures",
    "foe_influence",
    "foe_credibility",
    "foe_attack_power",
    "foe_ready_figures",
    "foe_bases",
    "foe_others_in_play",
    "foe_oblivion",
    "foes_alive",
    "foes_support",
    "foes_attack_power",
    "foes_influence",
    "hand_figures",
    "hand_influence",
    "hand_credibility",
    "hand_generic_cost",
    "hand_affordable",
    "hand_events",
    "hand_others",
];

/// The number of features.
pub const LEN: usize = NAMES.len();

fn seat_block(v: &SeatView<'_, '_>, p: usize, out: &mut [f32]) {
    let r = v.rules();
    let s0 = r.starting_support.max(1) as f32;
    let sc = r.scandal_threshold.max(1) as f32;
    let (mut figures, mut infl, mut cred, mut others) = (0f32, 0f32, 0f32, 0f32);
    for &c in v.in_play(p) {
        if let (true, Some((i, k))) = (v.is_figure_in_play(c), v.stats(c)) {
            figures += 1.0;
            infl += i as f32;
            cred += k as f32;
        } else if !v.is_base(c) {
            others += 1.0;
        }
    }
    let vals = [
        v.alive(p) as u8 as f32,
        v.support(p) as f32 / s0,
        v.scandal(p) as f32 / sc,
        v.hand_size(p) as f32 / 7.0,
        v.deck_size(p) as f32 / 30.0,
        figures / 4.0,
        infl / 10.0,
        cred / 10.0,
        v.attack_power(p) as f32 / 10.0,
        v.ready_figures(p).0 as f32 / 4.0,
        v.bases_in_play(p) as f32 / 5.0,
        others / 4.0,
        v.oblivion(p).len() as f32 / 20.0,
    ];
    debug_assert_eq!(vals.len(), SEAT.len());
    out[..vals.len()].copy_from_slice(&vals);
}

/// Seat `seat`'s features of game `g` into `out` (`LEN` of them).
pub fn features(g: &Game<'_>, seat: usize, out: &mut [f32]) {
    features_of(&SeatView::new(g, seat), out)
}

/// The features of the seat of view `v` (what it sees) into `out` (`LEN` of them).
pub fn features_of(v: &SeatView<'_, '_>, out: &mut [f32]) {
    out[..LEN].fill(0.0);
    let seat = v.seat;
    let n = v.n_players();
    out[0] = v.round() as f32 / 20.0;
    out[1] = (v.active() == seat) as u8 as f32;
    out[2] = n as f32 / 4.0;
    seat_block(v, seat, &mut out[3..16]);
    // the strongest living opponent: the most Support, the first in seat order after `seat` on ties
    let mut foe = None;
    let (mut alive, mut support, mut power, mut infl) = (0f32, 0f32, 0f32, 0f32);
    let s0 = v.rules().starting_support.max(1) as f32;
    for k in 1..n {
        let q = (seat + k) % n;
        if !v.is_enemy(seat, q) || !v.alive(q) {
            continue;
        }
        if foe.is_none_or(|f: usize| v.support(q) > v.support(f)) {
            foe = Some(q);
        }
        alive += 1.0;
        support += v.support(q) as f32 / s0;
        power += v.attack_power(q) as f32 / 10.0;
        infl += v.in_play(q).iter().filter(|&&c| v.is_figure_in_play(c)).filter_map(|&c| v.stats(c)).map(|s| s.0 as f32).sum::<f32>() / 10.0;
    }
    if let Some(q) = foe {
        seat_block(v, q, &mut out[16..29]);
    }
    out[29] = alive / 3.0;
    out[30] = support;
    out[31] = power;
    out[32] = infl;
    // the seat's own hand
    let bases = v.bases_in_play(seat) as i16;
    let (mut figs, mut hi, mut hc, mut cost, mut afford, mut events, mut others) = (0f32, 0f32, 0f32, 0f32, 0f32, 0f32, 0f32);
    let hand = v.hand();
    for &c in hand {
        let Some(d) = v.def(c) else { continue };
        let total = d.cost.generic + d.cost.pips.iter().sum::<i16>();
        cost += d.cost.generic as f32;
        afford += (total <= bases) as u8 as f32;
        match d.ctype {
            CardType::Figure => {
                figs += 1.0;
                hi += d.influence as f32;
                hc += d.credibility as f32;
            }
            CardType::Event => events += 1.0,
            _ => others += 1.0,
        }
    }
    let h = hand.len().max(1) as f32;
    out[33] = figs / 4.0;
    out[34] = hi / 10.0;
    out[35] = hc / 10.0;
    out[36] = cost / h / 4.0;
    out[37] = afford / 4.0;
    out[38] = events / 4.0;
    out[39] = others / 4.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_block_names_match_the_layout() {
        for (i, s) in SEAT.iter().enumerate() {
            assert_eq!(NAMES[3 + i], format!("me_{s}"));
            assert_eq!(NAMES[16 + i], format!("foe_{s}"));
        }
    }
}
