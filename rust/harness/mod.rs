//! The game-generic harness (issue 14): one interface every game implements, and the parts
//! that work over any game through it (seeded batch runner, random and search agents, step API,
//! RL environment, lab).
//!
//! A game is a plain-Rust state machine: `Rules::new_game` deals a game from parameters, a seat
//! count and a seed; then, while `to_move()` names a seat, that seat picks one of
//! `legal_actions` and the driver calls `apply`. Chance (shuffles, dice) happens inside `apply`
//! and `new_game` from the state's own seeded streams, so a game is a pure function of
//! (parameters, seats, seed, actions). Actions are ids of a fixed action space per game
//! (`action_space`), so masks and RL heads are stable.
//!
//! Kétharmad keeps its own fast batch path and implements this interface through its stepper
//! (`engine::step`); Schotten Totten 2 (`games::schotten_totten2`) and Osztrakon
//! (`games::osztrakon`) implement it directly.

use crate::rng::Rng;
use std::borrow::Cow;

pub mod agents;
pub mod batch;
pub mod error;
pub mod learned;
pub mod luck;
pub mod pool;
pub mod reduce;
pub mod search;
pub mod stop;
pub mod trajectory;
pub mod view;

pub use error::{panic_message, BatchError};
pub use pool::{available_threads, on_pool, pools_built, thread_pool, MAX_THREADS};
pub use stop::Stop;
pub use view::{Score, TableView, Zone};

/// A game's named parameter: every rule number and every model assumption (design rule 2).
/// Names, choices and descriptions are `Cow`: static for games whose parameters are fixed in
/// code (Schotten Totten 2, Osztrakon), owned for Kétharmad, whose parameters come from its
/// card data (`cards::registry`).
#[derive(Clone, Debug, PartialEq)]
pub struct GameParam {
    pub name: Cow<'static, str>,
    /// Default value; ints and bools are stored as f64 exactly, choices as their index.
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub kind: ParamKind,
    /// The choice names of a `ParamKind::Choice` (empty otherwise).
    pub choices: Vec<Cow<'static, str>>,
    pub description: Cow<'static, str>,
}

/// The choice names of a static choice list, for [`GameParam::choices`].
pub fn choices(names: &'static [&'static str]) -> Vec<Cow<'static, str>> {
    names.iter().map(|&n| Cow::Borrowed(n)).collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    Float,
    Bool,
    Choice,
}

/// One value a caller gives for a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
}

/// Resolve overrides against a registry: unknown names, wrong kinds, values out of range and
/// unknown choices are errors that name the parameter. Returns one f64 per registry entry.
pub fn resolve(registry: &[GameParam], overrides: &[(String, Value)]) -> Result<Vec<f64>, String> {
    let mut out: Vec<f64> = registry.iter().map(|p| p.default).collect();
    for (name, v) in overrides {
        let i = registry.iter().position(|p| p.name == name.as_str()).ok_or_else(|| {
            let near: Vec<&str> = registry.iter().filter(|p| p.name.rsplit('.').next() == name.rsplit('.').next()).map(|p| p.name.as_ref()).take(3).collect();
            if near.is_empty() {
                format!("unknown parameter '{name}'")
            } else {
                format!("unknown parameter '{name}' (similar: {})", near.join(", "))
            }
        })?;
        let p = &registry[i];
        let x = match (p.kind, v) {
            (ParamKind::Int, Value::Int(x)) => *x as f64,
            (ParamKind::Float, Value::Float(x)) => *x,
            (ParamKind::Float, Value::Int(x)) => *x as f64,
            (ParamKind::Bool, Value::Bool(b)) => *b as i64 as f64,
            (ParamKind::Choice, Value::Str(s)) => {
                p.choices.iter().position(|c| c == s).ok_or_else(|| format!("parameter '{name}': '{s}' is not one of {}", p.choices.join(", ")))? as f64
            }
            (k, _) => return Err(format!("parameter '{name}': expected a value of kind {k:?}")),
        };
        if !x.is_finite() || x < p.min || x > p.max {
            return Err(format!("parameter '{name}': value {x} is out of range {}..={}", p.min, p.max));
        }
        out[i] = x;
    }
    Ok(out)
}

/// What one finished (or capped) game reports, seat by seat. The batch runner turns these into
/// columns: one row per game plus one row per (game, seat).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The winning seats (empty: a draw or an unfinished game).
    pub winners: Vec<u8>,
    /// Final score per seat (+1 win / −1 loss / 0 draw for win-loss games; points otherwise).
    pub returns: Vec<f64>,
    /// The game stopped at a safety cap, not by its rules.
    pub unfinished: bool,
    /// A short reason, e.g. "breach", "five_sections", "deck_out", "cap".
    pub end_reason: &'static str,
    /// Turns (or days/rounds: the game's own unit, documented per game).
    pub turns: u32,
    /// Extra per-game numeric columns (name, value), the same names in every game of a game type.
    pub game_columns: Vec<(&'static str, f64)>,
    /// Extra per-seat numeric columns (name, one value per seat).
    pub seat_columns: Vec<(&'static str, Vec<f64>)>,
}

/// One game in progress. `Clone` copies the whole game (for search and the step API). A state
/// lives on one worker (the batch runner deals, plays and drops it there), so it need not be
/// `Send`: Kétharmad's state is a stepper on a coroutine stack (`games::ketharmad`).
pub trait GameState: Clone {
    /// Seats in this game.
    fn seats(&self) -> usize;
    /// The seat that must act now, or None when the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The legal action ids of the seat to move (cleared first; empty when the game is over).
    fn legal_actions(&self, out: &mut Vec<u32>);
    /// Play `action` for the seat to move. An illegal id is an error naming it; the state is
    /// unchanged then.
    fn apply(&mut self, action: u32) -> Result<(), String>;
    /// A label for an action id in this state ("play Red 7 on section 3").
    fn describe_action(&self, action: u32) -> String;
    /// What `seat` sees, as a fixed-length vector (`Rules::observation_len`).
    fn observe(&self, seat: usize, out: &mut [f32]);
    /// Replace everything `seat` cannot see with a random deal consistent with what it can see
    /// (for search and re-dealt copies); public information and `seat`'s own hand stay.
    fn determinize(&mut self, seat: usize, rng: &mut Rng);
    /// The outcome; meaningful once `to_move()` is None.
    fn outcome(&self) -> Outcome;
    /// A copy with everything `seat` cannot see re-dealt (`clone` then `determinize`; a game
    /// whose clone is itself a rebuild overrides it to build once).
    fn determinized(&self, seat: usize, rng: &mut Rng) -> Self {
        let mut c = self.clone();
        c.determinize(seat, rng);
        c
    }
    /// The game's clock in its own unit of `Outcome::turns` (turns, days): the search cuts
    /// rollouts after `horizon` of them. 0 for a game without one.
    fn clock(&self) -> u32 {
        0
    }
    /// Each seat's return of a finished game into `out` (one per seat): `outcome().returns`,
    /// which a game may compute without building the whole outcome.
    fn rewards(&self, out: &mut [f64]) {
        let o = self.outcome();
        for (r, x) in out.iter_mut().zip(o.returns) {
            *r = x;
        }
    }
    /// Whether the pending decision is one of the game's key decisions (the search's
    /// `key_only` searches only those); every decision unless the game says otherwise.
    fn key_decision(&self) -> bool {
        true
    }
    /// Whether the game has an evaluation (`evaluate`), so the search may cut rollouts.
    fn has_evaluation(&self) -> bool {
        false
    }
    /// Score an unfinished game for every seat in -1..=1 (a guess of its return) into `out`,
    /// with the evaluation's weights (`Rules::eval_knobs`, in order). False: no evaluation.
    fn evaluate(&self, _weights: &[f64], _out: &mut [f64]) -> bool {
        false
    }
    /// Seat `seat`'s position features for a learned model (`Rules::features`' layout) into
    /// `out`; false for a game without features.
    fn features(&self, _seat: usize, _out: &mut [f32]) -> bool {
        false
    }
    /// The features of every legal action of the seat to move, in `legal_actions`' order, one
    /// row after another (`Rules::option_features`' layout) into `out` (cleared first);
    /// false for a game (or a decision) without them.
    fn option_features(&self, _out: &mut Vec<f32>) -> bool {
        false
    }
    /// A readable picture of the whole game for viewers (replay, terminal play; `view`):
    /// scores to chart, zones marked with the seats that see them, public facts. Empty unless
    /// the game draws one. Never called by a batch.
    fn view(&self) -> TableView {
        TableView::default()
    }
}

/// A game type: its name, parameters, seat counts and how to deal a game.
pub trait Rules: Send + Sync {
    type State: GameState;
    /// The game's API name ("schotten_totten_2", "osztrakon").
    fn name(&self) -> &'static str;
    /// Every parameter of this game (names like "rules.sections_to_win", "model.noise").
    fn registry(&self) -> Vec<GameParam>;
    /// The seat counts this game allows (inclusive).
    fn seat_range(&self) -> (usize, usize);
    /// The side names of a game with asymmetric seats ("attacker", "defender"), else empty.
    fn sides(&self) -> Vec<&'static str>;
    /// The number of action ids.
    fn action_space(&self, seats: usize) -> usize;
    /// The observation length for a game of `seats` seats.
    fn observation_len(&self, seats: usize) -> usize;
    /// Deal game `game` of a batch with `batch_seed` for `seats` seats with the resolved
    /// parameter values (one per `registry` entry). Uses `rng::game_seed(batch_seed, game)`.
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<Self::State, String>;
    /// The game's own agent names (e.g. "greedy"); the generic "random" and "search" are
    /// added by `agents::agent_names` unless the game overrides them here.
    fn agent_names(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Build one of the game's own agents for `seat`, or None when `spec.name` is not one of
    /// them (the generic agents are tried next). Errors name the bad option.
    fn make_agent(&self, _spec: &agents::AgentSpec, _values: &[f64], _seats: usize, _seat: usize) -> Result<Option<Box<dyn Agent<Self::State>>>, String> {
        Ok(None)
    }
    /// The weights of the game's evaluation (`GameState::evaluate`), options of its search bot.
    fn eval_knobs(&self) -> &'static [search::Knob] {
        &[]
    }
    /// The game's own defaults for options of its search bot (name, value), over
    /// `search::SEARCH_KNOBS`' defaults.
    fn search_defaults(&self) -> &'static [(&'static str, f64)] {
        &[]
    }
    /// The search bot's default rollout bot in this game.
    fn search_rollout(&self) -> &'static str {
        "random"
    }
    /// The names of the position features of `GameState::features` (empty: none), and the
    /// layout's name in model files.
    fn features(&self) -> (&'static str, &'static [&'static str]) {
        ("", &[])
    }
    /// The names of the option features of `GameState::option_features` (empty: none), and
    /// the layout's name.
    fn option_features(&self) -> (&'static str, &'static [&'static str]) {
        ("", &[])
    }
}

/// A policy for one seat of a game: picks one of `legal` (never empty) in state `s`, drawing
/// any randomness from `rng` (the seat's own seeded stream, so results do not depend on
/// threads). Game-specific bots (Schotten Totten 2's greedy, Osztrakon's B1 policies) and the
/// generic random and search agents all implement it.
pub trait Agent<S: GameState>: Send {
    fn act(&mut self, s: &S, legal: &[u32], rng: &mut Rng) -> u32;
    /// The stop token of the batch this agent plays in (a search checks it between iterations).
    fn set_stop(&mut self, _stop: &Stop) {}
    /// Play this agent's choice on `s` directly, without a list of legal ids: what a search's
    /// rollouts call, so a game whose bots answer from the state itself (Kétharmad's built-in
    /// bots) does not build ids only to decode them again. None: not supported (the caller
    /// lists the legal ids and calls `act`).
    fn play(&mut self, _s: &mut S, _rng: &mut Rng) -> Option<Result<(), String>> {
        None
    }
    /// The root statistics of this agent's last searched decision, one per option it tried
    /// (for viewers: the replay shows each option's score); empty for an agent that does not
    /// search, or when the last decision was not searched. Never called by a batch.
    fn root_stats(&self) -> Vec<search::RootStat> {
        Vec::new()
    }
    /// Forget the last decision's root statistics (a viewer calls it before asking for a
    /// decision, so a decision answered without a search reports none).
    fn forget_root(&mut self) {}
    /// This agent's order of preference over `legal`, best first, into `out` (all of `legal`,
    /// or a prefix of it when the rest is not worth trying): what the search expands first and
    /// which candidates its root compares (`width`). The first must be `act`'s pick. False:
    /// the agent has no ranking (the search uses its pick, then the rest in a random order).
    fn rank(&mut self, _s: &S, _legal: &[u32], _rng: &mut Rng, _out: &mut Vec<u32>) -> bool {
        false
    }
}

/// Play one game to its end with one agent per seat; `rngs[seat]` are the seats' streams.
/// Returns the outcome (a game still running after `max_actions` actions is unfinished).
pub fn play_out<S: GameState>(s: &mut S, agents: &mut [Box<dyn Agent<S> + '_>], rngs: &mut [Rng], max_actions: u64) -> Outcome {
    let mut legal = Vec::with_capacity(64);
    let mut n = 0u64;
    while let Some(seat) = s.to_move() {
        if n >= max_actions {
            let mut o = s.outcome();
            o.unfinished = true;
            o.winners.clear();
            o.end_reason = "cap";
            return o;
        }
        s.legal_actions(&mut legal);
        let a = agents[seat].act(s, &legal, &mut rngs[seat]);
        // an agent returning an illegal id is a bug in that agent: report it as the outcome
        if s.apply(a).is_err() {
            let mut o = s.outcome();
            o.unfinished = true;
            o.winners.clear();
            o.end_reason = "illegal_action";
            return o;
        }
        n += 1;
    }
    s.outcome()
}
