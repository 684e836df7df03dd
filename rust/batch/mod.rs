//! Batches: per-game seeding, the rayon runner and columnar records. Results are gathered
//! in game order, so a batch gives the same rows on any number of threads.
//!
//! Process safety: a batch can be stopped between games through its own [`Stop`] token (a
//! search bot also looks at it between rollouts); the result columns are reserved up front
//! with fallible allocation, so a batch too large for memory is an error, never an abort;
//! games are played in blocks, so besides the columns only one block of per-game records is
//! held; thread pools are built once per size and reused.

use crate::bots::{BotSpec, Policy};
use crate::cards::CardDb;
use crate::engine::{Game, GameConfig};
use crate::harness::batch::Blocks;
use crate::harness::{available_threads, BatchError, Stop, MAX_THREADS};
use crate::rng::game_seed;

pub mod columns;
pub mod reduce;
pub use columns::{schema, ColumnInfo, FrameAs, GameColumns, GameResult, PlayColumns, RawColumn, SeatColumns, SeatResult, GAME_ROW_BYTES, PLAY_ROW_BYTES, SEAT_ROW_BYTES};
pub use reduce::{reduce_batch_stoppable, Stats, TURN_BINS};

/// What to play.
#[derive(Clone, Debug, Default)]
pub struct BatchSpec {
    /// Each seat's faction (for a Mixed deck or a list: `Deck::faction`).
    pub factions: Vec<u8>,
    /// Each seat's deck when not every seat plays its faction's own deck (`cards::decks`);
    /// empty: seat i plays the deck of `factions[i]`.
    pub decks: Vec<crate::cards::Deck>,
    pub bots: Vec<BotSpec>,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    /// Fixed start seat for every game, or None for a random start player (E9).
    pub start_player: Option<u8>,
}

impl BatchSpec {
    /// Check the inputs that do not depend on the card set.
    pub fn validate(&self, db: &CardDb) -> Result<(), String> {
        let n = self.factions.len();
        let f = &db.rules.format;
        crate::cards::formats::check_built(f)?;
        if !(f.seats_min..=f.seats_max).contains(&n) {
            return Err(if f.seats_min == f.seats_max {
                format!("the {} format needs exactly {} decks, got {n}", f.name, f.seats_min)
            } else {
                format!("the {} format needs {} to {} decks, got {n}", f.name, f.seats_min, f.seats_max)
            });
        }
        if !(2..=crate::engine::MAX_SEATS).contains(&n) {
            return Err(format!("a game needs 2 to {} decks, got {n}", crate::engine::MAX_SEATS));
        }
        crate::engine::Seating::of_format(f, n)?;
        if self.bots.len() != n {
            return Err(format!("got {} bot specs for {n} seats", self.bots.len()));
        }
        if self.games == 0 {
            return Err("games must be a positive number".into());
        }
        if !self.decks.is_empty() && self.decks.len() != n {
            return Err(format!("got {} decks for {n} seats", self.decks.len()));
        }
        crate::cards::decks::check_disjoint(db, &self.factions, &self.decks)?;
        if self.threads == Some(0) {
            return Err("threads must be at least 1".into());
        }
        if let Some(t) = self.threads.filter(|&t| t > MAX_THREADS) {
            return Err(format!("threads must be at most {MAX_THREADS}, got {t} (this machine has {} cores)", available_threads()));
        }
        let deck_len = |i: usize| self.decks.get(i).map_or(db.decks[self.factions[i] as usize].len(), |d| d.len(db));
        let cards = (0..n).map(deck_len).sum::<usize>() + db.newsfeed.len() + db.events.len() + db.tokens.iter().map(|&(_, k)| k as usize).sum::<usize>();
        if cards > crate::engine::MAX_INSTS {
            return Err(format!("a game of these decks would hold {cards} cards (decks, Newsfeed, Events, tokens); at most {} fit", crate::engine::MAX_INSTS));
        }
        Ok(())
    }
}

/// Play game `index` of the batch. `log`: also return the readable action log.
pub fn play_one(db: &CardDb, spec: &BatchSpec, index: u64, log: bool, check: bool) -> (GameResult, Option<Vec<String>>) {
    play_one_with(db, spec, index, log, check, false)
}

/// `play_one`, optionally recording every card play (`record_plays`).
pub fn play_one_with(db: &CardDb, spec: &BatchSpec, index: u64, log: bool, check: bool, record_plays: bool) -> (GameResult, Option<Vec<String>>) {
    play_one_in(&mut None, db, spec, index, log, check, record_plays)
}

/// `play_one_with` reusing the buffers of the game left in `slot`, and leaving this one
/// there for the next call (a batch allocates nothing per game).
pub fn play_one_in<'db>(
    slot: &mut Option<Game<'db>>,
    db: &'db CardDb,
    spec: &BatchSpec,
    index: u64,
    log: bool,
    check: bool,
    record_plays: bool,
) -> (GameResult, Option<Vec<String>>) {
    play_one_stoppable(slot, db, spec, index, log, check, record_plays, None)
}

/// `play_one_in` whose search bots give up their rollouts once `stop` is requested (the game
/// then ends quickly on the heuristic's choices; its result is meant to be thrown away).
// too_many_arguments: the last of the play_one family, taking every switch of the ones before it plus the stop token
#[allow(clippy::too_many_arguments)]
pub fn play_one_stoppable<'db>(
    slot: &mut Option<Game<'db>>,
    db: &'db CardDb,
    spec: &BatchSpec,
    index: u64,
    log: bool,
    check: bool,
    record_plays: bool,
    stop: Option<&Stop>,
) -> (GameResult, Option<Vec<String>>) {
    let seed = game_seed(spec.seed, index);
    let cfg = GameConfig { factions: spec.factions.clone(), seed, start_player: spec.start_player, decks: spec.decks.clone() };
    let mut policies = crate::bots::seat_policies(seed, spec.factions.len(), &spec.bots);
    if let Some(stop) = stop {
        for p in policies.iter_mut() {
            match p {
                Policy::Search(s) => s.stop = Some(stop.clone()),
                Policy::Ismcts(s) => s.stop = Some(stop.clone()),
                _ => {}
            }
        }
    }
    let every = policies.iter().any(|p| matches!(p, Policy::Search(s) if s.every));
    let mut g = Game::new_reusing(db, &cfg, policies, slot.take());
    if every {
        // search at every decision rolls out from the game's record (engine::step)
        g.record_from_start(spec.start_player);
    }
    if log {
        g.trace.log = Some(Vec::with_capacity(1024));
    }
    g.trace.check_invariants = check;
    if record_plays {
        g.trace.plays = Some(Vec::with_capacity(64));
    }
    let out = g.run(spec.start_player);
    let mut r = GameResult::of_game(&g, &out, index, seed);
    r.invariant_error = g.trace.invariant_error.take();
    r.plays = g.trace.plays.take().unwrap_or_default();
    let log = g.trace.log.take();
    *slot = Some(g);
    (r, log)
}

/// Columns of a batch: the `games`, `players` (one entry per game and seat) and `plays`
/// tables, generated from the one list of columns in [`columns`].
#[derive(Default, Debug)]
pub struct Columns {
    pub n_seats: usize,
    pub games: GameColumns,
    pub players: SeatColumns,
    pub plays: PlayColumns,
}

/// "1.2 GB"-style size.
pub fn human_bytes(b: f64) -> String {
    const UNITS: [&str; 5] = ["bytes", "kB", "MB", "GB", "TB"];
    let mut x = b;
    let mut u = 0;
    while x >= 1000.0 && u + 1 < UNITS.len() {
        x /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{b:.0} bytes")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

impl Columns {
    /// Bytes the fixed columns of `games` games of `n_seats` seats take (saturating).
    pub fn bytes_for(games: u64, n_seats: usize) -> u64 {
        games.saturating_mul((GAME_ROW_BYTES + n_seats * SEAT_ROW_BYTES) as u64)
    }

    /// Reserve every fixed column for `games` games up front, fallibly: a batch too large for
    /// memory is an error naming the size, never an abort.
    pub fn reserve(&mut self, games: u64) -> Result<(), BatchError> {
        let n = self.n_seats;
        let need = Columns::bytes_for(games, n);
        let fail = || {
            BatchError::Memory(format!(
                "not enough memory for the results of {games} games: their columns need {} ({} per game); play fewer games per call or use chunk_size",
                human_bytes(need as f64),
                human_bytes((GAME_ROW_BYTES + n * SEAT_ROW_BYTES) as f64)
            ))
        };
        let g = usize::try_from(games).map_err(|_| fail())?;
        let gn = g.checked_mul(n).ok_or_else(fail)?;
        (|| -> Result<(), std::collections::TryReserveError> {
            self.games.reserve(g)?;
            self.players.reserve(gn)
        })()
        .map_err(|_| fail())
    }

    /// Append the result of one game.
    #[inline]
    pub fn push(&mut self, r: &GameResult) -> Result<(), BatchError> {
        if !r.plays.is_empty() {
            self.plays.reserve(r.plays.len()).map_err(|_| {
                BatchError::Memory(format!(
                    "not enough memory for the card plays of game {} ({} rows recorded so far); play fewer games per call or use chunk_size",
                    r.game,
                    self.plays.len()
                ))
            })?;
            self.plays.push_game(r);
        }
        self.games.push(r);
        for p in &r.players[..self.n_seats] {
            self.players.push(p);
        }
        Ok(())
    }
}

/// Run a batch on `threads` threads (None = all cores). A panic inside a game is reported
/// with its index and seed.
pub fn run_batch(db: &CardDb, spec: &BatchSpec) -> Result<Columns, String> {
    run_batch_with(db, spec, false, 0)
}

/// `run_batch`, optionally with one row per card played (`record_plays`).
/// Games `first_game .. first_game + spec.games` of the batch are played (chunked runs give
/// exactly the rows of one big run).
pub fn run_batch_with(db: &CardDb, spec: &BatchSpec, record_plays: bool, first_game: u64) -> Result<Columns, String> {
    run_batch_stoppable(db, spec, record_plays, first_game, &Stop::new()).map_err(|e| e.to_string())
}

/// Games per block and worker thread: a block is played in parallel, then appended to the
/// columns in game order, so only one block of per-game records is held at a time.
const BLOCK_PER_THREAD: u64 = 1024;

/// `run_batch_with` that ends early with `BatchError::Stopped` once `stop` is requested: it
/// is polled before every game (and by search bots before every rollout).
pub fn run_batch_stoppable(db: &CardDb, spec: &BatchSpec, record_plays: bool, first_game: u64, stop: &Stop) -> Result<Columns, BatchError> {
    play_cells(db, std::slice::from_ref(spec), &[first_game], record_plays, stop)
}

/// Several cells of one card set in one call: cell `k` plays games `firsts[k] ..
/// firsts[k] + specs[k].games` of the batch `specs[k]` describes, exactly as
/// [`run_batch_stoppable`] would, and the rows come back in cell order, then game order.
/// Every cell must have the same number of seats, seed and threads. One call instead of one
/// per cell: a balance evaluation is dozens of cells of a few dozen games, and the per-call
/// cost (thread wake-up, the tail of each parallel loop, the conversion) would otherwise be
/// paid per cell.
pub fn run_cells_stoppable(db: &CardDb, specs: &[BatchSpec], firsts: &[u64], stop: &Stop) -> Result<Columns, BatchError> {
    play_cells(db, specs, firsts, false, stop)
}

/// The batch behind [`run_batch_stoppable`] and [`run_cells_stoppable`]: games are numbered
/// across the cells and played through the crate's one block runner
/// ([`harness::batch::run_blocks`](crate::harness::batch::run_blocks): blocks in parallel, one
/// reusable game per worker, appended to the columns in order, so only one block of per-game
/// records is held at a time; a stop request wins over results of games cut short by it; a
/// panic is reported with its game and seed). Each game is played by the engine calling its
/// seats' bots directly (`play_one_stoppable`, the fast path).
fn play_cells(db: &CardDb, specs: &[BatchSpec], firsts: &[u64], record_plays: bool, stop: &Stop) -> Result<Columns, BatchError> {
    let (Some(first), true) = (specs.first(), specs.len() == firsts.len()) else {
        return Err(BatchError::Invalid("give one first game per cell, and at least one cell".into()));
    };
    let n = first.factions.len();
    let mut starts = Vec::with_capacity(specs.len() + 1); // index of each cell's first game across the cells
    let mut total: u64 = 0;
    for (spec, &f) in specs.iter().zip(firsts) {
        spec.validate(db).map_err(BatchError::Invalid)?;
        if spec.factions.len() != n || spec.seed != first.seed || spec.threads != first.threads {
            return Err(BatchError::Invalid("the cells of one call must share their number of seats, seed and threads".into()));
        }
        f.checked_add(spec.games)
            .filter(|&e| e <= i64::MAX as u64)
            .ok_or_else(|| BatchError::Invalid(format!("first_game + games must be below 2^63, got {f} + {}", spec.games)))?;
        starts.push(total);
        total = total.checked_add(spec.games).filter(|&t| t <= i64::MAX as u64).ok_or_else(|| BatchError::Invalid("too many games in one call".into()))?;
    }
    starts.push(total);
    let mut c = Columns { n_seats: n, ..Default::default() };
    c.reserve(total)?;
    let locate = |j: u64| -> (usize, u64) {
        let k = starts.partition_point(|&s| s <= j) - 1;
        (k, firsts[k] + (j - starts[k]))
    };
    crate::harness::batch::run_blocks(
        total,
        Blocks::PerThread(BLOCK_PER_THREAD),
        first.threads,
        stop,
        |j| {
            let (k, i) = locate(j);
            (i, game_seed(specs[k].seed, i))
        },
        // one reusable game per worker
        || None,
        |slot, j| {
            let (k, i) = locate(j);
            Ok(play_one_stoppable(slot, db, &specs[k], i, false, false, record_plays, Some(stop)).0)
        },
        |r| c.push(&r),
    )?;
    Ok(c)
}
