//! The `learned` bot (issue 26): a policy network (`learn::Mlp`, a model file) scores every
//! main-priority option from the seat's position features and the option's features
//! (`learn::ketharmad_features`, `learn::ketharmad_actions`) and plays the best; its other
//! decisions (targets, blocks, reactions …) are the `tuned` bot's. It runs inside the batch
//! with no Python and no allocation per decision: the position's share of the first layer is
//! computed once per decision, each option adds its own.

use super::heuristic::{self, Knobs};
use crate::engine::{DecisionKind, Opt, SeatView};
use crate::learn::ketharmad_actions::{self as actions, Buffers};
use crate::learn::ketharmad_features as position;
use crate::learn::Mlp;
use std::sync::Arc;

/// The bot of the decisions the model does not make.
const OTHERS: &str = "tuned";

#[derive(Clone, Debug)]
pub struct Learned {
    model: Arc<Mlp>,
    knobs: Knobs,
    buf: Buffers,
    state: Vec<f32>,
    opts: Vec<f32>,
    hidden: Vec<f32>,
}

impl Learned {
    pub fn new(model: Arc<Mlp>) -> Learned {
        Learned {
            model,
            knobs: Knobs::from(OTHERS, &[]),
            buf: Buffers::default(),
            state: vec![0.0; position::LEN],
            opts: Vec::with_capacity(64 * actions::LEN),
            hidden: Vec::new(),
        }
    }

    pub fn choose(&mut self, v: &SeatView, kind: DecisionKind, opts: &[Opt]) -> usize {
        if opts.len() < 2 || kind != DecisionKind::Main {
            return heuristic::choose(&self.knobs, v, kind, opts);
        }
        let mut best = 0;
        let mut bs = f32::NEG_INFINITY;
        self.score(v, opts, |i, s| {
            if s > bs {
                bs = s;
                best = i;
            }
        });
        best
    }

    /// The model's score (a logit) of every main-priority option, handed to `each` in order.
    fn score(&mut self, v: &SeatView, opts: &[Opt], mut each: impl FnMut(usize, f32)) {
        position::features_of(v, &mut self.state);
        self.opts.resize(opts.len() * actions::LEN, 0.0);
        actions::features(&self.knobs, v, opts, &mut self.buf, &mut self.opts);
        self.model.first_layer_prefix(&self.state, &mut self.hidden);
        for i in 0..opts.len() {
            each(i, self.model.forward_with_prefix(&self.hidden, position::LEN, &self.opts[i * actions::LEN..(i + 1) * actions::LEN]));
        }
    }

    /// The options of a main-priority decision best first by the model's scores (ties in
    /// option order, so the first is `choose`'s pick): the search's prior (`Agent::rank`).
    pub fn rank(&mut self, v: &SeatView, opts: &[Opt], out: &mut Vec<usize>, scores: &mut Vec<f64>) {
        scores.clear();
        self.score(v, opts, |_, s| scores.push(s as f64));
        out.clear();
        out.extend(0..opts.len());
        out.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    }
}
