//! Python entry points of the game-generic harness (issue 14): `game_table()` lists the games
//! on it, `generic_simulate(game, agents, games, seed, threads, params)` runs a seeded batch of
//! one of them and returns numpy columns. Bad input is a `ValueError` naming it.
//!
//! Kétharmad is on the table too (`games::ketharmad::KetharmadRules`): `generic_simulate`
//! plays it through the harness (the stepper adapter) with its card data, decks and start
//! player; `simulate` stays its fast batch.

use super::{cached_raw, check_counts, guarded, make_db, parse_params, run_interruptible, verr, BotChoice};
use crate::games::ketharmad::KetharmadRules;
use crate::games::osztrakon::Osztrakon;
use crate::games::schotten_totten2::SchottenTotten2;
use crate::harness::agents::{agent_names, make_agent, AgentSpec};
use crate::harness::batch::{run_range, GenericBatch, GenericColumns};
use crate::harness::reduce::{reduce_range, GenericStats};
use crate::harness::{resolve, Agent, GameState, ParamKind, Rules, Value};
use crate::rng::{game_seed, Rng, Stream};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};

/// The API names of the games on the generic harness with a step API here (`HarnessGame`).
const GAMES: [&str; 2] = ["schotten_totten_2", "osztrakon"];

/// Kétharmad's rules for the harness: the card set of `card_data` (None: the packaged file)
/// with `params` (Kétharmad's parameter overrides, through the card cache), dealing `decks`
/// (empty: a listing-only rules object).
pub(super) fn ketharmad_rules(card_data: Option<&str>, params: Option<&Bound<'_, PyDict>>, decks: &[String], start_player: Option<u8>) -> PyResult<KetharmadRules> {
    let text = card_data.unwrap_or(crate::DEFAULT_CARD_DATA);
    let db = make_db(text, params)?;
    let raw = cached_raw(text).map_err(verr)?;
    KetharmadRules::with_db(raw, db, parse_params(params)?, decks, start_player).map_err(verr)
}

pub(super) fn parse_values(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Value)>> {
    let mut out = Vec::new();
    if let Some(d) = params {
        for (k, v) in d.iter() {
            let name: String = k.extract().map_err(|_| verr("parameter names must be strings".into()))?;
            let val = if v.is_instance_of::<PyBool>() {
                Value::Bool(v.extract()?)
            } else if let Ok(i) = v.extract::<i64>() {
                Value::Int(i)
            } else if v.is_instance_of::<PyFloat>() {
                Value::Float(v.extract()?)
            } else if v.is_instance_of::<PyString>() {
                Value::Str(v.extract()?)
            } else {
                return Err(verr(format!("parameter '{name}': expected an int, a float, a bool or a string, got {}", v.get_type().name()?)));
            };
            out.push((name, val));
        }
    }
    Ok(out)
}

fn columns_to_py<'py>(py: Python<'py>, c: GenericColumns) -> PyResult<Bound<'py, PyDict>> {
    let games = PyDict::new(py);
    games.set_item("game", c.game.into_pyarray(py))?;
    games.set_item("seed", c.seed.into_pyarray(py))?;
    games.set_item("winner", c.winner.into_pyarray(py))?;
    games.set_item("winners_mask", c.winners_mask.into_pyarray(py))?;
    games.set_item("turns", c.turns.into_pyarray(py))?;
    games.set_item("end_reason", PyList::new(py, c.end_reason)?)?;
    games.set_item("unfinished", c.unfinished.into_pyarray(py))?;
    for (name, v) in c.game_extra {
        games.set_item(name, v.into_pyarray(py))?;
    }
    let players = PyDict::new(py);
    players.set_item("game", c.seat_game.into_pyarray(py))?;
    players.set_item("seat", c.seat.into_pyarray(py))?;
    players.set_item("won", c.seat_win.into_pyarray(py))?;
    players.set_item("return", c.seat_return.into_pyarray(py))?;
    for (name, v) in c.seat_extra {
        players.set_item(name, v.into_pyarray(py))?;
    }
    let out = PyDict::new(py);
    out.set_item("game_name", c.game_name)?;
    out.set_item("sides", c.sides)?;
    out.set_item("agents", c.agents)?;
    out.set_item("games", games)?;
    out.set_item("players", players)?;
    Ok(out)
}

// too_many_arguments: the keyword arguments of generic_simulate / generic_reduce, passed on
#[allow(clippy::too_many_arguments)]
fn simulate_with<'py, R: Rules>(
    py: Python<'py>,
    rules: &R,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    stats: bool,
) -> PyResult<Bound<'py, PyDict>>
where
    R::State: 'static,
{
    check_counts(games, threads)?;
    let values = resolve(&rules.registry(), &parse_values(params)?).map_err(verr)?;
    let seats = agents.len();
    let threads = threads.map(|t| t as usize);
    let (name, games) = (if stats { "generic_reduce" } else { "generic_simulate" }, games as u64);
    let batch = GenericBatch { values: &values, seats, agents: &agents, first: first_game, games, seed, threads };
    let res = run_interruptible(py, name, |stop| if stats { reduce_range(rules, &batch, stop).map(Batch::Stats) } else { run_range(rules, &batch, stop).map(Batch::Rows) })?;
    py.check_signals()?;
    match res? {
        Batch::Rows(c) => columns_to_py(py, c),
        Batch::Stats(st) => stats_to_py(py, st),
    }
}

// too_many_arguments: learn_positions' keyword arguments, passed on
#[allow(clippy::too_many_arguments)]
fn positions_with<'py, R: Rules>(
    py: Python<'py>,
    rules: &R,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    rate: f64,
) -> PyResult<Bound<'py, PyDict>>
where
    R::State: 'static,
{
    check_counts(games, threads)?;
    let values = resolve(&rules.registry(), &parse_values(params)?).map_err(verr)?;
    let threads = threads.map(|t| t as usize);
    let batch = GenericBatch { values: &values, seats: agents.len(), agents: &agents, first: first_game, games: games as u64, seed, threads };
    let res = run_interruptible(py, "learn_positions", |stop| crate::learn::positions::record(rules, &batch, rate, stop))?;
    py.check_signals()?;
    let p = res.map_err(|e| verr(e.to_string()))?;
    let (layout, names) = rules.features();
    let out = PyDict::new(py);
    out.set_item("width", p.width)?;
    out.set_item("layout", layout)?;
    out.set_item("names", names.to_vec())?;
    out.set_item("layout_hash", format!("{:016x}", crate::learn::mlp::layout_hash(names)))?;
    out.set_item("game", p.game.into_pyarray(py))?;
    out.set_item("seat", p.seat.into_pyarray(py))?;
    out.set_item("clock", p.clock.into_pyarray(py))?;
    out.set_item("to_move", p.to_move.into_pyarray(py))?;
    out.set_item("x", p.x.into_pyarray(py))?;
    out.set_item("y", p.y.into_pyarray(py))?;
    Ok(out)
}

/// Self-play positions for a value model (`learn::positions::record`): the games of a
/// `generic_simulate` batch with every seat's features at a `rate` sample of the key
/// decisions, labelled with each seat's result. Returns numpy columns and the layout.
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0, card_data=None, decks=None, start_player=None, rate=1.0))]
#[allow(clippy::too_many_arguments)]
fn learn_positions<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    card_data: Option<&str>,
    decks: Option<Vec<String>>,
    start_player: Option<u8>,
    rate: f64,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("learn_positions", || match game {
        "ketharmad" => {
            let decks = decks.ok_or_else(|| verr("ketharmad: give decks, one per seat".into()))?;
            if decks.len() != agents.len() {
                return Err(verr(format!("ketharmad: got {} bot specs for {} decks", agents.len(), decks.len())));
            }
            let rules = ketharmad_rules(card_data, params, &decks, start_player)?;
            positions_with(py, &rules, agents, games, seed, threads, None, first_game, rate)
        }
        "schotten_totten_2" => positions_with(py, &SchottenTotten2, agents, games, seed, threads, params, first_game, rate),
        "osztrakon" => positions_with(py, &Osztrakon, agents, games, seed, threads, params, first_game, rate),
        other => Err(verr(format!("unknown game '{other}' (known: ketharmad, {})", GAMES.join(", ")))),
    })
}

// too_many_arguments: learn_choices' keyword arguments, passed on
#[allow(clippy::too_many_arguments)]
fn choices_with<'py, R: Rules>(
    py: Python<'py>,
    rules: &R,
    agents: Vec<String>,
    teachers: Option<Vec<String>>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    rate: f64,
) -> PyResult<Bound<'py, PyDict>>
where
    R::State: 'static,
{
    check_counts(games, threads)?;
    let values = resolve(&rules.registry(), &parse_values(params)?).map_err(verr)?;
    let threads = threads.map(|t| t as usize);
    let batch = GenericBatch { values: &values, seats: agents.len(), agents: &agents, first: first_game, games: games as u64, seed, threads };
    let res = run_interruptible(py, "learn_choices", |stop| crate::learn::choices::record(rules, &batch, teachers.as_deref(), rate, stop))?;
    py.check_signals()?;
    let c = res.map_err(|e| verr(e.to_string()))?;
    let (layout, names) = rules.features();
    let (opt_layout, opt_names) = rules.option_features();
    let out = PyDict::new(py);
    out.set_item("width", c.width)?;
    out.set_item("opt_width", c.opt_width)?;
    out.set_item("layout", layout)?;
    out.set_item("opt_layout", opt_layout)?;
    let all: Vec<&str> = names.iter().chain(opt_names.iter()).copied().collect();
    out.set_item("names", all.clone())?;
    out.set_item("layout_hash", format!("{:016x}", crate::learn::mlp::layout_hash(&all)))?;
    out.set_item("game", c.game.into_pyarray(py))?;
    out.set_item("seat", c.seat.into_pyarray(py))?;
    out.set_item("clock", c.clock.into_pyarray(py))?;
    out.set_item("x", c.x.into_pyarray(py))?;
    out.set_item("offsets", c.offsets.into_pyarray(py))?;
    out.set_item("opt_x", c.opt_x.into_pyarray(py))?;
    out.set_item("choice", c.choice.into_pyarray(py))?;
    out.set_item("y", c.y.into_pyarray(py))?;
    Ok(out)
}

/// Labelled decisions for a policy (`learn::choices::record`): the games of a
/// `generic_simulate` batch with, at a `rate` sample of the key decisions with two or more
/// options, the mover's position features, every option's features and the choice of
/// `teachers` (one agent spec per seat; None: the playing agents'). Numpy columns.
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0, card_data=None, decks=None, start_player=None, teachers=None, rate=1.0))]
#[allow(clippy::too_many_arguments)]
fn learn_choices<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    card_data: Option<&str>,
    decks: Option<Vec<String>>,
    start_player: Option<u8>,
    teachers: Option<Vec<String>>,
    rate: f64,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("learn_choices", || match game {
        "ketharmad" => {
            let decks = decks.ok_or_else(|| verr("ketharmad: give decks, one per seat".into()))?;
            if decks.len() != agents.len() {
                return Err(verr(format!("ketharmad: got {} bot specs for {} decks", agents.len(), decks.len())));
            }
            let rules = ketharmad_rules(card_data, params, &decks, start_player)?;
            choices_with(py, &rules, agents, teachers, games, seed, threads, None, first_game, rate)
        }
        "schotten_totten_2" => choices_with(py, &SchottenTotten2, agents, teachers, games, seed, threads, params, first_game, rate),
        "osztrakon" => choices_with(py, &Osztrakon, agents, teachers, games, seed, threads, params, first_game, rate),
        other => Err(verr(format!("unknown game '{other}' (known: ketharmad, {})", GAMES.join(", ")))),
    })
}

/// A model file's header, checked (`learn::Mlp::load`): a dict of game, kind, features,
/// layout, card_hash, dims; a missing, truncated or foreign file is a ValueError naming it.
#[pyfunction]
fn model_info<'py>(py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyDict>> {
    guarded("model_info", || model_info_impl(py, path))
}

fn model_info_impl<'py>(py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyDict>> {
    let m = crate::learn::Mlp::load(path).map_err(verr)?;
    let d = PyDict::new(py);
    d.set_item("game", &m.game)?;
    d.set_item("kind", &m.kind)?;
    d.set_item("features", &m.features)?;
    d.set_item("layout", format!("{:016x}", m.layout))?;
    d.set_item("card_hash", format!("{:016x}", m.card_hash))?;
    d.set_item("dims", m.dims.clone())?;
    Ok(d)
}

/// The model at `path`'s predicted win chance (σ of its output) for each row of `x` (rows ×
/// its inputs, flattened row-major): Rust's inference, for checking a model from Python.
#[pyfunction]
fn model_predict<'py>(py: Python<'py>, path: &str, x: Vec<f32>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    guarded("model_predict", || model_predict_impl(py, path, x))
}

fn model_predict_impl<'py>(py: Python<'py>, path: &str, x: Vec<f32>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let m = crate::learn::Mlp::load(path).map_err(verr)?;
    let w = m.dims[0];
    if !x.len().is_multiple_of(w) {
        return Err(verr(format!("model file '{path}' takes rows of {w} features; got {} numbers", x.len())));
    }
    let out: Vec<f64> = x.chunks_exact(w).map(|r| (m.value(r) + 1.0) / 2.0).collect();
    Ok(out.into_pyarray(py))
}

/// What a batch returns: its rows or its reduction.
enum Batch {
    Rows(GenericColumns),
    Stats(GenericStats),
}

fn stats_to_py<'py>(py: Python<'py>, st: GenericStats) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("game_name", st.game_name)?;
    out.set_item("sides", st.sides)?;
    out.set_item("agents", st.agents)?;
    out.set_item("games", st.games)?;
    out.set_item("wins", st.wins)?;
    out.set_item("no_winner", st.no_winner)?;
    out.set_item("shared", st.shared)?;
    out.set_item("unfinished", st.unfinished)?;
    let turns = PyDict::new(py);
    for (t, n) in st.turns {
        turns.set_item(t, n)?;
    }
    out.set_item("turns", turns)?;
    let reasons = PyDict::new(py);
    for (r, n) in st.end_reasons {
        reasons.set_item(r, n)?;
    }
    out.set_item("end_reasons", reasons)?;
    let sums = PyDict::new(py);
    for (c, v) in st.game_sums {
        sums.set_item(c, v)?;
    }
    out.set_item("game_sums", sums)?;
    let seat_sums = PyDict::new(py);
    for (c, v) in st.seat_sums {
        seat_sums.set_item(c, v)?;
    }
    out.set_item("seat_sums", seat_sums)?;
    out.set_item("return_sums", st.return_sums)?;
    Ok(out)
}

/// Run `games` games of `game` with one agent spec per seat (e.g. `["greedy", "search:iterations=200"]`).
/// Kétharmad (`game="ketharmad"`) also takes `card_data` (the card file's text; None: the
/// packaged one), `decks` (one per seat) and `start_player`; its `params` are its card-data
/// overrides.
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0, card_data=None, decks=None, start_player=None))]
// too_many_arguments: the parameters mirror the Python keyword API of this entry point
#[allow(clippy::too_many_arguments)]
fn generic_simulate<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    card_data: Option<&str>,
    decks: Option<Vec<String>>,
    start_player: Option<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("generic_simulate", || generic_batch(py, game, agents, games, seed, threads, params, first_game, card_data, decks, start_player, false))
}

/// The reduction of the batch `generic_simulate` plays with the same arguments (the same
/// games): games, wins per seat, no_winner, shared, unfinished, turns (turns -> games),
/// end_reasons (reason -> games), game_sums / seat_sums (sums of the extra columns) and
/// return_sums; no rows, so memory does not grow with the games (`harness::reduce`).
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0, card_data=None, decks=None, start_player=None))]
// too_many_arguments: the parameters mirror the Python keyword API of this entry point
#[allow(clippy::too_many_arguments)]
fn generic_reduce<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    card_data: Option<&str>,
    decks: Option<Vec<String>>,
    start_player: Option<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("generic_reduce", || generic_batch(py, game, agents, games, seed, threads, params, first_game, card_data, decks, start_player, true))
}

// too_many_arguments: the keyword arguments of generic_simulate / generic_reduce, passed on
#[allow(clippy::too_many_arguments)]
fn generic_batch<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    first_game: u64,
    card_data: Option<&str>,
    decks: Option<Vec<String>>,
    start_player: Option<u8>,
    stats: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if game != "ketharmad" {
        let given: Vec<&str> =
            [("card_data", card_data.is_some()), ("decks", decks.is_some()), ("start_player", start_player.is_some())].iter().filter(|x| x.1).map(|x| x.0).collect();
        if !given.is_empty() {
            return Err(verr(format!("{}: Kétharmad only, not for game '{game}'", given.join(", "))));
        }
    }
    match game {
        "ketharmad" => {
            let decks = decks.ok_or_else(|| verr("ketharmad: give decks, one per seat".into()))?;
            if decks.len() != agents.len() {
                return Err(verr(format!("ketharmad: got {} bot specs for {} decks", agents.len(), decks.len())));
            }
            check_counts(games, threads)?;
            let rules = ketharmad_rules(card_data, params, &decks, start_player)?;
            // the parameters are compiled into the rules' card set: its defaults
            simulate_with(py, &rules, agents, games, seed, threads, None, first_game, stats)
        }
        "schotten_totten_2" => simulate_with(py, &SchottenTotten2, agents, games, seed, threads, params, first_game, stats),
        "osztrakon" => simulate_with(py, &Osztrakon, agents, games, seed, threads, params, first_game, stats),
        other => Err(verr(format!("unknown game '{other}' (known: ketharmad, {})", GAMES.join(", ")))),
    }
}

fn describe<'py, R: Rules>(py: Python<'py>, rules: &R) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", rules.name())?;
    d.set_item("sides", rules.sides())?;
    let (lo, hi) = rules.seat_range();
    d.set_item("min_seats", lo)?;
    d.set_item("max_seats", hi)?;
    d.set_item("agents", agent_names(rules))?;
    d.set_item("action_space", rules.action_space(lo))?;
    d.set_item("observation_len", rules.observation_len(lo))?;
    let ps = PyList::empty(py);
    for p in rules.registry() {
        let e = PyDict::new(py);
        e.set_item("name", p.name.as_ref())?;
        let kind = match p.kind {
            ParamKind::Int => "int",
            ParamKind::Float => "float",
            ParamKind::Bool => "bool",
            ParamKind::Choice => "choice",
        };
        e.set_item("kind", kind)?;
        match p.kind {
            ParamKind::Int => e.set_item("default", p.default as i64)?,
            ParamKind::Bool => e.set_item("default", p.default != 0.0)?,
            ParamKind::Choice => e.set_item("default", p.choices[p.default as usize].as_ref())?,
            ParamKind::Float => e.set_item("default", p.default)?,
        }
        e.set_item("min", p.min)?;
        e.set_item("max", p.max)?;
        e.set_item("choices", p.choices.iter().map(|c| c.as_ref()).collect::<Vec<&str>>())?;
        e.set_item("description", p.description.as_ref())?;
        ps.append(e)?;
    }
    d.set_item("parameters", ps)?;
    // the search bot's options: its own, then the game's evaluation weights
    let ks = PyList::empty(py);
    for k in crate::harness::search::SEARCH_KNOBS.iter().chain(rules.eval_knobs()) {
        let default = rules.search_defaults().iter().find(|d| d.0 == k.name).map_or(k.default, |d| d.1);
        ks.append((k.name, default, k.min, k.max, k.description))?;
    }
    d.set_item("search_knobs", ks)?;
    d.set_item("search_rollout", rules.search_rollout())?;
    Ok(d)
}

/// One dict per game on the generic harness: name, sides, seat range, agents, parameters.
/// Kétharmad's entry lists the parameters of `card_data` (None: the packaged card file) with
/// `params` applied (numbers, switches and choices; the cost parameters are listed by
/// `ketharmad.parameters()`), its factions as sides and the seat range of its format.
#[pyfunction]
#[pyo3(signature = (card_data=None, params=None))]
fn game_table<'py>(py: Python<'py>, card_data: Option<&str>, params: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyList>> {
    guarded("game_table", || {
        let out = PyList::empty(py);
        out.append(describe(py, &ketharmad_rules(card_data, params, &[], None)?)?)?;
        out.append(describe(py, &SchottenTotten2)?)?;
        out.append(describe(py, &Osztrakon)?)?;
        Ok(out)
    })
}

// ---------------------------------------------------------------------------------------------
// The step API of the harness games: `_core.HarnessGame` (python: `ketharmad.game_state`).

/// One harness game in progress with the bots asked so far; generic over the game type.
struct Inner<R: Rules> {
    rules: R,
    values: Vec<f64>,
    st: R::State,
    seats: usize,
    seed: u64,
    game: u64,
    /// The game's seed (`game_seed(seed, game)`): the bots' streams derive from it.
    gseed: u64,
    /// Bots asked so far: (seat, spec as given, its stream). The agents themselves keep no
    /// state between decisions (their randomness is all in the stream), so a copy rebuilds
    /// them from the spec and copies the stream.
    bots: Vec<(usize, String, Rng)>,
    agents: Vec<Box<dyn Agent<R::State>>>,
    legal: Vec<u32>,
}

impl<R: Rules + Copy> Inner<R>
where
    R::State: 'static,
{
    fn new(rules: R, seats: usize, seed: u64, game: u64, overrides: &[(String, Value)]) -> Result<Self, String> {
        let (lo, hi) = rules.seat_range();
        if seats < lo || seats > hi {
            return Err(format!("{} takes {lo} to {hi} seats, got {seats}", rules.name()));
        }
        let values = resolve(&rules.registry(), overrides)?;
        let st = rules.new_game(&values, seats, seed, game)?;
        Ok(Inner { rules, values, st, seats, seed, game, gseed: game_seed(seed, game), bots: Vec::new(), agents: Vec::new(), legal: Vec::new() })
    }

    fn copy_with(&self, st: R::State) -> Result<Self, String> {
        let mut agents = Vec::with_capacity(self.bots.len());
        for (seat, spec, _) in &self.bots {
            agents.push(make_agent(&self.rules, &AgentSpec::parse(spec)?, &self.values, self.seats, *seat)?);
        }
        Ok(Inner {
            rules: self.rules,
            values: self.values.clone(),
            st,
            seats: self.seats,
            seed: self.seed,
            game: self.game,
            gseed: self.gseed,
            bots: self.bots.clone(),
            agents,
            legal: Vec::new(),
        })
    }

    fn legal(&self) -> Vec<u32> {
        let mut v = Vec::new();
        self.st.legal_actions(&mut v);
        v
    }

    fn check_seat(&self, seat: usize) -> Result<(), String> {
        if seat >= self.seats {
            return Err(format!("seat {seat} does not exist: the game has seats 0..{}", self.seats - 1));
        }
        Ok(())
    }

    fn step(&mut self, id: u32) -> Result<(), String> {
        let Some(seat) = self.st.to_move() else {
            return Err(format!("action {id}: the game is over"));
        };
        let legal = self.legal();
        if !legal.contains(&id) {
            let l: Vec<String> = legal.iter().map(|&a| format!("{a} ({})", self.st.describe_action(a))).collect();
            return Err(format!("action {id} is not legal; legal actions for seat {seat}: {}", l.join(", ")));
        }
        self.st.apply(id)
    }

    fn describe(&self, id: u32) -> Result<String, String> {
        let space = self.rules.action_space(self.seats);
        if id as usize >= space {
            return Err(format!("action {id} is outside the action space 0..{}", space - 1));
        }
        Ok(self.st.describe_action(id))
    }

    fn observe(&self, seat: usize) -> Result<Vec<f32>, String> {
        self.check_seat(seat)?;
        let mut v = vec![0f32; self.rules.observation_len(self.seats)];
        self.st.observe(seat, &mut v);
        Ok(v)
    }

    fn determinized(&self, seat: usize, seed: u64) -> Result<Self, String> {
        self.check_seat(seat)?;
        let mut st = self.st.clone();
        st.determinize(seat, &mut Rng::new(seed));
        self.copy_with(st)
    }

    /// The action the agent `spec` picks for the seat to move, with the stream a batch gives
    /// that seat (`Stream::Policy0 + seat` of the game's seed); the stream advances.
    fn bot_action(&mut self, spec: &str) -> Result<u32, String> {
        let Some(seat) = self.st.to_move() else {
            return Err("the game is over: no decision to answer".into());
        };
        let i = match self.bots.iter().position(|b| b.0 == seat && b.1 == spec) {
            Some(i) => i,
            None => {
                let a = make_agent(&self.rules, &AgentSpec::parse(spec)?, &self.values, self.seats, seat)?;
                self.bots.push((seat, spec.to_string(), Rng::stream(self.gseed, Stream::Policy0 as u64 + seat as u64)));
                self.agents.push(a);
                self.bots.len() - 1
            }
        };
        self.st.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return Err("no legal action".into());
        }
        Ok(self.agents[i].act(&self.st, &self.legal, &mut self.bots[i].2))
    }

    /// `bot_action` with the search's root statistics (`Agent::root_stats`; None when the
    /// agent did not search this decision).
    fn bot_choice(&mut self, spec: &str) -> Result<BotChoice, String> {
        if let Some(seat) = self.st.to_move() {
            if let Some(i) = self.bots.iter().position(|b| b.0 == seat && b.1 == spec) {
                self.agents[i].forget_root();
            }
        }
        let a = self.bot_action(spec)?;
        let seat = self.st.to_move().unwrap_or(0);
        let stats: Vec<(u32, u32, f64)> = match self.bots.iter().position(|b| b.0 == seat && b.1 == spec) {
            Some(i) => self.agents[i].root_stats().into_iter().map(|r| (r.action, r.visits, r.mean)).collect(),
            None => Vec::new(),
        };
        Ok((a, (!stats.is_empty()).then_some(stats)))
    }
}

fn zone_to_py<'py>(py: Python<'py>, z: crate::harness::Zone, seats: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seen_by", (0..seats).filter(|&s| z.seen(s)).collect::<Vec<usize>>())?;
    d.set_item("name", z.name)?;
    d.set_item("owner", z.owner)?;
    d.set_item("items", z.items)?;
    Ok(d)
}

fn view_to_py<'py>(py: Python<'py>, v: crate::harness::TableView, seats: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("scores", v.scores.into_iter().map(|s| (s.seat, s.name, s.value)).collect::<Vec<_>>())?;
    let zones = PyList::empty(py);
    for z in v.zones {
        zones.append(zone_to_py(py, z, seats)?)?;
    }
    d.set_item("zones", zones)?;
    d.set_item("facts", v.facts)?;
    Ok(d)
}

enum AnyGame {
    // boxed: the games' states differ in size (about 0.5 and 1.6 kB)
    St2(Box<Inner<SchottenTotten2>>),
    Osz(Box<Inner<Osztrakon>>),
}

/// Run `$body` with `$g` bound to the `Inner` of whichever game `$e` is.
macro_rules! on {
    ($e:expr, $g:ident => $body:expr) => {
        match $e {
            AnyGame::St2($g) => $body,
            AnyGame::Osz($g) => $body,
        }
    };
}

/// One game of Schotten Totten 2 or Osztrakon stopped at a decision (or over): the step API
/// of the harness games. `ketharmad.game_state(...)` makes one.
#[pyclass(unsendable, module = "ketharmad._core", name = "HarnessGame")]
pub struct HarnessGame {
    g: AnyGame,
}

fn wrap(g: Result<AnyGame, String>) -> PyResult<HarnessGame> {
    g.map(|g| HarnessGame { g }).map_err(verr)
}

#[pymethods]
impl HarnessGame {
    /// Game `game_index` of a batch of `game` with `seats` seats and batch seed `seed`
    /// (the same deal as that row of `generic_simulate`).
    #[new]
    #[pyo3(signature = (game, seats, seed=0, game_index=0, params=None))]
    fn new(game: &str, seats: usize, seed: u64, game_index: u64, params: Option<&Bound<'_, PyDict>>) -> PyResult<HarnessGame> {
        let ov = parse_values(params)?;
        guarded("HarnessGame", || {
            wrap(match game {
                "schotten_totten_2" => Inner::new(SchottenTotten2, seats, seed, game_index, &ov).map(|g| AnyGame::St2(Box::new(g))),
                "osztrakon" => Inner::new(Osztrakon, seats, seed, game_index, &ov).map(|g| AnyGame::Osz(Box::new(g))),
                other => Err(format!("unknown game '{other}' (known: {})", GAMES.join(", "))),
            })
        })
    }

    #[getter]
    fn game_name(&self) -> &'static str {
        on!(&self.g, g => g.rules.name())
    }
    #[getter]
    fn num_players(&self) -> usize {
        on!(&self.g, g => g.seats)
    }
    #[getter]
    fn num_actions(&self) -> usize {
        on!(&self.g, g => g.rules.action_space(g.seats))
    }
    #[getter]
    fn observation_size(&self) -> usize {
        on!(&self.g, g => g.rules.observation_len(g.seats))
    }
    #[getter]
    fn sides(&self) -> Vec<&'static str> {
        on!(&self.g, g => g.rules.sides())
    }
    #[getter]
    fn seed(&self) -> u64 {
        on!(&self.g, g => g.seed)
    }
    #[getter]
    fn game_index(&self) -> u64 {
        on!(&self.g, g => g.game)
    }
    #[getter]
    fn params(&self) -> Vec<(String, f64)> {
        on!(&self.g, g => g.rules.registry().into_iter().map(|p| p.name.into_owned()).zip(g.values.iter().copied()).collect())
    }
    /// The seat that must act, or None when the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        on!(&self.g, g => g.st.to_move())
    }
    #[getter]
    fn is_over(&self) -> bool {
        on!(&self.g, g => g.st.to_move().is_none())
    }
    /// The single winning seat once over (None: not over, a draw, or several winners).
    #[getter]
    fn winner(&self) -> Option<u8> {
        on!(&self.g, g => if g.st.to_move().is_some() { None } else {
            let o = g.st.outcome();
            if o.winners.len() == 1 { Some(o.winners[0]) } else { None }
        })
    }
    /// Every winning seat once over (empty while running or on a draw).
    #[getter]
    fn winners(&self) -> Vec<u8> {
        on!(&self.g, g => if g.st.to_move().is_some() { Vec::new() } else { g.st.outcome().winners })
    }
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        on!(&self.g, g => if g.st.to_move().is_some() { None } else { Some(g.st.outcome().end_reason) })
    }
    /// Turns so far in the game's own unit (the batch's `turns` column once over).
    #[getter]
    fn turns(&self) -> u32 {
        on!(&self.g, g => g.st.outcome().turns)
    }
    /// The game's returns per seat once over (the batch's `return` column), zeros before.
    fn returns(&self) -> Vec<f64> {
        on!(&self.g, g => if g.st.to_move().is_some() { vec![0.0; g.seats] } else {
            let mut r = g.st.outcome().returns;
            r.resize(g.seats, 0.0);
            r
        })
    }
    fn legal_action_ids(&self) -> Vec<u32> {
        on!(&self.g, g => g.legal())
    }
    /// (id, label) of every legal action.
    fn legal_actions(&self) -> Vec<(u32, String)> {
        on!(&self.g, g => g.legal().into_iter().map(|a| (a, g.st.describe_action(a))).collect())
    }
    /// A bool per action id: legal now.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; self.num_actions()];
        for a in self.legal_action_ids() {
            m[a as usize] = true;
        }
        m.into_pyarray(py)
    }
    fn describe_action(&self, id: u32) -> PyResult<String> {
        on!(&self.g, g => g.describe(id)).map_err(verr)
    }
    /// Play `id` for the seat to move; an illegal id is a ValueError naming the legal ones.
    fn step(&mut self, id: i64) -> PyResult<()> {
        let id = u32::try_from(id).map_err(|_| verr(format!("action {id} is not an action id (0..{})", self.num_actions())))?;
        guarded("HarnessGame.step", || on!(&mut self.g, g => g.step(id)).map_err(verr))
    }
    /// What `seat` sees, as a float32 vector of `observation_size`.
    fn observation_tensor<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(on!(&self.g, g => g.observe(seat)).map_err(verr)?.into_pyarray(py))
    }
    /// An independent copy (bots asked so far keep their streams' positions).
    fn clone(&self) -> PyResult<HarnessGame> {
        guarded("HarnessGame.clone", || {
            wrap(match &self.g {
                AnyGame::St2(g) => g.copy_with(g.st.clone()).map(|g| AnyGame::St2(Box::new(g))),
                AnyGame::Osz(g) => g.copy_with(g.st.clone()).map(|g| AnyGame::Osz(Box::new(g))),
            })
        })
    }
    /// A copy in which everything `seat` cannot see is re-dealt from `seed`.
    fn determinize(&self, seat: usize, seed: u64) -> PyResult<HarnessGame> {
        guarded("HarnessGame.determinize", || {
            wrap(match &self.g {
                AnyGame::St2(g) => g.determinized(seat, seed).map(|g| AnyGame::St2(Box::new(g))),
                AnyGame::Osz(g) => g.determinized(seat, seed).map(|g| AnyGame::Osz(Box::new(g))),
            })
        })
    }
    /// The id the agent `spec` ("greedy", "search:iterations=200", ...) picks for the seat to
    /// move, drawing from the stream a batch gives that seat in this game (it advances): always
    /// stepping `bot_action(bots[current_player])` plays the batch row of the same seed and index.
    fn bot_action(&mut self, spec: &str) -> PyResult<u32> {
        guarded("HarnessGame.bot_action", || on!(&mut self.g, g => g.bot_action(spec)).map_err(verr))
    }
    /// `bot_action` with the search's root statistics (for viewers): the id and, when the
    /// agent searched this decision, one (id, visits, mean reward -1..=1) per root option,
    /// most visited first; None otherwise. The same choice and stream as `bot_action`.
    fn bot_choice(&mut self, spec: &str) -> PyResult<BotChoice> {
        guarded("HarnessGame.bot_choice", || on!(&mut self.g, g => g.bot_choice(spec)).map_err(verr))
    }
    /// A readable picture of the whole game for viewers (`GameState::view`): ``scores``
    /// (seat, name, value), ``zones`` (name, owner seat or None, ``seen_by`` the seats that
    /// see its items, items as labels) and ``facts`` (name, value). It shows everything,
    /// hidden cards too: a viewer keeps to the zones a seat sees.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (v, seats) = on!(&self.g, g => (g.st.view(), g.seats));
        view_to_py(py, v, seats)
    }
    fn __repr__(&self) -> String {
        on!(&self.g, g => format!(
            "HarnessGame({}, seats={}, seed={}, game_index={}, current_player={}, turns={})",
            g.rules.name(), g.seats, g.seed, g.game,
            g.st.to_move().map_or("None".to_string(), |s| s.to_string()), g.st.outcome().turns
        ))
    }
}

/// Register the functions of this file on the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generic_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(generic_reduce, m)?)?;
    m.add_function(wrap_pyfunction!(game_table, m)?)?;
    m.add_function(wrap_pyfunction!(learn_positions, m)?)?;
    m.add_function(wrap_pyfunction!(model_info, m)?)?;
    m.add_function(wrap_pyfunction!(learn_choices, m)?)?;
    m.add_function(wrap_pyfunction!(model_predict, m)?)?;
    m.add_class::<HarnessGame>()?;
    Ok(())
}
