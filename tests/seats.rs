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
    let spec = BatchSpec { bots, factions: factions.to_vec(), games, seed: 7, threads: Some(1), start_player: None, ..Default::default() };
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

/// A seating other than the free-for-all reaches the rules through the seat model alone: a
/// Coalition-like seating (teams {0, 2} and {1, 3}, each team's Support and Scandal in one
/// pool) changes opponents, "opponent" targets, Exposé options, Outrage and elimination without
/// any other change. (The Coalition format itself, with its setup and partner blocking, is
/// `rules.format = "coalition"`: tests/coalition.rs.)
#[test]
fn a_team_seating_changes_opponents_and_pools() {
    use ketharmad::cards::TargetKind;
    use ketharmad::engine::{scenario, Opt, Seating, Seats};
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    // the free-for-all first: everyone else is an opponent, nobody an ally
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(g.allies(0).count(), 0);
    assert!((1..4).all(|q| g.is_enemy(0, q)));
    let e = [Seats(0b1010), Seats(0b0101), Seats(0b1010), Seats(0b0101)];
    let a = [Seats(0b0100), Seats(0b1000), Seats(0b0001), Seats(0b0010)];
    g.state_mut().seating = Seating::new(4, &e, &a, &[0, 1, 0, 1]).unwrap();
    for p in 0..4 {
        g.state_mut().set_support(p, 20);
    }
    assert_eq!(g.opponents(0).collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(g.opponents(3).collect::<Vec<_>>(), vec![0, 2]);
    assert_eq!(g.allies(0).collect::<Vec<_>>(), vec![2]);
    assert!(!g.is_enemy(0, 2) && g.is_enemy(2, 1));
    // "target opponent" offers only the other team
    let src = g.put_in_hand(0, "ner_orban_viktor");
    g.target_options(0, TargetKind::Opponent, src);
    assert_eq!(g.opts(), &[Opt::Player(1), Opt::Player(3)]);
    // Outrage counts a gain by an opponent only: seat 2 (seat 0's ally) gaining Scandal
    // marks seats 1 and 3, not seat 0; seat 1 (an opponent) gaining marks seat 0
    let turn = g.state().turn;
    g.gain_scandal(2, 1);
    let marked = |g: &ketharmad::engine::Game| (0..4).map(|p| g.state().players[p].outrage_turn == turn).collect::<Vec<_>>();
    assert_eq!(marked(&g), vec![false, true, false, true]);
    g.gain_scandal(1, 1);
    assert_eq!(marked(&g), vec![true, true, true, true]);
    // one pool per team: seat 2's loss is seat 0's, seat 3's Scandal is seat 1's
    g.lose_support(2, 3, 1);
    assert_eq!((0..4).map(|p| g.support_of(p)).collect::<Vec<_>>(), vec![17, 20, 17, 20]);
    g.gain_scandal(3, 2);
    assert_eq!((0..4).map(|p| g.scandal_pool_of(p)).collect::<Vec<_>>(), vec![1, 3, 1, 3]);
    // Exposé options: only the other team
    g.add_bases(0, 1, 3);
    g.main_options(0);
    let exposes: Vec<Opt> = g.opts().iter().copied().filter(|o| matches!(o, Opt::Expose(_))).collect();
    assert_eq!(exposes, vec![Opt::Expose(1), Opt::Expose(3)]);
    // the shared pool at 0 eliminates both members in one state check
    g.lose_support(1, 20, 0);
    g.state_check();
    let alive: Vec<bool> = g.state().players.iter().map(|p| p.alive).collect();
    assert_eq!(alive, vec![true, false, true, false]);
    // the team victory rule (E87, tests/coalition.rs): the surviving team wins together
    assert_eq!(g.state().outcome.map(|o| o.winners), Some(Seats(0b0101)));
}
