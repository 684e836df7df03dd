//! Invariant fuzzer: random-policy games checking the whole state after every action.
//! CI size by default; `KETHARMAD_FUZZ_GAMES=10000 cargo test --release --test fuzz` for the
//! full run (10,000 games per faction pair in 2-player, and 3,000 per 3- and 4-player seating).

use ketharmad::batch::{play_one, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb};

fn db() -> CardDb {
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap()
}

fn games(default: u64) -> u64 {
    std::env::var("KETHARMAD_FUZZ_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn fuzz(db: &CardDb, factions: Vec<u8>, n: u64, seed: u64) -> (u64, u64) {
    let spec = BatchSpec {
        bots: vec![BotSpec::random(); factions.len()],
        factions,
        games: n,
        seed,
        threads: Some(1),
        start_player: None,
    };
    let mut unfinished = 0;
    let mut turns = 0;
    for i in 0..n {
        let (r, _) = play_one(db, &spec, i, false, true);
        if let Some(e) = r.invariant_error {
            panic!("factions {:?} game {i} (seed {}): invariant broken: {e}", spec.factions, r.seed);
        }
        if r.end_reason >= 2 {
            unfinished += 1;
        } else {
            let w = r.winner as usize;
            assert!(w < spec.factions.len(), "finished game without a winner");
            let alive = (0..spec.factions.len()).filter(|&s| !r.players[s].eliminated).count();
            if r.end_reason == 0 {
                // R1.3: the last player remaining wins
                assert!(!r.players[w].eliminated, "the winner was eliminated");
                assert_eq!(alive, 1, "game ended with {alive} players left");
            } else {
                // R14.5.1: everyone left was eliminated at once; the active player wins
                assert_eq!(alive, 0, "simultaneous elimination with {alive} players left");
            }
        }
        turns += r.turns as u64;
    }
    (unfinished, turns)
}

#[test]
fn two_player_every_pair() {
    let db = db();
    let n = games(150);
    for a in 0..4u8 {
        for b in 0..4u8 {
            if a != b {
                let (unf, _) = fuzz(&db, vec![a, b], n, 1000 + a as u64 * 10 + b as u64);
                assert!(unf * 20 <= n, "{unf} of {n} games unfinished for {a} vs {b}");
            }
        }
    }
}

#[test]
fn three_and_four_player() {
    let db = db();
    let n = games(100);
    for f in [vec![0u8, 1, 2], vec![1, 2, 3], vec![3, 0, 2], vec![0, 1, 2, 3], vec![3, 2, 1, 0]] {
        fuzz(&db, f.clone(), (n * 3 / 10).max(30), 77 + f.len() as u64);
    }
}
