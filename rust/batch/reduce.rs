//! Reductions: a range of a batch's games played into sufficient statistics instead of rows.
//!
//! [`reduce_batch_stoppable`] plays games `first_game .. first_game + spec.games` exactly as
//! [`super::run_batch_stoppable`] does (same per-game seeds, so the same games) and keeps only
//! integer counts ([`Stats`]): games, wins per seat and per faction, unfinished games, the sum
//! of turns and of squared turns, a histogram of game length in turns and the end-reason
//! counts, and the same for rounds (sum, histogram), with the longest game in turns and in
//! rounds. Every field is a sum (or a maximum) of per-game integers, so a merge ([`Stats::merge`]) is exact
//! and the result does not depend on the thread count or on how a range is cut into pieces.
//! Memory does not grow with the number of games: each rayon job keeps one accumulator and one
//! reusable game, merged at the end; no per-game record is kept.

use super::{game_seed, play_one_stoppable, BatchSpec, GameResult};
use crate::cards::{CardDb, FACTIONS};
use crate::engine::{EndReason, Game, MAX_SEATS};
use crate::harness::{on_pool, BatchError, Stop};
use rayon::prelude::*;

/// Bins of the game-length histograms: bin `t` counts games of `t` turns (rounds) for `t`
/// below `TURN_BINS`; the last bin (`turns_hist[TURN_BINS]`) counts the longer ones.
pub const TURN_BINS: usize = 256;

/// Sufficient statistics of a range of games of one batch (one deck list). Pure integer
/// counts: merging is exact and associative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    pub n_seats: usize,
    pub games: u64,
    /// Games won by each seat (the first `n_seats` entries are used).
    pub wins_seat: [u64; MAX_SEATS],
    /// Games won by a seat of each faction (`FACTIONS` order).
    pub wins_faction: [u64; FACTIONS.len()],
    /// (game, seat) pairs played by each faction (`FACTIONS` order): games × seats of it.
    pub seats_faction: [u64; FACTIONS.len()],
    /// Games without a winner (a round or action cap).
    pub unfinished: u64,
    /// Sum of the games' turns, and of their squares.
    pub turns_sum: u64,
    pub turns_sq_sum: u128,
    /// Games per length in turns: `turns_hist[t]` for `t < TURN_BINS`, then the overflow bin.
    pub turns_hist: Box<[u64; TURN_BINS + 1]>,
    /// The longest game in turns (0 without games).
    pub turns_max: u64,
    /// Sum of the games' rounds, their histogram (bins as `turns_hist`) and the longest game in rounds.
    pub rounds_sum: u64,
    pub rounds_hist: Box<[u64; TURN_BINS + 1]>,
    pub rounds_max: u64,
    /// Games per end reason (`EndReason` code order).
    pub end_reasons: [u64; EndReason::NAMES.len()],
}

impl Stats {
    /// Empty statistics of an `n_seats`-seat batch.
    pub fn new(n_seats: usize) -> Stats {
        Stats {
            n_seats,
            games: 0,
            wins_seat: [0; MAX_SEATS],
            wins_faction: [0; FACTIONS.len()],
            seats_faction: [0; FACTIONS.len()],
            unfinished: 0,
            turns_sum: 0,
            turns_sq_sum: 0,
            turns_hist: Box::new([0; TURN_BINS + 1]),
            turns_max: 0,
            rounds_sum: 0,
            rounds_hist: Box::new([0; TURN_BINS + 1]),
            rounds_max: 0,
            end_reasons: [0; EndReason::NAMES.len()],
        }
    }

    /// Count one finished game played with `factions`.
    #[inline]
    pub fn add_game(&mut self, r: &GameResult, factions: &[u8]) {
        self.games += 1;
        for &f in factions {
            self.seats_faction[f as usize] += 1;
        }
        if r.winner >= 0 {
            self.wins_seat[r.winner as usize] += 1;
            self.wins_faction[factions[r.winner as usize] as usize] += 1;
        } else {
            self.unfinished += 1;
        }
        let t = r.turns.max(0) as u64;
        self.turns_sum += t;
        self.turns_sq_sum += (t as u128) * (t as u128);
        self.turns_hist[(t as usize).min(TURN_BINS)] += 1;
        self.turns_max = self.turns_max.max(t);
        let rounds = r.rounds.max(0) as u64;
        self.rounds_sum += rounds;
        self.rounds_hist[(rounds as usize).min(TURN_BINS)] += 1;
        self.rounds_max = self.rounds_max.max(rounds);
        self.end_reasons[r.end_reason as usize] += 1;
    }

    /// Add `other` (statistics of other games of a batch with the same seats).
    pub fn merge(&mut self, other: &Stats) -> Result<(), String> {
        if other.n_seats != self.n_seats {
            return Err(format!("cannot merge statistics of {}-seat and {}-seat games", self.n_seats, other.n_seats));
        }
        self.games += other.games;
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.wins_seat, &other.wins_seat);
        add(&mut self.wins_faction, &other.wins_faction);
        add(&mut self.seats_faction, &other.seats_faction);
        add(&mut self.turns_hist[..], &other.turns_hist[..]);
        add(&mut self.rounds_hist[..], &other.rounds_hist[..]);
        self.turns_max = self.turns_max.max(other.turns_max);
        self.rounds_max = self.rounds_max.max(other.rounds_max);
        self.rounds_sum += other.rounds_sum;
        add(&mut self.end_reasons, &other.end_reasons);
        self.unfinished += other.unfinished;
        self.turns_sum += other.turns_sum;
        self.turns_sq_sum += other.turns_sq_sum;
        Ok(())
    }
}

/// What one rayon job keeps: its reusable game and its running statistics.
struct Acc<'db> {
    slot: Option<Game<'db>>,
    stats: Stats,
}

/// Play games `first_game .. first_game + spec.games` of the batch and return their
/// statistics (the games of `run_batch_stoppable` with the same arguments). Ends early with
/// `BatchError::Stopped` once `stop` is requested; a game that panics is reported with its
/// index and seed.
pub fn reduce_batch_stoppable(db: &CardDb, spec: &BatchSpec, first_game: u64, stop: &Stop) -> Result<Stats, BatchError> {
    spec.validate(db).map_err(BatchError::Invalid)?;
    let end = first_game
        .checked_add(spec.games)
        .filter(|&e| e <= i64::MAX as u64)
        .ok_or_else(|| BatchError::Invalid(format!("first_game + games must be below 2^63, got {first_game} + {}", spec.games)))?;
    let n = spec.factions.len();
    // test hook shared with run_batch: make game N panic
    let panic_at: Option<u64> = std::env::var("KETHARMAD_TEST_PANIC_GAME").ok().and_then(|v| v.parse().ok());
    let run = || -> Result<Stats, BatchError> {
        (first_game..end)
            .into_par_iter()
            .try_fold(
                || Box::new(Acc { slot: None, stats: Stats::new(n) }),
                |mut acc, i| {
                    if stop.requested() {
                        return Err(BatchError::Stopped);
                    }
                    let slot = &mut acc.slot;
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        if panic_at == Some(i) {
                            panic!("test panic requested by KETHARMAD_TEST_PANIC_GAME");
                        }
                        play_one_stoppable(slot, db, spec, i, false, false, false, Some(stop)).0
                    }))
                    .map_err(|e| BatchError::panicked(i, game_seed(spec.seed, i), &*e))?;
                    acc.stats.add_game(&r, &spec.factions);
                    Ok(acc)
                },
            )
            .map(|acc| acc.map(|a| a.stats))
            .try_reduce(
                || Stats::new(n),
                |mut a, b| {
                    a.merge(&b).map_err(BatchError::Invalid)?;
                    Ok(a)
                },
            )
    };
    let stats = on_pool(spec.threads, run);
    // a stop request wins over the statistics of games cut short by it
    if stop.requested() {
        return Err(BatchError::Stopped);
    }
    stats
}
