//! Diagnostics: play a search seat against greedy and compare each of its decisions with
//! greedy's on the same position.
//!
//!     cargo run --release --example st2_probe -- games seat "search:..." [seed]

use ketharmad::games::schotten_totten2::{Action, Phase, SchottenTotten2, State};
use ketharmad::harness::agents::{make_agent, AgentSpec};
use ketharmad::harness::{resolve, Agent, GameState, Rules};
use ketharmad::rng::{game_seed, Rng, Stream};

fn kind(a: u32) -> &'static str {
    match Action::from_id(a) {
        Some(Action::Claim(_)) => "claim",
        Some(Action::Retreat(_)) => "retreat",
        Some(Action::Oil(_)) => "oil",
        Some(Action::Play { .. }) => "play",
        Some(Action::Pass) => "pass",
        Some(Action::Skip) => "skip",
        Some(Action::EndTurn) => "end",
        None => "?",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args[1].parse().unwrap();
    let seat: usize = args[2].parse().unwrap();
    let spec = &args[3];
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let verbose = std::env::var("PROBE_VERBOSE").is_ok();
    let rollouts: u64 = std::env::var("PROBE_ROLLOUTS").ok().and_then(|x| x.parse().ok()).unwrap_or(0);
    let v = resolve(&SchottenTotten2.registry(), &[]).unwrap();
    let mut counts: std::collections::BTreeMap<String, u64> = Default::default();
    let mut wins = 0;
    for g in 0..games {
        let mut s: State = SchottenTotten2.new_game(&v, 2, seed, g).unwrap();
        let gs = game_seed(seed, g);
        let mut agents: Vec<Box<dyn Agent<State>>> = (0..2)
            .map(|i| {
                let name = if i == seat { spec.as_str() } else { "greedy" };
                make_agent(&SchottenTotten2, &AgentSpec::parse(name).unwrap(), &v, 2, i).unwrap()
            })
            .collect();
        let mut greedy = make_agent(&SchottenTotten2, &AgentSpec::parse("greedy").unwrap(), &v, 2, seat).unwrap();
        let mut rngs: Vec<Rng> = (0..2).map(|i| Rng::stream(gs, Stream::Policy0 as u64 + i as u64)).collect();
        let mut legal = Vec::new();
        while let Some(m) = s.to_move() {
            s.legal_actions(&mut legal);
            let a = agents[m].act(&s, &legal, &mut rngs[m]);
            if m == seat && legal.len() > 1 {
                let gr = greedy.act(&s, &legal, &mut Rng::new(0));
                let ph = match s.phase {
                    Phase::Prep => "prep",
                    Phase::Play => "play",
                    Phase::PostPlay => "post",
                    Phase::Over => "over",
                };
                let key = format!("{ph}: greedy {} / search {}{}", kind(gr), kind(a), if a == gr { " (same)" } else { "" });
                *counts.entry(key).or_default() += 1;
                if verbose && a != gr {
                    println!("g{g} t{} {ph}: greedy '{}' search '{}'", s.turn, s.describe(gr), s.describe(a));
                    if rollouts > 0 {
                        for (name, x) in [("greedy", gr), ("search", a)] {
                            let (mut w, mut e) = (0u64, 0.0);
                            let mut r = Rng::new(g * 1000 + s.turn as u64);
                            for _ in 0..rollouts {
                                let mut t = s.determinized(m, &mut r);
                                t.apply(x).unwrap();
                                let mut l = Vec::new();
                                let mut bots: Vec<Box<dyn Agent<State>>> =
                                    (0..2).map(|i| make_agent(&SchottenTotten2, &AgentSpec::parse("greedy").unwrap(), &v, 2, i).unwrap()).collect();
                                let mut cut = None;
                                while let Some(k) = t.to_move() {
                                    if cut.is_none() && t.turn > s.turn {
                                        let mut out = [0.0; 2];
                                        t.evaluate(&[25.0, 1.0], &mut out);
                                        cut = Some(out[m]);
                                    }
                                    t.legal_actions(&mut l);
                                    let y = bots[k].act(&t, &l, &mut r);
                                    t.apply(y).unwrap();
                                }
                                if t.outcome().winners.first() == Some(&(m as u8)) {
                                    w += 1;
                                }
                                let mut out = [0.0; 2];
                                t.rewards(&mut out);
                                e += cut.unwrap_or(out[m]);
                            }
                            println!("    {name}: playout win {:.3}  eval after 1 turn {:.3}", w as f64 / rollouts as f64, e / rollouts as f64);
                        }
                    }
                }
            }
            s.apply(a).unwrap();
        }
        let o = s.outcome();
        if o.winners.first() == Some(&(seat as u8)) {
            wins += 1;
        }
        *counts.entry(format!("end {}", o.end_reason)).or_default() += 1;
    }
    println!("search seat {seat} won {wins}/{games}");
    for (k, n) in counts {
        println!("{n:6} {k}");
    }
}
