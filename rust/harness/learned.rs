//! The generic `learned` agent (issue 26): a policy network (`learn::Mlp`, a model file of
//! kind `policy`) scores every legal action of a key decision (`GameState::key_decision`) from
//! the mover's position features (`GameState::features`) followed by the action's features
//! (`GameState::option_features`) and plays the best (the first best, in legal order). Every
//! other decision (not a key decision, a single legal action, a decision without option
//! features) is the game's default rollout bot's (`Rules::search_rollout`). Its ranking
//! (`Agent::rank`, the model's scores best first) makes it a search prior.
//!
//! Spec: `learned:model=PATH`. Kétharmad has its own `learned` bot (`bots::learned`), which its
//! `Rules::make_agent` builds before this one is tried.
//!
//! No allocation per decision beyond its reused buffers: the position's share of the first
//! layer is computed once a decision (`Mlp::first_layer_prefix`), each action adds its own.

use super::{Agent, GameState, Stop};
use crate::learn::Mlp;
use crate::rng::Rng;
use std::sync::Arc;

/// A policy model playing one seat, the game's rollout bot for the rest.
pub struct LearnedAgent<S: GameState> {
    model: Arc<Mlp>,
    /// The bot of the decisions the model does not make.
    fallback: Box<dyn Agent<S>>,
    /// Position and option feature counts.
    width: usize,
    opt_width: usize,
    state: Vec<f32>,
    opts: Vec<f32>,
    hidden: Vec<f32>,
    scores: Vec<f32>,
    order: Vec<usize>,
}

impl<S: GameState> LearnedAgent<S> {
    /// The agent of a model already checked against the game's layout (`width` position
    /// features, then `opt_width` option features), with `fallback` for its other decisions.
    pub fn new(model: Arc<Mlp>, fallback: Box<dyn Agent<S>>, width: usize, opt_width: usize) -> LearnedAgent<S> {
        LearnedAgent {
            model,
            fallback,
            width,
            opt_width,
            state: vec![0.0; width],
            opts: Vec::with_capacity(64 * opt_width),
            hidden: Vec::new(),
            scores: Vec::with_capacity(64),
            order: Vec::with_capacity(64),
        }
    }

    /// The model's score (a logit) of every action of `legal` into `self.scores`; false when
    /// the model does not make this decision.
    fn score(&mut self, s: &S, legal: &[u32]) -> bool {
        let Some(seat) = s.to_move() else { return false };
        if legal.len() < 2 || !s.key_decision() || !s.option_features(&mut self.opts) || self.opts.len() != legal.len() * self.opt_width {
            return false;
        }
        if !s.features(seat, &mut self.state) {
            return false;
        }
        self.model.first_layer_prefix(&self.state, &mut self.hidden);
        self.scores.clear();
        for row in self.opts.chunks_exact(self.opt_width) {
            self.scores.push(self.model.forward_with_prefix(&self.hidden, self.width, row));
        }
        true
    }
}

impl<S: GameState> Agent<S> for LearnedAgent<S> {
    fn act(&mut self, s: &S, legal: &[u32], rng: &mut Rng) -> u32 {
        if !self.score(s, legal) {
            return self.fallback.act(s, legal, rng);
        }
        let mut best = 0;
        for (i, &x) in self.scores.iter().enumerate() {
            if x > self.scores[best] {
                best = i;
            }
        }
        legal[best]
    }

    fn set_stop(&mut self, stop: &Stop) {
        self.fallback.set_stop(stop);
    }

    /// The model's order (its pick first, ties in legal order) at the decisions it makes; the
    /// fallback bot's ranking at the others.
    fn rank(&mut self, s: &S, legal: &[u32], rng: &mut Rng, out: &mut Vec<u32>) -> bool {
        if !self.score(s, legal) {
            return self.fallback.rank(s, legal, rng, out);
        }
        self.order.clear();
        self.order.extend(0..legal.len());
        let scores = &self.scores;
        // equal scores keep legal's order, as `act` keeps the first (no stable sort's buffer)
        self.order.sort_unstable_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        out.clear();
        out.extend(self.order.iter().map(|&i| legal[i]));
        true
    }
}
