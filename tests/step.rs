//! The step API's engine side (rust/engine/step.rs): a game driven one decision at a time
//! plays exactly the batch game; a copy at any decision continues exactly as the original;
//! a re-dealt copy keeps what the seat sees and hides the rest.

use ketharmad::bots::{BotSpec, Policy};
use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::step::Stepper;
use ketharmad::engine::{Cid, DecisionKind, Game, GameConfig, IntoAgents, Outcome};
use ketharmad::rng::Rng;

fn db() -> CardDb {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/python/ketharmad/data/cards.toml")).unwrap();
    build_db(&load_raw(&text).unwrap(), &[]).unwrap()
}

type Summary = (Outcome, u32, u32, Vec<(i32, i32, Vec<Cid>, Vec<Cid>, Vec<Cid>, Vec<Cid>)>);

fn summary(g: &Game, o: Outcome) -> Summary {
    let s = g.state();
    let seats = s.players.iter().map(|p| (p.support, p.scandal, p.hand.clone(), p.deck.clone(), p.play.clone(), p.oblivion.clone())).collect();
    (o, s.turn, s.total_actions, seats)
}

fn spec(kind: &str) -> BotSpec {
    if kind == "search" {
        BotSpec::parse("search", vec![("iterations".into(), 4.0), ("rollout_rounds".into(), 4.0)]).unwrap()
    } else {
        BotSpec::parse(kind, vec![]).unwrap()
    }
}

/// Batch (policies answer inside the engine) and stepped (policies answer from outside
/// through `Stepper::advance`) give the same game, for 2, 3 and 4 players and every bot.
#[test]
fn stepped_games_equal_batch_games() {
    let db = db();
    let mut checked = 0;
    for (factions, kinds) in [
        (vec![0u8, 2], vec!["random", "random"]),
        (vec![1, 3], vec!["heuristic", "aggro"]),
        (vec![2, 0, 3], vec!["control", "random", "heuristic"]),
        (vec![0, 1, 2, 3], vec!["heuristic", "random", "aggro", "control"]),
        (vec![3, 1], vec!["search", "heuristic"]),
    ] {
        let bots: Vec<BotSpec> = kinds.iter().map(|k| spec(k)).collect();
        let games = if kinds.contains(&"search") { 2 } else { 12 };
        for seed in 0..games {
            let cfg = GameConfig { factions: factions.clone(), seed, start_player: None, ..Default::default() };
            let mut g = Game::new(&db, &cfg, ketharmad::bots::seat_policies(seed, factions.len(), &bots));
            let o = g.run(None);
            let want = summary(&g, o);
            let mut s = Stepper::new(&db, &cfg);
            let mut pols = ketharmad::bots::seat_policies(seed, factions.len(), &bots).into_agents();
            s.advance(&mut pols, 0);
            let got = summary(s.game(), s.outcome().expect("the game ends"));
            assert_eq!(got, want, "factions {factions:?} bots {kinds:?} seed {seed}");
            checked += 1;
        }
    }
    assert_eq!(checked, 50);
}

/// Answer with a seeded random index (the same stream gives the same answers to two games
/// at the same decisions).
fn play_random(s: &mut Stepper, rng: &mut Rng) -> Summary {
    while let Some((_, _, opts)) = s.pending() {
        let i = rng.below(opts.len());
        s.apply(i).unwrap();
    }
    summary(s.game(), s.outcome().unwrap())
}

fn kind_index(k: DecisionKind) -> usize {
    use DecisionKind::*;
    [Mulligan, Bottom, Main, Respond, Target, Attackers, Blocks, DivideDamage, ExposeAmount, Discard, Sacrifice].iter().position(|&x| x == k).unwrap()
}

/// A copy taken at any decision (`replayed`) continues exactly as the original does with
/// the same answers; checked at every decision of several games, so at nested ones too
/// (targets inside triggers, blocks, reactions, damage division).
#[test]
fn a_copy_at_every_decision_continues_like_the_original() {
    let db = db();
    let mut kinds_seen = [0u32; 11];
    for seed in 0..6u64 {
        let factions = if seed % 2 == 0 { vec![0u8, 1, 2, 3] } else { vec![(seed % 4) as u8, ((seed + 1) % 4) as u8] };
        let cfg = GameConfig { factions, seed, start_player: None, ..Default::default() };
        let mut s = Stepper::new(&db, &cfg);
        let mut rng = Rng::new(seed + 100);
        let mut k = 0u64;
        while let Some((_, kind, opts)) = s.pending() {
            let n = opts.len();
            // every decision of the first games; then every 5th
            if seed < 2 || k.is_multiple_of(5) {
                kinds_seen[kind_index(kind)] += 1;
                let mut copy = s.replayed();
                let (cs, ck, co) = copy.pending().unwrap();
                let (os, ok, oo) = s.pending().unwrap();
                assert_eq!((cs, ck, co), (os, ok, oo), "seed {seed} decision {k}: the copy stops at another decision");
                let mut orig = s.replayed();
                let mut r1 = Rng::new(seed * 1000 + k);
                let mut r2 = Rng::new(seed * 1000 + k);
                let a = play_random(&mut copy, &mut r1);
                let b = play_random(&mut orig, &mut r2);
                assert_eq!(a, b, "seed {seed} decision {k} ({kind:?})");
            }
            k += 1;
            s.apply(rng.below(n)).unwrap();
        }
    }
    // every kind that came up at all was checked; the common nested ones must come up
    for k in [DecisionKind::Mulligan, DecisionKind::Main, DecisionKind::Respond, DecisionKind::Target, DecisionKind::Attackers, DecisionKind::Blocks] {
        assert!(kinds_seen[kind_index(k)] > 0, "no {k:?} decision was checked: {kinds_seen:?}");
    }
}

/// A re-dealt copy (`determinized`) stops at the same decision of the same seat with the
/// same options, shows that seat the same hand and the same public zones, keeps the number
/// of hidden cards, and does not depend on how the hidden cards were arranged.
#[test]
fn a_redealt_copy_keeps_what_the_seat_sees() {
    let db = db();
    let mut same = 0;
    let mut total = 0;
    let mut changed_hidden = 0;
    let mut canonical = 0;
    for seed in 0..4u64 {
        let cfg = GameConfig { factions: vec![0, 1, 2, 3], seed, start_player: None, ..Default::default() };
        let mut s = Stepper::new(&db, &cfg);
        let mut rng = Rng::new(seed + 7);
        let mut k = 0;
        while let Some((seat, kind, opts)) = s.pending() {
            let n = opts.len();
            if k % 3 == 0 {
                let opts = opts.to_vec();
                let w = s.determinized(seat, &mut Rng::new(k));
                total += 1;
                let at_same = w.pending().is_some_and(|(ws, wk, wo)| (ws, wk, wo) == (seat, kind, &opts[..]));
                if !at_same {
                    eprintln!("seed {seed} decision {k}: {:?} vs {:?}", w.pending().map(|p| (p.0, p.1)), (seat, kind));
                    k += 1;
                    s.apply(rng.below(n)).unwrap();
                    continue;
                }
                same += 1;
                // the copy depends only on what the seat sees: re-dealing the copy with the
                // same stream gives what re-dealing the original gives
                let same_history = w.game().drive().unwrap().answers() == s.game().drive().unwrap().answers();
                if same_history {
                    let x = s.determinized(seat, &mut Rng::new(k + 999));
                    let y = w.determinized(seat, &mut Rng::new(k + 999));
                    assert_eq!(layout(x.game().state()), layout(y.game().state()), "seed {seed} decision {k}: re-dealing depends on the hidden cards");
                    assert_eq!(x.pending().map(|p| (p.0, p.1, p.2.to_vec())), y.pending().map(|p| (p.0, p.1, p.2.to_vec())));
                    canonical += 1;
                }
                let (a, b) = (s.game().state(), w.game().state());
                assert_eq!(a.players[seat].hand, b.players[seat].hand, "seed {seed} decision {k}: the seat's own hand changed");
                for p in 0..4 {
                    assert_eq!(a.players[p].play, b.players[p].play);
                    assert_eq!(a.players[p].hand.len(), b.players[p].hand.len());
                    assert_eq!(a.players[p].deck.len(), b.players[p].deck.len());
                    assert_eq!(a.players[p].support, b.players[p].support);
                    if p != seat {
                        let defs = |st: &ketharmad::engine::State| st.players[p].hand.iter().map(|&c| st.inst[c as usize].def).collect::<Vec<_>>();
                        if defs(a) != defs(b) {
                            changed_hidden += 1;
                        }
                    }
                }
            }
            k += 1;
            s.apply(rng.below(n)).unwrap();
        }
    }
    assert!(total > 100, "{total}");
    // the copy reaches the same decision almost always (hidden cards rarely change what
    // happened since the checkpoint)
    assert!(same * 100 >= total * 95, "{same} of {total} copies stopped at the same decision");
    assert!(changed_hidden > 0, "re-dealing never changed an opponent's hand");
    assert!(canonical * 2 > total, "{canonical} of {total}");
}

/// Every zone of a state as card definitions (what re-dealing changes), with Support.
fn layout(s: &ketharmad::engine::State) -> Vec<Vec<u16>> {
    let defs = |v: &[Cid]| v.iter().map(|&c| s.inst[c as usize].def).collect::<Vec<u16>>();
    let mut out = vec![defs(&s.news_row), defs(&s.news_deck), defs(&s.event_deck)];
    for p in &s.players {
        out.extend([defs(&p.hand), defs(&p.deck), defs(&p.play), defs(&p.oblivion), vec![p.support as u16, p.scandal as u16]]);
    }
    out
}

/// Bad answers are errors, not panics; a finished game has no decision.
#[test]
fn bad_answers_are_refused() {
    let db = db();
    let cfg = GameConfig { factions: vec![0, 1], seed: 3, start_player: None, ..Default::default() };
    let mut s = Stepper::new(&db, &cfg);
    let n = s.pending().unwrap().2.len();
    let e = s.apply(n).unwrap_err();
    assert!(e.contains("does not exist"), "{e}");
    let mut pols = ketharmad::bots::seat_policies(3, 2, &[spec("random"), spec("random")]).into_agents();
    s.advance(&mut pols, 0);
    assert!(s.pending().is_none());
    assert!(s.apply(0).unwrap_err().contains("over"));
}

/// Search at every decision (`every` = 1) plays games that end properly, searches decisions
/// other than main priority (it plays more rollouts than main-only search on the same
/// games), and reproduces.
#[test]
fn search_at_every_decision() {
    let db = db();
    let every = BotSpec::parse("search", vec![("iterations".into(), 6.0), ("rollout_rounds".into(), 3.0), ("every".into(), 1.0)]).unwrap();
    let main = BotSpec::parse("search", vec![("iterations".into(), 6.0), ("rollout_rounds".into(), 3.0)]).unwrap();
    let heur = spec("heuristic");
    let rollouts = |g: &Game| match g.policy::<Policy>(0).unwrap() {
        Policy::Search(s) => s.rollouts,
        _ => 0,
    };
    let (mut r_every, mut r_main) = (0, 0);
    for seed in 0..3u64 {
        let cfg = GameConfig { factions: vec![1, 2], seed, start_player: None, ..Default::default() };
        let mut a = Game::new(&db, &cfg, ketharmad::bots::seat_policies(seed, 2, &[every.clone(), heur.clone()]));
        a.record_from_start(None);
        let oa = a.run(None);
        let mut b = Game::new(&db, &cfg, ketharmad::bots::seat_policies(seed, 2, &[every.clone(), heur.clone()]));
        b.record_from_start(None);
        let ob = b.run(None);
        assert_eq!(summary(&a, oa), summary(&b, ob), "seed {seed}: search at every decision does not reproduce");
        assert!(oa.winner().is_some() || oa.reason != ketharmad::engine::EndReason::LastPlayerStanding);
        let mut c = Game::new(&db, &cfg, ketharmad::bots::seat_policies(seed, 2, &[main.clone(), heur.clone()]));
        c.run(None);
        r_every += rollouts(&a);
        r_main += rollouts(&c);
    }
    assert!(r_every > r_main, "every-decision search played {r_every} rollouts, main-only {r_main}");
}

/// Re-dealing for a seat other than the deciding one (an observer's sample) still stops at
/// the pending decision of the deciding seat, and keeps the observer's own hand.
#[test]
fn a_copy_redealt_for_another_seat_stops_at_the_same_decision() {
    let db = db();
    let (mut same, mut total) = (0, 0);
    for seed in 0..3u64 {
        let cfg = GameConfig { factions: vec![0, 1, 2, 3], seed, start_player: None, ..Default::default() };
        let mut s = Stepper::new(&db, &cfg);
        let mut rng = Rng::new(seed + 70);
        let mut k = 0u64;
        while let Some((seat, kind, opts)) = s.pending() {
            let n = opts.len();
            if k.is_multiple_of(4) {
                let viewer = (seat + 1 + (k as usize % 3)) % 4;
                let w = s.determinized(viewer, &mut Rng::new(k));
                total += 1;
                if w.pending().is_some_and(|(ws, wk, _)| (ws, wk) == (seat, kind)) && w.game().state().turn == s.game().state().turn {
                    same += 1;
                    assert_eq!(w.game().state().players[viewer].hand, s.game().state().players[viewer].hand);
                }
            }
            k += 1;
            s.apply(rng.below(n)).unwrap();
        }
    }
    assert!(total > 50, "{total}");
    assert!(same * 100 >= total * 95, "{same} of {total} copies stopped at the deciding seat's decision");
}
