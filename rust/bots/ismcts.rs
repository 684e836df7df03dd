//! The `ismcts` bot in Kétharmad's own batch (`Policy::Ismcts`): the harness search
//! (`harness::search`, written once for every game) answering Kétharmad's main-priority
//! decisions from inside the fast batch, so every lab call (`simulate`, `tournament`,
//! `ab_test`, `ladder`, `tune_bot`, balance) can play it as it plays the built-in bots.
//!
//! At a main-priority decision it re-deals what its seat cannot see (`SeatView::determinize`),
//! drives that copy from this decision (`Stepper::at_main`) and hands it to the search as a
//! [`KetharmadState`]; every iteration of the search re-deals it again. Its other decisions
//! (targets, blocks, reactions …) are the rollout bot's (`tuned`), as the search's `key_only`
//! does on the driven path. The options are the search's and Kétharmad's evaluation weights,
//! with Kétharmad's defaults (`games::ketharmad::SEARCH_DEFAULTS`); the rollout bot is `tuned`.

use super::heuristic::{self, Knobs};
use crate::engine::actions::ActionSpace;
use crate::engine::step::Stepper;
use crate::engine::{DecisionKind, NoAgent, Opt, SeatView};
use crate::games::ketharmad::{BuiltinAgent, KetharmadState, EVAL_KNOBS, SEARCH_DEFAULTS};
use crate::harness::search::{SearchAgent, SearchConfig, SEARCH_KNOBS};
use crate::harness::{Agent, GameState, Stop};
use crate::rng::Rng;
use std::sync::Arc;

/// The rollout bot (and the bot of the decisions not searched).
const ROLLOUT: &str = "tuned";

/// The search options of a spec's knobs over Kétharmad's defaults; errors name the knob.
pub fn config(knobs: &[(String, f64)]) -> Result<SearchConfig, String> {
    let mut cfg = SearchConfig::defaults(EVAL_KNOBS);
    for &(k, x) in SEARCH_DEFAULTS {
        cfg.set(k, x, EVAL_KNOBS)?;
    }
    for (k, x) in knobs {
        if !SEARCH_KNOBS.iter().chain(EVAL_KNOBS).any(|n| n.name == k) {
            let names: Vec<&str> = SEARCH_KNOBS.iter().chain(EVAL_KNOBS).map(|n| n.name).collect();
            return Err(format!("bot 'ismcts' has no knob '{k}' (knobs: {})", names.join(", ")));
        }
        cfg.set(k, *x, EVAL_KNOBS).map_err(|e| format!("bot 'ismcts': {e}"))?;
    }
    Ok(cfg)
}

pub struct Ismcts {
    pub cfg: SearchConfig,
    pub rng: Rng,
    /// The batch's stop token (the search checks it before every iteration).
    pub stop: Option<Stop>,
    rollout_knobs: Knobs,
    /// Built at the first searched decision of a game (the card set's action ids, the agent).
    space: Option<Arc<ActionSpace>>,
    agent: Option<SearchAgent<KetharmadState>>,
    ids: Vec<u32>,
    /// A policy model whose ranking is the search's prior (`BotSpec::prior`); None: the rollout bot's.
    pub prior: Option<Arc<crate::learn::Mlp>>,
}

impl Ismcts {
    pub fn new(cfg: SearchConfig, rng: Rng) -> Ismcts {
        Ismcts { cfg, rng, stop: None, rollout_knobs: Knobs::from(ROLLOUT, &[]), space: None, agent: None, ids: Vec::with_capacity(64), prior: None }
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.requested())
    }

    pub fn choose(&mut self, v: &SeatView, kind: DecisionKind, opts: &[Opt]) -> usize {
        if opts.len() < 2 || kind != DecisionKind::Main || self.stopped() {
            return heuristic::choose(&self.rollout_knobs, v, kind, opts);
        }
        let n = v.n_players();
        let db = v.db();
        let space = self.space.get_or_insert_with(|| Arc::new(ActionSpace::new(db))).clone();
        if self.agent.is_none() {
            let rollout: Vec<Box<dyn Agent<KetharmadState>>> = (0..n).map(|_| Box::new(BuiltinAgent::named(ROLLOUT)) as Box<dyn Agent<KetharmadState>>).collect();
            let prior = self.prior.as_ref().map(|m| {
                let spec = crate::bots::BotSpec { kind: "learned".into(), knobs: Vec::new(), model: Some(m.clone()), prior: None, ensemble: Vec::new() };
                (0..n).map(|_| Box::new(BuiltinAgent::of_spec(spec.clone())) as Box<dyn Agent<KetharmadState>>).collect()
            });
            let mut a = SearchAgent::new(self.cfg.clone(), rollout, prior);
            if let Some(s) = &self.stop {
                a.set_stop(s);
            }
            self.agent = Some(a);
        }
        // the root: this decision in a copy with the hidden cards re-dealt, driven from here
        let copy = v.determinize(&mut self.rng, vec![NoAgent; n]);
        let st = Stepper::at_main(copy);
        // SAFETY: the stepper borrows the card set of `v`'s game, which outlives this call;
        // the state lives only in this call (the search keeps no state between decisions:
        // its rollout bots hold policies, never games), so the 'static it is given here is
        // never observed past the borrow.
        let st: Stepper<'static> = unsafe { std::mem::transmute::<Stepper<'_>, Stepper<'static>>(st) };
        let root = KetharmadState::borrowed(st, space.clone(), n);
        // the copy offers this decision's options in the same order (only hidden cards moved)
        let same = matches!(root.stepper().pending(), Some((seat, DecisionKind::Main, o)) if seat == v.seat && o == opts);
        if !same {
            return heuristic::choose(&self.rollout_knobs, v, kind, opts);
        }
        root.legal_actions(&mut self.ids);
        let Some(agent) = self.agent.as_mut() else { return 0 };
        let a = agent.act(&root, &self.ids, &mut self.rng);
        let i = root.stepper().pending().and_then(|(seat, _, o)| space.decode(root.stepper().game(), seat, a, o));
        drop(root);
        i.unwrap_or_else(|| heuristic::choose(&self.rollout_knobs, v, kind, opts))
    }
}

impl Ismcts {
    /// The root statistics of the last searched decision (action ids of the step API's
    /// action space), empty when it was not searched since `forget_root` (for viewers).
    pub fn root_stats(&self) -> Vec<crate::harness::search::RootStat> {
        self.agent.as_ref().map_or_else(Vec::new, |a| a.root_stats())
    }

    /// Forget the last decision's root statistics.
    pub fn forget_root(&mut self) {
        if let Some(a) = self.agent.as_mut() {
            a.forget_root();
        }
    }
}

impl Clone for Ismcts {
    /// A fresh bot with the same options, stream and stop token (the search is rebuilt).
    fn clone(&self) -> Ismcts {
        let mut c = Ismcts::new(self.cfg.clone(), self.rng.clone());
        c.stop = self.stop.clone();
        c.prior = self.prior.clone();
        c
    }
}

impl std::fmt::Debug for Ismcts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ismcts").field("cfg", &self.cfg).finish_non_exhaustive()
    }
}
