//! Generic agents over any [`GameState`]: uniform [`RandomAgent`], the information-set
//! search ([`SearchAgent`](super::search::SearchAgent), `harness::search`) and the learned
//! policy ([`LearnedAgent`](super::learned::LearnedAgent), `learned:model=PATH`, for a game
//! with position and option features).
//!
//! Agents are named by spec strings: `"random"`, `"search"`, `"search:iterations=200"`,
//! `"search:iterations=400,c=0.7,rollout=greedy,horizon=2"`, or a game's own bot (`Rules::make_agent`,
//! e.g. Schotten Totten 2's `"greedy"`). A game may override a generic name (its own
//! `"random"` that always claims, say); the search agent's rollout policy is resolved the same
//! way, so `rollout=random` means the game's random bot when it has one.

use super::learned::LearnedAgent;
use super::search::{SearchAgent, SearchConfig, SEARCH_KNOBS};
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

/// Every agent name a game accepts: its own first, then the generic ones it does not override,
/// then `learned` when the game has position and option features.
pub fn agent_names<R: Rules>(rules: &R) -> Vec<&'static str> {
    let mut v = rules.agent_names();
    for g in GENERIC_AGENTS {
        if !v.contains(&g) {
            v.push(g);
        }
    }
    if !v.contains(&"learned") && !rules.features().1.is_empty() && !rules.option_features().1.is_empty() {
        v.push("learned");
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
            let eval_knobs = rules.eval_knobs();
            let mut known: Vec<&str> = SEARCH_KNOBS.iter().chain(eval_knobs).map(|k| k.name).collect();
            known.push("rollout");
            known.push("prior");
            known.push("value");
            spec.check_opts(&known)?;
            let mut cfg = SearchConfig::defaults(eval_knobs);
            for &(k, x) in rules.search_defaults() {
                cfg.set(k, x, eval_knobs)?;
            }
            let mut rollout_name = rules.search_rollout().to_string();
            let mut prior_name: Option<String> = None;
            for (k, v) in &spec.opts {
                match (k.as_str(), v) {
                    ("rollout", Value::Str(s)) => rollout_name = s.clone(),
                    ("prior", Value::Str(s)) => prior_name = Some(s.clone()),
                    ("value", Value::Str(path)) => {
                        let (layout, names) = rules.features();
                        if names.is_empty() {
                            return Err(format!("agent '{}': {} has no position features, so no value model", spec.name, rules.name()));
                        }
                        let m = if path == "shipped" {
                            crate::learn::shipped::value_of(rules.name()).unwrap_or_else(|| Err(format!("{} has no shipped value model", rules.name())))
                        } else {
                            crate::learn::mlp::cached(path)
                        }
                        .map_err(|e| format!("agent '{}': {e}", spec.name))?;
                        m.check(rules.name(), "value", names).map_err(|e| format!("agent '{}': {e} ({layout})", spec.name))?;
                        cfg.value = Some(m);
                    }
                    ("rollout" | "prior" | "value", v) => return Err(format!("agent '{}': option '{k}' must be an agent name, got {v:?}", spec.name)),
                    (_, Value::Int(i)) => cfg.set(k, *i as f64, eval_knobs).map_err(|e| format!("agent '{}': {e}", spec.name))?,
                    (_, Value::Float(f)) => cfg.set(k, *f, eval_knobs).map_err(|e| format!("agent '{}': {e}", spec.name))?,
                    (_, v) => return Err(format!("agent '{}': option '{k}' must be a number, got {v:?}", spec.name)),
                }
            }
            // a bot per seat for the rollouts (and the widening prior): any non-search bot of
            // the game, its options after ';' ("rollout=heuristic;aggression=0.8")
            let seat_bots = |what: &str, name: &str| -> Result<Vec<Box<dyn Agent<R::State>>>, String> {
                let bs = AgentSpec::parse(&name.replacen(';', ":", 1).replace(';', ","))?;
                if bs.name == "search" || bs.name == "ismcts" {
                    return Err(format!("agent '{}': the {what} bot cannot itself be a search", spec.name));
                }
                (0..seats).map(|s| make_agent(rules, &bs, values, seats, s).map_err(|e| format!("agent '{}': {what} bot: {e}", spec.name))).collect()
            };
            let rollout = seat_bots("rollout", &rollout_name)?;
            let prior = prior_name.map(|p| seat_bots("prior", &p)).transpose()?;
            Ok(Box::new(SearchAgent::new(cfg, rollout, prior)))
        }
        "learned" => {
            spec.check_opts(&["model"])?;
            let path = match spec.opt("model") {
                Some(Value::Str(p)) => Some(p.as_str()),
                Some(v) => return Err(format!("agent '{}': option 'model' must be a model file's path, got {v:?}", spec.name)),
                None => None,
            };
            let (layout, names) = rules.features();
            let (opt_layout, opt_names) = rules.option_features();
            if names.is_empty() || opt_names.is_empty() {
                return Err(format!("agent '{}': {} has no position features or no option features, so no policy model", spec.name, rules.name()));
            }
            // no model file: the game's shipped policy, if it has one
            let m = match path {
                Some(p) => crate::learn::mlp::cached(p),
                None => crate::learn::shipped::policy_of(rules.name())
                    .unwrap_or_else(|| Err(format!("{} has no shipped policy: give its model file (learned:model=PATH)", rules.name()))),
            }
            .map_err(|e| format!("agent '{}': {e}", spec.name))?;
            let all: Vec<&str> = names.iter().chain(opt_names).copied().collect();
            m.check(rules.name(), "policy", &all).map_err(|e| format!("agent '{}': {e} ({layout}+{opt_layout})", spec.name))?;
            // the decisions the model does not make: the game's rollout bot
            let fallback = AgentSpec::parse(rules.search_rollout())?;
            let fallback = make_agent(rules, &fallback, values, seats, seat).map_err(|e| format!("agent '{}': its fallback bot: {e}", spec.name))?;
            Ok(Box::new(LearnedAgent::new(m, fallback, names.len(), opt_names.len())))
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
