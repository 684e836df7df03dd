//! The search bot (`"search"`): determinized Monte-Carlo search. Each iteration re-deals
//! everything the seat cannot see, plays one candidate option and then the whole game out
//! with heuristic policies, and scores a win for the seat. The budget is a fixed number of
//! iterations per decision, never a clock, so games reproduce.
//!
//! By default (knob `every` = 0) it searches main-priority decisions only (re-dealing with
//! `SeatView::determinize` and continuing with `Game::continue_with`); all other decisions
//! (targets, blocks, …) use the heuristic. With `every` = 1 it searches every decision with
//! two or more options (mulligan, targets, attacks, blocks, reactions, damage division,
//! Exposé amounts, discards, sacrifices) the same way through the game's record
//! (`engine::step`: `Game::rollout_from` replays the answers since the last checkpoint in a
//! re-dealt copy); main-priority decisions are searched exactly as with `every` = 0.
//!
//! A rollout plays at most `rollout_rounds` rounds after the round of the decision; one cut
//! there (or by the game's own round or action cap) is *unfinished*: it scores ½, like a game
//! without a winner, and is counted (`unfinished_rollouts`, reported per seat in the batch
//! results). Search stops rolling out as soon as the batch's stop token is set.

use super::heuristic::{self, Knobs};
use super::Policy;
use crate::engine::{DecisionKind, EndReason, Opt, SeatView};
use crate::harness::Stop;
use crate::rng::Rng;

/// Default of the `rollout_rounds` knob.
pub const DEFAULT_ROLLOUT_ROUNDS: u32 = 30;
/// Largest `rollout_rounds` accepted (the largest `rules.max_rounds`).
pub const MAX_ROLLOUT_ROUNDS: u32 = 100_000;

#[derive(Clone, Debug)]
pub struct Search {
    pub iterations: u32,
    /// Options kept for search at most (the heuristic's favourites); the rest are not tried.
    pub width: usize,
    /// Rounds a rollout may play after the round of the decision before it is cut.
    pub rollout_rounds: u32,
    pub knobs: Knobs,
    pub rng: Rng,
    /// The batch's stop token: once requested, no more rollouts (the heuristic's pick is taken).
    pub stop: Option<Stop>,
    /// Rollouts played so far in this game, and those that ended unfinished (saturating).
    pub rollouts: u32,
    pub unfinished_rollouts: u32,
    /// Most rounds a rollout of this game played after its decision's round.
    pub longest_rollout: u32,
    /// Search every decision, not only main priority (knob `every`).
    pub every: bool,
    /// For viewers (the replay's option scores), off in a batch: when Some, each searched
    /// decision leaves here its candidates as (option index, rollouts, mean score 0..=1).
    /// The caller empties it before a decision; it stays empty when the decision was not
    /// searched.
    pub root: Option<Vec<(usize, u32, f64)>>,
}

impl Search {
    /// A search policy with the default rollout bound and fresh counters.
    pub fn new(iterations: u32, width: usize, knobs: Knobs, rng: Rng) -> Search {
        Search {
            iterations,
            width,
            rollout_rounds: DEFAULT_ROLLOUT_ROUNDS,
            knobs,
            rng,
            stop: None,
            rollouts: 0,
            unfinished_rollouts: 0,
            longest_rollout: 0,
            every: false,
            root: None,
        }
    }

    /// Count one rollout (played `rounds` rounds after the decision's) and score it for
    /// seat `me`: 1 won, 0 lost, ½ without a winner (simultaneous elimination, or an
    /// unfinished rollout, counted in `unfinished_rollouts`).
    fn count_rollout(&mut self, out: &crate::engine::Outcome, rounds: u32, me: usize) -> f64 {
        self.rollouts = self.rollouts.saturating_add(1);
        self.longest_rollout = self.longest_rollout.max(rounds);
        if matches!(out.reason, EndReason::UnfinishedRoundCap | EndReason::UnfinishedActionCap) {
            self.unfinished_rollouts = self.unfinished_rollouts.saturating_add(1);
        }
        if out.won(me) {
            1.0
        } else if out.winners.is_empty() {
            0.5
        } else {
            0.0
        }
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.requested())
    }

    pub fn choose(&mut self, v: &SeatView, kind: DecisionKind, opts: &[Opt]) -> usize {
        let h = heuristic::choose(&self.knobs, v, kind, opts);
        if opts.len() < 2 || self.iterations == 0 || self.stopped() {
            return h;
        }
        if kind != DecisionKind::Main {
            if self.every && v.recorded() {
                return self.choose_other(v, kind, opts, h);
            }
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
            if self.stopped() {
                return h;
            }
            let j = it as usize % k;
            let pols: Vec<Policy> = (0..v.n_players()).map(|_| Policy::Heuristic(Box::new(self.knobs.clone()))).collect();
            let mut g = v.determinize(&mut self.rng, pols);
            let start = g.state.round;
            g.state.round_limit = start.saturating_add(self.rollout_rounds);
            let out = g.continue_with(opts[cand[j].0]);
            plays[j] += 1;
            wins[j] += self.count_rollout(&out, g.state.round - start, me);
        }
        let mut best = 0;
        for j in 1..k {
            // mean win rate; ties keep the heuristic's order
            if wins[j] / plays[j] as f64 > wins[best] / plays[best] as f64 {
                best = j;
            }
        }
        if let Some(root) = self.root.as_mut() {
            root.clear();
            root.extend((0..k).map(|j| (cand[j].0, plays[j], wins[j] / plays[j] as f64)));
        }
        cand[best].0
    }

    /// Search a decision other than main priority: the heuristic's pick and the other
    /// options in their offered order, at most `width`; each iteration plays one of them in a
    /// re-dealt copy that replays the game since its last checkpoint.
    fn choose_other(&mut self, v: &SeatView, kind: DecisionKind, opts: &[Opt], h: usize) -> usize {
        let mut cand: Vec<usize> = vec![h];
        cand.extend((0..opts.len()).filter(|&i| i != h));
        cand.truncate(self.width.max(1));
        if cand.len() == 1 {
            return h;
        }
        let k = cand.len();
        let mut wins = vec![0f64; k];
        let mut plays = vec![0u32; k];
        let me = v.seat;
        let limit = v.round().saturating_add(self.rollout_rounds);
        for it in 0..self.iterations.max(k as u32) {
            if self.stopped() {
                return h;
            }
            let j = it as usize % k;
            let pols: Vec<Policy> = (0..v.n_players()).map(|_| Policy::Heuristic(Box::new(self.knobs.clone()))).collect();
            let (out, offered, rounds) = v.rollout(&mut self.rng, kind, opts[cand[j]], pols, limit);
            let score = self.count_rollout(&out, rounds, me);
            if !offered {
                // the re-dealt copy reached another decision: the rollout says nothing here
                continue;
            }
            plays[j] += 1;
            wins[j] += score;
        }
        let rate = |j: usize| if plays[j] == 0 { -1.0 } else { wins[j] / plays[j] as f64 };
        let mut best = 0;
        for j in 1..k {
            if rate(j) > rate(best) {
                best = j;
            }
        }
        if let Some(root) = self.root.as_mut() {
            root.clear();
            root.extend((0..k).map(|j| (cand[j], plays[j], rate(j).max(0.0))));
        }
        cand[best]
    }
}
