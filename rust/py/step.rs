//! `_core.Game`: the step API's binding (issue 12). One game driven one decision at a time
//! (`engine::step::Stepper`), its options as ids of the fixed action space
//! (`engine::actions`), its observations (`engine::observe`), and built-in bots asked for
//! their choice with the same seeded streams a batch gives them. The Python class
//! `ketharmad.Game` (python/ketharmad/step.py) wraps it.

use super::{columns_to_py, guarded, make_db, parse_bots, parse_decks, verr, BotChoice};
use crate::batch::{Columns, GameResult};
use crate::bots::Policy;
use crate::cards::{CardDb, FACTIONS};
use crate::engine::actions::ActionSpace;
use crate::engine::observe::{self, Observation};
use crate::engine::step::Stepper;
use crate::engine::{Agent, NoAgent};
use crate::engine::{DecisionKind, GameConfig, Opt};
use crate::rng::{game_seed, Rng, Stream};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// One game, stopped at a decision (or over).
#[pyclass(unsendable, subclass, module = "ketharmad._core", name = "Game")]
pub struct PyGame {
    // dropped first: it borrows the card set below
    st: Stepper<'static>,
    db: Arc<CardDb>,
    space: Arc<ActionSpace>,
    /// Built-in bots asked so far: (seat, spec label, policy with its own stream).
    bots: Vec<(usize, String, Box<dyn Agent>)>,
    seed: u64,
    game: u64,
    gseed: u64,
    n: usize,
    /// Each seat's deck label (a faction, "a+b", a custom list's name).
    labels: Arc<Vec<String>>,
}

/// The action space of a card set, built once per compiled card set (the card cache keeps
/// the few in use; dead ones are dropped here when a new one is built).
fn action_space(db: &Arc<CardDb>) -> Arc<ActionSpace> {
    static SPACES: std::sync::Mutex<Vec<(std::sync::Weak<CardDb>, Arc<ActionSpace>)>> = std::sync::Mutex::new(Vec::new());
    let mut v = SPACES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = v.iter().find(|(w, _)| std::ptr::eq(w.as_ptr(), Arc::as_ptr(db))) {
        return s.clone();
    }
    v.retain(|(w, _)| w.strong_count() > 0);
    let s = Arc::new(ActionSpace::new(db));
    v.push((Arc::downgrade(db), s.clone()));
    s
}

fn stepper(db: &Arc<CardDb>, cfg: &GameConfig, log: bool, plays: bool) -> Stepper<'static> {
    // SAFETY: the card set is kept alive by the `Arc` in the same `PyGame`, which drops the
    // stepper first (field order); the 'static lifetime never leaves the struct.
    let r: &'static CardDb = unsafe { &*Arc::as_ptr(db) };
    Stepper::with_recorders(r, cfg, log, plays)
}

impl PyGame {
    fn pending_ids(&self) -> Vec<u32> {
        match self.st.pending() {
            Some((seat, _, opts)) => opts.iter().map(|&o| self.space.id(self.st.game(), seat, o)).collect(),
            None => Vec::new(),
        }
    }

    fn label(&self, seat: usize, kind: DecisionKind, o: Opt) -> String {
        self.space.label_in(self.st.game(), seat, Some(kind), o)
    }

    fn check_seat(&self, seat: usize) -> PyResult<()> {
        if seat >= self.n {
            return Err(verr(format!("seat {seat} does not exist: the game has seats 0..{}", self.n - 1)));
        }
        Ok(())
    }

    /// The policy for (seat, spec), created with the seat's batch stream on first use.
    fn bot(&mut self, seat: usize, spec: &crate::bots::BotSpec) -> usize {
        let label = spec.label();
        if let Some(i) = self.bots.iter().position(|b| b.0 == seat && b.1 == label) {
            return i;
        }
        let pol = Policy::new(spec, Rng::stream(self.gseed, Stream::Policy0 as u64 + seat as u64));
        self.bots.push((seat, label, Box::new(pol)));
        self.bots.len() - 1
    }

    fn copy_with(&self, st: Stepper<'static>) -> PyGame {
        PyGame {
            st,
            db: self.db.clone(),
            space: self.space.clone(),
            bots: self.bots.clone(),
            seed: self.seed,
            game: self.game,
            gseed: self.gseed,
            n: self.n,
            labels: self.labels.clone(),
        }
    }

    /// The bot `spec`'s answer to the pending decision (its id) and, with `scores`, the root
    /// statistics of its search (None: it did not search this decision). Asking for them
    /// changes no choice: the search bots fill them from what they computed anyway.
    fn choice(&mut self, spec: &crate::bots::BotSpec, scores: bool) -> PyResult<BotChoice> {
        let Some((seat, _, _)) = self.st.pending() else {
            return Err(verr("the game is over: no decision to answer".into()));
        };
        let b = self.bot(seat, spec);
        if scores {
            match self.bots[b].2.as_any_mut().downcast_mut::<Policy>() {
                Some(Policy::Search(s)) => s.root = Some(Vec::new()),
                Some(Policy::Ismcts(s)) => s.forget_root(),
                _ => {}
            }
        }
        let i = self.st.policy_choice(&mut *self.bots[b].2).unwrap_or(0);
        let (_, _, opts) = self.st.pending().unwrap();
        let g = self.st.game();
        let id = self.space.id(g, seat, opts[i]);
        if !scores {
            return Ok((id, None));
        }
        let stats: Vec<(u32, u32, f64)> = match self.bots[b].2.as_any_mut().downcast_mut::<Policy>() {
            Some(Policy::Search(s)) => {
                let mut v: Vec<(u32, u32, f64)> = s.root.take().unwrap_or_default().into_iter().map(|(j, n, m)| (self.space.id(g, seat, opts[j]), n, 2.0 * m - 1.0)).collect();
                v.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
                v
            }
            Some(Policy::Ismcts(s)) => s.root_stats().into_iter().map(|r| (r.action, r.visits, r.mean)).collect(),
            _ => Vec::new(),
        };
        Ok((id, (!stats.is_empty()).then_some(stats)))
    }

    fn illegal(&self, what: String) -> PyErr {
        let Some((seat, kind, opts)) = self.st.pending() else {
            return verr(format!("{what}: the game is over"));
        };
        let legal: Vec<String> = opts.iter().map(|&o| format!("{} ({})", self.space.id(self.st.game(), seat, o), self.label(seat, kind, o))).collect();
        verr(format!("{what}; legal actions for seat {seat} ({}): {}", observe::kind_name(kind), legal.join(", ")))
    }
}

fn obs_to_py<'py>(py: Python<'py>, o: Observation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seat", o.seat)?;
    d.set_item("n_players", o.n_players)?;
    d.set_item("decision", o.decision)?;
    d.set_item("round", o.round)?;
    d.set_item("turn", o.turn)?;
    d.set_item("active", o.active)?;
    d.set_item("start_player", o.start_player)?;
    d.set_item("hand", o.hand)?;
    d.set_item("pool", o.pool.to_vec())?;
    let players = PyList::empty(py);
    for p in o.players {
        let q = PyDict::new(py);
        q.set_item("seat", p.seat)?;
        q.set_item("faction", p.faction)?;
        q.set_item("alive", p.alive)?;
        q.set_item("support", p.support)?;
        q.set_item("scandal", p.scandal)?;
        q.set_item("hand_size", p.hand_size)?;
        q.set_item("deck_size", p.deck_size)?;
        q.set_item("mulligans", p.mulligans)?;
        q.set_item("bases_played", p.bases_played)?;
        q.set_item("recruits", p.recruits)?;
        q.set_item("exposes", p.exposes)?;
        q.set_item("campaigns", p.campaigns)?;
        q.set_item("unity", p.unity)?;
        let cards = PyList::empty(py);
        for c in p.in_play {
            let x = PyDict::new(py);
            x.set_item("card", c.card)?;
            x.set_item("name", c.name)?;
            x.set_item("exhausted", c.exhausted)?;
            x.set_item("fresh", c.fresh)?;
            x.set_item("damage", c.damage)?;
            x.set_item("counters", c.counters)?;
            x.set_item("influence", c.influence)?;
            x.set_item("credibility", c.credibility)?;
            cards.append(x)?;
        }
        q.set_item("in_play", cards)?;
        q.set_item("oblivion", p.oblivion)?;
        players.append(q)?;
    }
    d.set_item("players", players)?;
    d.set_item("newsfeed_row", o.newsfeed_row)?;
    d.set_item("newsfeed_deck_size", o.newsfeed_deck_size)?;
    d.set_item("event_deck_size", o.event_deck_size)?;
    d.set_item("tokens_in_box", o.tokens_in_box)?;
    d.set_item("event_in_force", o.event_in_force)?;
    d.set_item("event_discard", o.event_discard)?;
    let mods = PyDict::new(py);
    for (k, v) in o.round_mods {
        mods.set_item(k, v)?;
    }
    d.set_item("round_mods", mods)?;
    match o.campaign {
        Some(c) => {
            let x = PyDict::new(py);
            x.set_item("attackers", c.attackers)?;
            x.set_item("blocks", c.blocks)?;
            d.set_item("campaign", x)?;
        }
        None => d.set_item("campaign", py.None())?,
    }
    d.set_item("chain", o.chain)?;
    d.set_item("target_source", o.target_source)?;
    Ok(d)
}

#[pymethods]
impl PyGame {
    /// A new game, or (`copy_of`) a copy of another at its decision, re-dealt for
    /// `determinize_seat` when given (the Python subclass makes `clone`/`determinize` of it).
    #[new]
    #[pyo3(signature = (card_data, decks, seed=0, game=0, params=None, start_player=None, log=false, record_plays=false, copy_of=None, determinize_seat=None, determinize_seed=0))]
    // too_many_arguments: the parameters mirror the Python keyword API of this constructor
    #[allow(clippy::too_many_arguments)]
    fn new(
        card_data: &str,
        decks: Vec<String>,
        seed: u64,
        game: u64,
        params: Option<&Bound<'_, PyDict>>,
        start_player: Option<u8>,
        log: bool,
        record_plays: bool,
        copy_of: Option<PyRef<'_, PyGame>>,
        determinize_seat: Option<usize>,
        determinize_seed: u64,
    ) -> PyResult<PyGame> {
        if let Some(src) = copy_of {
            return match determinize_seat {
                None => src.clone(),
                Some(seat) => src.determinize(seat, determinize_seed),
            };
        }
        guarded("Game", || {
            let db = make_db(card_data, params)?;
            let (factions, deck_list) = parse_decks(&db, &decks)?;
            let labels: Vec<String> = match deck_list.is_empty() {
                true => factions.iter().map(|&f| FACTIONS[f as usize].to_string()).collect(),
                false => deck_list.iter().map(|d| d.label()).collect(),
            };
            let n = factions.len();
            if let Some(s) = start_player {
                if s as usize >= n {
                    return Err(verr(format!("start_player {s} does not exist: the game has seats 0..{}", n - 1)));
                }
            }
            // the same check a batch makes (cards per game)
            let spec = crate::batch::BatchSpec {
                factions: factions.clone(),
                decks: deck_list.clone(),
                bots: vec![crate::bots::BotSpec::random(); n],
                games: 1,
                seed,
                threads: Some(1),
                start_player,
            };
            spec.validate(&db).map_err(verr)?;
            if n > observe::SEATS {
                return Err(verr(format!(
                    "ketharmad.Game plays 2 to {} seats, got {n}: its observation and action space hold {} seats; play {n}-seat games (war of the gods) with simulate() or play()",
                    observe::SEATS,
                    observe::SEATS
                )));
            }
            let gseed = game_seed(seed, game);
            let cfg = GameConfig { factions, seed: gseed, start_player, decks: deck_list };
            let space = action_space(&db);
            let st = stepper(&db, &cfg, log, record_plays);
            Ok(PyGame { st, db, space, bots: Vec::new(), seed, game, gseed, n, labels: Arc::new(labels) })
        })
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.n
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.size()
    }
    #[getter]
    fn observation_size(&self) -> usize {
        observe::size(&self.db)
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    #[getter]
    fn game(&self) -> u64 {
        self.game
    }
    #[getter]
    fn decks(&self) -> Vec<String> {
        self.labels.to_vec()
    }
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.st.pending().map(|p| p.0)
    }
    #[getter]
    fn decision_kind(&self) -> Option<&'static str> {
        self.st.pending().map(|p| observe::kind_name(p.1))
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.st.pending().is_none()
    }
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.st.outcome().and_then(|o| o.winner())
    }
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.st.outcome().map(|o| crate::engine::EndReason::NAMES[o.reason as usize])
    }
    #[getter]
    fn round(&self) -> u32 {
        self.st.game().state().round
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.st.game().state().turn
    }
    /// Decisions answered since the checkpoint (the start or the latest main-priority one).
    #[getter]
    fn log(&self) -> PyResult<Vec<String>> {
        match &self.st.game().trace.log {
            Some(l) => Ok(l.clone()),
            None => Err(verr("this game keeps no log: create it with log=True".into())),
        }
    }

    /// Legal action ids of the pending decision (empty once over), in the engine's order.
    fn legal_action_ids(&self) -> Vec<u32> {
        self.pending_ids()
    }

    /// (id, label) of every legal action.
    fn legal_actions(&self) -> Vec<(u32, String)> {
        let Some((seat, kind, opts)) = self.st.pending() else { return Vec::new() };
        opts.iter().map(|&o| (self.space.id(self.st.game(), seat, o), self.label(seat, kind, o))).collect()
    }

    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; self.space.size()];
        for id in self.pending_ids() {
            m[id as usize] = true;
        }
        m.into_pyarray(py)
    }

    /// What an id means in this card set, without a game.
    fn describe_action(&self, id: u32) -> PyResult<String> {
        if id as usize >= self.space.size() {
            return Err(verr(format!("action id {id} is outside the action space (0..{})", self.space.size())));
        }
        Ok(self.space.describe(id))
    }

    /// Answer the pending decision with an action id (an int, or anything with an `id`).
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action: i64 = match action.extract::<i64>() {
            Ok(a) if !action.is_instance_of::<pyo3::types::PyBool>() => a,
            _ => match action.getattr("id").and_then(|x| x.extract::<i64>()) {
                Ok(a) => a,
                Err(_) => return Err(verr(format!("an action is an integer id or an Action, got {}", action.repr().map(|r| r.to_string()).unwrap_or_default()))),
            },
        };
        guarded("Game.step", || {
            let Some((seat, _, opts)) = self.st.pending() else {
                return Err(verr("the game is over: no decision to answer".into()));
            };
            let i = if action < 0 || action as u64 >= self.space.size() as u64 { None } else { self.space.decode(self.st.game(), seat, action as u32, opts) };
            match i {
                Some(i) => self.st.apply(i).map_err(verr),
                None => Err(self.illegal(format!("action {action} is not legal here"))),
            }
        })
    }

    /// Answer with the index of an option in `legal_action_ids()` order.
    fn step_index(&mut self, i: usize) -> PyResult<()> {
        guarded("Game.step_index", || self.st.apply(i).map_err(verr))
    }

    fn observation<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyDict>> {
        self.check_seat(seat)?;
        let dec = self.st.pending().map(|p| (p.0, p.1));
        let g = self.st.game();
        let d = obs_to_py(py, observe::observation_at(g, seat, dec))?;
        // the format's relations (docs/step_api.md): team-mates and opponents still in the
        // game, in turn order after `seat`, and each seat's relation to `seat`
        d.set_item("allies", g.allies(seat).collect::<Vec<usize>>())?;
        d.set_item("enemies", g.opponents(seat).collect::<Vec<usize>>())?;
        let st = &g.state;
        let players = d.get_item("players")?.expect("players set by obs_to_py");
        for q in 0..st.n {
            let rel = if q == seat {
                "self"
            } else if st.is_ally(seat, q) {
                "ally"
            } else if st.is_enemy(seat, q) {
                "enemy"
            } else {
                "neutral"
            };
            players.get_item(q)?.set_item("relation", rel)?;
        }
        Ok(d)
    }

    fn observation_tensor<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.check_seat(seat)?;
        let mut v = vec![0f32; observe::size(&self.db)];
        let dec = self.st.pending().map(|p| (p.0, p.1));
        observe::tensor_at(self.st.game(), seat, dec, &mut v);
        Ok(v.into_pyarray(py))
    }

    /// +1 for the winner, -1 for the others; 0 for all without a winner or before the end.
    fn returns(&self) -> Vec<f64> {
        match self.st.outcome() {
            Some(o) if !o.winners.is_empty() => (0..self.n).map(|s| if o.won(s) { 1.0 } else { -1.0 }).collect(),
            Some(_) => vec![0.0; self.n],
            None => vec![0.0; self.n],
        }
    }

    fn clone(&self) -> PyResult<PyGame> {
        guarded("Game.clone", || Ok(self.copy_with(self.st.replayed())))
    }

    fn determinize(&self, seat: usize, seed: u64) -> PyResult<PyGame> {
        self.check_seat(seat)?;
        guarded("Game.determinize", || Ok(self.copy_with(self.st.determinized(seat, &mut Rng::new(seed)))))
    }

    /// The id a built-in bot would choose here, with the stream a batch gives that seat's bot
    /// in this game (it advances, as in the batch).
    fn bot_action(&mut self, spec: &Bound<'_, PyAny>) -> PyResult<u32> {
        let specs = parse_bots(&PyList::new(spec.py(), [spec])?)?;
        guarded("Game.bot_action", || self.choice(&specs[0], false).map(|c| c.0))
    }

    /// `bot_action` with the search's root statistics (for viewers): the id and, when the bot
    /// searched this decision (`search`, `ismcts`), one (id, visits, mean reward -1..=1) per
    /// option it tried, most visited first (`search`: rollouts and 2·win rate − 1); None
    /// otherwise. The same choice and stream as `bot_action`.
    fn bot_choice(&mut self, spec: &Bound<'_, PyAny>) -> PyResult<BotChoice> {
        let specs = parse_bots(&PyList::new(spec.py(), [spec])?)?;
        guarded("Game.bot_choice", || self.choice(&specs[0], true))
    }

    /// Play the seats that have a bot spec in `bots` (one entry per seat, None for a seat
    /// answered from Python) in Rust until a None seat must decide or the game is over.
    fn advance(&mut self, py: Python<'_>, bots: &Bound<'_, PyList>) -> PyResult<()> {
        if bots.len() != self.n {
            return Err(verr(format!("advance needs one entry per seat ({}), got {}", self.n, bots.len())));
        }
        let mut specs = Vec::with_capacity(self.n);
        for b in bots.iter() {
            if b.is_none() {
                specs.push(None);
            } else {
                specs.push(Some(parse_bots(&PyList::new(py, [b])?)?.remove(0)));
            }
        }
        guarded("Game.advance", || {
            let mut pols: Vec<Box<dyn Agent>> = (0..self.n).map(|_| Box::new(NoAgent) as Box<dyn Agent>).collect();
            let mut slots = vec![usize::MAX; self.n];
            let mut stop_for = 0u8;
            for (s, sp) in specs.iter().enumerate() {
                match sp {
                    Some(sp) => {
                        let b = self.bot(s, sp);
                        slots[s] = b;
                        pols[s] = std::mem::replace(&mut self.bots[b].2, Box::new(NoAgent));
                    }
                    None => stop_for |= 1 << s,
                }
            }
            self.st.advance(&mut pols, stop_for);
            for (s, p) in pols.into_iter().enumerate() {
                if slots[s] != usize::MAX {
                    self.bots[slots[s]].2 = p;
                }
            }
            Ok(())
        })
    }

    fn __repr__(&self) -> String {
        match self.st.pending() {
            Some((seat, kind, opts)) => format!(
                "<ketharmad Game {} seed={} game={}: round {}, seat {seat} to decide ({}, {} options)>",
                self.decks().join(" vs "),
                self.seed,
                self.game,
                self.st.game().state().round,
                observe::kind_name(kind),
                opts.len()
            ),
            None => format!("<ketharmad Game {} seed={} game={}: over, winner {:?}>", self.decks().join(" vs "), self.seed, self.game, self.winner()),
        }
    }
}

/// The result columns (as `simulate` returns them) of finished games, in the given order.
#[pyfunction]
pub fn columns_of<'py>(py: Python<'py>, games: &Bound<'py, PyList>) -> PyResult<Bound<'py, PyDict>> {
    let mut c: Option<Columns> = None;
    for item in games.iter() {
        let g = item.cast::<PyGame>().map_err(|_| verr("columns_of takes a list of _core.Game".into()))?;
        let g = g.borrow();
        let Some(out) = g.st.outcome() else {
            return Err(verr(format!("game {} (seed {}) is not over", g.game, g.seed)));
        };
        let c = c.get_or_insert_with(|| Columns { n_seats: g.n, ..Default::default() });
        if c.n_seats != g.n {
            return Err(verr("columns_of: every game must have the same number of seats".into()));
        }
        let game = g.st.game();
        let mut r = GameResult::of_game(game, &out, g.game, g.gseed);
        r.invariant_error = game.trace.invariant_error.clone();
        r.plays = game.trace.plays.clone().unwrap_or_default();
        // the bots asked through `bot_action`/`advance` live here, not in the engine
        for (seat, _, b) in &g.bots {
            if let Some(Policy::Search(s)) = b.as_any().downcast_ref::<Policy>() {
                let p = &mut r.players[*seat];
                p.rollouts = p.rollouts.saturating_add(s.rollouts);
                p.unfinished_rollouts = p.unfinished_rollouts.saturating_add(s.unfinished_rollouts);
            }
        }
        c.push(&r)?;
    }
    let c = c.ok_or_else(|| verr("columns_of needs at least one game".into()))?;
    columns_to_py(py, c)
}
