//! Schotten Totten 2 (shared/spec/schotten_totten2.md): the test vectors T1–T12 of R14, rule
//! tests citing R-numbers, an invariant fuzzer, determinism and determinization.

use ketharmad::games::schotten_totten2::cards::card;
use ketharmad::games::schotten_totten2::formation::{self, key, strength, COLOUR_RUN, SUM};
use ketharmad::games::schotten_totten2::proof::{best_key, best_key_brute, claim_succeeds};
use ketharmad::games::schotten_totten2::wall::{Cond, Face};
use ketharmad::games::schotten_totten2::{Action, Params, Phase, SchottenTotten2, State, ATTACKER, DEFENDER};
use ketharmad::harness::batch::run;
use ketharmad::harness::{resolve, Agent, GameState, Rules, Value};
use ketharmad::rng::Rng;

const RED: u8 = 0;
const BLUE: u8 = 1;
const GREEN: u8 = 2;
const YELLOW: u8 = 3;
const PURPLE: u8 = 4;

const LEFT_DITCH: usize = 0;
const LEFT_TOWER: usize = 1;
const LEFT_WALL: usize = 2;
const GATE: usize = 3;
const RIGHT_WALL: usize = 4;
const RIGHT_TOWER: usize = 5;
const RIGHT_DITCH: usize = 6;

fn params(over: &[(&str, Value)]) -> Params {
    let o: Vec<(String, Value)> = over.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    Params::from_values(&resolve(&SchottenTotten2.registry(), &o).unwrap()).unwrap()
}

fn empty() -> State {
    State::empty(Params::default())
}

fn c(colour: u8, value: u8) -> u8 {
    card(colour, value)
}

fn legal(s: &State) -> Vec<u32> {
    let mut v = Vec::new();
    s.legal(&mut v);
    v
}

/// The claim decided by the brute-force oracle over the unseen pool (R9.5).
fn brute_can_claim(s: &State, sec: usize) -> bool {
    let f = s.face(sec);
    let (a, d) = (&s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec]);
    if a.n != f.cards {
        return false;
    }
    let ka = strength(a.cards(), f.cond, s.p.keep_colour_run);
    if d.n == f.cards {
        let kd = strength(d.cards(), f.cond, s.p.keep_colour_run);
        return ka > kd || (ka == kd && a.done < d.done);
    }
    match best_key_brute(d.cards(), s.unseen(), f.cards as usize, f.cond, s.p.keep_colour_run) {
        None => true,
        Some(kd) => kd <= ka,
    }
}

#[test]
fn smoke_random_and_greedy_games_finish() {
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    for agents in [["random", "random"], ["greedy", "greedy"], ["random", "greedy"], ["greedy", "random"]] {
        let a: Vec<String> = agents.iter().map(|s| s.to_string()).collect();
        let cols = run(&SchottenTotten2, &v, 2, &a, 2000, 1, None).unwrap();
        let att = cols.wins(0) as f64 / cols.len() as f64;
        let unfinished = cols.unfinished.iter().filter(|&&u| u).count();
        eprintln!("{agents:?}: attacker {att:.3}, unfinished {unfinished}, mean turns {:.1}", cols.turns.iter().map(|&t| t as f64).sum::<f64>() / cols.len() as f64);
        assert_eq!(unfinished, 0);
    }
}
