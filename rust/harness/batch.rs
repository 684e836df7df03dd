//! The seeded batch runner over any [`Rules`]: game `i` of a batch is dealt from
//! `rng::game_seed(batch_seed, i)` and seat `s` draws its policy randomness from
//! `Rng::stream(seed, Stream::Policy0 + s)`, agents are built fresh for every game, and games are
//! played in fixed blocks of [`BLOCK`] in parallel and appended in game order — so the columns
//! never depend on the thread count.
//!
//! [`run_blocks`] is the one block runner of the crate: this generic batch and Kétharmad's own
//! fast batch (`batch::run_batch_stoppable`, `batch::run_cells_stoppable`) both play through it.

use super::agents::{make_agent, AgentSpec};
use super::{available_threads, on_pool, BatchError, Stop, MAX_THREADS};
use super::{play_out, Agent, Outcome, Rules};
use crate::rng::{game_seed, Rng, Stream};
use rayon::prelude::*;

/// How many games one parallel block of [`run_blocks`] holds. Results never depend on it
/// (they are appended in game order), only how many per-game results are held at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocks {
    /// A fixed number of games per block.
    Fixed(u64),
    /// This many games per worker thread of the pool the batch runs on.
    PerThread(u64),
}

/// The one seeded block runner: plays positions `0..games` of a batch in blocks (`blocks`),
/// each block in parallel on the pool of `threads` workers ([`on_pool`](super::on_pool); None: one
/// worker per core) with one reusable slot per worker (`init`, rayon's `map_init`: a
/// reusable game, buffers, or `()`), and hands the results to `push` in position order — so
/// what `push` sees never depends on the thread count or the block size.
///
/// - `play(slot, j)` plays position `j` (the caller maps it to its game: a cell, a first game).
/// - `label(j)` gives position `j`'s (game index, game seed), for the error of a game that
///   panics ("game 17 (seed …) panicked: …") and for the test hook `KETHARMAD_TEST_PANIC_GAME`
///   (the game of that index panics).
/// - `stop` is checked before every block and every game; a stop request wins over the results
///   of a block cut short by it (`BatchError::Stopped`).
/// - The first error (of `play`, of a panic, of `push`) in position order ends the batch.
// too_many_arguments: the runner's closures (label, init, play, push) are its interface; a struct would only rename them
#[allow(clippy::too_many_arguments)]
pub fn run_blocks<W, T, I, P, L, F>(games: u64, blocks: Blocks, threads: Option<usize>, stop: &Stop, label: L, init: I, play: P, mut push: F) -> Result<(), BatchError>
where
    T: Send,
    I: Fn() -> W + Sync + Send,
    P: Fn(&mut W, u64) -> Result<T, BatchError> + Sync + Send,
    L: Fn(u64) -> (u64, u64) + Sync,
    F: FnMut(T) -> Result<(), BatchError> + Send,
{
    // test hook: make game N panic, to check that a panic is reported with its game and seed
    let panic_at: Option<u64> = std::env::var("KETHARMAD_TEST_PANIC_GAME").ok().and_then(|v| v.parse().ok());
    let run = || -> Result<(), BatchError> {
        let block = match blocks {
            Blocks::Fixed(b) => b,
            Blocks::PerThread(b) => b * rayon::current_num_threads() as u64,
        }
        .max(1);
        let mut buf: Vec<Result<T, BatchError>> = Vec::new();
        let mut lo = 0;
        while lo < games {
            if stop.requested() {
                return Err(BatchError::Stopped);
            }
            let hi = games.min(lo + block);
            (0..(hi - lo) as usize)
                .into_par_iter()
                .map_init(&init, |slot, d| {
                    let j = lo + d as u64;
                    if stop.requested() {
                        return Err(BatchError::Stopped);
                    }
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        if panic_at.is_some() && panic_at == Some(label(j).0) {
                            panic!("test panic requested by KETHARMAD_TEST_PANIC_GAME");
                        }
                        play(slot, j)
                    }))
                    .map_err(|e| {
                        let (i, seed) = label(j);
                        BatchError::panicked(i, seed, &*e)
                    })?
                })
                .collect_into_vec(&mut buf);
            // a stop request wins over results of games cut short by it
            if stop.requested() {
                return Err(BatchError::Stopped);
            }
            for r in buf.drain(..) {
                push(r?)?;
            }
            lo = hi;
        }
        Ok(())
    };
    on_pool(threads, run)
}

/// Games per parallel block (fixed: the split never depends on the thread count).
pub const BLOCK: u64 = 4096;

/// A game stopping after this many actions is recorded as unfinished ("cap").
pub const MAX_ACTIONS_PER_GAME: u64 = 1_000_000;

/// Columns of a generic batch: one row per game, and one row per (game, seat).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenericColumns {
    pub game_name: &'static str,
    pub seats: usize,
    /// Side names per seat (asymmetric games) or empty.
    pub sides: Vec<&'static str>,
    /// The agent spec of each seat, as given.
    pub agents: Vec<String>,
    // per game
    pub game: Vec<u64>,
    pub seed: Vec<u64>,
    /// The winning seat, or -1 (draw, unfinished, or several winners: see `winners_mask`).
    pub winner: Vec<i64>,
    /// Bit s set: seat s is among the winners.
    pub winners_mask: Vec<u64>,
    pub turns: Vec<u32>,
    pub end_reason: Vec<&'static str>,
    pub unfinished: Vec<bool>,
    /// The Outcome's extra per-game columns, in the game's order.
    pub game_extra: Vec<(&'static str, Vec<f64>)>,
    // per (game, seat)
    pub seat_game: Vec<u64>,
    pub seat: Vec<u8>,
    pub seat_win: Vec<bool>,
    pub seat_return: Vec<f64>,
    pub seat_extra: Vec<(&'static str, Vec<f64>)>,
}

impl GenericColumns {
    pub fn len(&self) -> usize {
        self.game.len()
    }
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    fn push(&mut self, game: u64, seed: u64, o: &Outcome) -> Result<(), String> {
        if self.game.is_empty() {
            self.game_extra = o.game_columns.iter().map(|(n, _)| (*n, Vec::new())).collect();
            self.seat_extra = o.seat_columns.iter().map(|(n, _)| (*n, Vec::new())).collect();
        }
        if o.game_columns.len() != self.game_extra.len() || o.seat_columns.len() != self.seat_extra.len() {
            return Err(format!("game {game}: its outcome has other extra columns than the first game's"));
        }
        self.game.push(game);
        self.seed.push(seed);
        let mut mask = 0u64;
        for &w in &o.winners {
            mask |= 1u64 << w;
        }
        self.winner.push(if o.winners.len() == 1 { o.winners[0] as i64 } else { -1 });
        self.winners_mask.push(mask);
        self.turns.push(o.turns);
        self.end_reason.push(o.end_reason);
        self.unfinished.push(o.unfinished);
        for (col, (n, v)) in self.game_extra.iter_mut().zip(&o.game_columns) {
            if col.0 != *n {
                return Err(format!("game {game}: extra column '{n}' where '{}' was expected", col.0));
            }
            col.1.push(*v);
        }
        for s in 0..self.seats {
            self.seat_game.push(game);
            self.seat.push(s as u8);
            self.seat_win.push(mask >> s & 1 == 1);
            self.seat_return.push(o.returns.get(s).copied().unwrap_or(0.0));
        }
        for (col, (n, v)) in self.seat_extra.iter_mut().zip(&o.seat_columns) {
            if col.0 != *n || v.len() != self.seats {
                return Err(format!("game {game}: extra seat column '{n}' does not match"));
            }
            col.1.extend_from_slice(v);
        }
        Ok(())
    }

    /// Wins of `seat` (counting shared wins).
    pub fn wins(&self, seat: usize) -> u64 {
        self.winners_mask.iter().filter(|&&m| m >> seat & 1 == 1).count() as u64
    }
}

/// Build the agents of one game (checked once up front, then once per game).
pub(crate) fn build_agents<R: Rules>(rules: &R, specs: &[AgentSpec], values: &[f64], seats: usize) -> Result<Vec<Box<dyn Agent<R::State>>>, String>
where
    R::State: 'static,
{
    (0..seats).map(|s| make_agent(rules, &specs[s], values, seats, s)).collect()
}

/// Play game `game` of batch `batch_seed` with fresh agents; returns its seed and outcome.
pub fn play_game<R: Rules>(rules: &R, values: &[f64], seats: usize, specs: &[AgentSpec], batch_seed: u64, game: u64, stop: &Stop) -> Result<(u64, Outcome), String>
where
    R::State: 'static,
{
    let seed = game_seed(batch_seed, game);
    let mut s = rules.new_game(values, seats, batch_seed, game)?;
    let mut agents = build_agents(rules, specs, values, seats)?;
    for a in agents.iter_mut() {
        a.set_stop(stop);
    }
    let mut rngs: Vec<Rng> = (0..seats).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i as u64)).collect();
    let o = play_out(&mut s, &mut agents, &mut rngs, MAX_ACTIONS_PER_GAME);
    Ok((seed, o))
}

/// Run `games` games (indices 0..games) of `rules` with resolved parameter `values`, one agent
/// spec per seat, on `threads` threads (None: all cores).
pub fn run<R: Rules>(rules: &R, values: &[f64], seats: usize, agents: &[String], games: u64, batch_seed: u64, threads: Option<usize>) -> Result<GenericColumns, BatchError>
where
    R::State: 'static,
{
    run_range(rules, &GenericBatch { values, seats, agents, first: 0, games, seed: batch_seed, threads }, &Stop::new())
}

/// One batch of the generic harness: games `first .. first + games` of the batch with seed
/// `seed` (game `i` is dealt from `rng::game_seed(seed, i)`), `seats` seats with one agent spec
/// each, the resolved parameter `values` (one per registry entry), on `threads` workers (None:
/// one per core). [`run_range`] plays it into rows, [`reduce_range`](super::reduce::reduce_range)
/// into counts, [`check_batch`] checks it.
#[derive(Clone, Copy, Debug)]
pub struct GenericBatch<'a> {
    pub values: &'a [f64],
    pub seats: usize,
    pub agents: &'a [String],
    pub first: u64,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
}

/// Check a batch's inputs before any game (seat count, agent specs, parameter values and
/// combinations, threads, game range) and parse the agent specs: errors
/// ([`BatchError::Invalid`]) name the problem.
pub fn check_batch<R: Rules>(rules: &R, b: &GenericBatch) -> Result<Vec<AgentSpec>, BatchError>
where
    R::State: 'static,
{
    let GenericBatch { values, seats, agents, first, games, seed: batch_seed, threads } = *b;
    (|| -> Result<Vec<AgentSpec>, String> {
        let (lo, hi) = rules.seat_range();
        if seats < lo || seats > hi {
            return Err(format!("{} takes {lo} to {hi} seats, got {seats}", rules.name()));
        }
        if agents.len() != seats {
            return Err(format!("got {} agent specs for {seats} seats", agents.len()));
        }
        if values.len() != rules.registry().len() {
            return Err(format!("got {} parameter values, {} has {} parameters", values.len(), rules.name(), rules.registry().len()));
        }
        if threads == Some(0) {
            return Err("threads must be at least 1".into());
        }
        if let Some(t) = threads.filter(|&t| t > MAX_THREADS) {
            return Err(format!("threads must be at most {MAX_THREADS}, got {t}"));
        }
        first.checked_add(games).filter(|&e| e <= i64::MAX as u64).ok_or("first game + games must be below 2^63")?;
        let specs: Vec<AgentSpec> = agents.iter().map(|a| AgentSpec::parse(a)).collect::<Result<_, _>>()?;
        // bad agent names and options fail here, before any game
        build_agents(rules, &specs, values, seats)?;
        // and bad parameter combinations too
        rules.new_game(values, seats, batch_seed, first)?;
        Ok(specs)
    })()
    .map_err(BatchError::Invalid)
}

/// `run` over the games of `b` (`first .. first + games`), stoppable between games through `stop`
/// ([`BatchError::Stopped`]); a game that panics is [`BatchError::Panicked`] with its index and
/// seed, bad input [`BatchError::Invalid`], columns too large for memory [`BatchError::Memory`].
pub fn run_range<R: Rules>(rules: &R, b: &GenericBatch, stop: &Stop) -> Result<GenericColumns, BatchError>
where
    R::State: 'static,
{
    let specs = check_batch(rules, b)?;
    let GenericBatch { values, seats, agents, first, games, seed: batch_seed, threads } = *b;
    let mut c = GenericColumns { game_name: rules.name(), seats, sides: rules.sides(), agents: agents.to_vec(), ..Default::default() };
    let cap = usize::try_from(games).map_err(|_| BatchError::Invalid("too many games".into()))?;
    c.game.try_reserve(cap).map_err(|_| BatchError::Memory(format!("not enough memory for the columns of {games} games")))?;
    let threads = threads.unwrap_or_else(available_threads);
    run_blocks(
        games,
        Blocks::Fixed(BLOCK),
        Some(threads),
        stop,
        |j| (first + j, game_seed(batch_seed, first + j)),
        || (),
        |_, j| play_game(rules, values, seats, &specs, batch_seed, first + j, stop).map(|(seed, o)| (first + j, seed, o)).map_err(BatchError::Invalid),
        |(g, seed, o)| c.push(g, seed, &o).map_err(BatchError::Invalid),
    )?;
    Ok(c)
}

/// Wilson score interval for `k` successes in `n` trials at z (1.96 for 95 %).
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let mid = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((mid - half).max(0.0), (mid + half).min(1.0))
}

#[cfg(test)]
pub(crate) mod tests {
    //! A toy game (Nim with hidden piles) exercises the runner and the agents without any real
    //! game: take 1..=3 from a pile; whoever takes the last counter wins.
    use super::*;
    use crate::harness::{GameParam, GameState, ParamKind};

    #[derive(Clone)]
    pub(crate) struct Nim {
        left: u32,
        turn: usize,
        seats: usize,
        winner: Option<usize>,
        turns: u32,
    }

    impl GameState for Nim {
        fn seats(&self) -> usize {
            self.seats
        }
        fn to_move(&self) -> Option<usize> {
            if self.winner.is_some() {
                None
            } else {
                Some(self.turn)
            }
        }
        fn legal_actions(&self, out: &mut Vec<u32>) {
            out.clear();
            if self.winner.is_none() {
                out.extend((1..=3u32).filter(|&k| k <= self.left));
            }
        }
        fn apply(&mut self, a: u32) -> Result<(), String> {
            if self.winner.is_some() || a == 0 || a > 3 || a > self.left {
                return Err(format!("illegal action {a}"));
            }
            self.left -= a;
            self.turns += 1;
            if self.left == 0 {
                self.winner = Some(self.turn);
            }
            self.turn = (self.turn + 1) % self.seats;
            Ok(())
        }
        fn describe_action(&self, a: u32) -> String {
            format!("take {a}")
        }
        fn observe(&self, _seat: usize, out: &mut [f32]) {
            out[0] = self.left as f32;
        }
        fn determinize(&mut self, _seat: usize, _rng: &mut Rng) {}
        fn outcome(&self) -> Outcome {
            let w = self.winner;
            Outcome {
                winners: w.map(|w| vec![w as u8]).unwrap_or_default(),
                returns: (0..self.seats).map(|s| if w == Some(s) { 1.0 } else { -1.0 }).collect(),
                unfinished: false,
                end_reason: "last_counter",
                turns: self.turns,
                game_columns: vec![("start", 0.0)],
                seat_columns: vec![("took_last", (0..self.seats).map(|s| (w == Some(s)) as u8 as f64).collect())],
            }
        }
    }

    /// A game of `left` counters, seat 0 to move.
    pub(crate) fn nim_pile(left: u32, seats: usize) -> Nim {
        Nim { left, turn: 0, seats, winner: None, turns: 0 }
    }

    pub(crate) struct NimRules;
    impl Rules for NimRules {
        type State = Nim;
        fn name(&self) -> &'static str {
            "nim"
        }
        fn registry(&self) -> Vec<GameParam> {
            vec![GameParam { name: "rules.max_start".into(), default: 30.0, min: 4.0, max: 100.0, kind: ParamKind::Int, choices: Vec::new(), description: "largest pile".into() }]
        }
        fn seat_range(&self) -> (usize, usize) {
            (2, 3)
        }
        fn sides(&self) -> Vec<&'static str> {
            Vec::new()
        }
        fn action_space(&self, _: usize) -> usize {
            4
        }
        fn observation_len(&self, _: usize) -> usize {
            1
        }
        fn new_game(&self, v: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<Nim, String> {
            let mut r = Rng::stream(game_seed(batch_seed, game), Stream::Shuffle as u64);
            Ok(Nim { left: 4 + r.below(v[0] as usize - 3) as u32, turn: 0, seats, winner: None, turns: 0 })
        }
    }

    pub(crate) fn vals() -> Vec<f64> {
        crate::harness::resolve(&NimRules.registry(), &[]).unwrap()
    }

    #[test]
    fn one_and_two_threads_give_identical_columns() {
        let a = ["random".to_string(), "search:iterations=50".to_string()];
        let c1 = run(&NimRules, &vals(), 2, &a, 3000, 11, Some(1)).unwrap();
        let c2 = run(&NimRules, &vals(), 2, &a, 3000, 11, Some(2)).unwrap();
        assert_eq!(c1, c2);
        assert_eq!(c1.len(), 3000);
        assert_eq!(c1.seat.len(), 6000);
        assert_eq!(c1.seat_extra[0].0, "took_last");
        // every game has exactly one winner, and it took the last counter
        for i in 0..c1.len() {
            let w = c1.winner[i] as usize;
            assert!(w < 2);
            assert_eq!(c1.seat_extra[0].1[2 * i + w], 1.0);
        }
        // a different seed gives different games
        let c3 = run(&NimRules, &vals(), 2, &a, 3000, 12, Some(2)).unwrap();
        assert_ne!(c1.winner, c3.winner);
    }

    #[test]
    fn search_beats_random_at_nim() {
        // perfect play wins from any pile not a multiple of 4; the search must find most of it
        let a = ["search:iterations=300".to_string(), "random".to_string()];
        let c = run(&NimRules, &vals(), 2, &a, 400, 5, Some(2)).unwrap();
        let r = ["random".to_string(), "random".to_string()];
        let cr = run(&NimRules, &vals(), 2, &r, 400, 5, Some(2)).unwrap();
        assert!(c.wins(0) as f64 > cr.wins(0) as f64 + 80.0, "search {} vs random {}", c.wins(0), cr.wins(0));
    }

    #[test]
    fn bad_input_is_an_error_naming_it() {
        let v = vals();
        let invalid = |agents: &[String], seats: usize, what: &str| match run(&NimRules, &v, seats, agents, 10, 1, None) {
            Err(BatchError::Invalid(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("expected an Invalid error naming {what:?}, got {other:?}"),
        };
        invalid(&["random".into(), "greedy".into()], 2, "unknown agent 'greedy'");
        invalid(&vec!["random".to_string(); 4], 4, "2 to 3 seats");
        invalid(&["search:iters=3".into(), "random".into()], 2, "unknown option 'iters'");
        invalid(&["random".into()], 2, "1 agent specs for 2 seats");
        assert_eq!(AgentSpec::parse("search:iterations=7,rollout=random").unwrap().opt("iterations"), Some(&crate::harness::Value::Int(7)));
    }

    /// Nim whose game 7 panics while it is dealt (inside the batch, after the checks).
    struct BoomRules;
    impl Rules for BoomRules {
        type State = Nim;
        fn name(&self) -> &'static str {
            "boom"
        }
        fn registry(&self) -> Vec<GameParam> {
            NimRules.registry()
        }
        fn seat_range(&self) -> (usize, usize) {
            NimRules.seat_range()
        }
        fn sides(&self) -> Vec<&'static str> {
            Vec::new()
        }
        fn action_space(&self, seats: usize) -> usize {
            NimRules.action_space(seats)
        }
        fn observation_len(&self, seats: usize) -> usize {
            NimRules.observation_len(seats)
        }
        fn new_game(&self, v: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<Nim, String> {
            if game == 7 {
                panic!("boom at game {game}");
            }
            NimRules.new_game(v, seats, batch_seed, game)
        }
    }

    #[test]
    fn a_panic_is_a_typed_error_naming_its_game_and_seed_and_a_stop_is_stopped() {
        let a = ["random".to_string(), "random".to_string()];
        let e = run(&BoomRules, &vals(), 2, &a, 20, 11, Some(2)).unwrap_err();
        assert_eq!(e, BatchError::Panicked { game: 7, seed: game_seed(11, 7), message: "boom at game 7".into() });
        assert_eq!(e.to_string(), format!("game 7 (seed {}) panicked: boom at game 7", game_seed(11, 7)));
        let b = GenericBatch { values: &vals(), seats: 2, agents: &a, first: 0, games: 20, seed: 11, threads: Some(1) };
        let e = crate::harness::reduce::reduce_range(&BoomRules, &b, &Stop::new()).unwrap_err();
        assert!(matches!(e, BatchError::Panicked { game: 7, .. }), "{e}");
        // games before the one that panics are fine
        assert_eq!(run(&BoomRules, &vals(), 2, &a, 7, 11, Some(2)).unwrap().len(), 7);
        let stop = Stop::new();
        stop.request();
        assert_eq!(run_range(&NimRules, &GenericBatch { games: 50, threads: None, ..b }, &stop).unwrap_err(), BatchError::Stopped);
    }

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(50, 100, 1.96);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
    }
}
