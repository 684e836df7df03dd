//! Generic agents over any [`GameState`]: uniform [`RandomAgent`] and the information-set
//! search [`SearchAgent`] (single-observer ISMCTS: every iteration re-deals what the acting
//! seat cannot see with `determinize`, walks one shared tree keyed by action ids with UCB1 over
//! the actions legal in that deal — counting availability — and finishes with a rollout).
//!
//! Agents are named by spec strings: `"random"`, `"search"`, `"search:iterations=200"`,
//! `"search:iterations=400,c=0.7,rollout=greedy"`, or a game's own bot (`Rules::make_agent`,
//! e.g. Schotten Totten 2's `"greedy"`). A game may override a generic name (its own
//! `"random"` that always claims, say); the search agent's rollout policy is resolved the same
//! way, so `rollout=random` means the game's random bot when it has one.

use super::{Agent, GameState, Rules, Value};
use crate::rng::Rng;

/// A parsed agent spec: `name[:key=value,key=value]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub name: String,
    pub opts: Vec<(String, Value)>,
}

impl AgentSpec {
    /// Parse `"name"` or `"name:key=value,..."`; values are ints, floats, true/false or words.
    pub fn parse(s: &str) -> Result<AgentSpec, String> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (s, None),
        };
        if name.is_empty() {
            return Err(format!("agent spec '{s}' has no name"));
        }
        let mut opts = Vec::new();
        if let Some(rest) = rest {
            for kv in rest.split(',').filter(|t| !t.trim().is_empty()) {
                let (k, v) = kv.split_once('=').ok_or_else(|| format!("agent spec '{s}': option '{kv}' is not key=value"))?;
                let (k, v) = (k.trim(), v.trim());
                let val = if let Ok(i) = v.parse::<i64>() {
                    Value::Int(i)
                } else if let Ok(f) = v.parse::<f64>() {
                    Value::Float(f)
                } else if v == "true" || v == "false" {
                    Value::Bool(v == "true")
                } else {
                    Value::Str(v.to_string())
                };
                opts.push((k.to_string(), val));
            }
        }
        Ok(AgentSpec { name: name.to_string(), opts })
    }

    /// An option's value, if given.
    pub fn opt(&self, key: &str) -> Option<&Value> {
        self.opts.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Error on any option not in `known`.
    pub fn check_opts(&self, known: &[&str]) -> Result<(), String> {
        for (k, _) in &self.opts {
            if !known.contains(&k.as_str()) {
                return Err(format!("agent '{}': unknown option '{k}' (known: {})", self.name, known.join(", ")));
            }
        }
        Ok(())
    }

    pub fn int_opt(&self, key: &str, default: i64, min: i64, max: i64) -> Result<i64, String> {
        match self.opt(key) {
            None => Ok(default),
            Some(Value::Int(i)) if (min..=max).contains(i) => Ok(*i),
            Some(v) => Err(format!("agent '{}': option '{key}' must be an integer in {min}..={max}, got {v:?}", self.name)),
        }
    }

    pub fn float_opt(&self, key: &str, default: f64, min: f64, max: f64) -> Result<f64, String> {
        let x = match self.opt(key) {
            None => return Ok(default),
            Some(Value::Int(i)) => *i as f64,
            Some(Value::Float(f)) => *f,
            Some(v) => return Err(format!("agent '{}': option '{key}' must be a number, got {v:?}", self.name)),
        };
        if x.is_finite() && x >= min && x <= max {
            Ok(x)
        } else {
            Err(format!("agent '{}': option '{key}' must be in {min}..={max}, got {x}", self.name))
        }
    }
}

/// The generic agent names (a game adds its own through `Rules::agent_names`).
pub const GENERIC_AGENTS: [&str; 2] = ["random", "search"];

/// Every agent name a game accepts: its own first, then the generic ones it does not override.
pub fn agent_names<R: Rules>(rules: &R) -> Vec<&'static str> {
    let mut v = rules.agent_names();
    for g in GENERIC_AGENTS {
        if !v.contains(&g) {
            v.push(g);
        }
    }
    v
}

/// Build the agent `spec` names for `seat` of a game of `rules` with parameter `values`.
/// Unknown names and options are errors naming them.
pub fn make_agent<R: Rules>(rules: &R, spec: &AgentSpec, values: &[f64], seats: usize, seat: usize) -> Result<Box<dyn Agent<R::State>>, String>
where
    R::State: 'static,
{
    if let Some(a) = rules.make_agent(spec, values, seats, seat)? {
        return Ok(a);
    }
    match spec.name.as_str() {
        "random" => {
            spec.check_opts(&[])?;
            Ok(Box::new(RandomAgent))
        }
        "search" | "ismcts" => {
            spec.check_opts(&["iterations", "c", "rollout", "max_rollout_actions"])?;
            let iterations = spec.int_opt("iterations", 200, 1, 10_000_000)? as u32;
            let c = spec.float_opt("c", 0.7, 0.0, 100.0)?;
            let max_rollout_actions = spec.int_opt("max_rollout_actions", 10_000, 1, 100_000_000)? as u64;
            let rollout_name = match spec.opt("rollout") {
                None => "random".to_string(),
                Some(Value::Str(s)) => s.clone(),
                Some(v) => return Err(format!("agent '{}': option 'rollout' must be an agent name, got {v:?}", spec.name)),
            };
            if rollout_name == "search" || rollout_name == "ismcts" {
                return Err(format!("agent '{}': the rollout policy cannot itself be a search", spec.name));
            }
            let rs = AgentSpec { name: rollout_name, opts: Vec::new() };
            let mut rollout = Vec::with_capacity(seats);
            for s in 0..seats {
                rollout.push(make_agent(rules, &rs, values, seats, s)?);
            }
            Ok(Box::new(SearchAgent::new(iterations, c, max_rollout_actions, rollout)))
        }
        other => Err(format!("unknown agent '{other}' for {} (known: {})", rules.name(), agent_names(rules).join(", "))),
    }
}

/// Uniform over the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<S: GameState> Agent<S> for RandomAgent {
    fn act(&mut self, _s: &S, legal: &[u32], rng: &mut Rng) -> u32 {
        legal[rng.below(legal.len())]
    }
}

const NONE: u32 = u32::MAX;

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

/// Single-observer ISMCTS (Cowling, Powley, Whitehouse 2012) with a rollout policy per seat.
pub struct SearchAgent<S: GameState> {
    pub iterations: u32,
    /// UCB1 exploration constant (rewards are the game's `Outcome::returns`, ±1 for win/loss).
    pub c: f64,
    pub max_rollout_actions: u64,
    rollout: Vec<Box<dyn Agent<S>>>,
    nodes: Vec<Node>,
    legal: Vec<u32>,
    untried: Vec<u32>,
    path: Vec<u32>,
    /// mark[action] == stamp: the action is legal in the current node's deal.
    mark: Vec<u32>,
    stamp: u32,
}

impl<S: GameState> SearchAgent<S> {
    pub fn new(iterations: u32, c: f64, max_rollout_actions: u64, rollout: Vec<Box<dyn Agent<S>>>) -> SearchAgent<S> {
        SearchAgent {
            iterations,
            c,
            max_rollout_actions,
            rollout,
            nodes: Vec::new(),
            legal: Vec::with_capacity(256),
            untried: Vec::with_capacity(256),
            path: Vec::with_capacity(256),
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
}

impl<S: GameState> Agent<S> for SearchAgent<S> {
    fn act(&mut self, s: &S, legal: &[u32], rng: &mut Rng) -> u32 {
        if legal.len() == 1 {
            return legal[0];
        }
        let Some(me) = s.to_move() else { return legal[0] };
        self.nodes.clear();
        self.nodes.push(Node { action: NONE, mover: NONE, first_child: NONE, next_sibling: NONE, visits: 0, avail: 0, reward: 0.0 });
        for _ in 0..self.iterations {
            let mut st = s.clone();
            st.determinize(me, rng);
            self.path.clear();
            self.path.push(0);
            let mut node = 0u32;
            // selection and expansion
            while let Some(seat) = st.to_move() {
                st.legal_actions(&mut self.legal);
                if self.legal.is_empty() {
                    break;
                }
                self.mark_legal();
                // children already in the tree that are legal in this deal
                let mut untried_n = self.legal.len();
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE {
                    if self.is_marked(self.nodes[ch as usize].action) {
                        untried_n -= 1;
                    }
                    ch = self.nodes[ch as usize].next_sibling;
                }
                if untried_n > 0 {
                    // expand one untried action, chosen at random
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
                    let a = self.untried[rng.below(self.untried.len())];
                    // the siblings legal here were available too
                    let mut ch = self.nodes[node as usize].first_child;
                    while ch != NONE {
                        if self.is_marked(self.nodes[ch as usize].action) {
                            self.nodes[ch as usize].avail += 1;
                        }
                        ch = self.nodes[ch as usize].next_sibling;
                    }
                    let child = self.add_child(node, a, seat);
                    if st.apply(a).is_err() {
                        break;
                    }
                    self.path.push(child);
                    break;
                }
                // UCB1 with availability counts over the children legal in this deal
                let mut best = NONE;
                let mut best_v = f64::NEG_INFINITY;
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE {
                    let n = &mut self.nodes[ch as usize];
                    if self.mark.get(n.action as usize).is_some_and(|&m| m == self.stamp) {
                        n.avail += 1;
                        let v = n.reward / n.visits.max(1) as f64 + self.c * ((n.avail as f64).ln() / n.visits.max(1) as f64).sqrt();
                        if v > best_v {
                            best_v = v;
                            best = ch;
                        }
                    }
                    ch = n.next_sibling;
                }
                if best == NONE || st.apply(self.nodes[best as usize].action).is_err() {
                    break;
                }
                node = best;
                self.path.push(node);
            }
            // rollout
            let mut n = 0u64;
            while let Some(seat) = st.to_move() {
                if n >= self.max_rollout_actions {
                    break;
                }
                st.legal_actions(&mut self.legal);
                if self.legal.is_empty() {
                    break;
                }
                let a = self.rollout[seat].act(&st, &self.legal, rng);
                if st.apply(a).is_err() {
                    break;
                }
                n += 1;
            }
            let o = st.outcome();
            let finished = st.to_move().is_none() && !o.unfinished;
            for &p in &self.path {
                let nd = &mut self.nodes[p as usize];
                nd.visits += 1;
                if finished && nd.mover != NONE {
                    nd.reward += o.returns.get(nd.mover as usize).copied().unwrap_or(0.0);
                }
            }
        }
        // the most visited root child that is legal now
        self.legal.clear();
        self.legal.extend_from_slice(legal);
        self.mark_legal();
        let mut best = legal[0];
        let mut best_n = 0u32;
        let mut ch = self.nodes[0].first_child;
        while ch != NONE {
            let nd = &self.nodes[ch as usize];
            if self.is_marked(nd.action) && nd.visits > best_n {
                best_n = nd.visits;
                best = nd.action;
            }
            ch = nd.next_sibling;
        }
        best
    }
}
