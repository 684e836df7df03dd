//! Diagnostics: play a search seat against a field of b1 and compare each of its decisions
//! with b1's on the same position, by phase; with OSZ_ROLLOUTS=n, also the value of both
//! choices by n b1 play-outs on common re-deals.
//!
//!     cargo run --release --example osztrakon_probe -- games "search:..." [seed]

use ketharmad::games::osztrakon::{Osztrakon, Phase, State};
use ketharmad::harness::agents::{make_agent, AgentSpec};
use ketharmad::harness::{resolve, Agent, GameState, Rules};
use ketharmad::rng::{game_seed, Rng, Stream};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args[1].parse().unwrap();
    let spec = &args[2];
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let rollouts: u64 = std::env::var("OSZ_ROLLOUTS").ok().and_then(|x| x.parse().ok()).unwrap_or(0);
    let v = resolve(&Osztrakon.registry(), &[]).unwrap();
    let n = 5;
    let mut counts: std::collections::BTreeMap<String, u64> = Default::default();
    let (mut wins, mut gain, mut diffs) = (0, 0.0, 0u64);
    let (mut oracle, mut oracle_n, mut oracle_wrong) = (0.0, 0u64, 0u64);
    let mk = |name: &str, i: usize| make_agent(&Osztrakon, &AgentSpec::parse(name).unwrap(), &v, n, i).unwrap();
    for g in 0..games {
        let seat = (g % n as u64) as usize;
        let mut s: State = Osztrakon.new_game(&v, n, seed, g).unwrap();
        let gs = game_seed(seed, g);
        let mut agents: Vec<Box<dyn Agent<State>>> = (0..n).map(|i| mk(if i == seat { spec.as_str() } else { "b1" }, i)).collect();
        let mut b1 = mk("b1", seat);
        let mut rngs: Vec<Rng> = (0..n).map(|i| Rng::stream(gs, Stream::Policy0 as u64 + i as u64)).collect();
        let mut legal = Vec::new();
        while let Some(m) = s.to_move() {
            s.legal_actions(&mut legal);
            let a = agents[m].act(&s, &legal, &mut rngs[m]);
            if m == seat && legal.len() > 1 {
                let b = b1.act(&s, &legal, &mut Rng::new(0));
                if let Ok(ph) = std::env::var("OSZ_ORACLE") {
                    if format!("{:?}", s.phase) == ph {
                        // every legal action on common re-deals: choose on the first half,
                        // measure on the second (no selection bias)
                        let deals = rollouts.max(2) as usize;
                        let mut r = Rng::new(g * 1000 + s.turns as u64);
                        let mut bots: Vec<Box<dyn Agent<State>>> = (0..n).map(|i| mk("b1", i)).collect();
                        let mut l = Vec::new();
                        let mut val = vec![[0.0f64; 2]; legal.len()];
                        for d in 0..deals {
                            let deal = s.determinized(m, &mut r);
                            for (i, &x) in legal.iter().enumerate() {
                                let mut t = deal.clone();
                                t.apply(x).unwrap();
                                while let Some(k) = t.to_move() {
                                    t.legal_actions(&mut l);
                                    let y = bots[k].act(&t, &l, &mut r);
                                    t.apply(y).unwrap();
                                }
                                let mut out = vec![0.0; n];
                                t.rewards(&mut out);
                                val[i][(d * 2 >= deals) as usize] += (out[m] + 1.0) / 2.0;
                            }
                        }
                        let h = (deals / 2) as f64;
                        let best = (0..legal.len()).max_by(|&i, &j| val[i][0].total_cmp(&val[j][0])).unwrap();
                        let bi = legal.iter().position(|&x| x == b).unwrap();
                        oracle += (val[best][1] - val[bi][1]) / h;
                        oracle_n += 1;
                        oracle_wrong += (best != bi) as u64;
                        if std::env::var("OSZ_VERBOSE").is_ok() {
                            let all: Vec<String> =
                                legal.iter().enumerate().map(|(i, &x)| format!("{} {:.3}", s.describe_action(x), (val[i][0] + val[i][1]) / deals as f64)).collect();
                            println!("g{g} day {} pos {} sun {} b1 {}: {}", s.day, s.path.pos[m], s.path.sun, s.describe_action(b), all.join(", "));
                        }
                    }
                }
                *counts.entry(format!("{:?}: {}", s.phase, if a == b { "same" } else { "differs" })).or_default() += 1;
                if a != b && rollouts > 0 && std::env::var("OSZ_ORACLE").is_err() {
                    let mut r = Rng::new(g * 1000 + s.turns as u64);
                    let mut bots: Vec<Box<dyn Agent<State>>> = (0..n).map(|i| mk("b1", i)).collect();
                    let mut l = Vec::new();
                    let mut d = 0.0;
                    for _ in 0..rollouts {
                        let deal = s.determinized(m, &mut r);
                        for (x, sign) in [(a, 1.0), (b, -1.0)] {
                            let mut t = deal.clone();
                            t.apply(x).unwrap();
                            while let Some(k) = t.to_move() {
                                t.legal_actions(&mut l);
                                let y = bots[k].act(&t, &l, &mut r);
                                t.apply(y).unwrap();
                            }
                            let mut out = vec![0.0; n];
                            t.rewards(&mut out);
                            d += sign * (out[m] + 1.0) / 2.0;
                        }
                    }
                    gain += d / rollouts as f64;
                    diffs += 1;
                    if std::env::var("OSZ_VERBOSE").is_ok() {
                        println!(
                            "g{g} day {} {:?}: search {} b1 {}: win chance search - b1 = {:+.3}",
                            s.day,
                            s.phase,
                            s.describe_action(a),
                            s.describe_action(b),
                            d / rollouts as f64
                        );
                    }
                }
            }
            s.apply(a).unwrap();
        }
        if s.outcome().winners.first() == Some(&(seat as u8)) {
            wins += 1;
        }
        let _ = Phase::Over;
    }
    println!("search won {wins}/{games}");
    if oracle_n > 0 {
        println!(
            "oracle: {oracle_n} decisions, best (on half the deals) differs from b1 in {oracle_wrong}, win-chance gain on the other half {:+.4} per decision",
            oracle / oracle_n as f64
        );
    }
    if diffs > 0 {
        println!("mean win-chance change where it differs from b1 (b1 play-outs): {:+.4} over {diffs}", gain / diffs as f64);
    }
    for (k, c) in counts {
        println!("{c:6} {k}");
    }
}
