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

// ---------------------------------------------------------------- R14 test vectors

/// T1 (R2, R8, R9.3.2): intact gate, the Attacker plays red 10 then red 11, the Defender's side
/// is empty → the claim succeeds at once (the best answer, another 10-11 colour run of 21, ties
/// and the Attacker completed first).
#[test]
fn t1_gate_colour_run_claims_at_once_r9_3_2() {
    let mut s = empty();
    s.place(ATTACKER, GATE, &[c(RED, 10)]);
    s.give(ATTACKER, c(RED, 11));
    s.settle();
    // R5.1: the Attacker may retreat first; he skips the preparation step
    assert_eq!(s.phase, Phase::Prep);
    s.apply_action(Action::Skip).unwrap();
    assert_eq!(s.phase, Phase::Play);
    assert!(!s.can_claim(GATE));
    s.apply_action(Action::Play { card: c(RED, 11), section: GATE as u8 }).unwrap();
    // R4.1: the claim window after the play
    assert_eq!(s.phase, Phase::PostPlay);
    assert!(legal(&s).contains(&Action::Claim(GATE as u8).id()));
    // the best Defender answer is a 10-11 colour run of another colour: equal, not stronger
    let f = s.face(GATE);
    assert_eq!(best_key(&[], s.unseen(), 2, f.cond, true, 5, 11), Some(key(COLOUR_RUN, 21, Cond::Any)));
    assert_eq!(best_key_brute(&[], s.unseen(), 2, f.cond, true), Some(key(COLOUR_RUN, 21, Cond::Any)));
    s.apply_action(Action::Claim(GATE as u8)).unwrap();
    // R10.1: damaged, both sides discarded
    assert_eq!(s.damaged, 1 << GATE);
    assert_eq!(s.sides[ATTACKER][GATE].n, 0);
    assert_eq!(s.discard & (1u64 << c(RED, 10) | 1u64 << c(RED, 11)), 1u64 << c(RED, 10) | 1u64 << c(RED, 11));
    assert_eq!(s.face(GATE), Face { cards: 4, cond: Cond::Minus });
}

/// T2 (R8.3 "−"): damaged gate, Attacker 0-1-2-3 mixed (6) vs Defender 0,0,1,1 (2), both
/// complete → the Defender is stronger and no claim is legal; a 0-1-2-3 colour run there is
/// only a sum of 6 too.
#[test]
fn t2_damaged_gate_lowest_sum_wins_r8_3() {
    let mut s = empty();
    s.damaged = 1 << GATE;
    s.place(ATTACKER, GATE, &[c(RED, 0), c(BLUE, 1), c(GREEN, 2), c(YELLOW, 3)]);
    s.place(DEFENDER, GATE, &[c(BLUE, 0), c(GREEN, 0), c(YELLOW, 1), c(PURPLE, 1)]);
    let f = s.face(GATE);
    assert_eq!(f, Face { cards: 4, cond: Cond::Minus });
    let (a, d) = (&s.sides[ATTACKER][GATE], &s.sides[DEFENDER][GATE]);
    assert!(formation::beats(d.cards(), d.done, a.cards(), a.done, f.cond, true));
    assert!(!s.can_claim(GATE));
    assert!(!legal(&s).contains(&Action::Claim(GATE as u8).id()));
    let run = [c(PURPLE, 0), c(PURPLE, 1), c(PURPLE, 2), c(PURPLE, 3)];
    assert_eq!(strength(&run, Cond::Minus, true), key(SUM, 6, Cond::Minus));
    assert_eq!(strength(&run, Cond::Minus, true), strength(a.cards(), Cond::Minus, true));
}

/// T3 (R8.3 "+"): intact left ditch, Attacker 11,11,10 mixed (32) vs Defender blue 9-10-11 (a
/// sum there, 30) → the Attacker is stronger, and claims.
#[test]
fn t3_left_ditch_highest_sum_r8_3() {
    let mut s = empty();
    s.place(DEFENDER, LEFT_DITCH, &[c(BLUE, 9), c(BLUE, 10), c(BLUE, 11)]);
    s.place(ATTACKER, LEFT_DITCH, &[c(RED, 11), c(GREEN, 11), c(YELLOW, 10)]);
    let f = s.face(LEFT_DITCH);
    assert_eq!(f.cond, Cond::Plus);
    let (a, d) = (&s.sides[ATTACKER][LEFT_DITCH], &s.sides[DEFENDER][LEFT_DITCH]);
    assert!(formation::beats(a.cards(), a.done, d.cards(), d.done, f.cond, true));
    assert!(s.can_claim(LEFT_DITCH));
}

/// T4 (R8.3.2): damaged tower, Attacker pair 3-3 (6) vs Defender red 10-11 (a sum there, 21)
/// → the Attacker is stronger.
#[test]
fn t4_damaged_tower_same_strength_only_r8_3_2() {
    let mut s = empty();
    s.damaged = 1 << LEFT_TOWER;
    s.place(DEFENDER, LEFT_TOWER, &[c(RED, 10), c(RED, 11)]);
    s.place(ATTACKER, LEFT_TOWER, &[c(RED, 3), c(BLUE, 3)]);
    assert_eq!(s.face(LEFT_TOWER), Face { cards: 2, cond: Cond::Same });
    assert_eq!(strength(&[c(RED, 10), c(RED, 11)], Cond::Same, true), key(SUM, 21, Cond::Same));
    assert!(s.can_claim(LEFT_TOWER));
}

/// T5 (R8.3, R8.3.1): damaged wall (Colour): blue 0,2,9 (Colour, 11) beats 9,10,11 mixed (a
/// sum, 30); green 4-5-6 (colour run, 15) beats yellow 1,9,11 (Colour, 21) with
/// `restricted_keeps_colour_run = true`, loses with `false`.
#[test]
fn t5_damaged_wall_colour_r8_3_1() {
    let f = Params::default().wall[LEFT_WALL].damaged;
    assert_eq!(f, Face { cards: 3, cond: Cond::Colour });
    let blue = [c(BLUE, 0), c(BLUE, 2), c(BLUE, 9)];
    let mixed = [c(RED, 9), c(GREEN, 10), c(YELLOW, 11)];
    assert!(formation::beats(&blue, 2, &mixed, 1, f.cond, true));
    let green = [c(GREEN, 4), c(GREEN, 5), c(GREEN, 6)];
    let yellow = [c(YELLOW, 1), c(YELLOW, 9), c(YELLOW, 11)];
    assert!(formation::beats(&green, 2, &yellow, 1, f.cond, true));
    assert!(formation::beats(&yellow, 2, &green, 1, f.cond, false));
    // and through the parameter, on the table
    for (keep, green_wins) in [(true, true), (false, false)] {
        let mut s = State::empty(params(&[("rules.restricted_keeps_colour_run", Value::Bool(keep))]));
        s.damaged = 1 << LEFT_WALL;
        s.place(DEFENDER, LEFT_WALL, &yellow);
        s.place(ATTACKER, LEFT_WALL, &green);
        assert_eq!(s.can_claim(LEFT_WALL), green_wins, "keep = {keep}");
    }
}

/// Make the Defender the seat to move at the start of his turn.
fn defender_to_move(s: &mut State) {
    s.current = DEFENDER as u8;
    s.turn = 2;
    s.phase = Phase::Prep;
    s.claimable = 0;
}

/// T6 (R5.2.1, R8.6): yellow 2, 9, 5 played in that order at the left wall; oil removes
/// yellow 2 (the oldest) and clears the completion stamp; `oil_target = newest` removes 5.
#[test]
fn t6_oil_hits_the_oldest_card_r5_2_1() {
    for (target, removed, kept) in [("oldest", 2, [9, 5]), ("newest", 5, [2, 9])] {
        let mut s = State::empty(params(&[("rules.oil_target", Value::Str(target.into()))]));
        s.place(ATTACKER, LEFT_WALL, &[c(YELLOW, 2), c(YELLOW, 9), c(YELLOW, 5)]);
        assert_ne!(s.sides[ATTACKER][LEFT_WALL].done, 0);
        defender_to_move(&mut s);
        s.give(DEFENDER, c(RED, 4));
        assert!(legal(&s).contains(&Action::Oil(LEFT_WALL as u8).id()));
        s.apply_action(Action::Oil(LEFT_WALL as u8)).unwrap();
        let side = s.sides[ATTACKER][LEFT_WALL];
        assert_eq!(side.cards(), &[c(YELLOW, kept[0]), c(YELLOW, kept[1])], "{target}");
        assert_eq!(side.done, 0);
        assert!(s.discard >> c(YELLOW, removed) & 1 == 1);
        assert_eq!(s.cauldrons, 2);
        // R5.2: one cauldron per turn — the turn went on to the play step
        assert_eq!(s.phase, Phase::Play);
        assert!(!legal(&s).contains(&Action::Oil(LEFT_WALL as u8).id()));
    }
}

/// T7 (R6.3): the Attacker has green 11 at the right tower; the Defender plays green 0 there →
/// both are discarded and the Defender's side keeps its count; with the Defender's side full
/// the play is illegal (R6.3.1).
#[test]
fn t7_zero_and_eleven_cancel_r6_3() {
    let mut s = empty();
    s.place(ATTACKER, RIGHT_TOWER, &[c(RED, 4), c(GREEN, 11)]);
    defender_to_move(&mut s);
    s.give(DEFENDER, c(GREEN, 0));
    s.apply_action(Action::Skip).unwrap();
    s.apply_action(Action::Play { card: c(GREEN, 0), section: RIGHT_TOWER as u8 }).unwrap();
    assert_eq!(s.sides[DEFENDER][RIGHT_TOWER].n, 0);
    assert_eq!(s.sides[ATTACKER][RIGHT_TOWER].cards(), &[c(RED, 4)]);
    assert!(s.discard >> c(GREEN, 0) & 1 == 1 && s.discard >> c(GREEN, 11) & 1 == 1);
    assert_eq!(s.cancels, 1);
    // R6.3.2: a 0 next to one's own 11 does nothing
    let mut s = empty();
    s.place(DEFENDER, RIGHT_TOWER, &[c(GREEN, 11)]);
    defender_to_move(&mut s);
    s.give(DEFENDER, c(GREEN, 0));
    s.settle();
    s.apply_action(Action::Play { card: c(GREEN, 0), section: RIGHT_TOWER as u8 }).unwrap();
    assert_eq!(s.sides[DEFENDER][RIGHT_TOWER].cards(), &[c(GREEN, 11), c(GREEN, 0)]);
    // R6.3.1: capacity first
    let mut s = empty();
    s.place(ATTACKER, RIGHT_TOWER, &[c(GREEN, 11)]);
    s.place(DEFENDER, RIGHT_TOWER, &[c(RED, 1), c(RED, 2), c(RED, 3), c(RED, 4)]);
    defender_to_move(&mut s);
    s.give(DEFENDER, c(GREEN, 0));
    let play = Action::Play { card: c(GREEN, 0), section: RIGHT_TOWER as u8 };
    assert!(!s.is_legal(Action::Skip) || !legal(&s).contains(&play.id()));
    s.apply_action(Action::Skip).unwrap_or(());
    assert!(!s.is_legal(play));
    assert!(s.clone().apply_action(play).is_err());
}

/// Play one game with the given bots, returning the final state.
fn play_game(p: Params, seed: u64, bots: [&str; 2]) -> State {
    let rules = SchottenTotten2;
    let v = resolve(&rules.registry(), &[]).unwrap();
    let mut s = State::from_seed(p, seed);
    let mut agents: Vec<Box<dyn Agent<State>>> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| ketharmad::harness::agents::make_agent(&rules, &ketharmad::harness::agents::AgentSpec::parse(b).unwrap(), &v, 2, i).unwrap())
        .collect();
    let mut rngs = [Rng::new(seed ^ 1), Rng::new(seed ^ 2)];
    let mut l = Vec::new();
    while let Some(seat) = s.to_move() {
        s.legal(&mut l);
        let a = agents[seat].act(&s, &l, &mut rngs[seat]);
        s.apply(a).unwrap();
    }
    s
}

/// T8 (R7.3): without a pass (R4.2) the last draw happens on turn 48, the game lasts at most 49
/// turns, and the Attacker takes turn 49 without drawing.
#[test]
fn t8_last_turn_is_the_attackers_49th_r7_3() {
    let mut deck_outs = 0;
    for seed in 0..600 {
        let bots = if seed % 2 == 0 { ["greedy", "greedy"] } else { ["random", "greedy"] };
        let s = play_game(Params::default(), seed, bots);
        if s.passes != [0, 0] {
            continue;
        }
        assert!(s.turn <= 49, "seed {seed}: {} turns", s.turn);
        if s.end_reason == "deck_out" {
            deck_outs += 1;
            assert_eq!(s.turn, 49, "seed {seed}");
            assert_eq!(s.last_draw_turn, 48, "seed {seed}");
            assert_eq!(s.current as usize, ATTACKER);
            // the Attacker did not draw on turn 49: 25 plays from 6 + 24 draws… minus nothing
            assert_eq!(s.plays[ATTACKER] as u32 + s.hands[ATTACKER].count_ones(), 6 + 24, "seed {seed}");
            assert_eq!(s.plays[DEFENDER] as u32 + s.hands[DEFENDER].count_ones(), 6 + 24, "seed {seed}");
            assert_eq!(s.plays[ATTACKER], 25);
            assert_eq!(s.winner as usize, DEFENDER);
        }
    }
    assert!(deck_outs > 50, "only {deck_outs} games went to the end of the deck");
}

/// R7.2 alternative `attacker_last_turn = false` (the ISMCTS client's model): the game ends at
/// the last draw, on turn 48.
#[test]
fn no_last_turn_ends_at_the_last_draw_r7_2() {
    let p = params(&[("rules.attacker_last_turn", Value::Bool(false))]);
    let mut n = 0;
    for seed in 0..200 {
        let s = play_game(p, seed, ["greedy", "greedy"]);
        if s.end_reason == "deck_out" && s.passes == [0, 0] {
            n += 1;
            assert_eq!(s.turn, 48);
            assert_eq!(s.last_draw_turn, 48);
        }
    }
    assert!(n > 20);
}

/// T9 (R9.3.2): intact right wall, Attacker yellow 9-10-11 (the top colour run) → claimable at
/// once.
#[test]
fn t9_top_colour_run_claims_at_once_r9_3_2() {
    let mut s = empty();
    s.place(ATTACKER, RIGHT_WALL, &[c(YELLOW, 9), c(YELLOW, 10), c(YELLOW, 11)]);
    assert!(s.can_claim(RIGHT_WALL));
    assert!(brute_can_claim(&s, RIGHT_WALL));
    // but 8-9-10 is not: 9-10-11 of another colour is still unseen
    let mut s = empty();
    s.place(ATTACKER, RIGHT_WALL, &[c(YELLOW, 8), c(YELLOW, 9), c(YELLOW, 10)]);
    assert!(!s.can_claim(RIGHT_WALL));
}

/// T10 (R9.3): left wall, Attacker 5,5,5 (same strength 15), Defender empty → not claimable
/// while a colour run can be formed from the unseen cards, nor while an unseen value above 5
/// has three copies; claimable once both are gone. The Attacker's own hand is no evidence
/// (R9.3.1).
#[test]
fn t10_same_strength_needs_proof_r9_3() {
    let mut s = empty();
    s.place(ATTACKER, LEFT_WALL, &[c(RED, 5), c(BLUE, 5), c(GREEN, 5)]);
    assert!(!s.can_claim(LEFT_WALL));
    // break every colour run: values 2, 5, 8, 11 of every colour leave no three in a row
    for col in 0..5 {
        for v in [2, 5, 8, 11] {
            if s.discard >> c(col, v) & 1 == 0 && s.sides[ATTACKER][LEFT_WALL].cards().iter().all(|&x| x != c(col, v)) {
                s.discard_card(c(col, v));
            }
        }
    }
    assert!(!s.can_claim(LEFT_WALL), "three 10s (or 9s, 7s, 6s) are still unseen");
    assert_eq!(s.can_claim(LEFT_WALL), brute_can_claim(&s, LEFT_WALL));
    for v in [6, 7, 9] {
        for col in 0..3 {
            s.discard_card(c(col, v));
        }
    }
    // 10s: three copies still unseen; holding them in the Attacker's hand does not help
    for col in 0..3 {
        s.give(ATTACKER, c(col, 10));
    }
    assert!(!s.can_claim(LEFT_WALL));
    assert!(!brute_can_claim(&s, LEFT_WALL));
    s.discard_card(c(RED, 10));
    s.discard_card(c(BLUE, 10));
    assert!(!s.can_claim(LEFT_WALL), "three 10s are still unseen");
    s.discard_card(c(GREEN, 10));
    // left: at most two unseen copies of every value above 5, no colour run
    assert!(s.can_claim(LEFT_WALL));
    assert!(brute_can_claim(&s, LEFT_WALL));
}

/// T11 (R10.2): claiming an already damaged section wins; claiming a fourth section wins;
/// claiming a third does not.
#[test]
fn t11_victory_conditions_r10_2() {
    // third and fourth damage
    let mut s = empty();
    s.damaged = 1 << LEFT_DITCH | 1 << RIGHT_DITCH;
    s.place(ATTACKER, LEFT_WALL, &[c(YELLOW, 9), c(YELLOW, 10), c(YELLOW, 11)]);
    s.place(ATTACKER, RIGHT_WALL, &[c(RED, 9), c(RED, 10), c(RED, 11)]);
    assert_eq!(s.claimable, 1 << LEFT_WALL | 1 << RIGHT_WALL);
    s.apply_action(Action::Claim(LEFT_WALL as u8)).unwrap();
    assert_eq!(s.damaged.count_ones(), 3);
    assert_eq!(s.to_move(), Some(ATTACKER), "a third damaged section does not win");
    s.apply_action(Action::Claim(RIGHT_WALL as u8)).unwrap();
    assert_eq!(s.to_move(), None);
    assert_eq!((s.winner as usize, s.end_reason), (ATTACKER, "fourth_damage"));
    let o = s.outcome();
    assert_eq!((o.winners.clone(), o.returns.clone()), (vec![0], vec![1.0, -1.0]));
    // a damaged section claimed again: damaged left ditch asks for a Run; a colour run
    // 9-10-11 is the best there (another colour's ties and loses on completion order)
    let mut s = empty();
    s.damaged = 1 << LEFT_DITCH;
    s.place(ATTACKER, LEFT_DITCH, &[c(BLUE, 9), c(BLUE, 10), c(BLUE, 11)]);
    assert!(s.can_claim(LEFT_DITCH));
    s.apply_action(Action::Claim(LEFT_DITCH as u8)).unwrap();
    assert_eq!((s.winner as usize, s.end_reason), (ATTACKER, "damaged_twice"));
    // a plain run there cannot be proven while any colour run is unseen
    let mut s = empty();
    s.damaged = 1 << LEFT_DITCH;
    s.place(ATTACKER, LEFT_DITCH, &[c(RED, 9), c(BLUE, 10), c(RED, 11)]);
    assert!(!s.can_claim(LEFT_DITCH));
    // with `damages_to_win = 5` the fourth does not win
    let mut s = State::empty(params(&[("rules.damages_to_win", Value::Int(5))]));
    s.damaged = 0b0000111;
    s.place(ATTACKER, RIGHT_WALL, &[c(RED, 9), c(RED, 10), c(RED, 11)]);
    s.give(ATTACKER, c(PURPLE, 3));
    s.apply_action(Action::Claim(RIGHT_WALL as u8)).unwrap();
    assert_eq!(s.damaged.count_ones(), 4);
    assert_eq!(s.to_move(), Some(ATTACKER));
}

/// Random positions for T12: a random section face, Defender cards, and an unseen pool.
fn random_position(rng: &mut Rng) -> (Vec<u8>, u64, usize, Cond, bool) {
    let cap = 2 + rng.below(3);
    let cond = Cond::from_index(rng.below(6));
    let keep = rng.below(2) == 0;
    let mut all: Vec<u8> = (0..5).flat_map(|col| (0..12).map(move |v| card(col, v))).collect();
    rng.shuffle(&mut all);
    let k = rng.below(cap);
    // Defender cards: often one colour, or one value, or a run, so the upper tiers get tested
    let mut def: Vec<u8> = Vec::new();
    match rng.below(4) {
        0 => {
            let col = rng.below(5) as u8;
            let lo = rng.below(12 - cap + 1) as u8;
            for i in 0..k {
                def.push(card(col, lo + i as u8));
            }
        }
        1 => {
            let v = rng.below(12) as u8;
            let mut cols: Vec<u8> = (0..5).collect();
            rng.shuffle(&mut cols);
            def.extend(cols.iter().take(k).map(|&col| card(col, v)));
        }
        _ => def.extend(all.iter().take(k).copied()),
    }
    let taken: u64 = def.iter().fold(0, |m, &x| m | 1u64 << x);
    // the pool: a random share of the other cards, small often (late game)
    let share = [0.1, 0.25, 0.5, 0.8][rng.below(4)];
    let mut pool = 0u64;
    for &x in &all {
        if taken >> x & 1 == 0 && (rng.below(1000) as f64) < share * 1000.0 {
            pool |= 1u64 << x;
        }
    }
    (def, pool, cap, cond, keep)
}

/// T12 (R9.5): the tier-wise proof equals the brute-force proof on random positions
/// (10^5 by default; `KETHARMAD_ST2_PROOF_POSITIONS` overrides).
#[test]
fn t12_tier_wise_proof_equals_brute_force_r9_5() {
    let n: u64 = std::env::var("KETHARMAD_ST2_PROOF_POSITIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let mut rng = Rng::new(12);
    let mut upper = 0;
    for i in 0..n {
        let (def, pool, cap, cond, keep) = random_position(&mut rng);
        if std::env::var("ST2_DEBUG").is_ok() {
            eprintln!("{i}: {def:?} {pool:x} {cap} {cond:?} {keep}");
        }
        let fast = best_key(&def, pool, cap, cond, keep, 5, 11);
        let brute = best_key_brute(&def, pool, cap, cond, keep);
        assert_eq!(fast, brute, "position {i}: def {def:?} pool {pool:x} cap {cap} {cond:?} keep {keep}");
        if fast.is_some_and(|k| formation::kind_of(k) > 0) {
            upper += 1;
        }
        // and the claim decision for a random complete Attacker formation
        let mut free: Vec<u8> = (0..5).flat_map(|col| (0..12).map(move |v| card(col, v))).filter(|&x| pool >> x & 1 == 0 && !def.contains(&x)).collect();
        if free.len() < cap {
            continue;
        }
        rng.shuffle(&mut free);
        let att = &free[..cap];
        let face = Face { cards: cap as u8, cond };
        let ka = strength(att, cond, keep);
        let expect = brute.is_none_or(|kd| kd <= ka);
        assert_eq!(claim_succeeds(att, 1, &def, 0, pool, face, keep, 5, 11), expect, "position {i}");
    }
    assert!(upper as f64 > n as f64 * 0.3, "too few positions reach a kind above Sum: {upper}");
}

// ---------------------------------------------------------------- other rules

/// R5.1: retreat discards every Attacker card at the chosen sections and keeps the Defender's;
/// a retreat from a section without Attacker cards is not legal.
#[test]
fn retreat_discards_attacker_cards_only_r5_1() {
    let mut s = empty();
    s.place(ATTACKER, LEFT_TOWER, &[c(RED, 1), c(RED, 2)]);
    s.place(ATTACKER, GATE, &[c(BLUE, 1)]);
    s.place(DEFENDER, LEFT_TOWER, &[c(GREEN, 7)]);
    s.give(ATTACKER, c(PURPLE, 3));
    s.settle();
    let l = legal(&s);
    // occupied {1, 3}: masks 2, 8, 10 and the skip
    let retreats: Vec<u32> = l.iter().copied().filter(|&a| matches!(Action::from_id(a), Some(Action::Retreat(_)))).collect();
    assert_eq!(retreats.len(), 3);
    assert!(!s.is_legal(Action::Retreat(1)));
    s.apply_action(Action::Retreat(1 << LEFT_TOWER | 1 << GATE)).unwrap();
    assert_eq!(s.sides[ATTACKER][LEFT_TOWER].n + s.sides[ATTACKER][GATE].n, 0);
    assert_eq!(s.sides[DEFENDER][LEFT_TOWER].cards(), &[c(GREEN, 7)]);
    assert_eq!(s.phase, Phase::Play);
    assert_eq!(s.retreats, 1);
}

/// R4.2: with no free slot the player passes; by default he does not draw
/// (`no_play_draws = false`); with `full_side_defender_wins` the Defender wins instead.
#[test]
fn no_legal_play_passes_r4_2() {
    for (draws, full_wins) in [(false, false), (true, false), (false, true)] {
        let p = params(&[("rules.no_play_draws", Value::Bool(draws)), ("rules.full_side_defender_wins", Value::Bool(full_wins))]);
        let mut s = State::empty(p);
        // fill the Defender's side everywhere (22 cards)
        let mut next = 0u8;
        for sec in 0..7 {
            let cap = s.face(sec).cards as usize;
            let cards: Vec<u8> = (0..cap).map(|i| c(next / 12 % 5, (next % 12 + i as u8) % 12)).collect();
            let fresh: Vec<u8> = cards.into_iter().filter(|&x| s.hands[0] >> x & 1 == 0).collect();
            s.place(DEFENDER, sec, &fresh);
            next += 12;
        }
        let full = (0..7).all(|sec| s.sides[DEFENDER][sec].n == s.face(sec).cards);
        if !full {
            continue;
        }
        defender_to_move(&mut s);
        s.give(DEFENDER, c(PURPLE, 11));
        let deck_before = s.deck_len;
        s.settle();
        assert_eq!(s.passes[DEFENDER], 1);
        if full_wins {
            assert_eq!((s.winner as usize, s.end_reason), (DEFENDER, "defender_full"));
        } else {
            assert_eq!(s.current as usize, ATTACKER);
            assert_eq!(deck_before - s.deck_len, draws as u8);
        }
    }
}

/// R9.4: every claim a bot is offered in real games is provable (the brute-force oracle
/// agrees), and the bots claim at the first window (R4.1).
#[test]
fn offered_claims_agree_with_brute_force_in_games_r9_4() {
    let rules = SchottenTotten2;
    let v = resolve(&rules.registry(), &[]).unwrap();
    let mut checked = 0;
    for seed in 0..60 {
        let mut s = State::from_seed(Params::default(), seed);
        let mut g = ketharmad::games::schotten_totten2::bots::GreedyBot;
        let mut r = ketharmad::harness::agents::make_agent(&rules, &ketharmad::harness::agents::AgentSpec::parse("random").unwrap(), &v, 2, 0).unwrap();
        let mut rng = Rng::new(seed);
        let mut l = Vec::new();
        while let Some(seat) = s.to_move() {
            if seat == ATTACKER {
                for sec in 0..7 {
                    assert_eq!(s.claimable >> sec & 1 == 1, brute_can_claim(&s, sec), "seed {seed} section {sec}");
                    checked += 1;
                }
            }
            s.legal(&mut l);
            let a = if seed % 2 == 0 { g.act(&s, &l, &mut rng) } else { r.act(&s, &l, &mut rng) };
            s.apply(a).unwrap();
        }
    }
    assert!(checked > 1000);
}

// ---------------------------------------------------------------- fuzzer, determinism

/// Invariant fuzzer: random and greedy games; after every action each card is in exactly
/// one place, sides respect capacity, completion stamps match, hands never exceed the hand
/// size; illegal ids are refused and leave the state unchanged; every game ends by the rules
/// (`KETHARMAD_ST2_FUZZ_GAMES`, default 3000).
#[test]
fn invariant_fuzzer() {
    let n: u64 = std::env::var("KETHARMAD_ST2_FUZZ_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let rules = SchottenTotten2;
    let v = resolve(&rules.registry(), &[]).unwrap();
    let variants = [
        params(&[]),
        params(&[("rules.oil_target", Value::Str("newest".into())), ("rules.no_play_draws", Value::Bool(true))]),
        params(&[("rules.restricted_keeps_colour_run", Value::Bool(false)), ("rules.cauldrons_per_turn", Value::Int(2))]),
        params(&[("rules.attacker_last_turn", Value::Bool(false)), ("rules.full_side_defender_wins", Value::Bool(true))]),
    ];
    let mut reasons = std::collections::BTreeMap::new();
    for game in 0..n {
        let p = variants[game as usize % variants.len()];
        let mut s = State::from_seed(p, ketharmad::rng::game_seed(99, game));
        let names = [["random:prep=0.3", "random:prep=0.3"], ["greedy", "random"], ["random:prep=0.2", "greedy"], ["greedy", "greedy"]][(game / 4 % 4) as usize];
        let mut agents: Vec<Box<dyn Agent<State>>> =
            (0..2).map(|i| ketharmad::harness::agents::make_agent(&rules, &ketharmad::harness::agents::AgentSpec::parse(names[i]).unwrap(), &v, 2, i).unwrap()).collect();
        let mut rng = Rng::new(game);
        let mut l = Vec::new();
        let mut actions = 0;
        s.check_invariants().unwrap();
        while let Some(seat) = s.to_move() {
            s.legal(&mut l);
            assert!(!l.is_empty(), "game {game}: no legal action");
            if actions % 7 == 0 {
                // an illegal id is refused and changes nothing
                let bad = (0..ketharmad::games::schotten_totten2::ACTION_SPACE as u32 + 3).find(|x| !l.contains(x) && rng.below(3) == 0).unwrap_or(9999);
                let before = format!("{s:?}");
                assert!(s.apply(bad).is_err(), "game {game}: illegal {bad} accepted");
                assert_eq!(format!("{s:?}"), before);
            }
            let a = agents[seat].act(&s, &l, &mut rng);
            assert!(l.contains(&a));
            s.apply(a).unwrap();
            s.check_invariants().map_err(|e| format!("game {game} after {}: {e}", s.describe(a))).unwrap();
            actions += 1;
            assert!(actions < 5000, "game {game} does not end");
        }
        assert!(!s.unfinished, "game {game} hit the safety cap");
        let o = s.outcome();
        assert_eq!(o.winners.len(), 1);
        match o.end_reason {
            "fourth_damage" => assert_eq!(s.damaged.count_ones(), p.damages_to_win as u32),
            "damaged_twice" => assert!(s.damaged.count_ones() < p.damages_to_win as u32),
            "deck_out" => assert_eq!(s.deck_len, 0),
            "defender_full" => assert!(p.full_side_defender_wins),
            r => panic!("game {game}: end reason {r}"),
        }
        *reasons.entry(o.end_reason).or_insert(0) += 1;
    }
    eprintln!("end reasons: {reasons:?}");
    assert!(reasons.len() >= 3, "{reasons:?}");
}

/// Same seed, same games; 1 and 2 threads give identical columns (R11.5).
#[test]
fn determinism_and_thread_independence_r11_5() {
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    let a = vec!["greedy".to_string(), "random".to_string()];
    let c1 = run(&SchottenTotten2, &v, 2, &a, 600, 5, Some(1)).unwrap();
    let c2 = run(&SchottenTotten2, &v, 2, &a, 600, 5, Some(2)).unwrap();
    let c3 = run(&SchottenTotten2, &v, 2, &a, 600, 5, Some(2)).unwrap();
    assert_eq!(c1, c2);
    assert_eq!(c2, c3);
    let s = vec!["search:iterations=20".to_string(), "random".to_string()];
    let s1 = run(&SchottenTotten2, &v, 2, &s, 6, 5, Some(1)).unwrap();
    let s2 = run(&SchottenTotten2, &v, 2, &s, 6, 5, Some(2)).unwrap();
    assert_eq!(s1, s2);
    let other = run(&SchottenTotten2, &v, 2, &a, 600, 6, Some(2)).unwrap();
    assert_ne!(c1.turns, other.turns);
    // the extra columns of R10.4
    assert!(c1.game_extra.iter().any(|(n, _)| *n == "damaged_gate"));
    assert_eq!(c1.sides, vec!["attacker", "defender"]);
}

/// Determinize keeps the seat's own view: its observation is unchanged, the opponent's hand
/// and the deck are re-dealt from the same unseen cards.
#[test]
fn determinize_keeps_the_seats_view() {
    let rules = SchottenTotten2;
    let mut changed = 0;
    for seed in 0..50 {
        let s = play_prefix(seed, 10 + seed as usize % 30);
        if s.to_move().is_none() {
            continue;
        }
        for seat in 0..2 {
            let mut o1 = vec![0.0; rules.observation_len(2)];
            let mut o2 = o1.clone();
            s.observe(seat, &mut o1);
            let mut d = s.clone();
            d.determinize(seat, &mut Rng::new(seed * 7 + seat as u64));
            d.observe(seat, &mut o2);
            assert_eq!(o1, o2, "seed {seed} seat {seat}");
            assert_eq!(d.hands[seat], s.hands[seat]);
            assert_eq!(d.hands[1 - seat].count_ones(), s.hands[1 - seat].count_ones());
            assert_eq!(d.hands[1 - seat] | d.deck_set, s.hands[1 - seat] | s.deck_set);
            assert_eq!(d.deck_len, s.deck_len);
            d.check_invariants().unwrap();
            if d.hands[1 - seat] != s.hands[1 - seat] {
                changed += 1;
            }
            let mut la = Vec::new();
            let mut lb = Vec::new();
            if s.to_move() == Some(seat) {
                s.legal(&mut la);
                d.legal(&mut lb);
                assert_eq!(la, lb, "the mover's legal actions depend only on what it sees");
            }
        }
        s.check_invariants().unwrap();
    }
    assert!(changed > 30);
}

fn play_prefix(seed: u64, n: usize) -> State {
    let mut s = State::from_seed(Params::default(), seed);
    let mut rng = Rng::new(seed);
    let mut l = Vec::new();
    for _ in 0..n {
        if s.to_move().is_none() {
            break;
        }
        s.legal(&mut l);
        let a = l[rng.below(l.len())];
        s.apply(a).unwrap();
    }
    s
}

/// Parameters: unknown names, bad kinds and bad combinations are errors naming them.
#[test]
fn parameter_errors_name_the_parameter_r11_4() {
    let r = SchottenTotten2.registry();
    let e = resolve(&r, &[("rules.hand_sise".into(), Value::Int(5))]).unwrap_err();
    assert!(e.contains("rules.hand_sise"), "{e}");
    let e = resolve(&r, &[("wall.gate.damaged_condition".into(), Value::Str("square".into()))]).unwrap_err();
    assert!(e.contains("wall.gate.damaged_condition") && e.contains("minus"), "{e}");
    let e = resolve(&r, &[("rules.tactical".into(), Value::Bool(true))]).unwrap_err();
    assert!(e.contains("rules.tactical"), "{e}");
    let v = resolve(&r, &[("rules.colours".into(), Value::Int(1)), ("rules.max_value".into(), Value::Int(4))]).unwrap();
    let e = SchottenTotten2.new_game(&v, 2, 1, 0).err().unwrap();
    assert!(e.contains("rules.hand_size"), "{e}");
    let e = SchottenTotten2.new_game(&resolve(&r, &[]).unwrap(), 3, 1, 0).err().unwrap();
    assert!(e.contains("2 seats"), "{e}");
    // the defaults reproduce the R2 table
    let p = Params::default();
    let cards: Vec<(u8, u8)> = p.wall.iter().map(|s| (s.intact.cards, s.damaged.cards)).collect();
    assert_eq!(cards, vec![(3, 3), (4, 2), (3, 3), (2, 4), (3, 3), (4, 2), (3, 3)]);
    let names = r.iter().map(|p| p.name.as_ref()).collect::<Vec<&str>>();
    for n in [
        "rules.hand_size",
        "rules.cauldrons",
        "rules.damages_to_win",
        "rules.oil_target",
        "rules.restricted_keeps_colour_run",
        "rules.no_play_draws",
        "wall.right_ditch.intact_condition",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    // a parameter changes games: two cauldrons per turn are used
    let v2 = resolve(&r, &[("wall.gate.intact_cards".into(), Value::Int(4))]).unwrap();
    let s = SchottenTotten2.new_game(&v2, 2, 1, 0).unwrap();
    assert_eq!(s.face(GATE).cards, 4);
    let _ = (LEFT_DITCH, RIGHT_DITCH);
}

/// R13: the bots are ordered as they should be: greedy beats random on either side, the
/// search agent beats random; every game ends by the rules.
#[test]
fn bots_are_ordered_r13() {
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    let rate = |a: &str, d: &str, games: u64| {
        let cols = run(&SchottenTotten2, &v, 2, &[a.to_string(), d.to_string()], games, 3, None).unwrap();
        assert_eq!(cols.unfinished.iter().filter(|&&u| u).count(), 0);
        cols.wins(0) as f64 / games as f64
    };
    let base = rate("random", "random", 2000);
    assert!(base > 0.3 && base < 0.55, "random vs random: {base}");
    let ga = rate("greedy", "random", 400);
    let gd = rate("random", "greedy", 400);
    assert!(ga > base + 0.3, "greedy attacker {ga} vs base {base}");
    assert!(gd < base - 0.25, "greedy defender lets random win {gd} vs base {base}");
    let sa = rate("search:iterations=30", "random", 20);
    assert!(sa > base + 0.1, "search attacker {sa} vs base {base}");
    // the preparation rate of the random bot is an option; retreating at random is ruinous
    let rr = rate("random:prep=0.5", "random", 2000);
    assert!(rr < base - 0.2, "{rr} vs {base}");
}

/// Greedy's ranking (`Agent::rank`, what the search expands first and compares at its root)
/// starts with its own pick, holds every play once, and places the Defender's skip where his
/// cauldron threshold puts it; claims and retreats have none.
#[test]
fn greedy_ranking_starts_with_its_pick() {
    use ketharmad::games::schotten_totten2::bots::GreedyBot;
    let mut g = GreedyBot;
    let mut rng = Rng::new(0);
    let (mut plays, mut oils) = (0, 0);
    for seed in 0..40 {
        let mut s = State::from_seed(Params::default(), seed);
        let mut l = Vec::new();
        let mut out = Vec::new();
        while let Some(_m) = s.to_move() {
            s.legal(&mut l);
            let pick = g.act(&s, &l, &mut rng);
            if g.rank(&s, &l, &mut rng, &mut out) {
                assert_eq!(out[0], pick, "seed {seed} turn {}", s.turn);
                let mut sorted = out.clone();
                sorted.sort_unstable();
                let mut all = l.clone();
                all.sort_unstable();
                assert_eq!(sorted, all, "a ranking holds every legal action once");
                match s.phase {
                    Phase::Play => plays += 1,
                    Phase::Prep => oils += 1,
                    _ => panic!("no ranking expected in {:?}", s.phase),
                }
            } else {
                assert!(
                    l.iter().any(|&a| matches!(Action::from_id(a), Some(Action::Claim(_)))) || s.phase != Phase::Play || l == [ketharmad::games::schotten_totten2::actions::PASS]
                );
            }
            s.apply(pick).unwrap();
        }
    }
    assert!(plays > 1000 && oils > 20, "{plays} {oils}");
}

/// Issue 25: the search's key decisions here are the plays without an open claim and the
/// Defender's cauldrons; a claim (always right, R4.1) and the Attacker's retreat (a set of
/// sections: 2^k − 1 choices) are the rollout bot's.
#[test]
fn search_key_decisions_are_plays_and_cauldrons() {
    let mut seen = [0u32; 4];
    for seed in 0..30 {
        let mut s = State::from_seed(Params::default(), seed);
        let mut l = Vec::new();
        let mut g = ketharmad::games::schotten_totten2::bots::GreedyBot;
        let mut rng = Rng::new(seed);
        while let Some(m) = s.to_move() {
            s.legal(&mut l);
            let claim = l.iter().any(|&a| matches!(Action::from_id(a), Some(Action::Claim(_))));
            let key = s.key_decision();
            if claim {
                assert!(!key);
                seen[0] += 1;
            } else if s.phase == Phase::Prep && m == ATTACKER {
                assert!(!key);
                seen[1] += 1;
            } else if s.phase == Phase::Prep {
                assert!(key);
                seen[2] += 1;
            } else if s.phase == Phase::Play {
                assert!(key);
                seen[3] += 1;
            } else {
                assert!(!key);
            }
            let a = g.act(&s, &l, &mut rng);
            s.apply(a).unwrap();
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

/// Issue 25, the Attacker's collapse against greedy: the old search (every decision in the
/// tree, UCB1 over fresh deals, 1-turn cut-offs) retreated from sections greedy keeps; in the
/// same positions the search with this game's defaults takes greedy's preparation (it is not a
/// key decision) and claims at once.
#[test]
fn the_default_search_does_not_retreat_where_greedy_keeps_its_cards() {
    use ketharmad::harness::agents::{make_agent, AgentSpec};
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    let mk = |spec: &str| make_agent(&SchottenTotten2, &AgentSpec::parse(spec).unwrap(), &v, 2, ATTACKER).unwrap();
    let mut old = mk("search:iterations=100,widen=1,prior=greedy,own_only=1,horizon=1,rollout=greedy,key_only=0,halving=0,width=0");
    let mut new = mk("search:iterations=20");
    let mut greedy = mk("greedy");
    let (mut old_retreats, mut prep, mut claims) = (0, 0, 0);
    for seed in 0..6 {
        let mut s = State::from_seed(Params::default(), seed);
        let mut l = Vec::new();
        let mut rng = Rng::new(seed);
        while let Some(m) = s.to_move() {
            s.legal(&mut l);
            let a = greedy.act(&s, &l, &mut rng);
            if m == ATTACKER && l.len() > 1 && s.phase != Phase::Play {
                let n = new.act(&s, &l, &mut Rng::new(seed));
                assert_eq!(n, a, "seed {seed} turn {}: {} instead of greedy's {}", s.turn, s.describe(n), s.describe(a));
                if matches!(Action::from_id(a), Some(Action::Claim(_))) {
                    claims += 1;
                }
                if s.phase == Phase::Prep && a == ketharmad::games::schotten_totten2::actions::SKIP && s.turn % 4 == 1 {
                    prep += 1;
                    let o = old.act(&s, &l, &mut Rng::new(seed));
                    old_retreats += matches!(Action::from_id(o), Some(Action::Retreat(_))) as u32;
                }
            }
            s.apply(a).unwrap();
        }
    }
    assert!(claims > 5 && prep > 10, "{claims} {prep}");
    // the old search retreated in most of the positions where greedy keeps its cards (34 of 44)
    assert!(old_retreats * 2 > prep, "{old_retreats} of {prep}");
}
