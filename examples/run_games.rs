//! Play N random-vs-random games on one thread (for profiling):
//! `cargo run --profile profiling --example run_games -- 20000 ner tisza`
use ketharmad::batch::{play_one, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, FACTIONS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10000);
    let f: Vec<u8> = if args.len() > 3 {
        args[2..].iter().map(|a| FACTIONS.iter().position(|x| x == a).expect("faction") as u8).collect()
    } else {
        vec![0, 2]
    };
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let spec = BatchSpec { bots: vec![BotSpec::random(); f.len()], factions: f, games: n, seed: 1, threads: Some(1), start_player: None };
    let t = std::time::Instant::now();
    let mut turns = 0u64;
    let mut h = 0u64;
    for i in 0..n {
        let r = play_one(&db, &spec, i, false, false).0;
        turns += r.turns as u64;
        h = h.wrapping_mul(31).wrapping_add((r.turns as u64) << 8 | (r.winner as u8 as u64) | (r.actions as u64) << 20);
    }
    let dt = t.elapsed().as_secs_f64();
    println!("{n} games in {dt:.3}s: {:.0} games/s, mean {:.1} turns, outcome hash {h:016x}", n as f64 / dt, turns as f64 / n as f64);
}
