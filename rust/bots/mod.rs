//! Bot policies: a closed set of built-in policies as an enum. Each sees only its seat's view
//! and answers with the index of one offered option.

pub mod heuristic;
pub mod ismcts;
pub mod learned;
pub mod search;

use crate::engine::{Agent, DecisionKind, Opt, SeatView};
use crate::rng::Rng;

/// Bot kinds and presets a spec may name.
pub const BOT_KINDS: &[&str] = &["random", "heuristic", "aggro", "control", "tuned", "search", "ismcts", "learned"];

/// A bot spec: the kind plus its named numeric knobs, and a model file (`learn::Mlp`): the
/// value model that scores `ismcts`'s cut-off rollouts (knob `value`, optional) or the
/// policy of `learned` (knob `model`, required).
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    pub kind: String,
    pub knobs: Vec<(String, f64)>,
    pub model: Option<std::sync::Arc<crate::learn::Mlp>>,
    /// `ismcts` only: a policy model (knob `prior`) whose ranking the search widens in and
    /// whose best options its paired root compares, in place of the rollout bot's.
    pub prior: Option<std::sync::Arc<crate::learn::Mlp>>,
    /// `learned` only: further policies of the same features whose scores are averaged with
    /// `model`'s (an ensemble: `model` given as a list of files).
    pub ensemble: Vec<std::sync::Arc<crate::learn::Mlp>>,
}

impl BotSpec {
    pub fn random() -> BotSpec {
        BotSpec { kind: "random".into(), knobs: vec![], model: None, prior: None, ensemble: Vec::new() }
    }
    /// Validate a spec: known kind and knobs.
    pub fn parse(kind: &str, knobs: Vec<(String, f64)>) -> Result<BotSpec, String> {
        match kind {
            "random" => {
                if let Some((k, _)) = knobs.first() {
                    return Err(format!("bot 'random' has no knob '{k}' (it has no knobs)"));
                }
            }
            "heuristic" | "aggro" | "control" | "tuned" => {
                for (k, v) in &knobs {
                    if !heuristic::KNOBS.iter().any(|x| x.0 == k) {
                        let names: Vec<&str> = heuristic::KNOBS.iter().map(|x| x.0).collect();
                        return Err(format!("bot '{kind}' has no knob '{k}' (knobs: {})", names.join(", ")));
                    }
                    if !v.is_finite() || *v < 0.0 || *v > 1.0 {
                        return Err(format!("bot knob '{k}' must be a number in 0..=1, got {v}"));
                    }
                }
            }
            "search" => {
                for (k, v) in &knobs {
                    match k.as_str() {
                        "iterations" => {
                            if !(v.fract() == 0.0 && *v >= 1.0 && *v <= 1_000_000.0) {
                                return Err(format!("bot knob 'iterations' must be a whole number in 1..=1000000, got {v}"));
                            }
                        }
                        "width" => {
                            if !(v.fract() == 0.0 && *v >= 1.0 && *v <= 64.0) {
                                return Err(format!("bot knob 'width' must be a whole number in 1..=64, got {v}"));
                            }
                        }
                        "every" => {
                            if !(*v == 0.0 || *v == 1.0) {
                                return Err(format!("bot knob 'every' must be 0 (search main-priority decisions) or 1 (every decision), got {v}"));
                            }
                        }
                        "rollout_rounds" => {
                            if !(v.fract() == 0.0 && *v >= 1.0 && *v <= search::MAX_ROLLOUT_ROUNDS as f64) {
                                return Err(format!("bot knob 'rollout_rounds' must be a whole number in 1..={}, got {v}", search::MAX_ROLLOUT_ROUNDS));
                            }
                        }
                        _ if heuristic::KNOBS.iter().any(|x| x.0 == k) => {
                            if !v.is_finite() || *v < 0.0 || *v > 1.0 {
                                return Err(format!("bot knob '{k}' must be a number in 0..=1, got {v}"));
                            }
                        }
                        _ => return Err(format!("bot 'search' has no knob '{k}' (knobs: iterations, width, rollout_rounds, every and the heuristic's)")),
                    }
                }
            }
            "ismcts" => {
                ismcts::config(&knobs)?;
            }
            "learned" => {
                if let Some((k, _)) = knobs.first() {
                    return Err(format!("bot 'learned' has no knob '{k}' (its one option is its model file, 'model')"));
                }
            }
            other => return Err(format!("unknown bot kind '{other}' (known: {})", BOT_KINDS.join(", "))),
        }
        Ok(BotSpec { kind: kind.into(), knobs, model: None, prior: None, ensemble: Vec::new() })
    }
    /// This spec with the model in file `path` given as knob `knob`: `value` (a value model
    /// of this build's position features; `ismcts` only) or `model` (a policy model of its
    /// position and option features; `learned` only); `path` "shipped" is the model built
    /// into the library. Errors name the file and what is wrong.
    pub fn with_model(mut self, knob: &str, path: &str) -> Result<BotSpec, String> {
        let (owner, kind) = match knob {
            "value" => ("ismcts", "value"),
            "prior" => ("ismcts", "policy"),
            "model" => ("learned", "policy"),
            _ => return Err(format!("bot '{}' has no model knob '{knob}' (value, prior, model)", self.kind)),
        };
        if self.kind != owner {
            return Err(format!("bot '{}' has no knob '{knob}' (a {kind} model is an option of '{owner}')", self.kind));
        }
        // "shipped": the model built into the library (`learn::shipped`)
        let m = match (path, kind) {
            ("shipped", "value") => crate::learn::shipped::value()?,
            ("shipped", _) => crate::learn::shipped::policy()?,
            _ => crate::learn::mlp::cached(path)?,
        };
        if kind == "value" {
            m.check("ketharmad", kind, &crate::learn::ketharmad_features::NAMES)?;
        } else {
            m.check("ketharmad", kind, &crate::learn::ketharmad_actions::policy_names())?;
        }
        if knob == "prior" {
            self.prior = Some(m);
        } else if kind == "policy" && self.model.is_some() {
            self.ensemble.push(m); // `learned`'s second and later files: an ensemble
        } else {
            self.model = Some(m);
        }
        Ok(self)
    }

    /// A `learned` spec without a model file gets the shipped policy (`learn::shipped`);
    /// an error when that cannot be read (a build without it).
    pub fn check_model(&mut self) -> Result<(), String> {
        if self.kind == "learned" && self.model.is_none() {
            let m = crate::learn::shipped::policy()?;
            m.check("ketharmad", "policy", &crate::learn::ketharmad_actions::policy_names())?;
            self.model = Some(m);
        }
        Ok(())
    }
    pub fn label(&self) -> String {
        let mut k: Vec<String> = self.knobs.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let file_of = |m: &crate::learn::Mlp| std::path::Path::new(&m.path).file_name().map_or_else(|| m.path.clone(), |f| f.to_string_lossy().into_owned());
        if let Some(m) = &self.model {
            let mut files = file_of(m);
            for e in &self.ensemble {
                files = format!("{files}+{}", file_of(e));
            }
            k.push(format!("{}={files}", if self.kind == "ismcts" { "value" } else { "model" }));
        }
        if let Some(m) = &self.prior {
            k.push(format!("prior={}", file_of(m)));
        }
        if k.is_empty() {
            self.kind.clone()
        } else {
            format!("{}({})", self.kind, k.join(","))
        }
    }
}

#[derive(Clone, Debug, Default)]
pub enum Policy {
    #[default]
    Unset,
    /// Uniformly random legal option.
    Random(Rng),
    /// The rule-based family with its knobs.
    Heuristic(Box<heuristic::Knobs>),
    /// Determinized Monte-Carlo search over the heuristic.
    Search(Box<search::Search>),
    /// The harness's information-set search at main-priority decisions (`bots::ismcts`).
    Ismcts(Box<ismcts::Ismcts>),
    /// A policy network at main-priority decisions (`bots::learned`).
    Learned(Box<learned::Learned>),
    /// Tests: call the function at every decision of this seat (more than one option), then
    /// answer as the wrapped policy would.
    #[cfg(any(test, feature = "scenario"))]
    Probe(ProbeFn, Box<Policy>),
}

/// What a `Policy::Probe` calls at each decision.
#[cfg(any(test, feature = "scenario"))]
pub type ProbeFn = fn(&SeatView, DecisionKind, &[Opt]);

impl Policy {
    pub fn new(spec: &BotSpec, rng: Rng) -> Policy {
        match spec.kind.as_str() {
            "heuristic" | "aggro" | "control" | "tuned" => Policy::Heuristic(Box::new(heuristic::Knobs::from(&spec.kind, &spec.knobs))),
            "search" => {
                let get = |n: &str, d: f64| spec.knobs.iter().find(|k| k.0 == n).map_or(d, |k| k.1);
                let mut s = search::Search::new(get("iterations", 200.0) as u32, get("width", 6.0) as usize, heuristic::Knobs::from("heuristic", &spec.knobs), rng);
                s.rollout_rounds = get("rollout_rounds", search::DEFAULT_ROLLOUT_ROUNDS as f64) as u32;
                s.every = get("every", 0.0) == 1.0;
                Policy::Search(Box::new(s))
            }
            // the spec was checked by `BotSpec::parse`; an unchecked bad one plays the defaults
            "ismcts" => {
                let mut cfg = ismcts::config(&spec.knobs).unwrap_or_else(|_| crate::harness::search::SearchConfig::defaults(crate::games::ketharmad::EVAL_KNOBS));
                cfg.value = spec.model.clone();
                let mut s = ismcts::Ismcts::new(cfg, rng);
                s.prior = spec.prior.clone();
                Policy::Ismcts(Box::new(s))
            }
            // without a model file: the shipped policy (`learn::shipped`)
            "learned" => match spec.model.clone().or_else(|| crate::learn::shipped::policy().ok()) {
                Some(m) => Policy::Learned(Box::new(learned::Learned::ensemble(m, &spec.ensemble))),
                None => Policy::Heuristic(Box::new(heuristic::Knobs::from("tuned", &[]))),
            },
            _ => Policy::Random(rng),
        }
    }

    #[inline]
    pub fn choose(&mut self, _view: &SeatView, _kind: DecisionKind, opts: &[Opt]) -> usize {
        match self {
            Policy::Random(rng) => rng.below(opts.len()),
            Policy::Heuristic(k) => heuristic::choose(k, _view, _kind, opts),
            Policy::Search(s) => s.choose(_view, _kind, opts),
            Policy::Ismcts(s) => s.choose(_view, _kind, opts),
            Policy::Learned(s) => s.choose(_view, _kind, opts),
            Policy::Unset => 0,
            #[cfg(any(test, feature = "scenario"))]
            Policy::Probe(f, inner) => {
                f(_view, _kind, opts);
                inner.choose(_view, _kind, opts)
            }
        }
    }
}

/// Whether answering `o` to a decision of `kind` would break a pact of the deciding seat
/// that holds now (diplomacy, V1; `engine::pacts`): an Exposé or an attacker against a pact
/// partner, a player target that is one (the target of a card's Exposé is chosen this way),
/// or starting a Campaign when every opponent left is a pact partner.
pub fn breaks_pact(v: &SeatView, kind: DecisionKind, o: Opt) -> bool {
    breaks_with(v, v.pact_partners(v.seat), kind, o)
}

/// `breaks_pact` with the deciding seat's pact partners computed once.
#[inline]
fn breaks_with(v: &SeatView, partners: crate::engine::Seats, kind: DecisionKind, o: Opt) -> bool {
    match (kind, o) {
        (_, Opt::Expose(q)) | (_, Opt::Attack(_, q)) => partners.contains(q as usize),
        (DecisionKind::Target, Opt::Player(q)) => partners.contains(q as usize),
        (DecisionKind::Main, Opt::Campaign) => v.opponents(v.seat).all(|q| partners.contains(q)),
        _ => false,
    }
}

impl Policy {
    /// The built-in bots honour pacts (V1): while one of the seat's pacts holds, the options
    /// that would break it are left out, unless every option would. None: nothing to leave
    /// out (no pact holds, or no option breaks one, or all do).
    #[cold]
    fn honour_pacts(&mut self, view: &SeatView, kind: DecisionKind, opts: &[Opt]) -> Option<usize> {
        let partners = view.pact_partners(view.seat);
        if partners.is_empty() || !opts.iter().any(|&o| breaks_with(view, partners, kind, o)) {
            return None;
        }
        let keep: Vec<usize> = (0..opts.len()).filter(|&i| !breaks_with(view, partners, kind, opts[i])).collect();
        if keep.is_empty() {
            return None;
        }
        let sub: Vec<Opt> = keep.iter().map(|&i| opts[i]).collect();
        let j = if sub.len() == 1 { 0 } else { Policy::choose(self, view, kind, &sub) };
        Some(keep[j.min(keep.len() - 1)])
    }
}

impl Agent for Policy {
    #[inline]
    fn choose(&mut self, view: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        if view.rules().format.pacts.is_empty() {
            return Policy::choose(self, view, kind, opts);
        }
        match self.honour_pacts(view, kind, opts) {
            Some(i) => i,
            None => Policy::choose(self, view, kind, opts),
        }
    }
    #[inline]
    fn choose_blind(&mut self, n: usize) -> Option<usize> {
        match self {
            Policy::Random(rng) => Some(rng.below(n)),
            _ => None,
        }
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// One policy per seat for game seed `seed`, each with its own random stream (the streams a
/// batch gives its bots).
pub fn seat_policies(seed: u64, n: usize, kinds: &[BotSpec]) -> Vec<Policy> {
    (0..n).map(|s| Policy::new(&kinds[s], Rng::stream(seed, crate::rng::Stream::Policy0 as u64 + s as u64))).collect()
}
