//! `coin_flip`: the pure-luck control of the game-health report (issue 27 item 5). Each seat
//! in turn picks one of two actions that do the same thing, then a fair coin gives it a
//! point or not; after `rules.turns` rounds (each seat's turn once a round, so every seat
//! flips equally often) the seat with the most points wins, a tie broken by
//! a fair draw among the tied seats. No decision matters and no seat is favoured, so every
//! skill measure must read 0 here (up to noise). Only the health report plays it
//! (`_core.trajectories(game="coin_flip")`); it is not on the games table.

use super::{GameParam, GameState, Outcome, ParamKind, Rules};
use crate::rng::{game_seed, Rng, Stream};

/// The most seats of a coin-flip game.
pub const MAX_SEATS: usize = 8;

#[derive(Clone, Debug)]
pub struct CoinFlip {
    seats: usize,
    turns: u32,
    turn: u32,
    points: [u32; MAX_SEATS],
    chance: Rng,
    winner: Option<u8>,
}

impl CoinFlip {
    fn finish(&mut self) {
        let best = *self.points[..self.seats].iter().max().unwrap_or(&0);
        let tied: Vec<usize> = (0..self.seats).filter(|&s| self.points[s] == best).collect();
        self.winner = Some(tied[self.chance.below(tied.len())] as u8);
    }
}

impl GameState for CoinFlip {
    fn seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> Option<usize> {
        if self.winner.is_some() {
            None
        } else {
            Some(self.turn as usize % self.seats)
        }
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.winner.is_none() {
            out.extend([0, 1]);
        }
    }
    fn apply(&mut self, action: u32) -> Result<(), String> {
        if self.winner.is_some() || action > 1 {
            return Err(format!("illegal action {action}"));
        }
        let seat = self.turn as usize % self.seats;
        if self.chance.below(2) == 1 {
            self.points[seat] += 1;
        }
        self.turn += 1;
        if self.turn >= self.turns * self.seats as u32 {
            self.finish();
        }
        Ok(())
    }
    fn describe_action(&self, action: u32) -> String {
        format!("flip with the {} hand", if action == 0 { "left" } else { "right" })
    }
    fn observe(&self, _seat: usize, out: &mut [f32]) {
        for (o, &p) in out.iter_mut().zip(&self.points[..self.seats]) {
            *o = p as f32;
        }
    }
    fn determinize(&mut self, _seat: usize, rng: &mut Rng) {
        self.chance = Rng::new(rng.next_u64());
    }
    fn outcome(&self) -> Outcome {
        let w = self.winner;
        Outcome {
            winners: w.map(|w| vec![w]).unwrap_or_default(),
            returns: (0..self.seats).map(|s| if w == Some(s as u8) { 1.0 } else { -1.0 }).collect(),
            unfinished: false,
            end_reason: "turns",
            turns: self.turn,
            game_columns: Vec::new(),
            seat_columns: vec![("points", self.points[..self.seats].iter().map(|&p| p as f64).collect())],
        }
    }
    /// Turns played (every seat's; `Outcome::turns`).
    fn clock(&self) -> u32 {
        self.turn
    }
    fn has_evaluation(&self) -> bool {
        true
    }
    /// A seat's points against the best other seat's, over the turns left (tanh).
    fn evaluate(&self, _w: &[f64], out: &mut [f64]) -> bool {
        let left = ((self.turns * self.seats as u32).saturating_sub(self.turn) as f64).max(1.0);
        for (s, r) in out.iter_mut().enumerate().take(self.seats) {
            let best = (0..self.seats).filter(|&q| q != s).map(|q| self.points[q]).max().unwrap_or(0);
            *r = ((self.points[s] as f64 - best as f64) / left.sqrt()).tanh();
        }
        true
    }
}

/// The coin-flip game's rules: one parameter, `rules.turns` (rounds: each seat's turns).
pub struct CoinFlipRules;

impl Rules for CoinFlipRules {
    type State = CoinFlip;
    fn name(&self) -> &'static str {
        "coin_flip"
    }
    fn registry(&self) -> Vec<GameParam> {
        vec![GameParam {
            name: "rules.turns".into(),
            default: 20.0,
            min: 1.0,
            max: 1000.0,
            kind: ParamKind::Int,
            choices: Vec::new(),
            description: "rounds in a game: each seat flips once a round".into(),
        }]
    }
    fn seat_range(&self) -> (usize, usize) {
        (2, MAX_SEATS)
    }
    fn sides(&self) -> Vec<&'static str> {
        Vec::new()
    }
    fn action_space(&self, _seats: usize) -> usize {
        2
    }
    fn observation_len(&self, seats: usize) -> usize {
        seats
    }
    fn new_game(&self, values: &[f64], seats: usize, batch_seed: u64, game: u64) -> Result<CoinFlip, String> {
        let chance = Rng::stream(game_seed(batch_seed, game), Stream::Events as u64);
        Ok(CoinFlip { seats, turns: values[0] as u32, turn: 0, points: [0; MAX_SEATS], chance, winner: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::batch::{run_range, GenericBatch};
    use crate::harness::{resolve, Stop};

    #[test]
    fn no_seat_and_no_bot_is_favoured() {
        let v = resolve(&CoinFlipRules.registry(), &[]).unwrap();
        let a = vec!["search:iterations=20".to_string(), "random".to_string()];
        let c = run_range(&CoinFlipRules, &GenericBatch { values: &v, seats: 2, agents: &a, first: 0, games: 4000, seed: 1, threads: Some(2) }, &Stop::new()).unwrap();
        let w0 = c.wins(0) as f64 / 4000.0;
        // a search gains nothing over random play, and the first seat nothing over the second
        assert!((w0 - 0.5).abs() < 0.03, "seat 0 (search) won {w0}");
        assert_eq!(c.wins(0) + c.wins(1), 4000);
        assert!(c.turns.iter().all(|&t| t == 40), "20 rounds of 2 seats");
    }

    #[test]
    fn every_seat_flips_equally_often_at_any_seat_count() {
        let v = resolve(&CoinFlipRules.registry(), &[]).unwrap();
        for seats in [3usize, 7] {
            let a = vec!["random".to_string(); seats];
            let n = 14_000u64;
            let c = run_range(&CoinFlipRules, &GenericBatch { values: &v, seats, agents: &a, first: 0, games: n, seed: 2, threads: Some(2) }, &Stop::new()).unwrap();
            let fair = 1.0 / seats as f64;
            for s in 0..seats {
                let w = c.wins(s) as f64 / n as f64;
                assert!((w - fair).abs() < 0.02, "{seats} seats: seat {s} won {w}, fair {fair}");
            }
            assert!(c.turns.iter().all(|&t| t == 20 * seats as u32));
        }
    }
}
