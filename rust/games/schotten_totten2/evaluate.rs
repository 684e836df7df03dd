//! The evaluation of an unfinished game for the harness search's cut-off rollouts (issue 25;
//! `GameState::evaluate`): the Attacker's chance to win, from greedy's model of a section
//! (R13.2) applied to a re-dealt copy in which every hand is known.
//!
//! Per section, the chance that the Attacker's side ends stronger: exact when both sides are
//! complete (R8.5: a tie goes to the side completed first), otherwise a logistic of the
//! difference of the two sides' expected strength keys (`bots::section_chance`: each kind's
//! chance to be reached from the seat's hand and about half of the deck still to come),
//! over `eval_scale`. The Attacker wins (R10.2) by damaging a damaged section again or by
//! `rules.damages_to_win − damaged` new damages: the chance of either, the sections taken
//! as independent, each open chance scaled by `eval_pace` ^ (share of the deck already
//! drawn) for the time left (R7).
//! The Attacker scores 2P − 1, the Defender 1 − 2P.
//!
//! Opt-in: the search cuts rollouts only with `horizon` > 0 (this game's default is 0, full
//! play-outs). Measured (issue 25, `examples/st2_games`): with it the search is not yet
//! better than greedy as the Attacker; see docs/bots.md.

use super::bots::{section_chance, Outlook};
use super::state::{Phase, State, ATTACKER, DEFENDER};
use crate::harness::search::Knob;

/// The evaluation's weights, in this order (`Rules::eval_knobs`).
pub const EVAL_KNOBS: &[Knob] = &[
    Knob {
        name: "eval_scale",
        default: 25.0,
        min: 0.1,
        max: 1000.0,
        integer: false,
        description: "logistic scale of the difference of two sides' expected strength keys (R8.4 scale)",
    },
    Knob {
        name: "eval_pace",
        default: 1.0,
        min: 0.0,
        max: 1.0,
        integer: false,
        description: "an unclaimed section's chance is scaled by eval_pace ^ (share of the deck drawn): below 1 the clock favours the Defender",
    },
];

/// The Attacker's chance to win from here (see the module documentation).
pub fn attacker_chance(s: &State, scale: f64, pace: f64) -> f64 {
    if s.phase == Phase::Over {
        return if !s.unfinished && s.winner as usize == ATTACKER { 1.0 } else { 0.0 };
    }
    let left = s.deck_len as usize;
    // one card is drawn a turn (R7.1)
    let drawn = s.turn as f64 / (s.turn as f64 + left as f64).max(1.0);
    let clock = pace.powf(drawn);
    let att = Outlook::new(s.hands[ATTACKER], s.deck_set, left / 2);
    let def = Outlook::new(s.hands[DEFENDER], s.deck_set, left.div_ceil(2));
    let damaged = s.damaged.count_ones() as usize;
    // P(no repeat damage) and the distribution of new damages (Poisson binomial)
    let mut no_repeat = 1.0;
    let mut new = [0.0f64; 8];
    new[0] = 1.0;
    for sec in 0..7 {
        let (p, exact) = section_chance(s, sec, &s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec], &att, &def, scale);
        let p = if exact { p } else { clock * p };
        if s.damaged >> sec & 1 == 1 {
            no_repeat *= 1.0 - p;
        } else {
            for k in (0..7).rev() {
                new[k + 1] += new[k] * p;
                new[k] *= 1.0 - p;
            }
        }
    }
    let need = (s.p.damages_to_win as usize).saturating_sub(damaged);
    let enough: f64 = new[need.min(7)..].iter().sum();
    1.0 - no_repeat * (1.0 - enough)
}

/// Both seats' scores into `out` (Attacker, Defender), weights in `EVAL_KNOBS` order.
pub fn evaluate(s: &State, w: &[f64], out: &mut [f64]) {
    let p = attacker_chance(s, w[0], w[1]);
    out[ATTACKER] = 2.0 * p - 1.0;
    out[DEFENDER] = 1.0 - 2.0 * p;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::schotten_totten2::cards::card;
    use crate::games::schotten_totten2::formation::strength;
    use crate::games::schotten_totten2::wall::GATE;
    use crate::games::schotten_totten2::Params;

    const W: [f64; 2] = [25.0, 1.0];

    fn chance(s: &State) -> f64 {
        attacker_chance(s, W[0], W[1])
    }

    #[test]
    fn a_fresh_game_is_open_and_the_scores_are_zero_sum() {
        let s = State::from_seed(Params::default(), 3);
        let p = chance(&s);
        assert!(p > 0.05 && p < 0.95, "{p}");
        let mut out = [0.0; 2];
        evaluate(&s, &W, &mut out);
        assert!((out[ATTACKER] + out[DEFENDER]).abs() < 1e-12);
        assert!((out[ATTACKER] - (2.0 * p - 1.0)).abs() < 1e-12);
    }

    /// R8.5, R10.2: a section the Attacker holds for sure raises his chance; the same
    /// section held by the Defender lowers it; a won game scores 1.
    #[test]
    fn complete_sections_and_damage_move_the_chance_r10_2() {
        let base = chance(&State::empty(Params::default()));
        let mut att = State::empty(Params::default());
        att.place(ATTACKER, GATE, &[card(0, 10), card(0, 11)]);
        att.place(DEFENDER, GATE, &[card(1, 1), card(2, 5)]);
        let mut def = State::empty(Params::default());
        def.place(ATTACKER, GATE, &[card(1, 1), card(2, 5)]);
        def.place(DEFENDER, GATE, &[card(0, 10), card(0, 11)]);
        assert!(chance(&att) > base && base > chance(&def), "{} {base} {}", chance(&att), chance(&def));
        // sections the Attacker holds for sure (complete, stronger than a complete Defender)
        let mut sure = State::empty(Params::default());
        let mut held = 0;
        for sec in 0..3 {
            let f = sure.face(sec);
            let cap = f.cards as usize;
            let a: Vec<u8> = (0..cap).map(|j| card(sec as u8, 11 - j as u8)).collect();
            let d: Vec<u8> = (0..cap).map(|j| card(((sec + 1 + j) % 5) as u8, j as u8)).collect();
            let keep = sure.p.keep_colour_run;
            if strength(&a, f.cond, keep) > strength(&d, f.cond, keep) {
                sure.place(ATTACKER, sec, &a);
                sure.place(DEFENDER, sec, &d);
                held += 1;
            }
        }
        assert!(held >= 2, "the printed wall has intact sections where a high colour run wins");
        // R10.2's number is a parameter: enough sections held wins for sure, one more needed
        // is likely, every section needed is not
        let with = |k: u8| {
            let mut t = sure.clone();
            t.p.damages_to_win = k;
            chance(&t)
        };
        assert!(with(held) > 0.999, "{}", with(held));
        assert!(with(held + 1) > 0.6 && with(7) < with(held + 1) - 0.3, "{} {}", with(held + 1), with(7));
        // a damaged section held for sure again wins at once (damaged twice)
        let mut twice = State::empty(Params::default());
        twice.damaged = 1 << GATE;
        let f = twice.face(GATE);
        let a: Vec<u8> = (0..f.cards as usize).map(|j| card(0, 11 - j as u8)).collect();
        let d: Vec<u8> = (0..f.cards as usize).map(|j| card(((1 + j) % 5) as u8, j as u8)).collect();
        let keep = twice.p.keep_colour_run;
        // the stronger of the two formations is the Attacker's (the damaged gate's "−")
        let (a, d) = if strength(&a, f.cond, keep) > strength(&d, f.cond, keep) { (a, d) } else { (d, a) };
        twice.place(ATTACKER, GATE, &a);
        twice.place(DEFENDER, GATE, &d);
        assert!(chance(&twice) > 0.999, "{}", chance(&twice));
        twice.sides[ATTACKER][GATE] = Default::default();
        assert!(chance(&twice) < 0.999);
    }
}
