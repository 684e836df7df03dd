//! The caches are derived data (rust/engine/caches.rs): a game whose caches are thrown away
//! and rebuilt from its rules state alone (`Game::rebuild_caches`) plays on exactly as it
//! would have, and passes the invariant check, which compares every counted cache with a
//! fresh count.

use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::{scenario, Cid, EndReason, Game, GameConfig, Opt, Outcome};

/// What a finished game looks like from outside: its outcome, length, every card play
/// (seat, card, turn) and each seat's final Support, Scandal and zones.
type Summary = (Outcome, u32, u32, Vec<(u8, u16, u16)>, Vec<(i32, i32, Vec<Cid>, Vec<Cid>, Vec<Cid>)>);

fn summary(g: &mut Game, o: Outcome) -> Summary {
    let s = g.state();
    let seats = s.players.iter().map(|p| (p.support, p.scandal, p.hand.clone(), p.play.clone(), p.oblivion.clone())).collect();
    (o, s.turn, s.total_actions, g.trace_mut().plays.take().unwrap(), seats)
}

/// Play one game; with `rebuild`, stop at the start of every round (the round limit ends the
/// game there, unfinished), rebuild the caches, check the invariants and play on.
fn play(db: &CardDb, factions: &[u8], bots: &[BotSpec], seed: u64, rebuild: bool) -> (Summary, u32) {
    let cfg = GameConfig { factions: factions.to_vec(), seed, start_player: None, ..Default::default() };
    let mut g = Game::new(db, &cfg, ketharmad::bots::seat_policies(seed, factions.len(), bots));
    g.trace_mut().plays = Some(Vec::new());
    if !rebuild {
        let o = g.run(None);
        return (summary(&mut g, o), 0);
    }
    let max = db.rules.max_rounds as u32;
    let mut rebuilds = 0;
    g.state_mut().round_limit = 1;
    let mut o = g.run(None);
    while o.reason == EndReason::UnfinishedRoundCap && g.state().round < max {
        g.rebuild_caches();
        rebuilds += 1;
        if let Err(e) = g.invariants() {
            panic!("seed {seed}, round {}: rebuilt caches break an invariant: {e}", g.state().round);
        }
        let s = g.state_mut();
        s.outcome = None;
        s.round_limit += 1;
        o = g.run_loop();
    }
    (summary(&mut g, o), rebuilds)
}

#[test]
fn rebuilt_caches_play_the_same_games() {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let heuristic = BotSpec::parse("heuristic", vec![]).unwrap();
    let seatings: [&[u8]; 4] = [&[0, 2], &[1, 3], &[2, 0, 3], &[0, 1, 2, 3]];
    let mut rebuilds = 0;
    for (k, f) in seatings.iter().enumerate() {
        for seed in 0..12u64 {
            let bots: Vec<BotSpec> = (0..f.len()).map(|s| if (seed as usize + s).is_multiple_of(2) { heuristic.clone() } else { BotSpec::random() }).collect();
            let seed = seed * 7919 + k as u64;
            let (whole, _) = play(&db, f, &bots, seed, false);
            let (rebuilt, n) = play(&db, f, &bots, seed, true);
            assert_eq!(whole, rebuilt, "seating {f:?}, seed {seed}: a game with rebuilt caches played differently");
            rebuilds += n;
        }
    }
    // the games were long enough to rebuild many times
    assert!(rebuilds > 48 * 4, "only {rebuilds} rebuilds");
}

// R7.4.1 (E31) with rebuilt caches: damage and "until end of turn" changes made this turn are
// found from the cards alone, so Close still removes them.
#[test]
fn rebuilt_caches_keep_mid_turn_damage_and_pumps() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.state_mut().start_player = 1;
    g.add_bases(0, 2, 3);
    let a = g.put_in_play(0, "rad_radikalis_aktivista"); // 1/1
    let f = g.put_in_play(1, "tis_forsthoffer_agnes"); // 1/3
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    let demo = g.put_in_hand(0, "rad_utcai_demonstracio");
    g.script(0, &[Opt::Card(f)]);
    g.play_card(0, toj);
    g.window(1);
    g.play_card(0, demo);
    g.window(1);
    // from here on the caches are trusted, as in a real game
    g.hooks_mut().full_checks = false;
    g.rebuild_caches();
    g.invariants().unwrap();
    assert_eq!(g.state().inst[f as usize].damage, 2);
    assert_eq!(g.influence(a), 2, "+1/+0 until end of turn");
    g.take_turn();
    assert_eq!(g.state().inst[f as usize].damage, 0, "Close removed the damage");
    assert_eq!(g.influence(a), 1, "Close ended the pump");
    assert_eq!(g.state().inst[a as usize].eot_influence, 0);
    assert!(!g.state().inst[a as usize].eot_momentum);
    g.invariants().unwrap();
}
