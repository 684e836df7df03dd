//! Python entry point of the trajectory recorder (`harness::trajectory`, issue 27's health
//! report): `trajectories(game, agents, games, seed, ...)` takes `generic_simulate`'s
//! arguments, plays the same games with the GIL released and returns numpy columns; it also
//! plays `coin_flip`, the pure-luck control (`harness::luck`), which is on no games table.

use super::games::{ketharmad_rules, parse_values};
use super::{check_counts, guarded, run_interruptible, verr};
use crate::games::osztrakon::Osztrakon;
use crate::games::schotten_totten2::SchottenTotten2;
use crate::harness::batch::GenericBatch;
use crate::harness::luck::CoinFlipRules;
use crate::harness::trajectory::{record_range, Trajectories};
use crate::harness::{resolve, Rules};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn to_py(py: Python<'_>, t: Trajectories) -> PyResult<Bound<'_, PyDict>> {
    let games = PyDict::new(py);
    games.set_item("game", t.game.into_pyarray(py))?;
    games.set_item("winners_mask", t.winners_mask.into_pyarray(py))?;
    games.set_item("turns", t.turns.into_pyarray(py))?;
    games.set_item("unfinished", t.unfinished.into_pyarray(py))?;
    games.set_item("start", t.start.into_pyarray(py))?;
    games.set_item("samples", t.samples.into_pyarray(py))?;
    let samples = PyDict::new(py);
    samples.set_item("row", t.sample_game.into_pyarray(py))?;
    samples.set_item("clock", t.sample_clock.into_pyarray(py))?;
    let out = PyDict::new(py);
    out.set_item("seats", t.seats)?;
    out.set_item("source", t.source.map_or("none", |s| s.name()))?;
    out.set_item("value", t.value.into_pyarray(py))?;
    out.set_item("games", games)?;
    out.set_item("samples", samples)?;
    Ok(out)
}

// too_many_arguments: the keyword arguments of `trajectories`, passed on
#[allow(clippy::too_many_arguments)]
fn record_with<'py, R: Rules>(
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
    let threads = threads.map(|t| t as usize);
    let batch = GenericBatch { values: &values, seats: agents.len(), agents: &agents, first: first_game, games: games as u64, seed, threads };
    let res = run_interruptible(py, "trajectories", |stop| record_range(rules, &batch, stop))?;
    py.check_signals()?;
    to_py(py, res?)
}

/// The trajectories of the games `generic_simulate` plays with the same arguments: per game
/// (`games`: game, winners_mask, turns, unfinished, start, samples) and per sample
/// (`samples`: row, clock; `value`: `seats` numbers per sample), sampled each time the
/// game's clock moves on; `source` says what the values are (`harness::trajectory`).
#[pyfunction]
#[pyo3(signature = (game, agents, games, seed, threads=None, params=None, first_game=0, card_data=None, decks=None, start_player=None))]
// too_many_arguments: the parameters mirror generic_simulate's
#[allow(clippy::too_many_arguments)]
fn trajectories<'py>(
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
    guarded("trajectories", || {
        if game != "ketharmad" && (card_data.is_some() || decks.is_some() || start_player.is_some()) {
            return Err(verr(format!("card_data, decks, start_player: Kétharmad only, not for game '{game}'")));
        }
        match game {
            "ketharmad" => {
                let decks = decks.ok_or_else(|| verr("ketharmad: give decks, one per seat".into()))?;
                if decks.len() != agents.len() {
                    return Err(verr(format!("ketharmad: got {} bot specs for {} decks", agents.len(), decks.len())));
                }
                check_counts(games, threads)?;
                let rules = ketharmad_rules(card_data, params, &decks, start_player)?;
                record_with(py, &rules, agents, games, seed, threads, None, first_game)
            }
            "schotten_totten_2" => record_with(py, &SchottenTotten2, agents, games, seed, threads, params, first_game),
            "osztrakon" => record_with(py, &Osztrakon, agents, games, seed, threads, params, first_game),
            "coin_flip" => record_with(py, &CoinFlipRules, agents, games, seed, threads, params, first_game),
            other => Err(verr(format!("unknown game '{other}' (known: ketharmad, schotten_totten_2, osztrakon, coin_flip)"))),
        }
    })
}

/// Register the functions of this file on the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trajectories, m)?)?;
    Ok(())
}
