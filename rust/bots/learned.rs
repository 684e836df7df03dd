//! The `learned` bot (issue 26): a policy network (`learn::Mlp`, a model file) scores every
//! main-priority option from the seat's position features and the option's features
//! (`learn::ketharmad_features`, `learn::ketharmad_actions`) and plays the best; its other
//! decisions (targets, blocks, reactions …) are the `tuned` bot's. It runs inside the batch
//! with no Python and no allocation per decision: the position's share of the first layer is
//! computed once per decision, each option adds its own. Given several model files (an
//! ensemble, `model = [..]`), an option's score is the mean of the models' scores.

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
    /// Further models of an ensemble (empty: one model), each with its first-layer prefix.
    more: Vec<(Arc<Mlp>, Vec<f32>)>,
    knobs: Knobs,
    buf: Buffers,
    state: Vec<f32>,
    opts: Vec<f32>,
    hidden: Vec<f32>,
}

impl Learned {
    pub fn new(model: Arc<Mlp>) -> Learned {
        Learned::ensemble(model, &[])
    }

    /// `model` and `more` as one policy: each option's score the mean of their scores.
    pub fn ensemble(model: Arc<Mlp>, more: &[Arc<Mlp>]) -> Learned {
        Learned {
            model,
            more: more.iter().map(|m| (m.clone(), Vec::new())).collect(),
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
        if self.more.is_empty() {
            for i in 0..opts.len() {
                each(i, self.model.forward_with_prefix(&self.hidden, position::LEN, &self.opts[i * actions::LEN..(i + 1) * actions::LEN]));
            }
            return;
        }
        for (m, pre) in &mut self.more {
            m.first_layer_prefix(&self.state, pre);
        }
        let k = (1 + self.more.len()) as f32;
        for i in 0..opts.len() {
            let o = &self.opts[i * actions::LEN..(i + 1) * actions::LEN];
            let mut s = self.model.forward_with_prefix(&self.hidden, position::LEN, o);
            for (m, pre) in &self.more {
                s += m.forward_with_prefix(pre, position::LEN, o);
            }
            each(i, s / k);
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
