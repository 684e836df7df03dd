//! Reductions (issue 11, item 2): a game range played into integer statistics equals the
//! reduction of the rows of the same games, merges exactly, and does not depend on the thread
//! count or on how the range is cut.

use ketharmad::batch::{reduce_batch_stoppable, run_batch_stoppable, BatchSpec, Columns, GameResult, Stats, TURN_BINS};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::harness::{BatchError, Stop};

fn db_with(params: &[(&str, i64)]) -> CardDb {
    let p: Vec<(String, ParamValue)> = params.iter().map(|(k, v)| (k.to_string(), ParamValue::Int(*v))).collect();
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &p).unwrap()
}

fn bot(kind: &str) -> BotSpec {
    BotSpec::parse(kind, vec![]).unwrap()
}

fn spec(factions: Vec<u8>, bots: Vec<BotSpec>, games: u64, seed: u64, threads: Option<usize>) -> BatchSpec {
    BatchSpec { factions, bots, games, seed, threads, start_player: None, ..Default::default() }
}

/// The statistics computed from the rows of a batch, independently of `Stats::add_game`.
fn from_columns(c: &Columns, factions: &[u8]) -> Stats {
    let n = c.n_seats;
    let mut s = Stats::new(n);
    let g = &c.games;
    s.games = g.game.len() as u64;
    for k in 0..g.game.len() {
        let t = g.turns[k] as u64;
        s.turns_sum += t;
        s.turns_sq_sum += (t * t) as u128;
        s.turns_hist[(t as usize).min(TURN_BINS)] += 1;
        s.turns_max = s.turns_max.max(t);
        let r = g.rounds[k] as u64;
        s.rounds_sum += r;
        s.rounds_hist[(r as usize).min(TURN_BINS)] += 1;
        s.rounds_max = s.rounds_max.max(r);
        s.end_reasons[g.end_reason[k] as usize] += 1;
        if g.winner[k] < 0 {
            s.unfinished += 1;
        }
    }
    for (k, &won) in c.players.won.iter().enumerate() {
        let seat = c.players.seat[k] as usize;
        let f = c.players.faction[k] as usize;
        assert_eq!(f, factions[seat] as usize);
        s.seats_faction[f] += 1;
        if won {
            s.wins_seat[seat] += 1;
            s.wins_faction[f] += 1;
        }
    }
    s
}

#[test]
fn stats_equal_the_reduction_of_the_rows_of_the_same_games() {
    let db = db_with(&[]);
    let unfinished = db_with(&[("rules.max_rounds", 6)]);
    let mirror_db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[("rules.allow_mirror".into(), ParamValue::Bool(true))]).unwrap();
    let cases = [
        (&db, spec(vec![0, 2], vec![bot("random"), bot("random")], 1500, 3, Some(2))),
        (&db, spec(vec![1, 3], vec![bot("heuristic"), bot("aggro")], 300, 11, Some(2))),
        (&db, spec(vec![0, 1, 2, 3], vec![bot("heuristic"), bot("random"), bot("control"), bot("random")], 200, 5, Some(1))),
        // a mirror match: both seats' wins go to the one faction
        (&mirror_db, spec(vec![2, 2], vec![bot("random"), bot("heuristic")], 300, 8, None)),
        // most games unfinished
        (&unfinished, spec(vec![0, 2], vec![bot("random"), bot("random")], 400, 1, Some(2))),
    ];
    for (db, s) in cases {
        for first in [0u64, 1234] {
            let rows = run_batch_stoppable(db, &s, false, first, &Stop::new()).unwrap();
            let want = from_columns(&rows, &s.factions);
            let got = reduce_batch_stoppable(db, &s, first, &Stop::new()).unwrap();
            assert_eq!(got, want, "{:?} first_game {first}", s.factions);
            assert_eq!(got.games, s.games);
            assert_eq!(got.wins_seat.iter().sum::<u64>() + got.unfinished, got.games);
            assert_eq!(got.turns_hist.iter().sum::<u64>(), got.games);
            assert_eq!(got.rounds_hist.iter().sum::<u64>(), got.games);
            assert!(got.rounds_max >= 1 && got.turns_max >= got.rounds_max);
        }
    }
    // the mirror and the capped cases do exercise their counts
    let mirror = reduce_batch_stoppable(&mirror_db, &spec(vec![2, 2], vec![bot("random"), bot("heuristic")], 300, 8, None), 0, &Stop::new()).unwrap();
    assert_eq!(mirror.wins_faction[2], 300 - mirror.unfinished);
    assert_eq!(mirror.seats_faction[2], 600);
    let capped = reduce_batch_stoppable(&unfinished, &spec(vec![0, 2], vec![bot("random"); 2], 400, 1, Some(2)), 0, &Stop::new()).unwrap();
    assert!(capped.unfinished > 200, "{capped:?}");
    assert_eq!(capped.end_reasons[2], capped.unfinished);
}

#[test]
fn a_range_cut_in_pieces_and_merged_equals_the_whole_range_on_any_threads() {
    let db = db_with(&[]);
    let mk = |games, threads| spec(vec![1, 2], vec![bot("heuristic"), bot("random")], games, 21, threads);
    let whole = reduce_batch_stoppable(&db, &mk(900, Some(2)), 100, &Stop::new()).unwrap();
    for threads in [Some(1), Some(2), Some(7), None] {
        assert_eq!(reduce_batch_stoppable(&db, &mk(900, threads), 100, &Stop::new()).unwrap(), whole, "threads {threads:?}");
    }
    // 100..1000 in three uneven pieces, merged in two different orders
    let pieces: Vec<Stats> =
        [(100u64, 250u64), (350, 1), (351, 649)].iter().map(|&(first, n)| reduce_batch_stoppable(&db, &mk(n, Some(1)), first, &Stop::new()).unwrap()).collect();
    let mut a = Stats::new(2);
    for p in &pieces {
        a.merge(p).unwrap();
    }
    let mut b = pieces[2].clone();
    b.merge(&pieces[0]).unwrap();
    b.merge(&pieces[1]).unwrap();
    assert_eq!(a, whole);
    assert_eq!(b, whole);
    // statistics of different seat counts do not merge
    assert!(Stats::new(3).merge(&whole).unwrap_err().contains("3-seat and 2-seat"));
}

#[test]
fn long_games_go_to_the_overflow_bin() {
    let mut s = Stats::new(2);
    let mut r = GameResult { winner: 1, turns: TURN_BINS as i32 - 1, rounds: 7, end_reason: 0, ..Default::default() };
    s.add_game(&r, &[0, 2]);
    r.turns = TURN_BINS as i32;
    r.rounds = TURN_BINS as i32 + 3;
    s.add_game(&r, &[0, 2]);
    r.turns = 100_000;
    r.rounds = 50_000;
    r.winner = -1;
    r.end_reason = 2;
    s.add_game(&r, &[0, 2]);
    assert_eq!(s.turns_hist[TURN_BINS - 1], 1);
    assert_eq!(s.turns_hist[TURN_BINS], 2);
    assert_eq!(s.turns_sum, (TURN_BINS - 1 + TURN_BINS + 100_000) as u64);
    assert_eq!(s.turns_sq_sum, [TURN_BINS as u128 - 1, TURN_BINS as u128, 100_000].iter().map(|t| t * t).sum::<u128>());
    assert_eq!((&s.wins_seat[..4], s.wins_faction, s.unfinished, s.end_reasons), (&[0, 2, 0, 0][..], [0, 0, 2, 0], 1, [2, 0, 1, 0]));
    assert_eq!((s.turns_max, s.rounds_max, s.rounds_sum), (100_000, 50_000, (7 + TURN_BINS + 3 + 50_000) as u64));
    assert_eq!((s.rounds_hist[7], s.rounds_hist[TURN_BINS]), (1, 2));
    // the maxima merge as maxima
    let mut m = Stats::new(2);
    m.add_game(&GameResult { winner: 0, turns: 9, rounds: 5, ..Default::default() }, &[0, 2]);
    m.merge(&s).unwrap();
    assert_eq!((m.turns_max, m.rounds_max, m.rounds_sum), (100_000, 50_000, s.rounds_sum + 5));
}

#[test]
fn a_reduction_stops_on_request_and_refuses_bad_input() {
    let db = db_with(&[]);
    let s = spec(vec![0, 2], vec![bot("random"); 2], 50, 1, Some(1));
    let stop = Stop::new();
    stop.request();
    assert_eq!(reduce_batch_stoppable(&db, &s, 0, &stop).unwrap_err(), BatchError::Stopped);
    assert!(matches!(reduce_batch_stoppable(&db, &s, i64::MAX as u64, &Stop::new()), Err(BatchError::Invalid(m)) if m.contains("2^63")));
    let one_deck = spec(vec![0], vec![bot("random")], 5, 1, Some(1));
    assert!(matches!(reduce_batch_stoppable(&db, &one_deck, 0, &Stop::new()), Err(BatchError::Invalid(m)) if m.contains("2 to 4 decks")));
}
