//! Schotten Totten 2's option features (issue 26): one row per legal action of a key decision
//! (`GameState::key_decision`: a play with no claim open, the Defender's cauldrons), in
//! `legal_actions`' order, read off the card's numbers, the target section and what its
//! formation becomes, and the `greedy` bot's score of the action (`bots::KeyScores`). Layout:
//! `NAMES` (`st2-options-v1`); a policy model reads each row after the deciding seat's position
//! features (`st2_features`). `my`/`opp` are the seat to move's side and the other one; keys
//! are strength keys / 500 as in `st2_features`, and the unseen pool is the public one (R9.3.1).
//!
//! Features (in order):
//! - `opt_play`, `opt_oil`, `opt_skip`, `opt_pass`: the action's kind (one of them is 1);
//! - `card_value`: the card's value / `rules.max_value` (a play: the card played; a cauldron:
//!   the Attacker card it removes, R5.2.1; else 0);
//! - `card_extreme`: the card's value is 0 or `rules.max_value` (a R6.3 cancel card, with
//!   `rules.zero_eleven`);
//! - `card_cancels`: the play cancels the opponent's partner card there instead (R6.3);
//! - `card_colour_fit`, `card_value_fit`: the cards of the formation it joins (a play: the
//!   mover's cards there; a cauldron: the Attacker's other cards there) of its colour, of its
//!   value, / `cap`;
//! - `card_run_fit`: with it, the formation's values are distinct and within a run of `cap`
//!   (a run is still possible);
//! - `card_colour_in_hand`: the mover's other cards of its colour / `rules.hand_size` (plays);
//! - `sec_damaged`, `sec_cap`, `sec_sum_only`, `sec_minus`, `sec_restricted`: the target section
//!   (plays and cauldrons; 0 otherwise): damaged, cards per side / 4, its face ranks sums only,
//!   lowest wins ("−"), recognises one kind only;
//! - `sec_my_cards`, `sec_opp_cards`, `sec_my_best`, `sec_opp_best`, `sec_decided`: the
//!   section before the action, as in `st2_features` (cards / cap, best reachable keys with
//!   the unseen pool, decided +1 / −1 / 0 for the mover);
//! - `after_cards`, `after_complete`, `after_key`, `after_best`, `after_hand_best`: the side
//!   the action changes, after it (a play: the mover's side, unchanged when it cancels; a
//!   cauldron: the Attacker's): its cards / cap, complete, the key of its cards as they stand
//!   (as if they were the whole formation; 0 when empty), the best key it can still reach
//!   with the unseen pool, and (plays) with the mover's remaining hand alone;
//! - `after_decided`: the section after the action, decided for the mover (+1), against (−1)
//!   or open (0);
//! - `greedy_score`: `greedy`'s score of the action × 10, clamped to ±5 (a play: its gain in
//!   the weighted chance to win the section, plus 2 sections' worth for a claim it makes
//!   provable, minus 1e-4 × the card's value; a cauldron: how much it lowers the Attacker's
//!   weighted chance; the skip: the threshold a cauldron must beat, 0.15). Most plays score
//!   within ±0.1 (a few points of one section's chance), so the scale spreads them; a play that
//!   makes a claim provable saturates at 5;
//! - `greedy_pick`: 1 for the action `greedy` plays here, 0 for the others;
//! - `greedy_rank`: the options `greedy` prefers to it / (options − 1): 0 its pick, 1 its last.

use super::st2_features::{best, decided, key01};
use crate::games::schotten_totten2::actions::Action;
use crate::games::schotten_totten2::bots::KeyScores;
use crate::games::schotten_totten2::cards::{self, colour, value};
use crate::games::schotten_totten2::formation::strength;
use crate::games::schotten_totten2::state::{Side, State, ATTACKER};
use crate::games::schotten_totten2::wall::Cond;
use crate::harness::GameState;

/// The option layout's name.
pub const LAYOUT: &str = "st2-options-v1";

/// Every option feature's name, in order.
pub const NAMES: [&str; 30] = [
    "opt_play",
    "opt_oil",
    "opt_skip",
    "opt_pass",
    "card_value",
    "card_extreme",
    "card_cancels",
    "card_colour_fit",
    "card_value_fit",
    "card_run_fit",
    "card_colour_in_hand",
    "sec_damaged",
    "sec_cap",
    "sec_sum_only",
    "sec_minus",
    "sec_restricted",
    "sec_my_cards",
    "sec_opp_cards",
    "sec_my_best",
    "sec_opp_best",
    "sec_decided",
    "after_cards",
    "after_complete",
    "after_key",
    "after_best",
    "after_hand_best",
    "after_decided",
    "greedy_score",
    "greedy_pick",
    "greedy_rank",
];

/// The number of option features.
pub const LEN: usize = NAMES.len();

const SCORE: usize = 27;
const PICK: usize = 28;
const RANK: usize = 29;

/// The policy's full input: the position's features, then one option's.
pub fn policy_names() -> Vec<&'static str> {
    super::st2_features::NAMES.iter().chain(NAMES.iter()).copied().collect()
}

/// The layout name a policy model of this game records (`st2-v1+st2-options-v1`).
pub fn policy_layout() -> String {
    format!("{}+{LAYOUT}", super::st2_features::LAYOUT)
}

/// Remove the card at index `i` of a side (its order kept; no longer complete).
fn remove(side: &mut Side, i: usize) {
    for j in i..side.n as usize - 1 {
        side.cards[j] = side.cards[j + 1];
    }
    side.n -= 1;
    side.done = 0;
}

/// How card `c` fits the cards `others` of a formation of `cap` cards: (same colour, same
/// value, a run still possible with it).
fn fit(c: u8, others: &[u8], cap: usize) -> (f32, f32, f32) {
    let same_colour = others.iter().filter(|&&x| colour(x) == colour(c)).count();
    let same_value = others.iter().filter(|&&x| value(x) == value(c)).count();
    let mut vals = 1u16 << value(c);
    let (mut lo, mut hi) = (value(c), value(c));
    for &x in others {
        vals |= 1 << value(x);
        lo = lo.min(value(x));
        hi = hi.max(value(x));
    }
    let run = vals.count_ones() as usize == others.len() + 1 && ((hi - lo) as usize) < cap;
    (same_colour as f32 / cap as f32, same_value as f32 / cap as f32, run as u8 as f32)
}

/// The features of one action `id` of the key decision of `s` (the seat to move `me`, the
/// unseen pool `pool`) into `row` (zeroed), the greedy columns left to the caller.
fn row_of(s: &State, id: u32, me: usize, pool: u64, row: &mut [f32]) {
    let p = &s.p;
    let mv = p.max_value.max(1) as f32;
    let hs = p.hand_size.max(1) as f32;
    let opp = 1 - me;
    let (kind, sec) = match Action::from_id(id) {
        Some(Action::Play { section, .. }) => (0, Some(section as usize)),
        Some(Action::Oil(section)) => (1, Some(section as usize)),
        Some(Action::Skip) => (2, None),
        Some(Action::Pass) => (3, None),
        _ => return,
    };
    row[kind] = 1.0;
    let Some(sec) = sec else { return };
    let f = s.face(sec);
    let cap = f.cards as usize;
    let capf = cap as f32;
    let keep = p.keep_colour_run;
    let (mine, theirs) = (&s.sides[me][sec], &s.sides[opp][sec]);
    row[11] = (s.damaged >> sec & 1) as f32;
    row[12] = capf / 4.0;
    row[13] = matches!(f.cond, Cond::Plus | Cond::Minus) as u8 as f32;
    row[14] = (f.cond == Cond::Minus) as u8 as f32;
    row[15] = matches!(f.cond, Cond::Colour | Cond::Run | Cond::Same) as u8 as f32;
    row[16] = mine.n as f32 / capf;
    row[17] = theirs.n as f32 / capf;
    row[18] = key01(best(s, sec, mine.cards(), pool));
    row[19] = key01(best(s, sec, theirs.cards(), pool));
    row[20] = decided(s, sec, mine, theirs, pool);
    let extreme = |c: u8| (p.zero_eleven && (value(c) == 0 || value(c) == p.max_value)) as u8 as f32;
    match Action::from_id(id) {
        Some(Action::Play { card: c, .. }) => {
            row[4] = value(c) as f32 / mv;
            row[5] = extreme(c);
            let (cf, vf, rf) = fit(c, mine.cards(), cap);
            row[7] = cf;
            row[8] = vf;
            row[9] = rf;
            let hand = s.hands[me] & !(1u64 << c);
            row[10] = cards::iter(hand).filter(|&x| colour(x) == colour(c)).count() as f32 / hs;
            // the sides after the play (R6.3: a cancel discards the partner card instead)
            let (mut m2, mut t2) = (*mine, *theirs);
            let partner = if value(c) == 0 {
                Some(cards::card(colour(c), p.max_value))
            } else if value(c) == p.max_value {
                Some(cards::card(colour(c), 0))
            } else {
                None
            };
            let hit = partner.filter(|_| p.zero_eleven).and_then(|pc| t2.cards().iter().position(|&x| x == pc));
            if let Some(i) = hit {
                row[6] = 1.0;
                remove(&mut t2, i);
            } else {
                m2.cards[m2.n as usize] = c;
                m2.n += 1;
                if m2.n == f.cards {
                    m2.done = u32::MAX - 1; // completes now: after any earlier completion
                }
            }
            let pool2 = pool & !(1u64 << c);
            row[21] = m2.n as f32 / capf;
            row[22] = (m2.n == f.cards) as u8 as f32;
            if m2.n > 0 {
                row[23] = strength(m2.cards(), f.cond, keep) as f32 / super::st2_features::KEY_SCALE;
            }
            row[24] = key01(best(s, sec, m2.cards(), pool2));
            row[25] = key01(best(s, sec, m2.cards(), hand));
            row[26] = decided(s, sec, &m2, &t2, pool2);
        }
        Some(Action::Oil(_)) => {
            // the Defender's cauldron on the Attacker's side (`theirs`)
            let att = &s.sides[ATTACKER][sec];
            if att.n == 0 {
                return;
            }
            let i = if p.oil_newest { att.n as usize - 1 } else { 0 };
            let c = att.cards[i];
            let mut a2 = *att;
            remove(&mut a2, i);
            row[4] = value(c) as f32 / mv;
            row[5] = extreme(c);
            let (cf, vf, rf) = fit(c, a2.cards(), cap);
            row[7] = cf;
            row[8] = vf;
            row[9] = rf;
            row[21] = a2.n as f32 / capf;
            if a2.n > 0 {
                row[23] = strength(a2.cards(), f.cond, keep) as f32 / super::st2_features::KEY_SCALE;
            }
            row[24] = key01(best(s, sec, a2.cards(), pool));
            let (m, t) = if me == ATTACKER { (&a2, theirs) } else { (mine, &a2) };
            row[26] = decided(s, sec, m, t, pool);
        }
        _ => {}
    }
}

/// The features of every legal action of the key decision pending in `s`, in `legal_actions`'
/// order, `LEN` a row, into `out` (cleared first). False (and `out` left empty) when the game
/// is over or the pending decision is not a key decision. No allocation beyond `out`'s growth.
pub fn features(s: &State, out: &mut Vec<f32>) -> bool {
    out.clear();
    if s.to_move().is_none() || !s.key_decision() {
        return false;
    }
    let me = s.current as usize;
    let pool = s.unseen();
    let greedy = KeyScores::new(s);
    let (mut n, mut best, mut pick) = (0usize, f64::NEG_INFINITY, 0usize);
    s.for_each_legal(|id| {
        let at = out.len();
        out.resize(at + LEN, 0.0);
        let row = &mut out[at..at + LEN];
        row_of(s, id, me, pool, row);
        let x = greedy.score(id);
        row[SCORE] = (x * 10.0).clamp(-5.0, 5.0) as f32;
        if KeyScores::prefers(id, x, best) {
            best = x;
            pick = n;
        }
        n += 1;
    });
    if n == 0 {
        return true;
    }
    out[pick * LEN + PICK] = 1.0;
    // the rank: greedy's pick first, then by score (ties in legal order)
    for i in 0..n {
        if i == pick || n < 2 {
            continue;
        }
        let x = out[i * LEN + SCORE];
        let before = (0..n).filter(|&j| j != i && j != pick).filter(|&j| out[j * LEN + SCORE] > x || (out[j * LEN + SCORE] == x && j < i)).count();
        out[i * LEN + RANK] = (1 + before) as f32 / (n - 1) as f32;
    }
    true
}
