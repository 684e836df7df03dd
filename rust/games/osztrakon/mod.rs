//! Osztrakon (Ostrakon, Silvano Sorrentino, daVinci Editrice) for 5–12 players on the
//! game-generic harness: the rules R0–R11 of `shared/spec/osztrakon.md` with the abstract voter
//! model M replacing the social part, the B1 policies as agents, and the record columns the B2
//! study reads. One concept per file:
//!
//! | file | spec |
//! |---|---|
//! | `params.rs` | every rule number and model assumption as a named parameter |
//! | `setup.rs` | R2 setup by player count |
//! | `stacks.rs` | R3 stacks, the Sun, the Sun pile |
//! | `order.rs` | R4 turn order |
//! | `turn.rs` | R5 a turn (the state machine behind `apply`) |
//! | `scoring.rs` | R6 scoring (with `model::Scoring`) |
//! | `movement.rs` | R7 movement |
//! | `disciples.rs` | R8 disciples |
//! | `special.rs` | R9 special days |
//! | `day.rs` | R10 end of a day |
//! | `end.rs` | R11 end, winner, record columns |
//! | `model.rs` | M the voter model and M4 probabilities |
//! | `observation.rs`, `determinize.rs`, `actions.rs` | what a seat sees, re-deals, action ids |
//! | `policies.rs` | B1 / M5 policies as agents |
//! | `view.rs` | the viewers' picture of a game (replay, terminal play) |

pub mod actions;
pub mod day;
pub mod determinize;
pub mod disciples;
pub mod end;
pub mod model;
pub mod movement;
pub mod observation;
pub mod order;
pub mod params;
pub mod policies;
pub mod scoring;
pub mod setup;
pub mod special;
pub mod stacks;
pub mod state;
pub mod turn;
pub mod view;

pub use params::Params;
pub use policies::{agent, OszAgent, AGENT_NAMES};
pub use state::{Phase, State};

use crate::harness::agents::AgentSpec;
use crate::harness::{Agent, GameParam, GameState, Outcome, Rules};
use crate::rng::{game_seed, Rng, Stream};

/// This game's defaults of the search bot's options (issue 25; docs/bots.md): only the key
/// decisions (disciples, the naming of special days) in the tree, only its own seat, `b1`
/// play-outs, the two choices of a declaration compared on 1,000 common re-deals each.
pub const SEARCH_DEFAULTS: &[(&str, f64)] = &[("iterations", 2000.0), ("key_only", 1.0), ("own_only", 1.0), ("halving", 1.0)];

/// The Osztrakon game type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Osztrakon;

impl GameState for State {
    fn seats(&self) -> usize {
        self.n as usize
    }
    fn to_move(&self) -> Option<usize> {
        self.decider()
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal_into(out)
    }
    fn apply(&mut self, action: u32) -> Result<(), String> {
        self.step(action)
    }
    fn describe_action(&self, action: u32) -> String {
        actions::describe(action)
    }
    fn observe(&self, seat: usize, out: &mut [f32]) {
        self.observe_into(seat, out)
    }
    fn determinize(&mut self, seat: usize, rng: &mut Rng) {
        self.determinize_for(seat, rng)
    }
    fn clock(&self) -> u32 {
        self.turns
    }
    /// The decisions the search searches with `key_only` (this game's default): a disciple's
    /// declaration (R8) and the naming on Corruption and Divination days (R9.2, R9.3). The
    /// asker's question and vote (and the keep-or-switch of Divination and Betrayal) are the
    /// rollout bot's: against a field of `b1`, choosing them by 1,000–2,000 `b1` play-outs on
    /// common re-deals gained nothing over `b1`'s own choice (docs/bots.md).
    fn key_decision(&self) -> bool {
        matches!(self.phase, Phase::Disciple | Phase::CorruptName | Phase::DivName)
    }
    fn rewards(&self, out: &mut [f64]) {
        for (j, r) in out.iter_mut().enumerate().take(self.n as usize) {
            *r = if !self.over {
                0.0
            } else if j as u8 == self.winner {
                1.0
            } else {
                -1.0
            };
        }
    }
    fn outcome(&self) -> Outcome {
        self.make_outcome()
    }
    fn view(&self) -> crate::harness::TableView {
        view::view(self)
    }
}

impl Rules for Osztrakon {
    type State = State;
    fn name(&self) -> &'static str {
        "osztrakon"
    }
    fn registry(&self) -> Vec<GameParam> {
        params::registry()
    }
    fn seat_range(&self) -> (usize, usize) {
        (params::MIN_SEATS, params::MAX_SEATS)
    }
    fn sides(&self) -> Vec<&'static str> {
        Vec::new()
    }
    fn action_space(&self, _seats: usize) -> usize {
        actions::ACTION_SPACE
    }
    fn observation_len(&self, seats: usize) -> usize {
        observation::observation_len(seats)
    }
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<State, String> {
        let prm = Params::from_values(values)?;
        new_game_with(prm, seats, game_seed(batch_seed, game))
    }
    fn agent_names(&self) -> Vec<&'static str> {
        policies::AGENT_NAMES.iter().copied().filter(|&n| n != "random").collect()
    }
    fn search_defaults(&self) -> &'static [(&'static str, f64)] {
        SEARCH_DEFAULTS
    }
    fn search_rollout(&self) -> &'static str {
        "b1"
    }
    fn make_agent(&self, spec: &AgentSpec, _values: &[f64], _seats: usize, _seat: usize) -> Result<Option<Box<dyn Agent<State>>>, String> {
        // "random" and "search" are the generic agents; every other name must be a B1 policy
        if spec.name == "random" || spec.name == "search" || spec.name == "ismcts" {
            return Ok(None);
        }
        let a = agent(&spec.name)?;
        spec.check_opts(&[])?;
        Ok(Some(Box::new(a)))
    }
}

/// A game from resolved params and a per-game seed (shuffle and chance streams of that seed).
pub fn new_game_with(prm: Params, seats: usize, seed: u64) -> Result<State, String> {
    let mut shuffle = Rng::stream(seed, Stream::Shuffle as u64);
    let chance = Rng::stream(seed, Stream::Events as u64);
    State::new(prm, seats, &mut shuffle, chance)
}

/// The policy stream of `seat` in the game seeded `seed`.
pub fn seat_rng(seed: u64, seat: usize) -> Rng {
    Rng::stream(seed, Stream::Policy0 as u64 + seat as u64)
}
