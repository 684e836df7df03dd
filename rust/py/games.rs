//! Python entry points of the game-generic harness (issue 14): `game_table()` lists the games
//! on it, `generic_simulate(game, agents, games, seed, threads, params)` runs a seeded batch of
//! one of them and returns numpy columns. Bad input is a `ValueError` naming it.

use super::{check_counts, guarded, run_interruptible, verr};
use crate::games::osztrakon::Osztrakon;
use crate::games::schotten_totten2::SchottenTotten2;
use crate::harness::agents::agent_names;
use crate::harness::batch::{run_range, GenericColumns};
use crate::harness::{resolve, ParamKind, Rules, Value};
use numpy::IntoPyArray;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};

/// The API names of the games on the generic harness.
const GAMES: [&str; 2] = ["schotten_totten_2", "osztrakon"];

fn parse_values(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Value)>> {
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
    players.set_item("win", c.seat_win.into_pyarray(py))?;
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
) -> PyResult<Bound<'py, PyDict>>
where
    R::State: 'static,
{
    check_counts(games, threads)?;
    let values = resolve(&rules.registry(), &parse_values(params)?).map_err(verr)?;
    let seats = agents.len();
    let res = run_interruptible(py, "generic_simulate", |stop| {
        run_range(rules, &values, seats, &agents, first_game, games as u64, seed, threads.map(|t| t as usize), stop)
    })?;
    py.check_signals()?;
    match res {
        Ok(c) => columns_to_py(py, c),
        Err(e) if e.contains("panicked") => Err(PyRuntimeError::new_err(e)),
        Err(e) => Err(verr(e)),
    }
}

/// Run `games` games of `game` with one agent spec per seat (e.g. `["greedy", "search:iterations=200"]`).
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0))]
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
) -> PyResult<Bound<'py, PyDict>> {
    guarded("generic_simulate", || match game {
        "schotten_totten_2" => simulate_with(py, &SchottenTotten2, agents, games, seed, threads, params, first_game),
        "osztrakon" => simulate_with(py, &Osztrakon, agents, games, seed, threads, params, first_game),
        other => Err(verr(format!("unknown game '{other}' (known: ketharmad, {})", GAMES.join(", ")))),
    })
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
        e.set_item("name", p.name)?;
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
            ParamKind::Choice => e.set_item("default", p.choices[p.default as usize])?,
            ParamKind::Float => e.set_item("default", p.default)?,
        }
        e.set_item("min", p.min)?;
        e.set_item("max", p.max)?;
        e.set_item("choices", p.choices.to_vec())?;
        e.set_item("description", p.description)?;
        ps.append(e)?;
    }
    d.set_item("parameters", ps)?;
    Ok(d)
}

/// One dict per game on the generic harness: name, sides, seat range, agents, parameters.
#[pyfunction]
fn game_table<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    guarded("game_table", || {
        let out = PyList::empty(py);
        out.append(describe(py, &SchottenTotten2)?)?;
        out.append(describe(py, &Osztrakon)?)?;
        Ok(out)
    })
}

/// Register the functions of this file on the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generic_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(game_table, m)?)?;
    Ok(())
}
