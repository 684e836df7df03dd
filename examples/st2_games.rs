//! Play Schotten Totten 2 games on the generic batch runner and print the Attacker's win rate
//! (Wilson 95 % interval), games per second and a hash of the winners.
//!
//!     cargo run --release --example st2_games -- 20000 greedy random [threads] [seed] [name=value ...]

use ketharmad::games::schotten_totten2::SchottenTotten2;
use ketharmad::harness::batch::{run, wilson};
use ketharmad::harness::{resolve, Rules, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let a = args.get(2).cloned().unwrap_or_else(|| "random".into());
    let d = args.get(3).cloned().unwrap_or_else(|| "random".into());
    let threads: Option<usize> = args.get(4).and_then(|s| s.parse().ok());
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let over: Vec<(String, Value)> = args
        .iter()
        .skip(6)
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("parameters are name=value");
            let val = match v {
                "true" | "false" => Value::Bool(v == "true"),
                _ => v.parse::<i64>().map(Value::Int).unwrap_or_else(|_| Value::Str(v.to_string())),
            };
            (k.to_string(), val)
        })
        .collect();
    let v = resolve(&SchottenTotten2.registry(), &over).unwrap();
    let t = Instant::now();
    let c = run(&SchottenTotten2, &v, 2, &[a.clone(), d.clone()], games, seed, threads).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let w = c.wins(0);
    let (lo, hi) = wilson(w, games, 1.96);
    let mut h: u64 = 0xcbf29ce484222325;
    for (i, &x) in c.winner.iter().enumerate() {
        h = (h ^ (x as u64) ^ ((c.turns[i] as u64) << 8)).wrapping_mul(0x100000001b3);
    }
    println!(
        "{} attacker={a} defender={d} games={games} attacker_wins={w} rate={:.4} ci=[{lo:.4},{hi:.4}] games_per_s={:.0} hash={h:016x}",
        args.iter().skip(6).cloned().collect::<Vec<_>>().join(" "),
        w as f64 / games as f64,
        games as f64 / secs
    );
}
