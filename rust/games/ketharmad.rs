//! Kétharmad on the generic harness (issue 14 item 1): [`KetharmadRules`] and
//! [`KetharmadState`] implement `harness::Rules` / `harness::GameState` over the engine's
//! stepper (`engine::step::Stepper`), so the generic parts (batch runner, ISMCTS and random
//! agents, step API) play Kétharmad like any other game.
//!
//! Two paths, one game: the fast batch (`batch::run_batch`) runs the engine with its seats'
//! bots answering inside `Game::decide`; this adapter stops at every decision (a coroutine) and
//! lets a harness `Agent` answer. The built-in bots ([`make_agent`](KetharmadRules) for
//! `random`, `heuristic`, the presets and `search`) answer through `Stepper::policy_choice`
//! with the stream a batch gives them (`Stream::Policy0 + seat` of the game seed: the stream
//! the harness hands the seat's agent), so `harness::batch::run` with built-in bots gives the
//! rows of `run_batch` with the same seed (tests/ketharmad_harness.rs).
//!
//! Actions are the fixed ids of `engine::actions::ActionSpace` (the step API's and the RL
//! environment's), observations the tensor of `engine::observe`.
//!
//! Parameters: the card set's parameter table (`cards::registry`): every rule number and card
//! number, listed with the values this rules object plays (its overrides applied). Cost
//! parameters (`rules.expose_cost`, `rules.swap_cost`) are not numbers and are not listed; set
//! them through the card-data overrides `KetharmadRules::new` takes.

use crate::batch::BatchSpec;
use crate::bots::{BotSpec, Policy, BOT_KINDS};
use crate::cards::{build_db, registry as card_registry, CardDb, Deck, ParamKind as CardKind, ParamValue, RawDb, FACTIONS};
use crate::engine::actions::ActionSpace;
use crate::engine::observe;
use crate::engine::step::Stepper;
use crate::engine::{DecisionKind, EndReason, GameConfig};
use crate::harness::agents::AgentSpec;
use crate::harness::search::Knob;
use crate::harness::{Agent, GameParam, GameState, Outcome, ParamKind, Rules, Value};
use crate::rng::{game_seed, Rng};
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

/// The API name.
pub const NAME: &str = "ketharmad";

/// Kétharmad's built-in bot names as harness agents (`random` and `search` are Kétharmad's
/// own; the generic ISMCTS is `ismcts`).
pub const AGENTS: [&str; 7] = ["random", "heuristic", "aggro", "control", "tuned", "search", "ismcts"];

/// A compiled card set with its action space.
#[derive(Clone)]
struct Set {
    db: Arc<CardDb>,
    space: Arc<ActionSpace>,
}

/// Kétharmad's rules for the harness: a card set (overrides and format applied) and the decks
/// it deals to its seats.
pub struct KetharmadRules {
    raw: Arc<RawDb>,
    overrides: Vec<(String, ParamValue)>,
    set: Set,
    /// The parameter table (numbers only) and the values `set` was compiled with.
    params: Vec<GameParam>,
    values: Vec<f64>,
    /// Each seat's deck as given, and as the engine takes it (factions; decks, empty when
    /// every seat plays its faction's deck). Empty: a rules object for listing only.
    deck_names: Vec<String>,
    factions: Vec<u8>,
    decks: Vec<Deck>,
    start_player: Option<u8>,
    /// The card set of other parameter values (`new_game` with values not the defaults): the
    /// last one compiled.
    other: Mutex<Option<(Vec<f64>, Set)>>,
}

fn kind_of(k: CardKind) -> Option<ParamKind> {
    match k {
        CardKind::Int => Some(ParamKind::Int),
        CardKind::Bool => Some(ParamKind::Bool),
        CardKind::Choice => Some(ParamKind::Choice),
        CardKind::Cost => None,
    }
}

/// The harness registry of a card set with `overrides` applied (defaults = the values played).
fn params_of(raw: &RawDb, overrides: &[(String, ParamValue)]) -> Vec<GameParam> {
    let mut out = Vec::new();
    for p in card_registry(raw) {
        let Some(kind) = kind_of(p.kind) else { continue };
        let mut default = p.default as f64;
        if let Some((_, v)) = overrides.iter().rev().find(|(n, _)| *n == p.name) {
            default = match v {
                ParamValue::Int(x) => *x as f64,
                ParamValue::Bool(b) => *b as i64 as f64,
                ParamValue::Str(s) => p.choices.iter().position(|c| c == s).unwrap_or(p.default as usize) as f64,
            };
        }
        out.push(GameParam {
            name: Cow::Owned(p.name),
            default,
            min: p.min as f64,
            max: p.max as f64,
            kind,
            choices: p.choices.into_iter().map(Cow::Owned).collect(),
            description: Cow::Owned(p.description),
        });
    }
    out
}

impl KetharmadRules {
    /// The rules of card set `raw` with parameter `overrides` (the same as `build_db` takes),
    /// dealing `decks` (one per seat: a faction, "a+b", or a custom list, `cards::decks`;
    /// empty for a rules object that only lists the game) with start seat `start_player`
    /// (None: random, E9). Errors name the bad input.
    pub fn new(raw: Arc<RawDb>, overrides: Vec<(String, ParamValue)>, decks: &[String], start_player: Option<u8>) -> Result<KetharmadRules, String> {
        let db = Arc::new(build_db(&raw, &overrides)?);
        KetharmadRules::with_db(raw, db, overrides, decks, start_player)
    }

    /// `new` with the card set already compiled from `raw` and `overrides` (the Python
    /// bindings' card cache).
    pub fn with_db(raw: Arc<RawDb>, db: Arc<CardDb>, overrides: Vec<(String, ParamValue)>, decks: &[String], start_player: Option<u8>) -> Result<KetharmadRules, String> {
        let (factions, deck_list) = if decks.is_empty() { (Vec::new(), Vec::new()) } else { crate::cards::decks::parse_decks(&db, decks)? };
        let n = factions.len();
        if n > 0 {
            if n > observe::SEATS {
                return Err(format!("ketharmad on the harness plays 2 to {} seats (its observation and action space hold {}), got {n} decks", observe::SEATS, observe::SEATS));
            }
            if let Some(s) = start_player.filter(|&s| s as usize >= n) {
                return Err(format!("start_player {s} does not exist: the game has seats 0..{}", n - 1));
            }
            let spec = BatchSpec { factions: factions.clone(), decks: deck_list.clone(), bots: vec![BotSpec::random(); n], games: 1, seed: 0, threads: Some(1), start_player };
            spec.validate(&db)?;
        }
        let params = params_of(&raw, &overrides);
        let values = params.iter().map(|p| p.default).collect();
        let space = Arc::new(ActionSpace::new(&db));
        Ok(KetharmadRules { raw, overrides, set: Set { db, space }, params, values, deck_names: decks.to_vec(), factions, decks: deck_list, start_player, other: Mutex::new(None) })
    }

    /// The card set played with the default values.
    pub fn db(&self) -> &Arc<CardDb> {
        &self.set.db
    }

    /// The seats' decks as given.
    pub fn deck_names(&self) -> &[String] {
        &self.deck_names
    }

    /// The card set of `values`: this one, or one compiled with the values that differ as
    /// further overrides (cached: a batch compiles it once).
    fn set_for(&self, values: &[f64]) -> Result<Set, String> {
        if values == self.values.as_slice() {
            return Ok(self.set.clone());
        }
        let mut other = self.other.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((v, s)) = other.as_ref() {
            if v.as_slice() == values {
                return Ok(s.clone());
            }
        }
        let mut ov = self.overrides.clone();
        for (p, (&v, &d)) in self.params.iter().zip(values.iter().zip(&self.values)) {
            if v != d {
                ov.push((
                    p.name.to_string(),
                    match p.kind {
                        ParamKind::Bool => ParamValue::Bool(v != 0.0),
                        ParamKind::Choice => ParamValue::Str(p.choices.get(v as usize).ok_or_else(|| format!("parameter '{}': no choice {v}", p.name))?.to_string()),
                        _ => ParamValue::Int(v as i64),
                    },
                ));
            }
        }
        let db = Arc::new(build_db(&self.raw, &ov)?);
        let s = Set { space: Arc::new(ActionSpace::new(&db)), db };
        *other = Some((values.to_vec(), s.clone()));
        Ok(s)
    }
}

impl Rules for KetharmadRules {
    type State = KetharmadState;

    fn name(&self) -> &'static str {
        NAME
    }
    fn registry(&self) -> Vec<GameParam> {
        self.params.clone()
    }
    /// The number of decks given (the seats are dealt their decks), or the format's range
    /// capped at the observation's 4 seats for a listing-only rules object.
    fn seat_range(&self) -> (usize, usize) {
        match self.factions.len() {
            0 => {
                let f = &self.set.db.rules.format;
                (f.seats_min.max(2), f.seats_max.min(observe::SEATS))
            }
            n => (n, n),
        }
    }
    /// Each seat's faction (`Deck::faction` for a Mixed deck or a list), or every faction
    /// for a listing-only rules object.
    fn sides(&self) -> Vec<&'static str> {
        match self.factions.len() {
            0 => FACTIONS.to_vec(),
            _ => self.factions.iter().map(|&f| FACTIONS[f as usize]).collect(),
        }
    }
    fn action_space(&self, _seats: usize) -> usize {
        self.set.space.size()
    }
    fn observation_len(&self, _seats: usize) -> usize {
        observe::size(&self.set.db)
    }
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<KetharmadState, String> {
        if self.factions.is_empty() {
            return Err("ketharmad: give one deck per seat to deal a game".into());
        }
        if seats != self.factions.len() {
            return Err(format!("ketharmad: got {seats} seats for {} decks ({})", self.factions.len(), self.deck_names.join(", ")));
        }
        if values.len() != self.values.len() {
            return Err(format!("ketharmad: got {} parameter values for {} parameters", values.len(), self.values.len()));
        }
        let set = self.set_for(values)?;
        let cfg = GameConfig { factions: self.factions.clone(), seed: game_seed(batch_seed, game), start_player: self.start_player, decks: self.decks.clone() };
        // SAFETY: the card set is kept alive by the `Arc` in the same `KetharmadState`, which
        // drops the stepper first (field order); the 'static lifetime never leaves the struct
        // (the same owning pattern as the step API's `py::step::PyGame`).
        let db: &'static CardDb = unsafe { &*Arc::as_ptr(&set.db) };
        let st = Stepper::new(db, &cfg);
        Ok(KetharmadState { st, db: Some(set.db), space: set.space, n: seats })
    }
    fn agent_names(&self) -> Vec<&'static str> {
        AGENTS.to_vec()
    }
    fn eval_knobs(&self) -> &'static [Knob] {
        EVAL_KNOBS
    }
    fn search_defaults(&self) -> &'static [(&'static str, f64)] {
        SEARCH_DEFAULTS
    }
    fn search_rollout(&self) -> &'static str {
        "tuned"
    }
    fn features(&self) -> (&'static str, &'static [&'static str]) {
        (crate::learn::ketharmad_features::LAYOUT, &crate::learn::ketharmad_features::NAMES)
    }
    fn option_features(&self) -> (&'static str, &'static [&'static str]) {
        (crate::learn::ketharmad_actions::LAYOUT, &crate::learn::ketharmad_actions::NAMES)
    }
    /// The built-in bots (`BOT_KINDS`) with their knobs as options
    /// (`"search:iterations=50,width=3"`, `"heuristic:aggression=0.8"`); `ismcts` is left to
    /// the generic search.
    fn make_agent(&self, spec: &AgentSpec, _values: &[f64], _seats: usize, _seat: usize) -> Result<Option<Box<dyn Agent<KetharmadState>>>, String> {
        // `ismcts` here is the harness's search itself (string options such as `rollout=`)
        if !BOT_KINDS.contains(&spec.name.as_str()) || spec.name == "ismcts" {
            return Ok(None);
        }
        let mut knobs = Vec::with_capacity(spec.opts.len());
        let mut model = None;
        for (k, v) in &spec.opts {
            if k == "model" {
                let Value::Str(p) = v else { return Err(format!("bot '{}': knob 'model' must be a model file's path", spec.name)) };
                model = Some(p.clone());
                continue;
            }
            let x = match v {
                Value::Int(i) => *i as f64,
                Value::Float(f) => *f,
                Value::Bool(b) => *b as i64 as f64,
                Value::Str(s) => return Err(format!("bot '{}': knob '{k}' must be a number, got '{s}'", spec.name)),
            };
            knobs.push((k.clone(), x));
        }
        let mut spec = BotSpec::parse(&spec.name, knobs)?;
        if let Some(p) = model {
            spec = spec.with_model("model", &p)?;
        }
        spec.check_model()?;
        Ok(Some(Box::new(BuiltinAgent { spec, policy: None, order: Vec::new(), scores: Vec::new() })))
    }
}

/// A built-in bot as a harness agent. Its policy is created at its first decision from the
/// stream the harness gives the seat (`Stream::Policy0 + seat` of the game seed, the stream a
/// batch gives the bot) and keeps its own copy from then on, exactly as in a batch.
pub struct BuiltinAgent {
    spec: BotSpec,
    policy: Option<Policy>,
    /// `rank`'s buffers: option indices and their scores.
    order: Vec<usize>,
    scores: Vec<f64>,
}

impl BuiltinAgent {
    /// The built-in bot `kind` with its default knobs (a name of `BOT_KINDS` without knobs).
    /// The built-in bot of a checked spec.
    pub fn of_spec(spec: BotSpec) -> BuiltinAgent {
        BuiltinAgent { spec, policy: None, order: Vec::new(), scores: Vec::new() }
    }

    pub fn named(kind: &str) -> BuiltinAgent {
        BuiltinAgent {
            spec: BotSpec { kind: kind.to_string(), knobs: Vec::new(), model: None, prior: None, ensemble: Vec::new() },
            policy: None,
            order: Vec::new(),
            scores: Vec::new(),
        }
    }
}

impl Agent<KetharmadState> for BuiltinAgent {
    fn act(&mut self, s: &KetharmadState, legal: &[u32], rng: &mut Rng) -> u32 {
        let spec = &self.spec;
        let policy = self.policy.get_or_insert_with(|| Policy::new(spec, rng.clone()));
        // `legal` is in the order of the pending options (`legal_actions`)
        let i = s.st.policy_choice(policy).unwrap_or(0);
        legal[i.min(legal.len() - 1)]
    }
    /// The rule-based bots rank main-priority options by their scores (`heuristic::rank_main`),
    /// their pick first, and the learned bot by its model's scores: the order in which the search widens and the candidates its paired
    /// root compares (`width`). Other decisions and bots: no ranking.
    fn rank(&mut self, s: &KetharmadState, legal: &[u32], rng: &mut Rng, out: &mut Vec<u32>) -> bool {
        let spec = &self.spec;
        let policy = self.policy.get_or_insert_with(|| Policy::new(spec, rng.clone()));
        let Some((seat, kind, opts)) = s.st.pending() else { return false };
        if kind != DecisionKind::Main || opts.len() != legal.len() || !matches!(policy, Policy::Heuristic(_) | Policy::Learned(_)) {
            return false;
        }
        if let Policy::Learned(l) = policy {
            // the model's own order (its pick first)
            let view = crate::engine::SeatView::new(s.st.game(), seat);
            l.rank(&view, opts, &mut self.order, &mut self.scores);
            out.clear();
            out.extend(self.order.iter().map(|&i| legal[i]));
            return true;
        }
        let Some(pick) = s.st.policy_choice(policy) else { return false };
        let Policy::Heuristic(k) = policy else { return false };
        let view = crate::engine::SeatView::new(s.st.game(), seat);
        crate::bots::heuristic::rank_main(k, &view, opts, &mut self.order, &mut self.scores);
        out.clear();
        out.push(legal[pick]);
        out.extend(self.order.iter().filter(|&&i| i != pick).map(|&i| legal[i]));
        true
    }
    /// The policy's option index applied as it is (no ids: search rollouts).
    fn play(&mut self, s: &mut KetharmadState, rng: &mut Rng) -> Option<Result<(), String>> {
        let spec = &self.spec;
        let policy = self.policy.get_or_insert_with(|| Policy::new(spec, rng.clone()));
        let i = s.st.policy_choice(policy)?;
        Some(s.st.apply(i))
    }
}

/// The weights of Kétharmad's evaluation, options of the `ismcts` bot (`GameState::evaluate`).
pub const EVAL_KNOBS: &[Knob] = &[
    Knob { name: "eval_board", default: 1.0, min: 0.0, max: 10.0, integer: false, description: "evaluation: worth of one point of Influence on a Figure in play, in Support" },
    Knob {
        name: "eval_credibility",
        default: 0.25,
        min: 0.0,
        max: 10.0,
        integer: false,
        description: "evaluation: worth of one point of Credibility on a Figure in play, in Support",
    },
    Knob { name: "eval_hand", default: 1.0, min: 0.0, max: 10.0, integer: false, description: "evaluation: worth of one card in hand, in Support" },
    Knob { name: "eval_scandal", default: 0.5, min: 0.0, max: 10.0, integer: false, description: "evaluation: cost of one Scandal, in Support" },
    Knob { name: "eval_scale", default: 10.0, min: 0.1, max: 1000.0, integer: false, description: "evaluation: a lead of this much Support-worth scores tanh(1) = 0.76" },
];

/// Kétharmad's defaults for the `ismcts` bot's options (its rollout bot is `tuned`): rollouts
/// cut after 2 turns, only main-priority decisions of the searching seat in the tree, the
/// rollout bot's pick expanded first (docs/bots.md has the measurements behind them).
pub const SEARCH_DEFAULTS: &[(&str, f64)] = &[("iterations", 100.0), ("horizon", 2.0), ("widen", 1.0), ("key_only", 1.0), ("own_only", 1.0)];

/// Kétharmad's evaluation of an unfinished game: each seat's worth is its Support, plus
/// `eval_board` per Influence and `eval_credibility` per Credibility of its Figures in play,
/// plus `eval_hand` per card in hand, minus `eval_scandal` per Scandal (its pool's, in
/// Coalition); a seat scores tanh((worth − the best enemy's worth) / `eval_scale`); an
/// eliminated seat scores −1. Everything it reads is public except hand sizes, which are too.
pub fn evaluate(g: &crate::engine::Game<'_>, w: &[f64], out: &mut [f64]) {
    let n = g.state.n.min(out.len());
    let (board, cred, hand, scandal, scale) = (w[0], w[1], w[2], w[3], w[4]);
    let mut worth = [0f64; observe::SEATS];
    let v = crate::engine::SeatView::new(g, 0);
    for (p, x) in worth.iter_mut().enumerate().take(n) {
        let mut f = v.support(p) as f64 + hand * v.hand_size(p) as f64 - scandal * v.scandal(p) as f64;
        for &c in v.in_play(p) {
            if v.is_figure_in_play(c) {
                f += board * g.influence(c) as f64 + cred * g.credibility(c) as f64;
            }
        }
        *x = f;
    }
    for (p, r) in out.iter_mut().enumerate().take(n) {
        if !v.alive(p) {
            *r = -1.0;
            continue;
        }
        let best = v.opponents(p).map(|q| worth[q]).fold(f64::NEG_INFINITY, f64::max);
        *r = if best == f64::NEG_INFINITY { 1.0 } else { ((worth[p] - best) / scale).tanh() };
    }
}

/// One Kétharmad game on the harness: a stepper stopped at a decision (or over).
pub struct KetharmadState {
    // dropped first: it borrows the card set below (see `KetharmadRules::new_game`)
    st: Stepper<'static>,
    /// The card set the stepper borrows; None for a state that borrows one its maker keeps
    /// alive for the state's whole life (`borrowed`).
    db: Option<Arc<CardDb>>,
    space: Arc<ActionSpace>,
    n: usize,
}

impl Clone for KetharmadState {
    /// A copy at the same decision (`Stepper::replayed`: rebuilt from its checkpoint).
    fn clone(&self) -> KetharmadState {
        KetharmadState { st: self.st.replayed(), db: self.db.clone(), space: self.space.clone(), n: self.n }
    }
}

impl KetharmadState {
    /// A state over a stepper whose card set its caller keeps alive while the state (and
    /// every copy of it) lives: `bots::ismcts` builds one per decision and drops it there.
    pub fn borrowed(st: Stepper<'static>, space: Arc<ActionSpace>, n: usize) -> KetharmadState {
        KetharmadState { st, db: None, space, n }
    }

    /// The stepper (the engine game at its pending decision).
    pub fn stepper(&self) -> &Stepper<'static> {
        &self.st
    }
}

impl GameState for KetharmadState {
    fn seats(&self) -> usize {
        self.n
    }
    fn to_move(&self) -> Option<usize> {
        self.st.pending().map(|p| p.0)
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        match self.st.pending() {
            Some((seat, _, opts)) => self.space.ids(self.st.game(), seat, opts, out),
            None => out.clear(),
        }
    }
    fn apply(&mut self, action: u32) -> Result<(), String> {
        let Some((seat, _, opts)) = self.st.pending() else {
            return Err(format!("action {action}: the game is over"));
        };
        match self.space.decode(self.st.game(), seat, action, opts) {
            Some(i) => self.st.apply(i),
            None => Err(format!("action {action} ({}) is not legal for seat {seat} here", self.describe_action(action))),
        }
    }
    fn describe_action(&self, action: u32) -> String {
        if let Some((seat, kind, opts)) = self.st.pending() {
            if let Some(i) = self.space.decode(self.st.game(), seat, action, opts) {
                return self.space.label_in(self.st.game(), seat, Some(kind), opts[i]);
            }
        }
        if (action as usize) < self.space.size() {
            self.space.describe(action)
        } else {
            format!("action {action} (outside the action space 0..{})", self.space.size())
        }
    }
    fn observe(&self, seat: usize, out: &mut [f32]) {
        let dec = self.st.pending().map(|p| (p.0, p.1));
        observe::tensor_at(self.st.game(), seat, dec, out);
    }
    fn determinize(&mut self, seat: usize, rng: &mut Rng) {
        self.st = self.st.determinized(seat, rng);
    }
    /// One rebuild (`Stepper::determinized`), not a replayed copy re-dealt again.
    fn determinized(&self, seat: usize, rng: &mut Rng) -> KetharmadState {
        KetharmadState { st: self.st.determinized(seat, rng), db: self.db.clone(), space: self.space.clone(), n: self.n }
    }
    /// Turns taken so far (every seat's; `Outcome::turns`).
    fn clock(&self) -> u32 {
        self.st.game().state.turn
    }
    fn rewards(&self, out: &mut [f64]) {
        let Some(o) = self.st.outcome() else {
            out.iter_mut().for_each(|r| *r = 0.0);
            return;
        };
        let any = (0..self.n).any(|s| o.won(s));
        for (s, r) in out.iter_mut().enumerate().take(self.n) {
            *r = if !any {
                0.0
            } else if o.won(s) {
                1.0
            } else {
                -1.0
            };
        }
    }
    /// Main-priority decisions (what to play, Expose, Recruit, attack or pass).
    fn key_decision(&self) -> bool {
        matches!(self.st.pending(), Some((_, DecisionKind::Main, _)))
    }
    fn has_evaluation(&self) -> bool {
        true
    }
    /// [`evaluate`]: Support, Scandal, board and hand.
    fn evaluate(&self, weights: &[f64], out: &mut [f64]) -> bool {
        evaluate(self.st.game(), weights, out);
        true
    }
    /// `learn::ketharmad_features`: numbers off the cards and the board, `seat`'s own hand.
    fn features(&self, seat: usize, out: &mut [f32]) -> bool {
        crate::learn::ketharmad_features::features(self.st.game(), seat, out);
        true
    }
    /// `learn::ketharmad_actions` of a main-priority decision's options (the heuristic's
    /// scores by the `tuned` knobs); false at other decisions.
    fn option_features(&self, out: &mut Vec<f32>) -> bool {
        use crate::learn::ketharmad_actions as actions;
        let Some((seat, DecisionKind::Main, opts)) = self.st.pending() else { return false };
        let knobs = crate::bots::heuristic::Knobs::from("tuned", &[]);
        let view = crate::engine::SeatView::new(self.st.game(), seat);
        out.clear();
        out.resize(opts.len() * actions::LEN, 0.0);
        actions::features(&knobs, &view, opts, &mut actions::Buffers::default(), out);
        true
    }
    /// Winners (one seat in the free-for-all, a team in a team format), returns +1 for a
    /// winner and −1 for the others (0 for all without a winner), turns (every seat's turns,
    /// the batch's `turns`), the end reason (`EndReason::NAMES`), game columns `rounds`,
    /// `start_player`, `actions` and per-seat columns with the batch's `players` values
    /// (`support`, `scandal`, `eliminated`, `eliminated_round`, `cards_played`, `attacks`,
    /// `exposes`, `mulligans`, `turns_taken`, `main_decisions`).
    fn outcome(&self) -> Outcome {
        let g = self.st.game();
        let n = self.n;
        let Some(out) = self.st.outcome() else {
            return Outcome { returns: vec![0.0; n], end_reason: "running", turns: g.state.turn, ..Default::default() };
        };
        let r = crate::batch::GameResult::of_game(g, &out, 0, 0);
        let winners: Vec<u8> = (0..n).filter(|&s| out.won(s)).map(|s| s as u8).collect();
        let returns = if winners.is_empty() { vec![0.0; n] } else { (0..n).map(|s| if out.won(s) { 1.0 } else { -1.0 }).collect() };
        let p = &r.players[..n];
        let col = |f: &dyn Fn(&crate::batch::SeatResult) -> f64| p.iter().map(f).collect::<Vec<f64>>();
        Outcome {
            winners,
            returns,
            unfinished: matches!(out.reason, EndReason::UnfinishedRoundCap | EndReason::UnfinishedActionCap),
            end_reason: EndReason::NAMES[out.reason as usize],
            turns: g.state.turn,
            game_columns: vec![("rounds", r.rounds as f64), ("start_player", r.start_player as f64), ("actions", r.actions as f64)],
            seat_columns: vec![
                ("support", col(&|s| s.support as f64)),
                ("scandal", col(&|s| s.scandal as f64)),
                ("eliminated", col(&|s| s.eliminated as u8 as f64)),
                ("eliminated_round", col(&|s| s.eliminated_round as f64)),
                ("cards_played", col(&|s| s.cards_played as f64)),
                ("attacks", col(&|s| s.attacks as f64)),
                ("exposes", col(&|s| s.exposes as f64)),
                ("mulligans", col(&|s| s.mulligans as f64)),
                ("turns_taken", col(&|s| s.turns_taken as f64)),
                ("main_decisions", col(&|s| s.main_decisions as f64)),
            ],
        }
    }
}
