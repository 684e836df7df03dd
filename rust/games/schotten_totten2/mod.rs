//! Schotten Totten 2 (base game) on the generic harness: the rules of
//! `shared/spec/schotten_totten2.md` (R1–R11; R12 the tactical variant is not implemented),
//! seat 0 the Attacker, seat 1 the Defender. One concept per file:
//!
//! - `cards`: siege cards (R1.1); `wall`: the section table (R2); `params`: every rule number
//!   as a named parameter (R11.4, R16 defaults and alternatives);
//! - `formation`: kinds, recognition, strength (R8); `proof`: claims with the tier-wise proof
//!   over unseen cards and the brute-force oracle (R9);
//! - `state`: setup, turn, preparation, play, draw and last turn, damage and victory (R3–R7,
//!   R10); `actions`: the action space (R11.3); `observe`: observations (R11.1);
//! - `bots`: `random` (R13.1) and `greedy` (R13.2); search is the generic ISMCTS agent;
//!   `evaluate`: the Attacker's chance to win, which cuts the search's rollouts short;
//!   `view`: the viewers' picture of a game (replay, terminal play); the learned policy's
//!   features are `learn::st2_features` and `learn::st2_actions` (the generic `learned` agent).

pub mod actions;
pub mod bots;
pub mod cards;
pub mod evaluate;
pub mod formation;
pub mod observe;
pub mod params;
pub mod proof;
pub mod state;
pub mod view;
pub mod wall;

use crate::harness::agents::AgentSpec;
use crate::harness::search::Knob;
use crate::harness::{Agent, GameParam, GameState, Outcome, Rules};
use crate::rng::Rng;
pub use actions::{Action, ACTION_SPACE};
pub use params::Params;
pub use state::{Phase, State, ATTACKER, DEFENDER};
use wall::SECTION_IDS;

/// This game's defaults of the search bot's options (issue 25; docs/bots.md): only the key
/// decisions (plays, the Defender's cauldrons) and only its own seat in the tree, greedy
/// rollouts cut after 4 turns and scored by the evaluation, and a root that compares greedy's
/// 6 best candidates by sequential halving on common deals, 100 iterations a decision.
pub const SEARCH_DEFAULTS: &[(&str, f64)] = &[("iterations", 100.0), ("horizon", 4.0), ("key_only", 1.0), ("own_only", 1.0), ("halving", 1.0), ("width", 6.0)];

/// The game type.
#[derive(Clone, Copy, Debug, Default)]
pub struct SchottenTotten2;

impl Rules for SchottenTotten2 {
    type State = State;
    fn name(&self) -> &'static str {
        "schotten_totten_2"
    }
    fn registry(&self) -> Vec<GameParam> {
        params::registry()
    }
    fn seat_range(&self) -> (usize, usize) {
        (2, 2)
    }
    fn sides(&self) -> Vec<&'static str> {
        vec!["attacker", "defender"]
    }
    fn action_space(&self, _seats: usize) -> usize {
        ACTION_SPACE
    }
    fn observation_len(&self, _seats: usize) -> usize {
        observe::OBS_LEN
    }
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<State, String> {
        if seats != 2 {
            return Err(format!("schotten_totten_2 takes 2 seats (attacker, defender), got {seats}"));
        }
        Ok(State::new(Params::from_values(values)?, batch_seed, game))
    }
    fn agent_names(&self) -> Vec<&'static str> {
        vec!["random", "greedy"]
    }
    fn eval_knobs(&self) -> &'static [Knob] {
        evaluate::EVAL_KNOBS
    }
    fn search_defaults(&self) -> &'static [(&'static str, f64)] {
        SEARCH_DEFAULTS
    }
    fn search_rollout(&self) -> &'static str {
        "greedy"
    }
    fn features(&self) -> (&'static str, &'static [&'static str]) {
        (crate::learn::st2_features::LAYOUT, &crate::learn::st2_features::NAMES)
    }
    fn option_features(&self) -> (&'static str, &'static [&'static str]) {
        (crate::learn::st2_actions::LAYOUT, &crate::learn::st2_actions::NAMES)
    }

    fn make_agent(&self, spec: &AgentSpec, _values: &[f64], _seats: usize, _seat: usize) -> Result<Option<Box<dyn Agent<State>>>, String> {
        match spec.name.as_str() {
            "random" => {
                spec.check_opts(&["prep"])?;
                let prep = spec.float_opt("prep", 0.0, 0.0, 1.0)?;
                Ok(Some(Box::new(bots::RandomBot { prep })))
            }
            "greedy" => {
                spec.check_opts(&[])?;
                Ok(Some(Box::new(bots::GreedyBot)))
            }
            _ => Ok(None),
        }
    }
}

impl GameState for State {
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<usize> {
        State::to_move(self)
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal(out)
    }
    fn apply(&mut self, action: u32) -> Result<(), String> {
        let a = Action::from_id(action).ok_or_else(|| format!("unknown action id {action}"))?;
        self.apply_action(a)
    }
    fn describe_action(&self, action: u32) -> String {
        self.describe(action)
    }
    fn observe(&self, seat: usize, out: &mut [f32]) {
        observe::observe(self, seat, out)
    }
    fn determinize(&mut self, seat: usize, rng: &mut Rng) {
        State::determinize(self, seat, rng)
    }
    fn clock(&self) -> u32 {
        self.turn
    }
    /// The decisions the search searches with `key_only` (this game's default): a play with no
    /// claim open, and the Defender's choice of a cauldron. A claim is always taken (R4.1: it
    /// depends on public cards only, and an open claim can only be lost by waiting: oil, a 0/11
    /// cancel) and the Attacker's retreat is a set of sections (2^k − 1 of them with k sections
    /// occupied): both are left to the rollout bot, which claims at once and retreats by its rule.
    fn key_decision(&self) -> bool {
        self.claimable == 0
            && match self.phase {
                Phase::Play => true,
                Phase::Prep => self.current as usize == DEFENDER,
                _ => false,
            }
    }
    fn has_evaluation(&self) -> bool {
        true
    }
    /// `evaluate::evaluate`: the Attacker's chance to win, section by section.
    fn evaluate(&self, weights: &[f64], out: &mut [f64]) -> bool {
        evaluate::evaluate(self, weights, out);
        true
    }
    /// `learn::st2_features`: the board, the seat's own hand and the counts of hidden cards,
    /// read off the card numbers and the rule parameters.
    fn features(&self, seat: usize, out: &mut [f32]) -> bool {
        crate::learn::st2_features::features(self, seat, out);
        true
    }
    /// `learn::st2_actions` of a key decision's actions (greedy's scores among them); false
    /// at the other decisions.
    fn option_features(&self, out: &mut Vec<f32>) -> bool {
        crate::learn::st2_actions::features(self, out)
    }
    fn view(&self) -> crate::harness::TableView {
        view::view(self)
    }
    fn rewards(&self, out: &mut [f64]) {
        let done = self.phase == Phase::Over && !self.unfinished && self.winner < 2;
        for (s, r) in out.iter_mut().enumerate().take(2) {
            *r = if !done {
                0.0
            } else if s == self.winner as usize {
                1.0
            } else {
                -1.0
            };
        }
    }
    /// R10.4: the winner, the way it was won (`damaged_twice`, `fourth_damage`, `deck_out`,
    /// or `defender_full` under R4.2's alternative), the turn number and each section's damage.
    fn outcome(&self) -> Outcome {
        let done = self.phase == Phase::Over && !self.unfinished && self.winner < 2;
        let w = self.winner as usize;
        let mut game_columns: Vec<(&'static str, f64)> = vec![
            ("damaged_sections", self.damaged.count_ones() as f64),
            ("claims", self.claims as f64),
            ("retreats", self.retreats as f64),
            ("oil_used", self.oils as f64),
            ("zero_eleven", self.cancels as f64),
            ("deck_left", self.deck_len as f64),
        ];
        const DAMAGED: [&str; 7] =
            ["damaged_left_ditch", "damaged_left_tower", "damaged_left_wall", "damaged_gate", "damaged_right_wall", "damaged_right_tower", "damaged_right_ditch"];
        debug_assert_eq!(DAMAGED[3], format!("damaged_{}", SECTION_IDS[3]));
        for (s, name) in DAMAGED.iter().enumerate() {
            game_columns.push((name, (self.damaged >> s & 1) as f64));
        }
        Outcome {
            winners: if done { vec![w as u8] } else { Vec::new() },
            returns: (0..2)
                .map(|s| {
                    if !done {
                        0.0
                    } else if s == w {
                        1.0
                    } else {
                        -1.0
                    }
                })
                .collect(),
            unfinished: self.unfinished || self.phase != Phase::Over,
            end_reason: if self.phase == Phase::Over { self.end_reason } else { "" },
            turns: self.turn,
            game_columns,
            seat_columns: vec![("cards_played", vec![self.plays[0] as f64, self.plays[1] as f64]), ("passes", vec![self.passes[0] as f64, self.passes[1] as f64])],
        }
    }
}
