//! The team-ready seat model (issue 13 item 1) is a refactor that changes no game: the
//! outcome hashes below were recorded on main at commit a608733 BEFORE the refactor (opponent
//! loops through `Game::opponents`/`is_enemy`, Support and Scandal through `support_of` /
//! `scandal_pool_of`, the outcome as a set of winners, seat arrays sized for 9 seats). Each
//! hash covers 200 games of one setting: the winner, turns, rounds, actions, end reason and
//! start player of each game, and every seat's final Support, Scandal, elimination round,
//! cards played, attacks and Exposés. Any change to a single game changes the hash.

use ketharmad::batch::{play_one_in, BatchSpec, GameResult};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb};

fn db() -> CardDb {
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap()
}

fn mix(h: u64, x: i64) -> u64 {
    (h ^ (x as u64)).wrapping_mul(0x100_0000_01b3).rotate_left(5)
}

fn hash_result(mut h: u64, r: &GameResult, n: usize) -> u64 {
    for x in [r.winner as i64, r.turns as i64, r.rounds as i64, r.actions as i64, r.end_reason as i64, r.start_player as i64] {
        h = mix(h, x);
    }
    for p in &r.players[..n] {
        for x in [p.support as i64, p.scandal as i64, p.eliminated_round as i64, p.cards_played as i64, p.attacks as i64, p.exposes as i64, p.won as i64] {
            h = mix(h, x);
        }
    }
    h
}

/// The outcome hash of `games` games of `factions` with `bots` (one spec for every seat), seed 7.
/// A bot is a kind with optional `:knob=value` parts ("search:iterations=8").
fn outcome_hash(db: &CardDb, factions: &[u8], bots: &[&str], games: u64) -> u64 {
    let bots: Vec<BotSpec> = bots
        .iter()
        .map(|b| {
            let mut it = b.split(':');
            let kind = it.next().unwrap();
            let knobs = it.map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (k.to_string(), v.parse::<f64>().unwrap())
            });
            BotSpec::parse(kind, knobs.collect()).unwrap()
        })
        .collect();
    let spec = BatchSpec { bots, factions: factions.to_vec(), games, seed: 7, threads: Some(1), start_player: None };
    spec.validate(db).unwrap();
    let mut slot = None;
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for i in 0..games {
        let (r, _) = play_one_in(&mut slot, db, &spec, i, false, false, false);
        h = hash_result(h, &r, factions.len());
    }
    h
}

/// (factions, bots, games, hash recorded on main at a608733 before the refactor)
const RECORDED: &[(&[u8], &[&str], u64, u64)] = &[
    (&[0, 2], &["random", "random"], 200, 0x43d7cfb006af3e60),
    (&[1, 3], &["heuristic", "heuristic"], 200, 0xc72c060202bfff2e),
    (&[2, 0], &["heuristic", "random"], 200, 0xcb8d7c1aa32df2c9),
    (&[0, 1, 2], &["random", "random", "random"], 200, 0x1990123864d30863),
    (&[3, 0, 1], &["heuristic", "heuristic", "heuristic"], 200, 0x4a80a4b3997e7462),
    (&[0, 1, 2, 3], &["random", "random", "random", "random"], 200, 0x437fd3a9e022e3fb),
    (&[2, 3, 0, 1], &["heuristic", "heuristic", "heuristic", "heuristic"], 200, 0xff3df1652eb4955f),
    (&[1, 0, 3, 2], &["aggro", "random", "control", "heuristic"], 200, 0x10c44f0104805cb5),
    (&[0, 3, 1], &["search:iterations=6:width=3:rollout_rounds=8", "heuristic", "random"], 12, 0x62537c1e959f5718),
];

#[test]
fn seat_refactor_changes_no_game() {
    let db = db();
    let mut bad = Vec::new();
    for &(f, b, games, want) in RECORDED {
        let got = outcome_hash(&db, f, b, games);
        if got != want {
            bad.push(format!("{f:?} {b:?}: got {got:#018x}, recorded {want:#018x}"));
        }
    }
    assert!(bad.is_empty(), "outcome hashes differ from main:\n{}", bad.join("\n"));
}
