//! One bot alone against a field of another in Osztrakon, its seat rotating (seat `s` plays
//! the `s`-th share of the games, as `matchups(game="osztrakon", layout="field")`): its win
//! share with a Wilson 95 % interval against the even share 1/n.
//!
//!     cargo run --release --example osztrakon_field -- games "search" b1 [seats] [threads] [seed] [name=value ...]
//!
//! With `OSZ_BASELINE=b1` the baseline bot also plays the same games on the same seats, and the
//! paired difference of the two win shares is printed (games only one of them won, ±1.96 SE).
//! When the baseline is the field bot and the games a multiple of the seats, it wins 1/n of
//! the games in expectation (one winner a game, the seat rotating equally), so 1/n + the paired difference estimates the bot's share on the
//! same deals with that interval (a control variate: the deals' luck cancels).

use ketharmad::games::osztrakon::Osztrakon;
use ketharmad::harness::batch::{run_range, wilson, GenericBatch};
use ketharmad::harness::{resolve, Rules, Stop, Value};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let bot = args.get(2).cloned().unwrap_or_else(|| "search".into());
    let field = args.get(3).cloned().unwrap_or_else(|| "b1".into());
    let seats: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let threads: Option<usize> = args.get(5).and_then(|s| s.parse().ok());
    let seed: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1);
    let over: Vec<(String, Value)> = args
        .iter()
        .skip(7)
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("parameters are name=value");
            let val = match v {
                "true" | "false" => Value::Bool(v == "true"),
                _ => v.parse::<i64>().map(Value::Int).unwrap_or_else(|_| v.parse::<f64>().map(Value::Float).unwrap_or_else(|_| Value::Str(v.to_string()))),
            };
            (k.to_string(), val)
        })
        .collect();
    let v = resolve(&Osztrakon.registry(), &over).unwrap();
    let t = Instant::now();
    let (mut wins, mut played) = (0u64, 0u64);
    let mut per_seat = Vec::new();
    let (mut only_bot, mut only_base) = (0u64, 0u64);
    for s in 0..seats as u64 {
        let share = games / seats as u64 + (s < games % seats as u64) as u64;
        let first = s * (games / seats as u64) + s.min(games % seats as u64);
        let mut lineup = vec![field.clone(); seats];
        lineup[s as usize] = bot.clone();
        let c = run_range(&Osztrakon, &GenericBatch { values: &v, seats, agents: &lineup, first, games: share, seed, threads }, &Stop::new()).unwrap();
        let w = c.wins(s as usize);
        per_seat.push(w);
        wins += w;
        played += share;
        if let Ok(base) = std::env::var("OSZ_BASELINE") {
            lineup[s as usize] = base;
            let b = run_range(&Osztrakon, &GenericBatch { values: &v, seats, agents: &lineup, first, games: share, seed, threads }, &Stop::new()).unwrap();
            for (x, y) in c.winners_mask.iter().zip(&b.winners_mask) {
                let (bw, cw) = (x >> s & 1 == 1, y >> s & 1 == 1);
                only_bot += (bw && !cw) as u64;
                only_base += (cw && !bw) as u64;
            }
        }
    }
    if std::env::var("OSZ_BASELINE").is_ok() {
        let n = played as f64;
        let d = (only_bot as f64 - only_base as f64) / n;
        let se = ((only_bot + only_base) as f64 - n * d * d).max(0.0).sqrt() / n;
        println!("paired: the bot alone won {only_bot} games, the baseline alone {only_base}: share difference {d:+.4} ± {:.4}", 1.96 * se);
        // A game has exactly one winner (R11.1) and the bot's seat rotates through every seat
        // equally (games a multiple of the seats), so a baseline that is also the field wins
        // exactly 1/n in expectation: the bot's share is 1/n + d, estimated on the same deals (a
        // control variate), ± the paired SE. Printed only when both hold.
        let even = 1.0 / seats as f64;
        let exact = std::env::var("OSZ_BASELINE").is_ok_and(|b| b == field) && played % seats as u64 == 0;
        if exact {
            println!(
                "share against the even share, paired on the same deals: {:.4} ± {:.4} = [{:.4}, {:.4}] (even {even:.4})",
                even + d,
                1.96 * se,
                even + d - 1.96 * se,
                even + d + 1.96 * se
            );
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let (lo, hi) = wilson(wins, played, 1.96);
    println!(
        "{} bot={bot} field={field} seats={seats} games={played} wins={wins} share={:.4} ci=[{lo:.4},{hi:.4}] even={:.4} per_seat={per_seat:?} games_per_s={:.1}",
        args.iter().skip(7).cloned().collect::<Vec<_>>().join(" "),
        wins as f64 / played as f64,
        1.0 / seats as f64,
        played as f64 / secs
    );
}
