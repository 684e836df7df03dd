//! R9 claims: the Attacker's complete formation against the Defender's, either complete (R9.2)
//! or completed in the best way the unseen pool allows (R9.3). The engine uses the tier-wise
//! check of R9.5; `best_key_brute` is the brute-force oracle the tests compare it with (T12).

use super::cards::{card, colour, iter, value, STRIDE};
use super::formation::{key, strength, COLOUR, COLOUR_RUN, RUN, SAME, SUM};
use super::wall::{Cond, Face};

/// The values (bit v) of colour `c` in `pool`.
#[inline]
fn colour_values(pool: u64, c: u8) -> u16 {
    ((pool >> (c * STRIDE)) & 0xFFF) as u16
}

/// The values present in `pool` in any colour, and how many copies of each.
#[inline]
fn value_counts(pool: u64, colours: u8, counts: &mut [u8; 12]) -> u16 {
    let mut any = 0u16;
    *counts = [0; 12];
    for c in 0..colours {
        let m = colour_values(pool, c);
        any |= m;
        for v in iter(m as u64) {
            counts[v as usize] += 1;
        }
    }
    any
}

/// Sum of the `r` highest (or lowest) values among the cards of `pool` (by value counts).
fn extreme_sum(counts: &[u8; 12], r: usize, highest: bool) -> i32 {
    let mut left = r;
    let mut total = 0i32;
    for i in 0..12 {
        let v = if highest { 11 - i } else { i };
        let take = left.min(counts[v] as usize);
        total += (take * v) as i32;
        left -= take;
        if left == 0 {
            break;
        }
    }
    total
}

/// Sum of the `r` highest values of a value mask (one card per value).
fn top_sum(mask: u16, r: usize) -> i32 {
    let mut total = 0;
    let mut m = mask;
    for _ in 0..r {
        let v = 15 - m.leading_zeros() as i32;
        total += v;
        m &= !(1 << v);
    }
    total
}

/// The strongest key the Defender's `def` cards can reach at a section of `cap` cards with
/// `cond` by adding `cap - def.len()` distinct cards of `pool` (R9.5, tier-wise), or None
/// when the pool is too small to complete the formation (R9.3.3). `max_value` bounds runs.
pub fn best_key(def: &[u8], pool: u64, cap: usize, cond: Cond, keep: bool, colours: u8, max_value: u8) -> Option<i32> {
    let k = def.len();
    let r = cap - k;
    if (pool.count_ones() as usize) < r {
        return None;
    }
    if r == 0 {
        return Some(strength(def, cond, keep));
    }
    let mut dvals = 0u16;
    let mut dsum = 0i32;
    let mut one_colour = true;
    let mut same = true;
    for &c in def {
        dvals |= 1 << value(c);
        dsum += value(c) as i32;
        one_colour &= colour(c) == colour(def[0]);
        same &= value(c) == value(def[0]);
    }
    let distinct = dvals.count_ones() as usize == k;
    let window_fits = |w: u16| dvals & !w == 0;
    let window = |lo: u8| -> u16 { (((1u32 << cap) - 1) << lo) as u16 };
    let window_sum = |lo: u8| -> i32 { (0..cap as i32).map(|i| lo as i32 + i).sum() };
    let last_lo = (max_value as i32 + 1 - cap as i32).max(-1);
    let (c_lo, c_hi) = if k > 0 { (colour(def[0]), colour(def[0]) + 1) } else { (0, colours) };

    // colour run
    let cr_ok = match cond {
        Cond::Any => true,
        Cond::Colour | Cond::Run => keep,
        _ => false,
    };
    if cr_ok && one_colour && distinct {
        let mut best = -1;
        for c in c_lo..c_hi {
            let have = colour_values(pool, c);
            for lo in (0..=last_lo).rev() {
                let w = window(lo as u8);
                if window_fits(w) && (w & !dvals) & !have == 0 {
                    best = best.max(window_sum(lo as u8));
                    break; // windows scanned from the highest
                }
            }
        }
        if best >= 0 {
            return Some(key(COLOUR_RUN, best, cond));
        }
    }
    // same strength
    if matches!(cond, Cond::Any | Cond::Same) && same {
        let vs: &mut dyn Iterator<Item = u8> = if k > 0 { &mut std::iter::once(value(def[0])) } else { &mut (0..=max_value).rev() };
        for v in vs {
            let copies = (0..colours).filter(|&c| pool >> card(c, v) & 1 == 1).count();
            if copies >= r {
                return Some(key(SAME, (cap * v as usize) as i32, cond));
            }
        }
    }
    // colour
    if matches!(cond, Cond::Any | Cond::Colour) && one_colour {
        let mut best = -1;
        for c in c_lo..c_hi {
            let have = colour_values(pool, c);
            if have.count_ones() as usize >= r {
                best = best.max(dsum + top_sum(have, r));
            }
        }
        if best >= 0 {
            return Some(key(COLOUR, best, cond));
        }
    }
    let mut counts = [0u8; 12];
    let any = value_counts(pool, colours, &mut counts);
    // run
    if matches!(cond, Cond::Any | Cond::Run) && distinct {
        for lo in (0..=last_lo).rev() {
            let w = window(lo as u8);
            if window_fits(w) && (w & !dvals) & !any == 0 {
                return Some(key(RUN, window_sum(lo as u8), cond));
            }
        }
    }
    // sum
    Some(key(SUM, dsum + extreme_sum(&counts, r, cond != Cond::Minus), cond))
}

/// The brute-force oracle for `best_key`: every set of `cap - def.len()` pool cards.
pub fn best_key_brute(def: &[u8], pool: u64, cap: usize, cond: Cond, keep: bool) -> Option<i32> {
    let r = cap - def.len();
    let cards: Vec<u8> = iter(pool).collect();
    if cards.len() < r {
        return None;
    }
    let mut buf = [0u8; 4];
    buf[..def.len()].copy_from_slice(def);
    let mut best = i32::MIN;
    let mut idx = [0usize; 4];
    // too_many_arguments: a recursive enumeration carrying its position and accumulators
    #[allow(clippy::too_many_arguments)]
    fn rec(cards: &[u8], start: usize, depth: usize, r: usize, k: usize, idx: &mut [usize; 4], buf: &mut [u8; 4], cond: Cond, keep: bool, best: &mut i32) {
        if depth == r {
            *best = (*best).max(strength(&buf[..k + r], cond, keep));
            return;
        }
        for i in start..cards.len() {
            idx[depth] = i;
            buf[k + depth] = cards[i];
            rec(cards, i + 1, depth + 1, r, k, idx, buf, cond, keep, best);
        }
    }
    rec(&cards, 0, 0, r, def.len(), &mut idx, &mut buf, cond, keep, &mut best);
    Some(best)
}

/// R9.2–R9.3: does a claim by the Attacker's complete formation `att` (complete at `att_at`)
/// succeed against the Defender's `def` (complete at `def_at` when full) at `face`, with
/// `pool` the unseen cards (R9.3.1)?
// too_many_arguments: both sides, their completion times, the unseen pool and the section's rules, as R9.3.1 names them
#[allow(clippy::too_many_arguments)]
pub fn claim_succeeds(att: &[u8], att_at: u32, def: &[u8], def_at: u32, pool: u64, face: Face, keep: bool, colours: u8, max_value: u8) -> bool {
    let cap = face.cards as usize;
    if att.len() != cap {
        return false;
    }
    let ka = strength(att, face.cond, keep);
    if def.len() == cap {
        let kd = strength(def, face.cond, keep);
        return ka > kd || (ka == kd && att_at < def_at);
    }
    // R9.3.2: equal strength does not stop the claim (the Attacker completed first)
    match best_key(def, pool, cap, face.cond, keep, colours, max_value) {
        None => true,
        Some(kd) => kd <= ka,
    }
}
