//! Paying (R6, rust/engine/costs.rs): a board of up to 64 cards pays from bit sets of its
//! ready sources, a larger one scans a list of them; both pick the same source for every unit
//! (the first in play order of the lowest rank, then of the resource with the most units
//! left), so whole games are the same either way.

use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::{Cid, Game, GameConfig, Outcome};

type Summary = (Outcome, u32, u32, Vec<(u8, u16, u16)>, Vec<(i32, i32, [i16; 3], Vec<Cid>, Vec<Cid>, Vec<bool>)>);

fn play(db: &CardDb, factions: &[u8], bots: &[BotSpec], seed: u64, scan: bool) -> Summary {
    let cfg = GameConfig { factions: factions.to_vec(), seed, start_player: None, ..Default::default() };
    let mut g = Game::new(db, &cfg, ketharmad::bots::seat_policies(seed, factions.len(), bots));
    g.hooks_mut().scan_payment = scan;
    g.trace_mut().plays = Some(Vec::new());
    g.trace_mut().check_invariants = true;
    let o = g.run(None);
    assert_eq!(g.trace().invariant_error, None, "seed {seed}");
    let s = g.state();
    let seats = s.players.iter().map(|p| (p.support, p.scandal, p.pool, p.hand.clone(), p.play.clone(), p.play.iter().map(|&c| s.inst[c as usize].exhausted).collect())).collect();
    (o, s.turn, s.total_actions, g.trace_mut().plays.take().unwrap(), seats)
}

#[test]
fn bit_set_and_list_payment_play_the_same_games() {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let heuristic = BotSpec::parse("heuristic", vec![]).unwrap();
    let seatings: [&[u8]; 5] = [&[0, 2], &[1, 3], &[3, 0], &[2, 0, 3], &[0, 1, 2, 3]];
    for (k, f) in seatings.iter().enumerate() {
        for seed in 0..16u64 {
            let bots: Vec<BotSpec> = (0..f.len()).map(|s| if (seed as usize + s).is_multiple_of(2) { heuristic.clone() } else { BotSpec::random() }).collect();
            let seed = seed * 7907 + k as u64;
            assert_eq!(play(&db, f, &bots, seed, false), play(&db, f, &bots, seed, true), "seating {f:?}, seed {seed}");
        }
    }
}
