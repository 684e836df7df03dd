//! Seat-swapped head-to-head of two bot specs over all 12 deck pairings, on all cores:
//! `cargo run --release --example eval_bots -- 2016 search:iterations=100 heuristic`
use ketharmad::batch::{run_batch, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw};

fn parse(s: &str) -> BotSpec {
    let mut it = s.split(':');
    let kind = it.next().unwrap();
    let knobs = it.map(|kv| {
        let (a, b) = kv.split_once('=').expect("knob=value");
        (a.to_string(), b.parse::<f64>().expect("number"))
    });
    BotSpec::parse(kind, knobs.collect()).expect("bot")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(240);
    let a = parse(args.get(2).map(|s| s.as_str()).unwrap_or("heuristic"));
    let b = parse(args.get(3).map(|s| s.as_str()).unwrap_or("random"));
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let per = (games / 24).max(1);
    let (mut wa, mut wb, mut unf, mut total) = (0u64, 0u64, 0u64, 0u64);
    let mut decisions = 0i64;
    let t = std::time::Instant::now();
    for x in 0..4u8 {
        for y in 0..4u8 {
            if x == y {
                continue;
            }
            for a_seat in 0..2usize {
                let bots = if a_seat == 0 { vec![a.clone(), b.clone()] } else { vec![b.clone(), a.clone()] };
                let spec = BatchSpec { factions: vec![x, y], bots, games: per, seed: 1000 + (x * 4 + y) as u64, threads: None, start_player: None, ..Default::default() };
                let c = run_batch(&db, &spec).unwrap();
                for (g, &w) in c.games.winner.iter().enumerate() {
                    total += 1;
                    if w < 0 {
                        unf += 1;
                    } else if w as usize == a_seat {
                        wa += 1;
                    } else {
                        wb += 1;
                    }
                    decisions += c.players.main_decisions[g * 2 + a_seat] as i64;
                }
            }
        }
    }
    let dt = t.elapsed().as_secs_f64();
    let n = (wa + wb) as f64;
    let p = wa as f64 / n;
    let z = 1.959963984540054f64;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    println!(
        "{} vs {}: {total} games, wins {wa}-{wb}, unfinished {unf}; win rate of {} {:.3} [{:.3}, {:.3}]; {:.1} s, {} main decisions of {}",
        a.label(),
        b.label(),
        a.label(),
        p,
        centre - half,
        centre + half,
        dt,
        decisions,
        a.label()
    );
}
