//! Labelled decisions for training a policy (issue 26, expert iteration): games of any
//! harness game whose `GameState::option_features` describes the options, with the position
//! features of the seat to move, every option's features and the option a teacher chose, at
//! a sample of the key decisions with two or more options.
//!
//! The games are played by the batch's agents; the label is the teacher's choice at that
//! decision (`teachers`, one spec per seat, asked on a stream of their own so the games do not
//! change; None: the playing agent's own choice). Playing the student and labelling with the
//! search is the DAgger form of the loop: the positions are the student's, the answers the
//! teacher's. Game `i` is dealt as in `harness::batch::run_range`; rows never depend on the
//! thread count.

use crate::harness::agents::AgentSpec;
use crate::harness::batch::{build_agents, check_batch, run_blocks, Blocks, GenericBatch, BLOCK, MAX_ACTIONS_PER_GAME};
use crate::harness::{available_threads, BatchError, GameState, Rules, Stop};
use crate::rng::{game_seed, Rng, Stream};

use super::positions::{check_rate, result_of, sampled};

/// Labelled decisions as columns: decision `d` is seat `seat[d]`'s, in game `game[d]`, its
/// position features `x[d * width ..]`, its options `opt_x[offsets[d] * opt_width ..
/// offsets[d + 1] * opt_width]` (in legal order), the teacher's option `choice[d]` (an index
/// among them) and the seat's result `y[d]` (1 a win, 0 a loss, ½ none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choices {
    pub width: usize,
    pub opt_width: usize,
    pub game: Vec<u64>,
    pub seat: Vec<u8>,
    pub clock: Vec<u32>,
    pub x: Vec<f32>,
    pub offsets: Vec<u64>,
    pub opt_x: Vec<f32>,
    pub choice: Vec<u32>,
    pub y: Vec<f32>,
}

/// Play the games of `b` and record labelled decisions at a `rate` sample of the key
/// decisions with two or more options. `teachers`: one agent spec per seat whose choice is
/// the label (None: the playing agents' choices).
pub fn record<R: Rules>(rules: &R, b: &GenericBatch, teachers: Option<&[String]>, rate: f64, stop: &Stop) -> Result<Choices, BatchError>
where
    R::State: 'static,
{
    let (_, names) = rules.features();
    let (_, opt_names) = rules.option_features();
    if names.is_empty() || opt_names.is_empty() {
        return Err(BatchError::Invalid(format!("{} has no position or option features to record", rules.name())));
    }
    check_rate(rate)?;
    let specs = check_batch(rules, b)?;
    let GenericBatch { values, seats, first, games, seed: batch_seed, threads, .. } = *b;
    let teacher_specs: Option<Vec<AgentSpec>> = match teachers {
        None => None,
        Some(t) if t.len() != seats => return Err(BatchError::Invalid(format!("got {} teacher specs for {seats} seats", t.len()))),
        Some(t) => {
            let s: Vec<AgentSpec> = t.iter().map(|a| AgentSpec::parse(a)).collect::<Result<_, _>>().map_err(BatchError::Invalid)?;
            build_agents(rules, &s, values, seats).map_err(BatchError::Invalid)?;
            Some(s)
        }
    };
    let (width, opt_width) = (names.len(), opt_names.len());
    let mut out = Choices { width, opt_width, offsets: vec![0], ..Default::default() };
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
            let mut teach = match &teacher_specs {
                Some(t) => Some(build_agents(rules, t, values, seats).map_err(BatchError::Invalid)?),
                None => None,
            };
            for a in agents.iter_mut().chain(teach.iter_mut().flatten()) {
                a.set_stop(stop);
            }
            let mut rngs: Vec<Rng> = (0..seats).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i as u64)).collect();
            let mut trngs: Vec<Rng> = (0..seats).map(|i| Rng::stream(seed ^ 0x7465_6163_6865_7273, i as u64)).collect();
            let mut pick = Rng::stream(seed ^ 0x6c65_6172_6e5f_6368, 0);
            let mut c = Choices { width, opt_width, ..Default::default() };
            let mut sizes: Vec<u64> = Vec::new();
            let mut legal = Vec::with_capacity(64);
            let mut opts = Vec::new();
            let mut n = 0u64;
            while let Some(seat) = s.to_move() {
                if n >= MAX_ACTIONS_PER_GAME {
                    break;
                }
                s.legal_actions(&mut legal);
                let sampled = legal.len() >= 2 && s.key_decision() && sampled(&mut pick, rate);
                let a = agents[seat].act(&s, &legal, &mut rngs[seat]);
                if sampled && s.option_features(&mut opts) && opts.len() == legal.len() * opt_width {
                    let label = match teach.as_mut() {
                        Some(t) => t[seat].act(&s, &legal, &mut trngs[seat]),
                        None => a,
                    };
                    if let Some(i) = legal.iter().position(|&x| x == label) {
                        let at = c.x.len();
                        c.x.resize(at + width, 0.0);
                        s.features(seat, &mut c.x[at..]);
                        c.opt_x.extend_from_slice(&opts);
                        sizes.push(legal.len() as u64);
                        c.choice.push(i as u32);
                        c.game.push(g);
                        c.seat.push(seat as u8);
                        c.clock.push(s.clock());
                    }
                }
                if s.apply(a).is_err() {
                    break;
                }
                n += 1;
            }
            let o = s.outcome();
            let finished = s.to_move().is_none() && !o.unfinished;
            c.y.extend(c.seat.iter().map(|&q| result_of(&o, finished, q)));
            c.offsets = sizes;
            Ok(c)
        },
        |c| {
            let mut end = *out.offsets.last().unwrap_or(&0);
            for k in &c.offsets {
                end += k;
                out.offsets.push(end);
            }
            out.game.extend_from_slice(&c.game);
            out.seat.extend_from_slice(&c.seat);
            out.clock.extend_from_slice(&c.clock);
            out.x.extend_from_slice(&c.x);
            out.opt_x.extend_from_slice(&c.opt_x);
            out.choice.extend_from_slice(&c.choice);
            out.y.extend_from_slice(&c.y);
            Ok(())
        },
    )?;
    Ok(out)
}
