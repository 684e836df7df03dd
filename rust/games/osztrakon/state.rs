//! The game state (E1): stacks, Sun and pile, laurel bits, day and day rule, the current turn's
//! question and votes, the chance stream, and the record counters. Compact and `Clone`; nothing
//! allocates per action (the optional per-turn log is off by default).

use super::model::Scoring;
use super::params::{Params, MAX_CAND, MAX_DAYS};
use super::setup::Setup;
use super::stacks::{Path, NONE};
use crate::rng::Rng;

/// Where a turn is (R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The asker picks one of the candidate questions (R5.3, M3.2).
    ChooseQuestion,
    /// The disciple window (R5.4, R8): `elig[elig_i]` decides.
    Disciple,
    /// The asker votes (R5.5); the others' votes come from the model M2.
    Vote,
    /// Corruption (R9.2): the asker names the next of k others.
    CorruptName,
    /// Divination (R9.3): the asker names the next of k others.
    DivName,
    /// Divination (R9.3): keep or switch after seeing the named votes.
    DivChange,
    /// Betrayal (R9.4): keep or switch after the reveal.
    BetrayChange,
    Over,
}

/// One turn of the record (R11.4), kept only when `State::log` is Some.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRow {
    pub day: u8,
    pub asker: u8,
    pub position: u8,
    pub rule: u8,
    pub p: f64,
    pub estimate: f64,
    /// Final votes, bit set = black (the asker's bit included).
    pub black: u16,
    pub s: u8,
    pub d: u8,
    pub success: bool,
    pub disciple: u8,
    pub disciple_from: u8,
    pub disciple_to: u8,
}

/// Counters for the record and the B2 study.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Index in the initial stack (0 = top, asks first).
    pub start_order: [u8; 12],
    /// Order of asking on the current/last day played (0 = first; NONE = did not ask).
    pub day_order: [u8; 12],
    pub asked_today: u8,
    /// Rank (0 = leading) of every seat after each finished day.
    pub rank_day: [[u8; 12]; MAX_DAYS],
    /// Position of every seat after each finished day.
    pub pos_day: [[u8; 12]; MAX_DAYS],
    pub days_done: u8,
    pub day_rules: [u8; MAX_DAYS],
    pub asks: [u16; 12],
    pub succ: [u16; 12],
    pub adv: [u16; 12],
    /// Day of the disciple declaration (0 = never).
    pub disc_day: [u8; 12],
    pub disc_gain: [u8; 12],
    pub rule_turns: [u32; 4],
    pub rule_succ: [u32; 4],
    pub rule_adv: [u32; 4],
    pub turns_per_day: [u8; MAX_DAYS],
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            start_order: [NONE; 12],
            day_order: [NONE; 12],
            asked_today: 0,
            rank_day: [[NONE; 12]; MAX_DAYS],
            pos_day: [[0; 12]; MAX_DAYS],
            days_done: 0,
            day_rules: [0; MAX_DAYS],
            asks: [0; 12],
            succ: [0; 12],
            adv: [0; 12],
            disc_day: [0; 12],
            disc_gain: [0; 12],
            rule_turns: [0; 4],
            rule_succ: [0; 4],
            rule_adv: [0; 4],
            turns_per_day: [0; MAX_DAYS],
        }
    }
}

/// One Osztrakon game. Fields are public for agents, tests and records; change them only
/// through `GameState::apply` (or the documented scenario setters).
#[derive(Clone, Debug)]
pub struct State {
    pub prm: Params,
    pub sc: Scoring,
    pub n: u8,
    pub setup: Setup,
    pub path: Path,
    /// R8.3: bit set = laurel side up (may still become a disciple).
    pub laurel: u16,
    /// 1-based day.
    pub day: u8,
    /// The day's rule (R9).
    pub rule: u8,
    pub phase: Phase,
    pub asker: u8,
    pub disciple: u8,
    pub free_topic: bool,
    pub m: u8,
    /// Latent black shares of the candidates (M1.1) and the asker's view of them (M3.1).
    pub cand_p: [f64; MAX_CAND],
    pub cand_hat: [f64; MAX_CAND],
    /// The chosen question and its latent p.
    pub q: u8,
    pub p: f64,
    /// Every seat's view of the chosen question (M3.1).
    pub hat: [f64; 12],
    /// Individual leanings (M2.3) and the asker's noisy view of them.
    pub eta: [f64; 12],
    pub eta_hat: [f64; 12],
    /// The disciple window: eligible seats, farthest first, and who decides now.
    pub elig: [u8; 12],
    pub elig_len: u8,
    pub elig_i: u8,
    /// Votes, bit set = black (every seat; valid once `voted`).
    pub black: u16,
    pub voted: bool,
    pub asker_black: bool,
    /// Seats named on Corruption / Divination this turn.
    pub named: u16,
    pub named_count: u8,
    pub revealed: bool,
    /// Voters who spoiled this turn (M2.4).
    pub spoilers: u16,
    pub turns: u32,
    pub over: bool,
    pub winner: u8,
    pub overwhelming: bool,
    pub overwhelming_day: u8,
    /// First seat to reach the temple (with `rules.overwhelming_ends_game = false`).
    pub temple_first: u8,
    /// Votes to use instead of the model's at the next vote (scenario/test scaffolding).
    pub forced_votes: Option<u16>,
    /// The chance stream (questions, perception, votes).
    pub rng: Rng,
    pub stats: Stats,
    pub log: Option<Vec<TurnRow>>,
}

impl State {
    #[inline]
    pub fn seats_mask(&self) -> u16 {
        ((1u32 << self.n) - 1) as u16
    }
    #[inline]
    pub fn others_mask(&self) -> u16 {
        self.seats_mask() & !(1u16 << self.asker)
    }
    /// Read noise sigma of `seat` (M3.1, M6).
    #[inline]
    pub fn sigma(&self, seat: usize) -> f64 {
        self.prm.read_noise[seat]
    }
    /// Days left after the current one.
    #[inline]
    pub fn days_left_after_today(&self) -> u8 {
        self.setup.days.saturating_sub(self.day)
    }
}
