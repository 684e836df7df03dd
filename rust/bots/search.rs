//! The search bot (`"search"`): determinized Monte-Carlo search at every main-priority
//! decision. Each iteration re-deals everything the seat cannot see (SeatView::determinize),
//! plays one candidate option and then the whole game out with heuristic policies, and scores
//! a win for the seat. The budget is a fixed number of iterations per decision, never a clock,
//! so games reproduce. All other decisions (targets, blocks, …) use the heuristic.

use super::heuristic::{self, Knobs};
use super::Policy;
use crate::engine::{DecisionKind, Opt, SeatView};
use crate::rng::Rng;

#[derive(Clone, Debug)]
pub struct Search {
    pub iterations: u32,
    /// Options kept for search at most (the heuristic's favourites); the rest are not tried.
    pub width: usize,
    pub knobs: Knobs,
    pub rng: Rng,
}

impl Search {
    pub fn choose(&mut self, v: &SeatView, kind: DecisionKind, opts: &[Opt]) -> usize {
        let h = heuristic::choose(&self.knobs, v, kind, opts);
        if kind != DecisionKind::Main || opts.len() < 2 || self.iterations == 0 {
            return h;
        }
        // candidates: the heuristic's best `width` options (by its score), always incl. its pick
        let mut cand: Vec<(usize, f64)> = opts.iter().enumerate().map(|(i, o)| (i, heuristic::main_score_pub(&self.knobs, v, o))).collect();
        cand.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal).then(a.0.cmp(&b.0)));
        cand.truncate(self.width.max(1));
        if !cand.iter().any(|c| c.0 == h) {
            cand.push((h, 0.0));
        }
        if cand.len() == 1 {
            return cand[0].0;
        }
        let k = cand.len();
        let mut wins = vec![0f64; k];
        let mut plays = vec![0u32; k];
        let me = v.seat;
        for it in 0..self.iterations.max(k as u32) {
            let j = it as usize % k;
            let pols: Vec<Policy> = (0..v.n_players()).map(|_| Policy::Heuristic(Box::new(self.knobs.clone()))).collect();
            let mut g = v.determinize(&mut self.rng, pols);
            let out = g.continue_with(opts[cand[j].0]);
            plays[j] += 1;
            wins[j] += match out.winner {
                Some(w) if w as usize == me => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let mut best = 0;
        for j in 1..k {
            // mean win rate; ties keep the heuristic's order
            if wins[j] / plays[j] as f64 > wins[best] / plays[best] as f64 {
                best = j;
            }
        }
        cand[best].0
    }
}
