//! Kétharmad on the generic harness (issue 14 item 1; `games::ketharmad`): the adapter plays
//! the same games as the fast batch, is thread-independent, lets the generic agents play, keeps
//! what a seat sees when it re-deals, and names bad input.

use ketharmad::batch::{run_batch, BatchSpec, Columns};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{load_raw, ParamValue, RawDb, FACTIONS};
use ketharmad::games::ketharmad::{KetharmadRules, KetharmadState};
use ketharmad::harness::agents::{make_agent, AgentSpec, RandomAgent};
use ketharmad::harness::batch::{run, GenericColumns};
use ketharmad::harness::{play_out, resolve, Agent, BatchError, GameState, Rules, Value};
use ketharmad::rng::{game_seed, Rng, Stream};
use std::sync::Arc;

fn raw() -> Arc<RawDb> {
    Arc::new(load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap())
}

fn rules(decks: &[&str]) -> KetharmadRules {
    let d: Vec<String> = decks.iter().map(|s| s.to_string()).collect();
    KetharmadRules::new(raw(), Vec::new(), &d, None).unwrap()
}

fn fast_batch(r: &KetharmadRules, decks: &[&str], bot: &str, games: u64, seed: u64) -> Columns {
    let factions: Vec<u8> = decks.iter().map(|d| FACTIONS.iter().position(|f| f == d).unwrap() as u8).collect();
    let n = factions.len();
    let spec = BatchSpec { factions, bots: vec![BotSpec::parse(bot, vec![]).unwrap(); n], games, seed, threads: Some(2), start_player: None, ..Default::default() };
    run_batch(r.db(), &spec).unwrap()
}

fn seat_col<'a>(c: &'a GenericColumns, name: &str) -> &'a [f64] {
    &c.seat_extra.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no seat column {name}")).1
}

/// (a) The harness (generic block runner + KetharmadRules + built-in bots answering through
/// the stepper) gives exactly the winner, turns and final Support of every game of the fast
/// batch with the same seed: random, heuristic and the aggro preset, 2 and 4 seats.
#[test]
fn harness_batch_reproduces_the_fast_batch() {
    for decks in [&["ner", "tisza"][..], &["ner", "osszefogas", "tisza", "radikalisok"][..]] {
        let r = rules(decks);
        let vals = resolve(&r.registry(), &[]).unwrap();
        let n = decks.len();
        for bot in ["random", "heuristic", "aggro"] {
            let games = 300;
            let fast = fast_batch(&r, decks, bot, games, 41);
            let c = run(&r, &vals, n, &vec![bot.to_string(); n], games, 41, Some(2)).unwrap();
            assert_eq!(c.len(), games as usize);
            let winner: Vec<i64> = fast.games.winner.iter().map(|&w| w as i64).collect();
            assert_eq!(c.winner, winner, "{bot} {decks:?}: winners differ");
            let turns: Vec<u32> = fast.games.turns.iter().map(|&t| t as u32).collect();
            assert_eq!(c.turns, turns, "{bot} {decks:?}: turns differ");
            let support: Vec<f64> = fast.players.support.iter().map(|&s| s as f64).collect();
            assert_eq!(seat_col(&c, "support"), &support[..], "{bot} {decks:?}: final Support differs");
            let won: Vec<bool> = fast.players.won.clone();
            assert_eq!(c.seat_win, won, "{bot} {decks:?}: won column differs");
            let seeds: Vec<u64> = fast.games.seed.clone();
            assert_eq!(c.seed, seeds);
            // the games are not all alike (the comparison is not vacuous)
            assert!(c.winner.iter().any(|&w| w != c.winner[0]), "{bot} {decks:?}: one winner in every game");
        }
    }
}

/// (b) The generic batch of KetharmadRules gives identical columns on 1 and 2 threads.
#[test]
fn harness_batch_is_thread_independent() {
    let r = rules(&["tisza", "ner"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let a = ["heuristic".to_string(), "random".to_string()];
    let c1 = run(&r, &vals, 2, &a, 200, 9, Some(1)).unwrap();
    let c2 = run(&r, &vals, 2, &a, 200, 9, Some(2)).unwrap();
    assert_eq!(c1, c2);
    assert_eq!(c1.len(), 200);
    let c3 = run(&r, &vals, 2, &a, 200, 10, Some(2)).unwrap();
    assert_ne!(c1.turns, c3.turns, "another seed gives other games");
}

/// A generic-agent wrapper that fails the test on an illegal choice.
struct Checked<A>(A);
impl<A: Agent<KetharmadState>> Agent<KetharmadState> for Checked<A> {
    fn act(&mut self, s: &KetharmadState, legal: &[u32], rng: &mut Rng) -> u32 {
        let mut now = Vec::new();
        s.legal_actions(&mut now);
        assert_eq!(now, legal);
        let a = self.0.act(s, legal, rng);
        assert!(legal.contains(&a), "illegal action {a} among {legal:?}");
        a
    }
}

/// (c) The generic ISMCTS ("ismcts", 40 iterations, rollouts by Kétharmad's random bot) and
/// the generic random agent finish Kétharmad games with legal actions only, and ISMCTS beats
/// the random agent clearly: it plays each side of ner vs tisza in half of 24 games, and the
/// baseline is random vs random on the same deals (seen: 20/24 against 11/24; a fair coin
/// reaches 18 of 24 with probability 0.01).
#[test]
fn generic_ismcts_beats_generic_random() {
    let r = rules(&["ner", "tisza"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let games = 24u64;
    let (mut search_wins, mut random_wins) = (0, 0);
    for g in 0..games {
        let search_seat = (g % 2) as usize;
        // ismcts vs random
        let mut s = r.new_game(&vals, 2, 3, g).unwrap();
        let spec = AgentSpec::parse("ismcts:iterations=40").unwrap();
        let mut agents: Vec<Box<dyn Agent<KetharmadState>>> = vec![Box::new(Checked(RandomAgent)), Box::new(Checked(RandomAgent))];
        agents[search_seat] = make_agent(&r, &spec, &vals, 2, search_seat).unwrap();
        let seed = game_seed(3, g);
        let mut rngs: Vec<Rng> = (0..2).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i)).collect();
        let o = play_out(&mut s, &mut agents, &mut rngs, 100_000);
        assert!(!o.unfinished, "game {g}: {}", o.end_reason);
        assert_eq!(o.winners.len(), 1, "game {g}: {:?}", o.winners);
        search_wins += (o.winners[0] as usize == search_seat) as u32;
        // random vs random on the same deal
        let mut s = r.new_game(&vals, 2, 3, g).unwrap();
        let mut agents: Vec<Box<dyn Agent<KetharmadState>>> = vec![Box::new(Checked(RandomAgent)), Box::new(Checked(RandomAgent))];
        let mut rngs: Vec<Rng> = (0..2).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i)).collect();
        let o = play_out(&mut s, &mut agents, &mut rngs, 100_000);
        assert!(!o.unfinished && o.winners.len() == 1, "game {g}: {}", o.end_reason);
        random_wins += (o.winners[0] as usize == search_seat) as u32;
    }
    eprintln!("ismcts won {search_wins}/{games}; random in its seat won {random_wins}/{games}");
    assert!(search_wins >= 18, "ismcts won only {search_wins}/{games}");
    assert!(search_wins >= random_wins + 5, "ismcts {search_wins} vs random {random_wins}");
}

/// (d) Re-dealing for a seat keeps what it sees: its observation tensor (its hand, the public
/// state, the pending decision) is the same before and after `determinize`, while hidden
/// cards do change (another seat's observation differs in some states).
#[test]
fn determinize_keeps_the_seats_view() {
    let r = rules(&["ner", "tisza"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let len = r.observation_len(2);
    let (mut checked, mut other_changed, mut moved) = (0, 0, 0);
    let mut legal = Vec::new();
    for g in 0..20u64 {
        let mut s = r.new_game(&vals, 2, 77, g).unwrap();
        let mut rng = Rng::new(g);
        let mut step = 0;
        while s.to_move().is_some() {
            if step % 7 == 3 {
                for seat in 0..2 {
                    let mut d = s.clone();
                    d.determinize(seat, &mut Rng::new(1000 + step));
                    if d.to_move() != s.to_move() {
                        // rare: the re-dealt cards changed what `seat` was offered
                        moved += 1;
                        continue;
                    }
                    let (mut a, mut b) = (vec![0f32; len], vec![0f32; len]);
                    s.observe(seat, &mut a);
                    d.observe(seat, &mut b);
                    assert_eq!(a, b, "game {g} step {step}: seat {seat}'s view changed");
                    let (mut x, mut y) = (vec![0f32; len], vec![0f32; len]);
                    s.observe(1 - seat, &mut x);
                    d.observe(1 - seat, &mut y);
                    other_changed += (x != y) as u32;
                    checked += 1;
                }
            }
            s.legal_actions(&mut legal);
            let a = legal[rng.below(legal.len())];
            s.apply(a).unwrap();
            step += 1;
        }
    }
    eprintln!("checked {checked}, other seat's view changed {other_changed}, moved {moved}");
    assert!(checked > 200, "{checked}");
    assert!(moved * 20 < checked, "{moved} of {checked} re-deals reached another decision");
    assert!(other_changed * 4 > checked, "hidden cards were re-dealt in only {other_changed} of {checked}");
}

/// Parameters come from the card set's table: a changed rule number through the harness's
/// values plays the games of a card set built with that override.
#[test]
fn parameter_values_reach_the_card_set() {
    let r = rules(&["ner", "tisza"]);
    let reg = r.registry();
    assert!(reg.iter().any(|p| p.name == "rules.starting_support"));
    assert!(reg.iter().any(|p| p.name.ends_with(".copies")));
    let vals = resolve(&reg, &[("rules.starting_support".into(), Value::Int(12))]).unwrap();
    let c = run(&r, &vals, 2, &["random".into(), "random".into()], 100, 5, Some(2)).unwrap();
    let over = KetharmadRules::new(raw(), vec![("rules.starting_support".into(), ParamValue::Int(12))], &["ner".into(), "tisza".into()], None).unwrap();
    let fast = fast_batch(&over, &["ner", "tisza"], "random", 100, 5);
    assert_eq!(c.winner, fast.games.winner.iter().map(|&w| w as i64).collect::<Vec<_>>());
    assert_eq!(c.turns, fast.games.turns.iter().map(|&w| w as u32).collect::<Vec<_>>());
    let base = run(&r, &resolve(&reg, &[]).unwrap(), 2, &["random".into(), "random".into()], 100, 5, Some(2)).unwrap();
    assert_ne!(base.turns, c.turns, "the override changes the games");
    // the overridden rules list the value they play as the default
    let p = over.registry().into_iter().find(|p| p.name == "rules.starting_support").unwrap();
    assert_eq!(p.default, 12.0);
}

/// (e) Bad input is an error naming it.
#[test]
fn bad_input_is_an_error_naming_it() {
    let r = rules(&["ner", "tisza"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let invalid = |e: BatchError| match e {
        BatchError::Invalid(m) => m,
        other => panic!("expected an Invalid error, got {other:?}"),
    };
    let e = invalid(run(&r, &vals, 3, &vec!["random".to_string(); 3], 10, 1, None).unwrap_err());
    assert!(e.contains("3 seats") || e.contains("got 3"), "{e}");
    let e = invalid(run(&r, &vals, 2, &["random".into(), "greedy".into()], 10, 1, None).unwrap_err());
    assert!(e.contains("unknown agent 'greedy'"), "{e}");
    let e = invalid(run(&r, &vals, 2, &["heuristic:bogus=1".into(), "random".into()], 10, 1, None).unwrap_err());
    assert!(e.contains("bogus"), "{e}");
    let e = resolve(&r.registry(), &[("rules.no_such_rule".into(), Value::Int(1))]).unwrap_err();
    assert!(e.contains("unknown parameter 'rules.no_such_rule'"), "{e}");
    let e = resolve(&r.registry(), &[("rules.starting_support".into(), Value::Int(-5))]).unwrap_err();
    assert!(e.contains("rules.starting_support"), "{e}");
    let e = KetharmadRules::new(raw(), vec![("rules.nope".into(), ParamValue::Int(1))], &["ner".into(), "tisza".into()], None).err().unwrap();
    assert!(e.contains("rules.nope"), "{e}");
    let e = KetharmadRules::new(raw(), Vec::new(), &["ner".into(), "fidesz".into()], None).err().unwrap();
    assert!(e.contains("fidesz"), "{e}");
    let five: Vec<String> = ["ner", "tisza", "ner", "tisza", "ner"].iter().map(|s| s.to_string()).collect();
    let e = KetharmadRules::new(raw(), Vec::new(), &five, None).err().unwrap();
    assert!(e.contains("5"), "{e}");
    let mut s = r.new_game(&vals, 2, 1, 0).unwrap();
    let e = s.apply(u32::MAX - 1).unwrap_err();
    assert!(e.contains("not legal"), "{e}");
}

/// The search's evaluation (`games::ketharmad::evaluate`, issue 25): with only Support
/// weighted, a 2-player start (R1.1, R3.8: 20 against 25 Support) scores tanh(∓5 / scale); the
/// hand weight adds the hand sizes; an eliminated seat scores −1. The search's clock is the
/// game's turn.
#[test]
fn the_evaluation_scores_support_board_and_hand() {
    use ketharmad::games::ketharmad::EVAL_KNOBS;
    let r = rules(&["ner", "tisza"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let mut s = r.new_game(&vals, 2, 3, 0).unwrap();
    assert!(s.has_evaluation());
    // on to the first main-priority decision (after the mulligans)
    let mut legal = Vec::new();
    while !s.key_decision() {
        s.legal_actions(&mut legal);
        s.apply(legal[0]).unwrap();
    }
    assert_eq!(EVAL_KNOBS.iter().map(|k| k.name).collect::<Vec<_>>(), ["eval_board", "eval_credibility", "eval_hand", "eval_scandal", "eval_scale"]);
    let mut out = [0f64; 2];
    let v = s.stepper().view(0);
    let (s0, s1) = (v.support(0), v.support(1));
    let start = if v.active() == 0 { (20, 25) } else { (25, 20) };
    assert_eq!((s0, s1), start, "the second player starts with 25 Support (R3.8)");
    assert!(s.evaluate(&[0.0, 0.0, 0.0, 0.0, 10.0], &mut out));
    let want = ((s0 - s1) as f64 / 10.0).tanh();
    assert!((out[0] - want).abs() < 1e-12 && (out[1] + want).abs() < 1e-12, "{out:?} vs {want}");
    let (h0, h1) = (v.hand_size(0) as f64, v.hand_size(1) as f64);
    s.evaluate(&[0.0, 0.0, 2.0, 0.0, 10.0], &mut out);
    let want = ((s0 - s1) as f64 + 2.0 * (h0 - h1)) / 10.0;
    assert!((out[0] - want.tanh()).abs() < 1e-12);
    // play on with random answers: the values stay in -1..=1 and opposite for two seats, the
    // clock counts the turns, and a finished game's rewards are its returns
    let mut rng = Rng::new(5);
    let mut last = s.clock();
    while s.to_move().is_some() {
        s.legal_actions(&mut legal);
        s.apply(legal[rng.below(legal.len())]).unwrap();
        assert!(s.clock() >= last);
        last = s.clock();
        s.evaluate(&[1.0, 0.25, 1.0, 0.5, 10.0], &mut out);
        assert!(out.iter().all(|x| (-1.0..=1.0).contains(x)));
        assert!((out[0] + out[1]).abs() < 1e-9 || out.contains(&-1.0), "{out:?}");
    }
    assert_eq!(last, s.outcome().turns);
    let mut rew = [9f64; 2];
    s.rewards(&mut rew);
    assert_eq!(rew.to_vec(), s.outcome().returns);
    s.evaluate(&[1.0, 0.25, 1.0, 0.5, 10.0], &mut out);
    let loser = s.outcome().returns.iter().position(|&x| x < 0.0).unwrap();
    assert_eq!(out[loser], -1.0, "an eliminated seat scores -1");
}

/// The rule-based bots' ranking (`Agent::rank`, issue 25: what the search widens first and the
/// candidates its paired root compares): at every main-priority decision it lists each legal
/// action once, the bot's own pick first, and the order is the heuristic's (not the options'
/// order); at other decisions there is none.
#[test]
fn the_heuristic_ranks_main_priority_options_its_pick_first() {
    use ketharmad::games::ketharmad::BuiltinAgent;
    let r = rules(&["ner", "tisza"]);
    let vals = resolve(&r.registry(), &[]).unwrap();
    let (mut ranked, mut reordered, mut unranked) = (0, 0, 0);
    for game in 0..6u64 {
        let mut s = r.new_game(&vals, 2, 5, game).unwrap();
        let mut bots = [BuiltinAgent::named("tuned"), BuiltinAgent::named("heuristic")];
        let mut rngs = [Rng::stream(5, 1), Rng::stream(5, 2)];
        let (mut legal, mut out) = (Vec::new(), Vec::new());
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut legal);
            let pick = bots[seat].act(&s, &legal, &mut rngs[seat]);
            if bots[seat].rank(&s, &legal, &mut rngs[seat], &mut out) {
                ranked += 1;
                assert!(s.key_decision(), "only main priority is ranked");
                assert_eq!(out[0], pick, "the pick first");
                let (mut a, mut b) = (out.clone(), legal.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "every legal action once");
                reordered += (out[1..] != legal.iter().copied().filter(|&x| x != pick).collect::<Vec<_>>()[..]) as u32;
            } else {
                unranked += 1;
                assert!(!s.key_decision() || legal.len() == 1, "a main-priority decision without a ranking");
            }
            s.apply(pick).unwrap();
        }
    }
    assert!(ranked > 50 && reordered > 10 && unranked > 0, "ranked {ranked}, reordered {reordered}, unranked {unranked}");
}
