//! A stepper's game copies its state at a main-priority decision only when a copy of the game
//! needs it (rust/engine/step.rs, `Drive::lazy`): its copies, re-dealt copies and search
//! rollouts are exactly those of a game that copies its state at every main decision.

use ketharmad::bots::{seat_policies, BotSpec};
use ketharmad::cards::{build_db, load_raw, CardDb};
use ketharmad::engine::step::Stepper;
use ketharmad::engine::{Cid, Game, GameConfig, IntoAgents, Outcome};
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

fn play_random(mut s: Stepper, mut rng: Rng) -> Summary {
    while let Some((_, _, opts)) = s.pending() {
        let i = rng.below(opts.len());
        s.apply(i).unwrap();
    }
    summary(s.game(), s.outcome().unwrap())
}

fn pending(s: &Stepper) -> Option<(usize, ketharmad::engine::DecisionKind, Vec<ketharmad::engine::Opt>)> {
    s.pending().map(|(a, b, c)| (a, b, c.to_vec()))
}

/// The same game stepped twice, copying its state at every main decision (`eager`) and only
/// when a copy needs it: at decisions with and without a copy made since the last main
/// decision, the copies and re-dealt copies are the same and continue the same.
#[test]
fn copies_of_a_lazy_checkpoint_equal_those_of_an_eager_one() {
    let db = db();
    let mut checked = 0;
    for seed in 0..6u64 {
        let factions = if seed % 2 == 0 { vec![0u8, 1, 2, 3] } else { vec![(seed % 4) as u8, ((seed + 2) % 4) as u8] };
        let cfg = GameConfig { factions, seed, start_player: None, ..Default::default() };
        let mut lazy = Stepper::new(&db, &cfg);
        let mut eager = Stepper::new(&db, &cfg).with_eager_checkpoints();
        let mut rng = Rng::new(seed + 11);
        let mut k = 0u64;
        while let Some((seat, _, opts)) = lazy.pending() {
            let n = opts.len();
            assert_eq!(pending(&lazy), pending(&eager), "seed {seed} decision {k}");
            // long stretches without a copy, and stretches with a copy at every decision
            if k % 11 == 5 || (seed < 2 && !k.is_multiple_of(3)) {
                let (dl, de) = (lazy.game().drive().unwrap(), eager.game().drive().unwrap());
                assert_eq!(dl.answers(), de.answers(), "seed {seed} decision {k}: answers since the checkpoint");
                assert_eq!(dl.entry(), de.entry());
                let a = lazy.determinized(seat, &mut Rng::new(seed * 1000 + k));
                let b = eager.determinized(seat, &mut Rng::new(seed * 1000 + k));
                assert_eq!(pending(&a), pending(&b), "seed {seed} decision {k}: the re-dealt copies differ");
                assert_eq!(play_random(a, Rng::new(k)), play_random(b, Rng::new(k)), "seed {seed} decision {k}");
                let (a, b) = (lazy.replayed(), eager.replayed());
                assert_eq!(pending(&a), pending(&lazy));
                assert_eq!(play_random(a, Rng::new(k + 5)), play_random(b, Rng::new(k + 5)), "seed {seed} decision {k}");
                checked += 1;
            }
            let i = rng.below(n);
            lazy.apply(i).unwrap();
            eager.apply(i).unwrap();
            k += 1;
        }
        assert_eq!(summary(lazy.game(), lazy.outcome().unwrap()), summary(eager.game(), eager.outcome().unwrap()));
    }
    assert!(checked > 100, "{checked}");
}

/// Search at every decision rolls out from the checkpoint: stepped (lazy checkpoints, the
/// search bot answering from outside) it plays the batch game (checkpoints copied at once).
#[test]
fn search_at_every_decision_plays_the_batch_game_when_stepped() {
    let db = db();
    let bots = vec![
        BotSpec::parse("search", vec![("iterations".into(), 2.0), ("rollout_rounds".into(), 3.0), ("every".into(), 1.0)]).unwrap(),
        BotSpec::parse("heuristic", vec![]).unwrap(),
    ];
    for seed in 0..2u64 {
        let cfg = GameConfig { factions: vec![(seed % 4) as u8, ((seed + 1) % 4) as u8], seed, start_player: None, ..Default::default() };
        let mut g = Game::new(&db, &cfg, seat_policies(seed, 2, &bots));
        g.record_from_start(None);
        let o = g.run(None);
        let want = summary(&g, o);
        let mut s = Stepper::new(&db, &cfg);
        let mut pols = seat_policies(seed, 2, &bots).into_agents();
        s.advance(&mut pols, 0);
        assert_eq!(summary(s.game(), s.outcome().unwrap()), want, "seed {seed}");
    }
}
