//! Batches: per-game seeding, the rayon runner and columnar records. Results are gathered
//! in game order, so a batch gives the same rows on any number of threads.
//!
//! Process safety: a batch can be stopped between games through its own [`Stop`] token (a
//! search bot also looks at it between rollouts); the result columns are reserved up front
//! with fallible allocation, so a batch too large for memory is an error, never an abort;
//! games are played in blocks, so besides the columns only one block of per-game records is
//! held; thread pools are built once per size and reused.

use crate::bots::{BotSpec, Policy};
use crate::cards::{CardDb, FACTIONS};
use crate::engine::{Game, GameConfig};
use crate::rng::game_seed;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Most worker threads a batch accepts (`threads`); more is refused as a mistake.
pub const MAX_THREADS: usize = 1024;

/// A stop request for one batch (one call): cloned into the games it runs, set by whoever
/// wants the batch to end early (the Python binding on Ctrl-C). Not process-global, so
/// concurrent batches never stop each other.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }
    /// Ask every game of the batch to stop (between games; search bots between rollouts).
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Why a batch gave no columns.
#[derive(Clone, Debug, PartialEq)]
pub enum BatchError {
    /// Bad input (the message names it).
    Invalid(String),
    /// A game panicked: its index, seed and message.
    Panicked(String),
    /// The batch's [`Stop`] was requested before it finished.
    Stopped,
    /// The result columns could not be allocated (the message says how much was needed).
    Memory(String),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Invalid(m) | BatchError::Panicked(m) | BatchError::Memory(m) => f.write_str(m),
            BatchError::Stopped => f.write_str("the batch was stopped"),
        }
    }
}

/// Worker threads of the machine (1 if unknown).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Pools built so far (a test hook: repeated batches with the same `threads` build one).
static POOLS_BUILT: AtomicUsize = AtomicUsize::new(0);

pub fn pools_built() -> usize {
    POOLS_BUILT.load(Ordering::Relaxed)
}

/// The thread pools built so far, by size.
type PoolCache = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;

/// The rayon pool for `threads` workers: more threads than the machine has are not started
/// (the pool is capped at `available_threads()`; results never depend on the thread count),
/// and a pool is built once per size and reused by every later batch.
pub fn thread_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    static POOLS: OnceLock<PoolCache> = OnceLock::new();
    let n = threads.clamp(1, available_threads());
    let mut pools = POOLS.get_or_init(|| Mutex::new(Vec::new())).lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(k, _)| *k == n) {
        return Ok(p.clone());
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("ketharmad-{i}"))
            .build()
            .map_err(|e| format!("could not start {n} worker threads: {e}"))?,
    );
    POOLS_BUILT.fetch_add(1, Ordering::Relaxed);
    pools.push((n, pool.clone()));
    Ok(pool)
}

/// What to play.
#[derive(Clone, Debug)]
pub struct BatchSpec {
    pub factions: Vec<u8>,
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
        if !(2..=4).contains(&n) {
            return Err(format!("a game needs 2 to 4 decks, got {n}"));
        }
        if self.bots.len() != n {
            return Err(format!("got {} bot specs for {n} seats", self.bots.len()));
        }
        if self.games == 0 {
            return Err("games must be a positive number".into());
        }
        if !db.rules.allow_mirror {
            for i in 0..n {
                for j in 0..i {
                    if self.factions[i] == self.factions[j] {
                        return Err(format!(
                            "faction '{}' is used twice; set rules.allow_mirror = true for mirror matches",
                            FACTIONS[self.factions[i] as usize]
                        ));
                    }
                }
            }
        }
        if self.threads == Some(0) {
            return Err("threads must be at least 1".into());
        }
        if let Some(t) = self.threads.filter(|&t| t > MAX_THREADS) {
            return Err(format!("threads must be at most {MAX_THREADS}, got {t} (this machine has {} cores)", available_threads()));
        }
        let cards = self.factions.iter().map(|&f| db.decks[f as usize].len()).sum::<usize>()
            + db.newsfeed.len()
            + db.events.len()
            + db.tokens.iter().map(|&(_, k)| k as usize).sum::<usize>();
        if cards > 256 {
            return Err(format!("a game of these decks would hold {cards} cards (decks, Newsfeed, Events, tokens); at most 256 fit"));
        }
        Ok(())
    }
}

/// The result of one game.
#[derive(Clone, Debug, Default)]
pub struct GameResult {
    pub seed: u64,
    pub winner: i8,
    pub turns: i32,
    pub rounds: i32,
    pub end_reason: u8,
    pub start_player: i8,
    pub actions: i32,
    pub players: [SeatResult; 4],
    pub invariant_error: Option<String>,
    /// (seat, card definition, turn) of every card played, when recorded.
    pub plays: Vec<(u8, u16, u16)>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct SeatResult {
    pub support: i32,
    pub scandal: i32,
    pub eliminated: bool,
    pub eliminated_round: i32,
    pub cards_played: i32,
    pub attacks: i32,
    pub exposes: i32,
    pub mulligans: i8,
    pub turns: i32,
    pub main_decisions: i32,
    pub opening: u128,
    pub drawn: u128,
    pub played: u128,
    /// Search bots: rollouts played, and how many of them ended unfinished (a round or action
    /// cap, including the `rollout_rounds` bound) — 0 for other bots. Saturating.
    pub rollouts: u32,
    pub unfinished_rollouts: u32,
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
    let cfg = GameConfig { factions: spec.factions.clone(), seed, start_player: spec.start_player };
    let policies = Game::start_policy_streams(seed, spec.factions.len(), &spec.bots);
    let mut g = Game::new_reusing(db, &cfg, policies, slot.take());
    if let Some(stop) = stop {
        for p in g.policies.iter_mut() {
            if let Policy::Search(s) = p {
                s.stop = Some(stop.clone());
            }
        }
    }
    if log {
        g.log = Some(Vec::with_capacity(1024));
    }
    g.check_invariants = check;
    if record_plays {
        g.plays = Some(Vec::with_capacity(64));
    }
    let out = g.run(spec.start_player);
    let mut r = GameResult {
        seed,
        winner: out.winner.map_or(-1, |w| w as i8),
        turns: g.turn as i32,
        rounds: g.round as i32,
        end_reason: out.reason as u8,
        start_player: first_start(&g) as i8,
        actions: g.total_actions as i32,
        players: Default::default(),
        invariant_error: g.invariant_error.take(),
        plays: g.plays.take().unwrap_or_default(),
    };
    for (i, p) in g.players.iter().enumerate() {
        let (rollouts, unfinished_rollouts) = match g.policies.get(i) {
            Some(Policy::Search(s)) => (s.rollouts, s.unfinished_rollouts),
            _ => (0, 0),
        };
        r.players[i] = SeatResult {
            support: p.support,
            scandal: p.scandal,
            eliminated: !p.alive,
            eliminated_round: p.eliminated_round,
            cards_played: p.cards_played as i32,
            attacks: p.attacks as i32,
            exposes: p.exposes_total as i32,
            mulligans: p.mulligans as i8,
            turns: p.turns_taken as i32,
            main_decisions: p.main_decisions as i32,
            opening: p.opening,
            drawn: p.drawn,
            played: p.played,
            rollouts,
            unfinished_rollouts,
        };
    }
    let log = g.log.take();
    *slot = Some(g);
    (r, log)
}

/// The seat that took the first turn (the start player can move on elimination, E66).
fn first_start(g: &Game) -> usize {
    g.first_start_player
}

/// Columns of a batch, one entry per game (and per game × seat).
#[derive(Default, Debug)]
pub struct Columns {
    pub n_seats: usize,
    pub game: Vec<i64>,
    pub seed: Vec<u64>,
    pub winner: Vec<i8>,
    pub turns: Vec<i32>,
    pub rounds: Vec<i32>,
    pub end_reason: Vec<u8>,
    pub start_player: Vec<i8>,
    pub actions: Vec<i32>,
    pub p_game: Vec<i64>,
    pub p_seat: Vec<i8>,
    pub p_faction: Vec<u8>,
    pub p_won: Vec<bool>,
    pub p_support: Vec<i32>,
    pub p_scandal: Vec<i32>,
    pub p_eliminated: Vec<bool>,
    pub p_eliminated_round: Vec<i32>,
    pub p_cards_played: Vec<i32>,
    pub p_attacks: Vec<i32>,
    pub p_exposes: Vec<i32>,
    pub p_mulligans: Vec<i8>,
    pub p_turns: Vec<i32>,
    pub p_main_decisions: Vec<i32>,
    pub p_rollouts: Vec<u32>,
    pub p_unfinished_rollouts: Vec<u32>,
    /// Card records as 128-bit sets split in two u64 halves (bit = card definition index).
    pub p_opening: [Vec<u64>; 2],
    pub p_drawn: [Vec<u64>; 2],
    pub p_played: [Vec<u64>; 2],
    /// One row per card played (only with `record_plays`).
    pub play_game: Vec<i64>,
    pub play_seat: Vec<i8>,
    pub play_card: Vec<u16>,
    pub play_turn: Vec<u16>,
}

/// Bytes of the per-game columns of one game.
pub const GAME_ROW_BYTES: usize = 8 + 8 + 1 + 4 + 4 + 1 + 1 + 4;
/// Bytes of the per-seat columns of one game and seat.
pub const SEAT_ROW_BYTES: usize = 8 + 1 + 1 + 1 + 4 + 4 + 1 + 4 + 4 + 4 + 4 + 1 + 4 + 4 + 4 + 4 + 6 * 8;
/// Bytes of one row of the plays columns.
pub const PLAY_ROW_BYTES: usize = 8 + 1 + 2 + 2;

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

fn try_reserve<T>(v: &mut Vec<T>, n: usize) -> Result<(), ()> {
    v.try_reserve_exact(n).map_err(|_| ())
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
        (|| -> Result<(), ()> {
            try_reserve(&mut self.game, g)?;
            try_reserve(&mut self.seed, g)?;
            try_reserve(&mut self.winner, g)?;
            try_reserve(&mut self.turns, g)?;
            try_reserve(&mut self.rounds, g)?;
            try_reserve(&mut self.end_reason, g)?;
            try_reserve(&mut self.start_player, g)?;
            try_reserve(&mut self.actions, g)?;
            try_reserve(&mut self.p_game, gn)?;
            try_reserve(&mut self.p_seat, gn)?;
            try_reserve(&mut self.p_faction, gn)?;
            try_reserve(&mut self.p_won, gn)?;
            try_reserve(&mut self.p_support, gn)?;
            try_reserve(&mut self.p_scandal, gn)?;
            try_reserve(&mut self.p_eliminated, gn)?;
            try_reserve(&mut self.p_eliminated_round, gn)?;
            try_reserve(&mut self.p_cards_played, gn)?;
            try_reserve(&mut self.p_attacks, gn)?;
            try_reserve(&mut self.p_exposes, gn)?;
            try_reserve(&mut self.p_mulligans, gn)?;
            try_reserve(&mut self.p_turns, gn)?;
            try_reserve(&mut self.p_main_decisions, gn)?;
            try_reserve(&mut self.p_rollouts, gn)?;
            try_reserve(&mut self.p_unfinished_rollouts, gn)?;
            for col in [&mut self.p_opening, &mut self.p_drawn, &mut self.p_played] {
                try_reserve(&mut col[0], gn)?;
                try_reserve(&mut col[1], gn)?;
            }
            Ok(())
        })()
        .map_err(|_| fail())
    }

    /// Append game `i` (absolute index) of a batch played with `factions`.
    fn push(&mut self, i: u64, r: &GameResult, factions: &[u8]) -> Result<(), BatchError> {
        let n = self.n_seats;
        let i = i as i64;
        self.game.push(i);
        self.seed.push(r.seed);
        self.winner.push(r.winner);
        self.turns.push(r.turns);
        self.rounds.push(r.rounds);
        self.end_reason.push(r.end_reason);
        self.start_player.push(r.start_player);
        self.actions.push(r.actions);
        if !r.plays.is_empty() {
            let k = r.plays.len();
            (|| -> Result<(), ()> {
                try_reserve(&mut self.play_game, k)?;
                try_reserve(&mut self.play_seat, k)?;
                try_reserve(&mut self.play_card, k)?;
                try_reserve(&mut self.play_turn, k)
            })()
            .map_err(|_| {
                BatchError::Memory(format!(
                    "not enough memory for the card plays of game {i} ({} rows recorded so far); play fewer games per call or use chunk_size",
                    self.play_game.len()
                ))
            })?;
            for &(seat, card, turn) in &r.plays {
                self.play_game.push(i);
                self.play_seat.push(seat as i8);
                self.play_card.push(card);
                self.play_turn.push(turn);
            }
        }
        for s in 0..n {
            let p = &r.players[s];
            self.p_game.push(i);
            self.p_seat.push(s as i8);
            self.p_faction.push(factions[s]);
            self.p_won.push(r.winner == s as i8);
            self.p_support.push(p.support);
            self.p_scandal.push(p.scandal);
            self.p_eliminated.push(p.eliminated);
            self.p_eliminated_round.push(p.eliminated_round);
            self.p_cards_played.push(p.cards_played);
            self.p_attacks.push(p.attacks);
            self.p_exposes.push(p.exposes);
            self.p_mulligans.push(p.mulligans);
            self.p_turns.push(p.turns);
            self.p_main_decisions.push(p.main_decisions);
            self.p_rollouts.push(p.rollouts);
            self.p_unfinished_rollouts.push(p.unfinished_rollouts);
            for (col, v) in [(&mut self.p_opening, p.opening), (&mut self.p_drawn, p.drawn), (&mut self.p_played, p.played)] {
                col[0].push(v as u64);
                col[1].push((v >> 64) as u64);
            }
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

/// The text of a caught panic (its `String` or `&str` payload).
pub fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// Games per block and worker thread: a block is played in parallel, then appended to the
/// columns in game order, so only one block of per-game records is held at a time.
const BLOCK_PER_THREAD: u64 = 1024;

/// `run_batch_with` that ends early with `BatchError::Stopped` once `stop` is requested: it
/// is polled before every game (and by search bots before every rollout).
pub fn run_batch_stoppable(db: &CardDb, spec: &BatchSpec, record_plays: bool, first_game: u64, stop: &Stop) -> Result<Columns, BatchError> {
    spec.validate(db).map_err(BatchError::Invalid)?;
    let end = first_game
        .checked_add(spec.games)
        .filter(|&e| e <= i64::MAX as u64)
        .ok_or_else(|| BatchError::Invalid(format!("first_game + games must be below 2^63, got {first_game} + {}", spec.games)))?;
    let n = spec.factions.len();
    let mut c = Columns { n_seats: n, ..Default::default() };
    c.reserve(spec.games)?;
    // test hook: make game N panic, to check that a panic is reported with its game and seed
    let panic_at: Option<u64> = std::env::var("KETHARMAD_TEST_PANIC_GAME").ok().and_then(|v| v.parse().ok());
    let play_block = |lo: u64, hi: u64, out: &mut Vec<Result<GameResult, BatchError>>| {
        (0..(hi - lo) as usize)
            .into_par_iter()
            // one reusable game per worker
            .map_init(
                || None,
                |slot, k| {
                    let i = lo + k as u64;
                    if stop.requested() {
                        return Err(BatchError::Stopped);
                    }
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        if panic_at == Some(i) {
                            panic!("test panic requested by KETHARMAD_TEST_PANIC_GAME");
                        }
                        play_one_stoppable(slot, db, spec, i, false, false, record_plays, Some(stop)).0
                    }))
                    .map_err(|e| BatchError::Panicked(format!("game {i} (seed {}) panicked: {}", game_seed(spec.seed, i), panic_message(&*e))))
                },
            )
            .collect_into_vec(out);
    };
    let mut run = || -> Result<(), BatchError> {
        let block = BLOCK_PER_THREAD * rayon::current_num_threads() as u64;
        let mut buf = Vec::new();
        let mut lo = first_game;
        while lo < end {
            if stop.requested() {
                return Err(BatchError::Stopped);
            }
            let hi = end.min(lo + block);
            play_block(lo, hi, &mut buf);
            // a stop request wins over results of games cut short by it
            if stop.requested() {
                return Err(BatchError::Stopped);
            }
            for (k, r) in buf.drain(..).enumerate() {
                c.push(lo + k as u64, &r?, &spec.factions)?;
            }
            lo = hi;
        }
        Ok(())
    };
    match spec.threads {
        Some(t) => thread_pool(t).map_err(BatchError::Invalid)?.install(run)?,
        None => run()?,
    }
    Ok(c)
}
