//! The fixed workloads of the speed history (issue 29; `benches/instructions.py` runs them under
//! callgrind and keeps the history in `benches/speed_history.csv`):
//!
//!     cargo build --release --example speed_workloads
//!     target/release/examples/speed_workloads list
//!     target/release/examples/speed_workloads random_2p      # prints "decisions N"
//!
//! Each workload runs its games inside `measured` (callgrind counts only between
//! `speed_start` and `speed_stop`: `--zero-before` / `--dump-before`, so loading the card data
//! is not counted), then counts its decisions (those put to an agent: two or more options) in
//! a second, uncounted pass over the same games, and prints them. Every workload is a pure
//! function of the code: fixed seeds, one thread.
use ketharmad::batch::{play_one_in, BatchSpec};
use ketharmad::bots::{seat_policies, BotSpec};
use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::step::Stepper;
use ketharmad::engine::{Agents, GameConfig, IntoAgents};
use ketharmad::games::osztrakon::Osztrakon;
use ketharmad::games::schotten_totten2::SchottenTotten2;
use ketharmad::harness::agents::{make_agent, AgentSpec};
use ketharmad::harness::batch::play_game;
use ketharmad::harness::{resolve, GameState, Rules, Stop};
use ketharmad::rng::{game_seed, Rng, Stream};
use std::hint::black_box;

/// The workloads: name, what it plays.
const WORKLOADS: &[(&str, &str)] = &[
    ("random_2p", "Kétharmad, random vs random, 12 ordered faction pairs x 10 games (batch path)"),
    ("heuristic_2p", "Kétharmad, heuristic vs heuristic, 12 ordered faction pairs x 3 games (batch path)"),
    ("heuristic_4p", "Kétharmad free-for-all, 4 heuristic seats, 4 seatings x 2 games (batch path)"),
    ("search_2p", "Kétharmad, search:iterations=4:rollout_rounds=4 vs heuristic, ner vs tisza, 1 game (batch path)"),
    ("stepper_2p", "Kétharmad, the games of heuristic_2p driven through the Stepper (the driven path)"),
    ("st2_greedy", "Schotten Totten 2, greedy vs greedy, 10 games (generic harness)"),
    ("osztrakon_b1", "Osztrakon, 5 b1 seats, 50 games (generic harness)"),
];

const SEED: u64 = 1;

#[inline(never)]
#[no_mangle]
pub extern "C" fn speed_start(x: u64) -> u64 {
    black_box(x ^ 0x0515_7a27)
}

#[inline(never)]
#[no_mangle]
pub extern "C" fn speed_stop(x: u64) -> u64 {
    black_box(x.wrapping_mul(0x5709))
}

/// Run `f` between the two markers callgrind zeroes and dumps at (`KH_SPEED_REPEAT=N`: N
/// times, printing the seconds, for a wall-clock comparison of two builds).
fn measured(f: &mut dyn FnMut() -> u64) -> u64 {
    let repeat: u32 = std::env::var("KH_SPEED_REPEAT").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let t = std::time::Instant::now();
    // distinct bodies: the linker must not fold the two markers into one function
    black_box(speed_start(1));
    let mut r = 0;
    for _ in 0..repeat {
        r = f();
    }
    let r = black_box(speed_stop(r));
    if repeat > 1 {
        println!("seconds {:.4}", t.elapsed().as_secs_f64());
    }
    r
}

fn bot(kind: &str) -> BotSpec {
    let mut it = kind.split(':');
    let name = it.next().unwrap();
    let knobs = it.map(|kv| {
        let (a, b) = kv.split_once('=').expect("knob=value");
        (a.to_string(), b.parse::<f64>().expect("number"))
    });
    BotSpec::parse(name, knobs.collect()).expect("bot")
}

/// The Kétharmad cells of a workload: (factions, bots, games).
fn cells(name: &str) -> Vec<(Vec<u8>, Vec<BotSpec>, u64)> {
    let pairs = || (0..4u8).flat_map(|a| (0..4u8).filter(move |&b| b != a).map(move |b| vec![a, b]));
    match name {
        "random_2p" => pairs().map(|f| (f, vec![bot("random"); 2], 10)).collect(),
        "heuristic_2p" | "stepper_2p" => pairs().map(|f| (f, vec![bot("heuristic"); 2], 3)).collect(),
        "heuristic_4p" => (0..4u8).map(|r| ((0..4u8).map(|i| (i + r) % 4).collect(), vec![bot("heuristic"); 4], 2)).collect(),
        "search_2p" => vec![(vec![0, 2], vec![bot("search:iterations=4:rollout_rounds=4"), bot("heuristic")], 1)],
        _ => Vec::new(),
    }
}

/// Decisions of one Kétharmad game, driven through the stepper (it stops exactly where the
/// batch asks an agent).
fn stepped_game(db: &CardDb, factions: &[u8], bots: &[BotSpec], index: u64, count_only: bool) -> u64 {
    let seed = game_seed(SEED, index);
    let cfg = GameConfig { factions: factions.to_vec(), seed, start_player: None, ..Default::default() };
    let mut s = Stepper::new(db, &cfg);
    let mut pols: Agents = seat_policies(seed, factions.len(), bots).into_agents();
    if !count_only {
        s.advance(&mut pols, 0);
        return s.game().state().total_actions as u64;
    }
    let mut n = 0;
    while let Some((seat, _, _)) = s.pending() {
        let i = s.policy_choice(&mut *pols[seat]).unwrap();
        s.apply(i).unwrap();
        n += 1;
    }
    n
}

fn ketharmad(name: &str) -> u64 {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let cells = cells(name);
    let stepper = name == "stepper_2p";
    let h = measured(&mut || {
        let mut h = 0u64;
        let mut slot = None;
        for (f, bots, games) in &cells {
            let spec = BatchSpec { bots: bots.clone(), factions: f.clone(), games: *games, seed: SEED, threads: Some(1), start_player: None, ..Default::default() };
            for i in 0..*games {
                let x = if stepper {
                    stepped_game(&db, f, bots, i, false)
                } else {
                    let r = play_one_in(&mut slot, &db, &spec, i, false, false, false).0;
                    (r.turns as u64) << 8 | (r.winner as u8 as u64) | (r.actions as u64) << 20
                };
                h = h.wrapping_mul(31).wrapping_add(x);
            }
        }
        h
    });
    black_box(h);
    cells.iter().map(|(f, bots, games)| (0..*games).map(|i| stepped_game(&db, f, bots, i, true)).sum::<u64>()).sum()
}

fn generic<R: Rules>(rules: &R, seats: usize, agent: &str, games: u64) -> u64
where
    R::State: 'static,
{
    let v = resolve(&rules.registry(), &[]).unwrap();
    let specs = vec![AgentSpec::parse(agent).unwrap(); seats];
    let h = measured(&mut || {
        let mut h = 0u64;
        for g in 0..games {
            let (_, o) = play_game(rules, &v, seats, &specs, SEED, g, &Stop::new()).unwrap();
            h = h.wrapping_mul(31).wrapping_add(o.turns as u64 + o.winners.first().map_or(99, |&w| w as u64));
        }
        h
    });
    black_box(h);
    // the decisions: the actions play_out asks the agents for, counted in a second pass
    let mut n = 0u64;
    for g in 0..games {
        let seed = game_seed(SEED, g);
        let mut s = rules.new_game(&v, seats, SEED, g).unwrap();
        let mut agents: Vec<_> = (0..seats).map(|i| make_agent(rules, &specs[i], &v, seats, i).unwrap()).collect();
        let mut rngs: Vec<Rng> = (0..seats).map(|i| Rng::stream(seed, Stream::Policy0 as u64 + i as u64)).collect();
        let mut legal = Vec::new();
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut legal);
            let a = agents[seat].act(&s, &legal, &mut rngs[seat]);
            s.apply(a).unwrap();
            n += 1;
        }
    }
    n
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "list".into());
    let decisions = match name.as_str() {
        "list" => {
            for (n, what) in WORKLOADS {
                println!("{n}\t{what}");
            }
            return;
        }
        "random_2p" | "heuristic_2p" | "heuristic_4p" | "search_2p" | "stepper_2p" => ketharmad(&name),
        "st2_greedy" => generic(&SchottenTotten2, 2, "greedy", 10),
        "osztrakon_b1" => generic(&Osztrakon, 5, "b1", 50),
        _ => {
            eprintln!("unknown workload '{name}' (try: list)");
            std::process::exit(2);
        }
    };
    println!("decisions {decisions}");
}
