//! Process safety of the batch runner and the search bot (issue 9, items 1, 2, 5, 6, 9): a
//! batch stops on its own stop token, a batch too large for memory is an error (not an
//! abort), thread pools are reused and capped, search rollouts are bounded and counted.

use ketharmad::batch::{run_batch_stoppable, BatchSpec, Columns};
use ketharmad::bots::{search::Search, BotSpec, Policy};
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::engine::{EndReason, Game, GameConfig};
use ketharmad::harness::{available_threads, thread_pool, BatchError, Stop, MAX_THREADS};
use ketharmad::rng::Rng;
use std::time::{Duration, Instant};

fn db_with(params: &[(&str, i64)]) -> CardDb {
    let p: Vec<(String, ParamValue)> = params.iter().map(|(k, v)| (k.to_string(), ParamValue::Int(*v))).collect();
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &p).unwrap()
}

/// Rules under which no player can lose Support (no Campaigns, no Exposés, no deck-out or
/// Scandal losses): every game runs to the round cap.
const ENDLESS: &[(&str, i64)] =
    &[("rules.starting_support", 1000), ("rules.empty_deck_loss", 0), ("rules.campaigns_per_turn", 0), ("rules.exposes_per_turn", 0), ("rules.scandal_threshold_loss", 0)];

fn spec(bots: Vec<BotSpec>, games: u64, threads: Option<usize>) -> BatchSpec {
    BatchSpec { factions: vec![0, 2], bots, games, seed: 7, threads, start_player: None, ..Default::default() }
}

fn search(knobs: &[(&str, f64)]) -> BotSpec {
    BotSpec::parse("search", knobs.iter().map(|(k, v)| (k.to_string(), *v)).collect()).unwrap()
}

#[test]
fn a_requested_stop_ends_the_batch_between_games() {
    let db = db_with(&[]);
    // requested before the start: no game is played
    let stop = Stop::new();
    stop.request();
    let s = spec(vec![BotSpec::random(); 2], 1000, Some(1));
    assert_eq!(run_batch_stoppable(&db, &s, false, 0, &stop).unwrap_err(), BatchError::Stopped);
    // requested from another thread while a long batch runs: it ends soon after
    let stop = Stop::new();
    let s = spec(vec![BotSpec::parse("heuristic", vec![]).unwrap(); 2], 5_000_000, Some(2));
    let t = Instant::now();
    let res = std::thread::scope(|sc| {
        let token = stop.clone();
        sc.spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            token.request();
        });
        run_batch_stoppable(&db, &s, false, 0, &stop)
    });
    assert_eq!(res.unwrap_err(), BatchError::Stopped);
    assert!(t.elapsed() < Duration::from_secs(5), "the batch took {:?} to stop", t.elapsed());
    // a fresh token is independent of a used one (no process-global state)
    let s = spec(vec![BotSpec::random(); 2], 20, Some(1));
    assert_eq!(run_batch_stoppable(&db, &s, false, 0, &Stop::new()).unwrap().games.game.len(), 20);
}

#[test]
fn a_search_game_stops_between_rollouts() {
    // one game whose every decision would take minutes (10^6 rollouts to the round cap)
    let db = db_with(ENDLESS);
    let s = spec(vec![search(&[("iterations", 1_000_000.0)]), BotSpec::random()], 1, Some(1));
    let stop = Stop::new();
    let t = Instant::now();
    let res = std::thread::scope(|sc| {
        let token = stop.clone();
        sc.spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            token.request();
        });
        run_batch_stoppable(&db, &s, false, 0, &stop)
    });
    assert_eq!(res.unwrap_err(), BatchError::Stopped);
    assert!(t.elapsed() < Duration::from_secs(5), "the search game took {:?} to stop", t.elapsed());
}

#[test]
fn result_columns_too_large_for_memory_are_an_error_not_an_abort() {
    let mut c = Columns { n_seats: 4, ..Default::default() };
    match c.reserve(1 << 50) {
        Err(BatchError::Memory(m)) => assert!(m.contains("not enough memory") && m.contains("games"), "{m}"),
        other => panic!("expected a memory error, got {other:?}"),
    }
    // the size is computed without overflow
    assert_eq!(Columns::bytes_for(u64::MAX, 4), u64::MAX);
    // the whole batch fails the same way, before any game runs
    let db = db_with(&[]);
    let s = spec(vec![BotSpec::random(); 2], 1 << 50, Some(1));
    assert!(matches!(run_batch_stoppable(&db, &s, false, 0, &Stop::new()), Err(BatchError::Memory(_))));
    // and game indices beyond i64 are refused
    let s = spec(vec![BotSpec::random(); 2], 10, Some(1));
    assert!(matches!(run_batch_stoppable(&db, &s, false, i64::MAX as u64, &Stop::new()), Err(BatchError::Invalid(_))));
}

#[test]
fn thread_pools_are_capped_at_the_cores_and_reused() {
    let a = thread_pool(2).unwrap();
    let b = thread_pool(2).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b), "a second batch with threads=2 built a new pool");
    let big = thread_pool(MAX_THREADS).unwrap();
    assert_eq!(big.current_num_threads(), available_threads());
    assert!(std::sync::Arc::ptr_eq(&big, &thread_pool(available_threads()).unwrap()));
    let db = db_with(&[]);
    let err = spec(vec![BotSpec::random(); 2], 10, Some(MAX_THREADS + 1)).validate(&db).unwrap_err();
    assert!(err.contains("threads must be at most 1024"), "{err}");
    // results do not depend on the thread count, capped or not
    let one = run_batch_stoppable(&db, &spec(vec![BotSpec::random(); 2], 300, Some(1)), false, 0, &Stop::new()).unwrap();
    let many = run_batch_stoppable(&db, &spec(vec![BotSpec::random(); 2], 300, Some(MAX_THREADS)), false, 0, &Stop::new()).unwrap();
    assert_eq!(one.games.winner, many.games.winner);
    assert_eq!(one.players.support, many.players.support);
}

/// Play one 2-player game, seat 0 a search bot with `knobs`, seat 1 the heuristic; return
/// the outcome, the round it ended in and seat 0's search policy after the game.
fn search_game(db: &CardDb, knobs: &[(&str, f64)], seed: u64) -> (EndReason, u32, Search) {
    let cfg = GameConfig { factions: vec![0, 2], seed, start_player: None, ..Default::default() };
    let pols = vec![Policy::new(&search(knobs), Rng::new(seed)), Policy::new(&BotSpec::parse("heuristic", vec![]).unwrap(), Rng::new(seed + 1))];
    let mut g = Game::new(db, &cfg, pols);
    let out = g.run(None);
    let s = match g.policy::<Policy>(0).unwrap() {
        Policy::Search(s) => (**s).clone(),
        _ => unreachable!(),
    };
    (out.reason, g.state().round, s)
}

#[test]
fn search_rollouts_respect_rollout_rounds_and_count_unfinished_ones() {
    // endless rules: every rollout is cut, exactly `rollout_rounds` rounds after its decision
    let db = db_with(&[ENDLESS, &[("rules.max_rounds", 60)]].concat());
    for r in [1u32, 3] {
        let (reason, rounds, s) = search_game(&db, &[("iterations", 4.0), ("rollout_rounds", r as f64)], 3);
        assert_eq!(reason, EndReason::UnfinishedRoundCap);
        assert_eq!(rounds, 60);
        assert!(s.rollouts > 100, "only {} rollouts", s.rollouts);
        assert_eq!(s.unfinished_rollouts, s.rollouts, "every rollout of an endless game is unfinished");
        assert_eq!(s.longest_rollout, r, "rollout_rounds = {r}");
    }
    // the default bound is 30 rounds
    let (_, _, s) = search_game(&db, &[("iterations", 2.0)], 3);
    assert_eq!(s.rollout_rounds, 30);
    assert_eq!(s.longest_rollout, 30);
    // normal rules: rollouts end with a winner long before a generous bound, none is unfinished
    let db = db_with(&[]);
    let (reason, _, s) = search_game(&db, &[("iterations", 8.0), ("rollout_rounds", 500.0)], 5);
    assert_eq!(reason, EndReason::LastPlayerStanding);
    assert!(s.rollouts > 0);
    assert_eq!(s.unfinished_rollouts, 0);
    assert!(s.longest_rollout < 100);
    // a bound of 1 round cuts (and counts) the rollouts of the same game
    let (_, _, s) = search_game(&db, &[("iterations", 8.0), ("rollout_rounds", 1.0)], 5);
    assert!(s.unfinished_rollouts > 0 && s.unfinished_rollouts <= s.rollouts);
    assert!(s.longest_rollout <= 1);
}

#[test]
fn rollout_rounds_is_a_checked_knob() {
    for bad in [0.0, 1.5, 100_001.0, f64::NAN] {
        let e = BotSpec::parse("search", vec![("rollout_rounds".into(), bad)]).unwrap_err();
        assert!(e.contains("rollout_rounds") && e.contains("1..=100000"), "{e}");
    }
    assert!(BotSpec::parse("heuristic", vec![("rollout_rounds".into(), 5.0)]).is_err());
}

#[test]
fn a_stopped_search_takes_no_more_rollouts() {
    let db = db_with(&[]);
    let stop = Stop::new();
    stop.request();
    let cfg = GameConfig { factions: vec![0, 2], seed: 1, start_player: None, ..Default::default() };
    let mut pol = Policy::new(&search(&[("iterations", 50.0)]), Rng::new(1));
    if let Policy::Search(s) = &mut pol {
        s.stop = Some(stop.clone());
    }
    let mut g = Game::new(&db, &cfg, vec![pol, Policy::new(&BotSpec::parse("heuristic", vec![]).unwrap(), Rng::new(2))]);
    g.run(None);
    match g.policy::<Policy>(0).unwrap() {
        Policy::Search(s) => assert_eq!(s.rollouts, 0),
        _ => unreachable!(),
    }
}
