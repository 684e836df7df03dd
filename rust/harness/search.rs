//! The harness's search bot (`"search"` in Schotten Totten 2 and Osztrakon, `"ismcts"` in
//! Kétharmad), written once for every game over [`GameState`] (issue 25 item 1):
//!
//! - **One information-set tree** (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):
//!   every iteration re-deals what the acting seat cannot see (`GameState::determinized`) and
//!   walks one shared tree keyed by action ids, choosing by UCB1 among the children legal in
//!   that deal, with availability counts in place of the parent's visits.
//! - **Cut-off rollouts**: a rollout plays at most `horizon` turns (the game's own unit,
//!   `GameState::clock`) and is then scored by the game's evaluation (`GameState::evaluate`,
//!   with weights that are options of the bot, `Rules::eval_knobs`); `horizon=0` plays out to
//!   the end. A game without an evaluation always plays out.
//! - **A rollout policy per game** (`rollout=`, any non-search bot of the game: the heuristic,
//!   greedy, a B1 policy, random), mixed with uniform choices at rate `epsilon`.
//! - **Progressive widening** (`widen`, `widen_power`): a node adds children only while it has
//!   fewer than `widen · visits^widen_power`; the first child added is the rollout policy's
//!   pick (or the `prior=` bot's), so wide decisions (Kétharmad's main priority) start from
//!   that bot's favourite.
//! - **The final choice**: the most visited root child legal now, ties broken by mean reward.
//!
//! The budget is a fixed number of iterations per decision, never a clock, so games
//! reproduce. The batch's stop token (`Agent::set_stop`) is checked before every iteration,
//! so a Ctrl-C stops a decision after at most one iteration. The tree and every buffer are
//! kept across decisions: no allocation per iteration beyond what the game's own
//! `determinized` needs.

use super::{Agent, GameState, Stop};
use crate::rng::Rng;

/// One named, ranged option of the search bot (and of a game's evaluation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    pub description: &'static str,
}

/// The search bot's own options (the rollout bot's name, `rollout=`, is a word and listed
/// separately by `bots()`); a game adds the weights of its evaluation (`Rules::eval_knobs`).
pub const SEARCH_KNOBS: &[Knob] = &[
    Knob { name: "iterations", default: 200.0, min: 1.0, max: 1e7, integer: true, description: "ISMCTS iterations per decision (each on a fresh determinization)" },
    Knob { name: "c", default: 0.7, min: 0.0, max: 100.0, integer: false, description: "UCB1 exploration constant (rewards in -1..1)" },
    Knob {
        name: "horizon",
        default: 0.0,
        min: 0.0,
        max: 10_000.0,
        integer: true,
        description: "turns a rollout plays before it is cut and scored by the game's evaluation (0: play out to the end; a game without an evaluation always plays out)",
    },
    Knob { name: "epsilon", default: 0.0, min: 0.0, max: 1.0, integer: false, description: "share of rollout decisions taken uniformly at random instead of by the rollout bot" },
    Knob {
        name: "widen",
        default: 0.0,
        min: 0.0,
        max: 1000.0,
        integer: false,
        description: "progressive widening: a node has at most max(1, widen * visits^widen_power) children, the rollout bot's pick first (0: no widening)",
    },
    Knob { name: "widen_power", default: 0.5, min: 0.0, max: 1.0, integer: false, description: "the exponent of progressive widening" },
    Knob {
        name: "key_only",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        integer: true,
        description: "1: search only the game's key decisions (Kétharmad: main priority; the other games: every decision) and let the rollout bot answer the rest, in the tree too",
    },
    Knob {
        name: "own_only",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        integer: true,
        description: "1: only the searching seat's decisions are tree nodes; the other seats' are answered by the rollout bot (0: every seat's, each from its own point of view)",
    },
    Knob {
        name: "halving",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        integer: true,
        description: "1: the root compares its candidates by sequential halving, every candidate on the same re-deals (common deals), instead of UCB1 over fresh deals",
    },
    Knob {
        name: "width",
        default: 0.0,
        min: 0.0,
        max: 1000.0,
        integer: true,
        description: "with halving: the candidates the root compares, the prior bot's best first (its ranking, or its pick and then random others; 0: every legal action)",
    },
    Knob {
        name: "prior_tree",
        default: 1.0,
        min: 0.0,
        max: 1.0,
        integer: true,
        description: "1: the prior bot orders the expansions in the tree too; 0: with halving, it ranks the root's candidates only and the rollout bot orders the tree (a costly prior, such as a learned policy, then costs once per decision; without halving the prior is then unused)",
    },
    Knob {
        name: "prior_bonus",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        integer: false,
        description: "with halving: a candidate's mean reward (-1..1) counts prior_bonus less for each place it stands below the prior bot's first in its ranking, when halving drops candidates and at the choice (0: the means alone; a strong prior, such as a learned policy, then wins the close calls)",
    },
    Knob {
        name: "value_seats",
        default: 255.0,
        min: 0.0,
        max: 255.0,
        integer: true,
        description: "with a value model: the seats whose searches score their cuts with it, as a bit mask (bit i: seat i; 1: the first seat only, such as Schotten Totten 2's Attacker); the other seats' searches use the game's evaluation (255: every seat)",
    },
    Knob {
        name: "max_rollout_actions",
        default: 10_000.0,
        min: 1.0,
        max: 1e8,
        integer: true,
        description: "actions a rollout may take; one cut there is scored by the evaluation (0 without one)",
    },
];

/// The resolved options of one search bot.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    pub iterations: u32,
    pub c: f64,
    pub horizon: u32,
    pub epsilon: f64,
    pub widen: f64,
    pub widen_power: f64,
    pub max_rollout_actions: u64,
    pub key_only: bool,
    pub own_only: bool,
    pub halving: bool,
    pub width: u32,
    pub prior_tree: bool,
    pub prior_bonus: f64,
    /// With `value`: bit i set, seat i's searches score their cuts with it.
    pub value_seats: u32,
    /// The game's evaluation weights, in the order of `Rules::eval_knobs`.
    pub eval: Vec<f64>,
    /// A learned value model (`learn::Mlp`) that scores cut rollouts in place of the game's
    /// evaluation, from each seat's features (`GameState::features`).
    pub value: Option<std::sync::Arc<crate::learn::Mlp>>,
}

impl SearchConfig {
    /// The defaults of `SEARCH_KNOBS` and of the game's evaluation knobs.
    pub fn defaults(eval_knobs: &[Knob]) -> SearchConfig {
        let d = |n: &str| SEARCH_KNOBS.iter().find(|k| k.name == n).map_or(0.0, |k| k.default);
        SearchConfig {
            iterations: d("iterations") as u32,
            c: d("c"),
            horizon: d("horizon") as u32,
            epsilon: d("epsilon"),
            widen: d("widen"),
            widen_power: d("widen_power"),
            max_rollout_actions: d("max_rollout_actions") as u64,
            key_only: d("key_only") != 0.0,
            own_only: d("own_only") != 0.0,
            halving: d("halving") != 0.0,
            width: d("width") as u32,
            prior_tree: d("prior_tree") != 0.0,
            prior_bonus: d("prior_bonus"),
            value_seats: d("value_seats") as u32,
            eval: eval_knobs.iter().map(|k| k.default).collect(),
            value: None,
        }
    }

    /// Set option `name` to `x` (checked against its knob's range; the caller checked the name).
    pub fn set(&mut self, name: &str, x: f64, eval_knobs: &[Knob]) -> Result<(), String> {
        let knob = SEARCH_KNOBS.iter().chain(eval_knobs).find(|k| k.name == name).ok_or_else(|| format!("the search has no option '{name}'"))?;
        if !x.is_finite() || x < knob.min || x > knob.max || (knob.integer && x.fract() != 0.0) {
            let what = if knob.integer { "a whole number" } else { "a number" };
            return Err(format!("option '{name}' must be {what} in {}..={}, got {x}", knob.min, knob.max));
        }
        match name {
            "iterations" => self.iterations = x as u32,
            "c" => self.c = x,
            "horizon" => self.horizon = x as u32,
            "epsilon" => self.epsilon = x,
            "widen" => self.widen = x,
            "widen_power" => self.widen_power = x,
            "max_rollout_actions" => self.max_rollout_actions = x as u64,
            "key_only" => self.key_only = x != 0.0,
            "own_only" => self.own_only = x != 0.0,
            "halving" => self.halving = x != 0.0,
            "width" => self.width = x as u32,
            "prior_tree" => self.prior_tree = x != 0.0,
            "prior_bonus" => self.prior_bonus = x,
            "value_seats" => self.value_seats = x as u32,
            _ => {
                // unwrap-free: the name was found among the eval knobs above
                if let Some(i) = eval_knobs.iter().position(|k| k.name == name) {
                    self.eval[i] = x;
                }
            }
        }
        Ok(())
    }
}

const NONE: u32 = u32::MAX;

/// One option at the root of a search, after it: its action id, the iterations that went
/// through it and their mean reward for the searching seat (-1..=1). What a viewer shows as
/// the option's score (`Agent::root_stats`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    pub action: u32,
    pub visits: u32,
    pub mean: f64,
}

#[derive(Clone, Debug)]
struct Node {
    action: u32,
    /// The seat that took `action` (rewards are credited from its point of view).
    mover: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    avail: u32,
    reward: f64,
}

/// A uniform draw in [0, 1).
#[inline]
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Single-observer ISMCTS with cut-off rollouts, a rollout bot per seat and progressive
/// widening (see the module documentation).
pub struct SearchAgent<S: GameState> {
    pub cfg: SearchConfig,
    rollout: Vec<Box<dyn Agent<S>>>,
    /// The bot whose pick a widened node expands first, per seat (None: the rollout bot).
    prior: Option<Vec<Box<dyn Agent<S>>>>,
    stop: Option<Stop>,
    nodes: Vec<Node>,
    legal: Vec<u32>,
    untried: Vec<u32>,
    /// a bot's ranking (`Agent::rank`) and the root's candidates (`halving`)
    ranked: Vec<u32>,
    cands: Vec<u32>,
    path: Vec<u32>,
    rewards: Vec<f64>,
    /// mark[action] == stamp: the action is legal in the current node's deal.
    mark: Vec<u32>,
    stamp: u32,
}

impl<S: GameState> SearchAgent<S> {
    pub fn new(cfg: SearchConfig, rollout: Vec<Box<dyn Agent<S>>>, prior: Option<Vec<Box<dyn Agent<S>>>>) -> SearchAgent<S> {
        SearchAgent {
            cfg,
            rollout,
            prior,
            stop: None,
            nodes: Vec::new(),
            legal: Vec::with_capacity(256),
            untried: Vec::with_capacity(256),
            ranked: Vec::with_capacity(256),
            cands: Vec::with_capacity(256),
            path: Vec::with_capacity(256),
            rewards: Vec::with_capacity(8),
            mark: Vec::new(),
            stamp: 0,
        }
    }

    fn mark_legal(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        for &a in &self.legal {
            let a = a as usize;
            if a >= self.mark.len() {
                self.mark.resize(a + 1, 0);
            }
            self.mark[a] = self.stamp;
        }
    }

    #[inline]
    fn is_marked(&self, a: u32) -> bool {
        self.mark.get(a as usize).is_some_and(|&m| m == self.stamp)
    }

    fn add_child(&mut self, parent: u32, action: u32, mover: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let sib = p.first_child;
        p.first_child = id;
        self.nodes.push(Node { action, mover: mover as u32, first_child: NONE, next_sibling: sib, visits: 0, avail: 1, reward: 0.0 });
        id
    }

    /// Play one decision of `seat` by the rollout bot (directly when it can, `Agent::play`),
    /// or a uniform one at rate `epsilon`. Err: the game is stuck (no legal action, or an
    /// illegal answer); the caller stops there.
    fn step_by_rollout_bot(&mut self, st: &mut S, seat: usize, rng: &mut Rng) -> Result<(), String> {
        let uniform = self.cfg.epsilon > 0.0 && unit(rng) < self.cfg.epsilon;
        if !uniform {
            if let Some(r) = self.rollout[seat].play(st, rng) {
                return r;
            }
        }
        st.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return Err("no legal action".into());
        }
        let a = if uniform { self.legal[rng.below(self.legal.len())] } else { self.rollout[seat].act(st, &self.legal, rng) };
        st.apply(a)
    }

    /// Selection and expansion from the root in the deal `st`; leaves the path in `path`.
    fn descend(&mut self, st: &mut S, me: usize, rng: &mut Rng) {
        self.path.clear();
        self.path.push(0);
        self.descend_from(st, 0, me, rng);
    }

    /// Selection and expansion from `node` (the last of `path`) in the deal `st`, whose state
    /// is that node's.
    fn descend_from(&mut self, st: &mut S, mut node: u32, me: usize, rng: &mut Rng) {
        while let Some(seat) = st.to_move() {
            if (self.cfg.key_only && !st.key_decision()) || (self.cfg.own_only && seat != me) {
                // not searched: the rollout bot answers, the walk stays at this node
                if self.step_by_rollout_bot(st, seat, rng).is_err() {
                    return;
                }
                continue;
            }
            st.legal_actions(&mut self.legal);
            if self.legal.is_empty() {
                return;
            }
            self.mark_legal();
            // children already in the tree that are legal in this deal (they are available)
            let mut tried = 0usize;
            let mut ch = self.nodes[node as usize].first_child;
            while ch != NONE {
                let a = self.nodes[ch as usize].action;
                if self.is_marked(a) {
                    tried += 1;
                }
                ch = self.nodes[ch as usize].next_sibling;
            }
            let allowed = if self.cfg.widen > 0.0 {
                let v = self.nodes[node as usize].visits as f64 + 1.0;
                (self.cfg.widen * v.powf(self.cfg.widen_power)).floor().max(1.0) as usize
            } else {
                usize::MAX
            };
            if tried < self.legal.len() && tried < allowed {
                let a = self.expansion(st, node, seat, rng);
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE {
                    if self.is_marked(self.nodes[ch as usize].action) {
                        self.nodes[ch as usize].avail += 1;
                    }
                    ch = self.nodes[ch as usize].next_sibling;
                }
                let child = self.add_child(node, a, seat);
                if st.apply(a).is_err() {
                    return;
                }
                self.path.push(child);
                return;
            }
            // UCB1 with availability counts over the children legal in this deal
            let mut best = NONE;
            let mut best_v = f64::NEG_INFINITY;
            let c = self.cfg.c;
            let mut ch = self.nodes[node as usize].first_child;
            while ch != NONE {
                let legal_here = self.is_marked(self.nodes[ch as usize].action);
                let n = &mut self.nodes[ch as usize];
                if legal_here {
                    n.avail += 1;
                    let visits = n.visits.max(1) as f64;
                    let v = n.reward / visits + c * ((n.avail as f64).ln() / visits).sqrt();
                    if v > best_v {
                        best_v = v;
                        best = ch;
                    }
                }
                ch = n.next_sibling;
            }
            if best == NONE || st.apply(self.nodes[best as usize].action).is_err() {
                return;
            }
            node = best;
            self.path.push(node);
        }
    }

    /// The action a node expands: the rollout bot's pick when it is untried, else a uniform
    /// untried one (`legal` is marked for this deal).
    fn expansion(&mut self, st: &S, node: u32, seat: usize, rng: &mut Rng) -> u32 {
        self.untried.clear();
        self.untried.extend_from_slice(&self.legal);
        let mut ch = self.nodes[node as usize].first_child;
        while ch != NONE {
            let a = self.nodes[ch as usize].action;
            if self.is_marked(a) {
                if let Some(i) = self.untried.iter().position(|&x| x == a) {
                    self.untried.swap_remove(i);
                }
            }
            ch = self.nodes[ch as usize].next_sibling;
        }
        if self.cfg.widen > 0.0 {
            // the prior bot's best untried action: by its ranking when it has one, else its pick
            let bot = match self.prior.as_mut() {
                Some(p) if self.cfg.prior_tree => &mut p[seat],
                _ => &mut self.rollout[seat],
            };
            if bot.rank(st, &self.legal, rng, &mut self.ranked) {
                if let Some(&a) = self.ranked.iter().find(|a| self.untried.contains(a)) {
                    return a;
                }
            } else {
                let pick = bot.act(st, &self.legal, rng);
                if self.untried.contains(&pick) {
                    return pick;
                }
            }
        }
        self.untried[rng.below(self.untried.len())]
    }

    /// The root's candidates for `halving` into `cands`: the prior bot's ranking (its pick,
    /// then the rest in a random order, when it has none), at most `width` of them.
    fn candidates(&mut self, s: &S, legal: &[u32], me: usize, rng: &mut Rng) {
        let bot = match self.prior.as_mut() {
            Some(p) => &mut p[me],
            None => &mut self.rollout[me],
        };
        self.cands.clear();
        if !bot.rank(s, legal, rng, &mut self.cands) || self.cands.is_empty() {
            let pick = bot.act(s, legal, rng);
            self.cands.clear();
            self.cands.push(pick);
            let first = self.cands.len();
            self.cands.extend(legal.iter().copied().filter(|&a| a != pick));
            rng.shuffle(&mut self.cands[first..]);
        }
        if self.cfg.width > 0 {
            self.cands.truncate(self.cfg.width as usize);
        }
    }

    /// One iteration below root child `child` (candidate action `a`) in the deal `st`:
    /// descend, roll out, back up.
    fn iterate_child(&mut self, mut st: S, child: u32, a: u32, me: usize, rng: &mut Rng) {
        if st.apply(a).is_err() {
            return;
        }
        self.path.clear();
        self.path.push(0);
        self.path.push(child);
        self.descend_from(&mut st, child, me, rng);
        self.roll_out(&mut st, me, rng);
        self.back_up();
    }

    /// Credit the last rollout's rewards along `path`.
    fn back_up(&mut self) {
        for &p in &self.path {
            let nd = &mut self.nodes[p as usize];
            nd.visits += 1;
            if nd.mover != NONE {
                nd.reward += self.rewards.get(nd.mover as usize).copied().unwrap_or(0.0);
            }
        }
    }

    /// The root by sequential halving (Karnin, Koren and Somekh 2013) on common deals: the
    /// candidates (`candidates`) play rounds; in each, every candidate still in plays one
    /// iteration on each of the same fresh re-deals, so they are compared on equal terms (in
    /// a game whose deal decides much of the outcome, a paired comparison needs far fewer
    /// iterations), and the better half by mean reward goes on. The budget is `iterations`
    /// iterations, split evenly over ceil(log2(candidates)) rounds. The choice: the best mean
    /// of the last round, ties to the prior bot's order.
    fn act_halving(&mut self, s: &S, legal: &[u32], me: usize, rng: &mut Rng) -> u32 {
        self.candidates(s, legal, me, rng);
        let m = self.cands.len();
        if m <= 1 {
            return self.cands.first().copied().unwrap_or(legal[0]);
        }
        self.nodes.clear();
        self.nodes.push(Node { action: NONE, mover: NONE, first_child: NONE, next_sibling: NONE, visits: 0, avail: 0, reward: 0.0 });
        let kids: Vec<u32> = (0..m).map(|i| self.add_child(0, self.cands[i], me)).collect();
        let mut alive: Vec<usize> = (0..m).collect();
        let rounds = (usize::BITS - (m - 1).leading_zeros()) as usize;
        let budget = self.cfg.iterations as usize;
        // candidate i's score: its mean reward less prior_bonus for each place below the first
        let bonus = self.cfg.prior_bonus;
        let score = |nodes: &[Node], i: usize| {
            let n = &nodes[kids[i] as usize];
            if n.visits == 0 {
                f64::NEG_INFINITY
            } else {
                n.reward / n.visits as f64 - bonus * i as f64
            }
        };
        'rounds: for _ in 0..rounds {
            if alive.len() <= 1 {
                break;
            }
            let per = (budget / (rounds * alive.len())).max(1);
            for _ in 0..per {
                if self.stop.as_ref().is_some_and(|s| s.requested()) {
                    break 'rounds;
                }
                let deal = s.determinized(me, rng);
                for &i in &alive {
                    self.iterate_child(deal.clone(), kids[i], self.cands[i], me, rng);
                }
            }
            // the better half goes on; equal means keep the prior bot's order
            alive.sort_by(|&a, &b| score(&self.nodes, b).total_cmp(&score(&self.nodes, a)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
        }
        let best = alive.iter().copied().max_by(|&a, &b| score(&self.nodes, a).total_cmp(&score(&self.nodes, b)).then(b.cmp(&a))).unwrap_or(0);
        if self.nodes[kids[best] as usize].visits == 0 {
            // stopped before any iteration: the prior bot's choice
            return self.cands[0];
        }
        self.cands[best]
    }

    /// Play `st` on with the rollout bots until the end, the horizon or the action cap, and
    /// leave every seat's reward in `rewards`. With `own_only` only the searching seat `me`
    /// has tree nodes, so a value model scores only `me` at a cut (the others' rewards, which
    /// nothing reads, stay 0): the same search at about half the network's cost in 2 seats.
    /// A seat outside `value_seats` scores its cuts with the game's evaluation instead.
    fn roll_out(&mut self, st: &mut S, me: usize, rng: &mut Rng) {
        let start = st.clock();
        let use_value = self.cfg.value.is_some() && me < 32 && self.cfg.value_seats >> me & 1 == 1;
        let cut = self.cfg.horizon > 0 && (st.has_evaluation() || use_value);
        let mut n = 0u64;
        while let Some(seat) = st.to_move() {
            if n >= self.cfg.max_rollout_actions || (cut && st.clock().saturating_sub(start) >= self.cfg.horizon) {
                break;
            }
            if self.step_by_rollout_bot(st, seat, rng).is_err() {
                break;
            }
            n += 1;
        }
        self.rewards.clear();
        self.rewards.resize(st.seats(), 0.0);
        if st.to_move().is_none() {
            st.rewards(&mut self.rewards);
        } else if let Some(m) = self.cfg.value.as_ref().filter(|_| use_value) {
            let mut x = [0f32; crate::learn::mlp::MAX_WIDTH];
            let own_only = self.cfg.own_only;
            for (seat, r) in self.rewards.iter_mut().enumerate() {
                if own_only && seat != me {
                    continue;
                }
                *r = if st.features(seat, &mut x) { m.value(&x) } else { 0.0 };
            }
        } else if !st.evaluate(&self.cfg.eval, &mut self.rewards) {
            self.rewards.iter_mut().for_each(|r| *r = 0.0);
        }
    }
}

impl<S: GameState> Agent<S> for SearchAgent<S> {
    fn act(&mut self, s: &S, legal: &[u32], rng: &mut Rng) -> u32 {
        if legal.len() == 1 {
            return legal[0];
        }
        let Some(me) = s.to_move() else { return legal[0] };
        if self.cfg.key_only && !s.key_decision() {
            return self.rollout[me].act(s, legal, rng);
        }
        if self.cfg.halving {
            return self.act_halving(s, legal, me, rng);
        }
        self.nodes.clear();
        self.nodes.push(Node { action: NONE, mover: NONE, first_child: NONE, next_sibling: NONE, visits: 0, avail: 0, reward: 0.0 });
        for _ in 0..self.cfg.iterations {
            if self.stop.as_ref().is_some_and(|s| s.requested()) {
                break;
            }
            let mut st = s.determinized(me, rng);
            self.descend(&mut st, me, rng);
            self.roll_out(&mut st, me, rng);
            self.back_up();
        }
        // the most visited root child that is legal now; ties: the better mean reward
        self.legal.clear();
        self.legal.extend_from_slice(legal);
        self.mark_legal();
        let mut best = NONE;
        let mut best_key = (0u32, f64::NEG_INFINITY);
        let mut ch = self.nodes[0].first_child;
        while ch != NONE {
            let nd = &self.nodes[ch as usize];
            if self.is_marked(nd.action) && nd.visits > 0 {
                let key = (nd.visits, nd.reward / nd.visits as f64);
                if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                    best_key = key;
                    best = nd.action;
                }
            }
            ch = nd.next_sibling;
        }
        if best == NONE {
            // stopped before any iteration, or no root child legal now: the rollout bot decides
            self.legal.clear();
            self.legal.extend_from_slice(legal);
            return self.rollout[me].act(s, legal, rng);
        }
        best
    }

    fn set_stop(&mut self, stop: &Stop) {
        self.stop = Some(stop.clone());
    }

    fn root_stats(&self) -> Vec<RootStat> {
        SearchAgent::root_stats(self)
    }

    fn forget_root(&mut self) {
        self.nodes.clear();
    }
}

impl<S: GameState> SearchAgent<S> {
    /// The root's children of the last search (the tree is kept until the next one), most
    /// visited first, then by mean reward, then by action id; empty before any search or
    /// after `forget_root`.
    pub fn root_stats(&self) -> Vec<RootStat> {
        let mut out = Vec::new();
        let Some(root) = self.nodes.first() else { return out };
        let mut ch = root.first_child;
        while ch != NONE {
            let n = &self.nodes[ch as usize];
            let mean = if n.visits == 0 { 0.0 } else { n.reward / n.visits as f64 };
            out.push(RootStat { action: n.action, visits: n.visits, mean });
            ch = n.next_sibling;
        }
        out.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)).then(a.action.cmp(&b.action)));
        out
    }
}

#[cfg(test)]
mod tests {
    //! The search on Nim (`harness::batch::tests`): take 1..=3, whoever takes the last counter
    //! wins; perfect play leaves a multiple of 4.
    use super::*;
    use crate::harness::agents;
    use crate::harness::batch::tests::{nim_pile, vals, Nim, NimRules};

    /// Always takes one counter.
    struct TakeOne;
    impl Agent<Nim> for TakeOne {
        fn act(&mut self, _s: &Nim, legal: &[u32], _rng: &mut Rng) -> u32 {
            legal[0]
        }
    }

    /// Nim with a perfect evaluation: the seat to move wins unless the pile is a multiple of 4.
    #[derive(Clone)]
    struct EvalNim(Nim);
    impl GameState for EvalNim {
        fn seats(&self) -> usize {
            self.0.seats()
        }
        fn to_move(&self) -> Option<usize> {
            self.0.to_move()
        }
        fn legal_actions(&self, out: &mut Vec<u32>) {
            self.0.legal_actions(out)
        }
        fn apply(&mut self, a: u32) -> Result<(), String> {
            self.0.apply(a)
        }
        fn describe_action(&self, a: u32) -> String {
            self.0.describe_action(a)
        }
        fn observe(&self, seat: usize, out: &mut [f32]) {
            self.0.observe(seat, out)
        }
        fn determinize(&mut self, seat: usize, rng: &mut Rng) {
            self.0.determinize(seat, rng)
        }
        fn outcome(&self) -> crate::harness::Outcome {
            self.0.outcome()
        }
        fn clock(&self) -> u32 {
            self.0.outcome().turns
        }
        fn has_evaluation(&self) -> bool {
            true
        }
        fn evaluate(&self, _w: &[f64], out: &mut [f64]) -> bool {
            let mut o = [0f32];
            self.0.observe(0, &mut o);
            let mover = self.0.to_move().unwrap_or(0);
            let v = if (o[0] as u32).is_multiple_of(4) { -1.0 } else { 1.0 };
            for (s, r) in out.iter_mut().enumerate() {
                *r = if s == mover { v } else { -v };
            }
            true
        }
    }
    impl Agent<EvalNim> for TakeOne {
        fn act(&mut self, _s: &EvalNim, legal: &[u32], _rng: &mut Rng) -> u32 {
            legal[0]
        }
    }

    fn pile(left: u32) -> Nim {
        nim_pile(left, 2)
    }

    fn cfg(opts: &[(&str, f64)]) -> SearchConfig {
        let mut c = SearchConfig::defaults(&[]);
        for &(k, x) in opts {
            c.set(k, x, &[]).unwrap();
        }
        c
    }

    fn take_one<S: GameState>() -> Vec<Box<dyn Agent<S>>>
    where
        TakeOne: Agent<S>,
    {
        vec![Box::new(TakeOne), Box::new(TakeOne)]
    }

    fn choose<S: GameState>(a: &mut SearchAgent<S>, g: &S, seed: u64) -> u32 {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        a.act(g, &legal, &mut Rng::new(seed))
    }

    #[test]
    fn pile_helper_gives_seat_0_the_pile() {
        for left in [5, 6, 7, 9] {
            let g = pile(left);
            let mut o = [0f32];
            g.observe(0, &mut o);
            assert_eq!((o[0] as u32, g.to_move()), (left, Some(0)));
        }
    }

    #[test]
    fn the_tree_finds_the_winning_take_and_reproduces() {
        // from 6 the only winning take is 2 (leaves 4); from 7 it is 3
        for (left, win) in [(6, 2), (7, 3), (5, 1)] {
            let mut a = SearchAgent::new(cfg(&[("iterations", 400.0)]), take_one::<Nim>(), None);
            let g = pile(left);
            assert_eq!(choose(&mut a, &g, 3), win, "pile {left}");
            assert_eq!(choose(&mut a, &g, 3), choose(&mut a, &g, 3));
        }
    }

    #[test]
    fn a_cut_off_rollout_is_scored_by_the_evaluation() {
        // pile 10, one turn of rollout (the take-one bot answers for seat 1), then the perfect
        // evaluation with seat 0 to move: take 1 leaves 8 (lost), take 2 leaves 7 and take 3
        // leaves 6 (won). Played out by the take-one bots, take 3 would lose (7 singles).
        let g = EvalNim(pile(10));
        // three iterations: each root child expanded once, its rollout scored once
        let mut cut = SearchAgent::new(cfg(&[("iterations", 3.0), ("horizon", 1.0), ("own_only", 1.0)]), take_one::<EvalNim>(), None);
        assert_ne!(choose(&mut cut, &g, 1), 1);
        assert_eq!(cut.nodes[0].visits, 3);
        let mut ch = cut.nodes[0].first_child;
        let mut seen = 0;
        while ch != NONE {
            let n = &cut.nodes[ch as usize];
            let want = if n.action == 1 { -1.0 } else { 1.0 };
            assert_eq!(n.reward / n.visits as f64, want, "take {}", n.action);
            seen += 1;
            ch = n.next_sibling;
        }
        assert_eq!(seen, 3);
        // without a horizon the same search plays out: take 3 now scores as a loss
        let mut full = SearchAgent::new(cfg(&[("iterations", 3.0), ("own_only", 1.0)]), take_one::<EvalNim>(), None);
        assert_eq!(choose(&mut full, &g, 1), 2);
    }

    #[test]
    fn widening_expands_the_prior_pick_first() {
        // a widening too slow to add a second child keeps only the rollout bot's pick (take 1),
        // although from 6 the winning take is 2
        let g = pile(6);
        let mut narrow = SearchAgent::new(cfg(&[("iterations", 200.0), ("widen", 0.01)]), take_one::<Nim>(), None);
        assert_eq!(choose(&mut narrow, &g, 2), 1);
        let mut root_children = 0;
        let mut ch = narrow.nodes[0].first_child;
        while ch != NONE {
            root_children += 1;
            ch = narrow.nodes[ch as usize].next_sibling;
        }
        assert_eq!(root_children, 1);
        // a faster one adds the others and finds it
        let mut wide = SearchAgent::new(cfg(&[("iterations", 400.0), ("widen", 1.0)]), take_one::<Nim>(), None);
        assert_eq!(choose(&mut wide, &g, 2), 2);
    }

    #[test]
    fn own_only_keeps_the_other_seats_out_of_the_tree() {
        let g = pile(9);
        let mut a = SearchAgent::new(cfg(&[("iterations", 300.0), ("own_only", 1.0)]), take_one::<Nim>(), None);
        choose(&mut a, &g, 4);
        assert!(a.nodes.len() > 4);
        assert!(a.nodes[1..].iter().all(|n| n.mover == 0), "only seat 0 moves in the tree");
        let mut both = SearchAgent::new(cfg(&[("iterations", 300.0)]), take_one::<Nim>(), None);
        choose(&mut both, &g, 4);
        assert!(both.nodes[1..].iter().any(|n| n.mover == 1));
    }

    #[test]
    fn root_stats_report_the_searched_options() {
        let g = pile(6);
        let mut a = SearchAgent::new(cfg(&[("iterations", 400.0)]), take_one::<Nim>(), None);
        assert!(a.root_stats().is_empty(), "no search yet");
        let pick = choose(&mut a, &g, 3);
        let st = Agent::root_stats(&a);
        assert_eq!(st.len(), 3, "take 1, 2 or 3");
        assert_eq!(st.iter().map(|r| r.visits).sum::<u32>(), 400);
        // the most visited is the pick (the winning take 2), listed first
        assert_eq!((st[0].action, pick), (2, 2));
        assert!(st.iter().all(|r| (-1.0..=1.0).contains(&r.mean)));
        a.forget_root();
        assert!(a.root_stats().is_empty());
    }

    #[test]
    fn a_stop_request_ends_the_search_before_its_next_iteration() {
        let g = pile(6);
        let stop = Stop::new();
        let mut a = SearchAgent::new(cfg(&[("iterations", 1_000_000.0)]), take_one::<Nim>(), None);
        a.set_stop(&stop);
        stop.request();
        // no iteration ran: the rollout bot's pick, at once
        assert_eq!(choose(&mut a, &g, 5), 1);
        assert_eq!(a.nodes[0].visits, 0);
    }

    /// One decision by seat 0 among actions 0..6 against a hidden draw `h` in 0..100 that it
    /// cannot see (re-dealt by `determinize`): it scores (h + 5 × [action == 2] − 50) / 55.
    /// Action 2 is better by 0.09; the draw decides most of the score (its spread is 0.52).
    #[derive(Clone)]
    struct Coin {
        h: u32,
        took: Option<u32>,
    }
    impl GameState for Coin {
        fn seats(&self) -> usize {
            2
        }
        fn to_move(&self) -> Option<usize> {
            self.took.is_none().then_some(0)
        }
        fn legal_actions(&self, out: &mut Vec<u32>) {
            out.clear();
            if self.took.is_none() {
                out.extend(0..6);
            }
        }
        fn apply(&mut self, a: u32) -> Result<(), String> {
            if self.took.is_some() || a >= 6 {
                return Err(format!("illegal {a}"));
            }
            self.took = Some(a);
            Ok(())
        }
        fn describe_action(&self, a: u32) -> String {
            format!("take {a}")
        }
        fn observe(&self, _seat: usize, _out: &mut [f32]) {}
        fn determinize(&mut self, _seat: usize, rng: &mut Rng) {
            self.h = rng.below(100) as u32;
        }
        fn outcome(&self) -> crate::harness::Outcome {
            let r = (self.h as f64 + if self.took == Some(2) { 5.0 } else { 0.0 } - 50.0) / 55.0;
            crate::harness::Outcome { returns: vec![r, -r], ..Default::default() }
        }
    }
    impl Agent<Coin> for TakeOne {
        fn act(&mut self, _s: &Coin, legal: &[u32], _rng: &mut Rng) -> u32 {
            legal[0]
        }
    }

    /// Issue 25: comparing the root's candidates on the same re-deals finds a small edge that
    /// UCB1 over fresh deals, at the same budget, misses: the draw's noise cancels out of a
    /// paired comparison.
    #[test]
    fn halving_on_common_deals_finds_a_small_edge_that_fresh_deals_miss() {
        let g = Coin { h: 0, took: None };
        let mut paired = 0;
        let mut fresh = 0;
        for seed in 0..20 {
            let mut h = SearchAgent::new(cfg(&[("iterations", 120.0), ("halving", 1.0)]), take_one::<Coin>(), None);
            paired += (choose(&mut h, &g, seed) == 2) as u32;
            // every candidate of a round saw the same number of deals
            let mut ch = h.nodes[0].first_child;
            let mut visits = Vec::new();
            while ch != NONE {
                visits.push(h.nodes[ch as usize].visits);
                ch = h.nodes[ch as usize].next_sibling;
            }
            assert_eq!(visits.len(), 6);
            assert!(visits.iter().sum::<u32>() <= 120, "{visits:?}");
            let mut u = SearchAgent::new(cfg(&[("iterations", 120.0)]), take_one::<Coin>(), None);
            fresh += (choose(&mut u, &g, seed) == 2) as u32;
        }
        assert_eq!(paired, 20, "halving on common deals");
        assert!(fresh < 15, "UCB1 on fresh deals found it {fresh} times of 20");
    }

    #[test]
    fn halving_reproduces_keeps_width_candidates_and_stops() {
        let g = pile(6);
        let mut a = SearchAgent::new(cfg(&[("iterations", 300.0), ("halving", 1.0)]), take_one::<Nim>(), None);
        assert_eq!(choose(&mut a, &g, 3), 2, "from 6 the winning take is 2");
        assert_eq!(choose(&mut a, &g, 3), choose(&mut a, &g, 3));
        // width 1: the prior bot's pick alone, no iteration
        let mut one = SearchAgent::new(cfg(&[("iterations", 300.0), ("halving", 1.0), ("width", 1.0)]), take_one::<Nim>(), None);
        assert_eq!(choose(&mut one, &g, 3), 1);
        // a stop request before the first deal: the prior bot's pick
        let stop = Stop::new();
        let mut s = SearchAgent::new(cfg(&[("iterations", 1_000_000.0), ("halving", 1.0)]), take_one::<Nim>(), None);
        s.set_stop(&stop);
        stop.request();
        assert_eq!(choose(&mut s, &g, 5), 1);
    }

    /// A bot with a ranking (`Agent::rank`): takes as many as it can, and ranks 3, 2, 1.
    struct TakeMost;
    impl Agent<Nim> for TakeMost {
        fn act(&mut self, _s: &Nim, legal: &[u32], _rng: &mut Rng) -> u32 {
            *legal.last().unwrap()
        }
        fn rank(&mut self, _s: &Nim, legal: &[u32], _rng: &mut Rng, out: &mut Vec<u32>) -> bool {
            out.clear();
            out.extend(legal.iter().rev());
            true
        }
    }

    #[test]
    fn widening_and_halving_follow_the_prior_bots_ranking() {
        // widening too slow for a third child: the ranking's first two (3, then 2)
        let g = pile(9);
        let prior = || Some(vec![Box::new(TakeMost) as Box<dyn Agent<Nim>>, Box::new(TakeMost)]);
        let mut a = SearchAgent::new(cfg(&[("iterations", 50.0), ("widen", 0.3)]), take_one::<Nim>(), prior());
        choose(&mut a, &g, 1);
        let mut kids = Vec::new();
        let mut ch = a.nodes[0].first_child;
        while ch != NONE {
            kids.push(a.nodes[ch as usize].action);
            ch = a.nodes[ch as usize].next_sibling;
        }
        kids.reverse();
        assert_eq!(kids, vec![3, 2]);
        // halving's candidates with width 2 are the ranking's first two: from 6 (win: take 2)
        let mut h = SearchAgent::new(cfg(&[("iterations", 100.0), ("halving", 1.0), ("width", 2.0)]), take_one::<Nim>(), prior());
        assert_eq!(choose(&mut h, &pile(6), 1), 2);
        let mut h1 = SearchAgent::new(cfg(&[("iterations", 100.0), ("halving", 1.0), ("width", 1.0)]), take_one::<Nim>(), prior());
        assert_eq!(choose(&mut h1, &pile(6), 1), 3);
    }

    #[test]
    fn prior_bonus_lets_the_priors_first_win_close_calls() {
        // pile 6, halving over the ranking's first two (take 3, then take 2: the winning
        // move), random rollouts: both means are noisy, take 2's is the higher. With width 2
        // both play to the end, so the choice is the larger of mean - prior_bonus * place.
        let prior = || Some(vec![Box::new(TakeMost) as Box<dyn Agent<Nim>>, Box::new(TakeMost)]);
        let random = || vec![Box::new(agents::RandomAgent) as Box<dyn Agent<Nim>>, Box::new(agents::RandomAgent)];
        let mut picks = Vec::new();
        for bonus in [0.0, 0.1, 0.3, 0.6, 1.0] {
            let c = cfg(&[("iterations", 400.0), ("halving", 1.0), ("width", 2.0), ("own_only", 1.0), ("prior_bonus", bonus)]);
            let mut a = SearchAgent::new(c, random(), prior());
            let pick = choose(&mut a, &pile(6), 7);
            let mean = |act: u32| a.root_stats().iter().find(|r| r.action == act).unwrap().mean;
            let (m3, m2) = (mean(3), mean(2));
            assert!(m2 > m3, "take 2 wins more often: {m2} against {m3}");
            assert_eq!(pick, if m3 >= m2 - bonus { 3 } else { 2 }, "bonus {bonus}: means {m3} (take 3), {m2} (take 2)");
            picks.push(pick);
        }
        // no bonus: the better mean; the largest: the prior's first (the gap is below 1)
        assert_eq!((picks[0], picks[4]), (2, 3), "{picks:?}");
        assert!(SearchConfig::defaults(&[]).set("prior_bonus", 1.5, &[]).unwrap_err().contains("0..=1"));
    }

    /// `TakeMost` counting its rankings.
    struct Counting(std::sync::Arc<std::sync::atomic::AtomicU32>);
    impl Agent<Nim> for Counting {
        fn act(&mut self, _s: &Nim, legal: &[u32], _rng: &mut Rng) -> u32 {
            *legal.last().unwrap()
        }
        fn rank(&mut self, s: &Nim, legal: &[u32], rng: &mut Rng, out: &mut Vec<u32>) -> bool {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            TakeMost.rank(s, legal, rng, out)
        }
    }

    #[test]
    fn prior_tree_0_asks_the_prior_for_the_roots_candidates_only() {
        let calls = |tree: f64| {
            let n = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
            let prior = Some(vec![Box::new(Counting(n.clone())) as Box<dyn Agent<Nim>>, Box::new(Counting(n.clone()))]);
            let c = cfg(&[("iterations", 60.0), ("halving", 1.0), ("width", 3.0), ("widen", 1.0), ("prior_tree", tree)]);
            let mut a = SearchAgent::new(c, take_one::<Nim>(), prior);
            let pick = choose(&mut a, &pile(9), 1);
            (n.load(std::sync::atomic::Ordering::Relaxed), pick)
        };
        let (root_only, _) = calls(0.0);
        let (everywhere, _) = calls(1.0);
        assert_eq!(root_only, 1, "one ranking: the root's candidates");
        assert!(everywhere > 10, "{everywhere} rankings with the prior in the tree");
    }

    #[test]
    fn options_are_named_ranged_and_checked() {
        let mut c = SearchConfig::defaults(&[]);
        assert!(c.set("horizon", 2.5, &[]).unwrap_err().contains("'horizon' must be a whole number"));
        assert!(c.set("epsilon", 1.5, &[]).unwrap_err().contains("0..=1"));
        assert!(c.set("nonsense", 1.0, &[]).unwrap_err().contains("no option 'nonsense'"));
        c.set("widen", 2.0, &[]).unwrap();
        assert_eq!(c.widen, 2.0);
        // through a spec: unknown options and bad rollout bots are errors naming them
        let bad = |s: &str| agents::make_agent(&NimRules, &agents::AgentSpec::parse(s).unwrap(), &vals(), 2, 0).err().unwrap();
        assert!(bad("search:depth=3").contains("unknown option 'depth'"));
        assert!(bad("search:iterations=0").contains("'iterations' must be"));
        assert!(bad("search:rollout=search").contains("cannot itself be a search"));
        assert!(bad("search:prior=nobody").contains("prior bot"));
        assert!(
            agents::make_agent(&NimRules, &agents::AgentSpec::parse("search:horizon=2,widen=1,own_only=1,epsilon=0.1,rollout=random,prior=random").unwrap(), &vals(), 2, 0).is_ok()
        );
    }
}
