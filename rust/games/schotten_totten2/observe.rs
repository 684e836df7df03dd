//! R11.1 what a seat sees, as a fixed vector: its role, the phase, its own hand, the table in
//! play order, the discard pile and the public counters. Nothing of the opponent's hand or the
//! deck order.

use super::cards::{colour, value, CARD_IDS};
use super::state::{Phase, State, ATTACKER};

const SLOT: usize = 7; // present, colour one-hot (5), value / 11
const PER_SECTION: usize = 2 * 4 * SLOT + 6;
pub const OBS_LEN: usize = 2 + 4 + CARD_IDS + 7 * PER_SECTION + CARD_IDS + 6;

fn bits(set: u64, out: &mut [f32]) {
    for (i, o) in out.iter_mut().enumerate().take(CARD_IDS) {
        *o = (set >> i & 1) as f32;
    }
}

pub fn observe(s: &State, seat: usize, out: &mut [f32]) {
    out[..OBS_LEN].iter_mut().for_each(|x| *x = 0.0);
    let opp = 1 - seat;
    let mut o = 0;
    out[o + seat] = 1.0;
    o += 2;
    let ph = match s.phase {
        Phase::Prep => 0,
        Phase::Play => 1,
        Phase::PostPlay => 2,
        Phase::Over => 3,
    };
    out[o + ph] = 1.0;
    o += 4;
    bits(s.hands[seat], &mut out[o..o + CARD_IDS]);
    o += CARD_IDS;
    for sec in 0..7 {
        for who in [seat, opp] {
            let side = &s.sides[who][sec];
            for (i, &c) in side.cards().iter().enumerate() {
                let b = o + i * SLOT;
                out[b] = 1.0;
                out[b + 1 + colour(c) as usize] = 1.0;
                out[b + 6] = value(c) as f32 / 11.0;
            }
            o += 4 * SLOT;
        }
        let (me, them) = (&s.sides[seat][sec], &s.sides[opp][sec]);
        out[o] = (s.damaged >> sec & 1) as f32;
        out[o + 1] = (me.done != 0) as u8 as f32;
        out[o + 2] = (them.done != 0) as u8 as f32;
        out[o + 3] = (me.done != 0 && (them.done == 0 || me.done < them.done)) as u8 as f32;
        out[o + 4] = (s.claimable >> sec & 1) as f32;
        out[o + 5] = s.face(sec).cards as f32 / 4.0;
        o += 6;
    }
    bits(s.discard, &mut out[o..o + CARD_IDS]);
    o += CARD_IDS;
    out[o] = s.cauldrons as f32 / 3.0;
    out[o + 1] = s.deck_len as f32 / 48.0;
    out[o + 2] = s.hands[opp].count_ones() as f32 / 6.0;
    out[o + 3] = s.turn as f32 / 49.0;
    out[o + 4] = (s.last_turn && s.current as usize == ATTACKER) as u8 as f32;
    out[o + 5] = s.oil_this_turn as f32;
    debug_assert_eq!(o + 6, OBS_LEN);
}
