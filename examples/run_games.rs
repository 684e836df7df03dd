//! Play N random-vs-random games on one thread (for profiling):
//! `cargo run --profile profiling --example run_games -- 20000 ner tisza`
use ketharmad::batch::{play_one, play_one_in, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, FACTIONS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10000);
    let f: Vec<u8> = if args.len() > 3 { args[2..].iter().map(|a| FACTIONS.iter().position(|x| x == a).expect("faction") as u8).collect() } else { vec![0, 2] };
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    // KETHARMAD_BOTS=heuristic,random (one per seat, or one for all)
    let bots: Vec<BotSpec> = match std::env::var("KETHARMAD_BOTS") {
        Ok(s) => {
            // "heuristic:aggression=0.3:block_caution=0.8,random"
            let v: Vec<BotSpec> = s
                .split(',')
                .map(|k| {
                    let mut it = k.split(':');
                    let kind = it.next().unwrap();
                    let knobs = it.map(|kv| {
                        let (a, b) = kv.split_once('=').expect("knob=value");
                        (a.to_string(), b.parse::<f64>().expect("number"))
                    });
                    BotSpec::parse(kind, knobs.collect()).expect("bot")
                })
                .collect();
            if v.len() == 1 {
                vec![v[0].clone(); f.len()]
            } else {
                v
            }
        }
        Err(_) => vec![BotSpec::random(); f.len()],
    };
    let seed: u64 = std::env::var("KETHARMAD_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let spec = BatchSpec { bots, factions: f, games: n, seed, threads: Some(1), start_player: None, ..Default::default() };
    if let Ok(g) = std::env::var("KETHARMAD_LOG") {
        let (_, log) = play_one(&db, &spec, g.parse().unwrap(), true, false);
        for l in log.unwrap() {
            println!("{l}");
        }
        return;
    }
    let t = std::time::Instant::now();
    let mut turns = 0u64;
    let mut h = 0u64;
    let mut wins = vec![0u64; spec.factions.len()];
    let mut seat_turns: Vec<Vec<i32>> = vec![Vec::new(); spec.factions.len()];
    let mut unfinished = 0;
    let mut slot = None;
    for i in 0..n {
        let r = play_one_in(&mut slot, &db, &spec, i, false, false, false).0;
        if r.winner >= 0 {
            wins[r.winner as usize] += 1
        } else {
            unfinished += 1
        }
        for (s, t) in seat_turns.iter_mut().enumerate() {
            t.push(r.players[s].turns_taken);
        }
        turns += r.turns as u64;
        h = h.wrapping_mul(31).wrapping_add((r.turns as u64) << 8 | (r.winner as u8 as u64) | (r.actions as u64) << 20);
    }
    let dt = t.elapsed().as_secs_f64();
    let medians: Vec<i32> = seat_turns
        .iter_mut()
        .map(|t| {
            t.sort_unstable();
            t[t.len() / 2]
        })
        .collect();
    println!("wins per seat {wins:?}, unfinished {unfinished}, median turns per seat {medians:?}");
    println!("{n} games in {dt:.3}s: {:.0} games/s, mean {:.1} turns, outcome hash {h:016x}", n as f64 / dt, turns as f64 / n as f64);
}
