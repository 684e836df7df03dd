//! Per-game trajectories for the game-health report (issue 27, `ketharmad.health`): the games
//! of a generic batch ([`GenericBatch`]: the same checks, the same deals, the same agents and
//! streams as [`run_range`](super::batch::run_range), so the same games and outcomes) played
//! with a sample of every seat's standing each time the game's clock (`GameState::clock`:
//! turns, days) moves on, never per action.
//!
//! A sample is one number per seat: the game's evaluation (`GameState::evaluate` with the
//! default weights of `Rules::eval_knobs`, a guess of each seat's return in -1..=1) when it has
//! one (Kétharmad, Schotten Totten 2), else the first chart score of each seat of its viewer's
//! picture (`GameState::view`: Osztrakon's position on the path). The leader at a sample is
//! the seat with the unique highest value (none on a tie); Python turns the samples into lead
//! changes, drama, decisiveness and comebacks (`python/ketharmad/lab/health.py`).
//!
//! Results are pushed in game order by the one block runner ([`run_blocks`]), so the columns
//! are the same on any thread count.

use super::batch::{build_agents, check_batch, run_blocks, Blocks, GenericBatch, BLOCK, MAX_ACTIONS_PER_GAME};
use super::{available_threads, BatchError, GameState, Outcome, Rules, Stop};
use crate::rng::{game_seed, Rng, Stream};

/// What a sample's numbers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `GameState::evaluate` with the game's default evaluation weights.
    Evaluation,
    /// The first chart score of each seat (`GameState::view`).
    ViewScore,
    /// Neither: no samples are recorded.
    None,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Evaluation => "evaluation",
            Source::ViewScore => "view_score",
            Source::None => "none",
        }
    }
}

/// The trajectories of a batch: one row per game, one row per sample (`seats` values each).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectories {
    pub seats: usize,
    /// Per game: its index in the batch, the winners (bit per seat), turns, unfinished, the
    /// start seat (the game column `start_player` when the game has one, else 0) and how many
    /// samples it has.
    pub game: Vec<u64>,
    pub winners_mask: Vec<u64>,
    pub turns: Vec<u32>,
    pub unfinished: Vec<bool>,
    pub start: Vec<u8>,
    pub samples: Vec<u32>,
    /// Per sample: the game's position in this batch (0-based row of the game columns), the
    /// game's clock when the sample was taken, and `seats` values (seat order).
    pub sample_game: Vec<u32>,
    pub sample_clock: Vec<u32>,
    pub value: Vec<f32>,
    /// What the values are (the same for every game of a game type).
    pub source: Option<Source>,
}

/// One played game: its outcome, and its samples' clocks and values.
struct Trace {
    game: u64,
    outcome: Outcome,
    clock: Vec<u32>,
    value: Vec<f32>,
    source: Source,
}

/// Each worker's scratch, reused from game to game: the legal ids, the evaluation's output,
/// and the sample count of its last game (the next game's buffers are reserved to it).
struct Scratch {
    legal: Vec<u32>,
    eval: Vec<f64>,
    last_samples: usize,
}

/// The seats' values now into `out` (`seats` of them): the evaluation or the view's scores.
fn sample<S: GameState>(s: &S, weights: &[f64], scratch: &mut [f64], out: &mut Vec<f32>) -> Source {
    let n = s.seats();
    if s.has_evaluation() && s.evaluate(weights, &mut scratch[..n]) {
        out.extend(scratch[..n].iter().map(|&x| x as f32));
        return Source::Evaluation;
    }
    let v = s.view();
    if v.scores.is_empty() {
        return Source::None;
    }
    for seat in 0..n {
        out.push(v.scores.iter().find(|x| x.seat == seat).map_or(f32::NAN, |x| x.value as f32));
    }
    Source::ViewScore
}

/// Play game `game` of the batch as `batch::play_game` does (the same deal, fresh agents, the
/// seats' streams), sampling every seat's value each time the clock moves on while the game
/// runs.
fn play_traced<R: Rules>(rules: &R, b: &GenericBatch, specs: &[super::agents::AgentSpec], weights: &[f64], game: u64, stop: &Stop, w: &mut Scratch) -> Result<Trace, String>
where
    R::State: 'static,
{
    let seed = game_seed(b.seed, game);
    let mut s = rules.new_game(b.values, b.seats, b.seed, game)?;
    let mut agents = build_agents(rules, specs, b.values, b.seats)?;
    for a in agents.iter_mut() {
        a.set_stop(stop);
    }
    let mut rngs: Vec<Rng> = (0..b.seats).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i as u64)).collect();
    let mut clock = Vec::with_capacity(w.last_samples + 8);
    let mut value = Vec::with_capacity((w.last_samples + 8) * b.seats);
    let mut source = Source::None;
    w.eval.resize(b.seats.max(w.eval.len()), 0.0);
    let mut last = s.clock();
    let mut n = 0u64;
    // the loop of `harness::play_out`, with a sample each time the clock moves on
    let outcome = loop {
        let Some(seat) = s.to_move() else { break s.outcome() };
        if n >= MAX_ACTIONS_PER_GAME {
            let mut o = s.outcome();
            o.unfinished = true;
            o.winners.clear();
            o.end_reason = "cap";
            break o;
        }
        s.legal_actions(&mut w.legal);
        let a = agents[seat].act(&s, &w.legal, &mut rngs[seat]);
        if s.apply(a).is_err() {
            let mut o = s.outcome();
            o.unfinished = true;
            o.winners.clear();
            o.end_reason = "illegal_action";
            break o;
        }
        n += 1;
        let c = s.clock();
        if c != last && s.to_move().is_some() {
            last = c;
            let got = sample(&s, weights, &mut w.eval, &mut value);
            if got != Source::None {
                source = got;
                clock.push(c);
            }
        }
    };
    w.last_samples = clock.len();
    Ok(Trace { game, outcome, clock, value, source })
}

/// The trajectories of the games of `b` (`first .. first + games`), stoppable between games;
/// errors as [`run_range`](super::batch::run_range)'s.
pub fn record_range<R: Rules>(rules: &R, b: &GenericBatch, stop: &Stop) -> Result<Trajectories, BatchError>
where
    R::State: 'static,
{
    let specs = check_batch(rules, b)?;
    if b.games > u32::MAX as u64 {
        return Err(BatchError::Invalid(format!("a trajectory batch holds at most {} games, got {}", u32::MAX, b.games)));
    }
    let weights: Vec<f64> = rules.eval_knobs().iter().map(|k| k.default).collect();
    let cap = b.games as usize;
    let mut t = Trajectories { seats: b.seats, ..Default::default() };
    let reserve = |t: &mut Trajectories| -> Result<(), std::collections::TryReserveError> {
        t.game.try_reserve(cap)?;
        t.winners_mask.try_reserve(cap)?;
        t.turns.try_reserve(cap)?;
        t.unfinished.try_reserve(cap)?;
        t.start.try_reserve(cap)?;
        t.samples.try_reserve(cap)
    };
    reserve(&mut t).map_err(|_| BatchError::Memory(format!("not enough memory for the trajectories of {} games", b.games)))?;
    let (first, batch_seed) = (b.first, b.seed);
    let threads = b.threads.unwrap_or_else(available_threads);
    run_blocks(
        b.games,
        Blocks::Fixed(BLOCK),
        Some(threads),
        stop,
        |j| (first + j, game_seed(batch_seed, first + j)),
        || Scratch { legal: Vec::with_capacity(64), eval: Vec::new(), last_samples: 0 },
        |w, j| play_traced(rules, b, &specs, &weights, first + j, stop, w).map_err(BatchError::Invalid),
        |tr| {
            let row = t.game.len() as u32;
            t.game.push(tr.game);
            t.winners_mask.push(tr.outcome.winners.iter().fold(0u64, |m, &s| m | 1 << s));
            t.turns.push(tr.outcome.turns);
            t.unfinished.push(tr.outcome.unfinished);
            let start = tr.outcome.game_columns.iter().find(|c| c.0 == "start_player").map_or(0.0, |c| c.1);
            t.start.push(start as u8);
            t.samples.push(tr.clock.len() as u32);
            if !tr.clock.is_empty() {
                t.source = Some(tr.source);
            }
            // the sample columns grow with the games: an allocation failure is an error, not an abort
            t.value
                .try_reserve(tr.value.len())
                .and(t.sample_clock.try_reserve(tr.clock.len()))
                .and(t.sample_game.try_reserve(tr.clock.len()))
                .map_err(|_| BatchError::Memory(format!("not enough memory for the samples of game {}", tr.game)))?;
            t.sample_game.extend(std::iter::repeat_n(row, tr.clock.len()));
            t.sample_clock.extend_from_slice(&tr.clock);
            t.value.extend_from_slice(&tr.value);
            Ok(())
        },
    )?;
    if t.source.is_none() {
        t.source = Some(Source::None);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::osztrakon::Osztrakon;
    use crate::games::schotten_totten2::SchottenTotten2;
    use crate::harness::batch::run_range;
    use crate::harness::resolve;

    fn batch<'a>(values: &'a [f64], agents: &'a [String], games: u64, threads: usize) -> GenericBatch<'a> {
        GenericBatch { values, seats: agents.len(), agents, first: 3, games, seed: 17, threads: Some(threads) }
    }

    /// The recorder plays the batch's games: the same winners and turns as `run_range`.
    #[test]
    fn plays_the_games_of_the_batch_and_does_not_depend_on_threads() {
        let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
        let a = vec!["greedy".to_string(), "random".to_string()];
        let stop = Stop::new();
        let t1 = record_range(&SchottenTotten2, &batch(&v, &a, 60, 1), &stop).unwrap();
        let t2 = record_range(&SchottenTotten2, &batch(&v, &a, 60, 2), &stop).unwrap();
        assert_eq!(t1, t2);
        let rows = run_range(&SchottenTotten2, &batch(&v, &a, 60, 2), &stop).unwrap();
        assert_eq!(t1.game, rows.game);
        assert_eq!(t1.turns, rows.turns);
        assert_eq!(t1.winners_mask, rows.winners_mask);
        assert_eq!(t1.source, Some(Source::Evaluation));
        // one sample per turn at most, each with one value per seat, clocks rising within a game
        assert_eq!(t1.samples.iter().map(|&k| k as usize).sum::<usize>(), t1.sample_clock.len());
        assert_eq!(t1.value.len(), 2 * t1.sample_clock.len());
        for (i, &k) in t1.samples.iter().enumerate() {
            assert!(k <= t1.turns[i], "game {i}: {k} samples in {} turns", t1.turns[i]);
            assert!(k > 0, "game {i} has no sample");
        }
        for w in t1.sample_game.windows(2).zip(t1.sample_clock.windows(2)) {
            assert!(w.0[0] < w.0[1] || (w.0[0] == w.0[1] && w.1[0] < w.1[1]));
        }
        assert!(t1.value.iter().all(|x| (-1.0..=1.0).contains(x)));
    }

    /// A game without an evaluation samples its viewer's chart scores (Osztrakon: positions).
    #[test]
    fn a_game_without_an_evaluation_samples_its_view_scores() {
        let v = resolve(&Osztrakon.registry(), &[]).unwrap();
        let a = vec!["b1".to_string(); 5];
        let stop = Stop::new();
        let t = record_range(&Osztrakon, &batch(&v, &a, 40, 2), &stop).unwrap();
        assert_eq!(t.source, Some(Source::ViewScore));
        assert_eq!(t.game.len(), 40);
        assert_eq!(t.value.len(), 5 * t.sample_clock.len());
        assert!(t.value.iter().all(|x| x.is_finite()));
        let rows = run_range(&Osztrakon, &batch(&v, &a, 40, 1), &stop).unwrap();
        assert_eq!(t.turns, rows.turns);
    }

    #[test]
    fn bad_input_is_the_error_of_the_row_batch() {
        let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
        let a = vec!["greedy".to_string(), "nobody".to_string()];
        let e = record_range(&SchottenTotten2, &batch(&v, &a, 5, 1), &Stop::new()).unwrap_err();
        assert!(matches!(&e, BatchError::Invalid(m) if m.contains("nobody")), "{e}");
    }
}
