//! The thin binding layer: the only module that touches PyO3. Plain data in (str, int, bool,
//! list, dict), numpy columns out; engine errors become `ValueError`, a panic inside a game
//! becomes `RuntimeError` naming the game and seed.
//!
//! Process safety: games run on a worker thread while the calling thread waits in short
//! slices with the GIL released and checks for signals between them; on Ctrl-C it sets the
//! call's stop token, waits for the workers to stop (between games) and raises
//! `KeyboardInterrupt`. No panic crosses into Python: every entry point turns one into
//! `RuntimeError`.

use crate::batch::{
    play_one_stoppable, reduce_batch_stoppable, run_batch_stoppable, run_cells_stoppable, schema, BatchSpec, Columns, FrameAs, RawColumn, Stats, GAME_ROW_BYTES, PLAY_ROW_BYTES,
    SEAT_ROW_BYTES, TURN_BINS,
};
use crate::bots::{search, BotSpec, BOT_KINDS};
use crate::cards::{build_db, load_raw, params::registry, CardDb, ParamValue, RawDb, FACTIONS};
use crate::engine::EndReason;
use crate::harness::{available_threads, panic_message, pools_built, BatchError, Stop, MAX_THREADS};
use numpy::IntoPyArray;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod games;
mod health;
mod step;

/// A bot's answer for viewers: the action id and the root statistics of its search, one
/// (id, visits, mean reward) per option it tried (None: it did not search the decision).
type BotChoice = (u32, Option<Vec<(u32, u32, f64)>>);

fn verr(e: String) -> PyErr {
    PyValueError::new_err(e)
}

/// The one conversion of a batch's error into a Python exception, by its variant (never by
/// its text), for the Kétharmad and the generic batches alike: bad input and results too
/// large for memory are `ValueError` naming them; a game that panicked is `RuntimeError("game
/// <i> (seed <s>) panicked: ...")`; a batch stopped without a signal (the binding stops one
/// only on a signal, and raises that signal's exception instead) is `RuntimeError`.
impl From<BatchError> for PyErr {
    fn from(e: BatchError) -> PyErr {
        match e {
            BatchError::Invalid(m) | BatchError::Memory(m) => PyValueError::new_err(m),
            BatchError::Panicked { .. } => PyRuntimeError::new_err(e.to_string()),
            BatchError::Stopped => PyRuntimeError::new_err("the batch was stopped without a signal"),
        }
    }
}

/// Run the body of an entry point; a panic becomes `RuntimeError` (never a PanicException).
fn guarded<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => Err(PyRuntimeError::new_err(format!("internal error in {what}: {}", panic_message(&*e)))),
    }
}

/// How long the calling thread waits (GIL released) between two signal checks.
const SIGNAL_SLICE: Duration = Duration::from_millis(50);

/// Run `work` on a worker thread with a fresh stop token while this thread waits with the GIL
/// released, checking for signals every `SIGNAL_SLICE`. When a signal handler raises (Ctrl-C:
/// `KeyboardInterrupt`), the token is set, the worker is joined (it stops between games) and
/// the exception is returned. A panic in the worker becomes `RuntimeError`.
fn run_interruptible<T: Send>(py: Python<'_>, what: &str, work: impl FnOnce(&Stop) -> T + Send) -> PyResult<T> {
    let stop = Stop::new();
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<()>(1);
        let token = stop.clone();
        let handle = std::thread::Builder::new()
            .name("ketharmad-call".into())
            .spawn_scoped(scope, move || {
                let r = catch_unwind(AssertUnwindSafe(|| work(&token)));
                let _ = tx.send(());
                r
            })
            .map_err(|e| PyRuntimeError::new_err(format!("could not start a worker thread for {what}: {e}")))?;
        let mut rx = rx;
        loop {
            let (finished, back) = py.detach(move || {
                let r = rx.recv_timeout(SIGNAL_SLICE);
                (!matches!(r, Err(RecvTimeoutError::Timeout)), rx)
            });
            rx = back;
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.request();
                // the workers stop between games; wait for them with the GIL released
                let _ = py.detach(move || handle.join());
                return Err(e);
            }
        }
        match py.detach(move || handle.join()) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) | Err(e) => Err(PyRuntimeError::new_err(format!("internal error in {what}: {}", panic_message(&*e)))),
        }
    })
}

fn parse_params(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, ParamValue)>> {
    let mut out = Vec::new();
    if let Some(d) = params {
        for (k, v) in d.iter() {
            let name: String = k.extract().map_err(|_| verr("parameter names must be strings".into()))?;
            let val = if v.is_instance_of::<PyBool>() {
                ParamValue::Bool(v.extract()?)
            } else if let Ok(i) = v.extract::<i64>() {
                ParamValue::Int(i)
            } else if v.is_instance_of::<PyString>() {
                ParamValue::Str(v.extract()?)
            } else {
                return Err(verr(format!("parameter '{name}': expected an int, a bool or a string, got {}", v.get_type().name()?)));
            };
            out.push((name, val));
        }
    }
    Ok(out)
}

fn parse_bots(bots: &Bound<'_, PyList>) -> PyResult<Vec<BotSpec>> {
    let mut out = Vec::new();
    for b in bots.iter() {
        if let Ok(s) = b.extract::<String>() {
            let mut spec = BotSpec::parse(&s, vec![]).map_err(verr)?;
            spec.check_model().map_err(verr)?;
            out.push(spec);
        } else if let Ok(d) = b.cast::<PyDict>() {
            let kind: String =
                d.get_item("kind")?.ok_or_else(|| verr("a bot spec dict needs a 'kind'".into()))?.extract().map_err(|_| verr("bot 'kind' must be a string".into()))?;
            let mut knobs = Vec::new();
            let mut models: Vec<(String, String)> = Vec::new();
            for (k, v) in d.iter() {
                let k: String = k.extract()?;
                if k == "kind" {
                    continue;
                }
                if k == "model" && v.cast::<PyList>().is_ok() {
                    // `learned` with several policy files: their scores averaged (an ensemble)
                    let files: Vec<String> = v.extract().map_err(|_| verr("bot knob 'model' as a list must hold model files' paths".into()))?;
                    if files.is_empty() {
                        return Err(verr("bot knob 'model' is an empty list: name at least one model file".into()));
                    }
                    models.extend(files.into_iter().map(|p| (k.clone(), p)));
                    continue;
                }
                if k == "value" || k == "model" || k == "prior" {
                    let p: String = v.extract().map_err(|_| verr(format!("bot knob '{k}' must be a model file's path")))?;
                    models.push((k, p));
                    continue;
                }
                let x: f64 = v.extract().map_err(|_| verr(format!("bot knob '{k}' must be a number")))?;
                knobs.push((k, x));
            }
            let mut spec = BotSpec::parse(&kind, knobs).map_err(verr)?;
            for (k, p) in models {
                spec = spec.with_model(&k, &p).map_err(verr)?;
            }
            spec.check_model().map_err(verr)?;
            out.push(spec);
        } else {
            return Err(verr("a bot spec must be a string or a dict with a 'kind'".into()));
        }
    }
    Ok(out)
}

/// Each seat's deck string (a faction, "a+b" Mixed, or "name[id*n,...]": `cards::decks`),
/// checked against the card set: (factions, decks; empty when all are faction decks).
fn parse_decks(db: &CardDb, decks: &[String]) -> PyResult<(Vec<u8>, Vec<crate::cards::Deck>)> {
    if !(2..=crate::engine::MAX_SEATS).contains(&decks.len()) {
        return Err(verr(format!("a game needs 2 to {} decks, got {}", crate::engine::MAX_SEATS, decks.len())));
    }
    crate::cards::decks::parse_decks(db, decks).map_err(verr)
}

/// The process-wide cache of parsed and compiled card data, so that a run of many small
/// calls (a balance search, a sweep) parses and compiles the card file once instead of on
/// every call. Two bounded LRU lists (most recently used last), behind one mutex that is held
/// only to look up or insert, never while parsing or compiling:
///
/// * `raws`: card-file text -> its parsed and validated `RawDb` (`load_raw`); keyed by the
///   full text (a length check and a memcmp: cheaper than hashing 100 KiB on every call);
/// * `dbs`: (parsed text, parameter overrides in call order) -> the compiled `CardDb`
///   (`build_db`), shared (`Arc`) by concurrent calls.
///
/// Only successes are cached: a file or an override that fails is parsed or compiled again on
/// every call and fails with the same `ValueError`. Cached values are immutable, so a call's
/// overrides never leak into another call.
struct CardCache {
    raws: Vec<RawEntry>,
    dbs: Vec<DbEntry>,
}

struct RawEntry {
    text: Box<str>,
    raw: Arc<RawDb>,
}

struct DbEntry {
    raw: Arc<RawDb>,
    overrides: Vec<(String, ParamValue)>,
    db: Arc<CardDb>,
}

/// Card files kept parsed (a run rarely uses more than one or two).
const CACHED_TEXTS: usize = 4;
/// Compiled (text, overrides) pairs kept: a search revisits its recent points (racing,
/// replays), and the baseline.
const CACHED_DBS: usize = 16;

static CARD_CACHE: Mutex<CardCache> = Mutex::new(CardCache { raws: Vec::new(), dbs: Vec::new() });
static CACHE_STATS: [AtomicUsize; 4] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];
const RAW_HIT: usize = 0;
const RAW_MISS: usize = 1;
const DB_HIT: usize = 2;
const DB_MISS: usize = 3;

fn card_cache() -> std::sync::MutexGuard<'static, CardCache> {
    CARD_CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

fn count(what: usize) {
    CACHE_STATS[what].fetch_add(1, Ordering::Relaxed);
}

/// The parsed card data of `text`, from the cache or parsed now (`load_raw`) and cached.
fn cached_raw(text: &str) -> Result<Arc<RawDb>, String> {
    let same = |e: &RawEntry| e.text.len() == text.len() && &*e.text == text;
    {
        let mut c = card_cache();
        if let Some(i) = c.raws.iter().position(same) {
            let e = c.raws.remove(i);
            let raw = e.raw.clone();
            c.raws.push(e);
            count(RAW_HIT);
            return Ok(raw);
        }
    }
    count(RAW_MISS);
    let raw = Arc::new(load_raw(text)?);
    let mut c = card_cache();
    if !c.raws.iter().any(same) {
        if c.raws.len() >= CACHED_TEXTS {
            let old = c.raws.remove(0);
            // the compiled sets of an evicted text go with it
            c.dbs.retain(|d| !Arc::ptr_eq(&d.raw, &old.raw));
        }
        c.raws.push(RawEntry { text: text.into(), raw: raw.clone() });
    }
    Ok(raw)
}

/// The compiled card set of `text` with `overrides`, from the cache or built now and cached.
fn cached_db(text: &str, overrides: Vec<(String, ParamValue)>) -> Result<Arc<CardDb>, String> {
    let raw = cached_raw(text)?;
    {
        let mut c = card_cache();
        if let Some(i) = c.dbs.iter().position(|e| Arc::ptr_eq(&e.raw, &raw) && e.overrides == overrides) {
            let e = c.dbs.remove(i);
            let db = e.db.clone();
            c.dbs.push(e);
            count(DB_HIT);
            return Ok(db);
        }
    }
    count(DB_MISS);
    let db = Arc::new(build_db(&raw, &overrides)?);
    let mut c = card_cache();
    // the text may have been evicted meanwhile: then do not keep the set either
    if c.raws.iter().any(|e| Arc::ptr_eq(&e.raw, &raw)) && !c.dbs.iter().any(|e| Arc::ptr_eq(&e.raw, &raw) && e.overrides == overrides) {
        if c.dbs.len() >= CACHED_DBS {
            c.dbs.remove(0);
        }
        c.dbs.push(DbEntry { raw, overrides, db: db.clone() });
    }
    Ok(db)
}

fn make_db(card_data: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Arc<CardDb>> {
    let overrides = parse_params(params)?;
    cached_db(card_data, overrides).map_err(verr)
}

/// Test hook: the card cache's counters since the process started (or the last
/// `_card_cache_clear`), and how many entries it holds.
#[pyfunction]
fn _card_cache_stats<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let get = |i: usize| CACHE_STATS[i].load(Ordering::Relaxed);
    d.set_item("raw_hits", get(RAW_HIT))?;
    d.set_item("raw_misses", get(RAW_MISS))?;
    d.set_item("db_hits", get(DB_HIT))?;
    d.set_item("db_misses", get(DB_MISS))?;
    let c = card_cache();
    d.set_item("texts", c.raws.len())?;
    d.set_item("dbs", c.dbs.len())?;
    Ok(d)
}

/// Test hook: empty the card cache and zero its counters (the next call parses afresh).
#[pyfunction]
fn _card_cache_clear() {
    let mut c = card_cache();
    c.raws.clear();
    c.dbs.clear();
    for s in &CACHE_STATS {
        s.store(0, Ordering::Relaxed);
    }
}

#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The hash of a card set with its parameter overrides that a model records
/// (`learn::card_set_hash`), as 16 hex digits.
#[pyfunction]
#[pyo3(signature = (card_data, params=None))]
fn card_set_hash(card_data: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    guarded("card_set_hash", || Ok(format!("{:016x}", crate::learn::card_set_hash(&*make_db(card_data, params)?))))
}

#[pyfunction]
fn card_data_hash(card_data: &str) -> PyResult<String> {
    guarded("card_data_hash", || {
        let raw = cached_raw(card_data).map_err(verr)?;
        Ok(format!("{:016x}", raw.hash))
    })
}

/// Test hook: rayon pools built so far in this process (pools are reused per size).
#[pyfunction]
fn _pools_built() -> usize {
    pools_built()
}

#[pyfunction]
fn card_table<'py>(py: Python<'py>, card_data: &str) -> PyResult<Bound<'py, PyDict>> {
    guarded("card_table", || card_table_impl(py, card_data))
}

fn card_table_impl<'py>(py: Python<'py>, card_data: &str) -> PyResult<Bound<'py, PyDict>> {
    let db = make_db(card_data, None)?;
    let d = PyDict::new(py);
    let c = &db.cards;
    let figure = |x: &crate::cards::CardDef| x.ctype.is_figure();
    d.set_item("id", c.iter().map(|x| x.id.clone()).collect::<Vec<_>>())?;
    d.set_item("name", c.iter().map(|x| x.name.clone()).collect::<Vec<_>>())?;
    d.set_item("faction", c.iter().map(|x| x.faction.name()).collect::<Vec<_>>())?;
    d.set_item("type", c.iter().map(|x| x.ctype.name()).collect::<Vec<_>>())?;
    d.set_item("copies", c.iter().map(|x| x.copies as i64).collect::<Vec<_>>())?;
    d.set_item(
        "cost",
        c.iter()
            .map(|x| if matches!(x.ctype, crate::cards::CardType::Base | crate::cards::CardType::Event | crate::cards::CardType::Token) { String::new() } else { x.cost.printed() })
            .collect::<Vec<_>>(),
    )?;
    d.set_item("cost_generic", c.iter().map(|x| x.cost.generic as i64).collect::<Vec<_>>())?;
    d.set_item("cost_f", c.iter().map(|x| x.cost.pips[0] as i64).collect::<Vec<_>>())?;
    d.set_item("cost_m", c.iter().map(|x| x.cost.pips[1] as i64).collect::<Vec<_>>())?;
    d.set_item("cost_u", c.iter().map(|x| x.cost.pips[2] as i64).collect::<Vec<_>>())?;
    d.set_item("influence", c.iter().map(|x| figure(x).then_some(x.influence as i64)).collect::<Vec<_>>())?;
    d.set_item("credibility", c.iter().map(|x| figure(x).then_some(x.credibility as i64)).collect::<Vec<_>>())?;
    d.set_item("keywords", c.iter().map(|x| x.keyword_text.clone()).collect::<Vec<_>>())?;
    d.set_item("party", c.iter().map(|x| x.party.clone()).collect::<Vec<_>>())?;
    d.set_item("role", c.iter().map(|x| x.role.clone()).collect::<Vec<_>>())?;
    d.set_item("text", c.iter().map(|x| x.text.clone()).collect::<Vec<_>>())?;
    Ok(d)
}

#[pyfunction]
fn parameter_table<'py>(py: Python<'py>, card_data: &str) -> PyResult<Bound<'py, PyDict>> {
    guarded("parameter_table", || parameter_table_impl(py, card_data))
}

fn parameter_table_impl<'py>(py: Python<'py>, card_data: &str) -> PyResult<Bound<'py, PyDict>> {
    let raw = cached_raw(card_data).map_err(verr)?;
    let reg = registry(&raw);
    let d = PyDict::new(py);
    d.set_item("name", reg.iter().map(|p| p.name.clone()).collect::<Vec<_>>())?;
    d.set_item("default", reg.iter().map(|p| p.default).collect::<Vec<_>>())?;
    d.set_item("default_str", reg.iter().map(|p| p.default_str.clone()).collect::<Vec<_>>())?;
    d.set_item("kind", reg.iter().map(|p| p.kind.name()).collect::<Vec<_>>())?;
    d.set_item("min", reg.iter().map(|p| p.min).collect::<Vec<_>>())?;
    d.set_item("max", reg.iter().map(|p| p.max).collect::<Vec<_>>())?;
    d.set_item("card", reg.iter().map(|p| p.card.clone()).collect::<Vec<_>>())?;
    d.set_item("description", reg.iter().map(|p| p.description.clone()).collect::<Vec<_>>())?;
    Ok(d)
}

/// A `UserWarning` for each model trained on another card set than the one played (issue 26:
/// a model warns, it does not fail; docs/learning.md).
fn warn_foreign_models(py: Python<'_>, db: &CardDb, specs: &[BotSpec]) -> PyResult<()> {
    // The message names the model and the set it was trained on, not the set played: a
    // balance run plays thousands of card sets, and Python's warning registry shows one
    // message once per call site only when its text repeats.
    let here = crate::learn::card_set_hash(db);
    for m in specs.iter().flat_map(|s| s.model.iter().chain(s.prior.iter()).chain(s.ensemble.iter())) {
        if m.card_hash != 0 && m.card_hash != here {
            let msg = std::ffi::CString::new(format!(
                "model file '{}' was trained on card set {:016x}; this run plays other card numbers: \
                 its features read the numbers, but check it against the heuristic before trusting it (docs/learning.md)",
                m.path, m.card_hash
            ))
            .unwrap_or_default();
            pyo3::PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &msg, 1)?;
        }
    }
    Ok(())
}

fn spec_from(db: &CardDb, decks: Vec<String>, bots: &Bound<'_, PyList>, games: u64, seed: u64, threads: Option<usize>, start_player: Option<u8>) -> PyResult<BatchSpec> {
    let (factions, decks) = parse_decks(db, &decks)?;
    let specs = parse_bots(bots)?;
    warn_foreign_models(bots.py(), db, &specs)?;
    let bots = specs;
    Ok(BatchSpec { factions, decks, bots, games, seed, threads, start_player })
}

#[pyfunction]
#[pyo3(signature = (card_data, decks, bots, params=None))]
fn validate(card_data: &str, decks: Vec<String>, bots: &Bound<'_, PyList>, params: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    guarded("validate", || {
        let db = make_db(card_data, params)?;
        spec_from(&db, decks, bots, 1, 0, None, None)?.validate(&db).map_err(verr)
    })
}

/// The cards each seat's deck holds in game `game` of the batch `seed` (card definition
/// indices, one per copy, in card-file order): a Mixed deck's choice of that game (E90).
#[pyfunction]
#[pyo3(signature = (card_data, decks, seed, game, params=None))]
fn deck_lists(card_data: &str, decks: Vec<String>, seed: u64, game: u64, params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<Vec<u16>>> {
    guarded("deck_lists", || {
        let db = make_db(card_data, params)?;
        let (factions, list) = parse_decks(&db, &decks)?;
        let gseed = crate::rng::game_seed(seed, game);
        Ok((0..factions.len())
            .map(|s| {
                let mut out = Vec::new();
                list.get(s).cloned().unwrap_or(crate::cards::Deck::Faction(factions[s])).deal(&db, gseed, s, &mut out);
                out
            })
            .collect())
    })
}

/// A raw column as a numpy array (the Vec is handed over, not copied).
fn raw_to_py<'py>(py: Python<'py>, c: RawColumn) -> Bound<'py, PyAny> {
    match c {
        RawColumn::Bool(v) => v.into_pyarray(py).into_any(),
        RawColumn::I8(v) => v.into_pyarray(py).into_any(),
        RawColumn::U8(v) => v.into_pyarray(py).into_any(),
        RawColumn::U16(v) => v.into_pyarray(py).into_any(),
        RawColumn::I32(v) => v.into_pyarray(py).into_any(),
        RawColumn::U32(v) => v.into_pyarray(py).into_any(),
        RawColumn::I64(v) => v.into_pyarray(py).into_any(),
        RawColumn::U64(v) => v.into_pyarray(py).into_any(),
        RawColumn::F32(v) => v.into_pyarray(py).into_any(),
    }
}

/// One value of a raw column as a Python int or bool.
fn raw_item<'py>(py: Python<'py>, c: &RawColumn, i: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match c {
        RawColumn::Bool(v) => PyBool::new(py, v[i]).to_owned().into_any(),
        RawColumn::I8(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::U8(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::U16(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::I32(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::U32(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::I64(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::U64(v) => v[i].into_pyobject(py)?.into_any(),
        RawColumn::F32(v) => (v[i] as f64).into_pyobject(py)?.into_any(),
    })
}

fn table_to_py<'py>(py: Python<'py>, cols: Vec<(String, RawColumn)>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, col) in cols {
        d.set_item(name, raw_to_py(py, col))?;
    }
    Ok(d)
}

fn columns_to_py<'py>(py: Python<'py>, c: Columns) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("games", table_to_py(py, c.games.into_raw())?)?;
    out.set_item("players", table_to_py(py, c.players.into_raw())?)?;
    out.set_item("plays", table_to_py(py, c.plays.into_raw())?)?;
    Ok(out)
}

/// The schema of the result columns (`batch::schema`): one dict per exported column with
/// table ("games" | "players" | "plays"), name, dtype (numpy name), frame (what the Python
/// layer does with it: "plain", "null_if_negative", "end_reason", "faction", "card_record",
/// "card")
/// and doc.
#[pyfunction]
fn columns<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    guarded("columns", || {
        let out = PyList::empty(py);
        for c in schema() {
            let d = PyDict::new(py);
            d.set_item("table", c.table)?;
            d.set_item("name", c.name)?;
            d.set_item("dtype", c.dtype)?;
            d.set_item("frame", c.frame.name())?;
            d.set_item("doc", c.doc)?;
            out.append(d)?;
        }
        Ok(out)
    })
}

/// `games` and `threads` of a batch call: a `ValueError` naming a bad one.
fn check_counts(games: i64, threads: Option<i64>) -> PyResult<()> {
    if games <= 0 {
        return Err(verr(format!("games must be a positive number, got {games}")));
    }
    if let Some(t) = threads {
        if t < 1 {
            return Err(verr(format!("threads must be at least 1, got {t}")));
        }
        if t > MAX_THREADS as i64 {
            return Err(verr(format!("threads must be at most {MAX_THREADS}, got {t} (this machine has {} cores)", available_threads())));
        }
    }
    Ok(())
}

fn stats_to_py<'py>(py: Python<'py>, s: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("n_seats", s.n_seats)?;
    d.set_item("games", s.games)?;
    d.set_item("wins_seat", s.wins_seat[..s.n_seats].to_vec())?;
    d.set_item("wins_faction", s.wins_faction.to_vec())?;
    d.set_item("seats_faction", s.seats_faction.to_vec())?;
    d.set_item("unfinished", s.unfinished)?;
    d.set_item("turns_sum", s.turns_sum)?;
    d.set_item("turns_sq_sum", s.turns_sq_sum)?;
    d.set_item("turns_hist", s.turns_hist.to_vec())?;
    d.set_item("turns_max", s.turns_max)?;
    d.set_item("rounds_sum", s.rounds_sum)?;
    d.set_item("rounds_hist", s.rounds_hist.to_vec())?;
    d.set_item("rounds_max", s.rounds_max)?;
    d.set_item("end_reasons", s.end_reasons.to_vec())?;
    Ok(d)
}

/// Play games `first_game .. first_game + games - 1` of a batch (the games of `simulate`
/// with the same arguments) and return their statistics, not their rows: memory does not
/// grow with `games`. Same worker thread, Ctrl-C and error handling as `simulate`.
#[pyfunction]
#[pyo3(signature = (card_data, decks, bots, games, seed, threads=None, params=None, start_player=None, first_game=0))]
// too_many_arguments: the parameters mirror the Python keyword API of this entry point
#[allow(clippy::too_many_arguments)]
fn simulate_stats<'py>(
    py: Python<'py>,
    card_data: &str,
    decks: Vec<String>,
    bots: &Bound<'py, PyList>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    start_player: Option<u8>,
    first_game: u64,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("simulate_stats", || {
        check_counts(games, threads)?;
        let db = make_db(card_data, params)?;
        let spec = spec_from(&db, decks, bots, games as u64, seed, threads.map(|t| t as usize), start_player)?;
        spec.validate(&db).map_err(verr)?;
        let res = run_interruptible(py, "simulate_stats", |stop| reduce_batch_stoppable(&db, &spec, first_game, stop))?;
        py.check_signals()?;
        stats_to_py(py, &res?)
    })
}

/// Run a batch: the games run on worker threads (rayon) while the caller waits with the GIL
/// released, checking for Ctrl-C (see `run_interruptible`).
#[pyfunction]
#[pyo3(signature = (card_data, decks, bots, games, seed, threads=None, params=None, start_player=None, record_plays=false, first_game=0))]
// too_many_arguments: the parameters mirror the Python keyword API of this entry point
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    card_data: &str,
    decks: Vec<String>,
    bots: &Bound<'py, PyList>,
    games: i64,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
    start_player: Option<u8>,
    record_plays: bool,
    first_game: u64,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("simulate", || {
        check_counts(games, threads)?;
        let db = make_db(card_data, params)?;
        let spec = spec_from(&db, decks, bots, games as u64, seed, threads.map(|t| t as usize), start_player)?;
        spec.validate(&db).map_err(verr)?;
        let res = run_interruptible(py, "simulate", |stop| run_batch_stoppable(&db, &spec, record_plays, first_game, stop))?;
        // a Ctrl-C that came during the last slice: raise it before touching numpy
        py.check_signals()?;
        columns_to_py(py, res?)
    })
}

/// Several cells of one card set and parameters in one call (`run_cells_stoppable`): each
/// cell is `(decks, bots, first_game, games, start_player)`; the rows of every cell come back
/// in one set of columns, cell after cell, each cell's rows those `simulate` gives for it.
#[pyfunction]
#[pyo3(signature = (card_data, cells, seed, threads=None, params=None))]
fn simulate_cells<'py>(
    py: Python<'py>,
    card_data: &str,
    cells: &Bound<'py, PyList>,
    seed: u64,
    threads: Option<i64>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("simulate_cells", || {
        let db = make_db(card_data, params)?;
        let mut specs = Vec::with_capacity(cells.len());
        let mut firsts = Vec::with_capacity(cells.len());
        for item in cells.iter() {
            let (decks, bots, first_game, games, start_player): (Vec<String>, Bound<'py, PyList>, u64, i64, Option<u8>) = item.extract()?;
            check_counts(games, threads)?;
            specs.push(spec_from(&db, decks, &bots, games as u64, seed, threads.map(|t| t as usize), start_player)?);
            firsts.push(first_game);
        }
        let res = run_interruptible(py, "simulate_cells", |stop| run_cells_stoppable(&db, &specs, &firsts, stop))?;
        py.check_signals()?;
        columns_to_py(py, res?)
    })
}

/// Replay one game of a batch with its readable log.
#[pyfunction]
#[pyo3(signature = (card_data, decks, bots, seed, game, params=None, start_player=None))]
// too_many_arguments: the parameters mirror the Python keyword API of this entry point
#[allow(clippy::too_many_arguments)]
fn play<'py>(
    py: Python<'py>,
    card_data: &str,
    decks: Vec<String>,
    bots: &Bound<'py, PyList>,
    seed: u64,
    game: u64,
    params: Option<&Bound<'py, PyDict>>,
    start_player: Option<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("play", || {
        let db = make_db(card_data, params)?;
        let spec = spec_from(&db, decks, bots, 1, seed, Some(1), start_player)?;
        spec.validate(&db).map_err(verr)?;
        let res = run_interruptible(py, "play", |stop| catch_unwind(AssertUnwindSafe(|| play_one_stoppable(&mut None, &db, &spec, game, true, false, false, Some(stop)))))?;
        py.check_signals()?;
        let (r, log) = res.map_err(|e| BatchError::panicked(game, crate::rng::game_seed(seed, game), &*e))?;
        // the game's `games` columns as scalars and its `players` columns (all but `game`
        // and the card sets) as per-seat lists, from the same columns a batch exports
        let n = spec.factions.len();
        let mut c = Columns { n_seats: n, ..Default::default() };
        c.push(&r)?;
        let d = PyDict::new(py);
        d.set_item("log", log.unwrap_or_default())?;
        for (name, col) in c.games.into_raw() {
            d.set_item(name, raw_item(py, &col, 0)?)?;
        }
        let record = |name: &str| schema().iter().any(|i| i.table == "players" && i.name == name && i.frame == FrameAs::CardRecord);
        for (name, col) in c.players.into_raw() {
            if name == "game" || record(&name) {
                continue;
            }
            let seats = (0..n).map(|s| raw_item(py, &col, s)).collect::<PyResult<Vec<_>>>()?;
            d.set_item(name, PyList::new(py, seats)?)?;
        }
        Ok(d)
    })
}

/// Bot kinds, presets and knobs.
#[pyfunction]
fn bot_table<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    guarded("bot_table", || bot_table_impl(py))
}

fn bot_table_impl<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    use crate::bots::heuristic::{KNOBS, PRESETS};
    let mut name = Vec::new();
    let mut entry = Vec::new();
    let mut applies = Vec::new();
    let mut default = Vec::new();
    let mut min = Vec::new();
    let mut max = Vec::new();
    let mut desc = Vec::new();
    let mut row = |n: &str, e: &str, a: &str, d: f64, lo: f64, hi: f64, t: String| {
        name.push(n.to_string());
        entry.push(e.to_string());
        applies.push(a.to_string());
        default.push(d);
        min.push(lo);
        max.push(hi);
        desc.push(t);
    };
    row("random", "bot", "", f64::NAN, f64::NAN, f64::NAN, "uniformly random legal option at every decision".into());
    for (p, knobs) in PRESETS {
        let set: Vec<String> = knobs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let what = if set.is_empty() { "the rule-based bot with default knobs".to_string() } else { format!("rule-based preset: {}", set.join(", ")) };
        row(p, "bot", "", f64::NAN, f64::NAN, f64::NAN, what);
    }
    row("search", "bot", "", f64::NAN, f64::NAN, f64::NAN, "determinized Monte-Carlo search over the heuristic; fixed iteration budget".into());
    for (k, d, t) in KNOBS {
        row(k, "knob", "heuristic, aggro, control, tuned, search", *d, 0.0, 1.0, t.to_string());
    }
    row("iterations", "knob", "search", 200.0, 1.0, 1_000_000.0, "rollouts per searched decision (a fixed budget, never a clock)".into());
    row(
        "every",
        "knob",
        "search",
        0.0,
        0.0,
        1.0,
        "0: search main-priority decisions only; 1: every decision with two or more options (targets, blocks, attacks, reactions, damage division, mulligans ...)".into(),
    );
    row("width", "knob", "search", 6.0, 1.0, 64.0, "options searched per decision (the heuristic's favourites)".into());
    row(
        "rollout_rounds",
        "knob",
        "search",
        search::DEFAULT_ROLLOUT_ROUNDS as f64,
        1.0,
        search::MAX_ROLLOUT_ROUNDS as f64,
        "rounds a rollout may play after the decision's round; one cut there is unfinished: scores 1/2 and is counted in the players' unfinished_rollouts".into(),
    );
    row(
        "ismcts",
        "bot",
        "",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "information-set MCTS of the harness (rust/harness/search.rs): one tree over determinizations, cut-off rollouts scored by Kétharmad's evaluation, progressive widening; runs on the driven path (ismcts:iterations=N,...)".into(),
    );
    for k in crate::harness::search::SEARCH_KNOBS.iter().chain(crate::games::ketharmad::EVAL_KNOBS) {
        let default = crate::games::ketharmad::SEARCH_DEFAULTS.iter().find(|d| d.0 == k.name).map_or(k.default, |d| d.1);
        row(k.name, "knob", "ismcts", default, k.min, k.max, k.description.to_string());
    }
    row(
        "rollout",
        "knob",
        "ismcts",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "the bot that plays the rollouts: a bot name (default tuned; its knobs after ';': rollout=heuristic;aggression=0.8)".into(),
    );
    row(
        "prior",
        "knob",
        "ismcts",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "the bot whose ranking a widened node expands in and the paired root compares (default: the rollout bot); in Kétharmad's batch a policy model file ('shipped': the packaged one): {'kind': 'ismcts', 'prior': PATH}".into(),
    );
    row(
        "value",
        "knob",
        "ismcts",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "a value model file (.khnn, ketharmad.learn.train) that scores cut rollouts instead of the evaluation; 'shipped': the packaged one (docs/learning.md)".into(),
    );
    row(
        "learned",
        "bot",
        "",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "a policy network trained by expert iteration (docs/learning.md) scores each main-priority option; the rest is the tuned bot's".into(),
    );
    row(
        "model",
        "knob",
        "learned",
        f64::NAN,
        f64::NAN,
        f64::NAN,
        "the policy model file (.khnn, ketharmad.learn.train_policy); default: the shipped one, trained on the draft set".into(),
    );
    let d = PyDict::new(py);
    d.set_item("name", name)?;
    d.set_item("entry", entry)?;
    d.set_item("applies_to", applies)?;
    d.set_item("default", default)?;
    d.set_item("min", min)?;
    d.set_item("max", max)?;
    d.set_item("description", desc)?;
    Ok(d)
}

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Load NumPy's C API now, at import, not in the first call that returns arrays: loading it
    // runs Python code, and a Ctrl-C pending there would make the numpy crate panic.
    let py = m.py();
    let _ = catch_unwind(AssertUnwindSafe(|| {
        numpy::PyArray1::<u8>::zeros(py, 0, false);
    }));
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(card_data_hash, m)?)?;
    m.add_function(wrap_pyfunction!(card_set_hash, m)?)?;
    m.add_function(wrap_pyfunction!(card_table, m)?)?;
    m.add_function(wrap_pyfunction!(parameter_table, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(deck_lists, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(columns, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_stats, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_cells, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(bot_table, m)?)?;
    m.add_function(wrap_pyfunction!(_pools_built, m)?)?;
    m.add_function(wrap_pyfunction!(_card_cache_stats, m)?)?;
    m.add_function(wrap_pyfunction!(_card_cache_clear, m)?)?;
    m.add_function(wrap_pyfunction!(step::columns_of, m)?)?;
    m.add_class::<step::PyGame>()?;
    games::register(m)?;
    health::register(m)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("AVAILABLE_THREADS", available_threads())?;
    // bytes of the raw result columns: per game, per game and seat, per card play
    m.add("GAME_ROW_BYTES", GAME_ROW_BYTES)?;
    m.add("SEAT_ROW_BYTES", SEAT_ROW_BYTES)?;
    m.add("PLAY_ROW_BYTES", PLAY_ROW_BYTES)?;
    // bins of simulate_stats' game-length histogram (the last one counts longer games)
    m.add("TURN_BINS", TURN_BINS)?;
    m.add("FACTIONS", FACTIONS.to_vec())?;
    m.add("END_REASONS", EndReason::NAMES.to_vec())?;
    m.add("BOT_KINDS", BOT_KINDS.to_vec())?;
    Ok(())
}
