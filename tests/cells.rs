//! `run_cells_stoppable`: several cells in one call play, cell by cell, exactly the games
//! `run_batch_stoppable` plays for each cell alone, on any number of threads.

use ketharmad::batch::{run_batch_stoppable, run_cells_stoppable, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw};
use ketharmad::harness::Stop;

fn bot(kind: &str) -> BotSpec {
    BotSpec::parse(kind, Vec::new()).unwrap()
}

#[test]
fn cells_in_one_call_are_the_cells_played_alone() {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    for threads in [Some(1), Some(2), None] {
        let cell = |f: [u8; 2], b: [&str; 2], games: u64, start: Option<u8>| BatchSpec {
            factions: f.to_vec(),
            bots: b.iter().map(|k| bot(k)).collect(),
            games,
            seed: 5,
            threads,
            start_player: start,
            ..Default::default()
        };
        let specs = vec![cell([0, 2], ["heuristic", "random"], 37, Some(0)), cell([2, 0], ["random", "heuristic"], 1, Some(1)), cell([1, 3], ["aggro", "heuristic"], 50, None)];
        let firsts = [0u64, 900, 12];
        let all = run_cells_stoppable(&db, &specs, &firsts, &Stop::new()).unwrap();
        let mut at = 0;
        for (s, &f) in specs.iter().zip(&firsts) {
            let one = run_batch_stoppable(&db, s, false, f, &Stop::new()).unwrap();
            let n = s.games as usize;
            assert_eq!(&all.games.winner[at..at + n], &one.games.winner[..]);
            assert_eq!(&all.games.turns[at..at + n], &one.games.turns[..]);
            assert_eq!(&all.games.seed[at..at + n], &one.games.seed[..]);
            assert_eq!(&all.games.game[at..at + n], &one.games.game[..]);
            at += n;
        }
        assert_eq!(all.games.winner.len(), at);
        // different seat counts in one call are refused, not mixed
        let four = BatchSpec { factions: vec![0, 1, 2, 3], bots: vec![bot("random"); 4], games: 3, seed: 5, threads, start_player: None, ..Default::default() };
        assert!(run_cells_stoppable(&db, &[specs[0].clone(), four], &[0, 0], &Stop::new()).is_err());
    }
}
