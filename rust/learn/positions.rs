//! Self-play positions for training a value model (issue 26): games of any harness game
//! played by the batch's agents, with every seat's features (`GameState::features`) recorded
//! at a sample of the key decisions (`GameState::key_decision`) and labelled afterwards with
//! the game's result for that seat (1 a win, 0 a loss, ½ a game without a winner): Monte-Carlo
//! targets. Game `i` is dealt and played exactly as in `harness::batch::run_range`, and the
//! sample is drawn from a stream of its own, so the rows never depend on the thread count and
//! recording never changes a game.

use crate::harness::batch::{build_agents, check_batch, run_blocks, Blocks, GenericBatch, BLOCK, MAX_ACTIONS_PER_GAME};
use crate::harness::{available_threads, BatchError, GameState, Rules, Stop};
use crate::rng::{game_seed, Rng, Stream};

/// Recorded positions as columns: row `r` is seat `seat[r]` of game `game[r]` at a decision
/// of clock `clock[r]` (the game's turns), with features `x[r * width .. (r + 1) * width]`
/// and target `y[r]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Positions {
    pub width: usize,
    pub game: Vec<u64>,
    pub seat: Vec<u8>,
    pub clock: Vec<u32>,
    /// The seat to move at that decision (it is `seat` on one row of each decision).
    pub to_move: Vec<u8>,
    pub x: Vec<f32>,
    pub y: Vec<f32>,
}

/// Error unless `rate` is a sampling rate in (0, 1].
pub(crate) fn check_rate(rate: f64) -> Result<(), BatchError> {
    if rate > 0.0 && rate <= 1.0 {
        Ok(())
    } else {
        Err(BatchError::Invalid(format!("the sampling rate must be in (0, 1], got {rate}")))
    }
}

/// One draw of the sample's own stream: true with probability `rate`.
#[inline]
pub(crate) fn sampled(pick: &mut Rng, rate: f64) -> bool {
    ((pick.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)) < rate
}

/// The training target of `seat` in a game that ended with `o`: 1 a win, 0 a loss, ½ a game
/// without a winner or not `finished`.
pub(crate) fn result_of(o: &crate::harness::Outcome, finished: bool, seat: u8) -> f32 {
    if !finished || o.winners.is_empty() {
        0.5
    } else if o.winners.contains(&seat) {
        1.0
    } else {
        0.0
    }
}

/// Play the games of `b` and record positions: at each key decision with probability `rate`
/// (0 < rate ≤ 1) every seat's features. Errors name bad input (a game without features, a
/// bad rate, the batch's own checks) before any game.
pub fn record<R: Rules>(rules: &R, b: &GenericBatch, rate: f64, stop: &Stop) -> Result<Positions, BatchError>
where
    R::State: 'static,
{
    let (_, names) = rules.features();
    if names.is_empty() {
        return Err(BatchError::Invalid(format!("{} has no position features to record", rules.name())));
    }
    check_rate(rate)?;
    let specs = check_batch(rules, b)?;
    let GenericBatch { values, seats, first, games, seed: batch_seed, threads, .. } = *b;
    let width = names.len();
    let mut out = Positions { width, ..Default::default() };
    let threads = threads.unwrap_or_else(available_threads);
    run_blocks(
        games,
        Blocks::Fixed(BLOCK),
        Some(threads),
        stop,
        |j| (first + j, game_seed(batch_seed, first + j)),
        || (),
        |_, j| {
            let g = first + j;
            let seed = game_seed(batch_seed, g);
            let mut s = rules.new_game(values, seats, batch_seed, g).map_err(BatchError::Invalid)?;
            let mut agents = build_agents(rules, &specs, values, seats).map_err(BatchError::Invalid)?;
            for a in agents.iter_mut() {
                a.set_stop(stop);
            }
            let mut rngs: Vec<Rng> = (0..seats).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i as u64)).collect();
            // the sample's own stream: recording draws nothing from the game's or the agents'
            let mut pick = Rng::stream(seed ^ 0x6c65_6172_6e5f_7073, 0);
            let mut p = Positions { width, ..Default::default() };
            let mut legal = Vec::with_capacity(64);
            let mut n = 0u64;
            while let Some(seat) = s.to_move() {
                if n >= MAX_ACTIONS_PER_GAME {
                    break;
                }
                if s.key_decision() && sampled(&mut pick, rate) {
                    for q in 0..seats {
                        let at = p.x.len();
                        p.x.resize(at + width, 0.0);
                        s.features(q, &mut p.x[at..]);
                        p.game.push(g);
                        p.seat.push(q as u8);
                        p.clock.push(s.clock());
                        p.to_move.push(seat as u8);
                    }
                }
                s.legal_actions(&mut legal);
                let a = agents[seat].act(&s, &legal, &mut rngs[seat]);
                if s.apply(a).is_err() {
                    break;
                }
                n += 1;
            }
            let o = s.outcome();
            let finished = s.to_move().is_none() && !o.unfinished;
            p.y.extend(p.seat.iter().map(|&q| result_of(&o, finished, q)));
            Ok(p)
        },
        |p| {
            out.game.extend_from_slice(&p.game);
            out.seat.extend_from_slice(&p.seat);
            out.clock.extend_from_slice(&p.clock);
            out.to_move.extend_from_slice(&p.to_move);
            out.x.extend_from_slice(&p.x);
            out.y.extend_from_slice(&p.y);
            Ok(())
        },
    )?;
    Ok(out)
}
